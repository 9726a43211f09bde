/**
 * @file tally/compare.h
 * @brief Comparison of a baseline sample set with a new one: ratio, pct-imp, significance tests,
 * multiple-comparison adjustment.
 *
 * Definitions and formulas are in docs/statistics.md. All functions are reentrant and thread-safe.
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
    TALLY_TEST_WELCH = 0,        /**< Welch's unequal-variance t-test (default). */
    TALLY_TEST_STUDENT = 1,      /**< Student's pooled-variance t-test. */
    TALLY_TEST_MANN_WHITNEY = 2, /**< Mann-Whitney U (Wilcoxon rank-sum), two-sided. */
    TALLY_TEST_MMTESTS_CI = 3,   /**< mmtests' rule on confidence intervals of the means. */
    TALLY_TEST_NONE = 4          /**< No test: never significant. */
} tally_test;

/** Verdict of one comparison row. */
typedef enum tally_verdict {
    TALLY_VERDICT_NO_CHANGE = 0,   /**< Not significant at alpha. */
    TALLY_VERDICT_IMPROVEMENT = 1, /**< Significant and better. */
    TALLY_VERDICT_REGRESSION = 2,  /**< Significant and worse. */
    TALLY_VERDICT_INSUFFICIENT = 3 /**< Too few samples for the test to reach alpha. */
} tally_verdict;

/** Multiple-comparison adjustment of p-values. */
typedef enum tally_adjust {
    TALLY_ADJUST_NONE = 0, /**< Raw p-values. */
    TALLY_ADJUST_HOLM = 1, /**< Holm's step-down (family-wise error rate). */
    TALLY_ADJUST_BH = 2    /**< Benjamini-Hochberg (false discovery rate). */
} tally_adjust;

/** Options for tally_compare(). Initialise with ::TALLY_COMPARE_OPTIONS_INIT. */
typedef struct tally_compare_options {
    unsigned int version;       /**< ::TALLY_COMPARE_OPTIONS_VERSION. */
    tally_test test;            /**< Test; default Welch. */
    double alpha;               /**< Significance level in (0, 1); default 0.05. */
    tally_direction direction;  /**< Which way is better; decides the sign of pct_imp. */
    tally_statistic statistic;  /**< Centre compared by ratio and pct_imp; default AMean. */
    tally_summary_options summary; /**< Options for the two summaries. */
} tally_compare_options;

#define TALLY_COMPARE_OPTIONS_VERSION 1
#define TALLY_COMPARE_OPTIONS_INIT                                                      \
    { TALLY_COMPARE_OPTIONS_VERSION, TALLY_TEST_WELCH, 0.05, TALLY_LOWER_IS_BETTER,      \
      TALLY_STAT_AMEAN, TALLY_SUMMARY_OPTIONS_INIT }

/** Result of comparing two sample sets. */
typedef struct tally_comparison {
    tally_summary base;    /**< Summary of the baseline. */
    tally_summary current; /**< Summary of the new samples. */
    double base_value;     /**< The chosen statistic of the baseline. */
    double new_value;      /**< The chosen statistic of the new samples. */
    double ratio;          /**< new_value / base_value (0 when base_value is 0). */
    double pct_imp;        /**< Percent improvement, positive = better. */
    tally_test test;       /**< The test that was run. */
    double statistic;      /**< t, or U of the baseline, or z; 0 for mmtests-ci. */
    double df;             /**< Degrees of freedom for t-tests, else 0. */
    double p_value;        /**< Two-sided p-value; 1 when no test could be run. */
    int exact;             /**< 1 when p_value is exact (Mann-Whitney exact distribution). */
    int significant;       /**< 1 when the test rejects at alpha. */
    tally_verdict verdict; /**< Improvement, regression, no change or insufficient data. */
} tally_comparison;

/**
 * Compare a baseline with new samples.
 * @param out receives the comparison.
 * @param base baseline samples, nb >= 1.
 * @param current new samples, nc >= 1.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_ENODATA (an empty side), ::TALLY_ENONFINITE, ::TALLY_EDOMAIN
 *   (statistic undefined, e.g. HMean of non-positive samples), ::TALLY_EINVAL, ::TALLY_ENOMEM,
 *   ::TALLY_ENUMERIC.
 */
TALLY_API int tally_compare(tally_comparison *out, const double *base, size_t nb,
                            const double *current, size_t nc, const tally_compare_options *opts);

/**
 * Percent improvement of new over base, positive when better.
 * lower-is-better: (1 - new/base) * 100; higher-is-better: (new/base - 1) * 100.
 * @return ::TALLY_OK, ::TALLY_EDOMAIN when base is 0, ::TALLY_ENONFINITE.
 */
TALLY_API int tally_pct_imp(double *out, double base, double current, tally_direction direction);

/**
 * Welch's t-test: t, Welch-Satterthwaite df and two-sided p.
 * @return ::TALLY_OK, ::TALLY_ENODATA (a side with n < 2), ::TALLY_ENONFINITE.
 */
TALLY_API int tally_welch_test(double *t, double *df, double *p, const double *a, size_t na,
                               const double *b, size_t nb);

/** Student's pooled t-test; see tally_welch_test(). */
TALLY_API int tally_student_test(double *t, double *df, double *p, const double *a, size_t na,
                                 const double *b, size_t nb);

/**
 * Mann-Whitney U test, two-sided.
 * @param u receives U of sample a (number of pairs with a > b, ties counting 1/2).
 * @param p receives the p-value: exact when there are no ties and na, nb are small, else the
 *   normal approximation with tie and continuity correction.
 * @param exact receives 1 when p is exact; may be NULL.
 */
TALLY_API int tally_mann_whitney(double *u, double *p, int *exact, const double *a, size_t na,
                                 const double *b, size_t nb);

/**
 * Adjust p-values for multiple comparisons.
 * @param out receives count adjusted p-values in the input order (may alias p).
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENOMEM.
 */
TALLY_API int tally_adjust_pvalues(double *out, const double *p, size_t count, tally_adjust method);

/**
 * Geometric mean of ratios (rows present on both sides only).
 * @return ::TALLY_OK, ::TALLY_ENODATA (count = 0), ::TALLY_EDOMAIN (a ratio <= 0).
 */
TALLY_API int tally_geomean_ratio(double *out, const double *ratios, size_t count);

/** @return "welch", "student", "mann-whitney", "mmtests-ci" or "none"; NULL if unknown. */
TALLY_API const char *tally_test_name(tally_test test);

/** Parse a test name. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_test_from_name(tally_test *out, const char *name);

/** @return "none", "holm" or "bh"; NULL if unknown. */
TALLY_API const char *tally_adjust_name(tally_adjust method);

/** Parse an adjustment name. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_adjust_from_name(tally_adjust *out, const char *name);

/** @return "no-change", "improvement", "regression" or "insufficient"; NULL if unknown. */
TALLY_API const char *tally_verdict_name(tally_verdict verdict);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_COMPARE_H */
