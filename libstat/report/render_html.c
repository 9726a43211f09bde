/* One self-contained HTML file (inline CSS and SVG, no script, nothing fetched): per benchmark
 * its header and system details, the change and sweep plots, the table with the text table's
 * information, and per case the distribution and run-order plots, folded when there are many.
 * Light and dark follow prefers-color-scheme; print uses the light colours. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "stats/compare_impl.h"

#define OPEN_TABLE_ROWS 40 /* longer tables start folded */
#define OPEN_CASES 4       /* with more cases, each case's plots start folded */
#define LARGEST_CHANGES 10 /* significant changes listed under the headline */

static void text(tally__buf *b, const char *s)
{
    tally__svg_text(b, s);
}

static int compare_mode(const tally_report *r)
{
    return !r->opts.summaries_only && r->config_count > 1;
}

/* Text a shared text-layout helper wrote (method line, footnotes), escaped, lines as <br>. */
static void text_lines(tally__buf *b, const tally__buf *t)
{
    if (t->failed) {
        b->failed = 1;
        return;
    }
    if (t->data == NULL)
        return;
    const char *p = t->data, *end = t->data + t->len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        char *line = tally__strndup(p, (size_t)(stop - p));
        if (line == NULL) {
            b->failed = 1;
            return;
        }
        text(b, line);
        tally__free_mem(line);
        if (nl && nl + 1 < end)
            tally__buf_puts(b, "<br>");
        p = stop + 1;
    }
}

/* A cell's value as the text table writes it (tally__render_cell_value): ± the mean CI's
 * half-width on AMean rows, the median's [low, high] on Median rows ([3] when n is too small
 * for it), in the group's prefixed unit. */
static void value_cell(tally__buf *b, const tally_report *r, const tally__row *row,
                       const tally__cell *c, const tally__numfmt *f, int *median_note)
{
    if (!c->pub.present) {
        tally__buf_puts(b, "<td class=\"missing\">missing [2]</td>");
        return;
    }
    tally__buf_puts(b, "<td>");
    int interval = tally__render_cell_value(b, f, row, c, NULL);
    double lo, hi;
    if (!interval && c->value_defined &&
        tally__cell_hmean_interval(&lo, &hi, row, c, r->opts.confidence)) {
        tally__buf_puts(b, " [");
        tally__buf_number(b, f, lo);
        tally__buf_puts(b, ", ");
        tally__buf_number(b, f, hi);
        tally__buf_puts(b, "]");
    }
    /* A pooled histogram cell without an interval is the histogram notes' to explain. */
    if (c->value_defined && !interval && c->pooled == NULL &&
        (row->statistic == TALLY_STAT_MEDIAN || row->statistic == TALLY_STAT_PERCENTILE)) {
        *median_note = 1;
        tally__buf_puts(b, " [3]");
    }
    tally__buf_puts(b, "</td>");
}

/* A number of the summary table in the row's display. */
static void number_cell(tally__buf *b, const tally__numfmt *f, double x)
{
    tally__buf_puts(b, "<td>");
    tally__buf_number(b, f, x);
    tally__buf_puts(b, "</td>");
}

/* The value, then n (empty when missing). */
static void value_cells(tally__buf *b, const tally_report *r, const tally__row *row,
                        const tally__cell *c, const tally__numfmt *f, int *median_note)
{
    value_cell(b, r, row, c, f, median_note);
    if (c->pub.present)
        tally__buf_printf(b, "<td>%zu</td>", c->n);
    else
        tally__buf_puts(b, "<td></td>");
}

static void comparison_cells(tally__buf *b, const tally__cell *c)
{
    if (!c->pub.compared) {
        tally__buf_puts(b, "<td></td><td></td><td></td><td></td>");
        return;
    }
    const tally_comparison *cmp = &c->pub.comparison;
    const char *cls = tally__verdict_class(cmp->verdict);
    if (!cmp->ratio_defined)
        tally__buf_printf(b, "<td class=\"%s\">n/a</td>", cls);
    else if (cmp->interval_defined)
        tally__buf_printf(b, "<td class=\"%s\">%+.2f%% [%+.2f, %+.2f]</td>", cls, cmp->pct_imp,
                          cmp->pct_low, cmp->pct_high);
    else
        tally__buf_printf(b, "<td class=\"%s\">%+.2f%%</td>", cls, cmp->pct_imp);
    if (!cmp->p_defined)
        tally__buf_puts(b, "<td>-</td>");
    else if (c->pub.p_adjusted < 0.0001)
        tally__buf_puts(b, "<td>&lt;0.0001</td>");
    else
        tally__buf_printf(b, "<td>%.4f</td>", c->pub.p_adjusted);
    tally__buf verdict = TALLY__BUF_INIT;
    tally__render_verdict_text(&verdict, cmp);
    tally__buf_printf(b, "<td class=\"verdict %s\">", cls);
    text_lines(b, &verdict);
    tally__buf_dispose(&verdict);
    if (cmp->mde_defined)
        tally__buf_printf(b, "</td><td>±%.2f%%</td>", cmp->mde_pct);
    else
        tally__buf_puts(b, "</td><td>-</td>");
}

