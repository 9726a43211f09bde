/* sysbench 1.0 text output (docs/importers.md, "sysbench"). A run starts at its banner
 * "sysbench 1.0.20 (...)"; several runs may be concatenated. The test is told by its options
 * block ("Prime numbers limit" cpu, "Running memory speed test" memory, else the interval
 * lines' figures), the case by "Number of threads: N" ("N-threads"). Samples:
 *   - with --report-interval, each interval line is a sample: "[ 1s ] thds: 1 eps: 1185.68 lat
 *     (ms,95%): 0.04" gives sysbench-cpu (events/s) and sysbench-cpu-latency-p95 (ms); OLTP's
 *     "tps:" sysbench-tps (transactions/s); memory's "[ 1s ] 1215.38 MiB/sec" sysbench-memory;
 *   - without, each run's closing figure is one sample: "events per second: 3791.11", "(1233.24
 *     MiB/sec)", "transactions: N (X per sec.)", and the "95th percentile:" latency.
 * The closing figures of a run with interval lines are kept as case metadata (sysbench.*). */
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_line_starts(data, len, "sysbench ", 1024))
        return 0;
    return tally__sniff_has(data, len, "Number of threads:", 4096) ? 95 : 60;
}

typedef struct run {
    char test[16];        /* "cpu", "memory", or "" */
    char case_name[32];   /* "N-threads" */
    int intervals;        /* interval lines seen in this run */
    int in_latency;       /* within the "Latency (ms):" block */
} run;

typedef struct reader {
    tally__line_import t;
    const char *name;
    const tally_load_options *opts;
    run r;
    size_t samples;
} reader;

/* The benchmark "sysbench[-TEST][-SUFFIX]" written in `bench` (room for 96 bytes: the test is
 * "cpu" or "memory", a suffix at most 31 bytes, see latency_suffix), or the caller's
 * --benchmark for the main figure, used as it is: a copy could cut it. */
static const char *bench_name(char *bench, size_t room, const reader *rd, const char *suffix)
{
    if (suffix == NULL && rd->opts && rd->opts->benchmark)
        return rd->opts->benchmark;
    snprintf(bench, room, "sysbench%s%s%s%s", rd->r.test[0] ? "-" : "", rd->r.test,
             suffix ? "-" : "", suffix ? suffix : "");
    return bench;
}

/* "latency-pNN" from the percentile text p[0..n) at column `col`: refused rather than cut, since
 * a cut percentile would name another benchmark. */
static int latency_suffix(char *out, size_t room, const reader *rd, const char *p, size_t n,
                          unsigned long col)
{
    size_t keep = room - sizeof "latency-p";
    if (n > keep)
        return tally__error_at(TALLY_ELIMIT, rd->name, rd->t.lines.lineno, col,
                               "a percentile of %zu bytes: longer than the %zu this reader keeps",
                               n, keep);
    snprintf(out, room, "latency-p%.*s", (int)n, p);
    return TALLY_OK;
}

static int add(reader *rd, const char *suffix, const char *unit, tally_direction dir, double v)
{
    char buf[96];
    const char *bench = bench_name(buf, sizeof buf, rd, suffix);
    const char *c = rd->r.case_name[0] ? rd->r.case_name : "all";
    rd->samples++;
    int rc = tally__import_sample(rd->t.rs, bench, unit, dir, c, v);
    if (rc == TALLY_EMISMATCH)
        return tally__error_at(rc, rd->name, rd->t.lines.lineno, 1,
                               "benchmark '%s' is in '%s' here but in another unit before",
                               bench, unit);
    return rc;
}

/* The field after `word` on the current line as a number; 0 (nothing found) when absent. */
static int number_after(double *v, int *found, reader *rd, const char *word, const char *what)
{
    *found = 0;
    for (size_t i = 0; i + 1 < rd->t.nf && i + 1 < TALLY__LINE_FIELDS; i++)
        if (tally__field_is(&rd->t.f[i], word)) {
            *found = 1;
            return tally__field_number(v, &rd->t.f[i + 1], rd->name, rd->t.lines.lineno, what,
                                       "a number");
        }
    return TALLY_OK;
}

static int interval_line(reader *rd)
{
    rd->r.intervals++;
    double v;
    int found, rc;
    if ((rc = number_after(&v, &found, rd, "eps:", "events per second")) != TALLY_OK)
        return rc;
    if (found && (rc = add(rd, NULL, "events/s", TALLY_HIGHER_IS_BETTER, v)) != TALLY_OK)
        return rc;
    int any = found;
    if ((rc = number_after(&v, &found, rd, "tps:", "transactions per second")) != TALLY_OK)
        return rc;
    if (found && (rc = add(rd, rd->r.test[0] ? "tps" : NULL, "transactions/s",
                           TALLY_HIGHER_IS_BETTER, v)) != TALLY_OK)
        return rc;
    any |= found;
    /* "lat (ms,95%): 0.04": the percentile is --percentile's. */
    for (size_t i = 0; i + 2 < rd->t.nf && i + 2 < TALLY__LINE_FIELDS; i++) {
        const tally__field *f = &rd->t.f[i + 1];
        if (!tally__field_is(&rd->t.f[i], "lat") || !tally__starts_with(f->s, f->len, "(ms,"))
            continue;
        rc = tally__field_number(&v, &rd->t.f[i + 2], rd->name, rd->t.lines.lineno, "latency",
                                 "a latency in ms");
        char suffix[32];
        if (rc == TALLY_OK)
            rc = latency_suffix(suffix, sizeof suffix, rd, f->s + 4, f->len >= 8 ? f->len - 7 : 0,
                                f->col + 4);
        if (rc == TALLY_OK)
            rc = add(rd, suffix, "ms", TALLY_LOWER_IS_BETTER, v);
        if (rc != TALLY_OK)
            return rc;
        any = 1;
    }
    /* memory: "[ 1s ] 1215.38 MiB/sec" */
    if (rd->t.nf >= 5 && tally__field_is(&rd->t.f[4], "MiB/sec")) {
        rc = tally__field_number(&v, &rd->t.f[3], rd->name, rd->t.lines.lineno, "throughput",
                                 "a throughput");
        if (rc == TALLY_OK)
            rc = add(rd, NULL, "MiB/s", TALLY_HIGHER_IS_BETTER, v);
        return rc;
    }
    if (!any)
        return tally__error_at(TALLY_EPARSE, rd->name, rd->t.lines.lineno, 1,
                               "expected an interval line with eps:, tps:, lat or MiB/sec");
    return TALLY_OK;
}

