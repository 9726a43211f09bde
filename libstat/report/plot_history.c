/* The trend plot of one series of a history: each point's mean with the spread of its runs
 * (min to max), spikes hollow, the level of each segment with its interval as a band, a dashed
 * marker at each change point, and the commit of every point and change in its tooltip. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/history_internal.h"
#include "report/plot.h"

#define HEIGHT 230.0
#define TOP 14.0
#define BOTTOM 40.0 /* below the plot area: the x axis and its title */
#define LEFT 70.0
#define RIGHT 16.0

static void series_range(double *lo, double *hi, const tally__hseries *s)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < s->offsets[s->n]; i++) {
        *lo = fmin(*lo, s->values[i]);
        *hi = fmax(*hi, s->values[i]);
    }
}

/* A level from point `first` to `end` (history indexes) at `v` with its band [lo, hi]. */
static void level(tally__buf *b, const tally__svg_scale *x, const tally__svg_scale *y,
                  size_t first, size_t end, double v, double lo, double hi, const char *title)
{
    double x0 = tally__svg_scale_map(x, (double)first - 0.5);
    double x1 = tally__svg_scale_map(x, (double)end - 0.5);
    tally__buf_puts(b, "<g class=\"level\"><title>");
    tally__svg_text(b, title);
    tally__buf_puts(b, "</title>");
    tally__svg_rect(b, "seg-ci", x0, tally__svg_scale_map(y, lo), x1, tally__svg_scale_map(y, hi));
    tally__svg_path_open(b, "seg");
    tally__svg_hline(b, x0, x1, tally__svg_scale_map(y, v));
    tally__svg_path_close(b);
    tally__buf_puts(b, "</g>");
}

static void level_title(tally__buf *t, const tally_history *h, const tally__hseries *s,
                        size_t first, size_t end, double v, double lo, double hi)
{
    char value[80], low[80], high[80];
    tally__plot_value(value, sizeof value, v, s->unit);
    tally__plot_value(low, sizeof low, lo, s->unit);
    tally__plot_value(high, sizeof high, hi, s->unit);
    t->len = 0;
    tally__buf_printf(t, "level %s [%s, %s], points %zu-%zu (%s to %s)", value, low, high,
                      first + 1, end, h->commits[first], h->commits[end - 1]);
}

static void points(tally__buf *b, const tally_history *h, const tally__hseries *s,
                   const tally__svg_scale *x, const tally__svg_scale *y)
{
    /* The runs' spread: one path for all. */
    tally__svg_path_open(b, "spread");
    for (size_t i = 0; i < s->n; i++) {
        size_t k = s->offsets[i + 1] - s->offsets[i];
        if (k < 2)
            continue;
        double lo = INFINITY, hi = -INFINITY;
        for (size_t j = s->offsets[i]; j < s->offsets[i + 1]; j++) {
            lo = fmin(lo, s->values[j]);
            hi = fmax(hi, s->values[j]);
        }
        tally__svg_vline(b, tally__svg_scale_map(x, (double)s->point[i]),
                         tally__svg_scale_map(y, lo), tally__svg_scale_map(y, hi));
    }
    tally__svg_path_close(b);
    /* A mark per point, with its commit in the tooltip. */
    for (size_t i = 0; i < s->n; i++) {
        size_t p = s->point[i], k = s->offsets[i + 1] - s->offsets[i];
        char value[80];
        tally__plot_value(value, sizeof value, s->mean[i], s->unit);
        tally__buf_printf(b, "<circle class=\"pt%s\" cx=\"", s->outlier[i] ? " outlier" : "");
        tally__svg_num(b, tally__svg_scale_map(x, (double)p));
        tally__buf_puts(b, "\" cy=\"");
        tally__svg_num(b, tally__svg_scale_map(y, s->mean[i]));
        tally__buf_printf(b, "\" r=\"2.5\"><title>%zu ", p + 1);
        tally__svg_text(b, h->commits[p]);
        if (strcmp(h->commits[p], h->labels[p]) != 0) {
            tally__buf_puts(b, " (");
            tally__svg_text(b, h->labels[p]);
            tally__buf_puts(b, ")");
        }
        tally__buf_printf(b, ": %s, %zu run%s%s</title></circle>", value, k, k == 1 ? "" : "s",
                          s->outlier[i] ? ", outlier (left out)" : "");
    }
    tally__buf_puts(b, "\n");
}

static void changes(tally__buf *b, const tally_history *h, const tally__hseries *s,
                    const tally__svg_scale *x, double top, double bottom)
{
    for (size_t k = 0; k < s->cp_count; k++) {
        const tally_changepoint *c = &s->cps[k];
        double px = tally__svg_scale_map(x, (double)c->index - 0.5);
        tally__buf_printf(b, "<g class=\"cp %s\"><title>change at point %zu, ",
                          tally__verdict_class(c->verdict), c->index + 1);
        tally__svg_text(b, h->commits[c->index]);
        tally__buf_printf(b, ": %+.2f%% (%s), p %.2g</title>", c->pct_imp,
                          tally__verdict_word(c->verdict), c->p_value);
        tally__svg_path_open(b, "cp-line");
        tally__svg_vline(b, px, top, bottom);
        tally__svg_path_close(b);
        tally__buf_printf(b, "<text class=\"cp-label\" x=\"");
        tally__svg_num(b, px + 3);
        tally__buf_puts(b, "\" y=\"");
        tally__svg_num(b, top + 10);
        tally__buf_printf(b, "\">%+.1f%%</text></g>", c->pct_imp);
    }
}

