/*
 * Allocation-failure injection over the main API paths (the idea of curl's torture tests).
 *
 * For each path the call is first run once to count the library's allocations; then for every
 * N = 1..count it is run again from a fresh set-up with the N-th allocation failing, and must
 * return an error (TALLY_ENOMEM, or the code the path documents for it) with a message, and leave
 * its outputs as they were. Leaks on those failure paths are caught by LeakSanitizer: .ci/test
 * runs this program in an ASan build (build-fault/).
 *
 * Only meaningful in builds with -DTALLY_FAULT_INJECTION=ON; elsewhere it exits with 77 (skipped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tally.h"
#include "util/testing.h"

#ifdef TALLY_FAULT_INJECTION
#include "check.h"

/* Everything a path may create; the teardown frees whatever is set. */
typedef struct fixture {
    tally_results *list;
    tally_results *other;
    tally_resultset *rs;
    tally_benchmark *bench;
    tally_case *c;
    tally_resultset *made;   /* output of a path that creates a result set */
    tally_results *made_list;
    const void *arg;         /* the path's parameter */
    char *data;              /* input bytes read by the test, not by the library */
    size_t len;
    char *out;               /* rendered or serialised output */
    size_t out_len;
    tally_sample *sample;
    tally_summary summary;
    tally_report *report;
    tally_validation *validation;
    double values[4];
    unsigned char flags[64];
} fixture;

typedef struct alloc_path {
    const char *name;
    void (*setup)(fixture *f);
    int (*call)(fixture *f);
    void (*check_untouched)(const fixture *f, const char *name);
    const void *arg; /* a path's parameter, copied to fixture.arg before set-up */
} alloc_path;

static void teardown(fixture *f)
{
    free(f->data);
    tally_free(f->out);
    tally_sample_free(f->sample);
    tally_report_free(f->report);
    tally_validation_free(f->validation);
    tally_results_free(f->list);
    tally_results_free(f->other);
    tally_resultset_free(f->rs);
    tally_resultset_free(f->made);
    tally_results_free(f->made_list);
    memset(f, 0, sizeof(*f));
}

static void report_path(int ok, const char *path, unsigned long n, const char *what)
{
    char text[256];
    snprintf(text, sizeof(text), "%s, allocation %lu failing: %s", path, n, what);
    check_report(ok, __FILE__, __LINE__, text);
}

static void torture(const alloc_path *p)
{
    fixture f = { 0 };
    f.arg = p->arg;
    p->setup(&f);
    tally_testing_fail_allocation(0);
    int rc = p->call(&f);
    unsigned long count = tally_testing_allocation_count();
    teardown(&f);
    report_path(rc == TALLY_OK, p->name, 0, "succeeds without injection");

    for (unsigned long n = 1; n <= count; n++) {
        f.arg = p->arg;
        p->setup(&f);
        tally_error_clear();
        tally_testing_fail_allocation((long)n);
        rc = p->call(&f);
        tally_testing_fail_allocation(0);
        const tally_error *e = tally_error_last();
        if (rc != TALLY_ENOMEM)
            fprintf(stderr, "  %s returned %d (%s): %s\n", p->name, rc, tally_strerror(rc),
                    e->message);
        report_path(rc == TALLY_ENOMEM, p->name, n, "returns TALLY_ENOMEM");
        report_path(e->code == rc && e->message[0] != '\0', p->name, n,
                    "leaves a message with the code");
        if (rc != TALLY_OK)
            p->check_untouched(&f, p->name);
        teardown(&f);
    }
    printf("%-28s %4lu allocations, each failed once\n", p->name, count);
}

/* ---- set-ups ---- */

static void setup_nothing(fixture *f)
{
    (void)f;
}

/* A result set with one benchmark and one case of three samples; the list is separate. */
static void setup_resultset(fixture *f)
{
    static const double x[] = { 0.38, 0.41, 0.36 };
    if (tally_results_new(&f->list) != TALLY_OK || tally_resultset_new(&f->rs, "base") != TALLY_OK ||
        tally_resultset_meta_set(f->rs, "host", "a") != TALLY_OK ||
        tally_resultset_benchmark_add(&f->bench, f->rs, "hackbench", "s",
                                      TALLY_LOWER_IS_BETTER) != TALLY_OK ||
        tally_benchmark_case_add(&f->c, f->bench, "1") != TALLY_OK ||
        tally_case_append(f->c, x, 3) != TALLY_OK || tally_case_meta_set(f->c, "k", "v") != TALLY_OK) {
        fprintf(stderr, "set-up failed: %s\n", tally_error_last()->message);
        exit(1);
    }
}

