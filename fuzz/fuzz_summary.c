/* Summaries of accepted input: defined fields are finite. */
#include <math.h>
#include <stdio.h>

#include "fuzz_support.h"

static void check_summary(const tally_summary *s, size_t n, const char *where)
{
    FUZZ_CHECK(s->n == n, where);
    FUZZ_CHECK(isfinite(s->min) && isfinite(s->max) && isfinite(s->amean), where);
    FUZZ_CHECK(isfinite(s->median) && isfinite(s->bamean), where);
    FUZZ_CHECK(s->min <= s->max, where);
    /* Every centre of a sample lies within its range. */
    FUZZ_CHECK(s->median >= s->min && s->median <= s->max, where);
    FUZZ_CHECK(s->amean >= s->min && s->amean <= s->max, where);
    FUZZ_CHECK(s->bamean >= s->min && s->bamean <= s->max, where);
    FUZZ_CHECK(s->outliers_mad <= n && s->outliers_tukey <= n, where);
    if (s->defined & TALLY_SUMMARY_HMEAN)
        FUZZ_CHECK(isfinite(s->hmean) && s->hmean >= s->min && s->hmean <= s->max, where);
    if (s->defined & TALLY_SUMMARY_HSTDDEV)
        FUZZ_CHECK(isfinite(s->hstddev) && s->hstddev >= 0 && isfinite(s->hcv), where);
    if (s->defined & TALLY_SUMMARY_GMEAN)
        FUZZ_CHECK(isfinite(s->gmean) && s->gmean >= s->min && s->gmean <= s->max, where);
    if (s->defined & TALLY_SUMMARY_STDDEV)
        FUZZ_CHECK(isfinite(s->stddev) && s->stddev >= 0 && isfinite(s->sem), where);
    if (s->defined & TALLY_SUMMARY_CV)
        FUZZ_CHECK(isfinite(s->cv), where);
    /* A confidence interval holds its own centre. */
    if (s->defined & TALLY_SUMMARY_MEAN_CI) {
        FUZZ_CHECK(isfinite(s->mean_ci_low) && isfinite(s->mean_ci_high), where);
        FUZZ_CHECK(s->mean_ci_low <= s->amean && s->amean <= s->mean_ci_high, where);
    }
    if (s->defined & TALLY_SUMMARY_MEDIAN_CI) {
        FUZZ_CHECK(isfinite(s->median_ci_low) && isfinite(s->median_ci_high), where);
        FUZZ_CHECK(s->median_ci_low <= s->median && s->median <= s->median_ci_high, where);
        FUZZ_CHECK(s->median_ci_level > 0 && s->median_ci_level <= 1, where);
    }
}

void fuzz_check_summaries(const tally_results *r)
{
    char where[256];
    for (size_t i = 0; i < tally_results_count(r); i++) {
        const tally_resultset *rs = tally_results_at(r, i);
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            const tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            tally_summary_options opts = TALLY_SUMMARY_OPTIONS_INIT;
            opts.direction = tally_benchmark_direction(b);
            for (size_t k = 0; k < tally_benchmark_case_count(b); k++) {
                const tally_case *c = tally_benchmark_case_at(b, k);
                size_t n = tally_case_sample_count(c);
                snprintf(where, sizeof(where), "summary of %s/%s/%s", tally_resultset_label(rs),
                         tally_benchmark_name(b), tally_case_name(c));
                tally_summary s = { .size = sizeof s };
                int rc = tally_summarize(&s, tally_case_samples(c), n, &opts);
                if (n == 0) {
                    FUZZ_CHECK(rc == TALLY_ENODATA, where);
                    fuzz_check_error(rc, where);
                    continue;
                }
                FUZZ_CHECK(rc == TALLY_OK, where);
                check_summary(&s, n, where);
            }
        }
    }
}
