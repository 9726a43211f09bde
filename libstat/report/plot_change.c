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

/* Whether the legend shows key k: the rarer verdicts only when a mark has them. */
static int legend_shows(size_t k, const int *present)
{
    return present[keys[k]];
}

int tally__plot_change(tally__buf *b, const tally_report *r, const tally__group *g)
{
    if (r->opts.summaries_only || r->config_count < 2)
        return 0;
    tally_direction dir = r->rows[g->first].direction;
    /* The axis always shows 0 (no change) and the equivalence margin when there is one. */
    double margin = r->opts.equivalence_pct > 0 ? r->opts.equivalence_pct : 0;
    double lo = fmin(gain_log(-margin, dir), gain_log(margin, dir));
    double hi = fmax(gain_log(-margin, dir), gain_log(margin, dir));
    size_t marks = 0;
    int tost = 0;
    int present[16] = {0}; /* by verdict value: a mark has it */
    present[TALLY_VERDICT_IMPROVEMENT] = present[TALLY_VERDICT_REGRESSION] = 1;
    present[TALLY_VERDICT_INCONCLUSIVE] = present[TALLY_VERDICT_INSUFFICIENT] = 1;
    for (size_t i = 0; i < g->count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell *c = &r->rows[g->first + i].cells[j];
            const tally_comparison *cmp = &c->pub.comparison;
            if (!c->pub.compared || !cmp->ratio_defined)
                continue;
            double v = gain_log(cmp->pct_imp, cmp->direction);
            if (isfinite(v)) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
            double l, h;
            if (verdict_interval(&l, &h, cmp)) {
                double a = gain_log(l, cmp->direction), z = gain_log(h, cmp->direction);
                if (isfinite(a)) {
                    lo = fmin(lo, a);
                    hi = fmax(hi, a);
                }
                if (isfinite(z)) {
                    lo = fmin(lo, z);
                    hi = fmax(hi, z);
                }
            }
            tost |= cmp->equivalence_defined && (cmp->verdict == TALLY_VERDICT_EQUIVALENT ||
                                                 cmp->verdict == TALLY_VERDICT_INCONCLUSIVE);
            if ((unsigned)cmp->verdict < TALLY__COUNT(present))
                present[cmp->verdict] = 1;
            marks++;
        }
    if (marks == 0)
        return 0;
    /* At least +-1 % on either side, and room around the outermost marks. */
    lo = fmin(lo, -0.01);
    hi = fmax(hi, 0.01);
    double pad = (hi - lo) * 0.04;
    lo -= pad;
    hi += pad;
    size_t panels = r->config_count - 1;
    /* Row height per case: every case a labelled row up to ~40 cases, then thinner rows (down to
     * 3 px: 300 cases in 900 px) with every k-th case labelled. */
    double row_h = fmin(20, fmax(3, 600.0 / (double)g->count));
    size_t stride = row_h >= 14 ? 1 : (size_t)ceil(15.0 / row_h);
    /* The labels without the cases' common prefix (named once above them), long ones shortened
     * in the middle; the column is as wide as the widest shown label. */
    size_t prefix = tally__case_prefix(r, g);
    double label_w = 0;
    for (size_t i = 0; i < g->count; i += stride) {
        char shown[256];
        tally__plot_shorten(shown, sizeof(shown), r->rows[g->first + i].case_name + prefix,
                            LABEL_MAX, 11);
        label_w = fmax(label_w, tally__svg_text_width(shown, 11));
    }
    double left = fmax(label_w, 30) + 12;
    /* A single panel gets the room of the plot's usual width whatever the labels take. */
    double min_panel = panels == 1 ? TALLY__PLOT_WIDTH - 200 : MIN_PANEL;
    double width = fmax(TALLY__PLOT_WIDTH, left + (double)panels * (min_panel + PANEL_GAP));
    double panel_w = (width - left - RIGHT - PANEL_GAP * (double)(panels - 1)) / (double)panels;
    double bottom = TOP + row_h * (double)g->count;
    /* The legend wraps into rows within the plot's width. */
    size_t legend_rows = 1;
    double lx = left;
    for (size_t k = 0; k < TALLY__COUNT(keys); k++) {
        double w = 14 + tally__svg_text_width(words[k], 12) + 18;
        if (!legend_shows(k, present))
            continue;
        if (lx + w > width - RIGHT && lx > left) {
            lx = left;
            legend_rows++;
        }
        lx += w;
    }
    double height = bottom + 74 + 18 * (double)(legend_rows - 1) + (margin > 0 ? 18 : 0);
    double size = fmin(5, fmax(2, row_h / 3));

    double tick_values[TICK_MAX];
    char tick_text[TICK_MAX][16];
    const char *tick_labels[TICK_MAX];
    size_t nticks = change_ticks(tick_values, tick_text, lo, hi, 0, panel_w, dir);
    for (size_t k = 0; k < nticks; k++)
        tick_labels[k] = tick_text[k];

    tally__buf desc = TALLY__BUF_INIT;
    tally__buf_printf(&desc, "Change of %s against the baseline %s per case, in percent, "
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
        tally__buf_printf(&desc, " %s: %zu improvements, %zu regressions, %zu without "
                                 "significant change, %zu with too few samples.",
                          r->configs[j].label, imp, reg, none, insuf);
    }
    tally__plot_open(b, "plot-change", width, height, "Change against the baseline", &desc);

    /* Case labels on the left, shared by the panels; the common prefix above them. */
    tally__buf_puts(b, "<g class=\"cases\">");
    if (prefix > 0) {
        char *head = tally__strndup(r->rows[g->first].case_name, prefix);
        if (head == NULL) {
            b->failed = 1;
        } else {
            tally__buf lead = TALLY__BUF_INIT;
            tally__buf_printf(&lead, "%s\xe2\x80\xa6", head);
            char shown[256];
            tally__plot_shorten(shown, sizeof(shown), lead.data ? lead.data : "", left - 8, 11);
            tally__plot_case_label(b, "prefix-label", left - 8, TOP - 10, "end", shown,
                                   lead.data ? lead.data : "", 0);
            if (lead.failed)
                b->failed = 1;
            tally__buf_dispose(&lead);
            tally__free_mem(head);
        }
    }
    for (size_t i = 0; i < g->count; i += stride) {
        const char *name = r->rows[g->first + i].case_name;
        char shown[256];
        tally__plot_shorten(shown, sizeof(shown), name + prefix, LABEL_MAX, 11);
        tally__plot_case_label(b, "row-label", left - 8, TOP + row_h * ((double)i + 0.5) + 4,
                               "end", shown, name, 0);
    }
    tally__buf_puts(b, "</g>\n");

    for (size_t p = 0; p < panels; p++) {
        size_t j = p + 1;
        double x0 = left + (double)p * (panel_w + PANEL_GAP);
        tally__axis x;
        memset(&x, 0, sizeof(x));
        x.scale = (tally__svg_scale){lo, hi, x0, x0 + panel_w, 0};
        x.values = tick_values;
        x.labels = tick_labels;
        x.value_count = nticks;
        x.pos = bottom;
        x.grid = bottom - TOP;
        /* One title under all the panels (written after them). */
        tally__buf_printf(b, "<g class=\"panel\">");
        tally__svg_label(b, "panel-label", x0 + panel_w / 2, TOP - 10, "middle",
                         r->configs[j].label);
        if (margin > 0) /* the equivalence band under everything else */
            tally__svg_rect(b, "band", tally__svg_scale_map(&x.scale, gain_log(-margin, dir)), TOP,
                            tally__svg_scale_map(&x.scale, gain_log(margin, dir)), bottom);
        tally__svg_axis(b, &x);
        tally__svg_path_open(b, "zero");
        tally__svg_vline(b, tally__svg_scale_map(&x.scale, 0), TOP, bottom);
        tally__svg_path_close(b);
        for (size_t i = 0; i < g->count; i++) {
            const tally__row *row = &r->rows[g->first + i];
            const tally__cell *c = &row->cells[j];
            double yc = TOP + row_h * ((double)i + 0.5);
            if (!c->pub.compared || !c->pub.comparison.ratio_defined) {
                if (row_h >= 12)
                    tally__svg_label(b, "note", x0 + 4, yc + 4, "start",
                                     c->pub.present && row->cells[0].pub.present ? "n/a"
                                                                                 : "missing");
                continue;
            }
            const tally_comparison *cmp = &c->pub.comparison;
            double ci_lo = 0, ci_hi = 0;
            int ci = verdict_interval(&ci_lo, &ci_hi, cmp);
            if (ci) {
                /* An end beyond the axis (an unbounded ratio interval) stops at its edge. */
                double x_lo = tally__svg_scale_map(
                    &x.scale, clamp(gain_log(ci_lo, cmp->direction), lo, hi));
                double x_hi = tally__svg_scale_map(
                    &x.scale, clamp(gain_log(ci_hi, cmp->direction), lo, hi));
                double cap = fmin(4, row_h / 3);
                tally__buf_printf(b, "<path class=\"ci %s\" d=\"",
                                  tally__verdict_class(cmp->verdict));
                tally__svg_hline(b, x_lo, x_hi, yc);
                tally__svg_vline(b, x_lo, yc - cap, yc + cap);
                tally__svg_vline(b, x_hi, yc - cap, yc + cap);
                tally__svg_path_close(b);
            }
            char tip[512];
            if (g->count <= MARK_TITLES && ci)
                tally__snprintf_c(tip, sizeof(tip), "%s: %+.2f%% [%+.2f, %+.2f], %s", row->case_name,
                         cmp->pct_imp, ci_lo, ci_hi, tally__verdict_word(cmp->verdict));
            else if (g->count <= MARK_TITLES)
                tally__snprintf_c(tip, sizeof(tip), "%s: %+.2f%%, %s", row->case_name,
                                  cmp->pct_imp,
                         tally__verdict_word(cmp->verdict));
            mark(b, tally__svg_scale_map(&x.scale, clamp(gain_log(cmp->pct_imp, cmp->direction),
                                                         lo, hi)),
                 yc, size, cmp, g->count <= MARK_TITLES ? tip : NULL);
        }
        tally__buf_puts(b, "</g>\n");
    }
    tally__buf_puts(b, "<g class=\"axis x-title\">");
    tally__svg_label(b, "axis-title", (left + width - RIGHT) / 2, bottom + 34, "middle",
                     "change, positive is better (%, log-ratio scale)");
    tally__buf_puts(b, "</g>\n");
    /* Legend: the marks and their meaning in words (equivalent, not tested, identical and
     * within noise when present), the interval and the margin's band. */
    tally__buf_puts(b, "<g class=\"legend\">");
    lx = left;
    double ly = bottom + 62;
    for (size_t k = 0; k < TALLY__COUNT(keys); k++) {
        if (!legend_shows(k, present))
            continue;
        double w = 14 + tally__svg_text_width(words[k], 12) + 18;
        if (lx + w > width - RIGHT && lx > left) { /* wrap rather than run off the plot */
            lx = left;
            ly += 18;
        }
        tally_comparison key;
        memset(&key, 0, sizeof(key));
        key.verdict = keys[k];
        mark(b, lx + 5, ly - 4, 4, &key, NULL);
        tally__svg_label(b, "legend-label", lx + 14, ly, "start", words[k]);
        lx += w;
    }
    tally__buf_puts(b, "</g>\n");
    if (margin > 0) {
        char text[160];
        if (tost)
            tally__snprintf_c(text, sizeof(text), "band: equivalence margin \xc2\xb1%g %%; bars: %g%% "
                                         "interval, %g%% (TOST) on rows judged against the band",
                     margin, r->opts.confidence * 100, 100 * (1 - 2 * r->opts.alpha));
        else
            tally__snprintf_c(text, sizeof(text), "band: equivalence margin \xc2\xb1%g %%; bars: %g%% "
                                         "interval", margin, r->opts.confidence * 100);
        tally__svg_label(b, "note", left, ly + 18, "start", text);
    }
    tally__svg_close(b);
    return 1;
}
