/*
 * The report model shared by report.c and the renderers (render_*.c). A report owns copies of
 * everything it shows: labels, metadata, names and raw samples (unless omit_samples: then no
 * samples at all), never pointers into the results.
 */
#ifndef TALLY_REPORT_INTERNAL_H
#define TALLY_REPORT_INTERNAL_H

#include "util/internal.h"
#include "util/si.h"

/* The BAmean-N rows of the mmtests layout, in the order compare-mmtests prints them
 * (report_stats.c, which computes them). */
#define TALLY__BAMEAN_COUNT 3
extern const double tally__bamean_percents[TALLY__BAMEAN_COUNT];

/* A cell's figures as the renderers read them; tally_report_cell_at(),
 * tally_report_cell_summary() and tally_report_cell_comparison() hand them out in the public
 * structs, which cannot embed each other (they grow independently). */
typedef struct tally__cell_figures {
    int present;                 /* the configuration has the case */
    tally_summary summary;       /* summary of its samples (when present) */
    double value;                /* the row's statistic (when present) */
    int compared;                /* comparison holds one with the baseline */
    tally_comparison comparison; /* versus the baseline (not for the baseline itself) */
    double p_adjusted;           /* p-value after the report's adjustment */
} tally__cell_figures;

typedef struct tally__cell {
    tally__cell_figures pub;   /* what the public cell accessors hand out */
    double *samples;           /* copy of the samples in run order (NULL when absent or omitted) */
    int borrowed;              /* samples point into the results (only inside tally_report_new) */
    size_t n;
    int value_defined;         /* pub.value holds the row's statistic */
    double spread;             /* stddev, or the harmonic SD on HMean rows */
    double cv;                 /* 100 * spread / centre (finish_cell, report_stats.c) */
    int spread_defined;        /* spread and cv hold values */
    int cv_defined;
    double bamean[TALLY__BAMEAN_COUNT]; /* BAmean-50, -95, -99 */
    double bhmean[TALLY__BAMEAN_COUNT]; /* higher-is-better rows: the harmonic mean of the same
                                           best samples (compare-mmtests' BHmean-N) */
    int bhmean_defined;        /* bhmean holds them (samples seen, all of the best > 0) */
    int part_made;             /* summarised from a partition summary: no samples were seen */
    unsigned long failed_runs; /* the case's `failed_runs` metadata: runs that gave no sample */
    const tally_partition_summary *part; /* tally_report_new_from_partitions: the cell's
                                            summary (only inside that call) */
    double ranks[2];           /* ..._ranked: {mid-rank sum of the baseline in the pool of the
                                  baseline and this cell, tie term} for Mann-Whitney */
    int has_ranks;
    char *paired_from;         /* the case's own name when it paired with a row of another
                                  name (report_pair.c), else NULL */
    tally_diagnostics diag;    /* run-order and shape checks (report_diag.c) */
    int diag_defined;          /* diag holds them (the cell's samples were seen) */
    int summary_only;          /* the case is known by `reported` alone (no samples) */
    tally_case_summary reported;
    size_t hist_runs;          /* the case's histogram runs (0: samples); report_hist.c */
    double resolution;         /* their widest bucket resolution */
    struct tally__pooled *pooled; /* the pooled level: the runs on one grid (n is then the
                                     requests; samples NULL) */
    double log_se;             /* the cluster bootstrap's standard error of log(statistic) */
    int se_defined;
} tally__cell;

typedef struct tally__row {
    char *benchmark;
    char *case_name;
    char *unit;
    tally_direction direction;
    tally_statistic statistic;
    double percentile;  /* p of a TALLY_STAT_PERCENTILE row, else 0 */
    char stat_name[32]; /* the statistic as files name it: "amean", "p99" */
    char stat_title[32]; /* as tables title it: "AMean", "p99" */
    double noise_pct;   /* the noise profile's margin of the benchmark (report option noise),
                           0 when none */
    int exact;          /* a cell's case carries assume=exact (go test's Unit lines): repeated
                           runs add no confidence, so the row is compared without a test */
    int summary_only;   /* a cell is summary-only: the benchmark's rows show AMean and compare
                           by a test from (n, mean, SD) (report_summary_only.c) */
    tally_statistic asked_statistic; /* with summary_only: the statistic the row would have
                                        shown (TALLY_STAT_AMEAN when the same) */
    tally_test asked_test;           /* with summary_only: the test asked for when it needs
                                        samples (replaced by Welch), else TALLY_TEST_AUTO */
    tally__cell *cells; /* one per configuration */
} tally__row;