/* Two lists to merge: `list` holds "base", `other` holds "new" and "newer". */
static void setup_two_lists(fixture *f)
{
    setup_resultset(f);
    tally_results_add(f->list, f->rs);
    f->rs = NULL;
    tally_resultset *a = NULL, *b = NULL;
    if (tally_results_new(&f->other) != TALLY_OK || tally_resultset_new(&a, "new") != TALLY_OK ||
        tally_results_add(f->other, a) != TALLY_OK || tally_resultset_new(&b, "newer") != TALLY_OK ||
        tally_results_add(f->other, b) != TALLY_OK) {
        fprintf(stderr, "set-up failed: %s\n", tally_error_last()->message);
        exit(1);
    }
    /* Fill the destination's first array so the merge has to grow it. */
    for (int i = 0; i < 7; i++) {
        char label[16];
        snprintf(label, sizeof(label), "filler%d", i);
        tally_resultset *rs = NULL;
        tally_resultset_new(&rs, label);
        tally_results_add(f->list, rs);
    }
}

/* ---- the result-set building paths ---- */

static int call_results_new(fixture *f)
{
    return tally_results_new(&f->made_list);
}

static void untouched_made_list(const fixture *f, const char *name)
{
    report_path(f->made_list == NULL, name, 0, "no list on failure");
}

static int call_resultset_new(fixture *f)
{
    return tally_resultset_new(&f->made, "5.14.0-rc3-vanilla");
}

static void untouched_made(const fixture *f, const char *name)
{
    report_path(f->made == NULL, name, 0, "no result set on failure");
}

static int call_benchmark_add(fixture *f)
{
    tally_benchmark *b = (tally_benchmark *)f; /* must be reset to NULL by the call */
    int rc = tally_resultset_benchmark_add(&b, f->rs, "stream", "MB/s", TALLY_HIGHER_IS_BETTER);
    if (rc != TALLY_OK)
        report_path(b == NULL, "benchmark_add", 0, "output reset on failure");
    return rc;
}

static void untouched_benchmarks(const fixture *f, const char *name)
{
    report_path(tally_resultset_benchmark_count(f->rs) == 1 &&
                    tally_resultset_benchmark_find(f->rs, "stream") == NULL,
                name, 0, "no benchmark added");
}

static int call_case_add(fixture *f)
{
    tally_case *c = (tally_case *)f;
    int rc = tally_benchmark_case_add(&c, f->bench, "16");
    if (rc != TALLY_OK)
        report_path(c == NULL, "case_add", 0, "output reset on failure");
    return rc;
}

static void untouched_cases(const fixture *f, const char *name)
{
    report_path(tally_benchmark_case_count(f->bench) == 1 &&
                    tally_benchmark_case_find(f->bench, "16") == NULL,
                name, 0, "no case added");
}

static int call_case_append(fixture *f)
{
    double x[40];
    for (int i = 0; i < 40; i++)
        x[i] = 1.0 + i;
    return tally_case_append(f->c, x, 40);
}

static void untouched_samples(const fixture *f, const char *name)
{
    const double *x = tally_case_samples(f->c);
    report_path(tally_case_sample_count(f->c) == 3 && x[0] == 0.38 && x[2] == 0.36, name, 0,
                "samples unchanged");
}

static int call_meta_set_new(fixture *f)
{
    return tally_resultset_meta_set(f->rs, "kernel", "6.1.0");
}

static int call_meta_set_replace(fixture *f)
{
    return tally_resultset_meta_set(f->rs, "host", "b");
}

static void untouched_meta(const fixture *f, const char *name)
{
    report_path(tally_resultset_meta_count(f->rs) == 1 &&
                    strcmp(tally_resultset_meta_get(f->rs, "host"), "a") == 0,
                name, 0, "metadata unchanged");
}

static int call_case_meta_set(fixture *f)
{
    return tally_case_meta_set(f->c, "reported.mean", "0.38");
}

