/* fio's JSON and json+ output (formats/import_fio.c) and its --write_hist_log logs
 * (formats/import_fio_hist.c). The 3.x files of tests/data/fio were written by fio 3.33 with the
 * null engine (the commands are in tests/data/fio/README.md); fio2.json and
 * fio2_clat_hist.1.log were written by hand from fio 2.x's documented format (microsecond
 * `clat` with its `percentile` map; 1216 bins per log line). Expected values: fio's own figures
 * in the same files (iops, bw, its percentile map), fio's percentile definition on its bins
 * (stat.c calc_clat_percentiles: the first bin whose running count reaches p/100 of all, i.e.
 * the nearest rank), and the bin values of fio's plat_idx_to_val worked by hand. */
#include <cjson/cJSON.h>

#include "../check.h"
#include "import_helpers.h"
#include "util/number.h"

static tally_case *case_of(const tally_results *r, const char *bench, const char *casename)
{
    tally_case *c = find_case(r, bench, casename);
    if (c == NULL)
        fprintf(stderr, "no case %s / %s\n", bench, casename);
    CHECK(c != NULL);
    return c;
}

static double value_of(const tally_results *r, const char *bench, const char *casename)
{
    tally_case *c = case_of(r, bench, casename);
    if (c == NULL || tally_case_sample_count(c) != 1)
        return -1;
    return tally_case_samples(c)[0];
}

static int note_has(const tally_results *r, const char *text)
{
    for (size_t i = 0; i < tally_results_note_count(r); i++)
        if (strstr(tally_results_note_at(r, i), text))
            return 1;
    fprintf(stderr, "no note with: %s\n", text);
    for (size_t i = 0; i < tally_results_note_count(r); i++)
        fprintf(stderr, "  note: %s\n", tally_results_note_at(r, i));
    return 0;
}

static cJSON *load_json(const char *rel)
{
    char path[1024], *data = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, rel);
    if (tally__read_file(&data, &len, path) != TALLY_OK)
        return NULL;
    cJSON *root = cJSON_ParseWithLength(data, len);
    tally__free_mem(data);
    return root;
}

/* Every percentile fio printed for `dir` clat equals the nearest-rank percentile of the bins
 * the importer made its histogram run of (fio's definition, stat.c), exactly: fio's figure is
 * the value of the bin that holds the rank, and the run holds those bin values. */
static void check_percentiles_match_fio(const tally_results *r, const cJSON *job, const char *dir,
                                        const char *casename)
{
    char bench[32];
    snprintf(bench, sizeof bench, "%s clat", dir);
    tally_case *c = case_of(r, bench, casename);
    const double *v;
    const uint64_t *k;
    size_t n;
    if (c == NULL || tally_case_histogram_at(&v, &k, &n, NULL, c, 0) != TALLY_OK) {
        CHECK(0);
        return;
    }
    const cJSON *pct = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(job, dir), "clat_ns"), "percentile");
    size_t checked = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, pct) {
        double p = -1, got = -1;
        const char *stop;
        tally__number_scan(&p, &stop, e->string, e->string + strlen(e->string),
                           TALLY__NUMBER_TEXT);
        CHECK_INT(tally_weighted_percentiles(&got, v, k, n, &p, 1, TALLY_PERCENTILE_NEAREST_RANK),
                  TALLY_OK);
        if (got != e->valuedouble)
            fprintf(stderr, "%s clat p%s: fio %g, bins %g\n", dir, e->string, e->valuedouble,
                    got);
        CHECK_REL(got, e->valuedouble, 0);
        checked++;
    }
    CHECK_INT(checked, 17); /* fio's default list: 1, 5, 10, 20, ..., 99.95, 99.99 */
}

