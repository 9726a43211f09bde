/* The sweep plot of a benchmark: the row statistic against the case with its confidence
 * interval, one line per configuration (dots per case when the cases are names). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "util/number.h"

#define LEFT 70.0
#define RIGHT 16.0
#define PLOT_HEIGHT 220.0
#define LEGEND_ROW 18.0
#define CASE_BAND 16.0  /* px per named case at least: room for its upright label */
#define LABEL_MAX 230.0 /* named cases' labels longer than this (px) are shortened */

/* Where the cases go on the x axis: their numbers when every case is named by a distinct
 * number (a sweep), logarithmic when the numbers grow geometrically (1, 2, 4, 8, 16); else
 * their positions 1..count. */
typedef struct xmap {
    double *x;
    int sweep;
    int log;
} xmap;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The number of a case named by one key=number part ("level=3" of hyperfine's parameter scan)
 * with the key every case of the group has: the key is that of the first case. */
static int keyed_number(double *out, const char *name, const char *first)
{
    const char *eq = strchr(first, '=');
    if (eq == NULL || strchr(first, '/') != NULL || strchr(name, '/') != NULL)
        return 0;
    size_t klen = (size_t)(eq - first) + 1;
    return strncmp(name, first, klen) == 0 && tally__case_number(out, name + klen) &&
           strspn(name + klen, "0123456789.-") == strlen(name + klen);
}

static int build_xmap(xmap *m, const tally_report *r, const tally__group *g)
{
    m->x = tally__calloc(g->count * 2, sizeof(double));
    if (m->x == NULL)
        return 0;
    m->sweep = g->count >= 2;
    for (size_t i = 0; i < g->count && m->sweep; i++)
        m->sweep = tally__case_number(&m->x[i], r->rows[g->first + i].case_name);
    if (!m->sweep && g->count >= 2) {
        m->sweep = 1;
        for (size_t i = 0; i < g->count && m->sweep; i++)
            m->sweep = keyed_number(&m->x[i], r->rows[g->first + i].case_name,
                                    r->rows[g->first].case_name);
    }
    if (m->sweep) {
        double *sorted = m->x + g->count;
        memcpy(sorted, m->x, g->count * sizeof(double));
        qsort(sorted, g->count, sizeof(double), cmp_double);
        for (size_t i = 1; i < g->count && m->sweep; i++)
            m->sweep = sorted[i] > sorted[i - 1];
        /* Logarithmic when the span is wide and the cases spread more evenly in log than in
         * linear positions (1, 2, 4, 8, 16: yes; 10, 20, ..., 300: no): the spread measured
         * as the largest gap over the mean gap. */
        m->log = sorted[0] > 0 && sorted[g->count - 1] / sorted[0] >= 8;
        if (m->log) {
            double lin_max = 0, log_max = 0;
            for (size_t i = 1; i < g->count; i++) {
                lin_max = fmax(lin_max, sorted[i] - sorted[i - 1]);
                log_max = fmax(log_max, log(sorted[i] / sorted[i - 1]));
            }
            double n_gaps = (double)(g->count - 1);
            double lin_mean = (sorted[g->count - 1] - sorted[0]) / n_gaps;
            double log_mean = log(sorted[g->count - 1] / sorted[0]) / n_gaps;
            m->log = log_max / log_mean < lin_max / lin_mean;
        }
    }
    if (!m->sweep) {
        m->log = 0;
        for (size_t i = 0; i < g->count; i++)
            m->x[i] = (double)(i + 1);
    }
    return 1;
}

/* The labels of named cases, upwards below the x axis at their ticks (every k-th when the
 * columns are narrower than a label's height), without the common prefix, which the axis title
 * names; shortened ones carry the full name as a tooltip. */
static void rotated_labels(tally__buf *b, const tally_report *r, const tally__group *g,
                           const tally__axis *x, size_t prefix)
{
    double band = (x->scale.r1 - x->scale.r0) / (double)(g->count + 1);
    size_t stride = band >= 13 ? 1 : (size_t)ceil(13 / band);
    tally__buf_puts(b, "<g class=\"case-labels\">");
    for (size_t i = 0; i < g->count; i += stride) {
        const char *name = r->rows[g->first + i].case_name;
        char shown[256];
        tally__plot_shorten(shown, sizeof(shown), name + prefix, LABEL_MAX, 11);
        double at = tally__svg_scale_map(&x->scale, (double)(i + 1));
        tally__plot_case_label(b, "tick-label", at + 4, x->pos + 8, "end", shown, name, 1);
    }
    tally__buf_puts(b, "</g>\n");
}

/* The range of the statistic and its intervals over the cells with a value, and the smallest
 * value; the count of such cells. */
static size_t value_range(double *lo, double *hi, double *vmin, const tally_report *r,
                          const tally__group *g)
{
    size_t values = 0;
    *lo = *vmin = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < g->count; i++) {
        const tally__row *row = &r->rows[g->first + i];
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &row->cells[j];
            if (!c->pub.present || !c->value_defined)
                continue;
            double l, h;
            values++;
            *vmin = fmin(*vmin, c->pub.value);
            *lo = fmin(*lo, c->pub.value);
            *hi = fmax(*hi, c->pub.value);
            if (tally__cell_interval(&l, &h, row, c) ||
                tally__cell_hmean_interval(&l, &h, row, c, r->opts.confidence)) {
                *lo = fmin(*lo, l);
                *hi = fmax(*hi, h);
            }
        }
    }
    return values;
}

