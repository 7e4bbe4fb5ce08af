/* Encounter-map networks: the models' names and parameters, the spec check,
 * and the build, which runs one model (netmodels.c, or its geometric
 * version in netgeo.c) with the project's RNG seeded from the seed text and
 * returns the links sorted. */
#include "base/error.h"
#include "net/netmodels.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const model_names[CB_NET_MODELS] = {
    "linear", "ring", "regular", "complete", "random", "anchored", "small-world", "scale-free"};

const char *cb_net_model_name(cb_net_model model)
{
    return (unsigned)model < CB_NET_MODELS ? model_names[model] : "unknown";
}

int cb_net_model_parse(const char *name)
{
    for (int i = 0; name && i < CB_NET_MODELS; i++)
        if (strcmp(name, model_names[i]) == 0)
            return i;
    return -1;
}

void cb_net_spec_defaults(cb_net_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->model = CB_NET_RING;
    spec->seed = "";
    spec->n = 20;
    spec->k = spec->m = spec->links = -1;
    spec->p = -1;
    spec->width = 1.5;
    spec->height = 1;
}

/* ---- parameters --------------------------------------------------------- */

enum { P_K = 1, P_P = 2, P_M = 4, P_LINKS = 8 };

static int model_params(cb_net_model m)
{
    switch (m) {
    case CB_NET_RING: return P_K;
    case CB_NET_REGULAR: return P_K;
    case CB_NET_RANDOM: return P_P | P_LINKS;
    case CB_NET_ANCHORED: return P_P | P_LINKS;
    case CB_NET_SMALL_WORLD: return P_K | P_P;
    case CB_NET_SCALE_FREE: return P_M;
    default: return 0;
    }
}

static void resolve(const cb_net_spec *s, params *q)
{
    q->n = s->n;
    q->k = s->k;
    q->m = s->m;
    q->links = s->links;
    q->p = s->p;
    switch (s->model) {
    case CB_NET_RING:
        if (q->k < 0)
            q->k = 2;
        break;
    case CB_NET_REGULAR:
        if (q->k < 0)
            q->k = 3;
        break;
    case CB_NET_SMALL_WORLD:
        if (q->k < 0)
            q->k = 4;
        if (q->p < 0)
            q->p = 0.1;
        break;
    case CB_NET_SCALE_FREE:
        if (q->m < 0)
            q->m = 2;
        break;
    case CB_NET_RANDOM:
        if (s->geometric && q->p < 0 && q->links < 0)
            q->p = 0.3;
        else if (q->p < 0 && q->links < 0)
            q->links = (long)fmin(cb_net_pairs((double)q->n), floor(1.5 * (double)q->n));
        break;
    case CB_NET_ANCHORED:
        if (s->geometric && q->p < 0 && q->links < 0)
            q->p = 0.3;
        else if (q->p < 0 && q->links < 0)
            q->links = (long)fmin(cb_net_pairs((double)q->n), floor(1.5 * (double)q->n));
        break;
    default:
        break;
    }
}

