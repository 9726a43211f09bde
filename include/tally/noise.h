/**
 * @file tally/noise.h
 * @brief A/A calibration: how much two measurements of the same build differ on this machine,
 * per benchmark, kept in a small versioned file (a noise profile) that later comparisons use as
 * their equivalence margins and CI gate thresholds.
 *
 * A comparison's interval accounts for the spread within one series of runs. Between two
 * sessions of the same build (another boot, another placement in memory, another temperature)
 * the difference is often larger: an A/A comparison measures it. tally_calibrate() compares two
 * result sets of one build (or the interleaved halves of one set's runs), counts the rows that
 * came out significant (the false-positive rate actually observed) and, per benchmark, takes the
 * spread of the A/A change and the widest A/A interval end as the noise floor ("margin"):
 * a change inside it is what identical builds showed. The file format and the definitions are
 * in docs/statistics.md, "Noise profiles".
 *
 * Thread safety: a profile may be read from several threads at once; tally_calibrate(),
 * tally_noise_load() and tally_noise_save() are reentrant.
 */
#ifndef TALLY_NOISE_H
#define TALLY_NOISE_H

/* Experimental API (docs/releasing.md, "API tiers"): noise profiles may change in any release,
 * without a SONAME bump. Define TALLY_EXPERIMENTAL_API before including tally.h to use it. */
#ifndef TALLY_EXPERIMENTAL_API
#error "tally/noise.h is experimental API: define TALLY_EXPERIMENTAL_API to use it"
#endif

#include <stddef.h>

#include "common.h"
#include "resultset.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The version of the noise profile file format that tally_noise_save() writes. */
#define TALLY_NOISE_FORMAT_VERSION 1

/**
 * The A/A figures of one benchmark (tally_noise_benchmark_at()). A growable result struct like
 * ::tally_summary: set `size` before a call fills it
 * (`tally_noise_benchmark b = { .size = sizeof b };`).
 */
typedef struct tally_noise_benchmark {
    size_t size;            /**< Set by the caller to sizeof (tally_noise_benchmark); on return,
                                 the bytes the library filled. */
    const char *name;       /**< The benchmark (borrowed from the profile). */
    size_t rows;            /**< A/A comparisons (cases) measured. */
    size_t significant;     /**< Of those, significant at the calibration's alpha. */
    double false_positive_rate; /**< significant / rows: every significant A/A row is a false alarm. */
    double alpha;           /**< The calibration's significance level. */
    double pct_rms;         /**< Root mean square of the A/A pct-imp over the rows, in percent: the
                                 spread of the ratio between identical builds. */
    double margin_pct;      /**< The noise floor in percent: the largest |end| of the A/A
                                 intervals of pct-imp over the rows (|pct-imp| where a row has no
                                 interval); used as the equivalence margin and gate threshold. */
    size_t min_runs;        /**< The fewest runs per side in any of the rows. */
} tally_noise_benchmark;

/**
 * Calibrate: compare two result sets of the same build (A/A), or with one result set the runs
 * of every case split into interleaved halves (runs 1, 3, 5, ... against 2, 4, 6, ...), with the
 * report options given, and collect per benchmark the figures of ::tally_noise_benchmark.
 * @param out receives the profile; free it with tally_noise_free().
 * @param results one or two result sets (the first is the baseline of the A/A comparison).
 * @param opts report options (test, alpha, confidence, statistic, filter), or NULL for the
 *   defaults; `equivalence_pct` and `noise` are ignored.
 * @return ::TALLY_OK; ::TALLY_EINVAL (NULL argument, more than two result sets);
 *   ::TALLY_ENODATA (no case paired on both sides, or a split set with fewer than 4 runs in
 *   every case); the errors of tally_report_new(); ::TALLY_ENOMEM.
 */
TALLY_API int tally_calibrate(tally_noise **out, const tally_results *results,
                              const tally_report_options *opts);

/** Free a profile; NULL is accepted. */
TALLY_API void tally_noise_free(tally_noise *noise);

/** Number of benchmarks in the profile (0 for NULL). */
TALLY_API size_t tally_noise_benchmark_count(const tally_noise *noise);

/**
 * The figures of benchmark i.
 * @param out filled up to its `size` (set by the caller); its `name` is borrowed from the
 *   profile.
 * @return ::TALLY_OK, or ::TALLY_EINVAL (NULL argument, `size` not set, i out of range).
 */
TALLY_API int tally_noise_benchmark_at(tally_noise_benchmark *out, const tally_noise *noise,
                                        size_t i);

/**
 * The noise floor of a benchmark by name.
 * @param out_pct receives margin_pct.
 * @return ::TALLY_OK, ::TALLY_ENOTFOUND (the profile has no such benchmark), ::TALLY_EINVAL.
 */
TALLY_API int tally_noise_margin(double *out_pct, const tally_noise *noise,
                                 const char *benchmark);

/**
 * Write the profile as JSON (format ::TALLY_NOISE_FORMAT_VERSION, docs/statistics.md "Noise
 * profiles") to `path`, atomically (a failed write leaves no file and keeps an old one).
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_EIO (naming the path), ::TALLY_ENOMEM.
 */
TALLY_API int tally_noise_save(const tally_noise *noise, const char *path);

/**
 * Read a profile written by tally_noise_save() (or by hand, following the documented format).
 * @param out receives the profile; free it with tally_noise_free().
 * @return ::TALLY_OK; ::TALLY_EPARSE (malformed JSON: path:line:col; a missing or wrong member:
 *   path and JSON path; a benchmark twice; a margin not a finite number in [0, 100));
 *   ::TALLY_EFORMAT (not a noise profile, or a format version this library does not read);
 *   ::TALLY_EIO (no such file, unreadable), ::TALLY_ENOMEM.
 */
TALLY_API int tally_noise_load(tally_noise **out, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_NOISE_H */