typedef struct tally__meta {
    char *key;
    char *value;
} tally__meta;

typedef struct tally__config {
    char *label;
    tally__meta *meta;
    size_t meta_count;
} tally__config;

/* A metadata key whose values differ between configurations (report_env.c). */
typedef struct tally__env_diff {
    char *key;
} tally__env_diff;

struct tally_report {
    tally__config *configs;
    size_t config_count;
    tally__row *rows;
    size_t row_count;
    size_t row_cap;
    tally_report_options opts; /* copy; opts.filter points to filter_copy, opts.expect_diff
                                  to expect_copy */
    char *filter_copy;
    char *expect_copy;
    char *case_map_copy;       /* opts.case_map points to it */
    size_t baseline_index;     /* the results' index of configuration 0 (opts.baseline) */
    tally__env_diff *env;      /* environment keys that differ (report_env.c) */
    size_t env_count;
    size_t first_shown;        /* a text layout's view (report_fit.c): the configurations
                                  before this one are there for the percentages against the
                                  baseline, their columns not shown; 0 in a report */
};

/* Building a report (tally_report_new in report.c): */
/* A caller's report options (NULL: the defaults) through the version reader, unchecked. */
int tally__report_options_read(tally_report_options *out, const tally_report_options *given);
/* The caller's render options (NULL: the defaults) of any version as current ones, checked
 * (format, style, width). */
int tally__render_options_read(tally_render_options *out, const tally_render_options *given);
/* Free what a row owns (not the row itself); report_align.c, which builds the rows. */
void tally__report_free_row(tally__row *row, size_t configs);
/* The index in the results of the report's configuration j (report_align.c): the baseline chosen
 * by opts.baseline first, then the others in their order. */
size_t tally__report_source(const tally_report *r, size_t j);

/* Align every case of every result set into rows (report_align.c); with `parts` (nparts, one
 * per case of `results` in order: tally_report_new_from_partitions) the cells take their
 * summaries from those instead of samples. */
int tally__report_align(tally_report *r, const tally_results *results,
                        const tally_partition_summary *const *parts, size_t nparts,
                        const double *rank_sums, const double *tie_terms);
/* Pairing (report_pair.c): the compiled case_map rules of a report being built. */
typedef struct tally__pairer tally__pairer;
/* Compile the report's case_map rules (none: *out NULL). TALLY_EINVAL names a bad rule. */
int tally__pairer_new(tally__pairer **out, const tally_report *r);
void tally__pairer_free(tally__pairer *p);
/* The row name a case of configuration j >= 1 pairs under: the baseline's case at the same
 * position of the benchmark `benchmark` (pair_by position; `base` is the baseline result set),
 * else the case_map rules' rewrite, else `name` itself. *out is `name` or points into
 * `scratch`, which the caller disposes. */
int tally__pair_name(const char **out, tally__buf *scratch, const tally__pairer *p,
                     const tally_report *r, const tally_resultset *base, const char *benchmark,
                     size_t position, const char *name);
/* Append one line per compared configuration saying how its rows paired with the baseline
 * ("pairing: new against base: 3 compared, 1 missing in new, 2 new in new"), then the cases
 * paired under another name; `always` 0 says it only when some row is unpaired or renamed
 * (the seed layouts, which otherwise stay as posted). Nothing for a summary report. */
void tally__render_pairing_notes(tally__buf *b, const tally_report *r, const char *prefix,
                                 int always);

/* When a compared configuration was measured in another block than the baseline (another
 * boot_id, or another sweep's `date`) and no noise profile gave the rows a margin: a line per
 * such configuration and one saying that the intervals cover only the noise within a block
 * (report_blocks.c). Nothing otherwise. */
void tally__render_block_notes(tally__buf *b, const tally_report *r, const char *prefix);

/* Whether a cell of an exact row (assume=exact) holds samples that differ (report_exact.c). */
int tally__cell_exact_varies(const tally__row *row, const tally__cell *c);
/* A line per exact unit whose samples vary in some cell, naming up to three of them: such rows
 * are compared without a test, so a difference may be only that variation (report_exact.c).
 * Nothing otherwise. */