static void untouched_case_meta(const fixture *f, const char *name)
{
    report_path(tally_case_meta_count(f->c) == 1 && tally_case_meta_get(f->c, "reported.mean") == NULL,
                name, 0, "case metadata unchanged");
}

static int call_set_label(fixture *f)
{
    return tally_resultset_set_label(f->rs, "patched");
}

static void untouched_label(const fixture *f, const char *name)
{
    report_path(strcmp(tally_resultset_label(f->rs), "base") == 0, name, 0, "label unchanged");
}

static int call_results_add(fixture *f)
{
    int rc = tally_results_add(f->list, f->rs);
    if (rc == TALLY_OK)
        f->rs = NULL; /* the list owns it now */
    return rc;
}

static void untouched_list_empty(const fixture *f, const char *name)
{
    report_path(tally_results_count(f->list) == 0 && f->rs != NULL, name, 0,
                "list unchanged, caller keeps the result set");
}

static int call_results_merge(fixture *f)
{
    return tally_results_merge(f->list, f->other);
}

static void untouched_merge(const fixture *f, const char *name)
{
    report_path(tally_results_count(f->list) == 8 && tally_results_count(f->other) == 2, name, 0,
                "both lists unchanged");
}

/* A whole result set built the way an importer does, freed by the caller on any failure. */
static int build_whole(tally_results **out)
{
    static const double x[] = { 1.0, 2.0, 3.0, 4.0 };
    tally_results *list = NULL;
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    tally_case *c = NULL;
    *out = NULL;
    int rc = tally_results_new(&list);
    if (rc == TALLY_OK)
        rc = tally_resultset_new(&rs, "tip");
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "cpu", "EPYC");
    for (int i = 0; rc == TALLY_OK && i < 3; i++) {
        char name[16];
        snprintf(name, sizeof(name), "bench%d", i);
        rc = tally_resultset_benchmark_add(&b, rs, name, "s", TALLY_LOWER_IS_BETTER);
        for (int j = 0; rc == TALLY_OK && j < 10; j++) {
            snprintf(name, sizeof(name), "%d-groups", 1 << j);
            rc = tally_benchmark_case_add(&c, b, name);
            if (rc == TALLY_OK)
                rc = tally_case_append(c, x, 4);
        }
    }
    if (rc == TALLY_OK)
        rc = tally_results_add(list, rs);
    if (rc != TALLY_OK) {
        tally_resultset_free(rs);
        tally_results_free(list);
        return rc;
    }
    *out = list;
    return TALLY_OK;
}

static int call_build_whole(fixture *f)
{
    return build_whole(&f->made_list);
}


/* ---- statistics ---- */

static const double many[] = { 0.38, 0.41, 0.36, 0.52, 0.40, 0.39, 0.44, 0.37, 0.35, 0.61,
                               0.38, 0.42, 0.36, 0.50, 0.40, 0.39, 0.43, 0.37, 0.35, 0.60 };
#define MANY (TALLY__COUNT(many))

static int call_summarize(fixture *f)
{
    tally_summary_options opts = TALLY_SUMMARY_OPTIONS_INIT;
    opts.percentile_method = TALLY_PERCENTILE_NEAREST_RANK; /* reaches the type 7 re-selection */
    f->summary.size = sizeof f->summary;
    return tally_summarize(&f->summary, many, MANY, &opts);
}

static void untouched_summary(const fixture *f, const char *name)
{
    report_path(f->summary.n == 0 && f->summary.defined == 0, name, 0, "summary left empty");
}

/* Above the size where the histogram selection applies: its buffers, the candidates and the
 * fallback copy are allocations of their own. Values 100.00 .. 109.99, each 20 times. */
#define LARGE 20000
static double large[LARGE];

static void setup_large(fixture *f)
{
    (void)f;
    for (size_t i = 0; i < LARGE; i++)
        large[i] = 100.0 + (double)((i * 7919) % 1000) / 100.0;
}

static int call_summarize_large(fixture *f)
{
    f->summary.size = sizeof f->summary;
    return tally_summarize(&f->summary, large, LARGE, NULL);
}

static int call_summarize_percentiles_large(fixture *f)
{
    static const double p[] = { 90, 99 };
    f->summary.size = sizeof f->summary;
    return tally_summarize_with_percentiles(&f->summary, f->values, large, LARGE, p, 2, NULL);
}

