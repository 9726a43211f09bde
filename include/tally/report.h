/**
 * @file tally/report.h
 * @brief Comparison reports: rows aligned by (benchmark, case) across result sets, each with its
 * summaries and its comparison with the baseline, rendered as text, JSON, CSV, Markdown, XLSX or
 * HTML with plots.
 *
 * A report is computed once by tally_report_new() and can then be rendered any number of times.
 * A report is immutable after creation and may be rendered from several threads at once.
 */
#ifndef TALLY_REPORT_H
#define TALLY_REPORT_H

#include "accum.h"
#include "common.h"
#include "compare.h"
#include "diagnose.h"
#include "resultset.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tally_report tally_report; /**< A computed comparison report. */

/** Output format. */
typedef enum tally_format {
    TALLY_FORMAT_TEXT = 0,     /**< Plain-text table in one of the ::tally_style layouts. */
    TALLY_FORMAT_JSON = 1,     /**< Versioned JSON (docs/report-json.md). */
    TALLY_FORMAT_CSV = 2,      /**< One row per benchmark/case/configuration. */
    TALLY_FORMAT_MARKDOWN = 3, /**< GitHub-flavoured Markdown table. */
    TALLY_FORMAT_XLSX = 4,     /**< Spreadsheet (files only). */
    TALLY_FORMAT_HTML = 5      /**< One self-contained HTML file with SVG plots (docs/reports.md). */
} tally_format;

/** Layout of text reports. */
typedef enum tally_style {
    TALLY_STYLE_TABLE = 0,      /**< tally's own: value ± CI, delta, p-value, verdict, footnotes. */
    TALLY_STYLE_MMTESTS = 1,    /**< compare-mmtests layout: `Amean     1   0.3800 (   0.00%)`. */
    TALLY_STYLE_NORMALIZED = 2, /**< AMD layout: `1.00 [ -0.00]( 1.94)` under a Test/Units block. */
    TALLY_STYLE_PCT = 3         /**< `450.40 (0.00 pct)` cells side by side. */
} tally_style;

typedef struct tally_noise tally_noise; /**< A noise profile (tally/noise.h). */

/** How the cases of a compared configuration find their baseline rows. */
typedef enum tally_pair_by {
    TALLY_PAIR_BY_NAME = 0,    /**< By benchmark and case name (after the `case_map` rules). */
    TALLY_PAIR_BY_POSITION = 1 /**< The i-th case of a benchmark pairs with the baseline's i-th
                                    case of the benchmark of the same name, whatever their
                                    names; a case beyond the baseline's count is new. */
} tally_pair_by;

/** The name of a pairing mode ("name", "position"), or NULL. Thread-safe. */
TALLY_API const char *tally_pair_by_name(tally_pair_by value);
/** The pairing mode of a name (ASCII case, `-` and `_` alike). @return ::TALLY_OK or
 *  ::TALLY_EINVAL ("unknown pairing 'X' (name, position)"). Thread-safe. */
TALLY_API int tally_pair_by_from_name(tally_pair_by *out, const char *name);

