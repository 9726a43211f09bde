/* The percentile spectrum of one case, HdrHistogram style: each configuration's percentiles
 * against 1 / (1 - p) on a logarithmic axis labelled 50 %, 90 %, 99 %, 99.9 %, ..., with the
 * band of each percentile's distribution-free interval. Drawn for percentile rows. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"
#include "stats/cluster_boot.h"
#include "stats/quantile.h"

#define TOP 10.0
#define RIGHT 16.0
#define PLOT_HEIGHT 220.0
#define STEPS_PER_DECADE 8 /* points per factor of 10 in 1 / (1 - p) */
#define MAX_DECADES 6      /* up to p99.9999 */

/* The spectrum's points of one configuration: p_k = 1 - 10^(-k / STEPS), k = 0 (p = 0, the
 * minimum) up to the last p a sample of n runs resolves, 1 - 1/n (beyond it every percentile
 * is the maximum). */
typedef struct spectrum {
    size_t count;
    double x[STEPS_PER_DECADE * MAX_DECADES + 1]; /* log10(1 / (1 - p)) */
    double v[STEPS_PER_DECADE * MAX_DECADES + 1];
    double lo[STEPS_PER_DECADE * MAX_DECADES + 1], hi[STEPS_PER_DECADE * MAX_DECADES + 1];
    int band[STEPS_PER_DECADE * MAX_DECADES + 1];
} spectrum;

static int spectrum_of(spectrum *s, const tally__wsample *w, tally_percentile_method method,
                       double confidence, int bands)
{
    double last = log10((double)w->n);
    s->count = 0;
    for (int k = 0; k <= STEPS_PER_DECADE * MAX_DECADES; k++) {
        double x = (double)k / STEPS_PER_DECADE;
        if (x > last + 1e-9)
            break;
        double p = 100 * (1 - pow(10, -x));
        size_t i = s->count;
        if (tally__wsample_percentile(&s->v[i], w, p, method) != TALLY_OK)
            return 0;
        double level;
        s->band[i] = bands && p > 0 && tally__wsample_percentile_ci(&s->lo[i], &s->hi[i], &level, w, p,
                                                            confidence);
        s->x[i] = x;
        s->count++;
    }
    return s->count >= 2;
}

/* The band of the defined intervals as one closed outline: lower bounds forwards, upper bounds
 * backwards (the intervals are defined on one contiguous run of points: from the p where n
 * values bound it on the low side to where they stop bounding it on the high side). */
static void draw_band(tally__buf *b, const spectrum *s, const tally__svg_scale *xs,
                      const tally__svg_scale *ys)
{
    size_t first = s->count, last = 0;
    for (size_t i = 0; i < s->count; i++)
        if (s->band[i]) {
            first = first < i ? first : i;
            last = i;
        }
    if (first >= s->count || last == first)
        return;
    tally__svg_path_open(b, "box");
    tally__svg_move(b, tally__svg_scale_map(xs, s->x[first]), tally__svg_scale_map(ys, s->lo[first]));
    for (size_t i = first + 1; i <= last; i++)
        if (s->band[i])
            tally__svg_line_to(b, tally__svg_scale_map(xs, s->x[i]), tally__svg_scale_map(ys, s->lo[i]));
    for (size_t i = last + 1; i-- > first;)
        if (s->band[i])
            tally__svg_line_to(b, tally__svg_scale_map(xs, s->x[i]), tally__svg_scale_map(ys, s->hi[i]));
    tally__buf_puts(b, "Z");
    tally__svg_path_close(b);
}

/* The values' range over the row's cells, of samples or of pooled histogram runs, and the
 * largest sample count. */
static int value_range(double *lo, double *hi, size_t *nmax, const tally_report *r,
                       const tally__row *row)
{
    tally__row_sample_range(lo, hi, nmax, r, row);
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        if (!c->pub.present || c->pooled == NULL)
            continue;
        *lo = fmin(*lo, c->pooled->value[0]);
        *hi = fmax(*hi, c->pooled->value[c->pooled->len - 1]);
        *nmax = c->n > *nmax ? c->n : *nmax;
    }
    return *nmax > 0;
}

/* The cell's values as a weighted sample: its samples sorted (*sorted, freed by the caller),
 * or its pooled requests. */
static int cell_sample(tally__wsample *w, double **sorted, const tally__cell *c)
{
    if (c->pooled)
        return tally__wsample_init(w, c->pooled->value, c->pooled->counts, c->pooled->len);
    if (c->samples == NULL)
        return TALLY_ENODATA;
    return tally__wsample_sorted_copy(w, sorted, c->samples, c->n);
}