/* The legend (a line sample and the label of each configuration) wrapped into rows within
 * `width`: the count of rows; with draw, the legend itself. */
static size_t legend(tally__buf *b, const tally_report *r, double width, int draw)
{
    size_t rows = 1;
    double lx = LEFT, ly = 14;
    if (draw)
        tally__buf_puts(b, "<g class=\"legend\">");
    for (size_t j = 0; j < r->config_count; j++) {
        double w = 30 + tally__svg_text_width(r->configs[j].label, 12) + 16;
        if (lx + w > width - RIGHT && lx > LEFT) {
            rows++;
            ly += LEGEND_ROW;
            lx = LEFT;
        }
        if (draw) {
            tally__buf_printf(b, "<g class=\"series c%zu d%zu\">", j % TALLY__PLOT_COLOURS,
                              j % 5);
            tally__svg_path_open(b, "line");
            tally__svg_hline(b, lx, lx + 24, ly - 4);
            tally__svg_path_close(b);
            tally__svg_path_open(b, "pts");
            tally__svg_dot(b, lx + 12, ly - 4);
            tally__svg_path_close(b);
            tally__svg_label(b, "legend-label", lx + 30, ly, "start", r->configs[j].label);
            tally__buf_puts(b, "</g>");
        }
        lx += w;
    }
    if (draw)
        tally__buf_puts(b, "</g>\n");
    return rows;
}

#define LOG_TICKS (3 * 40)

/* The value axis and what its explicit ticks point to. */
typedef struct value_axis {
    tally__axis y;
    tally__si si;
    double values[LOG_TICKS];
    char text[LOG_TICKS][32];
    const char *labels[LOG_TICKS];
    char title[64];
} value_axis;

/* A logarithmic value axis over [lo, hi]: 1, 5 and 2 times the powers of ten, in that order,
 * each where it keeps 14 px from the ticks already kept; labelled in the table's prefix,
 * computed from the exponent so that 1e-7 s reads "100" ns, not "99.99999999". */
static void log_ticks(value_axis *v, double lo, double hi, double bottom, double top)
{
    /* The margins must not leave the double range: 1.7e308 * 1.15 is inf and a denormal / 1.15
     * can be 0, whose logarithms no int holds (the exponent loop below casts them). */
    double d0 = fmin(fmax(lo / 1.15, DBL_TRUE_MIN), DBL_MAX / 4), d1 = fmin(hi * 1.15, DBL_MAX);
    if (!(d1 > d0))
        d1 = d0 * 2;
    v->y.ticks.lo = d0;
    v->y.ticks.hi = d1;
    v->y.scale = (tally__svg_scale){d0, d1, bottom, top, 1};
    static const double mant[3] = {1, 5, 2};
    int shift = (int)lround(log10(v->si.factor));
    size_t n = 0;
    for (int k = 0; k < 3; k++)
        for (int e = (int)floor(log10(d0)); e <= (int)ceil(log10(d1)) && n < LOG_TICKS; e++) {
            double at_v = mant[k] * pow(10, e);
            if (at_v < d0 || at_v > d1)
                continue;
            double at = tally__svg_scale_map(&v->y.scale, at_v);
            int clear = 1;
            for (size_t t = 0; t < n && clear; t++)
                clear = fabs(tally__svg_scale_map(&v->y.scale, v->values[t]) - at) >= 14;
            if (!clear)
                continue;
            v->values[n] = at_v;
            tally__number_format(v->text[n], mant[k] * pow(10, e - shift));
            v->labels[n] = v->text[n];
            n++;
        }
    v->y.values = v->values;
    v->y.labels = v->labels;
    v->y.value_count = n;
}