static void compare_table(tally__buf *b, const tally_report *r, const tally_render_options *o,
                          const tally__group *g, int *median_note)
{
    char ci[32];
    tally__ci_label(ci, sizeof ci, r);
    tally__buf_puts(b, "<div class=\"scroll\"><table class=\"compare\"><thead><tr>"
                       "<th class=\"key\" scope=\"col\">case</th>");
    for (size_t j = 0; j < r->config_count; j++) {
        tally__buf_puts(b, "<th scope=\"col\">");
        text(b, r->configs[j].label);
        tally__buf_puts(b, "</th><th scope=\"col\">n</th>");
        if (j > 0)
            tally__buf_printf(b, "<th scope=\"col\">delta [%s]</th><th scope=\"col\">%s</th>"
                                 "<th class=\"key\" scope=\"col\">verdict</th>"
                                 "<th scope=\"col\">MDE</th>",
                              ci, r->opts.adjust ? "p (adj)" : "p");
    }
    tally__buf_puts(b, "</tr></thead><tbody>\n");
    tally__si si;
    tally__group_si(&si, r, g);
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const tally__row *row = &r->rows[i];
        tally__numfmt f;
        tally__row_numfmt(&f, r, row, &si, o->precision);
        tally__buf_puts(b, "<tr><th class=\"key\" scope=\"row\">");
        text(b, row->case_name);
        tally__buf_puts(b, "</th>");
        for (size_t j = 0; j < r->config_count; j++) {
            value_cells(b, r, row, &row->cells[j], &f, median_note);
            if (j > 0)
                comparison_cells(b, &row->cells[j]);
        }
        tally__buf_puts(b, "</tr>\n");
    }
    tally__buf_puts(b, "</tbody></table></div>\n");
}

/* `tally summary`: a table per configuration, the columns of the text summary. */
static void summary_tables(tally__buf *b, const tally_report *r, const tally_render_options *o,
                           const tally__group *g, int *median_note)
{
    const tally__row *first = &r->rows[g->first];
    tally__si si;
    tally__group_si(&si, r, g);
    for (size_t j = 0; j < r->config_count; j++) {
        tally__buf_puts(b, "<div class=\"scroll\"><table class=\"summary\"><caption class=\"key\">");
        text(b, r->configs[j].label);
        tally__buf_printf(b, "</caption><thead><tr><th class=\"key\" scope=\"col\">case</th>"
                             "<th scope=\"col\">n</th><th scope=\"col\">%s</th>"
                             "<th scope=\"col\">min</th><th scope=\"col\">median</th>"
                             "<th scope=\"col\">max</th><th scope=\"col\">spread</th>"
                             "<th scope=\"col\">CV%%</th><th scope=\"col\">outliers</th>"
                             "</tr></thead><tbody>\n",
                          first->stat_title);
        for (size_t i = g->first; i < g->first + g->count; i++) {
            const tally__row *row = &r->rows[i];
            const tally__cell *c = &row->cells[j];
            const tally_summary *s = &c->pub.summary;
            tally__numfmt f;
            tally__row_numfmt(&f, r, row, &si, o->precision);
            tally__buf_puts(b, "<tr><th class=\"key\" scope=\"row\">");
            text(b, row->case_name);
            tally__buf_puts(b, "</th>");
            if (!c->pub.present) {
                tally__buf_puts(b, "<td class=\"missing\">missing [2]</td>"
                                   "<td></td><td></td><td></td><td></td><td></td><td></td>"
                                   "<td></td></tr>\n");
                continue;
            }
            tally__buf_printf(b, "<td>%zu</td>", s->n);
            value_cell(b, r, row, c, &f, median_note);
            number_cell(b, &f, s->min);
            number_cell(b, &f, s->median);
            number_cell(b, &f, s->max);
            if (c->spread_defined)
                number_cell(b, &f, c->spread);
            else
                tally__buf_puts(b, "<td>-</td>");
            if (c->cv_defined)
                tally__buf_printf(b, "<td>%.2f</td>", c->cv);
            else
                tally__buf_puts(b, "<td>-</td>");
            tally__buf_printf(b, "<td>%zu</td></tr>\n", s->outliers_mad > s->outliers_tukey
                                                            ? s->outliers_mad
                                                            : s->outliers_tukey);
        }
        tally__buf_puts(b, "</tbody></table></div>\n");
    }
}

/* The recorded metadata of every configuration side by side; rows whose values differ between
 * configurations are marked (bold and "differs"), since they may explain a change. */