static int call_percentiles_large(fixture *f)
{
    static const double p[] = { 50, 90, 99 };
    return tally_percentiles(f->values, large, LARGE, p, 3, TALLY_PERCENTILE_LINEAR);
}

static int call_sample_new(fixture *f)
{
    return tally_sample_new(&f->sample);
}

static void untouched_sample_ptr(const fixture *f, const char *name)
{
    report_path(f->sample == NULL, name, 0, "no container on failure");
}

static void setup_sample(fixture *f)
{
    if (tally_sample_new(&f->sample) != TALLY_OK || tally_sample_append(f->sample, many, 3) != TALLY_OK) {
        fprintf(stderr, "set-up failed: %s\n", tally_error_last()->message);
        exit(1);
    }
}

static int call_sample_append(fixture *f)
{
    double x[1000];
    for (size_t i = 0; i < 1000; i++)
        x[i] = many[i % MANY];
    return tally_sample_append(f->sample, x, 1000);
}

static void untouched_sample(const fixture *f, const char *name)
{
    report_path(tally_sample_count(f->sample) == 3 && tally_sample_data(f->sample)[2] == many[2],
                name, 0, "container unchanged");
}

static int call_percentiles(fixture *f)
{
    static const double p[] = { 50, 90, 99 };
    return tally_percentiles(f->values, many, MANY, p, 3, TALLY_PERCENTILE_LINEAR);
}

static void untouched_nothing(const fixture *f, const char *name)
{
    (void)f;
    (void)name;
}

static int call_outliers(fixture *f)
{
    return tally_outliers(f->flags, f->flags + 32, many, MANY, 3.5, 1.5);
}

/* ---- comparisons ---- */

typedef struct compare_case {
    tally_test test;
    tally_statistic statistic;
    size_t n; /* samples per side, from `many` cycled */
} compare_case;

static int call_compare(fixture *f)
{
    const compare_case *cc = f->arg;
    double base[200], cur[200];
    for (size_t i = 0; i < cc->n; i++) {
        base[i] = many[i % MANY] + 0.001 * (double)i;
        cur[i] = 1.1 * many[(i + 3) % MANY];
    }
    tally_compare_options opts = TALLY_COMPARE_OPTIONS_INIT;
    opts.test = cc->test;
    opts.statistic = cc->statistic;
    tally_comparison out = { .size = sizeof out };
    return tally_compare(&out, base, cc->n, cur, cc->n, &opts);
}

static const compare_case compare_welch = { TALLY_TEST_WELCH, TALLY_STAT_AMEAN, 20 };
static const compare_case compare_mw_exact = { TALLY_TEST_MANN_WHITNEY, TALLY_STAT_MEDIAN, 8 };
static const compare_case compare_mw_normal = { TALLY_TEST_MANN_WHITNEY, TALLY_STAT_HMEAN, 200 };
static const compare_case compare_mmtests = { TALLY_TEST_MMTESTS_CI, TALLY_STAT_BAMEAN, 20 };

static int call_adjust(fixture *f)
{
    const tally_adjust *method = f->arg;
    static const double p[] = { 0.01, 0.04, 0.03, 0.2, 0.001 };
    double out[5];
    return tally_adjust_pvalues(out, p, 5, *method);
}

static const tally_adjust adjust_holm = TALLY_ADJUST_HOLM;
static const tally_adjust adjust_bh = TALLY_ADJUST_BH;

/* ---- loading ---- */

typedef struct load_case {
    tally_input_kind kind;
    const char *file; /* under tests/data; the name in messages when `text` is set */
    const char *text; /* the input itself, or NULL to read `file` */
} load_case;

static char *read_test_file(const char *rel, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", TALLY_TEST_DATA, rel);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (data == NULL || fread(data, 1, (size_t)size, fp) != (size_t)size) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(fp);
    *len = (size_t)size;
    return data;
}