/** Options for tally_report_new(). Initialise with ::TALLY_REPORT_OPTIONS_INIT. */
typedef struct tally_report_options {
    unsigned int version;         /**< ::TALLY_REPORT_OPTIONS_VERSION. */
    tally_statistic statistic;    /**< ::TALLY_STAT_DEFAULT: each benchmark's preferred one, else
                                       AMean when lower is better and HMean when higher is better. */
    tally_test test;              /**< Significance test; default ::TALLY_TEST_AUTO (the test of
                                       each row's statistic). */
    double alpha;                 /**< Significance level; default 0.05. */
    tally_adjust adjust;          /**< Multiple-comparison adjustment across the report's rows. */
    tally_percentile_method percentile_method; /**< Percentile method. */
    double confidence;            /**< Level of confidence intervals; default 0.95. */
    const char *filter;           /**< Keep rows whose "benchmark/case" matches this shell glob; NULL: all. */
    int summaries_only;           /**< 1: no comparisons; every configuration is summarised on its
                                       own (`tally summary`): no cell has `compared` set. */
    int omit_samples;             /**< 1: the report keeps no copy of the raw samples (the
                                       formats whose tally_format_info says `needs_samples` show
                                       them: JSON then writes `"samples": null`, XLSX has no
                                       samples sheet, HTML no distribution or run-order plots;
                                       text histograms need them too), which saves a copy of
                                       every sample. */
    double equivalence_pct;       /**< Equivalence margin in percent (0: none); see
                                       tally_compare_options. */
    double power;                 /**< Power of the MDE and runs needed; default 0.8. */
    double mde_pct;               /**< Effect the runs needed refer to (0: the margin). */
    const char *expect_diff;      /**< Comma-separated metadata keys (shell globs, e.g.
                                       "kernel,param.*") expected to differ between the
                                       configurations: not listed by
                                       tally_report_env_diff_key(); NULL: none. Copied. */
    const tally_noise *noise;     /**< A noise profile (tally_calibrate(), tally_noise_load()), or
                                       NULL: each row whose benchmark it lists takes the
                                       profile's margin_pct as its equivalence margin (unless
                                       `equivalence_pct` is set) and as the least loss
                                       tally_report_gate() counts. Borrowed during
                                       tally_report_new() only (the margins are copied). */
    const char *case_map;         /**< Rules that pair a compared configuration's case with a
                                       baseline case of another name, one per line, the first
                                       that matches applying: `FROM=TO` (the case named FROM,
                                       up to the first '=', pairs with the baseline's TO) or
                                       `s/REGEX/REPL/` (a POSIX extended regular expression,
                                       any punctuation delimiter; REPL replaces the first
                                       match, `\\1`..`\\9` its groups, `&` all of it). They
                                       rename the cases of every configuration but the
                                       baseline; the rows keep the baseline's names. NULL:
                                       none. Copied. */
    tally_pair_by pair_by;        /**< How cases pair across configurations; default
                                       ::TALLY_PAIR_BY_NAME. */
    const char *baseline;         /**< The label of the result set to compare the others with
                                       (as hyperfine's reference command); the report's
                                       configurations are then it and the others in their
                                       order. NULL: the first result set. A label no result set
                                       has is ::TALLY_ENOTFOUND. Borrowed for the call. */
    double percentile;            /**< p of ::TALLY_STAT_PERCENTILE rows, in (0, 100) (the
                                       statistic "p99" is ::TALLY_STAT_PERCENTILE with 99 here:
                                       tally_statistic_parse()); 0 (the default) otherwise. */
    tally_statistic per_run;      /**< Cases of histogram runs (tally_case_histogram_append()):
                                       ::TALLY_STAT_DEFAULT (the default) pools the requests of
                                       every run (the pooled level: the row's statistic of all
                                       requests, its interval and test by a cluster bootstrap
                                       over runs); any other statistic reduces each run to that
                                       statistic of its requests (the per-run level: one value per
                                       run, which every statistic, test and interval then takes
                                       as samples). docs/statistics.md, "Histogram runs". */
    double per_run_percentile;    /**< p of per_run = ::TALLY_STAT_PERCENTILE, in (0, 100); else 0. */
    int independent_requests;     /**< 1: the pooled level takes requests as independent draws
                                       (order-statistic and request-level intervals and tests,
                                       as for plain samples) instead of bootstrapping runs; the
                                       reports say so. 0 (the default): a side with fewer than 5
                                       runs gets no interval and an insufficient verdict. */
    size_t resamples;             /**< Resamples of the cluster bootstrap, at least 100; default
                                       2000. */
    uint64_t seed;                /**< Seed of the cluster bootstrap (SplitMix64); default 1: the
                                       same data give the same intervals. */
} tally_report_options;

/** Version 1: the first released layout. A later version appends fields; a caller's older
 *  struct is then read as a prefix (the later fields take their defaults). */