void tally__plot_history(tally__buf *b, const tally_history *h, const tally__hseries *s)
{
    double lo, hi;
    series_range(&lo, &hi, s);
    for (size_t k = 0; k < s->cp_count; k++) {
        lo = fmin(lo, fmin(s->cps[k].before_low, s->cps[k].after_low));
        hi = fmax(hi, fmax(s->cps[k].before_high, s->cps[k].after_high));
    }
    double width = TALLY__PLOT_WIDTH, bottom = HEIGHT - BOTTOM;
    tally__axis x;
    memset(&x, 0, sizeof x);
    double last = (double)(h->point_count > 1 ? h->point_count : 2);
    tally__nice_ticks(&x.ticks, 1, last, 8);
    if (x.ticks.step < 1) { /* points are whole numbers */
        x.ticks.step = 1;
        x.ticks.lo = floor(x.ticks.lo);
        x.ticks.hi = ceil(x.ticks.hi);
        x.ticks.count = (int)(x.ticks.hi - x.ticks.lo) + 1;
    }
    /* The axis counts points from 1; the data are history indexes from 0. */
    x.scale = (tally__svg_scale){ x.ticks.lo - 1, x.ticks.hi - 1, LEFT, width - RIGHT, 0 };
    double *tick_values = tally__malloc((size_t)(x.ticks.count > 0 ? x.ticks.count : 1) *
                                        sizeof *tick_values);
    char **tick_text = tally__calloc((size_t)(x.ticks.count > 0 ? x.ticks.count : 1),
                                     sizeof *tick_text);
    char (*tick_buf)[24] = tally__malloc((size_t)(x.ticks.count > 0 ? x.ticks.count : 1) *
                                         sizeof *tick_buf);
    if (tick_values == NULL || tick_text == NULL || tick_buf == NULL) {
        b->failed = 1;
    } else {
        for (int i = 0; i < x.ticks.count; i++) {
            double v = x.ticks.lo + x.ticks.step * i;
            tick_values[i] = v - 1;
            snprintf(tick_buf[i], sizeof tick_buf[i], "%.0f", v);
            tick_text[i] = tick_buf[i];
        }
        x.values = tick_values;
        x.labels = (const char *const *)tick_text;
        x.value_count = (size_t)x.ticks.count;
    }
    x.pos = bottom;
    x.title = h->git_order ? "commit (oldest first)" : "point";
    x.title_pos = bottom + 32;

    tally__axis y;
    memset(&y, 0, sizeof y);
    y.vertical = 1;
    tally__nice_ticks(&y.ticks, lo, hi, 5);
    y.scale = (tally__svg_scale){ y.ticks.lo, y.ticks.hi, bottom, TOP, 0 };
    y.pos = LEFT;
    y.grid = width - RIGHT - LEFT;
    y.unit = s->unit;
    y.prefix = 1;
    y.title_pos = 14;

    tally__buf desc = TALLY__BUF_INIT;
    tally__buf_printf(&desc, "%s %s over %zu points: the mean of each point with the spread of "
                             "its runs, the level of each segment with its interval, and %zu "
                             "change point%s.", s->benchmark, s->case_name, s->n, s->cp_count,
                      s->cp_count == 1 ? "" : "s");
    for (size_t k = 0; k < s->cp_count; k++)
        tally__buf_printf(&desc, " At point %zu (%s): %+.2f%%, %s.", s->cps[k].index + 1,
                          h->commits[s->cps[k].index], s->cps[k].pct_imp,
                          tally__verdict_word(s->cps[k].verdict));
    tally__plot_open(b, "plot-history", width, HEIGHT, "Trend over the points", &desc);
    tally__svg_axis(b, &y);
    tally__svg_axis(b, &x);
    tally__buf t = TALLY__BUF_INIT;
    tally__buf_puts(b, "<g class=\"levels\">");
    for (size_t k = 0; k < s->cp_count; k++) {
        const tally_changepoint *c = &s->cps[k];
        if (k == 0) {
            level_title(&t, h, s, c->before_first, c->index, c->before, c->before_low,
                        c->before_high);
            level(b, &x.scale, &y.scale, c->before_first, c->index, c->before, c->before_low,
                  c->before_high, t.data ? t.data : "");
        }
        level_title(&t, h, s, c->index, c->after_end, c->after, c->after_low, c->after_high);
        level(b, &x.scale, &y.scale, c->index, c->after_end, c->after, c->after_low,
              c->after_high, t.data ? t.data : "");
    }
    if (t.failed)
        b->failed = 1;
    tally__buf_dispose(&t);
    tally__buf_puts(b, "</g>\n<g class=\"series c0\">");
    points(b, h, s, &x.scale, &y.scale);
    tally__buf_puts(b, "</g>\n");
    changes(b, h, s, &x.scale, TOP, bottom);
    tally__svg_close(b);
    tally__free_mem(tick_values);
    tally__free_mem(tick_text);
    tally__free_mem(tick_buf);
}