/* A destination list holding one result set; a failed load must leave exactly that. */
static void setup_load(fixture *f)
{
    const load_case *lc = f->arg;
    setup_resultset(f);
    if (tally_results_add(f->list, f->rs) != TALLY_OK) {
        fprintf(stderr, "set-up failed: %s\n", tally_error_last()->message);
        exit(1);
    }
    f->rs = NULL;
    if (tally_resultset_set_label(tally_results_at(f->list, 0), "alloc-sentinel") != TALLY_OK)
        exit(1);
    if (lc->text) {
        f->len = strlen(lc->text);
        f->data = malloc(f->len + 1);
        memcpy(f->data, lc->text, f->len + 1);
    } else {
        f->data = read_test_file(lc->file, &f->len);
    }
}

static int call_load_buffer(fixture *f)
{
    const load_case *lc = f->arg;
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = lc->kind;
    return tally_load_buffer(f->list, f->data, f->len, lc->file, &opts);
}

static int call_load_file(fixture *f)
{
    const load_case *lc = f->arg;
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", TALLY_TEST_DATA, lc->file);
    return tally_load_file(f->list, path, NULL);
}

static void untouched_loaded(const fixture *f, const char *name)
{
    const tally_resultset *rs = tally_results_at(f->list, 0);
    report_path(tally_results_count(f->list) == 1 && strcmp(tally_resultset_label(rs), "alloc-sentinel") == 0 &&
                    tally_resultset_meta_count(rs) == 1,
                name, 0, "destination list unchanged");
}

static const load_case load_csv = { TALLY_INPUT_CSV, "csv/two-configs.csv", NULL };
static const load_case load_csv_quoted = { TALLY_INPUT_CSV, "csv/quoted.csv", NULL };
static const load_case load_tsv = { TALLY_INPUT_TSV, "csv/rates.tsv", NULL };
static const load_case load_plain = { TALLY_INPUT_PLAIN, "plain/tip.txt", NULL };
static const load_case load_auto = { TALLY_INPUT_AUTO, "csv/two-configs.csv", NULL };
static const load_case load_hyperfine = { TALLY_INPUT_HYPERFINE, "hyperfine/basic.json", NULL };
/* The repetition rows of tests/data/gbench/repetitions.json without its failing benchmark. */
static const load_case load_gbench = {
    TALLY_INPUT_GBENCH, "gbench.json",
    "{\"context\": {\"date\": \"2026-11-29T21:02:30+00:00\", \"host_name\": \"vm\"},\n"
    " \"benchmarks\": [\n"
    "  {\"name\": \"BM_StringCopy/8\", \"run_name\": \"BM_StringCopy/8\", \"run_type\": \"iteration\",\n"
    "   \"repetitions\": 2, \"repetition_index\": 0, \"iterations\": 3899536,\n"
    "   \"real_time\": 3.5367320624991758, \"cpu_time\": 3.5368169443749209, \"time_unit\": \"ns\"},\n"
    "  {\"name\": \"BM_StringCopy/8\", \"run_name\": \"BM_StringCopy/8\", \"run_type\": \"iteration\",\n"
    "   \"repetitions\": 2, \"repetition_index\": 1, \"iterations\": 3899536,\n"
    "   \"real_time\": 3.6066885906525363, \"cpu_time\": 3.5783831717414585, \"time_unit\": \"ns\"}\n"
    " ]}\n"
};
static const load_case load_pyperf = { TALLY_INPUT_PYPERF, "pyperf/suite.json", NULL };
static const load_case load_gotest = { TALLY_INPUT_GOTEST, "gotest/bench.txt", NULL };
static const load_case load_hackbench = { TALLY_INPUT_HACKBENCH, "hackbench/runs.txt", NULL };
static const load_case load_stream = { TALLY_INPUT_STREAM, "stream/runs.txt", NULL };
static const load_case load_schbench = { TALLY_INPUT_SCHBENCH, "schbench/runs.txt", NULL };
static const load_case load_netperf = { TALLY_INPUT_NETPERF, "netperf/omni.txt", NULL };
static const load_case load_tbench = { TALLY_INPUT_TBENCH, "tbench/runs.txt", NULL };

/* ---- native JSON ---- */

/* A list read from real files (several result sets, metadata, case metadata). */
static void load_files(fixture *f, const char *const *files, size_t count,
                       const tally_load_options *opts);

static void setup_loaded_list(fixture *f)
{
    static const char *const files[] = { "csv/two-configs.csv", "hyperfine/basic.json" };
    load_files(f, files, 2, NULL);
}

