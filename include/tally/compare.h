/**
 * @file tally/compare.h
 * @brief Comparison of a baseline sample set with a new one: ratio, pct-imp, significance tests,
 * multiple-comparison adjustment.
 *
 * Definitions, formulas, switch rules and references are in docs/statistics.md. All functions are
 * reentrant and thread-safe; none modifies the caller's arrays.
 */
#ifndef TALLY_COMPARE_H
#define TALLY_COMPARE_H

#include "common.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Significance test. */
typedef enum tally_test {
    TALLY_TEST_WELCH = 0,        /**< Welch's unequal-variance t-test, on the scale of the row's
                                      statistic: x for AMean, 1/x for HMean, log x for GMean; on
                                      x (the means) for the other statistics. */
    TALLY_TEST_STUDENT = 1,      /**< Student's pooled-variance t-test, on the same scales. */
    TALLY_TEST_MANN_WHITNEY = 2, /**< Mann-Whitney U (Wilcoxon rank-sum), two-sided. */
    TALLY_TEST_MMTESTS_CI = 3,   /**< mmtests' significance rule (compare-mmtests `*` marks): t on
                                      the unpooled standard error with n1 + n2 - 2 df; see
                                      tally_mmtests_test(). */
    TALLY_TEST_NONE = 4,         /**< No test: every row is ::TALLY_VERDICT_NOT_TESTED. */
    TALLY_TEST_AUTO = 5,         /**< The test of the statistic shown (the default): Welch on x
                                      (AMean), on 1/x (HMean), on log x (GMean), Price-Bonett
                                      (Median); Min, Max and BAmean rows are not tested
                                      (docs/statistics.md). Never stored in a comparison: its
                                      `test` names the test that ran. */
    TALLY_TEST_PRICE_BONETT = 6, /**< Price & Bonett (2002): z test of the log ratio of medians
                                      with distribution-free standard errors from order
                                      statistics. */
    TALLY_TEST_CLUSTER_BOOTSTRAP = 7 /**< Reports of histogram runs at the pooled level: t on the
                                          log ratio with each side's cluster bootstrap standard
                                          error over runs (docs/statistics.md, "Histogram
                                          runs"); a report chooses it itself, never an option. */
} tally_test;

/** Verdict of one comparison row (docs/statistics.md, "Verdicts"). */
typedef enum tally_verdict {
    TALLY_VERDICT_INCONCLUSIVE = 0, /**< Not significant and not shown equivalent: the data
                                         cannot tell (see mde_pct and runs_needed). */
    TALLY_VERDICT_NO_CHANGE = 0,    /**< Former name of ::TALLY_VERDICT_INCONCLUSIVE. */
    TALLY_VERDICT_IMPROVEMENT = 1,  /**< Significant and better. */
    TALLY_VERDICT_REGRESSION = 2,   /**< Significant and worse. */
    TALLY_VERDICT_INSUFFICIENT = 3, /**< Too few samples for the test to reach alpha. */
    TALLY_VERDICT_EQUIVALENT = 4,   /**< Not significant, and the 1 - 2 alpha interval of the
                                         change lies inside the equivalence margin (TOST). */
    TALLY_VERDICT_NOT_TESTED = 5,   /**< No test concerns this row's statistic (Min, Max,
                                         BAmean under ::TALLY_TEST_AUTO) or ::TALLY_TEST_NONE. */
    TALLY_VERDICT_IDENTICAL = 6,    /**< Both sides constant (at least two runs each) and equal:
                                         no change, and nothing to test. */
    TALLY_VERDICT_WITHIN_NOISE = 7  /**< Significant, but the change lies inside the
                                         benchmark's calibrated noise floor (a report with a
                                         noise profile): what identical builds also show. */
} tally_verdict;

/** How the interval of a comparison's ratio was computed. */
typedef enum tally_interval_method {
    TALLY_INTERVAL_NONE = 0,          /**< No interval (see interval_defined). */
    TALLY_INTERVAL_FIELLER = 1,       /**< Fieller's theorem for the ratio of means, with the
                                           Welch-Satterthwaite df (AMean rows). */
    TALLY_INTERVAL_FIELLER_RECIPROCAL = 2, /**< Fieller on the means of 1/x, inverted (HMean). */
    TALLY_INTERVAL_LOG_WELCH = 3,     /**< exp of the Welch interval of mean(log x) differences:
                                           exact for the ratio of geometric means (GMean). */
    TALLY_INTERVAL_PRICE_BONETT = 4,  /**< Price & Bonett (2002) for the ratio of medians. */
    TALLY_INTERVAL_HODGES_LEHMANN = 5, /**< The Hodges-Lehmann interval that inverts the
                                           Mann-Whitney test (as R's `wilcox.test(conf.int =
                                           TRUE)`), of the ratio of locations (log scale) or,
                                           with samples <= 0, of the shift over the baseline's
                                           statistic. */
    TALLY_INTERVAL_CLUSTER_BOOTSTRAP = 6 /**< exp of the t interval of the log ratio with the
                                              sides' cluster bootstrap standard errors over
                                              runs (histogram runs, pooled level). */
} tally_interval_method;