static void system_details(tally__buf *b, const tally_report *r)
{
    size_t shown = 0;
    for (size_t j = 0; j < r->config_count; j++)
        for (size_t k = 0; k < r->configs[j].meta_count; k++)
            shown += strncmp(r->configs[j].meta[k].key, "report.", 7) != 0;
    if (shown == 0)
        return;
    tally__buf_puts(b, "<details class=\"system\"><summary>System details</summary>"
                       "<div class=\"scroll\"><table><thead><tr>"
                       "<th class=\"key\" scope=\"col\">key</th>");
    for (size_t j = 0; j < r->config_count; j++) {
        tally__buf_puts(b, "<th class=\"key\" scope=\"col\">");
        text(b, r->configs[j].label);
        tally__buf_puts(b, "</th>");
    }
    tally__buf_puts(b, "<th class=\"key\" scope=\"col\"></th></tr></thead><tbody>\n");
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__config *c = &r->configs[j];
        for (size_t k = 0; k < c->meta_count; k++) {
            const char *key = c->meta[k].key;
            if (strncmp(key, "report.", 7) == 0)
                continue;
            /* Each key once: in the first configuration that has it. */
            int earlier = 0;
            for (size_t e = 0; e < j && !earlier; e++)
                earlier = tally__report_meta(r, e, key) != NULL;
            if (earlier)
                continue;
            int differs = 0;
            for (size_t e = 0; e < r->config_count; e++) {
                const char *v = tally__report_meta(r, e, key);
                differs |= v == NULL || strcmp(v, c->meta[k].value) != 0;
            }
            tally__buf_puts(b, "<tr><th class=\"key\" scope=\"row\">");
            text(b, key);
            tally__buf_puts(b, "</th>");
            for (size_t e = 0; e < r->config_count; e++) {
                const char *v = tally__report_meta(r, e, key);
                tally__buf_printf(b, "<td class=\"key%s\">", differs ? " differs" : "");
                text(b, v ? v : "-");
                tally__buf_puts(b, "</td>");
            }
            tally__buf_printf(b, "<td class=\"key\">%s</td></tr>\n", differs ? "differs" : "");
        }
    }
    tally__buf_puts(b, "</tbody></table></div></details>\n");
}

static void facts(tally__buf *b, const tally_report *r, const tally__group *g)
{
    const tally__row *first = &r->rows[g->first];
    /* The unit the values show in: the benchmark's, SI-prefixed for their magnitude. */
    tally__si si;
    tally__group_si(&si, r, g);
    tally__buf_puts(b, "<dl class=\"facts\"><dt>unit</dt><dd>");
    text(b, si.unit[0] ? si.unit : "(none)");
    tally__buf_printf(b, "</dd><dt>better</dt><dd>%s is better</dd><dt>statistic</dt><dd>%s",
                      first->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower",
                      first->stat_title);
    double lo, hi;
    int ci = 0;
    for (size_t i = g->first; i < g->first + g->count && !ci; i++)
        for (size_t j = 0; j < r->config_count && !ci; j++)
            ci = tally__cell_interval(&lo, &hi, &r->rows[i], &r->rows[i].cells[j]);
    int hci = 0;
    for (size_t i = g->first; i < g->first + g->count && !hci; i++)
        for (size_t j = 0; j < r->config_count && !hci; j++)
            hci = tally__cell_hmean_interval(&lo, &hi, &r->rows[i], &r->rows[i].cells[j],
                                             r->opts.confidence);
    if (ci && first->statistic == TALLY_STAT_AMEAN)
        tally__buf_printf(b, ", ± the half-width of its %g%% confidence interval",
                          r->opts.confidence * 100);
    else if (ci)
        tally__buf_printf(b, ", [low, high] its %g%% confidence interval",
                          r->opts.confidence * 100);
    else if (hci)
        tally__buf_printf(b, ", [low, high] its %g%% confidence interval (the t interval of "
                             "the mean of 1/x, inverted)", r->opts.confidence * 100);
    tally__buf_puts(b, "</dd>");
    if (compare_mode(r)) {
        tally__buf_printf(b, "<dt>test</dt><dd>%s</dd><dt>alpha</dt><dd>%g</dd>"
                             "<dt>adjustment</dt><dd>%s</dd>",
                          tally_test_name(r->opts.test), r->opts.alpha,
                          r->opts.adjust == TALLY_ADJUST_NONE
                              ? "none"
                              : r->opts.adjust == TALLY_ADJUST_HOLM
                                    ? "holm (family-wise error rate, across the report)"
                                    : "bh (false discovery rate, across the report)");
        tally__buf_printf(b, "<dt>baseline</dt><dd>");
        text(b, r->configs[0].label);
        tally__buf_puts(b, "</dd>");
    }
    tally__buf_printf(b, "<dt>cases</dt><dd>%zu</dd></dl>\n", g->count);
}

