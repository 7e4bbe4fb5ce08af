/* Fuzz target: the network command's inputs. The bytes become a model and
 * its parameters (any values, hostile ones included: negative, huge, NaN);
 * cb_net_spec_check must refuse what cannot be built, and what it accepts
 * (up to 400 nodes and 4,000 links here, to keep runs fast) is built and analysed. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const uint8_t *p;
    size_t left;
} bytes;

static uint64_t take(bytes *b, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        v = v << 8 | (b->left ? *b->p : 0);
        if (b->left)
            b->p++, b->left--;
    }
    return v;
}

/* A long that is small most of the time and anything some of the time. */
static long any_long(bytes *b)
{
    uint8_t kind = (uint8_t)take(b, 1);
    if (kind < 200)
        return (long)(take(b, 2) % 4096) - (kind < 10 ? 100 : 0);
    return (long)take(b, 8);
}

static double any_double(bytes *b)
{
    uint8_t kind = (uint8_t)take(b, 1);
    if (kind < 200)
        return (double)take(b, 2) / 65535.0;
    uint64_t raw = take(b, 8);
    double d;
    memcpy(&d, &raw, sizeof d);
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes b = {data, size};
    cb_net_spec s;
    cb_net_spec_defaults(&s);
    s.model = (cb_net_model)(take(&b, 1) % (CB_NET_MODELS + 1));
    s.seed = "fuzz";
    s.n = any_long(&b);
    s.k = any_long(&b);
    s.p = any_double(&b);
    s.m = any_long(&b);
    s.links = any_long(&b);
    s.geometric = (int)(take(&b, 1) & 1);
    s.width = any_double(&b) * 1000;
    s.height = any_double(&b) * 1000;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_net_spec_check(&s, &err) != CB_OK) {
        if (err.status == CB_OK || !err.message[0] || strchr(err.message, '\n'))
            abort();
        return 0;
    }
    if ((int)s.model >= CB_NET_MODELS || s.n < 0)
        abort(); /* accepted what cannot exist */
    /* Fast inputs only: what a dense spec costs is the limits' business
     * (tests/test_badinput.c), not the fuzzer's. */
    double n = (double)s.n, links;
    switch (s.model) {
    case CB_NET_RING: case CB_NET_SMALL_WORLD: case CB_NET_REGULAR: links = n * (double)s.k / 2; break;
    case CB_NET_COMPLETE: links = n * (n - 1) / 2; break;
    case CB_NET_SCALE_FREE: links = n * (double)s.m; break;
    case CB_NET_RANDOM: case CB_NET_ANCHORED:
        links = n + (s.links > 0 ? (double)s.links : 0) + (s.p > 0 ? s.p * n * n / 2 : 0);
        break;
    default: links = n;
    }
    if (n > 400 || !(links <= 4000))
        return 0;
    cb_network *net = NULL;
    if (cb_network_build(&s, &net, &err) != CB_OK)
        return 0;
    for (size_t i = 0; i < net->n_edges; i++)
        if (net->edges[i].a >= net->edges[i].b || net->edges[i].b >= net->n)
            abort();
    cb_net_analysis *a = NULL;
    if (cb_net_analyze(net, &a, &err) == CB_OK)
        cb_net_analysis_free(a);
    cb_network_free(net);
    return 0;
}