int tally__plot_spectrum(tally__buf *b, const tally_report *r, const tally__row *row,
                         const tally__si *si)
{
    double vlo, vhi;
    size_t nmax;
    if (row->statistic != TALLY_STAT_PERCENTILE || !value_range(&vlo, &vhi, &nmax, r, row) ||
        nmax < 2)
        return 0;
    spectrum *sp = tally__calloc(r->config_count, sizeof *sp);
    if (sp == NULL) {
        b->failed = 1;
        return 0;
    }
    double xmax = 0;
    int any = 0;
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        tally__wsample w;
        double *sorted = NULL;
        if (!c->pub.present || cell_sample(&w, &sorted, c) != TALLY_OK) {
            tally_error_clear();
            continue;
        }
        /* The order-statistic bands take the values as independent, which pooled requests of
         * several runs are not: drawn for them only when the report was told they are. */
        if (spectrum_of(&sp[j], &w, r->opts.percentile_method, r->opts.confidence,
                        c->pooled == NULL || r->opts.independent_requests)) {
            any = 1;
            xmax = fmax(xmax, sp[j].x[sp[j].count - 1]);
        } else {
            sp[j].count = 0;
            tally_error_clear();
        }
        tally__wsample_free(&w);
        tally__free_mem(sorted);
    }
    if (!any) {
        tally__free_mem(sp);
        return 0;
    }
    double left = 64, width = TALLY__PLOT_WIDTH, bottom = TOP + PLOT_HEIGHT;
    double height = bottom + 44 + 16.0 * (double)r->config_count;
    /* The x axis: decades of 1 / (1 - p), labelled as the percentile they stand for. */
    static const char *const names[] = { "0%", "90%", "99%", "99.9%", "99.99%", "99.999%",
                                         "99.9999%" };
    double tick_at[1 + MAX_DECADES + 1];
    const char *tick_name[1 + MAX_DECADES + 1];
    size_t nt = 0;
    double top_decade = ceil(xmax - 1e-9);
    if (top_decade < 1)
        top_decade = 1;
    tick_at[nt] = log10(2.0);
    tick_name[nt++] = "50%";
    for (int d = 1; d <= (int)top_decade && d <= MAX_DECADES; d++) {
        tick_at[nt] = d;
        tick_name[nt++] = names[d];
    }
    tally__axis xa;
    memset(&xa, 0, sizeof xa);
    xa.scale = (tally__svg_scale){ 0, top_decade, left, width - RIGHT, 0 };
    xa.values = tick_at;
    xa.labels = tick_name;
    xa.value_count = nt;
    xa.pos = bottom;
    xa.grid = PLOT_HEIGHT;
    xa.title = "percentile (axis: 1 / (1 - p), logarithmic)";
    xa.title_pos = bottom + 32;
    tally__axis ya;
    memset(&ya, 0, sizeof ya);
    ya.vertical = 1;
    double ylo = vlo, yhi = vhi;
    for (size_t j = 0; j < r->config_count; j++)
        for (size_t i = 0; i < sp[j].count; i++)
            if (sp[j].band[i]) {
                ylo = fmin(ylo, sp[j].lo[i]);
                yhi = fmax(yhi, sp[j].hi[i]);
            }
    tally__nice_ticks(&ya.ticks, ylo, yhi, 5);
    ya.scale = (tally__svg_scale){ ya.ticks.lo, ya.ticks.hi, bottom, TOP, 0 };
    ya.pos = left;
    ya.grid = width - RIGHT - left;
    ya.unit = row->unit;
    ya.prefix = 1;
    ya.si = si;
    ya.title = row->unit[0] ? NULL : "value";
    ya.title_pos = 14;

    tally__buf desc = TALLY__BUF_INIT;
    tally__buf_printf(&desc, "Percentile spectrum of %s %s by %s: the percentiles of each "
                             "configuration's runs from the minimum to p%g, against 1 / (1 - p) "
                             "on a logarithmic axis, with the band of each percentile's %g %% "
                             "distribution-free interval where the runs give one%s.",
                      row->benchmark, row->case_name,
                      tally_percentile_method_name(r->opts.percentile_method),
                      100 * (1 - pow(10, -xmax)), 100 * r->opts.confidence,
                      tally__report_has_pooled(r) && !r->opts.independent_requests
                          ? " (none for pooled histogram runs, whose requests are not "
                            "independent draws)"
                          : "");
    for (size_t j = 0; j < r->config_count; j++)
        if (sp[j].count) {
            char v[80];
            tally__plot_value(v, sizeof v, row->cells[j].pub.value, row->unit);
            if (row->cells[j].pooled)
                tally__buf_printf(&desc, " %s: %s %s over %zu requests of %zu runs.",
                                  r->configs[j].label, row->stat_name, v, row->cells[j].n,
                                  row->cells[j].hist_runs);
            else
                tally__buf_printf(&desc, " %s: %s %s over %zu runs.", r->configs[j].label,
                                  row->stat_name, v, row->cells[j].n);
        }
    tally__plot_open(b, "plot-spectrum", width, height, "Percentile spectrum", &desc);
    tally__svg_axis(b, &xa);
    tally__svg_axis(b, &ya);
    for (size_t j = 0; j < r->config_count; j++) {
        if (sp[j].count == 0)
            continue;
        tally__buf_printf(b, "<g class=\"series c%zu\">", j % TALLY__PLOT_COLOURS);
        draw_band(b, &sp[j], &xa.scale, &ya.scale);
        tally__svg_path_open(b, "line");
        for (size_t i = 0; i < sp[j].count; i++) {
            double x = tally__svg_scale_map(&xa.scale, sp[j].x[i]);
            double y = tally__svg_scale_map(&ya.scale, sp[j].v[i]);
            if (i == 0)
                tally__svg_move(b, x, y);
            else
                tally__svg_line_to(b, x, y);
        }
        tally__svg_path_close(b);
        /* The legend under the axis title: the configuration's colour and name. */
        double ly = bottom + 52 + 16.0 * (double)j;
        tally__svg_path_open(b, "line");
        tally__svg_hline(b, left, left + 24, ly - 4);
        tally__svg_path_close(b);
        tally__svg_label(b, "row-label", left + 30, ly, "start", r->configs[j].label);
        tally__buf_puts(b, "</g>\n");
    }
    tally__free_mem(sp);
    tally__svg_close(b);
    return 1;
}
