/* histogram=1 of the latency workloads (run/latency_hist.c): the child's output of values and
 * histograms and its parser, the journal's histogram runs (version 4) read back and refused
 * when damaged, and short real runs of schbench and tcp_rr whose histogram runs reach the
 * result set, the output file and the journal (also through a resume), agreeing with the runs'
 * exact percentiles. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "formats/journal.h"
#include "run/runner_internal.h"
#include "tally.h"

/* A workload of two metrics: a value and a histogram. */
static void two_metrics(tally__wl *wl, tally__metric *m)
{
    memset(wl, 0, sizeof *wl);
    memset(m, 0, 2 * sizeof *m);
    m[0].benchmark = (char *)"rps";
    m[1].benchmark = (char *)"lat";
    m[1].histogram = 1;
    wl->metrics = m;
    wl->metric_count = 2;
}

static void test_output_round_trip(void)
{
    tally__wl wl;
    tally__metric m[2];
    two_metrics(&wl, m);
    tally__hdr_recorder rec[2];
    memset(rec, 0, sizeof rec);
    CHECK_INT(tally__latency_recorders_init(&rec[1], 1), TALLY_OK);
    /* 10.0074 usec is 10007 ns, in [10000, 10007] ns; 10.0076 usec is 10008 ns, in
     * [10008, 10015]; 0.0004 usec rounds to 0 ns (bucket 0 holds 0 exactly). */
    tally__latency_record(&rec[1], 10.0074);
    tally__latency_record(&rec[1], 10.0076);
    tally__latency_record(&rec[1], 10.0074);
    tally__latency_record(&rec[1], 0.0004);
    double values[2] = { 1234.5, 0 };
    tally__buf b = TALLY__BUF_INIT;
    CHECK_INT(tally__body_output_write(&b, &wl, values, rec), TALLY_OK);
    CHECK_STR(b.data, "1234.5\nhistogram 1 3 0.008\n0 1\n10.007 2\n10.015 1\n");
    double got[2] = { 0, 0 };
    tally__journal_hist h[2];
    memset(h, 0, sizeof h);
    CHECK_INT(tally__body_output_parse(got, h, &wl, b.data), TALLY_OK);
    CHECK(got[0] == 1234.5);
    CHECK_INT(h[1].n, 3);
    CHECK(h[1].resolution == 0.008);
    if (h[1].n == 3) {
        CHECK(h[1].values[0] == 0 && h[1].values[1] == 10.007 && h[1].values[2] == 10.015);
        CHECK(h[1].counts[0] == 1 && h[1].counts[1] == 2 && h[1].counts[2] == 1);
    }
    CHECK_INT(h[0].n, 0);
    tally__buf_dispose(&b);
    for (size_t i = 0; i < 2; i++) {
        tally__free_mem(h[i].values);
        tally__free_mem(h[i].counts);
    }
    tally__hdr_recorder_free(&rec[1]);

    /* Damaged outputs: each refused by what is wrong. */
    static const struct {
        const char *out, *message;
    } bad[] = {
        { "", "workload output: expected 1 numbers" },
        { "12\n", "workload output: a histogram missing" },
        { "12\nhistogram 0 1 0\n5 1\n", "workload output: not a histogram header" },
        { "12\nhistogram 1 0 0\n", "workload output: not a histogram header" },
        { "12\nhistogram 1 2 0\n5 1\n", "workload output: not a histogram header" },
        { "12\nhistogram 1 -1 0\n5 1\n", "workload output: not a histogram header" },
        { "12\nhistogram 1 1 -1\n5 1\n", "workload output: not a histogram header" },
        { "12\nhistogram 1 2 0\n5 1\n5 1\n", "workload output: not a histogram bucket (value "
                                             "ascending, count > 0)" },
        { "12\nhistogram 1 1 0\n5 0\n", "workload output: not a histogram bucket (value "
                                        "ascending, count > 0)" },
        { "12\nhistogram 1 1 0\n5 1x\n", "workload output: not a histogram bucket (value "
                                         "ascending, count > 0)" },
        { "12\nhistogram 1 1 0\n5 99999999999999999999\n",
          "workload output: not a histogram bucket (value ascending, count > 0)" },
    };
    for (size_t i = 0; i < TALLY__COUNT(bad); i++) {
        memset(h, 0, sizeof h);
        CHECK_INT(tally__body_output_parse(got, h, &wl, bad[i].out), TALLY_ERUN);
        CHECK_STR(tally_error_last()->message, bad[i].message);
        for (size_t k = 0; k < 2; k++) {
            tally__free_mem(h[k].values);
            tally__free_mem(h[k].counts);
        }
    }
}