void tally__render_exact_notes(tally__buf *b, const tally_report *r, const char *prefix);

/* Each row's noise_pct from the report option `noise` (noise.c), before the comparisons. */
void tally__report_noise_margins(tally_report *r);
/* The equivalence margin of a row: the report's, else the noise profile's of its benchmark. */
double tally__row_equivalence_pct(const tally_report *r, const tally__row *row);
/* 1 when some row has an equivalence margin (the report's or the noise profile's). */
int tally__report_has_margin(const tally_report *r);
/* The summary options of a row's cells: its direction, the report's percentile method and
 * confidence, the other fields at their defaults (report_stats.c). */
tally_summary_options tally__row_summary_options(const tally_report *r, const tally__row *row);
/* The footnote of `not-tested` verdicts, naming exact units when a row has one
 * (report_util.c): the text and the HTML renderers print it. */
const char *tally__report_not_tested_note(const tally_report *r);

/* Summary-only cases (report_summary_only.c): after aligning, every row of a benchmark with a
 * summary-only cell is marked, shows AMean and keeps what was asked for the notes. */
void tally__report_summary_only_rows(tally_report *r);
/* The test a row's comparisons run: none on exact rows, Welch on summary-only rows when the
 * report's test needs samples, else the report's. */
tally_test tally__row_test(const tally_report *r, const tally__row *row);
/* The summary of a summary-only cell from its harness's figures. */
void tally__cell_summary_only(tally__cell *cell, const tally_report *r);
/* 1 when some row is summary-only. */
int tally__report_has_summary_only(const tally_report *r);
/* The notes naming each summary-only cell and what its rows cannot show, each line `prefix`ed. */
void tally__render_summary_only_notes(tally__buf *b, const tally_report *r, const char *prefix);
/* Histogram runs (report_hist.c): the cell of a case of histogram runs, per run (its samples
 * each run's per_run statistic) or pooled (cell->pooled); the pooled cell's summary with its
 * cluster bootstrap interval; its comparison at `confidence` (row_options: the row's summary
 * options, tally__row_summary_options, passed in so that report_stats.c alone calls back); what they own; whether a report
 * has pooled cells; the notes naming each row's level, runs, resolution and interval method. */
int tally__cell_histograms(tally__cell *cell, const tally_case *c, const tally_report *r);
int tally__cell_pooled_summary(tally__cell *cell, const tally__row *row, const tally_report *r,
                               const tally_summary_options *row_options);
int tally__cell_pooled_compare(tally_comparison *out, const tally__cell *cell,
                               const tally__cell *base, const tally__row *row,
                               const tally_report *r, const tally_summary_options *row_options,
                               double confidence);
void tally__cell_free_histograms(tally__cell *cell);
int tally__report_has_pooled(const tally_report *r);
void tally__render_histogram_notes(tally__buf *b, const tally_report *r, const char *prefix);
/* Summaries, comparisons with the baseline and adjusted p-values of every row (report_stats.c). */
int tally__report_compute(tally_report *r);
/* Diagnostics of every cell and the outliers' influence on each verdict (report_diag.c); after
 * tally__report_compute, while the samples are still there. */
int tally__report_diagnose(tally_report *r);
/* The false-alarm rate of each check in reports (the tally_diagnose default). */
#define TALLY__DIAG_ALPHA 0.01
/* Append a line for every check that fired in any cell, after a title; nothing when none did.
 * Item lines start with `prefix` ("- " in Markdown), or two spaces when it is empty. */
void tally__render_diag_notes(tally__buf *b, const tally_report *r, const char *prefix);
/* The findings of one cell's fired checks in words, separated by "; " (no newline). */
void tally__render_diag_findings(tally__buf *b, const tally_report *r, const tally__cell *c);
/* The names of the checks in `flags` (tally_diag_check_name), separated by `sep`. */
void tally__render_diag_names(tally__buf *b, unsigned flags, const char *sep);
/* The sentence naming each check's test and false-alarm rate (no newline). */
void tally__render_diag_legend(tally__buf *b);
/* 1 when a check fired in some cell of the report. */
int tally__report_has_diag_findings(const tally_report *r);
/* List the environment keys whose values differ between configurations (report_env.c), once
 * the configurations' metadata is copied; free them with the report. */