/* The verdicts of a case in words, for its folded summary line. */
static void case_verdicts(tally__buf *b, const tally_report *r, const tally__row *row)
{
    if (!compare_mode(r))
        return;
    tally__buf_puts(b, " <span class=\"verdicts\">");
    for (size_t j = 1; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        tally__buf_puts(b, j > 1 ? " · " : "— ");
        text(b, r->configs[j].label);
        if (!c->pub.compared) {
            tally__buf_puts(b, ": missing");
            continue;
        }
        const tally_comparison *cmp = &c->pub.comparison;
        tally__buf_printf(b, " <span class=\"%s\">%+.2f%% %s</span>",
                          tally__verdict_class(cmp->verdict), cmp->pct_imp,
                          tally__verdict_word(cmp->verdict));
    }
    tally__buf_puts(b, "</span>");
}

/* A plot in a <figure> with its caption; nothing at all when the plot has nothing to draw. */
static void close_figure(tally__buf *b, size_t at, int drawn, const char *caption)
{
    if (!drawn) {
        if (!b->failed && b->data) {
            b->len = at;
            b->data[at] = '\0';
        }
        return;
    }
    tally__buf_printf(b, "</div><figcaption>%s</figcaption></figure>\n", caption);
}

static void case_figure(tally__buf *b, const tally_report *r, const tally__row *row,
                        const tally__si *si,
                        int (*plot)(tally__buf *, const tally_report *, const tally__row *,
                                    const tally__si *),
                        const char *caption)
{
    size_t at = b->len;
    tally__buf_puts(b, "<figure><div class=\"scroll\">");
    close_figure(b, at, plot(b, r, row, si), caption);
}

static void group_figure(tally__buf *b, const tally_report *r, const tally__group *g,
                         int (*plot)(tally__buf *, const tally_report *, const tally__group *),
                         const char *caption)
{
    size_t at = b->len;
    tally__buf_puts(b, "<figure><div class=\"scroll\">");
    close_figure(b, at, plot(b, r, g), caption);
}

static int has_samples(const tally_report *r, const tally__group *g)
{
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            if (r->rows[i].cells[j].samples || r->rows[i].cells[j].pooled)
                return 1;
    return 0;
}

/* Whether a check fired on some configuration of the case. */
static int case_flagged(const tally_report *r, const tally__row *row)
{
    for (size_t j = 0; j < r->config_count; j++)
        if (row->cells[j].diag_defined && row->cells[j].diag.flagged)
            return 1;
    return 0;
}

/* Beside the run-order plot: what the run-order and shape checks found, per configuration. */
static void case_findings(tally__buf *b, const tally_report *r, const tally__row *row)
{
    if (!case_flagged(r, row))
        return;
    tally__buf_puts(b, "<div class=\"warn diag\" role=\"note\"><p><strong>Runs that may not be "
                       "trusted</strong></p><ul>");
    tally__buf t = TALLY__BUF_INIT;
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        if (!c->diag_defined || c->diag.flagged == 0)
            continue;
        tally__buf_puts(b, "<li>");
        text(b, r->configs[j].label);
        tally__buf_puts(b, ": ");
        t.len = 0;
        tally__render_diag_findings(&t, r, c);
        text_lines(b, &t);
        tally__buf_puts(b, "</li>");
    }
    tally__buf_dispose(&t);
    tally__buf_puts(b, "</ul></div>\n");
}

static void cases(tally__buf *b, const tally_report *r, const tally__group *g)
{
    if (!has_samples(r, g)) {
        tally__buf_puts(b, "<p class=\"notes\">The raw samples were not kept in this report, "
                           "so the distributions and run order of the cases are not drawn.</p>\n");
        return;
    }
    tally__buf_printf(b, "<h3>Cases: runs and their order</h3>\n");
    int open = g->count <= OPEN_CASES;
    tally__si si; /* the table's prefix for every case's plots */
    tally__group_si(&si, r, g);
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const tally__row *row = &r->rows[i];
        tally__buf_printf(b, "<details class=\"case\"%s><summary>", open ? " open" : "");
        text(b, row->case_name);
        case_verdicts(b, r, row);
        if (case_flagged(r, row))
            tally__buf_puts(b, " <span class=\"verdicts\"><span class=\"diag\">· runs may not "
                               "be trusted</span></span>");
        tally__buf_puts(b, "</summary>\n");
        case_figure(b, r, row, &si, tally__plot_distribution,
            "Every run (dots) over the quartile box of each configuration; the thick line is the "
            "median, whiskers reach 1.5 times the interquartile range.");
        case_figure(b, r, row, &si, tally__plot_spectrum,
            "The percentile spectrum: each configuration's percentiles of its runs against "
            "1 / (1 - p), so the tail spreads out to the right; the shaded band is each "
            "percentile's distribution-free interval where the runs give one.");
        case_figure(b, r, row, &si, tally__plot_runs,
            "The same runs in the order they ran: a trend or a warm-up shows as a slope or a "
            "step; a dashed line marks a warm-up or a step the checks found.");
        case_findings(b, r, row);
        tally__buf_puts(b, "</details>\n");
    }
}

/* The footnotes of a benchmark's table, as the text table words them: [1] with each
 * insufficient row's reason, [2] the missing cases, [3] medians without an interval, and the
 * meaning of inconclusive and not-tested rows. */