/* The value axis: logarithmic for a geometric sweep whose values span more than a factor of 20
 * (hackbench times double with the groups) and for named cases that do (4 ns to 900 us: on a
 * linear axis most would sit on its floor), else linear with nice ticks; in the table's prefix,
 * not one fitted to the axis (a table in ms next to a plot in s would make the reader
 * convert). */
static void value_axis_make(value_axis *v, const tally_report *r, const tally__group *g,
                            const xmap *m, double lo, double hi, double vmin, double top,
                            double bottom, double width)
{
    const tally__row *first = &r->rows[g->first];
    memset(&v->y, 0, sizeof(v->y));
    v->y.vertical = 1;
    tally__group_si(&v->si, r, g);
    int ylog = (m->log && lo > 0 && hi / lo >= 20) || (!m->sweep && vmin > 0 && hi / vmin >= 20);
    if (ylog) {
        /* an interval reaching 0 or below ends at the axis' floor */
        log_ticks(v, fmax(lo, vmin / 2), hi, bottom, top);
        snprintf(v->title, sizeof(v->title), "%s, log scale", first->stat_title);
    } else {
        tally__nice_ticks(&v->y.ticks, lo, hi, 6);
        v->y.scale = (tally__svg_scale){v->y.ticks.lo, v->y.ticks.hi, bottom, top, 0};
        snprintf(v->title, sizeof(v->title), "%s", first->stat_title);
    }
    v->y.pos = LEFT;
    v->y.grid = width - RIGHT - LEFT;
    v->y.title = v->title;
    v->y.unit = first->unit;
    v->y.prefix = 1;
    v->y.si = &v->si;
    v->y.title_pos = 16;
}

static void describe(tally__buf *desc, const tally_report *r, const tally__group *g,
                     const xmap *m)
{
    const tally__row *first = &r->rows[g->first];
    tally__buf_printf(desc, "%s of %s per %s%s, one %s per configuration, with %g%% confidence "
                            "intervals where the statistic has one.",
                      first->stat_title, first->benchmark,
                      tally__report_case_label(r, first->benchmark),
                      m->log ? " (logarithmic axis)" : "", m->sweep ? "line" : "set of dots",
                      r->opts.confidence * 100);
    for (size_t j = 0; j < r->config_count; j++) {
        size_t lo_i = g->count, hi_i = g->count;
        for (size_t i = 0; i < g->count; i++) {
            const tally__cell *c = &r->rows[g->first + i].cells[j];
            if (!c->pub.present || !c->value_defined)
                continue;
            if (lo_i == g->count || c->pub.value < r->rows[g->first + lo_i].cells[j].pub.value)
                lo_i = i;
            if (hi_i == g->count || c->pub.value > r->rows[g->first + hi_i].cells[j].pub.value)
                hi_i = i;
        }
        if (lo_i == g->count) {
            tally__buf_printf(desc, " %s: no values.", r->configs[j].label);
            continue;
        }
        char a[80], z[80];
        tally__plot_value(a, sizeof(a), r->rows[g->first + lo_i].cells[j].pub.value, first->unit);
        tally__plot_value(z, sizeof(z), r->rows[g->first + hi_i].cells[j].pub.value, first->unit);
        tally__buf_printf(desc, " %s: lowest %s at %s, highest %s at %s.", r->configs[j].label,
                          a, r->rows[g->first + lo_i].case_name, z,
                          r->rows[g->first + hi_i].case_name);
    }
}

/* The x axis' ticks of the cases in x order: a sweep's case is labelled when its tick keeps
 * clear of the last labelled one (crowded cases such as 1, 4, 7 on an axis to 296 show every
 * k-th label only); named cases get a tick each and their labels are drawn upwards below the
 * axis (rotated_labels). Returns the count; labels are allocated (NULL-checked by the caller
 * through b->failed). */