int tally__report_environment(tally_report *r);
void tally__report_free_environment(tally_report *r);
/* One line per differing environment key with every configuration's value, after a title;
 * nothing when none differs. */
void tally__render_env_notes(tally__buf *b, const tally_report *r, const char *prefix);

/* A group of consecutive rows of one benchmark (rows are kept grouped by benchmark). */
typedef struct tally__group {
    size_t first;
    size_t count;
} tally__group;

/* Advance to the next benchmark group starting at *pos; returns 0 when there is none. */
int tally__report_next_group(tally__group *g, const tally_report *r, size_t *pos);
/* The bytes of the case names of group g that every one of them starts with, up to and
 * including its last separator (`/`, `-`, `_`, `:`, `.` or a space), when every name keeps
 * something after it and the group has two cases or more: `CRC32/` of `CRC32/poly=IEEE/...`.
 * Plots and Markdown tables show the names without it and say so once. 0: none. */
size_t tally__case_prefix(const tally_report *r, const tally__group *g);
/* The same at the other end: the bytes every case name of group g ends with, from a separator
 * on, that leave every name something after its first `prefix` bytes: `-2` (go's GOMAXPROCS) of
 * `CRC32/poly=IEEE/size=15/align=0-2`, `-streams` of `1-streams` ... `16-streams`. 0: none. */
size_t tally__case_suffix(const tally_report *r, const tally__group *g, size_t prefix);

/* Break the lines from b->data[start] that are wider than `width` columns (colour codes do not
 * count) at spaces, each continuation indented two columns more than its line: the footers,
 * notes and legends of the text layouts then never wrap in the terminal. A word longer than
 * the line stays whole; a width below 20 leaves the text as it is. */
void tally__reflow(tally__buf *b, size_t start, size_t width);

/* The group loop of every renderer that walks the groups in order: each(b, r, group, ctx) for
 * every group, `separator` between two, stopping at the first error (returned); then
 * TALLY_ENOMEM (recorded) when the buffer failed, else TALLY_OK. */
int tally__each_group(tally__buf *b, const tally_report *r, const char *separator,
                      int (*each)(tally__buf *b, const tally_report *r, const tally__group *g,
                                  void *ctx),
                      void *ctx);

/* A renderer of one benchmark group; ctx: the tally_render_options passed to tally__render_groups. */
typedef void (*tally__group_renderer)(tally__buf *b, const tally_report *r, const tally__group *g,
                                      const void *ctx);

/* The group loop of the seed layouts: every group through `render` (fitted to o->fit_width by
 * tally__render_group_fitted), `separator` between two. TALLY_ENOMEM (recorded) when the
 * buffer failed, else TALLY_OK. */
int tally__render_groups(tally__buf *b, const tally_report *r, const char *separator,
                         tally__group_renderer render, const tally_render_options *o);

/* One group of a seed layout (mmtests, normalized, pct) within the render option fit_width
 * (report_fit.c): as `render` lays it out when its widest line fits (or fit_width is 0),
 * else in blocks of configurations, `separator` between two: the baseline and as many of the
 * next ones as fit, or, when not even two fit, each one alone (the later ones through views
 * whose `first_shown` is 1). */
int tally__render_group_fitted(tally__buf *b, const tally_report *r, const tally__group *g,
                               const char *separator, tally__group_renderer render,
                               const tally_render_options *o);

/* Cell (row, config) of r for the public accessor `fn` (report_access.c), or NULL with
 * TALLY_EINVAL recorded: "FN: cell (ROW, CONFIG) out of range". With a caller's growable struct
 * `out` of type `type` (util/result.h; type NULL for none), its size is checked first and
 * set in *size. */
const tally__cell *tally__report_cell_for(size_t *size, const void *out, const char *type,
                                          const tally_report *r, size_t row, size_t config,
                                          const char *fn);

/* A value of the baseline result set's metadata, or NULL. */
const char *tally__report_meta(const tally_report *r, size_t config, const char *key);

/* The label of a benchmark's first column in the AMD-style layouts: the baseline's metadata
 * `report.<benchmark>.case_label`, else `report.case_label`, else "Case". */
const char *tally__report_case_label(const tally_report *r, const char *benchmark);

/* The first-column label of a benchmark in the text styles: the baseline's metadata
 * `report.<benchmark>.case_label`, else the render option `case_label` (o may be NULL), else
 * the metadata `report.case_label`, else "Case". "" is a blank label (the styles then print
 * no colon after it). */