static void group_notes(tally__buf *b, const tally_report *r, const tally__group *g,
                        int median_note)
{
    int insufficient = 0, missing = 0, inconclusive = 0, not_tested = 0;
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            missing |= !c->present;
            if (!c->compared)
                continue;
            insufficient |= c->comparison.verdict == TALLY_VERDICT_INSUFFICIENT;
            inconclusive |= c->comparison.verdict == TALLY_VERDICT_INCONCLUSIVE;
            not_tested |= c->comparison.verdict == TALLY_VERDICT_NOT_TESTED;
        }
    if (inconclusive && !tally__report_has_margin(r) && !(r->opts.mde_pct > 0))
        tally__buf_puts(b, "<p class=\"notes\">inconclusive: neither a change nor equivalence "
                           "is shown; --equivalence PCT or --mde PCT gives the runs needed.</p>\n");
    if (not_tested)
        tally__buf_printf(b, "<p class=\"notes\">%s.</p>\n", tally__report_not_tested_note(r));
    if (!insufficient && !missing && !median_note)
        return;
    tally__buf_puts(b, "<div class=\"notes\">");
    if (insufficient) {
        tally__buf_puts(b, "<p>[1] too few samples for the test to reach alpha:</p><ul>");
        for (size_t i = g->first; i < g->first + g->count; i++)
            for (size_t j = 1; j < r->config_count; j++) {
                const tally__cell_figures *c = &r->rows[i].cells[j].pub;
                if (!c->compared || c->comparison.verdict != TALLY_VERDICT_INSUFFICIENT)
                    continue;
                tally__buf reason = TALLY__BUF_INIT;
                tally__render_insufficient_reason(&reason, &r->rows[i], &c->comparison,
                                                  r->opts.alpha);
                tally__buf_puts(b, "<li>");
                text(b, r->rows[i].case_name);
                tally__buf_puts(b, ", ");
                text(b, r->configs[j].label);
                tally__buf_puts(b, ": ");
                text_lines(b, &reason);
                tally__buf_dispose(&reason);
                tally__buf_puts(b, "</li>");
            }
        tally__buf_puts(b, "</ul>");
    }
    if (missing) {
        tally__buf_puts(b, "<p>[2] missing cases:</p><ul>");
        for (size_t i = g->first; i < g->first + g->count; i++)
            for (size_t j = 0; j < r->config_count; j++) {
                if (r->rows[i].cells[j].pub.present)
                    continue;
                tally__buf_puts(b, "<li>");
                text(b, r->configs[j].label);
                tally__buf_puts(b, " has no ");
                text(b, r->rows[i].benchmark);
                tally__buf_puts(b, "/");
                text(b, r->rows[i].case_name);
                tally__buf_puts(b, "</li>");
            }
        tally__buf_puts(b, "</ul>");
    }
    if (median_note) {
        char what[40];
        size_t need = tally__order_ci_need(what, sizeof what, &r->rows[g->first],
                                           r->opts.confidence);
        tally__buf_printf(b, "<p>[3] no %g%% interval of %s: it needs n &gt;= %zu "
                             "(order statistics).</p>", r->opts.confidence * 100, what, need);
    }
    tally__buf_puts(b, "</div>\n");
}

/* The report's footer, from the same helpers as the text table's: the method line, what the
 * columns mean, the notes about the runs, and the geometric means of gains. */
static void footer(tally__buf *b, const tally_report *r)
{
    tally__buf t = TALLY__BUF_INIT;
    tally__buf_puts(b, "<footer class=\"notes\">");
    if (compare_mode(r)) {
        tally__render_method_line(&t, r);
        tally__render_delta_note(&t, r);
    } else {
        tally__buf_printf(&t, "± is the half-width of the %g%% confidence interval ([low, high] "
                              "for the median); spread: the sample SD (the harmonic SD on HMean "
                              "rows); outliers: the larger of the MAD z-score and Tukey counts.\n",
                          r->opts.confidence * 100);
    }
    tally__buf_puts(b, "<p>");
    text_lines(b, &t);
    tally__buf_puts(b, "</p>");
    tally__buf_dispose(&t);
    tally__render_pairing_notes(&t, r, "", 1);
    tally__render_run_notes(&t, r, "");
    tally__render_block_notes(&t, r, "");
    tally__render_exact_notes(&t, r, "");
    tally__render_summary_only_notes(&t, r, "");
    tally__render_histogram_notes(&t, r, "");
    if (t.len) {
        tally__buf_puts(b, "<p>");
        text_lines(b, &t);
        tally__buf_puts(b, "</p>");
    }
    tally__buf_dispose(&t);
    if (tally__report_has_diag_findings(r)) {
        tally__render_diag_legend(&t);
        tally__buf_puts(b, "<p>");
        text_lines(b, &t);
        tally__buf_puts(b, "</p>");
        tally__buf_dispose(&t);
    }
    if (compare_mode(r)) {
        tally__render_geomean_lines(&t, r);
        tally__buf_puts(b, "<p>");
        text_lines(b, &t);
        tally__buf_puts(b, "</p>");
        tally__buf_dispose(&t);
    }
    tally__buf_puts(b, "</footer>\n");
}