#define TALLY_REPORT_OPTIONS_VERSION 1
#define TALLY_REPORT_OPTIONS_INIT                                                          \
    { TALLY_REPORT_OPTIONS_VERSION, TALLY_STAT_DEFAULT, TALLY_TEST_AUTO, 0.05,              \
      TALLY_ADJUST_NONE, TALLY_PERCENTILE_LINEAR, 0.95, NULL, 0, 0, 0.0, 0.8, 0.0, NULL, NULL, \
      NULL, TALLY_PAIR_BY_NAME, NULL, 0.0, TALLY_STAT_DEFAULT, 0.0, 0, 2000, 1 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_REPORT_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_REPORT_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_REPORT_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_report_options_init(tally_report_options *opts, unsigned int version);

/** Options for rendering. Initialise with ::TALLY_RENDER_OPTIONS_INIT. */
typedef struct tally_render_options {
    unsigned int version; /**< ::TALLY_RENDER_OPTIONS_VERSION. */
    tally_format format;  /**< Output format. */
    tally_style style;    /**< Layout of text output. */
    int color;            /**< 1: ANSI colours in text output (the caller decides: terminal, NO_COLOR). */
    int precision;        /**< Decimals of values in text styles (0 to 17); -1: the style's
                               default (see ::TALLY_RENDER_OPTIONS_VERSION). */
    int histogram;        /**< 1: text output ends with a compact distribution of every case
                               (one line per configuration). Needs the raw samples (not
                               `omit_samples`). */
    int ascii;            /**< 1: draw text histograms with ASCII characters instead of Unicode
                               block elements. */
    int width;            /**< Columns available to text histograms; 0: 80. */
    int fragment;         /**< HTML: 1 writes an embeddable `<div>` (with its scoped stylesheet)
                               instead of a whole document, e.g. for notebooks. */
    int diagnose;         /**< 1: the seed layouts (mmtests, normalized, pct) end with the
                               diagnostics notes too; the table style and Markdown always show
                               them, JSON, CSV, XLSX and HTML always carry them. */
    int only_changed;     /**< Markdown: 1 keeps only the rows with a significant change (or a
                               missing cell) in each benchmark's table and folds the others into
                               a `<details>` block below it. */
    long max_length;      /**< Markdown: the most bytes the document may take (so also the most
                               characters); 0: 65,536, GitHub's limit for a comment; negative: no
                               limit. A longer report leaves rows and notes out, least important
                               first, and says so at the top. */
    int only_statistic;   /**< 1: the mmtests style prints only the rows of the statistic each
                               benchmark compares (the `Amean` block of the posts), not Min,
                               Stddev, CoeffVar, Max and BAmean. */
    const char *case_label; /**< The first-column label of the normalized and pct styles
                                 (`Clients`, `Test`, `#workers`) for every benchmark; NULL: the
                                 baseline's metadata `report.<benchmark>.case_label`, else
                                 `report.case_label`, else "Case"; "": a blank label (no
                                 colon either). A benchmark's own metadata label wins over
                                 this. Borrowed for the call. */
    const char *units_text; /**< The text after "Units : Normalized " of the normalized style
                                 (`time in seconds`) for every benchmark; NULL: the baseline's
                                 metadata `report.<benchmark>.units_text`, else the unit. A
                                 benchmark's own metadata text wins over this. Borrowed for the
                                 call. */
    const char *case_strip; /**< Text removed from the end of every case name where the text
                                 styles show it, else from its start (`-workers`: `1-workers`
                                 shows as `1`); NULL or "": names as they are. Borrowed for the
                                 call. */
    int print_ratio;      /**< 1: the mmtests style follows the compared statistic's rows of
                               each benchmark with `Ratio` rows (each value / the baseline's)
                               and a `Gmean` row (the geometric mean of a configuration's ratios
                               over the cases present in both), as compare-mmtests
                               --print-ratio. */
    int system;           /**< 1: text and Markdown output start with a system-details block:
                               kernel, CPU model and count, SMT, memory, governor, boost and THP
                               of each configuration, from the recorded metadata (keys none
                               recorded are left out). */
    int fit_width;        /**< Columns the text styles must fit (e.g. the terminal's); 0: no
                               limit. A wider comparison table is laid out one block per
                               compared configuration instead, then one block per row; a wider
                               summary table in blocks of its columns; a wider mmtests,
                               normalized or pct block per group of configurations (the
                               baseline and as many as fit, else one each); the table style's
                               titles and footer are broken at spaces, so no line wraps. A
                               block that fits is the same as without a limit. */
} tally_render_options;

/** Version 1: the first released layout (later versions append fields, read as a prefix).
 *  `precision` (-1: each style's default) fixes the decimals of every value in the text styles;
 *  without it the seed layouts keep their posted `%.4f` / `%.2f` unless a group's values would
 *  show fewer than 3 significant digits, and the table style shows each row with the digits
 *  its confidence interval justifies, in the SI-prefixed unit of its benchmark. */
#define TALLY_RENDER_OPTIONS_VERSION 1
#define TALLY_RENDER_OPTIONS_INIT                                                              \
    { TALLY_RENDER_OPTIONS_VERSION, TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE, 0, -1, 0, 0, 0, 0, 0, \
      0, 0, 0, NULL, NULL, NULL, 0, 0, 0 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_RENDER_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_RENDER_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_RENDER_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_render_options_init(tally_render_options *opts, unsigned int version);

/**
 * One row of a report: a (benchmark, case) pair. Strings are borrowed from the report. A
 * growable result struct like ::tally_summary: set `size` before tally_report_row_at() fills it
 * (`tally_report_row row = { .size = sizeof row };`).
 */
typedef struct tally_report_row {
    size_t size;               /**< Set by the caller to sizeof (tally_report_row); on return,
                                    the bytes the library filled. */
    const char *benchmark;     /**< Benchmark name. */
    const char *case_name;     /**< Case name. */
    const char *unit;          /**< Unit ("" when none). */
    tally_direction direction; /**< Which way is better. */
    tally_statistic statistic; /**< The statistic compared in this row (never DEFAULT). */
    double percentile;         /**< Its p for ::TALLY_STAT_PERCENTILE rows, else 0. */
} tally_report_row;

/**
 * One cell: a configuration's data in a row. A growable result struct like ::tally_summary: set
 * `size` before tally_report_cell_at() fills it (`tally_report_cell c = { .size = sizeof c };`).
 * The cell's summary and comparison come from tally_report_cell_summary() and
 * tally_report_cell_comparison().
 */
typedef struct tally_report_cell {
    size_t size;                 /**< Set by the caller to sizeof (tally_report_cell); on return,
                                      the bytes the library filled. */
    int present;                 /**< 0 when this configuration has no such case. */
    double value;                /**< The row's statistic (when present). */
    int compared;                /**< 1 when tally_report_cell_comparison() has a comparison
                                      with the baseline for this cell. */
    double p_adjusted;           /**< p-value after the report's adjustment. */
} tally_report_cell;

/**
 * Compute a report from result sets; the first result set is the baseline. With one result set
 * the report holds summaries only.
 *
 * Rows follow the baseline's order; a case the baseline lacks joins the rows of its benchmark,
 * a benchmark it lacks comes last. A configuration without a row's case has a cell with
 * `present` = 0 that every renderer reports as missing. p-values are adjusted across every
 * tested comparison of the report; an adjusted p-value at or above alpha withdraws the
 * significance. The text layouts read two optional metadata entries of the baseline:
 * `report.<benchmark>.case_label` (else `report.case_label`, else "Case"), the first-column label
 * of the normalized and pct styles. See docs/reports.md. Thread-safe for independent results.
 * @param out receives the report; free it with tally_report_free().
 * @param results result sets; the report copies what it needs, so `results` may be freed after.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_ENODATA (no result sets or no rows after filtering), ::TALLY_EINVAL,
 *   ::TALLY_EDOMAIN (statistic undefined for a case, e.g. HMean of values <= 0: the message names
 *   the case), ::TALLY_EMISMATCH (same benchmark with different units or directions), ::TALLY_ENOMEM.
 */
TALLY_API int tally_report_new(tally_report **out, const tally_results *results,
                               const tally_report_options *opts);

/* Experimental API (docs/releasing.md, "API tiers"): reports from partition summaries may change
 * in any release, without a SONAME bump. Define TALLY_EXPERIMENTAL_API before including tally.h to
 * use it. */
#ifdef TALLY_EXPERIMENTAL_API

/**
 * Compute a report from summaries made elsewhere: the samples stay where they are (partitions,
 * workers) and only each case's ::tally_partition_summary reaches this call. The result is the
 * report tally_report_new() makes from the same result sets with `omit_samples` (order statistics
 * bit for bit, moments within the bound of docs/statistics.md), and renders the same way.
 * Each summary must have been made with the summary options the report uses for its row: the
 * benchmark's direction, the report's percentile method and confidence, the other fields at
 * ::TALLY_SUMMARY_OPTIONS_INIT, and the extra BAmean cuts 50 and 99 (the report shows BAmean-50,
 * -95 and -99). Thread-safe for independent arguments.
 * @param out receives the report; free it with tally_report_free().
 * @param shape the result sets: labels, metadata, benchmarks (unit, direction, statistic) and
 *   cases, whose samples are ignored (typically none).
 * @param parts one completed summary per case of `shape`, in order: result set by result set,
 *   benchmark by benchmark, case by case (filtered-out cases included; their entry is not read
 *   and may be NULL). Not retained: they may be freed after the call.
 * @param count the number of entries of `parts`.
 * @param opts options as for tally_report_new() (`omit_samples` is implied), or NULL.
 * @return as tally_report_new(); also ::TALLY_EINVAL for a missing, incomplete or differently
 *   made summary, too few summaries, or the Mann-Whitney test (it needs the pooled ranks:
 *   tally_report_new_from_partitions_ranked()).
 */
TALLY_API int tally_report_new_from_partitions(tally_report **out, const tally_results *shape,
                                               const tally_partition_summary *const *parts,
                                               size_t count, const tally_report_options *opts);

/**
 * tally_report_new_from_partitions() with what the Mann-Whitney test needs of each compared
 * case, computed where the samples are (a distributed sort; docs/statistics.md, "Partitioned
 * samples"): the mid-rank sum of the baseline's samples in the pool of the baseline's and this
 * configuration's samples of the case, and that pool's tie term sum(t^3 - t). The test is then
 * the one tally_report_new() runs on the samples (tally_mann_whitney_from_ranks()). Its
 * interval, Hodges-Lehmann's, needs the pairwise differences of the samples: the rows of such a
 * report have none (`interval_defined` 0).
 * @param out receives the report; free it with tally_report_free().
 * @param shape as tally_report_new_from_partitions().
 * @param parts as tally_report_new_from_partitions().
 * @param count the number of entries of `parts`, `rank_sums` and `tie_terms`.
 * @param rank_sums one per case of `shape`, in the order of `parts`; the baseline's entries and
 *   those of cases the baseline lacks are not read. Not retained.
 * @param tie_terms the same order. Not retained.
 * @param opts as tally_report_new_from_partitions(); the figures are read only when the test is
 *   Mann-Whitney.
 * @return as tally_report_new_from_partitions(); ::TALLY_EINVAL for a NULL array or a rank sum
 *   out of its range (the message names the case).
 */
TALLY_API int tally_report_new_from_partitions_ranked(tally_report **out,
                                                      const tally_results *shape,
                                                      const tally_partition_summary *const *parts,
                                                      size_t count, const double *rank_sums,
                                                      const double *tie_terms,
                                                      const tally_report_options *opts);

#endif /* TALLY_EXPERIMENTAL_API */

/** Free a report; NULL is accepted. */
TALLY_API void tally_report_free(tally_report *r);

/** @return the number of configurations (result sets). */
TALLY_API size_t tally_report_config_count(const tally_report *r);

/** @return the label of configuration i (borrowed), or NULL. */
TALLY_API const char *tally_report_config_label(const tally_report *r, size_t i);

/** @return the number of rows. */
TALLY_API size_t tally_report_row_count(const tally_report *r);

/**
 * Describe row i.
 * @param out filled up to its `size` (set by the caller); its strings live as long as `r`.
 * @return ::TALLY_OK or ::TALLY_EINVAL (NULL argument, `size` not set, i out of range).
 *   Thread-safe on a shared report.
 */
TALLY_API int tally_report_row_at(tally_report_row *out, const tally_report *r, size_t i);

/**
 * The cell of a row for a configuration.
 * @param out receives the cell (its `size` set by the caller).
 * @param r the report.
 * @param row the row, below tally_report_row_count().
 * @param config the configuration, below tally_report_config_count().
 * @return ::TALLY_OK or ::TALLY_EINVAL (NULL, out of range, `size` not set). Thread-safe.
 */
TALLY_API int tally_report_cell_at(tally_report_cell *out, const tally_report *r, size_t row,
                                   size_t config);

/**
 * The summary of a cell's samples.
 * @param out receives the summary (its `size` set by the caller).
 * @param r the report.
 * @param row the row.
 * @param config the configuration.
 * @return ::TALLY_OK; ::TALLY_ENOTFOUND when the configuration has no such case (`present` 0);
 *   ::TALLY_EINVAL (NULL, out of range, `size` not set). Thread-safe.
 */
TALLY_API int tally_report_cell_summary(tally_summary *out, const tally_report *r, size_t row,
                                        size_t config);

/**
 * A cell's comparison with the baseline's cell of the same row: its two sides' summaries are
 * tally_report_cell_summary() of configuration 0 and of `config`.
 * @param out receives the comparison (its `size` set by the caller).
 * @param r the report.
 * @param row the row.
 * @param config the configuration.
 * @return ::TALLY_OK; ::TALLY_ENOTFOUND when the cell has none (`compared` 0: the baseline
 *   itself, or a case missing on either side); ::TALLY_EINVAL (NULL, out of range, `size` not
 *   set). Thread-safe.
 */
TALLY_API int tally_report_cell_comparison(tally_comparison *out, const tally_report *r,
                                           size_t row, size_t config);

/**
 * The spread and CV that the report's tables show for one cell: the harmonic SD and the
 * harmonic CV on HMean rows, the sample SD otherwise, and the CV relative to the row's own
 * statistic (100 * spread / value), which is the summary's `cv` only on AMean rows.
 * @param spread receives the spread, NaN when undefined (fewer than two samples); may be NULL.
 * @param cv receives the CV in percent, NaN when undefined (no spread, or a centre of 0); may
 *   be NULL.
 * @param r the report.
 * @param row row index.
 * @param config configuration index.
 * @return ::TALLY_OK, ::TALLY_ENOTFOUND (the configuration has no such case), ::TALLY_EINVAL
 *   (an index out of range). Thread-safe on a shared report.
 */
TALLY_API int tally_report_cell_spread(double *spread, double *cv, const tally_report *r,
                                       size_t row, size_t config);

/**
 * The confidence interval of the row's statistic that the report's tables show for one cell
 * (`value ± half-width` on AMean rows, `[low, high]` on Median rows), at the report's confidence.
 * @param low receives the lower bound.
 * @param high receives the upper bound.
 * @param r the report.
 * @param row row index.
 * @param config configuration index.
 * @return ::TALLY_OK, ::TALLY_ENODATA (the row's statistic has no interval, or too few samples
 *   for it), ::TALLY_ENOTFOUND (the configuration has no such case), ::TALLY_EINVAL. Thread-safe
 *   on a shared report.
 */
TALLY_API int tally_report_cell_interval(double *low, double *high, const tally_report *r,
                                         size_t row, size_t config);

/**
 * Geometric mean of gains of one configuration against the baseline. A growable result struct
 * like ::tally_summary: set `size` before tally_report_gain() fills it
 * (`tally_gain g = { .size = sizeof g };`).
 */
typedef struct tally_gain {
    size_t size;          /**< Set by the caller to sizeof (tally_gain); on return, the bytes
                               the library filled. */
    double value;         /**< exp(mean(log gain)) over the rows; > 1 means better. A row's gain
                               is new/base when higher is better, base/new when lower is better. */
    int interval_defined; /**< 1 when low and high hold its interval (every row has one). */
    double low;           /**< Lower bound at the report's confidence. */
    double high;          /**< Upper bound. */
    size_t rows;          /**< Paired rows that entered. */
} tally_gain;

/**
 * Geometric mean of gains of configuration j over the rows present in both it and the baseline
 * (of one benchmark, or of all): each row's gain is expressed so that > 1 means better, so rows
 * of both directions can share one figure. The interval combines the rows' log-ratio standard
 * errors as independent (docs/statistics.md, "Geometric mean of gains").
 * @param out receives the gain, up to its `size` (set by the caller).
 * @param r the report.
 * @param config the configuration, >= 1.
 * @param benchmark a benchmark name, or NULL for every row.
 * @return ::TALLY_OK, ::TALLY_ENODATA (no paired rows, config 0, or rows of more than one unit,
 *   or both of Google Benchmark's real_time and cpu_time: one mean over them would count the
 *   same runs twice; the reports give one per unit), ::TALLY_EINVAL, ::TALLY_ENUMERIC.
 *   Thread-safe.
 */
TALLY_API int tally_report_gain(tally_gain *out, const tally_report *r, size_t config,
                                const char *benchmark);

/**
 * The value of tally_report_gain() over every row: the geometric mean of gains (> 1 = better;
 * new/base on higher-is-better rows, base/new on lower-is-better rows) of configuration j.
 * @return ::TALLY_OK, ::TALLY_ENODATA (no paired rows, j = 0, or rows of several units, as
 *   tally_report_gain()), ::TALLY_EINVAL.
 */
TALLY_API int tally_report_geomean(double *out, const tally_report *r, size_t config);

/**
 * How the rows of one configuration paired with the baseline's. A growable result struct like
 * ::tally_summary: set `size` before tally_report_pairing() fills it
 * (`tally_pairing p = { .size = sizeof p };`).
 */
typedef struct tally_pairing {
    size_t size;     /**< Set by the caller to sizeof (tally_pairing); on return, the bytes the
                          library filled. */
    size_t compared; /**< Rows present in both the baseline and the configuration. */
    size_t missing;  /**< Baseline rows the configuration lacks (no partner). */
    size_t added;    /**< Rows of the configuration the baseline lacks (new). */
    size_t renamed;  /**< Compared rows paired under another name (`case_map`, `pair_by`). */
} tally_pairing;

/**
 * How the rows of configuration `config` paired with the baseline's (after the report's filter).
 * @param out receives the counts, up to its `size` (set by the caller).
 * @param r the report.
 * @param config the configuration, >= 1.
 * @return ::TALLY_OK; ::TALLY_EINVAL (NULL, `size` not set, `config` 0 or out of range).
 *   Thread-safe.
 */
TALLY_API int tally_report_pairing(tally_pairing *out, const tally_report *r, size_t config);

/**
 * The name a cell's case had in its own configuration when it paired with a row of another name
 * (`case_map`, `pair_by`), else NULL.
 * @return a string owned by the report, or NULL (also for an index out of range). Thread-safe.
 */
TALLY_API const char *tally_report_cell_paired_from(const tally_report *r, size_t row,
                                                    size_t config);

/** Which end of a regression the CI gate compares with its threshold. */
typedef enum tally_gate_bound {
    TALLY_GATE_POINT = 0, /**< The point estimate of pct-imp (the default). */
    TALLY_GATE_NEAR = 1   /**< The interval's bound nearest to 0: the regression is established
                               beyond the threshold at the report's confidence. */
} tally_gate_bound;

/**
 * Outcome of the CI gate over a report. A growable result struct like ::tally_summary: set
 * `size` before tally_report_gate() fills it (`tally_gate g = { .size = sizeof g };`).
 */
typedef struct tally_gate {
    size_t size;          /**< Set by the caller to sizeof (tally_gate); on return, the bytes
                               the library filled. */
    size_t regressions;   /**< Regression rows (after adjustment) beyond the threshold. */
    double worst_pct;     /**< The largest of those regressions (positive percent), 0 if none. */
    size_t insufficient;  /**< Compared rows with too few samples to be judged. */
    size_t inconclusive;  /**< Compared rows neither shown changed nor equivalent. */
    size_t not_tested;    /**< Compared rows without a test. */
    size_t worst_row;     /**< The row (tally_report_row_at()) of the worst regression counted;
                               meaningful when `worst_config` is not 0. */
    size_t worst_config;  /**< The configuration of that regression (>= 1); 0 when there is none,
                               or the library is older than this field. */
} tally_gate;

/**
 * The CI gate: count the rows whose verdict (after the report's p-value adjustment) is a
 * regression beyond `threshold_pct`, measured by `bound`, and the rows that cannot be judged.
 * @param out receives the counts, up to its `size` (set by the caller).
 * @param r the report.
 * @param threshold_pct threshold in percent, >= 0.
 * @param bound which end of the change is compared.
 * @return ::TALLY_OK or ::TALLY_EINVAL. Thread-safe.
 */
TALLY_API int tally_report_gate(tally_gate *out, const tally_report *r, double threshold_pct,
                                tally_gate_bound bound);

/**
 * The largest significant regression of the report, as a positive percentage (0 when none), for
 * CI gating: a caller fails when it exceeds its threshold.
 */
TALLY_API int tally_report_worst_regression(double *out_pct, const tally_report *r);

/**
 * Render into memory (not for XLSX). Thread-safe: a report may be rendered from several threads.
 * HTML draws the distributions and run order of each case from the raw samples; a report made
 * with `omit_samples` has none, and its HTML then shows the tables, the sweep and the changes only.
 * @param out receives a NUL-terminated buffer to release with tally_free().
 * @param len receives its length; may be NULL.
 * @return ::TALLY_OK, ::TALLY_EINVAL (e.g. XLSX to memory), ::TALLY_ENOMEM.
 */
TALLY_API int tally_report_render(char **out, size_t *len, const tally_report *r,
                                  const tally_render_options *opts);

/**
 * Render into a file atomically: a failed render leaves no file (and keeps an old one intact).
 * @return ::TALLY_OK, ::TALLY_EIO, ::TALLY_EXLSX, ::TALLY_ENOMEM.
 */
TALLY_API int tally_report_write(const tally_report *r, const char *path,
                                 const tally_render_options *opts);

/** @return a format's name ("text", "json", "csv", "md", "xlsx", "html"), or NULL. */
TALLY_API const char *tally_format_name(tally_format format);

/** Parse a format name. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_format_from_name(tally_format *out, const char *name);

/**
 * What an output format needs of a report and where it can go, as the library's table of
 * renderers states it: callers (the CLI, the Python package) ask here instead of keeping lists
 * of their own. A growable result struct like ::tally_summary: set `size` before a call fills it
 * (`tally_format_info f = { .size = sizeof f };`).
 */
typedef struct tally_format_info {
    size_t size;         /**< Set by the caller to sizeof (tally_format_info); on return, the
                              bytes the library filled. */
    tally_format format; /**< The format. */
    const char *name;    /**< Its name, as tally_format_name(); static storage. */
    int needs_samples;   /**< 1: the output shows the raw samples (JSON's `samples`, XLSX's
                              samples sheet, HTML's distribution and run-order plots), which a
                              report made with `omit_samples` lacks. */
    int file_only;       /**< 1: only tally_report_write() produces it (a workbook). */
    int terminal;        /**< 1: meant for a terminal: ANSI colour (`color`) and fitting to its
                              width (`fit_width`) apply. */
} tally_format_info;

/** @return the number of output formats (the rows tally_format_info_at() reads). Thread-safe. */
TALLY_API size_t tally_format_count(void);

/**
 * Describe output format number `i` (0 to tally_format_count() - 1, in the order of
 * ::tally_format).
 * @param out receives the description (its `size` set by the caller).
 * @param i the row.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for `i` out of range or a bad `out`. Thread-safe.
 */
TALLY_API int tally_format_info_at(tally_format_info *out, size_t i);

/** @return a style's name ("table", "mmtests", "normalized", "pct"), or NULL. */
TALLY_API const char *tally_style_name(tally_style style);

/** Parse a style name. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_style_from_name(tally_style *out, const char *name);

/**
 * The run-order and shape checks of one cell (include/tally/diagnose.h), with
 * ::TALLY_DIAG_OUTLIERS set on a compared cell whose verdict changes without the outliers. Cells
 * of more than ::TALLY_DIAGNOSE_MAX_RUNS samples, and reports made from partitions, have none
 * (`tested` is 0). Thread-safe on a shared report.
 * @param out receives the diagnostics, up to its `size` (set by the caller).
 * @param r the report.
 * @param row row index.
 * @param config configuration index.
 * @return ::TALLY_OK, ::TALLY_ENOTFOUND (the configuration has no such case), ::TALLY_EINVAL.
 */
TALLY_API int tally_report_cell_diagnostics(tally_diagnostics *out, const tally_report *r,
                                            size_t row, size_t config);

/**
 * The environment keys whose recorded values differ between the report's configurations: the
 * runner's fingerprint (host, kernel and its command line, CPU model and count, SMT, governor,
 * boost, THP, isolcpus, nohz_full, ASLR, memory), the workload and its `param.*` parameters;
 * keys in the options' `expect_diff` are left out, and a key recorded by only one
 * configuration is not a difference. Every text style, Markdown, JSON, CSV, XLSX and HTML
 * show them as a warning.
 * @return the number of such keys (0 for NULL).
 */
TALLY_API size_t tally_report_env_diff_count(const tally_report *r);

/** @return the i-th differing key (borrowed from the report), or NULL when out of range. */
TALLY_API const char *tally_report_env_diff_key(const tally_report *r, size_t i);

/** @return the value configuration `config` recorded for the i-th differing key (borrowed), or
 *  NULL when it recorded none or an index is out of range. */
TALLY_API const char *tally_report_env_diff_value(const tally_report *r, size_t i, size_t config);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_REPORT_H */