static size_t case_ticks(tally__buf *b, double *tick_values, char **labels, const xmap *m,
                         const size_t *order, size_t count, const tally__svg_scale *x)
{
    size_t n = 0;
    double last = -INFINITY;
    for (size_t k = 0; k < count; k++) {
        size_t i = order[k];
        char text[64] = "";
        double at = tally__svg_scale_map(x, m->x[i]);
        if (m->sweep) {
            tally__number_format(text, m->x[i]);
            double room = tally__svg_text_width(text, 11) + 8;
            if (at - last < room)
                continue;
            last = at;
        }
        tick_values[n] = m->x[i];
        labels[n] = tally__strdup(text);
        if (labels[n++] == NULL)
            b->failed = 1;
    }
    return n;
}

/* Configuration j's series: dots, intervals and (for a sweep) the line through the cases in
 * numeric order; dx shifts named cases' dots apart. */
static void series(tally__buf *b, const tally_report *r, const tally__group *g, size_t j,
                   const xmap *m, const size_t *order, const tally__svg_scale *x,
                   const tally__svg_scale *y, double dx)
{
    tally__buf_printf(b, "<g class=\"series c%zu d%zu\">", j % TALLY__PLOT_COLOURS, j % 5);
    if (m->sweep) {
        tally__svg_path_open(b, "line");
        int pen = 0;
        for (size_t k = 0; k < g->count; k++) {
            const tally__cell *c = &r->rows[g->first + order[k]].cells[j];
            if (!c->pub.present || !c->value_defined) {
                pen = 0; /* a missing case breaks the line */
                continue;
            }
            double px = tally__svg_scale_map(x, m->x[order[k]]);
            double py = tally__svg_scale_map(y, c->pub.value);
            if (pen)
                tally__svg_line_to(b, px, py);
            else
                tally__svg_move(b, px, py);
            pen = 1;
        }
        tally__svg_path_close(b);
    }
    tally__svg_path_open(b, "ci");
    for (size_t i = 0; i < g->count; i++) {
        const tally__row *row = &r->rows[g->first + i];
        const tally__cell *c = &row->cells[j];
        double l, h;
        if (!c->value_defined || !(tally__cell_interval(&l, &h, row, c) ||
                                   tally__cell_hmean_interval(&l, &h, row, c,
                                                              r->opts.confidence)))
            continue;
        double px = tally__svg_scale_map(x, m->x[i]) + dx;
        /* An interval beyond the axis (below 0, or below a log axis' floor) ends at it. */
        l = fmin(fmax(l, y->d0), y->d1);
        h = fmin(fmax(h, y->d0), y->d1);
        double yl = tally__svg_scale_map(y, l), yh = tally__svg_scale_map(y, h);
        tally__svg_vline(b, px, yl, yh);
        tally__svg_hline(b, px - 3, px + 3, yl);
        tally__svg_hline(b, px - 3, px + 3, yh);
    }
    tally__svg_path_close(b);
    tally__svg_path_open(b, "pts");
    for (size_t i = 0; i < g->count; i++) {
        const tally__cell *c = &r->rows[g->first + i].cells[j];
        if (c->pub.present && c->value_defined)
            tally__svg_dot(b, tally__svg_scale_map(x, m->x[i]) + dx,
                           tally__svg_scale_map(y, c->pub.value));
    }
    tally__svg_path_close(b);
    tally__buf_puts(b, "</g>\n");
}

/* The widest shown label of named cases (without the common prefix, shortened). */
static double label_height(const tally_report *r, const tally__group *g, size_t prefix)
{
    double h = 0;
    for (size_t i = 0; i < g->count; i++) {
        char shown[256];
        tally__plot_shorten(shown, sizeof(shown), r->rows[g->first + i].case_name + prefix,
                            LABEL_MAX, 11);
        h = fmax(h, tally__svg_text_width(shown, 11));
    }
    return h;
}

