/* The network file (format cutboard-network/1) and the adjacency matrix as
 * CSV. Layout of the JSON: README, Encounter maps. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "net/network.h"

static double mm(double v)
{
    return round(v * 100) / 100;
}

static cJSON *uint_array(const uint32_t *v, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < n; i++)
        if (!cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[i]))) {
            cJSON_Delete(arr);
            return NULL;
        }
    return arr;
}

static cJSON *analysis_json(const cb_net_analysis *a)
{
    cJSON *o = cJSON_CreateObject(), *hist = NULL, *ecc = NULL;
    int ok = o && cJSON_AddNumberToObject(o, "nodes", (double)a->n) &&
             cJSON_AddNumberToObject(o, "links", (double)a->n_edges) &&
             (hist = cJSON_AddArrayToObject(o, "degree_histogram")) &&
             cJSON_AddNumberToObject(o, "min_degree", (double)a->min_degree) &&
             cJSON_AddNumberToObject(o, "max_degree", (double)a->max_degree) &&
             cJSON_AddNumberToObject(o, "mean_degree", a->mean_degree) &&
             cJSON_AddItemToObject(o, "hubs", uint_array(a->hubs, a->n_hubs)) &&
             cJSON_AddNumberToObject(o, "components", (double)a->components) &&
             cJSON_AddBoolToObject(o, "connected", a->components == 1) &&
             cJSON_AddNumberToObject(o, "largest_component", (double)a->largest) &&
             cJSON_AddNumberToObject(o, "average_clustering", a->avg_clustering) &&
             cJSON_AddNumberToObject(o, "transitivity", a->transitivity) &&
             cJSON_AddBoolToObject(o, "distances", a->has_distances);
    for (size_t d = 0; ok && d <= a->max_degree; d++)
        ok = cJSON_AddItemToArray(hist, cJSON_CreateNumber((double)a->degree_hist[d]));
    if (ok && a->has_distances) {
        ok = cJSON_AddNumberToObject(o, "radius", (double)a->radius) &&
             cJSON_AddNumberToObject(o, "diameter", (double)a->diameter) &&
             cJSON_AddItemToObject(o, "center", uint_array(a->center, a->n_center)) &&
             cJSON_AddNumberToObject(o, "average_shortest_path_length", a->avg_path_length) &&
             (ecc = cJSON_AddArrayToObject(o, "eccentricity"));
        for (size_t v = 0; ok && v < a->n; v++)
            ok = cJSON_AddItemToArray(ecc, cJSON_CreateNumber((double)a->eccentricity[v]));
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cb_status cb_net_json_render(const cb_network *net, const cb_net_spec *spec,
                             const cb_net_layout *layout, const cb_net_analysis *a,
                             char **json, cb_error *err)
{
    *json = NULL;
    cJSON *root = cJSON_CreateObject(), *par = NULL, *edges = NULL;
    int ok = root && cJSON_AddStringToObject(root, "format", "cutboard-network/1") &&
             cJSON_AddStringToObject(root, "model", cb_net_model_name(net->model)) &&
             cJSON_AddStringToObject(root, "seed", spec && spec->seed ? spec->seed : "") &&
             cJSON_AddBoolToObject(root, "geometric", spec && spec->geometric) &&
             cJSON_AddNumberToObject(root, "nodes", (double)net->n) &&
             (par = cJSON_AddObjectToObject(root, "parameters")) &&
             (edges = cJSON_AddArrayToObject(root, "links"));
    if (ok && net->k >= 0)
        ok = cJSON_AddNumberToObject(par, "k", (double)net->k) != NULL;
    if (ok && net->p >= 0)
        ok = cJSON_AddNumberToObject(par, "p", net->p) != NULL;
    if (ok && net->m >= 0)
        ok = cJSON_AddNumberToObject(par, "m", (double)net->m) != NULL;
    if (ok && net->links >= 0)
        ok = cJSON_AddNumberToObject(par, "links", (double)net->links) != NULL;
    for (size_t i = 0; ok && i < net->n_edges; i++) {
        uint32_t ab[2] = {net->edges[i].a, net->edges[i].b};
        ok = cJSON_AddItemToArray(edges, uint_array(ab, 2));
    }
    if (ok && layout) {
        cJSON *pos = NULL, *page = NULL;
        ok = (page = cJSON_AddObjectToObject(root, "page")) &&
             cJSON_AddNumberToObject(page, "width_mm", mm(layout->page_w)) &&
             cJSON_AddNumberToObject(page, "height_mm", mm(layout->page_h)) &&
             cJSON_AddStringToObject(root, "layout", layout->method) &&
             cJSON_AddNumberToObject(root, "crossings", (double)layout->crossings) &&
             cJSON_AddNumberToObject(root, "node_radius_mm", mm(layout->node_radius)) &&
             (pos = cJSON_AddArrayToObject(root, "positions_mm"));
        for (size_t v = 0; ok && v < net->n; v++) {
            cJSON *xy = cJSON_CreateArray();
            ok = xy && cJSON_AddItemToArray(pos, xy) &&
                 cJSON_AddItemToArray(xy, cJSON_CreateNumber(mm(layout->xy[2 * v]))) &&
                 cJSON_AddItemToArray(xy, cJSON_CreateNumber(mm(layout->xy[2 * v + 1])));
        }
    }
    if (ok && a) {
        cJSON *an = analysis_json(a);
        ok = an && cJSON_AddItemToObject(root, "analysis", an);
        if (!ok)
            cJSON_Delete(an);
    }
    char *text = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return cb_fail(err, CB_ERR_NOMEM, "JSON: out of memory");
    size_t len = strlen(text);
    char *withnl = realloc(text, len + 2);
    if (!withnl) {
        free(text);
        return cb_fail(err, CB_ERR_NOMEM, "JSON: out of memory");
    }
    withnl[len] = '\n';
    withnl[len + 1] = '\0';
    *json = withnl;
    return CB_OK;
}

cb_status cb_net_csv_render(const cb_network *net, char **csv, size_t *len, cb_error *err)
{
    *csv = NULL;
    *len = 0;
    size_t n = net->n;
    if (n > CB_NET_MAX_CSV_NODES)
        return cb_fail_option(err, "csv",
                       "the adjacency matrix of %zu nodes is too big (at most %d nodes)",
                       n, CB_NET_MAX_CSV_NODES);
    size_t row = 2 * n; /* "0," ... "0\n" */
    char *buf = malloc(n * row + 1);
    if (!buf)
        return cb_fail(err, CB_ERR_NOMEM, "adjacency matrix: out of memory");
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            buf[i * row + 2 * j] = '0';
            buf[i * row + 2 * j + 1] = j + 1 < n ? ',' : '\n';
        }
    for (size_t e = 0; e < net->n_edges; e++) {
        size_t a = net->edges[e].a, b = net->edges[e].b;
        buf[a * row + 2 * b] = '1';
        buf[b * row + 2 * a] = '1';
    }
    buf[n * row] = '\0';
    *csv = buf;
    *len = n * row;
    return CB_OK;
}