static void benchmark(tally__buf *b, const tally_report *r, const tally_render_options *o,
                      const tally__group *g, size_t index)
{
    const tally__row *first = &r->rows[g->first];
    tally__buf_printf(b, "<section class=\"benchmark\" id=\"benchmark-%zu\"><h2>", index + 1);
    text(b, first->benchmark);
    tally__buf_puts(b, "</h2>\n");
    facts(b, r, g);
    system_details(b, r);
    group_figure(b, r, g, tally__plot_change,
        "Change of each case against the baseline in percent, positive is better, with its "
        "interval. Filled dot: a significant change; diamond: equivalent; ring: inconclusive; "
        "square: too few samples.");
    if (g->count >= 2) {
        group_figure(b, r, g, tally__plot_sweep,
            "The statistic of every configuration per case, with its confidence interval where "
            "the statistic has one.");
    }
    tally__buf_printf(b, "<details class=\"table\"%s><summary>Table (%zu cases)</summary>\n",
                      g->count <= OPEN_TABLE_ROWS ? " open" : "", g->count);
    int median_note = 0;
    if (r->opts.summaries_only || r->config_count < 2)
        summary_tables(b, r, o, g, &median_note);
    else
        compare_table(b, r, o, g, &median_note);
    tally__buf_puts(b, "</details>\n");
    group_notes(b, r, g, median_note);
    cases(b, r, g);
    tally__buf_puts(b, "</section>\n");
}

static void headline(tally__buf *b, const tally_report *r)
{
    tally__buf_puts(b, "<p class=\"muted\">");
    if (compare_mode(r)) {
        tally__buf_puts(b, "Baseline <strong>");
        text(b, r->configs[0].label);
        tally__buf_puts(b, "</strong> against ");
        for (size_t j = 1; j < r->config_count; j++) {
            tally__buf_puts(b, j > 1 ? ", <strong>" : "<strong>");
            text(b, r->configs[j].label);
            tally__buf_puts(b, "</strong>");
        }
        tally__buf_printf(b, "; %s test, alpha %g", tally_test_name(r->opts.test), r->opts.alpha);
        if (r->opts.adjust != TALLY_ADJUST_NONE)
            tally__buf_printf(b, ", p-values adjusted (%s) across the report",
                              tally_adjust_name(r->opts.adjust));
        tally__buf_printf(b, "; ± is the half-width of the %g%% confidence interval.",
                          r->opts.confidence * 100);
    } else {
        tally__buf_puts(b, "Summaries of ");
        for (size_t j = 0; j < r->config_count; j++) {
            tally__buf_puts(b, j ? ", <strong>" : "<strong>");
            text(b, r->configs[j].label);
            tally__buf_puts(b, "</strong>");
        }
        tally__buf_printf(b, "; ± is the half-width of the %g%% confidence interval.",
                          r->opts.confidence * 100);
    }
    tally__buf_printf(b, " %zu row%s. Written by tally %s.</p>\n", r->row_count,
                      r->row_count == 1 ? "" : "s", tally_version());
    if (!compare_mode(r))
        return;
    tally__buf_puts(b, "<p class=\"headline\">");
    for (size_t j = 1; j < r->config_count; j++) {
        size_t count[8] = {0, 0, 0, 0, 0, 0, 0, 0}; /* by verdict value */
        for (size_t i = 0; i < r->row_count; i++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            if (c->compared && (unsigned)c->comparison.verdict < TALLY__COUNT(count))
                count[c->comparison.verdict]++;
        }
        size_t reg = count[TALLY_VERDICT_REGRESSION], imp = count[TALLY_VERDICT_IMPROVEMENT];
        text(b, r->configs[j].label);
        tally__buf_printf(b, ": <span class=\"%s\">%zu regression%s</span>, %zu improvement%s",
                          reg ? "v-reg" : "", reg, reg == 1 ? "" : "s", imp, imp == 1 ? "" : "s");
        if (count[TALLY_VERDICT_EQUIVALENT])
            tally__buf_printf(b, ", %zu equivalent", count[TALLY_VERDICT_EQUIVALENT]);
        tally__buf_printf(b, ", %zu inconclusive", count[TALLY_VERDICT_INCONCLUSIVE]);
        if (count[TALLY_VERDICT_NOT_TESTED])
            tally__buf_printf(b, ", %zu not tested", count[TALLY_VERDICT_NOT_TESTED]);
        if (count[TALLY_VERDICT_IDENTICAL])
            tally__buf_printf(b, ", %zu identical", count[TALLY_VERDICT_IDENTICAL]);
        if (count[TALLY_VERDICT_WITHIN_NOISE])
            tally__buf_printf(b, ", %zu within noise", count[TALLY_VERDICT_WITHIN_NOISE]);
        if (count[TALLY_VERDICT_INSUFFICIENT])
            tally__buf_printf(b, ", %zu with too few samples", count[TALLY_VERDICT_INSUFFICIENT]);
        double gm;
        tally__buf per = TALLY__BUF_INIT;
        if (tally__render_family_gains(&per, r, j)) {
            tally__buf_puts(b, "; geometric mean of gains (&gt; 1 is better) per unit: ");
            if (per.failed)
                b->failed = 1;
            else
                text(b, per.data);
        } else if (tally__render_geomean(&gm, b, r, j)) {
            tally__buf_printf(b, "; geometric mean of gains %.4f (&gt; 1 is better)", gm);
        }
        tally__buf_dispose(&per);
        tally__buf_puts(b, ".<br>");
    }
    size_t wi = 0, wj = 0;
    if (tally__worst_regression(&wi, &wj, r)) {
        const tally__row *row = &r->rows[wi];
        tally__buf size = TALLY__BUF_INIT;
        tally__render_regression_size(&size, row, &row->cells[wj].pub.comparison);
        tally__buf_puts(b, "<span class=\"v-reg\">Worst significant regression: ");
        if (size.failed)
            b->failed = 1;
        else
            text(b, size.data);
        tally__buf_dispose(&size);
        tally__buf_puts(b, " in ");
        text(b, row->benchmark);
        tally__buf_puts(b, "/");
        text(b, row->case_name);
        tally__buf_puts(b, ", ");
        text(b, r->configs[wj].label);
        tally__buf_puts(b, "</span>");
    } else {
        tally__buf_puts(b, "No significant regression.");
    }
    tally__buf_puts(b, "</p>\n");
}