const char *tally__shown_case_label(const tally_report *r, const tally_render_options *o,
                                    const char *benchmark);

/* The text after "Normalized " in the normalized style's Units line: the baseline's metadata
 * `report.<benchmark>.units_text`, else the render option `units_text`, else the unit. */
const char *tally__shown_units_text(const tally_report *r, const tally_render_options *o,
                                    const tally__row *first);

/* A row's case name as the text styles show it, after the baseline's metadata
 * `report.<benchmark>.case_strip`, else the render option `case_strip` (o may be NULL): the
 * text removed from the end, else from the start, never down to nothing. *start and the
 * length to print. */
size_t tally__shown_case(const char **start, const tally_report *r, const tally_render_options *o,
                         const tally__row *row);

/* Default number of decimals of the text styles: 4 for lower-is-better rows (times), 2 for
 * higher-is-better rows (rates), as compare-mmtests prints them. */
int tally__default_precision(const tally_report *r, const tally_render_options *o,
                             const tally__row *row);

/* Decimals of the values of a seed layout's group (mmtests, pct): the precision option when
 * given; else `fixed` (the layout's posted %.4f or %.2f), widened to TALLY__NUMFMT_DIGITS
 * significant digits when the group's smallest non-zero |value| would show fewer than 3 with
 * it (a 10 ms time at %.2f, a nanosecond-scale time at %.4f); beyond 17 decimals (values
 * below about 1e-13), -TALLY__NUMFMT_DIGITS: scientific notation (tally__format_fixed). */
int tally__seed_precision(const tally_report *r, const tally_render_options *o,
                          const tally__group *g, int fixed);

/* The unit prefix of a benchmark group in the human formats that carry units (the table
 * style, Markdown, HTML, XLSX): chosen for the smallest |value| of the group's cells, unless
 * the largest would then need more than 5 whole digits (a sweep from 1 us to 10 s shows ms).
 * Every row of the group shares it, so a column reads in one unit (named once, in the
 * group's header). */
void tally__group_si(tally__si *si, const tally_report *r, const tally__group *g);

/* How a row's values are shown in the prefix `si` (tally__group_si): the decimals that show the
 * narrowest confidence interval among its cells with 2 significant digits (between 3 and 7
 * significant digits of its largest |value|; 4 without an interval), or the precision
 * option's decimals (`precision` < 0: none given). */
void tally__row_numfmt(tally__numfmt *f, const tally_report *r, const tally__row *row,
                       const tally__si *si, int precision);

/* Append one number as `f` shows it (no unit). */
void tally__buf_number(tally__buf *b, const tally__numfmt *f, double x);

/* Append a present cell's value with its interval, as the table style shows it: "380.0 ± 4.0"
 * (AMean: the half-width of the mean's interval), "380.0 [376.0, 384.0]" (Median: the
 * order-statistics interval), "380.0" (no interval; returns 0 then, else 1). A cell without a
 * value appends "n/a" and returns 0. With `sep` non-NULL the prefixed unit follows after it
 * (" ", or a non-breaking space in Markdown): "380.0 ± 4.0 ms". */
int tally__render_cell_value(tally__buf *b, const tally__numfmt *f, const tally__row *row,
                             const tally__cell *c, const char *sep);

/* Width in bytes of the longest case name of a group, as tally__shown_case shows it (o may be
 * NULL: the names as they are). */
size_t tally__group_case_width(const tally_report *r, const tally_render_options *o,
                              const tally__group *g);

/* The width of the case column of the normalized and pct styles: the baseline's metadata
 * `report.<benchmark>.case_width`, else `report.case_width` (a whole number from 1 to
 * TALLY__CASE_WIDTH_MAX), else tally__group_case_width + `extra`. A name longer than a set width takes
 * its extra columns from the gap after it, down to one space: the cells stay where they are. */
#define TALLY__CASE_WIDTH_MAX 1000
size_t tally__group_case_column(const tally_report *r, const tally_render_options *o,
                                const tally__group *g, size_t extra);

/* The pct style's spaces between the case column and the first cell: the baseline's metadata
 * `report.<benchmark>.case_gap`, else `report.case_gap` (a whole number from 1 to
 * TALLY__CASE_WIDTH_MAX), else `fallback`. */
