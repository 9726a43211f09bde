/* pgbench's text output (PostgreSQL 15; docs/importers.md, "pgbench"). A run starts at its
 * banner "pgbench (15.20 ...)"; several runs may be concatenated. The case is "N-clients"
 * ("number of clients: N"). With -P, each progress line "progress: 1.0 s, 673.0 tps, lat 2.881
 * ms stddev 3.418, 0 failed" is a sample of pgbench-tps (transactions/s, higher is better) and
 * pgbench-latency (ms, lower is better); without, each run's "tps = X (without initial
 * connection time)" and "latency average = X ms" are one sample. The closing figures of a run
 * with progress lines are kept as case metadata (pgbench.tps, pgbench.latency_average,
 * pgbench.latency_stddev). */
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_line_starts(data, len, "pgbench (", 1024) &&
        !tally__sniff_line_starts(data, len, "progress: ", 1024) &&
        !tally__sniff_line_starts(data, len, "transaction type: ", 1024))
        return 0;
    size_t window = len < 65536 ? len : 65536;
    return tally__sniff_has(data, len, " tps,", window) ||
                   tally__sniff_line_starts(data, len, "tps = ", window)
               ? 95
               : 0;
}

typedef struct reader {
    tally__line_import t;
    const char *name;
    const tally_load_options *opts;
    char case_name[32];
    int progress; /* progress lines in this run */
    size_t samples;
    /* A run's progress figures, added once its "number of clients" (printed after them) names
     * the case. */
    double *tps, *lat;
    size_t held, cap;
} reader;

/* The benchmark "pgbench-WHAT", or the caller's --benchmark for the tps, used as it is: a copy
 * into a buffer could cut it. */
static const char *bench_name(const reader *rd, const char *what)
{
    if (strcmp(what, "tps") == 0)
        return tally__import_name(rd->opts, "pgbench-tps");
    return "pgbench-latency";
}

static int add(reader *rd, const char *what, const char *unit, tally_direction dir, double v)
{
    const char *bench = bench_name(rd, what);
    rd->samples++;
    return tally__import_sample(rd->t.rs, bench, unit, dir,
                                rd->case_name[0] ? rd->case_name : "all", v);
}

/* The number in field f with `trim` bytes cut off its end ("673.0," -> 673.0). */
static int field_value(double *v, reader *rd, size_t i, size_t trim, const char *what)
{
    if (i >= rd->t.nf || i >= TALLY__LINE_FIELDS || rd->t.f[i].len <= trim)
        return tally__error_at(TALLY_EPARSE, rd->name, rd->t.lines.lineno,
                               i < rd->t.nf && i < TALLY__LINE_FIELDS ? rd->t.f[i].col : 1,
                               "expected %s", what);
    tally__field f = rd->t.f[i];
    f.len -= trim;
    return tally__field_number(v, &f, rd->name, rd->t.lines.lineno, what, what);
}

/* The run's progress figures into its case (at the next banner or the end). */
static int flush(reader *rd)
{
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < rd->held; i++) {
        rc = add(rd, "tps", "transactions/s", TALLY_HIGHER_IS_BETTER, rd->tps[i]);
        if (rc == TALLY_OK)
            rc = add(rd, "latency", "ms", TALLY_LOWER_IS_BETTER, rd->lat[i]);
    }
    rd->held = 0;
    return rc;
}

/* "progress: 1.0 s, 673.0 tps, lat 2.881 ms stddev 3.418, 0 failed" */
static int progress_line(reader *rd)
{
    rd->progress++;
    double tps, lat;
    if (rd->t.nf < 7 || !tally__field_is(&rd->t.f[4], "tps,") || !tally__field_is(&rd->t.f[5], "lat"))
        return tally__error_at(TALLY_EPARSE, rd->name, rd->t.lines.lineno, 1,
                               "expected 'progress: T s, X tps, lat Y ms ...'");
    int rc = field_value(&tps, rd, 3, 0, "the tps");
    if (rc == TALLY_OK)
        rc = field_value(&lat, rd, 6, 0, "the latency in ms");
    if (rc != TALLY_OK)
        return rc;
    if (rd->held == rd->cap) {
        size_t cap = rd->cap ? 2 * rd->cap : 64;
        double *t = tally__reallocarray(rd->tps, cap, sizeof *t);
        if (t == NULL)
            return tally__oom();
        rd->tps = t;
        double *l = tally__reallocarray(rd->lat, cap, sizeof *l);
        if (l == NULL)
            return tally__oom();
        rd->lat = l;
        rd->cap = cap;
    }
    rd->tps[rd->held] = tps;
    rd->lat[rd->held++] = lat;
    return TALLY_OK;
}

static int closing(reader *rd, const char *what, const char *unit, tally_direction dir,
                   double v, const char *key)
{
    int rc = flush(rd);
    if (rc != TALLY_OK)
        return rc;
    if (rd->progress == 0)
        return add(rd, what, unit, dir, v);
    return tally__import_case_meta_number(rd->t.rs, bench_name(rd, what),
                                          rd->case_name[0] ? rd->case_name : "all", key, v);
}

static int one_line(void *ctx)
{
    reader *rd = ctx;
    tally__line_import *t = &rd->t;
    size_t n = t->len;
    const char *s = tally__trim(t->line, &n);
    double v;
    int rc;
    if (t->nf == 0)
        return TALLY_OK;
    if (tally__starts_with(s, n, "pgbench (")) {
        if ((rc = flush(rd)) != TALLY_OK)
            return rc;
        rd->case_name[0] = '\0';
        rd->progress = 0;
        return TALLY_OK;
    }
    if (tally__starts_with(s, n, "number of clients:") && t->nf >= 4)
        return tally__field_case_name(rd->case_name, sizeof rd->case_name, &t->f[3], "-clients",
                                      "number of clients", rd->name, t->lines.lineno);
    if (tally__starts_with(s, n, "progress: "))
        return progress_line(rd);
    if (tally__starts_with(s, n, "tps = ")) {
        rc = field_value(&v, rd, 2, 0, "the tps");
        return rc ? rc : closing(rd, "tps", "transactions/s", TALLY_HIGHER_IS_BETTER, v,
                                 "pgbench.tps");
    }
    if (tally__starts_with(s, n, "latency average = ")) {
        rc = field_value(&v, rd, 3, 0, "the average latency in ms");
        return rc ? rc : closing(rd, "latency", "ms", TALLY_LOWER_IS_BETTER, v,
                                 "pgbench.latency_average");
    }
    if (tally__starts_with(s, n, "latency stddev = ") && rd->progress > 0) {
        rc = field_value(&v, rd, 3, 0, "the latency SD in ms");
        return rc ? rc : closing(rd, "latency", "ms", TALLY_LOWER_IS_BETTER, v,
                                 "pgbench.latency_stddev");
    }
    return TALLY_OK;
}

static int finish(void *ctx)
{
    return flush(ctx);
}

static const tally__line_driver driver = {
    "pgbench", one_line, finish, "pgbench results (progress lines or a run's 'tps = ')",
};

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.name = name;
    rd.opts = opts;
    int rc = tally__line_import_run(&rd.t, into, data, len, name, opts, &driver, &rd,
                                    &rd.samples);
    tally__free_mem(rd.tps);
    tally__free_mem(rd.lat);
    return rc;
}

const tally__importer tally__importer_pgbench = {
    .name = "pgbench", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
};
