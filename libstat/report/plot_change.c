/* The change plot of a benchmark: pct-imp of every case against the baseline, a panel per
 * compared configuration; the mark's shape and colour tell the verdict. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"

#define RIGHT 16.0
#define TOP 26.0
#define PANEL_GAP 30.0
#define MIN_PANEL 150.0
#define MARK_TITLES 100 /* up to this many cases, every mark has its own tooltip */

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

int tally__plot_change(tally__buf *b, const tally_report *r, const tally__group *g)
{
    if (r->opts.summaries_only || r->config_count < 2)
        return 0;
    /* The axis always shows 0 (no change) and the equivalence margin when there is one. */
    double margin = r->opts.equivalence_pct > 0 ? r->opts.equivalence_pct : 0;
    double lo = -margin, hi = margin;
    size_t marks = 0;
    int equivalent = 0, not_tested = 0, tost = 0;
    for (size_t i = 0; i < g->count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell *c = &r->rows[g->first + i].cells[j];
            const tally_comparison *cmp = &c->pub.comparison;
            if (!c->pub.compared || !cmp->ratio_defined)
                continue;
            lo = fmin(lo, cmp->pct_imp);
            hi = fmax(hi, cmp->pct_imp);
            double l, h;
            if (verdict_interval(&l, &h, cmp)) {
                lo = fmin(lo, l);
                hi = fmax(hi, h);
            }
            tost |= cmp->equivalence_defined && (cmp->verdict == TALLY_VERDICT_EQUIVALENT ||
                                                 cmp->verdict == TALLY_VERDICT_INCONCLUSIVE);
            equivalent |= cmp->verdict == TALLY_VERDICT_EQUIVALENT;
            not_tested |= cmp->verdict == TALLY_VERDICT_NOT_TESTED;
            marks++;
        }
    if (marks == 0)
        return 0;
    size_t panels = r->config_count - 1;
    /* Row height per case: every case a labelled row up to ~40 cases, then thinner rows (down to
     * 3 px: 300 cases in 900 px) with every k-th case labelled. */
    double row_h = fmin(20, fmax(3, 600.0 / (double)g->count));
    size_t stride = row_h >= 14 ? 1 : (size_t)ceil(15.0 / row_h);
    double label_w = 0;
    for (size_t i = 0; i < g->count; i += stride)
        label_w = fmax(label_w, tally__svg_text_width(r->rows[g->first + i].case_name, 11));
    double left = fmin(fmax(label_w, 30), 180) + 12;
    double width = fmax(TALLY__PLOT_WIDTH, left + (double)panels * (MIN_PANEL + PANEL_GAP));
    double panel_w = (width - left - RIGHT - PANEL_GAP * (double)(panels - 1)) / (double)panels;
    double bottom = TOP + row_h * (double)g->count;
    double height = bottom + (r->opts.equivalence_pct > 0 ? 92 : 74);
    double size = fmin(5, fmax(2, row_h / 3));

    tally__ticks ticks;
    tally__nice_ticks(&ticks, lo, hi, panels > 2 ? 4 : 6);

    tally__buf desc = TALLY__BUF_INIT;
    tally__buf_printf(&desc, "Change of %s against the baseline %s per case, in percent, "
                             "positive is better: a filled dot is a significant improvement "
                             "(green) or regression (red), a ring no significant change, a "
                             "square too few samples for the test.",
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

    /* Case labels on the left, shared by the panels. */
    tally__buf_puts(b, "<g class=\"cases\">");
    for (size_t i = 0; i < g->count; i += stride)
        tally__svg_label(b, "row-label", left - 8, TOP + row_h * ((double)i + 0.5) + 4, "end",
                         r->rows[g->first + i].case_name);
    tally__buf_puts(b, "</g>\n");

    for (size_t p = 0; p < panels; p++) {
        size_t j = p + 1;
        double x0 = left + (double)p * (panel_w + PANEL_GAP);
        tally__axis x;
        memset(&x, 0, sizeof(x));
        x.ticks = ticks;
        x.scale = (tally__svg_scale){ticks.lo, ticks.hi, x0, x0 + panel_w, 0};
        x.pos = bottom;
        x.grid = bottom - TOP;
        x.unit = "%";
        x.title = "change, positive is better";
        x.title_pos = bottom + 34;
        tally__buf_printf(b, "<g class=\"panel\">");
        tally__svg_label(b, "panel-label", x0 + panel_w / 2, TOP - 10, "middle",
                         r->configs[j].label);
        if (margin > 0) /* the equivalence band under everything else */
            tally__svg_rect(b, "band", tally__svg_scale_map(&x.scale, -margin), TOP,
                            tally__svg_scale_map(&x.scale, margin), bottom);
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
                double x_lo = tally__svg_scale_map(&x.scale, ci_lo);
                double x_hi = tally__svg_scale_map(&x.scale, ci_hi);
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
            mark(b, tally__svg_scale_map(&x.scale, cmp->pct_imp), yc, size, cmp,
                 g->count <= MARK_TITLES ? tip : NULL);
        }
        tally__buf_puts(b, "</g>\n");
    }
    /* Legend: the marks and their meaning in words (equivalent and not tested when present),
     * the interval and the margin's band. */
    static const tally_verdict keys[] = {TALLY_VERDICT_IMPROVEMENT, TALLY_VERDICT_REGRESSION,
                                         TALLY_VERDICT_EQUIVALENT, TALLY_VERDICT_INCONCLUSIVE,
                                         TALLY_VERDICT_NOT_TESTED, TALLY_VERDICT_INSUFFICIENT};
    static const char *const words[] = {"significant improvement", "significant regression",
                                        "equivalent", "inconclusive", "not tested",
                                        "too few samples"};
    tally__buf_puts(b, "<g class=\"legend\">");
    double lx = left, ly = bottom + 62;
    for (size_t k = 0; k < TALLY__COUNT(keys); k++) {
        if ((keys[k] == TALLY_VERDICT_EQUIVALENT && !equivalent) ||
            (keys[k] == TALLY_VERDICT_NOT_TESTED && !not_tested))
            continue;
        tally_comparison key;
        memset(&key, 0, sizeof(key));
        key.verdict = keys[k];
        mark(b, lx + 5, ly - 4, 4, &key, NULL);
        tally__svg_label(b, "legend-label", lx + 14, ly, "start", words[k]);
        lx += 14 + tally__svg_text_width(words[k], 12) + 18;
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