/** Multiple-comparison adjustment of p-values. */
typedef enum tally_adjust {
    TALLY_ADJUST_NONE = 0, /**< Raw p-values. */
    TALLY_ADJUST_HOLM = 1, /**< Holm's step-down (family-wise error rate). */
    TALLY_ADJUST_BH = 2,   /**< Benjamini-Hochberg (false discovery rate). */
    TALLY_ADJUST_BONFERRONI = 3 /**< Bonferroni: p times the number of tests (family-wise
                                     error rate; the simultaneous intervals). */
} tally_adjust;

/** Options for tally_compare(). Initialise with ::TALLY_COMPARE_OPTIONS_INIT. */
typedef struct tally_compare_options {
    unsigned int version;       /**< ::TALLY_COMPARE_OPTIONS_VERSION. */
    tally_test test;            /**< Test; default ::TALLY_TEST_AUTO. */
    double alpha;               /**< Significance level in (0, 1); default 0.05. A row is
                                     significant when p < alpha. (mmtests itself uses 0.10.) */
    tally_direction direction;  /**< Which way is better; decides the sign of pct_imp. */
    tally_statistic statistic;  /**< Centre compared by ratio and pct_imp; default AMean
                                     (::TALLY_STAT_DEFAULT means AMean here). With the mmtests
                                     rule, HMean also makes the test use the harmonic mean and
                                     harmonic SD, as mmtests does for higher-is-better rows. */
    const tally_summary_options *summary; /**< Options for the two summaries (read at their
                                        own version), or NULL for the defaults; their
                                        `direction` is replaced by the `direction` above, and
                                        their `confidence` is also the level of the change's
                                        interval. Not retained after the call. */
    double equivalence_pct;     /**< Equivalence margin in percent (> 0), or 0 for none: a
                                     non-significant row whose 1 - 2 alpha interval of pct-imp
                                     lies inside (-margin, +margin) is equivalent. */
    double power;               /**< Power of the minimum detectable effect and of the runs
                                     needed, in (0, 1); default 0.8. */
    double mde_pct;             /**< Effect (percent, > 0) the runs needed are computed for;
                                     0: the equivalence margin. */
} tally_compare_options;

/** Version 1: the first released layout. A later version appends fields; a caller's older
 *  struct is then read as a prefix (the later fields take their defaults). */
