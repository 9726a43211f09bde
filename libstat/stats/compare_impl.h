/*
 * Internal building blocks of the comparison tests, shared by the public array functions and by
 * tally_compare(), which feeds them the moments of the summaries it has already computed (so the
 * samples are never summarised twice).
 */
#ifndef TALLY_COMPARE_IMPL_H
#define TALLY_COMPARE_IMPL_H

#include <stddef.h>

#include "tally/compare.h"

/* The moments a t-test needs. `constant` marks a sample whose values are all equal: its SD is
 * then exactly 0 and its mean exactly that value, whatever rounding the mean's sum produced. The
 * SD rather than the variance, so that samples near 1e200 do not overflow a square. */
typedef struct tally__test_moments {
    double mean;
    double sd; /* sample standard deviation, n - 1 in the denominator */
    size_t n;
    int constant;
} tally__test_moments;

/* Outcome of a t-type test. zero_variance: both samples constant, t reported as 0 and p as 0
 * (means differ) or 1 (means equal), see docs/statistics.md. */
typedef struct tally__ttest {
    double t;
    double df;
    double p;
    int zero_variance;
} tally__ttest;

/* Welch's and Student's t-tests from moments; both sides need n >= 2 (TALLY_ENODATA). */
int tally__welch_moments(tally__ttest *out, const tally__test_moments *a,
                         const tally__test_moments *b);
int tally__student_moments(tally__ttest *out, const tally__test_moments *a,
                           const tally__test_moments *b);

/* Two-sided p-value of |t| with df degrees of freedom: twice the upper tail of |t|, which keeps
 * full relative precision for tiny p (1 - P would cancel). TALLY_ENUMERIC when GSL fails. */
int tally__t_two_sided_p(double *p, double t, double df);

/* P(U <= u) under the null hypothesis for samples of sizes m and n without ties (the exact
 * distribution, counted). */
int tally__mann_whitney_cdf(double *out, size_t m, size_t n, size_t u);

/* The smallest two-sided p-value Mann-Whitney can produce for samples of these sizes,
 * min(1, 2 / C(na + nb, na)): the exact test's p for complete separation. */
double tally__mann_whitney_min_p(size_t na, size_t nb);

/* tally_compare() for callers that already hold both summaries, made with tally_summarize()
 * from base[0..nb) and current[0..nc) with opts->summary and opts->direction (as tally_compare
 * makes them): everything tally_compare does after summarising, with the same results and
 * errors. The raw samples are still needed by Mann-Whitney; the other tests accept NULL samples
 * (with their counts). TALLY_EINVAL when a summary's n differs from its side's sample count. */
int tally__compare_summarized(tally_comparison *out, const tally_summary *base_summary,
                              const double *base, size_t nb,
                              const tally_summary *current_summary, const double *current,
                              size_t nc, const tally_compare_options *opts);

#endif /* TALLY_COMPARE_IMPL_H */
