/* cutboard network: an encounter map from a classic network model, as a
 * PDF, with its analysis (and the network file and adjacency matrix). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard network --model M --nodes N [options] -o map.pdf\n"
    "\n"
    "Draws an encounter map from a classic network model, numbered, with a\n"
    "legend; --analyze adds the analysis (centre, hubs, distances) to the map.\n"
    "\n"
    "      --model M        linear, ring, regular, complete, random, anchored,\n"
    "                       small-world or scale-free\n"
    "  -n, --nodes N        number of nodes (default 20)\n"
    "  -s, --seed TEXT      any text; the same seed gives the same map\n"
    "      --k K            ring, small-world: even number of neighbours (default\n"
    "                       2 ring, 4 small-world); regular: the degree (default 3)\n"
    "      --p P            small-world: rewiring probability (default 0.1);\n"
    "                       random, anchored: link probability (G(n,p))\n"
    "      --m M            scale-free: links per new node (default 2)\n"
    "      --links L        random: exactly L links (G(n,m)); anchored: L in all\n"
    "                       (default for both: 1.5 n)\n"
    "      --geometric      build the model on a triangulation of placed points:\n"
    "                       the map has no crossings\n"
    "      --analyze        print the analysis on the map\n"
    "  -o, --output FILE    the PDF to write (up to 400 nodes and 2000 links)\n"
    "      --json FILE      the network file with its analysis (cutboard-network/1)\n"
    "      --csv FILE       the adjacency matrix as CSV (up to 5000 nodes)\n"
    "      --paper NAME     a4 (default), letter, a3, tabloid, ... or WxHmm\n"
    "      --portrait       portrait instead of landscape\n"
    "      --font FILE      TTF font to embed (default fonts/DejaVuSans.ttf)\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "At least one of -o, --json and --csv. Exit codes: 0 ok, 64 bad option,\n"
    "65 bad data, 66 missing input, 70 internal error, 73/74 cannot write.\n";

static int cli_long(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return cli_fail(CB_ERR_USAGE, "%s \"%s\": give a whole number from %ld to %ld", opt, s,
                        lo, hi) ? -1 : -1; /* the message is printed; -1 either way */
    *out = v;
    return 0;
}

int cli_network_parse(int argc, char **argv, cli_network_options *o)
{
    cli_args a;
    const char *paper = "a4", *model = NULL;
    int portrait = 0;
    memset(o, 0, sizeof *o);
    cb_net_spec *spec = &o->spec;
    cb_net_spec_defaults(spec);
    spec->seed = NULL;
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        if (cli_help_version(&a, usage)) {
            return 0;
        } else if (cli_value(&a, "--model")) {
            model = a.val;
        } else if (cli_value(&a, "-n|--nodes")) {
            if (cli_long("--nodes", a.val, 1, CB_NET_MAX_NODES, &spec->n))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "-s|--seed")) {
            spec->seed = a.val;
        } else if (cli_value(&a, "--k")) {
            if (cli_long("--k", a.val, 0, CB_NET_MAX_NODES, &spec->k))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--m")) {
            if (cli_long("--m", a.val, 0, CB_NET_MAX_NODES, &spec->m))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--links")) {
            if (cli_long("--links", a.val, 0, CB_NET_MAX_LINKS, &spec->links))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--p")) {
            if (cli_double("--p", a.val, &spec->p))
                return CLI_EXIT_USAGE;
            if (!(spec->p >= 0 && spec->p <= 1))
                return cli_fail(CB_ERR_USAGE, "--p %s: a probability is in [0, 1]", a.val);
        } else if (cli_flag(&a, "--geometric")) {
            spec->geometric = 1;
        } else if (cli_flag(&a, "--analyze")) {
            o->analyze = 1;
        } else if (cli_value(&a, "-o|--output")) {
            o->output = a.val;
        } else if (cli_value(&a, "--json")) {
            o->json_path = a.val;
        } else if (cli_value(&a, "--csv")) {
            o->csv_path = a.val;
        } else if (cli_value(&a, "--paper")) {
            paper = a.val;
        } else if (cli_flag(&a, "--portrait")) {
            portrait = 1;
        } else if (cli_value(&a, "--font")) {
            o->font = a.val;
        } else {
            return a.bad ? CLI_EXIT_USAGE : cli_unknown("network", a.arg);
        }
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    if (!model)
        return cli_fail(CB_ERR_USAGE, "--model: give linear, ring, regular, complete, random, "
                        "anchored, small-world or scale-free");
    int mi = cb_net_model_parse(model);
    if (mi < 0)
        return cli_fail(CB_ERR_USAGE, "--model \"%s\": not one of linear, ring, regular, "
                        "complete, random, anchored, small-world, scale-free", model);
    spec->model = (cb_net_model)mi;
    o->model = model;
    if (!o->output && !o->json_path && !o->csv_path)
        return cli_fail(CB_ERR_USAGE, "no output: give -o map.pdf, --json FILE or --csv FILE");
    const char *opts[] = {"-o", "--json", "--csv"};
    const char *paths[] = {o->output, o->json_path, o->csv_path};
    int same = cli_distinct_outputs(opts, paths, 3);
    if (same)
        return same;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_paper_parse(paper, &o->page_w, &o->page_h, &err) != CB_OK)
        return cli_error(err.status, &err);
    if (portrait) {
        double t = o->page_w;
        o->page_w = o->page_h;
        o->page_h = t;
    }
    if (!spec->seed) {
        cli_random_seed(o->seed_buf, sizeof o->seed_buf);
        spec->seed = o->seed_buf;
    }
    /* geometric points go in a box of the map's shape */
    double pw = o->page_w, ph = o->page_h;
    spec->width = pw >= ph ? pw - 20 - 78 : pw - 20;
    spec->height = pw >= ph ? ph - 20 : ph - 20 - 78;
    cb_status st = cb_net_spec_check(spec, &err);
    return st != CB_OK ? cli_error(st, &err) : -1;
}