#define TALLY_COMPARE_OPTIONS_VERSION 1
#define TALLY_COMPARE_OPTIONS_INIT                                                      \
    { TALLY_COMPARE_OPTIONS_VERSION, TALLY_TEST_AUTO, 0.05, TALLY_LOWER_IS_BETTER,       \
      TALLY_STAT_AMEAN, NULL, 0.0, 0.8, 0.0 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_COMPARE_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_COMPARE_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_COMPARE_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_compare_options_init(tally_compare_options *opts, unsigned int version);

/**
 * Result of comparing two sample sets. A growable result struct like ::tally_summary: set
 * `size` before a call fills it (`tally_comparison c = { .size = sizeof c };`). The two sides'
 * summaries are not part of it (an embedded struct could not grow): tally_compare_summaries()
 * gives them.
 */
typedef struct tally_comparison {
    size_t size;           /**< Set by the caller to sizeof (tally_comparison); on return, the
                                bytes the library filled. */
    size_t base_n;         /**< Number of baseline samples. */
    size_t new_n;          /**< Number of new samples. */
    double base_value;     /**< The chosen statistic of the baseline. */
    double new_value;      /**< The chosen statistic of the new samples. */
    double ratio;          /**< new_value / base_value; 0 when ratio_defined is 0. */
    double pct_imp;        /**< Percent improvement, positive = better; 0 when ratio_defined is
                                0. */
    tally_test test;       /**< The test that was run. */
    double statistic;      /**< t (base minus new) for the t-tests and the mmtests rule, U of the
                                baseline for Mann-Whitney; 0 when no test ran or zero_variance. */
    double df;             /**< Degrees of freedom for t-tests and the mmtests rule, else 0. */
    double p_value;        /**< Two-sided p-value when p_defined, else NaN. */
    int exact;             /**< 1 when p_value is exact (Mann-Whitney exact distribution). */
    int significant;       /**< 1 when the test rejects at alpha (p_value < alpha). */
    tally_verdict verdict; /**< The row's verdict (docs/statistics.md, "Verdicts"). */
    int ratio_defined;     /**< 0 when base_value is 0 (or new/base overflows): ratio and pct_imp
                                are then not numbers to show (tally_pct_imp() fails there). */
    int zero_variance;     /**< 1 when a t-test or the mmtests rule met two constant samples (or a
                                t beyond the double range): p is then 0 (the means differ: a
                                deterministic difference) or 1 (equal), and statistic is reported
                                as 0 because t = +-inf. */
    int p_defined;         /**< 1 when a test ran and produced p_value (also on insufficient
                                rows whose test could run: Mann-Whitney 2 against 3). */
    double min_p;          /**< The smallest p the test can reach with these sample sizes (0 for
                                the t and z tests once they can run, 2 / C(nb + nc, nb) for
                                Mann-Whitney); NaN when no test applies. */
    tally_direction direction; /**< Which way is better (from the options). */
    int test_shift;        /**< Sign of (new - base) of the shown statistic as the test sees it:
                                +1, -1, or 0 (no test, or no difference). */
    int direction_conflict; /**< 1 when the test was significant in the direction opposite to
                                 the shown change (possible when the test is not the
                                 statistic's own): the verdict is then inconclusive. */
    tally_interval_method interval; /**< How the interval below was computed: the inversion
                                         of the test that ran (Fieller or log-t with the
                                         test's own variances and df for Welch and Student,
                                         Hodges-Lehmann for Mann-Whitney, Price-Bonett), so
                                         that at level 1 - alpha it excludes a ratio of 1
                                         exactly when the test rejects; the statistic's own
                                         model on untested rows. */
    int interval_defined;  /**< 1 when ratio_low..pct_high hold the interval of the change. */
    double confidence;     /**< Level of that interval (the summary options' confidence; in a
                                report with a p-value adjustment, the row's adjusted level). */
    double ratio_low;      /**< Lower bound of the ratio's interval. */
    double ratio_high;     /**< Upper bound of the ratio's interval. */
    double pct_low;        /**< Lower bound of pct-imp's interval (positive = better). */
    double pct_high;       /**< Upper bound of pct-imp's interval. */
    double log_se;         /**< Standard error of log(ratio) of the statistic's own model
                                (delta method for ratios of means and of HMeans), behind the
                                MDE and the geometric mean of gains; 0 when it has none. */
    double log_df;         /**< Its degrees of freedom (INFINITY for the median's z). */
    double power;          /**< The power the MDE and runs needed refer to. */
    int mde_defined;       /**< 1 when mde_pct holds a value. */
    double mde_pct;        /**< Minimum detectable effect: the true change (percent of the
                                baseline) the test detects with `power` at alpha for the observed
                                spread and sample sizes. */
    double equivalence_pct; /**< The equivalence margin in percent, 0 when none was given. */
    int equivalence_defined; /**< 1 when equivalence_low/high hold the 1 - 2 alpha interval. */
    double equivalence_low;  /**< Lower bound of pct-imp's 1 - 2 alpha interval (TOST). */
    double equivalence_high; /**< Upper bound of it. */
    int equivalent;        /**< 1 when that interval lies inside (-margin, +margin). */
    double runs_target_pct; /**< The effect runs_needed refers to (the mde_pct option, else the
                                 margin); 0 when none was given. */
    size_t runs_needed;    /**< Runs per side that would detect runs_target_pct with `power`
                                at alpha, assuming the observed spread; 0 when not computed.
                                10000001 means more than 10000000. */
    int identical;         /**< 1 when both sides are constant (n >= 2 each) and equal: the
                                verdict is then ::TALLY_VERDICT_IDENTICAL. */
} tally_comparison;

/**
 * Compare a baseline with new samples: both summaries (tally_summarize()), the chosen statistic,
 * ratio, pct-imp, the chosen test and a verdict. The verdict is ::TALLY_VERDICT_INSUFFICIENT when
 * the sample sizes cannot reach alpha: t-tests and the mmtests rule need n >= 2 on both sides;
 * Mann-Whitney needs its smallest attainable p, 2 / C(nb + nc, nb), below alpha. Otherwise a
 * significant row is an improvement or a regression by the sign of pct_imp (by the test's own
 * direction when pct_imp is 0 or undefined).
 * @param out receives the comparison (its `size` set by the caller); untouched on failure.
 * @param base baseline samples, nb >= 1; not modified.
 * @param nb number of baseline samples.
 * @param current new samples, nc >= 1; not modified.
 * @param nc number of new samples.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_ENODATA (an empty side), ::TALLY_ENONFINITE, ::TALLY_EDOMAIN
 *   (statistic undefined, e.g. HMean of non-positive samples), ::TALLY_EINVAL, ::TALLY_ENOMEM,
 *   ::TALLY_ENUMERIC. Thread-safe.
 */
TALLY_API int tally_compare(tally_comparison *out, const double *base, size_t nb,
                            const double *current, size_t nc, const tally_compare_options *opts);

/**
 * The two summaries tally_compare() works from: each side summarised with `opts->summary`,
 * whose `direction` is replaced by `opts->direction`.
 * @param base_out receives the baseline's summary (its `size` set by the caller).
 * @param new_out receives the new samples' summary (its `size` set by the caller).
 * @param base baseline samples, nb >= 1; not modified.
 * @param nb number of baseline samples.
 * @param current new samples, nc >= 1; not modified.
 * @param nc number of new samples.
 * @param opts options, or NULL for the defaults.
 * @return as tally_compare(); both outputs untouched on failure. Thread-safe.
 */
TALLY_API int tally_compare_summaries(tally_summary *base_out, tally_summary *new_out,
                                      const double *base, size_t nb, const double *current,
                                      size_t nc, const tally_compare_options *opts);

/**
 * Percent improvement of new over base, positive when better.
 * lower-is-better: (1 - new/base) * 100; higher-is-better: (new/base - 1) * 100.
 * @param out receives the percentage.
 * @param base the baseline value.
 * @param current the new value.
 * @param direction which way is better.
 * @return ::TALLY_OK, ::TALLY_EDOMAIN when base is 0, ::TALLY_ENONFINITE (an argument or the
 *   quotient is not finite), ::TALLY_EINVAL (NULL out, unknown direction). Thread-safe.
 */
TALLY_API int tally_pct_imp(double *out, double base, double current, tally_direction direction);

/**
 * Welch's t-test (Welch 1947): t = (mean(a) - mean(b)) / sqrt(va/na + vb/nb), the fractional
 * Welch-Satterthwaite df and the two-sided p from Student's t distribution, as
 * `scipy.stats.ttest_ind(a, b, equal_var=False)` and R's `t.test(a, b)`.
 * When both samples are constant, t = +-inf or 0/0: tally then reports t = 0, df = na + nb - 2 and
 * p = 0 when the means differ, p = 1 when they are equal (SciPy returns NaN).
 * @param t receives t.
 * @param df receives the degrees of freedom.
 * @param p receives the two-sided p-value.
 * @param a first sample (the baseline in tally_compare()); not modified.
 * @param na its size, >= 2.
 * @param b second sample; not modified.
 * @param nb its size, >= 2.
 * @return ::TALLY_OK, ::TALLY_ENODATA (a side with n < 2), ::TALLY_ENONFINITE, ::TALLY_EINVAL
 *   (NULL pointer), ::TALLY_ENUMERIC (the t distribution failed). Thread-safe.
 */
TALLY_API int tally_welch_test(double *t, double *df, double *p, const double *a, size_t na,
                               const double *b, size_t nb);

/**
 * Student's pooled-variance t-test: df = na + nb - 2, as
 * `scipy.stats.ttest_ind(a, b, equal_var=True)` and R's `t.test(a, b, var.equal=TRUE)`.
 * Parameters, constant samples and return codes as tally_welch_test().
 */
TALLY_API int tally_student_test(double *t, double *df, double *p, const double *a, size_t na,
                                 const double *b, size_t nb);

/**
 * Mann-Whitney U test (Mann & Whitney 1947), two-sided, as
 * `scipy.stats.mannwhitneyu(a, b, alternative='two-sided', method='auto')` (SciPy 1.10).
 * @param u receives U of sample a (number of pairs with a > b, ties counting 1/2).
 * @param p receives the p-value: exact (the exact null distribution of U) when there are no ties
 *   and min(na, nb) <= 8 (and na * nb <= 2e6), else the normal approximation with tie and
 *   continuity correction.
 * @param exact receives 1 when p is exact; may be NULL.
 * @param a first sample; not modified.
 * @param na its size, >= 1.
 * @param b second sample; not modified.
 * @param nb its size, >= 1.
 * @return ::TALLY_OK, ::TALLY_ENODATA (an empty side), ::TALLY_ENONFINITE, ::TALLY_EINVAL,
 *   ::TALLY_ENOMEM. Thread-safe.
 */
TALLY_API int tally_mann_whitney(double *u, double *p, int *exact, const double *a, size_t na,
                                 const double *b, size_t nb);

/**
 * The Mann-Whitney U test of tally_mann_whitney() from what a distributed sort gives instead of
 * the samples: the sum of the mid-ranks of sample a in the pooled sample, and the tie term
 * sum(t^3 - t) over the groups of t equal values of the pooled sample (0 without ties). Same
 * U, p and exactness rule as tally_mann_whitney(), which computes these two figures and calls
 * this. Reports of partitioned samples use it (tally_report_new_from_partitions_ranked()).
 * @param u receives U of sample a: rank_sum_a - na (na + 1) / 2.
 * @param p receives the two-sided p-value.
 * @param exact receives 1 when p is exact; may be NULL.
 * @param rank_sum_a the mid-rank sum of a's samples, in [na (na + 1) / 2, na (na + 1) / 2 + na nb].
 * @param tie_term sum(t^3 - t) over the pooled sample's groups of equal values, >= 0.
 * @param na size of a, >= 1.
 * @param nb size of b, >= 1.
 * @return ::TALLY_OK, ::TALLY_ENODATA (an empty side), ::TALLY_EINVAL (a NULL pointer, a rank
 *   sum or tie term outside its range or not finite), ::TALLY_ENUMERIC. Thread-safe.
 */
TALLY_API int tally_mann_whitney_from_ranks(double *u, double *p, int *exact, double rank_sum_a,
                                            double tie_term, size_t na, size_t nb);

/**
 * mmtests' significance rule, from the summaries it keeps per row (mean, standard deviation, n):
 * t = (mean_a - mean_b) / sqrt(sd_a^2/na + sd_b^2/nb), df = na + nb - 2 and the two-sided p from
 * Student's t distribution (MMTests::Compare::_significanceTest). mmtests marks a row when
 * p < its significance level (0.10 by default). When the standard error is 0, mmtests calls the
 * row significant exactly when the means differ: t is then reported as 0 and p as 0 or 1.
 * @param t receives t (0 when the standard error is 0).
 * @param df receives na + nb - 2.
 * @param p receives the two-sided p-value.
 * @param mean_a mean of the first sample (AMean, or HMean for higher-is-better rows).
 * @param sd_a its standard deviation (sample SD, or the harmonic SD with HMean); 0 when na = 1.
 * @param na its size, >= 1.
 * @param mean_b mean of the second sample.
 * @param sd_b its standard deviation.
 * @param nb its size, >= 1.
 * @return ::TALLY_OK, ::TALLY_ENODATA (an empty side, or na + nb < 3 with a non-zero standard
 *   error), ::TALLY_ENONFINITE, ::TALLY_EINVAL (NULL pointer, negative SD), ::TALLY_ENUMERIC.
 *   Thread-safe.
 */
TALLY_API int tally_mmtests_test(double *t, double *df, double *p, double mean_a, double sd_a,
                                 size_t na, double mean_b, double sd_b, size_t nb);

/**
 * Adjust p-values for multiple comparisons, as R's `p.adjust(p, "holm")` (Holm 1979),
 * `p.adjust(p, "BH")` (Benjamini & Hochberg 1995) and `p.adjust(p, "bonferroni")`: monotone in p
 * and capped at 1.
 * @param out receives count adjusted p-values in the input order (may alias p).
 * @param p the raw p-values, each in [0, 1].
 * @param count number of p-values; 0 is accepted (nothing to do).
 * @param method the adjustment; ::TALLY_ADJUST_NONE copies.
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL pointer, unknown method, a p-value outside [0, 1] or
 *   NaN), ::TALLY_ENOMEM. Thread-safe.
 */
TALLY_API int tally_adjust_pvalues(double *out, const double *p, size_t count, tally_adjust method);

/**
 * Geometric mean of ratios, exp(mean(log r)) (rows present on both sides only: the caller passes
 * only paired rows).
 * @param out receives the geometric mean.
 * @param ratios the ratios, each > 0; not modified.
 * @param count number of ratios.
 * @return ::TALLY_OK, ::TALLY_ENODATA (count = 0), ::TALLY_EDOMAIN (a ratio <= 0),
 *   ::TALLY_ENONFINITE, ::TALLY_EINVAL. Thread-safe.
 */
TALLY_API int tally_geomean_ratio(double *out, const double *ratios, size_t count);

/**
 * P(T <= t) of the noncentral t distribution (Lenth 1989, Applied Statistics algorithm AS 243),
 * as R's `pt(t, df, ncp)`, to about 1e-12 absolute.
 * @param out receives the probability.
 * @param t the quantile (may be +-inf).
 * @param df degrees of freedom, > 0.
 * @param ncp the noncentrality, finite.
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL out), ::TALLY_ENUMERIC (invalid argument or no
 *   convergence). Thread-safe.
 */
TALLY_API int tally_noncentral_t_cdf(double *out, double t, double df, double ncp);

/**
 * Runs per group a two-sided two-sample t test needs, as R's
 * `ceiling(power.t.test(delta = effect, sd = sd, sig.level = alpha, power = power,
 * strict = TRUE)$n)`: the smallest n with power(n) >= power, where the test has df 2 (n - 1) and
 * noncentrality effect / (sd sqrt(2 / n)).
 * @param out receives n (10000001 when 10000000 runs are not enough).
 * @param effect the true difference, > 0.
 * @param sd the standard deviation of one run, > 0.
 * @param alpha significance level in (0, 1).
 * @param power the power wanted, in (0, 1).
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENUMERIC. Thread-safe.
 */
TALLY_API int tally_t_test_runs_needed(size_t *out, double effect, double sd, double alpha,
                                       double power);

/**
 * The O'Brien-Fleming-type alpha-spending function of Lan & DeMets (1983): the error a
 * sequential procedure may have spent by information fraction `t`,
 * A(t) = 2 - 2 Phi(z_{1-alpha/2} / sqrt(t)); A(0) = 0 and A(1) = alpha exactly
 * (docs/statistics.md, "Adaptive runs").
 * @param out receives A(t).
 * @param t information fraction in [0, 1] (the runs so far over the most runs).
 * @param alpha the overall level in (0, 1).
 * @return ::TALLY_OK or ::TALLY_EINVAL. Thread-safe.
 */
TALLY_API int tally_alpha_spending(double *out, double t, double alpha);

/**
 * The nominal level of each look of a sequential test: the increments
 * A(t_k) - A(t_{k-1}) of tally_alpha_spending() (A(t_0) = 0). They sum to alpha, so testing look
 * k at out[k] keeps the overall error at most alpha, whenever the procedure stops.
 * @param out receives `looks` levels.
 * @param t the looks' information fractions, increasing, the last exactly 1.
 * @param looks number of looks, >= 1.
 * @param alpha the overall level in (0, 1).
 * @return ::TALLY_OK or ::TALLY_EINVAL. Thread-safe.
 */
TALLY_API int tally_alpha_spending_levels(double *out, const double *t, size_t looks,
                                          double alpha);

/** @return "welch", "student", "mann-whitney", "mmtests-ci", "none", "auto" or "price-bonett";
 *  NULL if unknown. */
TALLY_API const char *tally_test_name(tally_test test);

/** Parse a test name (case-insensitive; `_` may stand for `-`).
 *  @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_test_from_name(tally_test *out, const char *name);

/** @return "none", "holm", "bh" or "bonferroni"; NULL if unknown. */
TALLY_API const char *tally_adjust_name(tally_adjust method);

/** Parse an adjustment name (case-insensitive; "fdr" and "benjamini-hochberg" mean "bh").
 *  @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_adjust_from_name(tally_adjust *out, const char *name);

/** @return "fieller", "fieller-reciprocal", "log-welch", "price-bonett", "hodges-lehmann" or
 *  "none"; NULL if unknown. */
TALLY_API const char *tally_interval_method_name(tally_interval_method method);

/** @return "inconclusive", "improvement", "regression", "insufficient", "equivalent",
 *  "not-tested", "identical" or "within-noise"; NULL if unknown. */
TALLY_API const char *tally_verdict_name(tally_verdict verdict);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_COMPARE_H */