int tally__plot_sweep(tally__buf *b, const tally_report *r, const tally__group *g)
{
    const tally__row *first = &r->rows[g->first];
    double lo, hi, vmin;
    if (value_range(&lo, &hi, &vmin, r, g) == 0)
        return 0;
    /* Statistics of positive data never go below 0: an interval reaching below is cut at 0. */
    if (vmin >= 0)
        lo = fmax(lo, 0);
    xmap m;
    if (!build_xmap(&m, r, g)) {
        b->failed = 1;
        return 0;
    }
    /* Named cases: every case a column of at least CASE_BAND px, labelled upwards along it
     * without the common prefix, shortened in the middle to LABEL_MAX. */
    size_t prefix = m.sweep ? 0 : tally__case_prefix(r, g);
    double width = m.sweep ? TALLY__PLOT_WIDTH
                           : fmax(TALLY__PLOT_WIDTH,
                                  LEFT + RIGHT + CASE_BAND * (double)(g->count + 1));
    double label_h = m.sweep ? 0 : label_height(r, g, prefix);
    double top = LEGEND_ROW * (double)legend(NULL, r, width, 0) + 8;
    double bottom = top + PLOT_HEIGHT;
    double height = bottom + 44 + label_h;
    value_axis v;
    value_axis_make(&v, r, g, &m, lo, hi, vmin, top, bottom, width);

    double xlo = INFINITY, xhi = -INFINITY;
    for (size_t i = 0; i < g->count; i++) {
        xlo = fmin(xlo, m.x[i]);
        xhi = fmax(xhi, m.x[i]);
    }
    tally__axis x;
    memset(&x, 0, sizeof(x));
    double pad = m.log ? 0 : (xhi > xlo ? (xhi - xlo) * 0.03 : 0.5);
    if (!m.sweep)
        pad = 0.5;
    x.scale = (tally__svg_scale){m.log ? xlo / 1.15 : xlo - pad, m.log ? xhi * 1.15 : xhi + pad,
                             LEFT, width - RIGHT, m.log};
    x.pos = bottom;
    char xtitle[192];
    tally__case_axis_title(xtitle, sizeof(xtitle), r, g);
    if (prefix > 0) { /* the part every name shares, left out of the labels */
        size_t at = strlen(xtitle);
        tally__snprintf_c(xtitle + at, sizeof(xtitle) - at, " (cases %.*s\xe2\x80\xa6)",
                          (int)(prefix < 64 ? prefix : 64), first->case_name);
    }
    x.title = xtitle;
    x.title_pos = bottom + 36 + label_h;
    /* The cases in x order (insertion sort: a few dozen cases, a few hundred at most). */
    size_t *order = tally__calloc(g->count, sizeof(size_t));
    double *tick_values = tally__calloc(g->count, sizeof(double));
    char **labels = tally__calloc(g->count, sizeof(char *));
    if (order == NULL || tick_values == NULL || labels == NULL) {
        b->failed = 1;
        tally__free_mem(order);
        tally__free_mem(tick_values);
        tally__free_mem(labels);
        tally__free_mem(m.x);
        return 0;
    }
    for (size_t i = 0; i < g->count; i++) {
        size_t k = i;
        while (k > 0 && m.x[order[k - 1]] > m.x[i]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    size_t nlabels = case_ticks(b, tick_values, labels, &m, order, g->count, &x.scale);
    x.values = tick_values;
    x.labels = (const char *const *)labels;
    x.value_count = b->failed ? 0 : nlabels;

    tally__buf desc = TALLY__BUF_INIT;
    describe(&desc, r, g, &m);
    tally__plot_open(b, "plot-sweep", width, height,
                     m.sweep ? "Statistic across the sweep" : "Statistic per case", &desc);
    tally__svg_axis(b, &v.y);
    tally__svg_axis(b, &x);
    if (!m.sweep)
        rotated_labels(b, r, g, &x, prefix);
    legend(b, r, width, 1);
    double band = (width - RIGHT - LEFT) / (double)(g->count + 1);
    double offset_step = m.sweep ? 0 : fmin(6, band * 0.6 / (double)r->config_count);
    for (size_t j = 0; j < r->config_count; j++)
        series(b, r, g, j, &m, order, &x.scale, &v.y.scale,
               offset_step * ((double)j - (double)(r->config_count - 1) / 2));
    tally__svg_close(b);
    for (size_t k = 0; k < nlabels; k++)
        tally__free_mem(labels[k]);
    tally__free_mem(labels);
    tally__free_mem(tick_values);
    tally__free_mem(order);
    tally__free_mem(m.x);
    return 1;
}