static int call_to_json(fixture *f)
{
    return tally_results_to_json(&f->out, &f->out_len, f->list);
}

static void untouched_out(const fixture *f, const char *name)
{
    report_path(f->out == NULL, name, 0, "no output buffer on failure");
}

static const char *save_path(void)
{
    return TALLY_TEST_TMP "/alloc-failure-save.json";
}

static void setup_save(fixture *f)
{
    setup_loaded_list(f);
    remove(save_path());
}

static int call_save(fixture *f)
{
    return tally_results_save(f->list, save_path());
}

static void untouched_no_file(const fixture *f, const char *name)
{
    (void)f;
    FILE *fp = fopen(save_path(), "rb");
    report_path(fp == NULL, name, 0, "no file written on failure");
    if (fp)
        fclose(fp);
}

/* ---- validation of harness summaries ---- */

static void load_files(fixture *f, const char *const *files, size_t count,
                       const tally_load_options *opts)
{
    if (tally_results_new(&f->list) != TALLY_OK)
        exit(1);
    for (size_t i = 0; i < count; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", TALLY_TEST_DATA, files[i]);
        if (tally_load_file(f->list, path, opts) != TALLY_OK) {
            fprintf(stderr, "set-up failed: %s\n", tally_error_last()->message);
            exit(1);
        }
    }
}

static void setup_validate(fixture *f)
{
    static const char *const files[] = { "hyperfine/basic.json", "hyperfine/disagree.json" };
    /* Each file one configuration, as the command reads several files: both hold the same
     * commands, which would otherwise be two configurations of the same labels. */
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    lo.config_key = "file";
    load_files(f, files, 2, &lo);
}

static int call_validate(fixture *f)
{
    return tally_validate(&f->validation, f->list, NULL);
}

static void untouched_validation(const fixture *f, const char *name)
{
    report_path(f->validation == NULL, name, 0, "no validation list on failure");
}

/* ---- reports ---- */

/* Three configurations: two in one file, one more with the same benchmarks and cases. */
static void setup_report_inputs(fixture *f)
{
    static const char *const files[] = { "csv/two-configs.csv", "json/example.json" };
    load_files(f, files, 2, NULL);
}

typedef struct report_case {
    tally_test test;
    tally_adjust adjust;
    tally_statistic statistic;
    int summaries_only;
} report_case;

static const report_case report_default = { TALLY_TEST_WELCH, TALLY_ADJUST_NONE,
                                            TALLY_STAT_DEFAULT, 0 };
static const report_case report_mw_holm = { TALLY_TEST_MANN_WHITNEY, TALLY_ADJUST_HOLM,
                                            TALLY_STAT_DEFAULT, 0 };
static const report_case report_median_bh = { TALLY_TEST_STUDENT, TALLY_ADJUST_BH,
                                              TALLY_STAT_MEDIAN, 0 };
static const report_case report_summaries = { TALLY_TEST_WELCH, TALLY_ADJUST_NONE,
                                              TALLY_STAT_DEFAULT, 1 };

static int new_report(fixture *f, const report_case *rc)
{
    tally_report_options opts = TALLY_REPORT_OPTIONS_INIT;
    opts.test = rc->test;
    opts.adjust = rc->adjust;
    opts.statistic = rc->statistic;
    opts.summaries_only = rc->summaries_only;
    return tally_report_new(&f->report, f->list, &opts);
}

static int call_report_new(fixture *f)
{
    return new_report(f, f->arg);
}

static void untouched_report(const fixture *f, const char *name)
{
    report_path(f->report == NULL, name, 0, "no report on failure");
}

/* A computed report, built without injection. */
static void setup_report(fixture *f)
{
    setup_report_inputs(f);
    if (new_report(f, &report_default) != TALLY_OK) {
        fprintf(stderr, "set-up failed: %s\n", tally_error_last()->message);
        exit(1);
    }
}

typedef struct render_case {
    tally_format format;
    tally_style style;
    int fit_width; /* 0: no limit; 30: narrower than two columns of any layout */
} render_case;