static void test_json_plus(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK(sniffs_as("fio/randrw.json+", &tally__importer_fio, 90));
    CHECK_INT(import_file(&r, &tally__importer_fio, "fio/randrw.json+", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* the file's own figures: read iops 512000.000000, bw 2048000, clat_ns mean 49.765625,
     * percentile 99.000000: 61, lat_ns mean 93.298828; write clat_ns 99.990000: 14272 */
    CHECK_REL(value_of(r, "read iops", "rw"), 512000, 0);
    CHECK_REL(value_of(r, "read bw", "rw"), 2048000, 0);
    CHECK_REL(value_of(r, "read clat mean", "rw"), 49.765625, 0);
    CHECK_REL(value_of(r, "read clat p99", "rw"), 61, 0);
    CHECK_REL(value_of(r, "write clat p99.99", "rw"), 14272, 0);
    CHECK_REL(value_of(r, "read lat mean", "rw"), 93.298828, 0);
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(rs, "read bw")), "KiB/s");
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(rs, "read clat")), "ns");
    CHECK(tally_benchmark_direction(tally_resultset_benchmark_find(rs, "read iops")) ==
          TALLY_HIGHER_IS_BETTER);
    CHECK(tally_benchmark_direction(tally_resultset_benchmark_find(rs, "read clat p99")) ==
          TALLY_LOWER_IS_BETTER);
    /* no trim I/O and no slat samples (the null engine submits synchronously): left out */
    CHECK(tally_resultset_benchmark_find(rs, "trim iops") == NULL);
    CHECK(tally_resultset_benchmark_find(rs, "read slat mean") == NULL);
    CHECK(note_has(r, "fio-3.33 JSON, 1 job, latencies in ns (clat_ns)"));
    CHECK(note_has(r, "left out: read slat of job 'rw' (no samples), write slat of job 'rw' "
                      "(no samples), trim of job 'rw' (no I/O)"));
    /* 11 bins each; the widest holds 14272 in [2^13, 2^14): width 2^7, half 64 */
    CHECK(note_has(r, "2 json+ bin sets as histogram runs, exact to within 64 ns"));
    const uint64_t *k;
    size_t n;
    double res;
    CHECK_INT(tally_case_histogram_at(NULL, &k, &n, &res, case_of(r, "read clat", "rw"), 0),
              TALLY_OK);
    CHECK_INT(n, 11);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += k[i];
    CHECK_INT(total, 512); /* clat_ns N */
    cJSON *root = load_json("fio/randrw.json+");
    const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
    check_percentiles_match_fio(r, job, "read", "rw");
    check_percentiles_match_fio(r, job, "write", "rw");
    cJSON_Delete(root);
    tally_results_free(r);
}