size_t tally__group_case_gap(const tally_report *r, const tally__group *g, size_t fallback);

/* The pct style's columns from a cell's start to its configuration name's: the baseline's
 * metadata `report.<benchmark>.title_indent`, else `report.title_indent` (a whole number from
 * 0 to TALLY__CASE_WIDTH_MAX), else `fallback`. */
size_t tally__group_title_indent(const tally_report *r, const tally__group *g, size_t fallback);

/* Append "<config> has no <benchmark>/<case>" notes for the missing cells of a group, each line
 * prefixed by `prefix`. Appends nothing when every cell is present. */
void tally__render_missing_notes(tally__buf *b, const tally_report *r, const tally__group *g,
                                 const char *prefix);

/* Append the notes about the runs behind the report, each line prefixed by `prefix`: result
 * sets marked `partial` (an interrupted sweep), cases with failed runs (computed from the runs
 * that succeeded), and sweep values whose every run failed (no case at all). Appends nothing
 * when there is nothing to say. */
void tally__render_run_notes(tally__buf *b, const tally_report *r, const char *prefix);

/* Geometric mean of ratios of configuration j for a renderer: 1 with a value in *out, 0 when it
 * is undefined (no paired rows; the thread's error is cleared). Running out of memory marks the
 * buffer failed, so the render fails with TALLY_ENOMEM rather than printing "n/a". */
int tally__render_geomean(double *out, tally__buf *b, const tally_report *r, size_t j);
/* The geometric-mean-of-gains lines of a text report's footer (per benchmark when there are
 * several, and overall), for every configuration but the baseline. */
void tally__render_geomean_lines(tally__buf *b, const tally_report *r);

/* The line naming the test(s), alpha, the adjustment and the equivalence margin. */
void tally__render_method_line(tally__buf *b, const tally_report *r);
/* The heading of the change's interval: "95% CI", or "adj. CI" when a p-value adjustment moved
 * each row's interval to its own level (report_util.c). */
void tally__ci_label(char *out, size_t size, const tally_report *r);
/* The footer line that says what the delta, the ± and the MDE columns hold. */
void tally__render_delta_note(tally__buf *b, const tally_report *r);
/* ": needs ~K more runs per side (N in all) to resolve ±X %" for a row with runs_needed, or
 * that its runs already suffice (report_util.c). */
void tally__render_runs_needed(tally__buf *b, const tally_comparison *cmp);
/* The worst significant regression of the report (the lowest pct-imp among the regression
 * verdicts): its row and configuration; 0 when there is none (report_util.c). */
int tally__worst_regression(size_t *row, size_t *config, const tally_report *r);
/* The gain's families (report_access.c): rows of one unit, and of one of gbench's time kinds
 * (real_time, cpu_time); one geometric mean never spans two, so that runs measured in two
 * metrics count once (docs/statistics.md, "Geometric mean of gains"). */
int tally__same_family(const tally__row *a, const tally__row *b);
/* The family's name: its unit, with " real_time" or " cpu_time". */
void tally__family_name(tally__buf *b, const tally__row *row);
/* The number of families among the rows of `benchmark` (NULL: all), the first row of each of
 * the first `max` into first[]. */
size_t tally__gain_families(size_t *first, size_t max, const tally_report *r,
                            const char *benchmark);
/* tally_report_gain over the rows of `benchmark` (NULL: all) in the family of row family_row
 * ((size_t)-1: any, unchecked). */
int tally__report_gain_family(tally_gain *out, const tally_report *r, size_t config,
                              const char *benchmark, size_t family_row);
/* "1.0123 (ns real_time), 0.9876 (ns cpu_time)": configuration j's gain per family, as plain
 * text; 0 (nothing written) when the report has a single family (report_util.c). */
int tally__render_family_gains(tally__buf *b, const tally_report *r, size_t j);
/* A regression's size for a headline: signed pct-imp, as a ratio too where it is beyond -100 %
 * ("2.46x slower"), and its interval. */
void tally__render_regression_size(tally__buf *b, const tally__row *row,
                                   const tally_comparison *cmp);
/* A change as a factor, where that reads better than a percentage: " (2.46x slower)",
 * " (1.80x faster)" for times, " (3.10x higher)" / " (2.00x lower)" otherwise, when new and
 * base differ by at least `min_factor` (e.g. 1.5); nothing otherwise. */
