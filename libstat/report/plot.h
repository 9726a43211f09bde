/* The plots of the HTML report, each drawn with the SVG module (report/svg.h) into a buffer:
 * one function per plot kind, in its own plot_*.c file. Every plot is one `<svg class="plot
 * KIND">` with a `<title>` and a `<desc>` that say in words what it shows. The structure each
 * writes (classes of axes, marks and labels) is described in docs/internals/SVG.md. */
#ifndef TALLY_PLOT_H
#define TALLY_PLOT_H

#include "report/report_internal.h"
#include "report/svg.h"
#include "stats/stats_internal.h"

#define TALLY__PLOT_WIDTH 640.0
#define TALLY__PLOT_COLOURS 8 /* series classes c0..c7, then again */

/* Distribution of one case: per configuration a row with a box (quartiles, median, whiskers at
 * 1.5 IQR) under a strip of every run, on one value axis with the unit, labelled in `si`: the
 * SI prefix of the case's benchmark (tally__group_si), so a value reads the same in the plot
 * as in the table. Draws nothing and returns 0 when the report holds no samples; 1 when drawn. */
int tally__plot_distribution(tally__buf *b, const tally_report *r, const tally__row *row,
                             const tally__si *si);

/* Run order of one case: a panel per configuration with its samples against the run index,
 * on one shared value axis, so trends and warm-up show. Returns as tally__plot_distribution. */
int tally__plot_runs(tally__buf *b, const tally_report *r, const tally__row *row,
                     const tally__si *si);

/* The row statistic of a benchmark against its case with the confidence interval, in the
 * benchmark's SI prefix (tally__group_si, as the table), one line per configuration (a sweep: cases named by numbers such as "4", "16-clients", on a numeric,
 * logarithmic when geometric, axis), or dots per case for named cases. Returns 1 when drawn,
 * 0 when no cell has a value. */
int tally__plot_sweep(tally__buf *b, const tally_report *r, const tally__group *g);

/* The change of each case against the baseline: pct-imp (positive is better) per case, a panel
 * per compared configuration, the mark's shape and colour telling the verdict. Returns 1 when
 * drawn, 0 without comparisons. */
int tally__plot_change(tally__buf *b, const tally_report *r, const tally__group *g);

/* The number a sweep case is named by: the leading number of "16", "16-clients", "16 groups".
 * Returns 1 with *out set, else 0. */
int tally__case_number(double *out, const char *case_name);

/* The class of a verdict's marks and cells: "v-imp", "v-reg", "v-none" (inconclusive),
 * "v-insuf", "v-equiv", "v-nt" (not tested). */
const char *tally__verdict_class(tally_verdict v);

/* The range of the samples of a row over the configurations that have them, and the largest
 * number of samples: 1, or 0 when no cell holds samples. */
int tally__row_sample_range(double *lo, double *hi, size_t *nmax, const tally_report *r,
                            const tally__row *row);

/* Width of the widest configuration label at `px`, clamped to [lo, hi]. */
double tally__config_label_width(const tally_report *r, double px, double lo, double hi);

/* tally__svg_open() with the description built in `desc`, which is disposed of; a description
 * that ran out of memory fails `b` too. */
void tally__plot_open(tally__buf *b, const char *kind, double width, double height,
                      const char *title, tally__buf *desc);

/* The title of an axis of a benchmark's cases, named after what they sweep: the case label the
 * report was given (--case-label, `report.BENCH.case_label`); else the word every case has
 * after its number ("groups" of 1-groups ... 64-groups); else the keys whose values differ
 * between cases named key=value/key=value ("poly / size / align" of go's sub-benchmarks);
 * else "case". */
void tally__case_axis_title(char *out, size_t size, const tally_report *r,
                            const tally__group *g);

/* `s` shortened in the middle to at most `max_px` at font size `px` ("poly=Castagnoli/si…
 * align=1-2"), whole when it fits; cut at character boundaries. Returns 1 when shortened. */
int tally__plot_shorten(char *out, size_t size, const char *s, double max_px, double px);

/* A case's label: `<text>` with the shown text, and the full name as its `<title>` (a tooltip)
 * when the shown text is not the whole name; `rotate`: turned -90 degrees about (x, y). */
void tally__plot_case_label(tally__buf *b, const char *cls, double x, double y,
                            const char *anchor, const char *shown, const char *full, int rotate);

/* Values formatted for a plot's description: `digits` significant digits with the SI-prefixed
 * unit. */
void tally__plot_value(char *out, size_t size, double v, const char *unit);

#endif /* TALLY_PLOT_H */
