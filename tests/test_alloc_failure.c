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
#include "tally/testing.h"

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
    size_t before;           /* a count to compare after a failed call */
} fixture;

typedef struct alloc_path {
    const char *name;
    void (*setup)(fixture *f);
    int (*call)(fixture *f);
    void (*check_untouched)(const fixture *f, const char *name);
} alloc_path;

static void teardown(fixture *f)
{
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
    p->setup(&f);
    tally_testing_fail_allocation(0);
    int rc = p->call(&f);
    unsigned long count = tally_testing_allocation_count();
    teardown(&f);
    report_path(rc == TALLY_OK, p->name, 0, "succeeds without injection");
    report_path(count > 0, p->name, 0, "allocates at all");

    for (unsigned long n = 1; n <= count; n++) {
        p->setup(&f);
        tally_error_clear();
        tally_testing_fail_allocation((long)n);
        rc = p->call(&f);
        tally_testing_fail_allocation(0);
        const tally_error *e = tally_error_last();
        report_path(rc == TALLY_ENOMEM, p->name, n, "returns TALLY_ENOMEM");
        report_path(e->code == rc && e->message[0] != '\0', p->name, n,
                    "leaves a message with the code");
        if (rc != TALLY_OK)
            p->check_untouched(&f, p->name);
        teardown(&f);
    }
    printf("%-28s %3lu allocations, each failed once\n", p->name, count);
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

static const alloc_path paths[] = {
    { "results_new", setup_nothing, call_results_new, untouched_made_list },
    { "resultset_new", setup_nothing, call_resultset_new, untouched_made },
    { "resultset_benchmark_add", setup_resultset, call_benchmark_add, untouched_benchmarks },
    { "benchmark_case_add", setup_resultset, call_case_add, untouched_cases },
    { "case_append", setup_resultset, call_case_append, untouched_samples },
    { "resultset_meta_set (new)", setup_resultset, call_meta_set_new, untouched_meta },
    { "resultset_meta_set (replace)", setup_resultset, call_meta_set_replace, untouched_meta },
    { "case_meta_set", setup_resultset, call_case_meta_set, untouched_case_meta },
    { "resultset_set_label", setup_resultset, call_set_label, untouched_label },
    { "results_add", setup_resultset, call_results_add, untouched_list_empty },
    { "results_merge", setup_two_lists, call_results_merge, untouched_merge },
    { "build a result set", setup_nothing, call_build_whole, untouched_made_list },
};

int main(void)
{
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
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