static const render_case render_table = { TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE, 0 };
static const render_case render_mmtests = { TALLY_FORMAT_TEXT, TALLY_STYLE_MMTESTS, 0 };
static const render_case render_normalized = { TALLY_FORMAT_TEXT, TALLY_STYLE_NORMALIZED, 0 };
static const render_case render_pct = { TALLY_FORMAT_TEXT, TALLY_STYLE_PCT, 0 };
static const render_case render_json = { TALLY_FORMAT_JSON, TALLY_STYLE_TABLE, 0 };
static const render_case render_csv = { TALLY_FORMAT_CSV, TALLY_STYLE_TABLE, 0 };
static const render_case render_markdown = { TALLY_FORMAT_MARKDOWN, TALLY_STYLE_TABLE, 0 };
static const render_case render_xlsx = { TALLY_FORMAT_XLSX, TALLY_STYLE_TABLE, 0 };
/* Fitted to 30 columns: the seed layouts render views of the report per configuration. */
static const render_case render_mmtests_fit = { TALLY_FORMAT_TEXT, TALLY_STYLE_MMTESTS, 30 };
static const render_case render_normalized_fit = { TALLY_FORMAT_TEXT, TALLY_STYLE_NORMALIZED, 30 };
static const render_case render_pct_fit = { TALLY_FORMAT_TEXT, TALLY_STYLE_PCT, 30 };
static const render_case render_table_fit = { TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE, 30 };

static int call_render(fixture *f)
{
    const render_case *rc = f->arg;
    tally_render_options opts = TALLY_RENDER_OPTIONS_INIT;
    opts.format = rc->format;
    opts.style = rc->style;
    opts.fit_width = rc->fit_width;
    return tally_report_render(&f->out, &f->out_len, f->report, &opts);
}

static const char *report_file_for(const render_case *rc)
{
    return rc->format == TALLY_FORMAT_XLSX ? TALLY_TEST_TMP "/alloc-failure-report.xlsx"
                                           : TALLY_TEST_TMP "/alloc-failure-report.txt";
}

static void setup_report_write(fixture *f)
{
    setup_report(f);
    remove(report_file_for(f->arg));
}

static int call_report_write(fixture *f)
{
    const render_case *rc = f->arg;
    tally_render_options opts = TALLY_RENDER_OPTIONS_INIT;
    opts.format = rc->format;
    opts.style = rc->style;
    return tally_report_write(f->report, report_file_for(rc), &opts);
}

static void untouched_no_report_file(const fixture *f, const char *name)
{
    FILE *fp = fopen(report_file_for(f->arg), "rb");
    report_path(fp == NULL, name, 0, "no report file written on failure");
    if (fp)
        fclose(fp);
}

