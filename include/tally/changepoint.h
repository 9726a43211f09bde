/**
 * @file tally/changepoint.h
 * @brief Change points of a series of measurements (one point per commit, each holding one
 * value or several runs): where the level shifted, by how much, how surely, and whether the
 * newest level drifts.
 *
 * Experimental: these declarations may change between releases; they are visible only when
 * `TALLY_EXPERIMENTAL_API` is defined before tally.h is included. The method, its defaults and
 * its references are in docs/history.md.
 *
 * Thread safety: no global state; independent results may be used from different threads.
 */
#ifndef TALLY_CHANGEPOINT_H
#define TALLY_CHANGEPOINT_H

#include "common.h"
#include "compare.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TALLY_EXPERIMENTAL_API

/** Options of tally_changepoints_detect(). Initialise with ::TALLY_CHANGEPOINT_OPTIONS_INIT. */
typedef struct tally_changepoint_options {
    unsigned int version;     /**< ::TALLY_CHANGEPOINT_OPTIONS_VERSION. */
    double alpha;             /**< Significance level of each change after the correction for the splits a segment offers (default 0.001). */
    size_t min_segment;       /**< Fewest points of a level, at least 2 (default 3): a shorter excursion is an outlier, never a change. */
    double min_change_pct;    /**< Smallest change reported, in percent of the level before (default 1). */
    size_t window;            /**< Points each side of a split that the candidate statistic looks at (default 30, at least min_segment). */
    double confidence;        /**< Level of the intervals (default 0.95). */
    tally_direction direction; /**< What is better, for pct-imp and the verdict (default lower). */
} tally_changepoint_options;

#define TALLY_CHANGEPOINT_OPTIONS_VERSION 1
#define TALLY_CHANGEPOINT_OPTIONS_INIT \
    { TALLY_CHANGEPOINT_OPTIONS_VERSION, 0.001, 3, 1.0, 30, 0.95, TALLY_LOWER_IS_BETTER }

/**
 * Fill `opts` with the defaults of options version `version`.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_changepoint_options_init(tally_changepoint_options *opts,
                                             unsigned int version);

/** One change point: the level shifted between point `index - 1` and point `index`. */
typedef struct tally_changepoint {
    size_t size;          /**< Set to sizeof (tally_changepoint) by the caller. */
    size_t index;         /**< The first point of the new level (0-based). */
    size_t before_first;  /**< The first point of the level before. */
    size_t after_end;     /**< One past the last point of the new level. */
    double before;        /**< Mean of the runs of the level before. */
    double before_low;    /**< Its confidence interval. */
    double before_high;   /**< Its confidence interval. */
    double after;         /**< Mean of the runs of the new level. */
    double after_low;     /**< Its confidence interval. */
    double after_high;    /**< Its confidence interval. */
    size_t before_runs;   /**< Runs behind `before` (outlier points left out). */
    size_t after_runs;    /**< Runs behind `after`. */
    double pct_imp;       /**< Change, positive = better (docs/statistics.md). */
    double pct_imp_low;   /**< Its interval (Fieller); NaN when unbounded. */
    double pct_imp_high;  /**< Its interval; NaN when unbounded. */
    double t;             /**< Welch's t of the two levels. */
    double df;            /**< Its degrees of freedom. */
    double p_raw;         /**< Two-sided p of that t. */
    double p_value;       /**< p_raw times the number of splits the merged segment offers (at most 1): what alpha is compared with. */
    tally_verdict verdict; /**< ::TALLY_VERDICT_REGRESSION or ::TALLY_VERDICT_IMPROVEMENT. */
} tally_changepoint;

/** The slow-drift check of the newest level (the points after the last change point). */
typedef struct tally_trend {
    size_t size;          /**< Set to sizeof (tally_trend) by the caller. */
    int tested;           /**< 1 when the level had enough points (8) to be tested; else the rest is 0. */
    size_t first;         /**< The first point tested. */
    size_t count;         /**< Points tested (the newest 1000 at most; outliers left out). */
    double slope_pct;     /**< Theil-Sen slope per point in percent of the level, positive = better. */
    double slope_pct_low; /**< Its interval (Gilbert 1987, from the Mann-Kendall variance). */
    double slope_pct_high; /**< Its interval. */
    double total_pct;     /**< slope_pct times the points spanned: the drift over the level. */
    double p_value;       /**< Two-sided Mann-Kendall p (ties corrected, continuity corrected). */
    int drifting;         /**< p_value < alpha and |total_pct| >= min_change_pct. */
    tally_verdict verdict; /**< With drifting: regression or improvement; else ::TALLY_VERDICT_INCONCLUSIVE. */
} tally_trend;

/** The change points of one series (opaque). */
typedef struct tally_changepoints tally_changepoints;

/**
 * Find the change points of a series of `points` points, point i holding the runs
 * `values[offsets[i] .. offsets[i + 1])` (offsets has points + 1 entries, offsets[0] = 0).
 *
 * Method (docs/history.md): single-point spikes are set aside as outliers (Hampel filter);
 * candidates are the local maxima of the E-divisive statistic (Matteson & James 2014) over
 * sliding windows of the point means; each candidate is tested by Welch's t between the runs of
 * its two neighbouring segments, with the larger of the runs' and the points' standard error,
 * its p multiplied by the number of splits the merged segment offers; the weakest candidate
 * that fails alpha, the minimum magnitude or the minimum segment is removed and its neighbours
 * retested until all pass (as Fleming et al., ICPE 2023). Deterministic; O(points x window).
 *
 * @param out receives the result, to free with tally_changepoints_free(); NULL on failure.
 * @return ::TALLY_OK; ::TALLY_EINVAL (NULL arguments, offsets not increasing or an empty point,
 *   bad options); ::TALLY_ENONFINITE (names the run); ::TALLY_ENOMEM.
 */
TALLY_API int tally_changepoints_detect(tally_changepoints **out, const double *values,
                                        const size_t *offsets, size_t points,
                                        const tally_changepoint_options *opts);

/** Free a result; NULL is accepted. */
TALLY_API void tally_changepoints_free(tally_changepoints *cp);

/** @return the number of change points, oldest first. */
TALLY_API size_t tally_changepoints_count(const tally_changepoints *cp);

/**
 * The i-th change point (oldest first) into `out` (its `size` set by the caller).
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL, bad size, i out of range).
 */
TALLY_API int tally_changepoints_at(tally_changepoint *out, const tally_changepoints *cp,
                                    size_t i);

/**
 * The slow-drift check of the newest level into `out` (its `size` set by the caller).
 * @return ::TALLY_OK, ::TALLY_EINVAL.
 */
TALLY_API int tally_changepoints_trend(tally_trend *out, const tally_changepoints *cp);

/** @return the number of points set aside as outliers (spikes). */
TALLY_API size_t tally_changepoints_outlier_count(const tally_changepoints *cp);

/** @return the index of the i-th outlier point (ascending), or (size_t)-1 out of range. */
TALLY_API size_t tally_changepoints_outlier_at(const tally_changepoints *cp, size_t i);

/** @return the mean of the runs of point i (the value plotted), NaN out of range. */
TALLY_API double tally_changepoints_point_mean(const tally_changepoints *cp, size_t i);

#endif /* TALLY_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif

#endif /* TALLY_CHANGEPOINT_H */