static void test_jobs(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(import_file(&r, &tally__importer_fio, "fio/jobs.json", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* numjobs=2 of "reader" without group_reporting: two entries of one name */
    CHECK_REL(value_of(r, "read iops", "reader"), 512000, 0);
    CHECK_REL(value_of(r, "read iops", "reader#2"), 512000, 0);
    CHECK_REL(value_of(r, "write iops", "writer"), 512000, 0);
    CHECK(find_case(r, "read iops", "writer") == NULL);
    CHECK(find_case(r, "write iops", "reader") == NULL);
    CHECK(note_has(r, "3 jobs"));
    CHECK(note_has(r, "jobs of one name numbered NAME#2"));
    /* reader and reader#2 wrote nothing, writer read nothing; no job trimmed */
    CHECK(note_has(r, "left out: read slat of 2 jobs (no samples), write of 2 jobs (no I/O), "
                      "trim of 3 jobs (no I/O), read of job 'writer' (no I/O), write slat of job "
                      "'writer' (no samples)"));
    /* plain JSON: percentiles, no bins */
    CHECK(find_case(r, "read clat", "reader") == NULL);
    CHECK(find_case(r, "read clat p50", "reader") != NULL);
    tally_results_free(r);
}

static void test_group_reporting(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(import_file(&r, &tally__importer_fio, "fio/group.json", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* numjobs=3 with group_reporting: one entry, the group's sums (read iops 744000.000000,
     * write iops 792000.000000, read clat p99 90 in the file) */
    CHECK_REL(value_of(r, "read iops", "grp"), 744000, 0);
    CHECK_REL(value_of(r, "write iops", "grp"), 792000, 0);
    CHECK_REL(value_of(r, "read clat p99", "grp"), 90, 0);
    CHECK(note_has(r, "1 job,"));
    tally_results_free(r);
}

static void test_fio2(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK(sniffs_as("fio/fio2.json", &tally__importer_fio, 90));
    CHECK_INT(import_file(&r, &tally__importer_fio, "fio/fio2.json", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* microseconds x 1000: clat mean 6.50 us, p99 14 us, p99.9 131 us */
    CHECK_REL(value_of(r, "read clat mean", "seqread"), 6500, 0);
    CHECK_REL(value_of(r, "read clat p99", "seqread"), 14000, 0);
    CHECK_REL(value_of(r, "read clat p99.9", "seqread"), 131000, 0);
    CHECK_REL(value_of(r, "read lat mean", "seqread"), 7250, 0);
    CHECK_REL(value_of(r, "read iops", "seqread"), 131072, 0);
    /* bins 2, 6, 14, 131, 251 us: 131 and 251 lie in [128, 256), width 2 us, half 1 us */
    static const double v[] = { 2000, 6000, 14000, 131000, 251000 };
    static const uint64_t k[] = { 100, 800, 90, 9, 1 };
    const double *gv;
    const uint64_t *gk;
    size_t n;
    double res;
    CHECK_INT(tally_case_histogram_at(&gv, &gk, &n, &res, case_of(r, "read clat", "seqread"), 0),
              TALLY_OK);
    CHECK_INT(n, 5);
    for (size_t i = 0; i < n && i < 5; i++) {
        CHECK_REL(gv[i], v[i], 0);
        CHECK_INT(gk[i], k[i]);
    }
    CHECK_REL(res, 1000, 0);
    /* slat all zeros in 2.x (no N): no samples */
    CHECK(note_has(r, "fio-2.2.10 JSON, 1 job, latencies in microseconds (clat), read as ns x "
                      "1000"));
    CHECK(note_has(r, "left out: read slat of job 'seqread' (no samples), write of job "
                      "'seqread' (no I/O), trim of job 'seqread' (no I/O)"));
    tally_results_free(r);
}

static void check_total(const tally_case *c, size_t run, uint64_t want)
{
    const uint64_t *k;
    size_t n;
    uint64_t total = 0;
    CHECK_INT(tally_case_histogram_at(NULL, &k, &n, NULL, c, run), TALLY_OK);
    for (size_t i = 0; i < n; i++)
        total += k[i];
    CHECK_INT(total, want);
}

/* The bin values of a hist log are fio's plat_idx_to_val: every one of them appears among the
 * keys of the json+ bins fio wrote for the same run (g.json+), which fio computes the same way. */
static void check_values_in_json_plus(const tally_case *c)
{
    const double *v;
    size_t n;
    CHECK_INT(tally_case_histogram_at(&v, NULL, &n, NULL, c, 0), TALLY_OK);
    cJSON *root = load_json("fio/g.json+");
    const cJSON *bins = cJSON_GetObjectItem(
        cJSON_GetObjectItem(
            cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0), "read"),
            "clat_ns"),
        "bins");
    for (size_t i = 0; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "%.0f", v[i]);
        if (cJSON_GetObjectItem(bins, key) == NULL)
            fprintf(stderr, "bin value %s not among g.json+'s bins\n", key);
        CHECK(cJSON_GetObjectItem(bins, key) != NULL);
    }
    CHECK(n > 5);
    cJSON_Delete(root);
}

static void test_hist_log(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK(sniffs_as("fio-hist/g_clat_hist.1.log", &tally__importer_fio_hist, 90));
    CHECK_INT(import_file(&r, &tally__importer_fio_hist, "fio-hist/g_clat_hist.1.log", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* two lines, reads, 102 and 100 requests (awk -F', ' summing fields 4..NF) */
    tally_case *c = case_of(r, "read clat", "all");
    CHECK_INT(tally_case_histogram_count(c), 1);
    check_total(c, 0, 202);
    check_values_in_json_plus(c);
    CHECK(note_has(r, "fio 3.x histogram log (1856 bins, log_hist_coarseness 0, ns): 2 of 2 "
                      "intervals, pooled into one run per direction"));
    tally_results_free(r);

    o.interval_runs = 1;
    CHECK_INT(import_file(&r, &tally__importer_fio_hist, "fio-hist/g_clat_hist.1.log", &o), TALLY_OK);
    c = r ? case_of(r, "read clat", "all") : NULL;
    CHECK_INT(tally_case_histogram_count(c), 2);
    check_total(c, 0, 102);
    check_total(c, 1, 100);
    tally_results_free(r);

    /* times 101 and 201 ms: [0, 0.15) s keeps the first */
    o.interval_runs = 0;
    o.time_range_given = 1;
    o.time_start = 0;
    o.time_end = 0.15;
    CHECK_INT(import_file(&r, &tally__importer_fio_hist, "fio-hist/g_clat_hist.1.log", &o), TALLY_OK);
    c = r ? case_of(r, "read clat", "all") : NULL;
    check_total(c, 0, 102);
    CHECK(r && note_has(r, "1 of 2 intervals within the time range"));
    tally_results_free(r);
    o.time_start = 5;
    o.time_end = 6;
    CHECK_INT(import_file(&r, &tally__importer_fio_hist, "fio-hist/g_clat_hist.1.log", &o),
              TALLY_ENODATA);
}

static void test_hist_coarse(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK(sniffs_as("fio-hist/c_clat_hist.1.log", &tally__importer_fio_hist, 90));
    CHECK_INT(import_file(&r, &tally__importer_fio_hist, "fio-hist/c_clat_hist.1.log", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* 232 = 1856 / 2^3 bins; four lines, read 203 + 200, write 203 + 200 (awk) */
    CHECK(note_has(r, "(232 bins, log_hist_coarseness 3, ns)"));
    check_total(case_of(r, "read clat", "all"), 0, 403);
    check_total(case_of(r, "write clat", "all"), 0, 403);
    tally_results_free(r);
}

static void test_hist_v2(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK(sniffs_as("fio-hist/fio2_clat_hist.1.log", &tally__importer_fio_hist, 90));
    CHECK_INT(import_file(&r, &tally__importer_fio_hist, "fio-hist/fio2_clat_hist.1.log", &o),
              TALLY_OK);
    if (r == NULL)
        return;
    /* read bins 5 (3 + 1), 100 (1), 128 (4), 1215 (1), microseconds. Below 128 a bin is its
     * value; bin 128 is group 1 (base 128, width 2): [128, 129], midpoint 129, half width 1;
     * bin 1215 is group 1215 / 64 - 1 = 17 (base 2^23, width 2^17), k = 63: [16646144,
     * 16777215], midpoint 16711680, half width 65536. x 1000 for ns. */
    static const double v[] = { 5000, 100000, 129000, 16711680000.0 };
    static const uint64_t k[] = { 4, 1, 4, 1 };
    const double *gv;
    const uint64_t *gk;
    size_t n;
    double res;
    CHECK_INT(tally_case_histogram_at(&gv, &gk, &n, &res, case_of(r, "read clat", "all"), 0),
              TALLY_OK);
    CHECK_INT(n, 4);
    for (size_t i = 0; i < n && i < 4; i++) {
        CHECK_REL(gv[i], v[i], 0);
        CHECK_INT(gk[i], k[i]);
    }
    CHECK_REL(res, 65536000, 0);
    check_total(case_of(r, "write clat", "all"), 0, 2);
    CHECK(note_has(r, "fio 2.x histogram log (1216 bins, log_hist_coarseness 0, microseconds "
                      "read as ns x 1000): 3 of 3 intervals"));
    tally_results_free(r);
}

/* A job fio says ended with an error (its "error", an errno) keeps its figures, named in the
 * note. */
static void test_job_error(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(import_text(&r, &tally__importer_fio,
                          "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", "
                          "\"error\": 5, \"read\": {\"total_ios\": 3, \"iops\": 2, \"bw\": 8}}]}",
                          "t", &o),
              TALLY_OK);
    CHECK(r && note_has(r, "jobs that ended with an error (their figures kept, up to the error): "
                           "'j' (error 5)"));
    CHECK(r && value_of(r, "read iops", "j") == 2);
    tally_results_free(r);
}

static void expect_error(const tally__importer *imp, const char *text, int code,
                         const char *message)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(import_text(&r, imp, text, "t", &o), code);
    if (strcmp(last_message(), message) != 0)
        fprintf(stderr, "got: %s\n", last_message());
    CHECK_STR(last_message(), message);
}

#define JOB(dir) "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"" dir "\": "

static void test_errors(void)
{
    const tally__importer *f = &tally__importer_fio;
    expect_error(f, "{\"fio version\": \"fio-3.33\", \"jobs\": []}", TALLY_ENODATA,
                 "t: $.jobs: no jobs");
    expect_error(f, "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"read\": {}}]}", TALLY_EPARSE,
                 "t: $.jobs[0]: missing member \"jobname\" (a string)");
    expect_error(f, JOB("read") "{\"total_ios\": 3, \"bw\": 1}}]}", TALLY_EPARSE,
                 "t: $.jobs[0].read: missing member \"iops\" (a number)");
    expect_error(f,
                 JOB("read") "{\"total_ios\": 3, \"iops\": 1, \"bw\": 1, \"clat_ns\": {\"N\": 3, "
                             "\"mean\": 1, \"bins\": {\"5\": 1, \"4\": 2}}}}]}",
                 TALLY_EPARSE,
                 "t: $.jobs[0].read.clat_ns.bins.4: bin values must ascend: 4 follows a larger "
                 "or equal one");
    expect_error(f,
                 JOB("read") "{\"total_ios\": 3, \"iops\": 1, \"bw\": 1, \"clat_ns\": {\"N\": 4, "
                             "\"mean\": 1, \"bins\": {\"4\": 1, \"5\": 2}}}}]}",
                 TALLY_EMISMATCH, "t: $.jobs[0].read.clat_ns.bins: the bins count 3 requests, N "
                                  "says 4");
    expect_error(f,
                 JOB("read") "{\"total_ios\": 3, \"iops\": 1, \"bw\": 1, \"clat_ns\": {\"N\": 3, "
                             "\"mean\": 1, \"percentile\": {\"x\": 1}}}}]}",
                 TALLY_EPARSE,
                 "t: $.jobs[0].read.clat_ns.percentile.x: expected a percentile (0 to 100) as the "
                 "key");
    expect_error(f, JOB("read") "{\"total_ios\": 0}, \"write\": {\"total_ios\": 0}}]}",
                 TALLY_ENODATA, "t: $.jobs: no figures: read of job 'j' (no I/O), write of job "
                                "'j' (no I/O)");
    const tally__importer *h = &tally__importer_fio_hist;
    expect_error(h, "1, 0, 4096, 1, 2\n", TALLY_EPARSE,
                 "t:1:1: 5 fields: expected time, direction, block size and fio's latency bins "
                 "(1856 for fio 3.x, 1216 for 2.x, or either halved 1 to 6 times by "
                 "log_hist_coarseness)");
    /* 1216 >> 6 = 19 bins */
    expect_error(h,
                 "1, 0, 4096, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1\n"
                 "2, 5, 4096, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1\n",
                 TALLY_EPARSE, "t:2:4: expected a direction 0 (read), 1 (write) or 2 (trim), "
                               "found 5");
    expect_error(h,
                 "1, 0, 4096, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1\n"
                 "2, 0, 4096, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1\n",
                 TALLY_EPARSE, "t:2:1: 23 fields, the first line 22 (time, direction, block "
                               "size and 19 bins)");
    expect_error(h,
                 "1, 0, 4096, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, x\n",
                 TALLY_EPARSE, "t:1:67: expected a bin's count (a whole number >= 0), found 'x'");
}

/* fio's notes on standard output before its JSON (noted.json, Debian's fio 3.33: "note: both
 * iodepth >= 1 and synchronous I/O engine are selected, ..."): the file is fio's, read as if the
 * notes were not there, and the note says which lines were not read. Expected: fio's own
 * figures in the file (read iops 256000, bw 1024000 KiB/s, clat_ns mean 3229.273437). */
static void test_noted(void)
{
    const tally__importer *f = &tally__importer_fio;
    CHECK(sniffs_as("fio/noted.json", f, 90));
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(import_file(&r, f, "fio/noted.json", &o), TALLY_OK);
    if (r != NULL) {
        CHECK_REL(value_of(r, "read iops", "t"), 256000, 0);
        CHECK_REL(value_of(r, "read bw", "t"), 1024000, 0);
        CHECK_REL(value_of(r, "read clat mean", "t"), 3229.273437, 0);
        CHECK(note_has(r, "noted.json: fio's lines before its JSON, not read: note: both "
                          "iodepth >= 1 and synchronous I/O engine are selected, queue depth will "
                          "be capped at 1"));
        tally_results_free(r);
    }
    /* Two of fio's lines (one ending in CR LF) and a blank one: joined in the note. */
    CHECK_INT(import_text(&r, f, "note: a\r\nfio: b\n\n" JOB("read")
                                 "{\"total_ios\": 3, \"iops\": 7, \"bw\": 1}}]}",
                          "t", &o),
              TALLY_OK);
    if (r != NULL) {
        CHECK_REL(value_of(r, "read iops", "j"), 7, 0);
        CHECK(note_has(r, "not read: note: a; fio: b"));
        tally_results_free(r);
    }
    /* A JSON error after them keeps its line and column in the file: line 4, column 17. */
    expect_error(f, "note: a\r\nfio: b\n\n{\"fio version\": x}", TALLY_EPARSE,
                 "t:4:17: invalid JSON near 'x}'");
    /* Any other line first: not fio's JSON. */
    expect_error(f, "starting the run now\n{\"fio version\": \"fio-3.33\", \"jobs\": []}",
                 TALLY_EPARSE, "t:1:1: invalid JSON near 'starting the run'");
}

int main(void)
{
    test_json_plus();
    test_jobs();
    test_group_reporting();
    test_fio2();
    test_hist_log();
    test_hist_coarse();
    test_hist_v2();
    test_job_error();
    test_errors();
    test_noted();
    return check_summary();
}