static const alloc_path paths[] = {
    { "results_new", setup_nothing, call_results_new, untouched_made_list, NULL },
    { "resultset_new", setup_nothing, call_resultset_new, untouched_made, NULL },
    { "resultset_benchmark_add", setup_resultset, call_benchmark_add, untouched_benchmarks, NULL },
    { "benchmark_case_add", setup_resultset, call_case_add, untouched_cases, NULL },
    { "case_append", setup_resultset, call_case_append, untouched_samples, NULL },
    { "resultset_meta_set (new)", setup_resultset, call_meta_set_new, untouched_meta, NULL },
    { "resultset_meta_set (replace)", setup_resultset, call_meta_set_replace, untouched_meta, NULL },
    { "case_meta_set", setup_resultset, call_case_meta_set, untouched_case_meta, NULL },
    { "resultset_set_label", setup_resultset, call_set_label, untouched_label, NULL },
    { "results_add", setup_resultset, call_results_add, untouched_list_empty, NULL },
    { "results_merge", setup_two_lists, call_results_merge, untouched_merge, NULL },
    { "build a result set", setup_nothing, call_build_whole, untouched_made_list, NULL },
    { "summarize", setup_nothing, call_summarize, untouched_summary, NULL },
    { "summarize (histogram)", setup_large, call_summarize_large, untouched_summary, NULL },
    { "summarize with percentiles", setup_large, call_summarize_percentiles_large,
      untouched_summary, NULL },
    { "percentiles (histogram)", setup_large, call_percentiles_large, untouched_nothing, NULL },
    { "sample_new", setup_nothing, call_sample_new, untouched_sample_ptr, NULL },
    { "sample_append", setup_sample, call_sample_append, untouched_sample, NULL },
    { "percentiles", setup_nothing, call_percentiles, untouched_nothing, NULL },
    { "outliers", setup_nothing, call_outliers, untouched_nothing, NULL },
    { "load csv", setup_load, call_load_buffer, untouched_loaded, &load_csv },
    { "load csv (quoted)", setup_load, call_load_buffer, untouched_loaded, &load_csv_quoted },
    { "load tsv", setup_load, call_load_buffer, untouched_loaded, &load_tsv },
    { "load plain", setup_load, call_load_buffer, untouched_loaded, &load_plain },
    { "load auto", setup_load, call_load_buffer, untouched_loaded, &load_auto },
    { "load_file", setup_load, call_load_file, untouched_loaded, &load_csv },
    { "compare (welch)", setup_nothing, call_compare, untouched_nothing, &compare_welch },
    { "compare (mann-whitney exact)", setup_nothing, call_compare, untouched_nothing,
      &compare_mw_exact },
    { "compare (mann-whitney z)", setup_nothing, call_compare, untouched_nothing,
      &compare_mw_normal },
    { "compare (mmtests-ci)", setup_nothing, call_compare, untouched_nothing, &compare_mmtests },
    { "adjust_pvalues (holm)", setup_nothing, call_adjust, untouched_nothing, &adjust_holm },
    { "adjust_pvalues (bh)", setup_nothing, call_adjust, untouched_nothing, &adjust_bh },
    { "load hyperfine", setup_load, call_load_buffer, untouched_loaded, &load_hyperfine },
    { "load gbench", setup_load, call_load_buffer, untouched_loaded, &load_gbench },
    { "load pyperf", setup_load, call_load_buffer, untouched_loaded, &load_pyperf },
    { "load gotest", setup_load, call_load_buffer, untouched_loaded, &load_gotest },
    { "load hackbench", setup_load, call_load_buffer, untouched_loaded, &load_hackbench },
    { "load stream", setup_load, call_load_buffer, untouched_loaded, &load_stream },
    { "load schbench", setup_load, call_load_buffer, untouched_loaded, &load_schbench },
    { "load netperf", setup_load, call_load_buffer, untouched_loaded, &load_netperf },
    { "load tbench", setup_load, call_load_buffer, untouched_loaded, &load_tbench },
    { "validate", setup_validate, call_validate, untouched_validation, NULL },
    { "results_to_json", setup_loaded_list, call_to_json, untouched_out, NULL },
    { "results_save", setup_save, call_save, untouched_no_file, NULL },
    { "report_new", setup_report_inputs, call_report_new, untouched_report, &report_default },
    { "report_new (mann-whitney, holm)", setup_report_inputs, call_report_new, untouched_report,
      &report_mw_holm },
    { "report_new (median, bh)", setup_report_inputs, call_report_new, untouched_report,
      &report_median_bh },
    { "report_new (summaries only)", setup_report_inputs, call_report_new, untouched_report,
      &report_summaries },
    { "render text table", setup_report, call_render, untouched_out, &render_table },
    { "render text mmtests", setup_report, call_render, untouched_out, &render_mmtests },
    { "render text normalized", setup_report, call_render, untouched_out, &render_normalized },
    { "render text pct", setup_report, call_render, untouched_out, &render_pct },
    { "render text mmtests fitted", setup_report, call_render, untouched_out, &render_mmtests_fit },
    { "render text normalized fitted", setup_report, call_render, untouched_out,
      &render_normalized_fit },
    { "render text pct fitted", setup_report, call_render, untouched_out, &render_pct_fit },
    { "render text table fitted", setup_report, call_render, untouched_out, &render_table_fit },
    { "render json", setup_report, call_render, untouched_out, &render_json },
    { "render csv", setup_report, call_render, untouched_out, &render_csv },
    { "render markdown", setup_report, call_render, untouched_out, &render_markdown },
    { "report_write text", setup_report_write, call_report_write, untouched_no_report_file,
      &render_mmtests },
    { "report_write xlsx", setup_report_write, call_report_write, untouched_no_report_file,
      &render_xlsx },
};

int main(void)
{
    for (size_t i = 0; i < TALLY__COUNT(paths); i++)
        torture(&paths[i]);
    return check_summary();
}

#else

int main(void)
{
    printf("skipped: the library was built without -DTALLY_FAULT_INJECTION=ON\n");
    return 77;
}

#endif
