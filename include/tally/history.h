/**
 * @file tally/history.h
 * @brief Performance over commits: every result set is one point of a history (in the order
 * given, by a metadata key, or in a repository's commit order), every (benchmark, case) a series,
 * and each series' change points (tally/changepoint.h), rendered as text, JSON, CSV, Markdown or
 * HTML with trend plots.
 *
 * Experimental: these declarations may change between releases; they are visible only when
 * `TALLY_EXPERIMENTAL_API` is defined before tally.h is included. docs/history.md describes the
 * command, the method and the outputs.
 *
 * Ownership: a history copies what it shows (no pointer into the results). Strings returned are
 * borrowed from the history. Thread safety: a history is read-only after tally_history_new();
 * independent histories may be used from different threads.
 */
#ifndef TALLY_HISTORY_H
#define TALLY_HISTORY_H

#include "changepoint.h"
#include "common.h"
#include "report.h"
#include "resultset.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TALLY_EXPERIMENTAL_API

/** A history of result sets with the change points of each series (opaque). */
typedef struct tally_history tally_history;

/** Options of tally_history_new(). Initialise with ::TALLY_HISTORY_OPTIONS_INIT. */
typedef struct tally_history_options {
    unsigned int version;      /**< ::TALLY_HISTORY_OPTIONS_VERSION. */
    const char *order_by;      /**< Metadata key ordering the points (numbers by value when every point's is one, else as text, ties in the given order); NULL: the order of the results. Every point needs the key. */
    const char *const *commit_order; /**< Commits oldest first (`git rev-list --reverse`); each point's commit (metadata `commit`, else its label) must be one of them or an abbreviation (at least 4 hex digits) of exactly one; NULL: not used. Wins over order_by. */
    size_t commit_order_count; /**< Entries of commit_order. */
    const char *filter;        /**< Glob over `BENCHMARK/CASE` (fnmatch); NULL: every series. */
    size_t recent;             /**< The newest N points the gate and the Markdown look at ("regressions since" their first); 0: all. */
    double alpha;              /**< As ::tally_changepoint_options (default 0.001). */
    size_t min_segment;        /**< As ::tally_changepoint_options (default 3). */
    double min_change_pct;     /**< As ::tally_changepoint_options (default 1). */
    size_t window;             /**< As ::tally_changepoint_options (default 30). */
    double confidence;         /**< As ::tally_changepoint_options (default 0.95). */
} tally_history_options;

#define TALLY_HISTORY_OPTIONS_VERSION 1
#define TALLY_HISTORY_OPTIONS_INIT \
    { TALLY_HISTORY_OPTIONS_VERSION, NULL, NULL, 0, NULL, 0, 0.001, 3, 1.0, 30, 0.95 }

/**
 * Fill `opts` with the defaults of options version `version`.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_history_options_init(tally_history_options *opts, unsigned int version);

/**
 * Build the history of `r`: one point per result set, one series per (benchmark, case) found in
 * any of them (a point without the case is left out of that series), and the change points of
 * every series.
 * @param out receives the history, to free with tally_history_free(); NULL on failure.
 * @return ::TALLY_OK; ::TALLY_ENODATA (no result set, or no series after the filter);
 *   ::TALLY_EINVAL (a point without the order_by key, a commit not in commit_order or ambiguous,
 *   two points of one commit, bad options: the message names the point); ::TALLY_EMISMATCH (a
 *   benchmark whose unit or direction differs between points); ::TALLY_ENOMEM.
 */
TALLY_API int tally_history_new(tally_history **out, const tally_results *r,
                                const tally_history_options *opts);

/** Free a history; NULL is accepted. */
TALLY_API void tally_history_free(tally_history *h);

/** @return the number of points (result sets), oldest first. */
TALLY_API size_t tally_history_point_count(const tally_history *h);

/** @return the label of point i (borrowed), NULL out of range. */
TALLY_API const char *tally_history_point_label(const tally_history *h, size_t i);

/** @return the commit of point i: its `commit` metadata, else its label (borrowed); NULL out of range. */
TALLY_API const char *tally_history_point_commit(const tally_history *h, size_t i);

/** One series of a history. */
typedef struct tally_history_series {
    size_t size;            /**< Set to sizeof (tally_history_series) by the caller. */
    const char *benchmark;  /**< Borrowed from the history. */
    const char *case_name;  /**< Borrowed from the history. */
    const char *unit;       /**< Borrowed; "" when none. */
    tally_direction direction; /**< Of the benchmark. */
    size_t point_count;     /**< Points holding the case. */
    size_t change_count;    /**< Its change points. */
    size_t outlier_count;   /**< Its points set aside as spikes. */
    int drifting;           /**< The newest level drifts (tally_history_series_trend()). */
} tally_history_series;

/** @return the number of series. */
TALLY_API size_t tally_history_series_count(const tally_history *h);

/** Series i into `out`. @return ::TALLY_OK, ::TALLY_EINVAL. */
TALLY_API int tally_history_series_at(tally_history_series *out, const tally_history *h,
                                      size_t i);

/**
 * The k-th change point (oldest first) of series i; its `index`, `before_first` and `after_end`
 * are point indexes of the history.
 * @return ::TALLY_OK, ::TALLY_EINVAL.
 */
TALLY_API int tally_history_series_change_at(tally_changepoint *out, const tally_history *h,
                                             size_t series, size_t k);

/** The drift check of series i's newest level (`first`: a point index of the history).
 * @return ::TALLY_OK, ::TALLY_EINVAL. */
TALLY_API int tally_history_series_trend(tally_trend *out, const tally_history *h,
                                         size_t series);

/** @return the number of change points of all series. */
TALLY_API size_t tally_history_change_count(const tally_history *h);

/**
 * The i-th change point of all series, newest first (then by series): which series and which
 * of its change points.
 * @return ::TALLY_OK, ::TALLY_EINVAL.
 */
TALLY_API int tally_history_change_at(size_t *series, size_t *k, const tally_history *h,
                                      size_t i);

/**
 * The CI gate: regressions larger than `pct` (|pct-imp| > pct) that start within the newest
 * `recent` points (0: the history's own `recent`, else all).
 * @param count receives their number.
 * @param worst_pct receives the largest of them as pct-imp (negative), 0 when none; may be NULL.
 * @return ::TALLY_OK, ::TALLY_EINVAL.
 */
TALLY_API int tally_history_gate(size_t *count, double *worst_pct, const tally_history *h,
                                 double pct, size_t recent);

/**
 * Render the history: `opts->format` text (one line per change point, newest first, then the
 * series that changed), JSON, CSV, Markdown (a CI comment) or HTML (trend plots; `fragment`
 * honoured); other fields of ::tally_render_options are ignored. docs/history.md shows each.
 * @param out receives a NUL-terminated buffer to release with tally_free().
 * @return ::TALLY_OK, ::TALLY_EINVAL (XLSX or an unknown format), ::TALLY_ENOMEM.
 */
TALLY_API int tally_history_render(char **out, size_t *len, const tally_history *h,
                                   const tally_render_options *opts);

/** tally_history_render() into a file, atomically. @return as it, ::TALLY_EIO. */
TALLY_API int tally_history_write(const tally_history *h, const char *path,
                                  const tally_render_options *opts);

#endif /* TALLY_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif

#endif /* TALLY_HISTORY_H */