/* The merge's checks: a lost latency, or a count that is not the requests completed, fails the
 * run with its reason. */
static void test_merge_checks(void)
{
    tally__hdr_recorder into, t[2];
    char why[256];
    CHECK_INT(tally__latency_recorders_init(t, 2), TALLY_OK);
    CHECK_INT(tally__latency_recorders_init(&into, 1), TALLY_OK);
    tally__latency_record(&t[0], 5);
    tally__latency_record(&t[1], 7);
    tally__latency_record(&t[1], 9);
    CHECK_INT(tally__latency_merge(&into, t, 2, 3, why), 0);
    CHECK_INT(into.total, 3);
    tally__hdr_recorder_free(&into);

    CHECK_INT(tally__latency_recorders_init(t, 2), TALLY_OK);
    CHECK_INT(tally__latency_recorders_init(&into, 1), TALLY_OK);
    tally__latency_record(&t[0], 5);
    CHECK_INT(tally__latency_merge(&into, t, 2, 2, why), -1);
    CHECK_STR(why, "the latency histogram holds 1 requests of 2");
    tally__hdr_recorder_free(&into);

    CHECK_INT(tally__latency_recorders_init(t, 1), TALLY_OK);
    CHECK_INT(tally__latency_recorders_init(&into, 1), TALLY_OK);
    tally__latency_record(&t[0], 1e20); /* 10^23 ns: above 2^62 */
    CHECK_INT(tally__latency_merge(&into, t, 1, 1, why), -1);
    CHECK_STR(why, "1 latencies could not be recorded in the histogram (out of memory, or "
                   "above 2^62 ns)");
    tally__hdr_recorder_free(&into);
}

#define HEADER_V(v)                                                                           \
    "{\"tally_journal\":" #v ",\"workload\":\"schbench\",\"sweep_name\":\"workers\","          \
    "\"sweep\":[\"2\"],\"cases\":[\"2-workers\"],\"runs\":2,\"warmup\":0,\"interleave\":false," \
    "\"params\":[],\"command\":[],\"labels\":[\"j\"],\"metrics\":[{\"benchmark\":\"rps\","     \
    "\"unit\":\"r/s\",\"better\":\"higher\",\"statistic\":\"amean\"},{\"benchmark\":\"lat\","    \
    "\"unit\":\"usec\",\"better\":\"lower\",\"statistic\":\"median\",\"histogram\":true}],"     \
    "\"meta\":{}}\n"
#define HEADER4 HEADER_V(4)

static int read_journal(tally_results **out, const char *text)
{
    tally__journal_data d;
    int rc = tally__journal_read(&d, text, strlen(text), "j.journal");
    *out = NULL;
    if (rc == TALLY_OK && (rc = tally_results_new(out)) == TALLY_OK)
        rc = tally__journal_build(*out, &d, NULL);
    tally__journal_data_free(&d);
    return rc;
}