int cli_network(int argc, char **argv)
{
    cli_network_options o;
    int rc = cli_network_parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    cb_net_spec spec = o.spec;
    const char *output = o.output, *json_path = o.json_path, *csv_path = o.csv_path,
               *font = o.font, *model = o.model;
    int analyze = o.analyze;
    double pw = o.page_w, ph = o.page_h;
    char font_buf[4096];
    if (!font) {
        if ((rc = cli_data_path("fonts/DejaVuSans.ttf", font_buf, sizeof font_buf)))
            return rc;
        font = font_buf;
    }
    cb_render_options ropt = {.font_path = font};
    rc = cli_source_date(&ropt);
    if (rc)
        return rc;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st;

    cb_network *net = NULL;
    cb_net_analysis *an = NULL;
    cb_net_layout *lay = NULL;
    unsigned char *pdf = NULL;
    size_t pdf_len = 0, csv_len = 0;
    char *json = NULL, *csv = NULL;
    st = cb_network_build(&spec, &net, &err);
    if (st == CB_OK && output)
        st = cb_net_layout_make(net, spec.seed, pw, ph, &lay, &err);
    if (st == CB_OK && csv_path)
        st = cb_net_csv_render(net, &csv, &csv_len, &err);
    if (st == CB_OK && (analyze || json_path))
        st = cb_net_analyze(net, &an, &err);
    if (st == CB_OK && output)
        st = cb_net_pdf_render(net, &spec, lay, analyze ? an : NULL, &ropt, &pdf, &pdf_len,
                               &err);
    if (st == CB_OK && json_path)
        st = cb_net_json_render(net, &spec, lay, an, &json, &err);
    if (st == CB_OK) {
        cli_output outs[3];
        size_t k = 0;
        if (output)
            outs[k++] = (cli_output){output, pdf, pdf_len};
        if (json_path)
            outs[k++] = (cli_output){json_path, json, strlen(json)};
        if (csv_path)
            outs[k++] = (cli_output){csv_path, csv, csv_len};
        st = cli_write_all(outs, k, &err);
    }
    if (st == CB_OK && isatty(STDERR_FILENO))
        cli_note("%s network, %zu nodes, %zu links, seed \"%s\"%s",
                 model, net->n, net->n_edges, spec.seed,
                 lay ? (lay->crossings ? ", map has crossings" : ", map has no crossings") : "");
    free(pdf);
    free(json);
    free(csv);
    cb_net_layout_free(lay);
    cb_net_analysis_free(an);
    cb_network_free(net);
    if (st != CB_OK)
        return cli_error(st, &err);
    return 0;
}
