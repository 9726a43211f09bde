/* The distribution plot of one case: per configuration a box over a strip of every run. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"

#define ROW_HEIGHT 30.0
#define TOP 6.0
#define RIGHT 16.0
#define JITTER 18.0

/* Quartiles (R type 7) and the whisker ends (the extreme samples within 1.5 IQR). */
typedef struct box {
    double q1, median, q3, low, high;
} box;

static int box_of(box *out, const double *x, size_t n)
{
    static const double p[3] = {25, 50, 75};
    double q[3];
    if (tally_percentiles(q, x, n, p, 3, TALLY_PERCENTILE_LINEAR) != TALLY_OK)
        return 0;
    out->q1 = q[0];
    out->median = q[1];
    out->q3 = q[2];
    double iqr = q[2] - q[0], lo_fence = q[0] - 1.5 * iqr, hi_fence = q[2] + 1.5 * iqr;
    out->low = q[0];
    out->high = q[2];
    for (size_t i = 0; i < n; i++) {
        if (x[i] >= lo_fence && x[i] < out->low)
            out->low = x[i];
        if (x[i] <= hi_fence && x[i] > out->high)
            out->high = x[i];
    }
    return 1;
}

/* A deterministic spread of the strip: the golden-ratio sequence, so runs never pile up on
 * one line and the picture is the same on every render. */
static double jitter(size_t i)
{
    double f = fmod((double)(i + 1) * 0.6180339887498949, 1.0);
    return (f - 0.5) * JITTER;
}

int tally__plot_distribution(tally__buf *b, const tally_report *r, const tally__row *row,
                             const tally__si *si)
{
    double lo, hi;
    size_t nmax;
    if (!tally__row_sample_range(&lo, &hi, &nmax, r, row))
        return 0;
    double left = tally__config_label_width(r, 12, 48, 200) + 14;
    double width = TALLY__PLOT_WIDTH, bottom = TOP + ROW_HEIGHT * (double)r->config_count + 4;
    double height = bottom + 40;
    tally__axis axis;
    memset(&axis, 0, sizeof(axis));
    tally__nice_ticks(&axis.ticks, lo, hi, 6);
    axis.scale = (tally__svg_scale){axis.ticks.lo, axis.ticks.hi, left, width - RIGHT, 0};
    axis.pos = bottom;
    axis.grid = bottom - TOP;
    axis.unit = row->unit;
    axis.prefix = 1;
    axis.si = si;
    axis.title = row->unit[0] ? NULL : "value"; /* the unit alone says what the axis shows */
    axis.title_pos = bottom + 32;

    /* The description says in words what the marks show. */
    tally__buf desc = TALLY__BUF_INIT;
    tally__buf_printf(&desc, "Every run of %s %s per configuration, over a box of its quartiles "
                             "(whiskers at 1.5 times the interquartile range).",
                      row->benchmark, row->case_name);
    box boxes_stack[8];
    box *boxes = r->config_count <= 8 ? boxes_stack
                                      : tally__calloc(r->config_count, sizeof(*boxes));
    if (boxes == NULL) {
        b->failed = 1;
        tally__buf_dispose(&desc);
        return 0;
    }
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        boxes[j].q1 = NAN;
        if (!c->pub.present || c->samples == NULL) {
            tally__buf_printf(&desc, " %s: missing.", r->configs[j].label);
            continue;
        }
        if (!box_of(&boxes[j], c->samples, c->n)) {
            tally_error_clear();
            continue;
        }
        char med[80], q1[80], q3[80], mn[80], mx[80];
        tally__plot_value(med, sizeof(med), boxes[j].median, row->unit);
        tally__plot_value(q1, sizeof(q1), boxes[j].q1, row->unit);
        tally__plot_value(q3, sizeof(q3), boxes[j].q3, row->unit);
        tally__plot_value(mn, sizeof(mn), c->pub.summary.min, row->unit);
        tally__plot_value(mx, sizeof(mx), c->pub.summary.max, row->unit);
        tally__buf_printf(&desc, " %s: %zu runs, median %s, quartiles %s to %s, range %s to %s.",
                          r->configs[j].label, c->n, med, q1, q3, mn, mx);
    }
    tally__plot_open(b, "plot-dist", width, height, "Distribution of runs", &desc);
    tally__svg_axis(b, &axis);
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        double yc = TOP + ROW_HEIGHT * ((double)j + 0.5);
        tally__buf_printf(b, "<g class=\"series c%zu\">", j % TALLY__PLOT_COLOURS);
        if (!c->pub.present || c->samples == NULL || isnan(boxes[j].q1)) {
            tally__svg_label(b, "row-label", left - 8, yc + 4, "end", r->configs[j].label);
            tally__svg_label(b, "note", left + 6, yc + 4, "start", "missing");
            tally__buf_puts(b, "</g>\n");
            continue;
        }
        tally__svg_label(b, "row-label", left - 8, yc + 4, "end", r->configs[j].label);
        const box *bx = &boxes[j];
        tally__svg_path_open(b, "whisker");
        tally__svg_hline(b, tally__svg_scale_map(&axis.scale, bx->low),
                         tally__svg_scale_map(&axis.scale, bx->q1), yc);
        tally__svg_hline(b, tally__svg_scale_map(&axis.scale, bx->q3),
                         tally__svg_scale_map(&axis.scale, bx->high), yc);
        tally__svg_vline(b, tally__svg_scale_map(&axis.scale, bx->low), yc - 4, yc + 4);
        tally__svg_vline(b, tally__svg_scale_map(&axis.scale, bx->high), yc - 4, yc + 4);
        tally__svg_path_close(b);
        tally__svg_rect(b, "box", tally__svg_scale_map(&axis.scale, bx->q1), yc - 8,
                        tally__svg_scale_map(&axis.scale, bx->q3), yc + 8);
        tally__svg_path_open(b, "median");
        tally__svg_vline(b, tally__svg_scale_map(&axis.scale, bx->median), yc - 10, yc + 10);
        tally__svg_path_close(b);
        tally__svg_path_open(b, "pts");
        for (size_t i = 0; i < c->n; i++)
            tally__svg_dot(b, tally__svg_scale_map(&axis.scale, c->samples[i]), yc + jitter(i));
        tally__svg_path_close(b);
        tally__buf_puts(b, "</g>\n");
    }
    if (boxes != boxes_stack)
        tally__free_mem(boxes);
    tally__svg_close(b);
    return 1;
}