cb_status cb_net_spec_check(const cb_net_spec *s, cb_error *err)
{
    if (!s || (unsigned)s->model >= CB_NET_MODELS)
        return cb_fail_option(err, "model", "unknown model");
    const char *name = model_names[s->model];
    int allowed = model_params(s->model);
    static const struct { int bit; const char *field; } opts[] = {
        {P_K, "k"}, {P_P, "p"}, {P_M, "m"}, {P_LINKS, "links"}};
    int given = (s->k >= 0 ? P_K : 0) | (s->p >= 0 || isnan(s->p) ? P_P : 0) |
                (s->m >= 0 ? P_M : 0) | (s->links >= 0 ? P_LINKS : 0);
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if ((given & opts[i].bit) && !(allowed & opts[i].bit))
            return cb_fail_option(err, opts[i].field, "not a parameter of the %s model", name);
    long n = s->n;
    if (n < 1 || n > CB_NET_MAX_NODES)
        return cb_fail_option(err, "nodes", "%ld is out of range (1..%d)", n, CB_NET_MAX_NODES);
    if (s->geometric) {
        if (n < 3 || n > CB_NET_MAX_DRAWN_NODES)
            return cb_fail_option(err, "nodes", "%ld is out of range for a geometric map (3..%d)",
                                  n, CB_NET_MAX_DRAWN_NODES);
        /* A positive, finite box, not so thin that the point grid's column
         * count overflows (the net fuzzer's 1e300 x 1e-300 box). */
        if (!(s->width > 0) || !(s->height > 0) || !isfinite(s->width) || !isfinite(s->height) ||
            !(s->width / s->height <= 1e6) || !(s->height / s->width <= 1e6))
            return cb_fail_option(err, "geometric",
                                  "box %gx%g is not a positive size (sides within 1e6 "
                                  "of each other)", s->width, s->height);
    }
    if (given & P_P) {
        if (!(s->p >= 0 && s->p <= 1))
            return cb_fail_option(err, "p", "%g is not a probability (0..1)", s->p);
    }
    if ((given & P_P) && (given & P_LINKS))
        return cb_fail_option(err, "p", "the %s model takes a number of links or p, not both",
                              name);
    params q;
    resolve(s, &q);
    double pairs = cb_net_pairs((double)n);
    switch (s->model) {
    case CB_NET_LINEAR:
        break;
    case CB_NET_COMPLETE:
        if (n > CB_NET_MAX_COMPLETE)
            return cb_fail_option(err, "nodes", "%ld is too many for a complete network (at "
                                  "most %d)", n, CB_NET_MAX_COMPLETE);
        break;
    case CB_NET_RING:
    case CB_NET_SMALL_WORLD:
        if (q.k < 2 || q.k % 2)
            return cb_fail_option(err, "k", "%ld is not what the %s model needs: an even k >= 2 "
                                  "(k/2 neighbours on each side)", q.k, name);
        if (q.k >= n && !(s->geometric && s->model == CB_NET_SMALL_WORLD))
            return cb_fail_option(err, "k", "%ld is not less than the nodes (%ld)", q.k, n);
        if ((double)n * (double)q.k / 2 > CB_NET_MAX_LINKS)
            return cb_fail_option(err, "k", "%ld makes more than %d links", q.k, CB_NET_MAX_LINKS);
        break;
    case CB_NET_REGULAR:
        if (q.k < 1)
            return cb_fail_option(err, "k", "%ld is less than 1, which a k-regular network needs", q.k);
        if (q.k >= n && !s->geometric) /* geometric: k is a cap */
            return cb_fail_option(err, "k", "%ld is not less than the nodes (%ld)", q.k, n);
        if (!s->geometric && (n * q.k) % 2)
            return cb_fail_option(err, "k", "%ld makes n * k odd (n = %ld); a k-regular network "
                                  "needs it even", q.k, n);
        if ((double)n * (double)q.k / 2 > CB_NET_MAX_LINKS)
            return cb_fail_option(err, "k", "%ld makes more than %d links", q.k, CB_NET_MAX_LINKS);
        break;
    case CB_NET_SCALE_FREE:
        if (q.m < 1 || q.m >= n)
            return cb_fail_option(err, "m", "%ld is out of range: the scale-free model needs 1 "
                                  "<= m < the nodes (%ld)", q.m, n);
        if ((double)n * (double)q.m > CB_NET_MAX_LINKS)
            return cb_fail_option(err, "m", "%ld makes more than %d links", q.m, CB_NET_MAX_LINKS);
        break;
    case CB_NET_RANDOM:
    case CB_NET_ANCHORED:
        if (q.links >= 0) {
            double lo = s->model == CB_NET_ANCHORED ? (double)n - 1 : 0;
            if ((double)q.links < lo || (double)q.links > pairs)
                return cb_fail_option(err, "links", "%ld is out of range: the %s model on %ld nodes "
                                      "has %.0f..%.0f links", q.links, name, n, lo, pairs);
            if (q.links > CB_NET_MAX_LINKS)
                return cb_fail_option(err, "links", "%ld is more than %d links", q.links,
                                      CB_NET_MAX_LINKS);
        } else if (q.p * pairs > CB_NET_MAX_LINKS) {
            return cb_fail_option(err, "p", "%g means about %.0f links, more than %d", q.p,
                                  q.p * pairs, CB_NET_MAX_LINKS);
        }
        break;
    }
    return CB_OK;
}

