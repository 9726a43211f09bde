/**
 * @file tally/diagnose.h
 * @brief Where runs cannot be trusted: checks of one configuration's samples in run order.
 *
 * A comparison assumes that the runs of each side are independent draws from one distribution.
 * These checks look for the usual ways that fails on a benchmark machine: a drift over the runs
 * (thermal throttling, a filling cache or disk), runs that depend on the previous one, a warm-up
 * the harness did not discard, a step change half-way (another job started), and two modes
 * (two CPU frequencies, two NUMA placements). Each check is a test with a stated false-alarm
 * rate: on independent, identically distributed runs it fires with probability at most `alpha`
 * (docs/statistics.md, "Diagnostics", gives each method, its reference and its measured rates).
 */
#ifndef TALLY_DIAGNOSE_H
#define TALLY_DIAGNOSE_H

#include <stddef.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The checks, as bit flags. */
typedef enum tally_diag_check {
    /** A monotone trend over run index: Mann-Kendall test (Mann 1945, Kendall 1975). */
    TALLY_DIAG_TREND = 1,
    /** Runs that depend on their predecessor: Bartels' rank von Neumann test (Bartels 1982),
     *  a rank form of the lag-1 autocorrelation. */
    TALLY_DIAG_AUTOCORR = 2,
    /** A warm-up not discarded: the first k runs (k <= 10, and at most a third of the runs)
     *  differ from the rest: the smallest exact Mann-Whitney p over k, Bonferroni-corrected. */
    TALLY_DIAG_WARMUP = 4,
    /** A step change within the runs: Pettitt's change-point test (Pettitt 1979). */
    TALLY_DIAG_STEP = 8,
    /** More than one mode: Hartigan's dip test (Hartigan & Hartigan 1985). */
    TALLY_DIAG_MULTIMODAL = 16,
    /** Every check above. */
    TALLY_DIAG_ALL = 31,
    /** Set by reports only (tally_report_cell_diagnostics()), never by tally_diagnose(): in
     *  `tested` when a compared cell and its baseline have ::TALLY_DIAGNOSE_MIN_RUNS runs and
     *  outliers by the MAD rule; in `flagged` when the comparison's verdict changes with those
     *  outliers left out of both sides. */
    TALLY_DIAG_OUTLIERS = 32
} tally_diag_check;

/** Options of tally_diagnose(). */
typedef struct tally_diagnose_options {
    unsigned int version; /**< ::TALLY_DIAGNOSE_OPTIONS_VERSION. */
    double alpha;         /**< False-alarm rate of each check, in (0, 0.5); default 0.01. */
    unsigned int checks;  /**< Bitwise OR of ::tally_diag_check to run; default ::TALLY_DIAG_ALL. */
} tally_diagnose_options;

/** Current version of ::tally_diagnose_options. */
#define TALLY_DIAGNOSE_OPTIONS_VERSION 1
/** Default options. */
#define TALLY_DIAGNOSE_OPTIONS_INIT { TALLY_DIAGNOSE_OPTIONS_VERSION, 0.01, 31 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_DIAGNOSE_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_DIAGNOSE_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_DIAGNOSE_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_diagnose_options_init(tally_diagnose_options *opts, unsigned int version);

/** Fewest runs a check needs; with fewer it is not run (its bit stays clear in `tested`). */
#define TALLY_DIAGNOSE_MIN_RUNS 10

/** Reports check cases of at most this many samples: more are per-request latencies or
 *  iterations, not runs of a benchmark, and their order says little about the machine. */
#define TALLY_DIAGNOSE_MAX_RUNS 100000

/**
 * Results of the checks of one sample set. Fields of a check whose bit is clear in `tested` are 0.
 *
 * A growable result struct like ::tally_summary: set `size` before a call fills it
 * (`tally_diagnostics d = { .size = sizeof d };`). The library writes only the first `size`
 * bytes and sets `size` to the number it filled; new fields are only ever appended.
 */
typedef struct tally_diagnostics {
    size_t size;            /**< Set by the caller to sizeof (tally_diagnostics); on return, the
                                 bytes the library filled. */
    size_t n;               /**< Number of runs. */
    unsigned int tested;    /**< Checks that ran (bitwise OR of ::tally_diag_check). */
    unsigned int flagged;   /**< Checks that fired: p < alpha. */
    double trend_p;         /**< Mann-Kendall two-sided p (normal approximation, tie-corrected). */
    double trend_tau;       /**< Kendall's tau-b of value against run index, in [-1, 1]. */
    double trend_slope;     /**< Sen's slope estimate per run, as a fraction of the median. */
    double autocorr_r1;     /**< Lag-1 autocorrelation of the ranks, 1 - RVN / 2. */
    double autocorr_p;      /**< Bartels' two-sided p (normal approximation). */
    size_t warmup_runs;     /**< k, the number of leading runs that differ most from the rest. */
    double warmup_p;        /**< Bonferroni-corrected p of the warm-up scan. */
    double warmup_shift;    /**< median(first k) / median(rest) - 1. */
    size_t step_at;         /**< Pettitt's change point: runs 1..step_at before, the rest after. */
    double step_p;          /**< Pettitt's approximate p, 2 exp(-6 K^2 / (n^3 + n^2)), capped at 1. */
    double step_shift;      /**< median(after) / median(before) - 1. */
    double dip;             /**< Hartigan's dip statistic, in [1/(2n), 1/4]. */
    double dip_p;           /**< P(dip >= observed) for uniform samples of this size (table). */
    int verdict_without_outliers; /**< With ::TALLY_DIAG_OUTLIERS: the ::tally_verdict of the
                                       comparison without the outliers. */
    size_t outliers_left_out;     /**< With ::TALLY_DIAG_OUTLIERS: outliers left out, both sides. */
} tally_diagnostics;

/**
 * Run the checks on n samples in run order. Each check needs ::TALLY_DIAGNOSE_MIN_RUNS runs;
 * with fewer, nothing is tested and the call still succeeds. O(n log n) time, O(n) memory.
 * @param out receives the results (its `size` set by the caller); zeroed first, up to its
 *   size.
 * @param x samples in run order; not modified.
 * @param n number of samples.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_ENONFINITE (a NaN or infinite sample), ::TALLY_ENODATA (n = 0),
 *   ::TALLY_EINVAL (NULL pointer, `size` not set, alpha outside (0, 0.5), unknown check bits,
 *   bad options version), ::TALLY_ENOMEM. Reentrant; thread-safe.
 */
TALLY_API int tally_diagnose(tally_diagnostics *out, const double *x, size_t n,
                             const tally_diagnose_options *opts);

/**
 * Name of one check as used in reports and JSON ("trend", "autocorrelation", "warm-up",
 * "step", "multimodal", "outliers").
 * @return a static string, or NULL for anything but a single known flag.
 */
TALLY_API const char *tally_diag_check_name(tally_diag_check check);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_DIAGNOSE_H */