/* A significant change of the report, for the ranked list under the headline. */
typedef struct change_ref {
    size_t row, config;
    int regression;
    double size; /* |log ratio|: 2x slower and 2x faster rank alike */
    size_t same; /* index + 1 of an earlier entry measuring the same thing, else 0 */
} change_ref;

/* Whether two changes are one measurement in two units (go's sec/op and B/s of one case, one
 * the reciprocal of the other): the same case and configuration, the same kind and size. */
static int same_change(const tally_report *r, const change_ref *a, const change_ref *b)
{
    return a->config == b->config && a->regression == b->regression &&
           fabs(a->size - b->size) <= 0.02 * fmax(a->size, b->size) &&
           strcmp(r->rows[a->row].case_name, r->rows[b->row].case_name) == 0 &&
           strcmp(r->rows[a->row].benchmark, r->rows[b->row].benchmark) != 0;
}

static int by_size(const void *pa, const void *pb)
{
    const change_ref *a = pa, *b = pb;
    if (a->regression != b->regression)
        return a->regression ? -1 : 1;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return a->row != b->row ? (a->row < b->row ? -1 : 1) : (a->config < b->config ? -1 : 1);
}

/* The largest significant changes under the headline: regressions first, then improvements,
 * each the largest first, with the signed change, its interval, the factor where it reads
 * better than the percentage, and where (benchmark/case, configuration). */
static void largest_changes(tally__buf *b, const tally_report *r)
{
    size_t total = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            total += c->compared && c->comparison.ratio_defined && c->comparison.ratio > 0 &&
                     (c->comparison.verdict == TALLY_VERDICT_REGRESSION ||
                      c->comparison.verdict == TALLY_VERDICT_IMPROVEMENT);
        }
    if (total == 0)
        return;
    change_ref *all = tally__calloc(total, sizeof(*all));
    if (all == NULL) {
        b->failed = 1;
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            const tally_comparison *cmp = &c->comparison;
            if (c->compared && cmp->ratio_defined && cmp->ratio > 0 &&
                (cmp->verdict == TALLY_VERDICT_REGRESSION ||
                 cmp->verdict == TALLY_VERDICT_IMPROVEMENT))
                all[n++] = (change_ref){ i, j, cmp->verdict == TALLY_VERDICT_REGRESSION,
                                         fabs(log(cmp->ratio)), 0 };
        }
    qsort(all, n, sizeof(*all), by_size);
    size_t distinct = 0;
    for (size_t k = 0; k < n; k++) {
        for (size_t e = 0; e < k && !all[k].same; e++)
            if (!all[e].same && same_change(r, &all[e], &all[k]))
                all[k].same = e + 1;
        distinct += !all[k].same;
    }
    size_t shown = distinct < LARGEST_CHANGES ? distinct : LARGEST_CHANGES;
    if (shown < distinct)
        tally__buf_printf(b, "<p class=\"changes\">The %zu largest of %zu significant changes:"
                             "</p>\n", shown, distinct);
    else
        tally__buf_printf(b, "<p class=\"changes\">Significant change%s, the largest first:</p>\n",
                          distinct == 1 ? "" : "s");
    tally__buf_puts(b, "<ol class=\"changes\">");
    for (size_t k = 0, listed = 0; k < n && listed < shown; k++) {
        if (all[k].same)
            continue;
        listed++;
        const tally__row *row = &r->rows[all[k].row];
        const tally_comparison *cmp = &row->cells[all[k].config].pub.comparison;
        tally__buf_printf(b, "<li><span class=\"%s\">%+.2f%%", tally__verdict_class(cmp->verdict),
                          cmp->pct_imp);
        tally__render_change_factor(b, row, cmp, 1.5);
        tally__buf_puts(b, "</span>");
        if (cmp->interval_defined)
            tally__buf_printf(b, " [%+.2f, %+.2f]", cmp->pct_low, cmp->pct_high);
        tally__buf_puts(b, " <span class=\"where\">");
        text(b, row->benchmark);
        tally__buf_puts(b, "/");
        text(b, row->case_name);
        tally__buf_puts(b, "</span>, ");
        text(b, r->configs[all[k].config].label);
        for (size_t e = k + 1; e < n; e++)
            if (all[e].same == k + 1) {
                tally__buf_puts(b, "; the same runs in ");
                text(b, r->rows[all[e].row].benchmark);
                tally__buf_printf(b, ": %+.2f%%", r->rows[all[e].row].cells[all[e].config]
                                                      .pub.comparison.pct_imp);
            }
        tally__buf_puts(b, "</li>");
    }
    tally__buf_puts(b, "</ol>\n");
    tally__free_mem(all);
}