static void test_journal(void)
{
    tally_results *r = NULL;
    const char *good = HEADER4
        "{\"case_index\":0,\"slot\":0,\"ok\":true,\"values\":[10,{\"resolution\":0.008,"
        "\"values\":[0,10.007],\"counts\":[1,3]}]}\n"
        "{\"case_index\":0,\"slot\":1,\"ok\":false,\"failure\":\"exit status 1\"}\n";
    CHECK_INT(read_journal(&r, good), TALLY_OK);
    const tally_resultset *rs = r ? tally_results_at(r, 0) : NULL;
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, "lat") : NULL;
    const tally_case *c = b ? tally_benchmark_case_find(b, "2-workers") : NULL;
    CHECK_INT(tally_case_histogram_count(c), 1);
    const double *v = NULL;
    const uint64_t *k = NULL;
    size_t n = 0;
    double res = 0;
    if (c && tally_case_histogram_at(&v, &k, &n, &res, c, 0) == TALLY_OK && n == 2)
        CHECK(v[0] == 0 && v[1] == 10.007 && k[0] == 1 && k[1] == 3 && res == 0.008);
    CHECK_STR(c ? tally_case_meta_get(c, "failed_run.1") : NULL, "run 2: exit status 1");
    b = rs ? tally_resultset_benchmark_find(rs, "rps") : NULL;
    c = b ? tally_benchmark_case_find(b, "2-workers") : NULL;
    CHECK_INT(tally_case_sample_count(c), 1);
    tally_results_free(r);

    static const struct {
        const char *text, *message;
    } bad[] = {
        /* A histogram metric in a version 2 journal, and version 4 without one. */
        { HEADER_V(2),
          "j.journal:1:1: not a tally journal header: version 4 (and only it) has histogram "
          "metrics" },
        { "{\"tally_journal\":4,\"workload\":\"x\",\"sweep_name\":null,\"sweep\":[\"a\"],"
          "\"cases\":[\"a\"],\"runs\":1,\"warmup\":0,\"params\":[],\"labels\":[\"j\"],"
          "\"metrics\":[{\"benchmark\":\"b\",\"unit\":\"s\",\"better\":\"lower\","
          "\"statistic\":\"median\"}],\"meta\":{}}\n",
          "j.journal:1:1: not a tally journal header: version 4 (and only it) has histogram "
          "metrics" },
        { "{\"tally_journal\":5}\n",
          "j.journal:1:1: journal version 5 is not readable by this tally (it reads versions 2 "
          "to 4)" },
        /* A number where the histogram goes, a count of 0, values not ascending, no
         * resolution, counts and values of different lengths. */
        { HEADER4 "{\"case_index\":0,\"slot\":0,\"ok\":true,\"values\":[10,12]}\n",
          "j.journal:2:1: not a run record of this sweep" },
        { HEADER4 "{\"case_index\":0,\"slot\":0,\"ok\":true,\"values\":[10,{\"resolution\":0,"
                  "\"values\":[1],\"counts\":[0]}]}\n",
          "j.journal:2:1: not a run record of this sweep" },
        { HEADER4 "{\"case_index\":0,\"slot\":0,\"ok\":true,\"values\":[10,{\"resolution\":0,"
                  "\"values\":[2,1],\"counts\":[1,1]}]}\n",
          "j.journal:2:1: not a run record of this sweep" },
        { HEADER4 "{\"case_index\":0,\"slot\":0,\"ok\":true,\"values\":[10,{"
                  "\"values\":[1],\"counts\":[1]}]}\n",
          "j.journal:2:1: not a run record of this sweep" },
        { HEADER4 "{\"case_index\":0,\"slot\":0,\"ok\":true,\"values\":[10,{\"resolution\":0,"
                  "\"values\":[1,2],\"counts\":[1]}]}\n",
          "j.journal:2:1: not a run record of this sweep" },
        { HEADER4 "{\"case_index\":0,\"slot\":0,\"ok\":true,\"values\":[10,{\"resolution\":0,"
                  "\"values\":[1],\"counts\":[1.5]}]}\n",
          "j.journal:2:1: not a run record of this sweep" },
    };
    for (size_t i = 0; i < TALLY__COUNT(bad); i++) {
        CHECK_INT(read_journal(&r, bad[i].text), TALLY_EPARSE);
        CHECK_STR(tally_error_last()->message, bad[i].message);
        tally_results_free(r);
    }
}