/* A closing figure: a sample when the run had no interval lines, else case metadata. */
static int closing(reader *rd, const char *suffix, const char *unit, tally_direction dir,
                   double v, const char *key)
{
    if (rd->r.intervals == 0)
        return add(rd, suffix, unit, dir, v);
    char buf[96];
    const char *bench = bench_name(buf, sizeof buf, rd, suffix);
    return tally__import_case_meta_number(rd->t.rs, bench,
                                          rd->r.case_name[0] ? rd->r.case_name : "all", key, v);
}

static int one_line(void *ctx)
{
    reader *rd = ctx;
    tally__line_import *t = &rd->t;
    const char *s = t->line;
    size_t n = t->len;
    const char *trimmed = tally__trim(s, &n);
    if (t->nf == 0)
        return TALLY_OK;
    if (tally__field_is(&t->f[0], "sysbench") && t->nf >= 2) {
        memset(&rd->r, 0, sizeof rd->r);
        return TALLY_OK;
    }
    if (tally__starts_with(trimmed, n, "Number of threads:") && t->nf >= 4)
        return tally__field_case_name(rd->r.case_name, sizeof rd->r.case_name, &t->f[3],
                                      "-threads", "number of threads", rd->name, t->lines.lineno);
    if (tally__starts_with(trimmed, n, "Prime numbers limit:")) {
        snprintf(rd->r.test, sizeof rd->r.test, "cpu");
        return TALLY_OK;
    }
    if (tally__starts_with(trimmed, n, "Running memory speed test")) {
        snprintf(rd->r.test, sizeof rd->r.test, "memory");
        return TALLY_OK;
    }
    if (tally__field_is(&t->f[0], "[") && t->nf >= 3 && tally__field_is(&t->f[2], "]"))
        return interval_line(rd);
    double v;
    int found, rc;
    if (tally__starts_with(trimmed, n, "events per second:")) {
        rc = tally__field_number(&v, &t->f[3], rd->name, t->lines.lineno, "events per second",
                                 "a number");
        return rc ? rc : closing(rd, NULL, "events/s", TALLY_HIGHER_IS_BETTER, v,
                                 "sysbench.events_per_second");
    }
    if (t->nf >= 4 && tally__field_is(&t->f[1], "MiB") && tally__field_is(&t->f[2], "transferred")) {
        const tally__field *f = &t->f[3];
        if (f->len < 2 || f->s[0] != '(')
            return tally__error_at(TALLY_EPARSE, rd->name, t->lines.lineno, f->col,
                                   "expected '(X MiB/sec)'");
        tally__field inner = { f->s + 1, f->len - 1, f->col + 1 };
        rc = tally__field_number(&v, &inner, rd->name, t->lines.lineno, "throughput",
                                 "a throughput");
        return rc ? rc : closing(rd, NULL, "MiB/s", TALLY_HIGHER_IS_BETTER, v,
                                 "sysbench.mib_per_second");
    }
    if (tally__starts_with(trimmed, n, "transactions:") && t->nf >= 3 && t->f[2].len > 1) {
        tally__field inner = { t->f[2].s + 1, t->f[2].len - 1, t->f[2].col + 1 };
        rc = tally__field_number(&v, &inner, rd->name, t->lines.lineno, "transactions per second",
                                 "a number");
        return rc ? rc : closing(rd, rd->r.test[0] ? "tps" : NULL, "transactions/s",
                                 TALLY_HIGHER_IS_BETTER, v, "sysbench.tps");
    }
    if (tally__starts_with(trimmed, n, "Latency (ms):")) {
        rd->r.in_latency = 1;
        return TALLY_OK;
    }
    if (rd->r.in_latency && t->nf >= 3 && tally__field_is(&t->f[1], "percentile:")) {
        rc = number_after(&v, &found, rd, "percentile:", "latency");
        char suffix[32];
        if (rc == TALLY_OK)
            rc = latency_suffix(suffix, sizeof suffix, rd, t->f[0].s,
                                t->f[0].len > 2 ? t->f[0].len - 2 : 0, t->f[0].col);
        return rc ? rc : closing(rd, suffix, "ms", TALLY_LOWER_IS_BETTER, v,
                                 "sysbench.latency_percentile");
    }
    return TALLY_OK;
}

static const tally__line_driver driver = {
    "sysbench", one_line, NULL, "sysbench results (interval lines or a run's closing figures)",
};

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.name = name;
    rd.opts = opts;
    return tally__line_import_run(&rd.t, into, data, len, name, opts, &driver, &rd, &rd.samples);
}

const tally__importer tally__importer_sysbench = {
    .name = "sysbench", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
};