/* ---- building ------------------------------------------------------------ */

cb_status cb_network_build(const cb_net_spec *spec, cb_network **out, cb_error *err)
{
    *out = NULL;
    cb_status st = cb_net_spec_check(spec, err);
    if (st != CB_OK)
        return st;
    params q;
    resolve(spec, &q);
    cb_rng rng;
    char tag[64];
    snprintf(tag, sizeof tag, "network/%s/", model_names[spec->model]);
    cb_rng_seed(&rng, cb_hash_string(spec->seed ? spec->seed : "") ^ cb_hash_string(tag));
    cb_network *net = calloc(1, sizeof *net);
    if (!net)
        return cb_fail(err, CB_ERR_NOMEM, "network: out of memory");
    net->model = spec->model;
    net->n = (size_t)q.n;
    int allowed = model_params(spec->model);
    net->k = allowed & P_K ? q.k : -1;
    net->m = allowed & P_M ? q.m : -1;
    net->links = allowed & P_LINKS ? q.links : -1;
    net->p = allowed & P_P ? q.p : -1;
    if (net->links >= 0)
        net->p = -1;
    elist l = {0};
    uint32_t n = (uint32_t)q.n;
    int rc = 0;
    if (spec->geometric) {
        net->xy = malloc(2 * (size_t)n * sizeof *net->xy);
        rc = net->xy ? cb_net_build_geometric(&l, spec, &q, net->xy, &rng) : -1;
    } else {
        switch (spec->model) {
        case CB_NET_LINEAR: cb_net_linear(&l, n); break;
        case CB_NET_RING: cb_net_ring(&l, n, (uint32_t)q.k); break;
        case CB_NET_REGULAR: rc = cb_net_regular(&l, n, (uint32_t)q.k, &rng); break;
        case CB_NET_COMPLETE: cb_net_complete(&l, n); break;
        case CB_NET_RANDOM:
            if (q.links >= 0) {
                rc = cb_net_random_links(&l, n, (size_t)q.links, &rng);
            } else {
                cb_net_gnp(&l, n, q.p, &rng, NULL);
            }
            break;
        case CB_NET_ANCHORED: rc = cb_net_anchored(&l, n, q.links, q.p, &rng); break;
        case CB_NET_SMALL_WORLD: rc = cb_net_small_world(&l, n, (uint32_t)q.k, q.p, &rng); break;
        case CB_NET_SCALE_FREE: rc = cb_net_scale_free(&l, n, (uint32_t)q.m, &rng); break;
        }
    }
    if (rc == 0 && (l.oom || cb_net_sort_edges(l.e, l.n, n) != 0))
        rc = -1;
    if (rc != 0) {
        free(l.e);
        cb_network_free(net);
        if (rc > 0)
            return cb_fail(err, CB_ERR_INFEASIBLE,
                           "regular: no simple %ld-regular network on %ld nodes found", q.k,
                           q.n);
        return cb_fail(err, CB_ERR_NOMEM, "network: out of memory for %ld nodes", q.n);
    }
    net->edges = l.e;
    net->n_edges = l.n;
    *out = net;
    return CB_OK;
}

void cb_network_free(cb_network *net)
{
    if (!net)
        return;
    free(net->edges);
    free(net->xy);
    free(net);
}

void cb_net_params_text(const cb_network *net, char *out, size_t len)
{
    int w = snprintf(out, len, "n=%zu", net->n);
    if (net->k >= 0 && w >= 0 && (size_t)w < len)
        w += snprintf(out + w, len - (size_t)w, " k=%ld", net->k);
    if (net->p >= 0 && w >= 0 && (size_t)w < len)
        w += snprintf(out + w, len - (size_t)w, " p=%g", net->p);
    if (net->m >= 0 && w >= 0 && (size_t)w < len)
        w += snprintf(out + w, len - (size_t)w, " m=%ld", net->m);
    if (net->links >= 0 && w >= 0 && (size_t)w < len)
        snprintf(out + w, len - (size_t)w, " links=%ld", net->links);
}
