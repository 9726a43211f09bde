/* The run-order plot of one case: a panel per configuration, samples against the run index. */
#include <math.h>
#include <string.h>

#include "report/plot.h"

#define PANEL 56.0  /* height of a panel's plot area */
#define LABEL 20.0  /* space above a panel for its label */
#define LEFT 64.0
#define RIGHT 16.0
#define MAX_DOTS 60

/* What the run-order checks found on a panel (report_diag.c): a dashed line between the runs
 * where a warm-up ends or a step happens, labelled, and the names of the other fired checks at
 * the panel's top right. */
static void diag_marks(tally__buf *b, const tally__cell *c, const tally__svg_scale *x, double top)
{
    if (!c->diag_defined || c->diag.flagged == 0)
        return;
    const tally_diagnostics *d = &c->diag;
    size_t at[2] = { d->flagged & TALLY_DIAG_WARMUP ? d->warmup_runs : 0,
                     d->flagged & TALLY_DIAG_STEP ? d->step_at : 0 };
    static const char *const what[2] = { "warm-up", "step" };
    for (int k = 0; k < 2; k++) {
        if (at[k] == 0 || (k == 1 && at[1] == at[0]))
            continue;
        double px = tally__svg_scale_map(x, (double)at[k] + 0.5);
        tally__svg_path_open(b, "diag-mark");
        tally__svg_vline(b, px, top, top + PANEL);
        tally__svg_path_close(b);
        int both = k == 0 && at[1] == at[0];
        tally__svg_label(b, "diag-label", px + 3, top + 10, "start",
                         both ? "warm-up, step" : what[k]);
    }
    tally__buf t = TALLY__BUF_INIT;
    tally__render_diag_names(&t, d->flagged & ~(unsigned)(TALLY_DIAG_WARMUP | TALLY_DIAG_STEP),
                             ", ");
    if (t.failed)
        b->failed = 1;
    else if (t.len)
        tally__svg_label(b, "diag-label", TALLY__PLOT_WIDTH - RIGHT, top - 6, "end", t.data);
    tally__buf_dispose(&t);
}

int tally__plot_runs(tally__buf *b, const tally_report *r, const tally__row *row,
                     const tally__si *si)
{
    double lo, hi;
    size_t nmax;
    if (!tally__row_sample_range(&lo, &hi, &nmax, r, row))
        return 0;
    double width = TALLY__PLOT_WIDTH;
    double bottom = (LABEL + PANEL) * (double)r->config_count + 4;
    double height = bottom + 40;
    tally__axis x;
    memset(&x, 0, sizeof(x));
    tally__nice_ticks(&x.ticks, 1, (double)(nmax > 1 ? nmax : 2), 8);
    if (x.ticks.step < 1) { /* run indexes are whole numbers */
        x.ticks.step = 1;
        x.ticks.lo = floor(x.ticks.lo);
        x.ticks.hi = ceil(x.ticks.hi);
        x.ticks.count = (int)(x.ticks.hi - x.ticks.lo) + 1;
    }
    if (x.ticks.lo < 0) { /* no run 0 - step, the axis starts at 0 */
        x.ticks.lo = 0;
        x.ticks.count = (int)floor((x.ticks.hi - x.ticks.lo) / x.ticks.step + 0.5) + 1;
    }
    x.scale = (tally__svg_scale){x.ticks.lo, x.ticks.hi, LEFT, width - RIGHT, 0};
    x.pos = bottom;
    x.title = "run";
    x.title_pos = bottom + 32;

    tally__ticks yt;
    tally__nice_ticks(&yt, lo, hi, 3);
    tally__buf desc = TALLY__BUF_INIT;
    tally__buf_printf(&desc, "Every run of %s %s in the order it ran, one panel per "
                             "configuration on a shared value axis, so trends and warm-up show.",
                      row->benchmark, row->case_name);
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        if (!c->pub.present || c->samples == NULL || c->n == 0) {
            tally__buf_printf(&desc, " %s: missing.", r->configs[j].label);
            continue;
        }
        char first[80], last[80];
        tally__plot_value(first, sizeof(first), c->samples[0], row->unit);
        tally__plot_value(last, sizeof(last), c->samples[c->n - 1], row->unit);
        tally__buf_printf(&desc, " %s: %zu runs, the first %s, the last %s.",
                          r->configs[j].label, c->n, first, last);
    }
    tally__plot_open(b, "plot-runs", width, height, "Runs in run order", &desc);
    tally__svg_axis(b, &x);
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        double top = (LABEL + PANEL) * (double)j + LABEL;
        tally__buf_printf(b, "<g class=\"panel series c%zu\">", j % TALLY__PLOT_COLOURS);
        tally__svg_label(b, "panel-label", LEFT, top - 6, "start", r->configs[j].label);
        if (!c->pub.present || c->samples == NULL || c->n == 0) {
            tally__svg_label(b, "note", LEFT + 6, top + PANEL / 2, "start", "missing");
            tally__buf_puts(b, "</g>\n");
            continue;
        }
        tally__axis y;
        memset(&y, 0, sizeof(y));
        y.vertical = 1;
        y.ticks = yt;
        y.scale = (tally__svg_scale){yt.lo, yt.hi, top + PANEL, top, 0};
        y.pos = LEFT;
        y.grid = width - RIGHT - LEFT;
        y.unit = row->unit;
        y.prefix = 1;
        y.si = si;
        y.title_pos = 14;
        tally__svg_axis(b, &y);
        diag_marks(b, c, &x.scale, top);
        tally__svg_path_open(b, "line");
        for (size_t i = 0; i < c->n; i++) {
            double px = tally__svg_scale_map(&x.scale, (double)(i + 1));
            double py = tally__svg_scale_map(&y.scale, c->samples[i]);
            if (i == 0)
                tally__svg_move(b, px, py);
            else
                tally__svg_line_to(b, px, py);
        }
        tally__svg_path_close(b);
        /* Dots on the line while they stay apart; beyond that the line's joins show the runs
         * and the file stays small (300 cases of 100 runs). */
        if (c->n > MAX_DOTS) {
            tally__buf_puts(b, "</g>\n");
            continue;
        }
        tally__svg_path_open(b, "pts");
        for (size_t i = 0; i < c->n; i++)
            tally__svg_dot(b, tally__svg_scale_map(&x.scale, (double)(i + 1)),
                           tally__svg_scale_map(&y.scale, c->samples[i]));
        tally__svg_path_close(b);
        tally__buf_puts(b, "</g>\n");
    }
    tally__svg_close(b);
    return 1;
}
