/* Invariant helpers shared by the fuzz targets: failing loudly, comparing models, a sentinel. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"

void fuzz_fail(const char *file, int line, const char *cond, const char *what)
{
    const tally_error *e = tally_error_last();
    fprintf(stderr, "%s:%d: invariant failed: %s\n  %s\n  last error: %d %s\n", file, line, cond,
            what ? what : "", e->code, e->message);
    fflush(stderr);
    __builtin_trap();
}

void fuzz_check_error(int rc, const char *call)
{
    const tally_error *e = tally_error_last();
    FUZZ_CHECK(rc < 0, call);
    FUZZ_CHECK(e->message != NULL && e->message[0] != '\0', call);
    FUZZ_CHECK(e->code == rc, call);
}

static int differ(char *why, size_t size, const char *fmt, ...)
{
    if (why != NULL && size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static int same_string(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int cases_equal(const tally_case *a, const tally_case *b, char *why, size_t size)
{
    const char *name = tally_case_name(a);
    if (!same_string(name, tally_case_name(b)))
        return differ(why, size, "case name '%s' vs '%s'", name, tally_case_name(b));
    size_t n = tally_case_sample_count(a);
    if (n != tally_case_sample_count(b))
        return differ(why, size, "case '%s': %zu vs %zu samples", name, n,
                      tally_case_sample_count(b));
    /* Bit-identical, so -0.0 and 0.0 differ and a rounding slip cannot hide. */
    if (n > 0 && memcmp(tally_case_samples(a), tally_case_samples(b), n * sizeof(double)) != 0)
        return differ(why, size, "case '%s': samples differ", name);
    /* A summary-only case: the same figures, bit for bit (a derived SD is derived again). */
    if (tally_case_is_summary_only(a) != tally_case_is_summary_only(b))
        return differ(why, size, "case '%s': summary-only on one side only", name);
    tally_case_summary sa = { .size = sizeof sa }, sb = { .size = sizeof sb };
    if (tally_case_is_summary_only(a) &&
        (tally_case_summary_result(&sa, a) != TALLY_OK ||
         tally_case_summary_result(&sb, b) != TALLY_OK || sa.n != sb.n ||
         memcmp(&sa.mean, &sb.mean, sizeof sa.mean) != 0 ||
         (memcmp(&sa.sd, &sb.sd, sizeof sa.sd) != 0 && !(isnan(sa.sd) && isnan(sb.sd))) ||
         sa.interval_level != sb.interval_level || sa.sd_derived != sb.sd_derived))
        return differ(why, size, "case '%s': summaries differ", name);
    size_t m = tally_case_meta_count(a);
    if (m != tally_case_meta_count(b))
        return differ(why, size, "case '%s': %zu vs %zu metadata entries", name, m,
                      tally_case_meta_count(b));
    for (size_t i = 0; i < m; i++) {
        const char *ka, *va, *kb, *vb;
        if (tally_case_meta_at(&ka, &va, a, i) != TALLY_OK ||
            tally_case_meta_at(&kb, &vb, b, i) != TALLY_OK || !same_string(ka, kb) ||
            !same_string(va, vb))
            return differ(why, size, "case '%s': metadata entry %zu differs", name, i);
    }
    return 1;
}

static int benchmarks_equal(const tally_benchmark *a, const tally_benchmark *b, char *why,
                            size_t size)
{
    const char *name = tally_benchmark_name(a);
    if (!same_string(name, tally_benchmark_name(b)))
        return differ(why, size, "benchmark name '%s' vs '%s'", name, tally_benchmark_name(b));
    if (!same_string(tally_benchmark_unit(a), tally_benchmark_unit(b)))
        return differ(why, size, "benchmark '%s': unit '%s' vs '%s'", name,
                      tally_benchmark_unit(a), tally_benchmark_unit(b));
    if (tally_benchmark_direction(a) != tally_benchmark_direction(b))
        return differ(why, size, "benchmark '%s': direction differs", name);
    if (tally_benchmark_statistic(a) != tally_benchmark_statistic(b))
        return differ(why, size, "benchmark '%s': statistic %d vs %d", name,
                      (int)tally_benchmark_statistic(a), (int)tally_benchmark_statistic(b));
    size_t n = tally_benchmark_case_count(a);
    if (n != tally_benchmark_case_count(b))
        return differ(why, size, "benchmark '%s': %zu vs %zu cases", name, n,
                      tally_benchmark_case_count(b));
    for (size_t i = 0; i < n; i++)
        if (!cases_equal(tally_benchmark_case_at(a, i), tally_benchmark_case_at(b, i), why, size))
            return 0;
    return 1;
}

int fuzz_resultsets_equal(const tally_resultset *a, const tally_resultset *b, char *why, size_t size)
{
    const char *label = tally_resultset_label(a);
    if (!same_string(label, tally_resultset_label(b)))
        return differ(why, size, "label '%s' vs '%s'", label, tally_resultset_label(b));
    size_t m = tally_resultset_meta_count(a);
    if (m != tally_resultset_meta_count(b))
        return differ(why, size, "'%s': %zu vs %zu metadata entries", label, m,
                      tally_resultset_meta_count(b));
    for (size_t i = 0; i < m; i++) {
        const char *ka, *va, *kb, *vb;
        if (tally_resultset_meta_at(&ka, &va, a, i) != TALLY_OK ||
            tally_resultset_meta_at(&kb, &vb, b, i) != TALLY_OK || !same_string(ka, kb) ||
            !same_string(va, vb))
            return differ(why, size, "'%s': metadata entry %zu differs", label, i);
    }
    size_t n = tally_resultset_benchmark_count(a);
    if (n != tally_resultset_benchmark_count(b))
        return differ(why, size, "'%s': %zu vs %zu benchmarks", label, n,
                      tally_resultset_benchmark_count(b));
    for (size_t i = 0; i < n; i++)
        if (!benchmarks_equal(tally_resultset_benchmark_at(a, i),
                              tally_resultset_benchmark_at(b, i), why, size))
            return 0;
    return 1;
}

int fuzz_results_equal(const tally_results *a, const tally_results *b, char *why, size_t size)
{
    size_t n = tally_results_count(a);
    if (n != tally_results_count(b))
        return differ(why, size, "%zu vs %zu result sets", n, tally_results_count(b));
    for (size_t i = 0; i < n; i++)
        if (!fuzz_resultsets_equal(tally_results_at(a, i), tally_results_at(b, i), why, size))
            return 0;
    return 1;
}

tally_results *fuzz_sentinel_new(void)
{
    static const double samples[] = { 1.5, 2.25, -0.0 };
    tally_results *list = NULL;
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    tally_case *c = NULL;
    int ok = tally_results_new(&list) == TALLY_OK &&
             tally_resultset_new(&rs, "tally-fuzz-sentinel") == TALLY_OK &&
             tally_resultset_meta_set(rs, "host", "sentinel") == TALLY_OK &&
             tally_resultset_meta_set(rs, "source_file", FUZZ_INPUT_NAME) == TALLY_OK &&
             tally_resultset_benchmark_add(&b, rs, "sentinel-bench", "s",
                                           TALLY_LOWER_IS_BETTER) == TALLY_OK &&
             tally_benchmark_case_add(&c, b, "1") == TALLY_OK &&
             tally_case_append(c, samples, TALLY__COUNT(samples)) == TALLY_OK &&
             tally_results_add(list, rs) == TALLY_OK;
    if (!ok) {
        if (list == NULL || tally_results_count(list) == 0)
            tally_resultset_free(rs);
        tally_results_free(list);
        FUZZ_CHECK(0, "building the sentinel result set");
    }
    return list;
}
