/* A history as one self-contained HTML file (the compare report's document and stylesheet,
 * render_html.c): the change points newest first in a table, then per series that changed its
 * trend plot (plot_history.c) and its levels. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/history_internal.h"
#include "report/plot.h"

static void text(tally__buf *b, const char *s)
{
    tally__svg_text(b, s);
}

static void value(tally__buf *b, double v, const char *unit)
{
    char out[80];
    tally__plot_value(out, sizeof out, v, unit);
    text(b, out);
}

static void changes_table(tally__buf *b, const tally_history *h)
{
    tally__buf_puts(b, "<div class=\"scroll\"><table><thead><tr><th>point</th>"
                       "<th class=\"key\">commit</th><th class=\"key\">series</th><th>before</th>"
                       "<th>after</th>");
    tally__buf_printf(b, "<th>change [%g%% CI]</th><th>p</th>"
                         "<th class=\"key\">verdict</th></tr></thead><tbody>\n",
                      100 * h->opts.confidence);
    for (size_t i = 0; i < h->change_count; i++) {
        const tally__hseries *s = &h->series[h->changes[i].series];
        const tally_changepoint *c = &s->cps[h->changes[i].k];
        tally__buf_printf(b, "<tr><td>%zu</td><td class=\"key\"><code>", c->index + 1);
        text(b, h->commits[c->index]);
        tally__buf_printf(b, "</code></td><td class=\"key\"><a href=\"#series-%zu\">",
                          h->changes[i].series + 1);
        text(b, s->benchmark);
        tally__buf_puts(b, "/");
        text(b, s->case_name);
        tally__buf_puts(b, "</a></td><td>");
        value(b, c->before, s->unit);
        tally__buf_puts(b, "</td><td>");
        value(b, c->after, s->unit);
        tally__buf_printf(b, "</td><td class=\"%s\">%+.2f%%", tally__verdict_class(c->verdict),
                          c->pct_imp);
        if (isfinite(c->pct_imp_low))
            tally__buf_printf(b, " [%+.2f, %+.2f]", c->pct_imp_low, c->pct_imp_high);
        tally__buf_printf(b, "</td><td>%.2g</td><td class=\"key verdict %s\">%s</td></tr>\n",
                          c->p_value, tally__verdict_class(c->verdict),
                          tally__verdict_word(c->verdict));
    }
    tally__buf_puts(b, "</tbody></table></div>\n");
}

static void series_section(tally__buf *b, const tally_history *h, size_t i)
{
    const tally__hseries *s = &h->series[i];
    tally__buf_printf(b, "<section id=\"series-%zu\"><h2>", i + 1);
    text(b, s->benchmark);
    tally__buf_puts(b, "/");
    text(b, s->case_name);
    tally__buf_puts(b, "</h2>\n<p class=\"muted\">");
    text(b, s->unit[0] ? s->unit : "no unit");
    tally__buf_printf(b, ", %s is better; %zu points, %zu change point%s", s->direction ==
                      TALLY_LOWER_IS_BETTER ? "lower" : "higher", s->n, s->cp_count,
                      s->cp_count == 1 ? "" : "s");
    if (s->outlier_count)
        tally__buf_printf(b, ", %zu outlier%s (hollow marks, left out of the levels)",
                          s->outlier_count, s->outlier_count == 1 ? "" : "s");
    tally__buf_puts(b, ".</p>\n<figure>");
    tally__plot_history(b, h, s);
    tally__buf_puts(b, "<figcaption>Each point's mean (runs' spread as a vertical line), each "
                       "segment's level with its interval, dashed lines where the level "
                       "changes; hover a point for its commit.</figcaption></figure>\n");
    if (s->trend.drifting)
        tally__buf_printf(b, "<p class=\"warn\"><strong>Drift</strong> of the newest level: "
                             "%+.3f%% per point [%+.3f, %+.3f], %+.2f%% over %zu points "
                             "(Mann-Kendall p %.2g), %s.</p>\n", s->trend.slope_pct,
                          s->trend.slope_pct_low, s->trend.slope_pct_high, s->trend.total_pct,
                          s->trend.count, s->trend.p_value, tally__verdict_word(s->trend.verdict));
    tally__buf_puts(b, "</section>\n");
}

int tally__history_html(tally__buf *b, const tally_history *h, int fragment)
{
    tally__buf title = TALLY__BUF_INIT;
    tally__buf_printf(&title, "Performance history: %s to %s", h->commits[0],
                      h->commits[h->point_count - 1]);
    if (title.failed)
        b->failed = 1;
    tally__html_open(b, fragment, title.data ? title.data : "Performance history");
    tally__buf_dispose(&title);
    size_t changed = 0, drifting = 0;
    for (size_t i = 0; i < h->series_count; i++) {
        changed += h->series[i].cp_count > 0;
        drifting += h->series[i].trend.drifting;
    }
    tally__buf_puts(b, "<header><h1>Performance history</h1>\n<p class=\"headline\">");
    tally__buf_printf(b, "%zu point%s from <code>", h->point_count, h->point_count == 1 ? "" : "s");
    text(b, h->commits[0]);
    tally__buf_puts(b, "</code> to <code>");
    text(b, h->commits[h->point_count - 1]);
    tally__buf_printf(b, "</code>, %zu series: %zu change point%s in %zu series", h->series_count,
                      h->change_count, h->change_count == 1 ? "" : "s", changed);
    if (drifting)
        tally__buf_printf(b, ", %zu drifting", drifting);
    tally__buf_printf(b, ".</p>\n<p class=\"notes\">A change is a level of at least %zu points "
                         "that moves by %g%% or more, Welch's t on the runs of the two levels "
                         "with p corrected for the splits tried at most %g; change = pct-imp, "
                         "positive is better.</p></header>\n", h->opts.min_segment,
                      h->opts.min_change_pct, h->opts.alpha);
    if (h->change_count) {
        tally__buf_puts(b, "<h2>Change points, newest first</h2>\n");
        changes_table(b, h);
    }
    for (size_t i = 0; i < h->series_count; i++)
        if (h->series[i].cp_count || h->series[i].trend.drifting)
            series_section(b, h, i);
    if (!changed && !drifting)
        tally__buf_puts(b, "<p>No series changed.</p>\n");
    size_t outliers = 0, in_series = 0;
    for (size_t i = 0; i < h->series_count; i++)
        if (!h->series[i].cp_count && !h->series[i].trend.drifting && h->series[i].outlier_count) {
            outliers += h->series[i].outlier_count;
            in_series++;
        }
    if (outliers)
        tally__buf_printf(b, "<p class=\"notes\">%zu outlier point%s (spikes) in %zu series "
                             "without a change, left out of the levels and tests.</p>\n",
                          outliers, outliers == 1 ? "" : "s", in_series);
    tally__html_close(b, fragment);
    return b->failed ? tally__oom() : TALLY_OK;
}
