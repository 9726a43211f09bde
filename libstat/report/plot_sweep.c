/* The sweep plot of a benchmark: the row statistic against the case with its confidence
 * interval, one line per configuration (dots per case when the cases are names). */
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

static int build_xmap(xmap *m, const tally_report *r, const tally__group *g)
{
    m->x = tally__calloc(g->count * 2, sizeof(double));
    if (m->x == NULL)
        return 0;
    m->sweep = g->count >= 2;
    for (size_t i = 0; i < g->count && m->sweep; i++)
        m->sweep = tally__case_number(&m->x[i], r->rows[g->first + i].case_name);
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

int tally__plot_sweep(tally__buf *b, const tally_report *r, const tally__group *g)
{
    const tally__row *first = &r->rows[g->first];
    double lo = INFINITY, hi = -INFINITY;
    size_t values = 0;
    for (size_t i = 0; i < g->count; i++) {
        const tally__row *row = &r->rows[g->first + i];
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &row->cells[j];
            if (!c->pub.present || !c->value_defined)
                continue;
            double l, h;
            values++;
            lo = fmin(lo, c->pub.value);
            hi = fmax(hi, c->pub.value);
            if (tally__cell_interval(&l, &h, row, c)) {
                lo = fmin(lo, l);
                hi = fmax(hi, h);
            }
        }
    }
    if (values == 0)
        return 0;
    xmap m;
    if (!build_xmap(&m, r, g)) {
        b->failed = 1;
        return 0;
    }
    double width = TALLY__PLOT_WIDTH;
    /* Legend: a line sample and the label of each configuration, wrapped into rows. */
    size_t legend_rows = 1;
    double lx = LEFT;
    for (size_t j = 0; j < r->config_count; j++) {
        double w = 30 + tally__svg_text_width(r->configs[j].label, 12) + 16;
        if (lx + w > width - RIGHT && lx > LEFT) {
            legend_rows++;
            lx = LEFT;
        }
        lx += w;
    }
    double top = LEGEND_ROW * (double)legend_rows + 8;
    double bottom = top + PLOT_HEIGHT;
    double height = bottom + 44;

    tally__axis y;
    memset(&y, 0, sizeof(y));
    y.vertical = 1;
    /* The table's prefix, not one fitted to this axis: a table in ms next to a plot in s
     * would make the reader convert. */
    tally__si si;
    tally__group_si(&si, r, g);
    /* A geometric sweep whose values span more than an order of magnitude gets a logarithmic
     * value axis too (hackbench times double with the groups): every case stays readable. */
    int ylog = m.log && lo > 0 && hi / lo >= 20;
    double yvalues[3 * 40];
    char ylabel_text[3 * 40][32];
    const char *ylabels[3 * 40];
    char ytitle[64];
    size_t ycount = 0;
    if (ylog) {
        double d0 = lo / 1.15, d1 = hi * 1.15;
        y.ticks.lo = d0;
        y.ticks.hi = d1;
        static const double mant[3] = {1, 2, 5};
        for (int e = (int)floor(log10(d0)); e <= (int)ceil(log10(d1)) && ycount < 3 * 40; e++)
            for (int k = 0; k < 3 && ycount < 3 * 40; k++) {
                double v = mant[k] * pow(10, e);
                if (v < d0 || v > d1)
                    continue;
                yvalues[ycount] = v;
                tally__number_format(ylabel_text[ycount], v / si.factor);
                ylabels[ycount] = ylabel_text[ycount];
                ycount++;
            }
        y.values = yvalues;
        y.labels = ylabels;
        y.value_count = ycount;
        y.scale = (tally__svg_scale){d0, d1, bottom, top, 1};
        snprintf(ytitle, sizeof(ytitle), "%s, log scale", first->stat_title);
    } else {
        tally__nice_ticks(&y.ticks, lo, hi, 6);
        y.scale = (tally__svg_scale){y.ticks.lo, y.ticks.hi, bottom, top, 0};
        snprintf(ytitle, sizeof(ytitle), "%s", first->stat_title);
    }
    y.pos = LEFT;
    y.grid = width - RIGHT - LEFT;
    y.title = ytitle;
    y.unit = first->unit;
    y.prefix = 1;
    y.si = &si;
    y.title_pos = 16;

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
    x.title = tally__report_case_label(r, first->benchmark);
    x.title_pos = bottom + 36;
    /* The cases in x order (insertion sort: a few dozen cases, a few hundred at most). */
    size_t *order = tally__calloc(g->count, sizeof(size_t));
    size_t nlabels = 0;
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
    /* A case is labelled when its tick keeps clear of the last labelled one (names get the
     * room of their text, names cut to 8 or 14 characters): crowded cases of a sweep (1, 4, 7
     * on an axis to 296) or hundreds of named cases show every k-th label only. */
    size_t max_name = g->count > 6 ? 8 : 14;
    double last = -INFINITY;
    for (size_t k = 0; k < g->count; k++) {
        size_t i = order[k];
        const char *name = r->rows[g->first + i].case_name;
        char text[64];
        if (m.sweep)
            tally__number_format(text, m.x[i]);
        else {
            /* Long names are cut: the table and the case sections carry them whole. */
            size_t bytes = 0, chars = 0;
            while (name[bytes] && chars < max_name) {
                bytes++;
                while ((name[bytes] & 0xC0) == 0x80)
                    bytes++;
                chars++;
            }
            snprintf(text, sizeof(text), "%.*s%s", (int)bytes, name,
                     name[bytes] ? "\xe2\x80\xa6" : "");
        }
        double at = tally__svg_scale_map(&x.scale, m.x[i]);
        double room = tally__svg_text_width(text, 11) + 8;
        if (at - last < room)
            continue;
        last = at;
        tick_values[nlabels] = m.x[i];
        labels[nlabels] = tally__strdup(text);
        if (labels[nlabels++] == NULL)
            b->failed = 1;
    }
    x.values = tick_values;
    x.labels = (const char *const *)labels;
    x.value_count = b->failed ? 0 : nlabels;

    tally__buf desc = TALLY__BUF_INIT;
    tally__buf_printf(&desc, "%s of %s per %s%s, one %s per configuration, with %g%% confidence "
                             "intervals where the statistic has one.",
                      first->stat_title, first->benchmark,
                      tally__report_case_label(r, first->benchmark),
                      m.log ? " (logarithmic axis)" : "", m.sweep ? "line" : "set of dots",
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
            tally__buf_printf(&desc, " %s: no values.", r->configs[j].label);
            continue;
        }
        char a[80], z[80];
        tally__plot_value(a, sizeof(a), r->rows[g->first + lo_i].cells[j].pub.value, first->unit);
        tally__plot_value(z, sizeof(z), r->rows[g->first + hi_i].cells[j].pub.value, first->unit);
        tally__buf_printf(&desc, " %s: lowest %s at %s, highest %s at %s.", r->configs[j].label,
                          a, r->rows[g->first + lo_i].case_name, z,
                          r->rows[g->first + hi_i].case_name);
    }
    tally__plot_open(b, "plot-sweep", width, height,
                     m.sweep ? "Statistic across the sweep" : "Statistic per case", &desc);
    tally__svg_axis(b, &y);
    tally__svg_axis(b, &x);

    /* Legend. */
    tally__buf_puts(b, "<g class=\"legend\">");
    lx = LEFT;
    double ly = 14;
    for (size_t j = 0; j < r->config_count; j++) {
        double w = 30 + tally__svg_text_width(r->configs[j].label, 12) + 16;
        if (lx + w > width - RIGHT && lx > LEFT) {
            ly += LEGEND_ROW;
            lx = LEFT;
        }
        tally__buf_printf(b, "<g class=\"series c%zu d%zu\">", j % TALLY__PLOT_COLOURS, j % 5);
        tally__svg_path_open(b, "line");
        tally__svg_hline(b, lx, lx + 24, ly - 4);
        tally__svg_path_close(b);
        tally__svg_path_open(b, "pts");
        tally__svg_dot(b, lx + 12, ly - 4);
        tally__svg_path_close(b);
        tally__svg_label(b, "legend-label", lx + 30, ly, "start", r->configs[j].label);
        tally__buf_puts(b, "</g>");
        lx += w;
    }
    tally__buf_puts(b, "</g>\n");

    /* Series: dots, intervals and (for a sweep) the line through the cases in numeric order. */
    double band = (width - RIGHT - LEFT) / (double)(g->count + 1);
    double offset_step = m.sweep ? 0 : fmin(6, band * 0.6 / (double)r->config_count);
    for (size_t j = 0; j < r->config_count; j++) {
        double dx = offset_step * ((double)j - (double)(r->config_count - 1) / 2);
        tally__buf_printf(b, "<g class=\"series c%zu d%zu\">", j % TALLY__PLOT_COLOURS, j % 5);
        if (m.sweep) {
            tally__svg_path_open(b, "line");
            int pen = 0;
            for (size_t k = 0; k < g->count; k++) {
                const tally__cell *c = &r->rows[g->first + order[k]].cells[j];
                if (!c->pub.present || !c->value_defined) {
                    pen = 0; /* a missing case breaks the line */
                    continue;
                }
                double px = tally__svg_scale_map(&x.scale, m.x[order[k]]);
                double py = tally__svg_scale_map(&y.scale, c->pub.value);
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
            if (!c->value_defined || !tally__cell_interval(&l, &h, row, c))
                continue;
            double px = tally__svg_scale_map(&x.scale, m.x[i]) + dx;
            double yl = tally__svg_scale_map(&y.scale, l), yh = tally__svg_scale_map(&y.scale, h);
            tally__svg_vline(b, px, yl, yh);
            tally__svg_hline(b, px - 3, px + 3, yl);
            tally__svg_hline(b, px - 3, px + 3, yh);
        }
        tally__svg_path_close(b);
        tally__svg_path_open(b, "pts");
        for (size_t i = 0; i < g->count; i++) {
            const tally__cell *c = &r->rows[g->first + i].cells[j];
            if (c->pub.present && c->value_defined)
                tally__svg_dot(b, tally__svg_scale_map(&x.scale, m.x[i]) + dx,
                               tally__svg_scale_map(&y.scale, c->pub.value));
        }
        tally__svg_path_close(b);
        tally__buf_puts(b, "</g>\n");
    }
    tally__svg_close(b);
    for (size_t k = 0; k < nlabels; k++)
        tally__free_mem(labels[k]);
    tally__free_mem(labels);
    tally__free_mem(tick_values);
    tally__free_mem(order);
    tally__free_mem(m.x);
    return 1;
}
