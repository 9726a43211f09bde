/* Every public entry point that takes an options struct reads no byte past the version the
 * caller declares: each is called with a version-1 struct whose last byte is the last readable
 * byte of a page, the next page mapped PROT_NONE. A read past the version-1 prefix (a struct
 * copied whole, a field of a later version read directly) ends the program with SIGSEGV, which
 * ctest reports as a failure. Every public options struct is at version 1 until the first
 * release, so the version-1 size is the whole struct; once a struct gains a version, its
 * version-1 size here becomes the offset of the first field that version appended. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS beside C11 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "tally.h"

/* Two guarded places, for a struct and one it points to (the summary options of the compare
 * and partition options): [readable][PROT_NONE] each. */
static unsigned char *guard_base;
static size_t page;

static void guard_setup(void)
{
    page = (size_t)sysconf(_SC_PAGESIZE);
    void *m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    guard_base = m;
    if (mprotect(guard_base + page, page, PROT_NONE) != 0 ||
        mprotect(guard_base + 3 * page, page, PROT_NONE) != 0) {
        perror("mprotect");
        exit(1);
    }
}

/* The first `size` bytes of `full` copied so that they end exactly at the guard page of `slot`. */
static void *guarded(int slot, const void *full, size_t size)
{
    unsigned char *end = guard_base + (size_t)(2 * slot + 1) * page;
    memset(end - page, 0xa5, page);
    memcpy(end - size, full, size);
    return end - size;
}

/* The defaults of options TYPE at version 1 in `full`, their first `size` bytes placed at the
 * guard page of `slot`. */
#define V1(slot, TYPE, full, size) \
    (CHECK(TYPE##_init(&(full), 1) == TALLY_OK), (const TYPE *)guarded(slot, &(full), size))

static const double X[] = { 10.1, 10.4, 9.8, 10.0, 10.3, 9.9, 10.2, 10.0, 10.5, 9.7 };
static const double Y[] = { 11.0, 11.2, 10.8, 11.1, 10.9, 11.3, 11.0, 10.7, 11.2, 11.1 };

static void test_summary(void)
{
    tally_summary_options full;
    const tally_summary_options *o = V1(0, tally_summary_options, full, sizeof full);
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_summarize(&s, X, TALLY__COUNT(X), o), TALLY_OK);
    double p = 50, pct;
    CHECK_INT(tally_summarize_with_percentiles(&s, &pct, X, TALLY__COUNT(X), &p, 1, o), TALLY_OK);
    double copy[TALLY__COUNT(X)];
    memcpy(copy, X, sizeof copy);
    CHECK_INT(tally_summarize_inplace(&s, copy, TALLY__COUNT(copy), o), TALLY_OK);
    tally_sample *sample = NULL;
    CHECK_INT(tally_sample_new(&sample), TALLY_OK);
    CHECK_INT(tally_sample_append(sample, X, TALLY__COUNT(X)), TALLY_OK);
    CHECK_INT(tally_sample_summarize(&s, sample, o), TALLY_OK);
    tally_sample_free(sample);
    tally_accumulator *a = NULL;
    CHECK_INT(tally_accumulator_new(&a), TALLY_OK);
    CHECK_INT(tally_accumulator_add(a, X, TALLY__COUNT(X)), TALLY_OK);
    CHECK_INT(tally_accumulator_moments(&s, a, o), TALLY_OK);
    tally_accumulator_free(a);
}

/* A version-1 summary struct at the second guard, for the options that point to one. */
static const tally_summary_options *guarded_summary(void)
{
    tally_summary_options full;
    return V1(1, tally_summary_options, full, sizeof full);
}

static void test_partition(void)
{
    tally_partition_options full;
    CHECK_INT(tally_partition_options_init(&full, 1), TALLY_OK);
    full.summary = guarded_summary();
    const tally_partition_options *o = guarded(0, &full, sizeof full);
    tally_accumulator *a = NULL;
    CHECK_INT(tally_accumulator_new(&a), TALLY_OK);
    CHECK_INT(tally_accumulator_add(a, X, TALLY__COUNT(X)), TALLY_OK);
    tally_partition_summary *p = NULL;
    CHECK_INT(tally_partition_summary_new(&p, a, o), TALLY_OK);
    tally_partition_summary_free(p);
    tally_accumulator_free(a);
}

static void test_compare(void)
{
    tally_compare_options full;
    CHECK_INT(tally_compare_options_init(&full, 1), TALLY_OK);
    full.summary = guarded_summary();
    const tally_compare_options *o =
        guarded(0, &full, sizeof full);
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, X, TALLY__COUNT(X), Y, TALLY__COUNT(Y), o), TALLY_OK);
    tally_summary sb = { .size = sizeof sb }, sc = { .size = sizeof sc };
    CHECK_INT(tally_compare_summaries(&sb, &sc, X, TALLY__COUNT(X), Y, TALLY__COUNT(Y), o),
              TALLY_OK);
}