void tally__render_change_factor(tally__buf *b, const tally__row *row,
                                 const tally_comparison *cmp, double min_factor);

/* The verdict cell of the table style: the verdict's name, "insufficient [1]", or for an
 * inconclusive row the runs per side that would settle it (no newline). */
void tally__render_verdict_text(tally__buf *b, const tally_comparison *cmp);

/* Why a comparison of a row is insufficient, computed from its test and sizes (no newline). */
void tally__render_insufficient_reason(tally__buf *b, const tally__row *row,
                                       const tally_comparison *c, double alpha);

/* The order statistic whose distribution-free interval a row shows ("the median", "p99") into
 * what, and the fewest runs that give it at `confidence` (0: more than 2^32). */
size_t tally__order_ci_need(char *what, size_t size, const tally__row *row, double confidence);

/* The renderers: each appends the whole report to `b`; errors are recorded and returned. */
/* CSV fields (report_util.c): the separator before every field but the first (*first is then
 * cleared), and a text field quoted when it holds a separator, a quote or a line break, with
 * a leading apostrophe when a spreadsheet would run it as a formula. */
void tally__csv_sep(tally__buf *b, int *first);
void tally__csv_text(tally__buf *b, int *first, const char *s);

/* Text for a Markdown table cell: the characters with a meaning in Markdown escaped, line
 * breaks as spaces (report_util.c). */
void tally__md_text(tally__buf *b, const char *s);

/* The HTML document around a report or a history (html_page.c): the doctype, the title (escaped)
 * and the stylesheet, or with `fragment` only the scoped `<div>` and its stylesheet; closed by
 * tally__html_close(). */
void tally__html_open(tally__buf *b, int fragment, const char *title);
void tally__html_close(tally__buf *b, int fragment);

int tally__render_table(tally__buf *b, const tally_report *r, const tally_render_options *o);
int tally__render_mmtests(tally__buf *b, const tally_report *r, const tally_render_options *o);
int tally__render_normalized(tally__buf *b, const tally_report *r, const tally_render_options *o);
int tally__render_pct(tally__buf *b, const tally_report *r, const tally_render_options *o);
int tally__render_json(tally__buf *b, const tally_report *r, const tally_render_options *o);
int tally__render_csv(tally__buf *b, const tally_report *r, const tally_render_options *o);
int tally__render_markdown(tally__buf *b, const tally_report *r, const tally_render_options *o);
int tally__render_html(tally__buf *b, const tally_report *r, const tally_render_options *o);
/* The compact distribution of every case after a text report (render option `histogram`). */
int tally__render_histograms(tally__buf *b, const tally_report *r, const tally_render_options *o);

/* The confidence interval of a cell's statistic when the summary has one (the mean CI on AMean
 * rows, the median CI on Median rows): 1 with the bounds, else 0. Part of the report model
 * (report_access.c, beside tally_report_cell_interval), so that the renderers' helpers
 * (report_util.c) call the model and never the reverse. */
int tally__cell_interval(double *lo, double *hi, const tally__row *row, const tally__cell *c);
/* The interval of an HMean cell at `confidence`: the t interval of the mean of 1/x (the scale
 * the HMean t-test uses), inverted, [1 / (1/H + t s / sqrt n), 1 / (1/H - t s / sqrt n)]; 0 on
 * other rows, with n < 2, or when the interval of 1/x reaches 0 (report_access.c). The text
 * styles keep HMean cells without an interval; the HTML report shows this one. */
int tally__cell_hmean_interval(double *lo, double *hi, const tally__row *row,
                               const tally__cell *c, double confidence);

/* ANSI colour around a compared cell's change in the text styles: green for a significant
 * improvement, red for a significant regression, "" otherwise or when `color` is 0. */
const char *tally__color_on(const tally__cell *c, int color);
const char *tally__color_off(const tally__cell *c, int color);

/* The verdict as the text table writes it ("improvement", "regression", "no change",
 * "insufficient"). */
const char *tally__verdict_word(tally_verdict v);

/* Write the spreadsheet to `path` (a temporary file: the caller renames it); error messages
 * name `shown_path`, the file the caller asked for. */
int tally__render_xlsx(const char *path, const char *shown_path, const tally_report *r,
                       const tally_render_options *o);

#endif /* TALLY_REPORT_INTERNAL_H */