/* The environment keys whose recorded values differ between configurations, as a warning
 * under the headline. */
static void environment(tally__buf *b, const tally_report *r)
{
    size_t n = tally_report_env_diff_count(r);
    if (n == 0)
        return;
    tally__buf_puts(b, "<div class=\"warn env\" role=\"note\"><p><strong>The configurations "
                       "were measured differently</strong>: compare like with like, or name the "
                       "keys meant to change with --expect-diff.</p><ul>");
    for (size_t i = 0; i < n; i++) {
        tally__buf_puts(b, "<li>");
        text(b, tally_report_env_diff_key(r, i));
        tally__buf_puts(b, ":");
        for (size_t j = 0; j < r->config_count; j++) {
            const char *v = tally_report_env_diff_value(r, i, j);
            tally__buf_puts(b, j ? "; " : " ");
            text(b, r->configs[j].label);
            tally__buf_puts(b, " <code>");
            text(b, v ? v : "(not recorded)");
            tally__buf_puts(b, "</code>");
        }
        tally__buf_puts(b, "</li>");
    }
    tally__buf_puts(b, "</ul></div>\n");
}

/* Rows that did not pair (or paired under another name), as a warning under the headline: a
 * headline of 0 regressions means little when the rows it would count are missing. */
static void pairing_warning(tally__buf *b, const tally_report *r)
{
    tally__buf t = TALLY__BUF_INIT;
    tally__render_pairing_notes(&t, r, "", 0);
    if (t.len > 0 || t.failed) {
        tally__buf_puts(b, "<div class=\"warn\" role=\"note\"><p>");
        text_lines(b, &t);
        tally__buf_puts(b, "</p></div>\n");
    }
    tally__buf_dispose(&t);
}

static void contents(tally__buf *b, const tally_report *r)
{
    tally__group g;
    size_t pos = 0, count = 0;
    while (tally__report_next_group(&g, r, &pos))
        count++;
    if (count < 2)
        return;
    tally__buf_puts(b, "<nav><ol>");
    pos = 0;
    for (size_t k = 0; tally__report_next_group(&g, r, &pos); k++) {
        tally__buf_printf(b, "<li><a href=\"#benchmark-%zu\">", k + 1);
        text(b, r->rows[g.first].benchmark);
        tally__buf_printf(b, "</a> (%zu cases)</li>", g.count);
    }
    tally__buf_puts(b, "</ol></nav>\n");
}

int tally__render_html(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    const char *heading = compare_mode(r) ? "Benchmark comparison" : "Benchmark summary";
    tally__buf title = TALLY__BUF_INIT;
    tally__buf_printf(&title, "%s: ", heading);
    for (size_t j = 0; j < r->config_count; j++) {
        tally__buf_puts(&title, j ? (compare_mode(r) ? " vs " : ", ") : "");
        tally__buf_puts(&title, r->configs[j].label);
    }
    if (title.failed)
        b->failed = 1;
    tally__html_open(b, o->fragment, title.data ? title.data : heading);
    tally__buf_dispose(&title);
    tally__buf_printf(b, "<header><h1>%s</h1>\n", heading);
    headline(b, r);
    if (compare_mode(r))
        largest_changes(b, r);
    pairing_warning(b, r);
    environment(b, r);
    contents(b, r);
    tally__buf_puts(b, "</header>\n");
    tally__group g;
    size_t pos = 0;
    for (size_t k = 0; tally__report_next_group(&g, r, &pos); k++)
        benchmark(b, r, o, &g, k);
    footer(b, r);
    tally__html_close(b, o->fragment);
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}