static void test_diagnose(void)
{
    tally_diagnose_options full;
    const tally_diagnose_options *o = V1(0, tally_diagnose_options, full, sizeof full);
    tally_diagnostics d = { .size = sizeof d };
    CHECK_INT(tally_diagnose(&d, X, TALLY__COUNT(X), o), TALLY_OK);
}

#define PLAIN_A "10.1\n10.4\n9.8\n10.0\n10.3\n9.9\n10.2\n10.0\n10.5\n9.7\n"
#define PLAIN_B "11.0\n11.2\n10.8\n11.1\n10.9\n11.3\n11.0\n10.7\n11.2\n11.1\n"

/* Two result sets "a" and "b" loaded through every loading entry point, each with a
 * version-1 struct; the caller frees them. */
static tally_results *test_load(void)
{
    static const char path[] = TALLY_TEST_TMP "/options_bounds.txt";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f == NULL)
        return NULL;
    fputs(PLAIN_B, f);
    fclose(f);

    tally_load_options full;
    CHECK_INT(tally_load_options_init(&full, 1), TALLY_OK);
    full.label = "a";
    const tally_load_options *o = guarded(0, &full, sizeof full);
    tally_results *r = NULL, *scratch = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_results_new(&scratch), TALLY_OK);
    CHECK_INT(tally_load_buffer(r, PLAIN_A, strlen(PLAIN_A), "a.txt", o), TALLY_OK);
    full.label = "b";
    o = guarded(0, &full, sizeof full);
    CHECK_INT(tally_load_file(scratch, path, o), TALLY_OK);
    full.label = NULL;
    o = guarded(0, &full, sizeof full);
    CHECK_INT(tally_load_spec(r, "b=" TALLY_TEST_TMP "/options_bounds.txt", o), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    tally_results_free(scratch);
    remove(path);
    return r;
}

static void test_validate(const tally_results *r)
{
    tally_validate_options full;
    const tally_validate_options *o = V1(0, tally_validate_options, full, sizeof full);
    tally_validation *v = NULL;
    CHECK_INT(tally_validate(&v, r, o), TALLY_OK);
    tally_validation_free(v);
}

static void test_report(const tally_results *r)
{
    tally_report_options full;
    const tally_report_options *o =
        V1(0, tally_report_options, full, sizeof full);
    tally_report *rep = NULL;
    CHECK_INT(tally_report_new(&rep, r, o), TALLY_OK);
    /* No summaries: refused after the options are read. */
    const tally_partition_summary *none[1] = { NULL };
    tally_report *other = NULL;
    double zero = 0;
    CHECK(tally_report_new_from_partitions(&other, r, none, 0, o) != TALLY_OK);
    CHECK(tally_report_new_from_partitions_ranked(&other, r, none, 0, &zero, &zero, o) !=
          TALLY_OK);
    tally_noise *noise = NULL;
    CHECK_INT(tally_calibrate(&noise, r, o), TALLY_OK);
    tally_noise_free(noise);

    tally_render_options rfull;
    const tally_render_options *ro =
        V1(0, tally_render_options, rfull, sizeof rfull);
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, rep, ro), TALLY_OK);
    tally_free(text);
    static const char out[] = TALLY_TEST_TMP "/options_bounds.out";
    CHECK_INT(tally_report_write(rep, out, ro), TALLY_OK);
    remove(out);
    tally_report_free(rep);
}

static void test_runner(void)
{
    tally_runner_options full;
    const tally_runner_options *o =
        V1(0, tally_runner_options, full, sizeof full);
    tally_runner *runner = NULL;
    /* A build without the runner refuses after reading the options; either way, no crash. */
    int rc = tally_runner_new(&runner, o);
    CHECK(rc == TALLY_OK || rc == TALLY_ERUN);
    tally_runner_free(runner);
}

int main(void)
{
    guard_setup();
    test_summary();
    test_partition();
    test_compare();
    test_diagnose();
    tally_results *r = test_load();
    if (r) {
        test_validate(r);
        test_report(r);
    }
    tally_results_free(r);
    test_runner();
    return check_summary();
}
