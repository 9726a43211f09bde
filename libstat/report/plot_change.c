/* The change plot of a benchmark: pct-imp of every case against the baseline, a panel per
 * compared configuration; the mark's shape and colour tell the verdict. The change axis is the
 * logarithm of the gain (base/new where lower is better, new/base where higher is), labelled
 * in percent: 2x slower (-100 %) and 2x faster (+50 %) lie equally far from 0, and one -600 %
 * row does not squash the -2 to -15 % ones onto the zero line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"

#define RIGHT 16.0
#define TOP 26.0
#define PANEL_GAP 30.0
#define MIN_PANEL 150.0
#define MARK_TITLES 100 /* up to this many cases, every mark has its own tooltip */
#define LABEL_MAX 240.0 /* case labels longer than this (px) are shortened in the middle */
#define TICK_MAX 24     /* candidate ticks of the change axis */

/* A mark: a filled dot for a significant change, a filled diamond for an equivalent one, a
 * ring for an inconclusive or untested one, a square for too few samples: the shape says what
 * the colour says. */
static void mark(tally__buf *b, double x, double y, double size, const tally_comparison *cmp,
                 const char *tip)
{
    const char *cls = tally__verdict_class(cmp->verdict);
    const char *close = "</circle>";
    if (cmp->verdict == TALLY_VERDICT_INSUFFICIENT) {
        tally__buf_printf(b, "<rect class=\"mark %s\" x=\"", cls);
        tally__svg_num(b, x - size);
        tally__buf_puts(b, "\" y=\"");
        tally__svg_num(b, y - size);
        tally__buf_puts(b, "\" width=\"");
        tally__svg_num(b, 2 * size);
        tally__buf_puts(b, "\" height=\"");
        tally__svg_num(b, 2 * size);
        close = "</rect>";
    } else if (cmp->verdict == TALLY_VERDICT_EQUIVALENT) {
        double d = size * 1.3;
        tally__buf_printf(b, "<path class=\"mark %s\" d=\"", cls);
        tally__svg_move(b, x - d, y);
        tally__svg_line_to(b, x, y - d);
        tally__svg_line_to(b, x + d, y);
        tally__svg_line_to(b, x, y + d);
        tally__buf_puts(b, "Z");
        close = "</path>";
    } else {
        tally__buf_printf(b, "<circle class=\"mark %s\" cx=\"", cls);
        tally__svg_num(b, x);
        tally__buf_puts(b, "\" cy=\"");
        tally__svg_num(b, y);
        tally__buf_puts(b, "\" r=\"");
        tally__svg_num(b, size);
    }
    if (tip) {
        tally__buf_puts(b, "\"><title>");
        tally__svg_text(b, tip);
        tally__buf_printf(b, "</title>%s", close);
    } else {
        tally__buf_puts(b, "\"/>");
    }
}

/* The interval a row's verdict used: the TOST interval (1 - 2 alpha) on rows judged against
 * the equivalence band (equivalent, or not significant with a margin), else the interval of the
 * test. 0 when there is none to draw. */
static int verdict_interval(double *lo, double *hi, const tally_comparison *cmp)
{
    if (cmp->equivalence_defined && (cmp->verdict == TALLY_VERDICT_EQUIVALENT ||
                                     cmp->verdict == TALLY_VERDICT_INCONCLUSIVE)) {
        *lo = cmp->equivalence_low;
        *hi = cmp->equivalence_high;
    } else if (cmp->interval_defined) {
        *lo = cmp->pct_low;
        *hi = cmp->pct_high;
    } else {
        return 0;
    }
    return isfinite(*lo) && isfinite(*hi);
}

/* A change in percent (positive is better) as the position on the change axis: the log of the
 * gain. A change beyond what a gain can express (-100 % of higher-is-better, +100 % of
 * lower-is-better, or beyond an interval's unbounded end) is infinite; callers clamp it. */