/* p of a histogram run by R's type 7 over the requests it stands for. */
static double hist_percentile(const tally_case *c, size_t i, double p, double *resolution)
{
    const double *v;
    const uint64_t *k;
    size_t n;
    double out = NAN;
    if (tally_case_histogram_at(&v, &k, &n, resolution, c, i) != TALLY_OK ||
        tally_weighted_percentiles(&out, v, k, n, &p, 1, TALLY_PERCENTILE_LINEAR) != TALLY_OK)
        return NAN;
    return out;
}

static uint64_t hist_total(const tally_case *c, size_t i)
{
    const uint64_t *k;
    size_t n;
    uint64_t t = 0;
    if (tally_case_histogram_at(NULL, &k, &n, NULL, c, i) == TALLY_OK)
        for (size_t j = 0; j < n; j++)
            t += k[j];
    return t;
}

static const tally_case *find(const tally_resultset *rs, const char *bench, const char *cname)
{
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    return b ? tally_benchmark_case_find(b, cname) : NULL;
}

/* The same histogram runs in two result sets. */
static void check_same_histograms(const tally_case *a, const tally_case *b)
{
    CHECK_INT(tally_case_histogram_count(b), tally_case_histogram_count(a));
    for (size_t i = 0; i < tally_case_histogram_count(a) && i < tally_case_histogram_count(b);
         i++) {
        const double *va, *vb;
        const uint64_t *ka, *kb;
        size_t na, nb;
        double ra, rb;
        tally_case_histogram_at(&va, &ka, &na, &ra, a, i);
        tally_case_histogram_at(&vb, &kb, &nb, &rb, b, i);
        CHECK(na == nb && ra == rb && memcmp(va, vb, na * sizeof *va) == 0 &&
              memcmp(ka, kb, na * sizeof *ka) == 0);
    }
}

/* A short real sweep with histogram=1: each counted run is a histogram run of the latency
 * benchmark, in the result set, in OUT.json and in its journal; each run's p99 from its
 * histogram lies within the bucket resolution of the exact p99 of the same run's samples
 * (every latency x recorded as round(1000 x) ns lands in a bucket whose highest value is at most
 * a width above it and half a nanosecond below; type 7 moves by no more than its order
 * statistics do). */