static double gain_log(double pct, tally_direction dir)
{
    double ratio = dir == TALLY_HIGHER_IS_BETTER ? 1 + pct / 100 : 1 - pct / 100; /* new/base */
    if (!(ratio > 0))
        return dir == TALLY_HIGHER_IS_BETTER ? -INFINITY : INFINITY;
    return dir == TALLY_HIGHER_IS_BETTER ? log(ratio) : -log(ratio);
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Ticks of the change axis on [d0, d1] (log gain) mapped to [r0, r1] px: 0 and percentages of
 * either sign that fall inside, the roundest first (1, 10, 100 and 50 times a power of ten,
 * then 5, then 2, 20 and 75, 90, 95, 99 on the side bounded by -100 % or +100 %), each kept
 * when its label keeps clear of those already kept. Returns the count, in axis order; `values`
 * holds positions, `text` the labels ("-100", "50"). */
static size_t change_ticks(double *values, char (*text)[16], double d0, double d1, double r0,
                           double r1, tally_direction dir)
{
    static const double mags[] = { 1, 10, 100, 1000, 10000, 50, 0.1, 5, 500, 5000, 0.5, 2, 20,
                                   200, 2000, 20000, 0.2, 75, 90, 95, 99 };
    double px_per = (r1 - r0) / (d1 - d0);
    size_t n = 0;
    values[n] = 0;
    tally__snprintf_c(text[n++], sizeof(text[0]), "0");
    for (size_t k = 0; k < TALLY__COUNT(mags); k++)
        for (int sign = -1; sign <= 1 && n < TICK_MAX; sign += 2) {
            double pct = sign * mags[k];
            /* 75 .. 99 only where the side is bounded: they are the gains 4x .. 100x there. */
            int bounded = dir == TALLY_HIGHER_IS_BETTER ? sign < 0 : sign > 0;
            if (mags[k] >= 75 && mags[k] < 100 && !bounded)
                continue;
            double v = gain_log(pct, dir);
            if (!isfinite(v) || v < d0 || v > d1)
                continue;
            char label[16];
            tally__snprintf_c(label, sizeof(label), "%g", pct);
            int clear = 1;
            for (size_t e = 0; e < n && clear; e++) {
                double room = (tally__svg_text_width(label, 11) +
                               tally__svg_text_width(text[e], 11)) / 2 + 8;
                clear = fabs(v - values[e]) * px_per >= room;
            }
            if (!clear)
                continue;
            /* Insert in axis order. */
            size_t at = n;
            while (at > 0 && values[at - 1] > v) {
                values[at] = values[at - 1];
                memcpy(text[at], text[at - 1], sizeof(text[0]));
                at--;
            }
            values[at] = v;
            memcpy(text[at], label, sizeof(label));
            n++;
        }
    return n;
}

/* The legend's marks: every verdict a mark can show, in words. */
static const tally_verdict keys[] = {TALLY_VERDICT_IMPROVEMENT, TALLY_VERDICT_REGRESSION,
                                   TALLY_VERDICT_EQUIVALENT, TALLY_VERDICT_INCONCLUSIVE,
                                   TALLY_VERDICT_NOT_TESTED, TALLY_VERDICT_INSUFFICIENT,
                                   TALLY_VERDICT_IDENTICAL, TALLY_VERDICT_WITHIN_NOISE};
static const char *const words[] = {"significant improvement", "significant regression",
                                  "equivalent", "inconclusive", "not tested",
                                  "too few samples", "no change (identical)",
                                  "within noise"};

/* What the change plot's parts share: the axis' domain (log gain) and the geometry. */
typedef struct layout {
    tally_direction dir;
    double margin;         /* the equivalence margin in %, 0 without */
    double lo, hi;         /* the change axis' domain */
    int tost;              /* a row was judged against the band */
    int present[16];       /* by verdict value: the legend shows it */
    size_t marks;
    size_t prefix;         /* bytes of the case names' common prefix */
    double row_h, size;    /* a case's row height, a mark's radius */
    size_t stride;         /* every k-th case labelled */
    double left, width, panel_w, bottom, height;
} layout;

static void widen(layout *L, double v)
{
    if (isfinite(v)) {
        L->lo = fmin(L->lo, v);
        L->hi = fmax(L->hi, v);
    }
}

/* The axis' domain over every mark and interval (and the margin), with room on both sides of
 * 0; the verdicts present. */
static void domain(layout *L, const tally_report *r, const tally__group *g)
{
    L->dir = r->rows[g->first].direction;
    /* The axis always shows 0 (no change) and the equivalence margin when there is one. */
    L->margin = r->opts.equivalence_pct > 0 ? r->opts.equivalence_pct : 0;
    L->lo = fmin(gain_log(-L->margin, L->dir), gain_log(L->margin, L->dir));
    L->hi = fmax(gain_log(-L->margin, L->dir), gain_log(L->margin, L->dir));
    L->present[TALLY_VERDICT_IMPROVEMENT] = L->present[TALLY_VERDICT_REGRESSION] = 1;
    L->present[TALLY_VERDICT_INCONCLUSIVE] = L->present[TALLY_VERDICT_INSUFFICIENT] = 1;
    for (size_t i = 0; i < g->count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell *c = &r->rows[g->first + i].cells[j];
            const tally_comparison *cmp = &c->pub.comparison;
            if (!c->pub.compared || !cmp->ratio_defined)
                continue;
            widen(L, gain_log(cmp->pct_imp, cmp->direction));
            double l, h;
            if (verdict_interval(&l, &h, cmp)) {
                widen(L, gain_log(l, cmp->direction));
                widen(L, gain_log(h, cmp->direction));
            }
            L->tost |= cmp->equivalence_defined && (cmp->verdict == TALLY_VERDICT_EQUIVALENT ||
                                                    cmp->verdict == TALLY_VERDICT_INCONCLUSIVE);
            if ((unsigned)cmp->verdict < TALLY__COUNT(L->present))
                L->present[cmp->verdict] = 1;
            L->marks++;
        }
    /* At least +-1 % on either side, and room around the outermost marks. */
    L->lo = fmin(L->lo, -0.01);
    L->hi = fmax(L->hi, 0.01);
    /* Changes all on one side still leave the other a tenth of the axis: 0 is not its edge. */
    double span = L->hi - L->lo;
    L->lo = fmin(L->lo, -0.1 * span);
    L->hi = fmax(L->hi, 0.1 * span);
    double pad = (L->hi - L->lo) * 0.04;
    L->lo -= pad;
    L->hi += pad;
}

/* Rows of the legend wrapped within the plot's width; with draw, the legend itself. */
static size_t legend(tally__buf *b, const layout *L, int draw)
{
    size_t rows = 1;
    double lx = L->left, ly = L->bottom + 62;
    if (draw)
        tally__buf_puts(b, "<g class=\"legend\">");
    for (size_t k = 0; k < TALLY__COUNT(keys); k++) {
        if (!L->present[keys[k]])
            continue;
        double w = 14 + tally__svg_text_width(words[k], 12) + 18;
        if (lx + w > L->width - RIGHT && lx > L->left) { /* wrap rather than run off the plot */
            lx = L->left;
            ly += 18;
            rows++;
        }
        if (draw) {
            tally_comparison key;
            memset(&key, 0, sizeof(key));
            key.verdict = keys[k];
            mark(b, lx + 5, ly - 4, 4, &key, NULL);
            tally__svg_label(b, "legend-label", lx + 14, ly, "start", words[k]);
        }
        lx += w;
    }
    if (draw)
        tally__buf_puts(b, "</g>\n");
    return rows;
}

/* Rows, the label column (as wide as the widest shown label), panels and the height. */
static void geometry(layout *L, const tally_report *r, const tally__group *g)
{
    size_t panels = r->config_count - 1;
    /* Row height per case: every case a labelled row up to ~40 cases, then thinner rows (down to
     * 3 px: 300 cases in 900 px) with every k-th case labelled. */
    L->row_h = fmin(20, fmax(3, 600.0 / (double)g->count));
    L->stride = L->row_h >= 14 ? 1 : (size_t)ceil(15.0 / L->row_h);
    L->size = fmin(5, fmax(2, L->row_h / 3));
    /* The labels without the cases' common prefix (named once above them), long ones shortened
     * in the middle. */
    L->prefix = tally__case_prefix(r, g);
    double label_w = 0;
    for (size_t i = 0; i < g->count; i += L->stride) {
        char shown[256];
        tally__plot_shorten(shown, sizeof(shown), r->rows[g->first + i].case_name + L->prefix,
                            LABEL_MAX, 11);
        label_w = fmax(label_w, tally__svg_text_width(shown, 11));
    }
    L->left = fmax(label_w, 30) + 12;
    /* A single panel gets the room of the plot's usual width whatever the labels take. */
    double min_panel = panels == 1 ? TALLY__PLOT_WIDTH - 200 : MIN_PANEL;
    L->width = fmax(TALLY__PLOT_WIDTH, L->left + (double)panels * (min_panel + PANEL_GAP));
    L->panel_w = (L->width - L->left - RIGHT - PANEL_GAP * (double)(panels - 1)) / (double)panels;
    L->bottom = TOP + L->row_h * (double)g->count;
    L->height = L->bottom + 74 + 18 * (double)(legend(NULL, L, 0) - 1) + (L->margin > 0 ? 18 : 0);
}

static void describe(tally__buf *desc, const tally_report *r, const tally__group *g)
{
    tally__buf_printf(desc, "Change of %s against the baseline %s per case, in percent, "
                            "positive is better, on a logarithmic scale of the ratio: a filled "
                            "dot is a significant improvement (green) or regression (red), a "
                            "ring no significant change, a square too few samples for the test.",
                      r->rows[g->first].benchmark, r->configs[0].label);
    for (size_t j = 1; j < r->config_count; j++) {
        size_t imp = 0, reg = 0, none = 0, insuf = 0;
        for (size_t i = 0; i < g->count; i++) {
            const tally__cell *c = &r->rows[g->first + i].cells[j];
            if (!c->pub.compared)
                continue;
            tally_verdict v = c->pub.comparison.verdict;
            imp += v == TALLY_VERDICT_IMPROVEMENT;
            reg += v == TALLY_VERDICT_REGRESSION;
            insuf += v == TALLY_VERDICT_INSUFFICIENT;
            none += v == TALLY_VERDICT_NO_CHANGE;
        }
        tally__buf_printf(desc, " %s: %zu improvements, %zu regressions, %zu without "
                                "significant change, %zu with too few samples.",
                          r->configs[j].label, imp, reg, none, insuf);
    }
}

/* Case labels on the left, shared by the panels; the common prefix above them. */
static void case_labels(tally__buf *b, const layout *L, const tally_report *r,
                        const tally__group *g)
{
    tally__buf_puts(b, "<g class=\"cases\">");
    if (L->prefix > 0) {
        tally__buf lead = TALLY__BUF_INIT;
        tally__buf_printf(&lead, "%.*s\xe2\x80\xa6", (int)L->prefix, r->rows[g->first].case_name);
        if (lead.failed) {
            b->failed = 1;
        } else {
            char shown[256];
            tally__plot_shorten(shown, sizeof(shown), lead.data, L->left - 8, 11);
            tally__plot_case_label(b, "prefix-label", L->left - 8, TOP - 10, "end", shown,
                                   lead.data, 0);
        }
        tally__buf_dispose(&lead);
    }
    for (size_t i = 0; i < g->count; i += L->stride) {
        const char *name = r->rows[g->first + i].case_name;
        char shown[256];
        tally__plot_shorten(shown, sizeof(shown), name + L->prefix, LABEL_MAX, 11);
        tally__plot_case_label(b, "row-label", L->left - 8,
                               TOP + L->row_h * ((double)i + 0.5) + 4, "end", shown, name, 0);
    }
    tally__buf_puts(b, "</g>\n");
}

/* One case's interval bar and mark in a panel on scale x. */
static void case_mark(tally__buf *b, const layout *L, const tally__svg_scale *x,
                      const tally__row *row, const tally_comparison *cmp, double yc, int tips)
{
    double ci_lo = 0, ci_hi = 0;
    int ci = verdict_interval(&ci_lo, &ci_hi, cmp);
    if (ci) {
        /* An end beyond the axis (an unbounded ratio interval) stops at its edge. */
        double x_lo = tally__svg_scale_map(x, clamp(gain_log(ci_lo, cmp->direction), L->lo, L->hi));
        double x_hi = tally__svg_scale_map(x, clamp(gain_log(ci_hi, cmp->direction), L->lo, L->hi));
        double cap = fmin(4, L->row_h / 3);
        tally__buf_printf(b, "<path class=\"ci %s\" d=\"", tally__verdict_class(cmp->verdict));
        tally__svg_hline(b, x_lo, x_hi, yc);
        tally__svg_vline(b, x_lo, yc - cap, yc + cap);
        tally__svg_vline(b, x_hi, yc - cap, yc + cap);
        tally__svg_path_close(b);
    }
    char tip[512];
    if (ci)
        tally__snprintf_c(tip, sizeof(tip), "%s: %+.2f%% [%+.2f, %+.2f], %s", row->case_name,
                          cmp->pct_imp, ci_lo, ci_hi, tally__verdict_word(cmp->verdict));
    else
        tally__snprintf_c(tip, sizeof(tip), "%s: %+.2f%%, %s", row->case_name, cmp->pct_imp,
                          tally__verdict_word(cmp->verdict));
    double at = clamp(gain_log(cmp->pct_imp, cmp->direction), L->lo, L->hi);
    mark(b, tally__svg_scale_map(x, at), yc, L->size, cmp, tips ? tip : NULL);
}

/* The panel of configuration j: its label, the band, the axis, the zero line and the marks. */
static void panel(tally__buf *b, const layout *L, const tally_report *r, const tally__group *g,
                  size_t j, const tally__axis *ticks)
{
    double x0 = L->left + (double)(j - 1) * (L->panel_w + PANEL_GAP);
    tally__axis x = *ticks;
    x.scale = (tally__svg_scale){L->lo, L->hi, x0, x0 + L->panel_w, 0};
    tally__buf_printf(b, "<g class=\"panel\">");
    tally__svg_label(b, "panel-label", x0 + L->panel_w / 2, TOP - 10, "middle",
                     r->configs[j].label);
    if (L->margin > 0) /* the equivalence band under everything else */
        tally__svg_rect(b, "band", tally__svg_scale_map(&x.scale, gain_log(-L->margin, L->dir)),
                        TOP, tally__svg_scale_map(&x.scale, gain_log(L->margin, L->dir)),
                        L->bottom);
    tally__svg_axis(b, &x);
    tally__svg_path_open(b, "zero");
    tally__svg_vline(b, tally__svg_scale_map(&x.scale, 0), TOP, L->bottom);
    tally__svg_path_close(b);
    for (size_t i = 0; i < g->count; i++) {
        const tally__row *row = &r->rows[g->first + i];
        const tally__cell *c = &row->cells[j];
        double yc = TOP + L->row_h * ((double)i + 0.5);
        if (c->pub.compared && c->pub.comparison.ratio_defined)
            case_mark(b, L, &x.scale, row, &c->pub.comparison, yc, g->count <= MARK_TITLES);
        else if (L->row_h >= 12)
            tally__svg_label(b, "note", x0 + 4, yc + 4, "start",
                             c->pub.present && row->cells[0].pub.present ? "n/a" : "missing");
    }
    tally__buf_puts(b, "</g>\n");
}

int tally__plot_change(tally__buf *b, const tally_report *r, const tally__group *g)
{
    if (r->opts.summaries_only || r->config_count < 2)
        return 0;
    layout L;
    memset(&L, 0, sizeof(L));
    domain(&L, r, g);
    if (L.marks == 0)
        return 0;
    geometry(&L, r, g);

    double tick_values[TICK_MAX];
    char tick_text[TICK_MAX][16];
    const char *tick_labels[TICK_MAX];
    tally__axis x; /* the panels' axis without its scale; one title under all the panels */
    memset(&x, 0, sizeof(x));
    x.value_count = change_ticks(tick_values, tick_text, L.lo, L.hi, 0, L.panel_w, L.dir);
    for (size_t k = 0; k < x.value_count; k++)
        tick_labels[k] = tick_text[k];
    x.values = tick_values;
    x.labels = tick_labels;
    x.pos = L.bottom;
    x.grid = L.bottom - TOP;

    tally__buf desc = TALLY__BUF_INIT;
    describe(&desc, r, g);
    tally__plot_open(b, "plot-change", L.width, L.height, "Change against the baseline", &desc);
    case_labels(b, &L, r, g);
    for (size_t j = 1; j < r->config_count; j++)
        panel(b, &L, r, g, j, &x);
    tally__buf_puts(b, "<g class=\"axis x-title\">");
    tally__svg_label(b, "axis-title", (L.left + L.width - RIGHT) / 2, L.bottom + 34, "middle",
                     "change, positive is better (%, log-ratio scale)");
    tally__buf_puts(b, "</g>\n");
    /* Legend: the marks and their meaning in words (equivalent, not tested, identical and
     * within noise when present), the interval and the margin's band. */
    size_t rows = legend(b, &L, 1);
    if (L.margin > 0) {
        char text[160];
        if (L.tost)
            tally__snprintf_c(text, sizeof(text), "band: equivalence margin \xc2\xb1%g %%; bars: "
                              "%g%% interval, %g%% (TOST) on rows judged against the band",
                              L.margin, r->opts.confidence * 100, 100 * (1 - 2 * r->opts.alpha));
        else
            tally__snprintf_c(text, sizeof(text), "band: equivalence margin \xc2\xb1%g %%; bars: "
                              "%g%% interval", L.margin, r->opts.confidence * 100);
        tally__svg_label(b, "note", L.left, L.bottom + 62 + 18 * (double)rows, "start", text);
    }
    tally__svg_close(b);
    return 1;
}