static void live_run(tally_workload w, const char *sweep, const char *const *params,
                     size_t nparams, const char *hist_bench, const char *p99_bench,
                     const char *cname)
{
    char out[512], journal[520];
    snprintf(out, sizeof out, "%s/runner_hist_%s.json", TALLY_TEST_TMP, tally_workload_name(w));
    snprintf(journal, sizeof journal, "%s.journal", out);
    unlink(out);
    unlink(journal);
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = w;
    o.sweep = sweep;
    o.runs = 2;
    o.warmup = 0;
    o.params = params;
    o.param_count = nparams;
    o.timeout = 60;
    o.output = out;
    o.label = "tip";
    o.command_line = "tally run test";
    tally_runner *r = NULL;
    int rc = tally_runner_new(&r, &o);
    if (rc == TALLY_OK)
        rc = tally_runner_run(r);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  %s\n", tally_error_last()->message);
    const tally_resultset *rs = tally_runner_resultset(r);
    const tally_case *h = find(rs, hist_bench, cname), *p99 = find(rs, p99_bench, cname);
    CHECK_INT(tally_case_histogram_count(h), 2);
    CHECK_INT(tally_case_sample_count(h), 0);
    CHECK_INT(tally_case_sample_count(p99), 2);
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, hist_bench) : NULL;
    CHECK_STR(b ? tally_benchmark_unit(b) : NULL, "usec");
    CHECK_INT(b ? (int)tally_benchmark_direction(b) : -1, TALLY_LOWER_IS_BETTER);
    for (size_t i = 0; h && p99 && i < 2 && i < tally_case_histogram_count(h); i++) {
        double res = -1, from_hist = hist_percentile(h, i, 99, &res);
        double exact = tally_case_samples(p99)[i];
        CHECK(hist_total(h, i) > 0);
        CHECK(res > 0);
        int ok = fabs(from_hist - exact) <= res + 1e-9;
        if (!ok)
            fprintf(stderr, "  %s run %zu: p99 %.6f from the histogram, %.6f exact, "
                    "resolution %g\n", hist_bench, i + 1, from_hist, exact, res);
        CHECK(ok);
    }
    /* The output file and the journal, read back, hold the same histogram runs. */
    for (int f = 0; f < 2; f++) {
        tally_results *back = NULL;
        tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
        CHECK_INT(tally_results_new(&back), TALLY_OK);
        rc = tally_load_file(back, f ? journal : out, &lo);
        CHECK_INT(rc, TALLY_OK);
        const tally_resultset *brs = rc == TALLY_OK ? tally_results_at(back, 0) : NULL;
        const tally_case *bh = find(brs, hist_bench, cname);
        if (h && bh)
            check_same_histograms(h, bh);
        else
            CHECK(!"a histogram case read back");
        tally_results_free(back);
    }
    /* Resume: the journal cut back to its header and first run (a sweep killed after it); the
     * resumed sweep makes the second run again and keeps the first's histogram as recorded. */
    FILE *f = fopen(journal, "rb");
    char *text = calloc(1, 1 << 22);
    size_t len = f && text ? fread(text, 1, (1 << 22) - 1, f) : 0;
    if (f)
        fclose(f);
    char *second = text ? strchr(text, '\n') : NULL;
    char *cut = second ? strchr(second + 1, '\n') : NULL;
    CHECK(len > 0 && cut != NULL);
    if (cut != NULL && (f = fopen(journal, "wb")) != NULL) {
        fwrite(text, 1, (size_t)(cut + 1 - text), f);
        fclose(f);
        o.resume = 1;
        tally_runner *again = NULL;
        rc = tally_runner_new(&again, &o);
        if (rc == TALLY_OK)
            rc = tally_runner_run(again);
        CHECK_INT(rc, TALLY_OK);
        const tally_case *rh = find(tally_runner_resultset(again), hist_bench, cname);
        CHECK_INT(tally_case_histogram_count(rh), 2);
        const double *va, *vb;
        const uint64_t *ka, *kb;
        size_t na = 0, nb = 1;
        if (h && rh && tally_case_histogram_at(&va, &ka, &na, NULL, h, 0) == TALLY_OK &&
            tally_case_histogram_at(&vb, &kb, &nb, NULL, rh, 0) == TALLY_OK)
            CHECK(na == nb && memcmp(va, vb, na * sizeof *va) == 0 &&
                  memcmp(ka, kb, na * sizeof *ka) == 0);
        else
            CHECK(!"the first run's histogram kept on resume");
        tally_runner_free(again);
    }
    free(text);
    tally_runner_free(r);
    unlink(out);
    unlink(journal);
}

int main(void)
{
    test_output_round_trip();
    test_merge_checks();
    test_journal();
    const char *sch[] = { "runtime=0.3", "cputime=50", "sleeptime=200", "histogram=1" };
    live_run(TALLY_WORKLOAD_SCHBENCH, "2", sch, 4, "schbench-wakeup", "schbench-wakeup-p99",
             "2-workers");
    const char *rr[] = { "runtime=0.3", "histogram=1" };
    live_run(TALLY_WORKLOAD_TCP_RR, "2", rr, 2, "tcp_rr-latency", "tcp_rr-latency-p99",
             "2-clients");
    return check_summary();
}
