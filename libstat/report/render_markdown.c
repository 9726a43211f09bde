/* GitHub-flavoured Markdown for pull-request comments: a table per benchmark, significant
 * regressions and improvements in bold with a coloured marker, a legend and footnotes. */
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"

#define MARK_IMPROVEMENT "🟢"
#define MARK_REGRESSION "🔴"
#define MARK_INSUFFICIENT "❔"

/* Text in a table cell: characters with a meaning in Markdown tables are escaped. */
static void md_text(tally__buf *b, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (strchr("\\|*_`<>[]#", *p))
            tally__buf_puts(b, "\\");
        if (*p == '\n' || *p == '\r')
            tally__buf_puts(b, " ");
        else
            tally__buf_append(b, p, 1);
    }
}

static void md_value(tally__buf *b, const tally__row *row, const tally__cell *c, int prec)
{
    if (!c->pub.present) {
        tally__buf_puts(b, "missing [2]");
        return;
    }
    if (!c->value_defined) {
        tally__buf_puts(b, "n/a");
        return;
    }
    tally__buf_printf(b, "%.*f", prec, c->pub.value);
    const tally_summary *s = &c->pub.summary;
    if (row->statistic == TALLY_STAT_AMEAN && (s->defined & TALLY_SUMMARY_MEAN_CI))
        tally__buf_printf(b, " ± %.*f", prec, (s->mean_ci_high - s->mean_ci_low) / 2);
}

static void md_delta(tally__buf *b, const tally__cell *c)
{
    if (!c->pub.compared)
        return;
    const tally_comparison *cmp = &c->pub.comparison;
    if (!cmp->ratio_defined) {
        tally__buf_puts(b, "n/a");
        return;
    }
    int bold = cmp->verdict == TALLY_VERDICT_REGRESSION ||
               cmp->verdict == TALLY_VERDICT_IMPROVEMENT;
    tally__buf_printf(b, bold ? "**%+.2f%%**" : "%+.2f%%", cmp->pct_imp);
    if (cmp->interval_defined)
        tally__buf_printf(b, " [%+.2f, %+.2f]", cmp->pct_low, cmp->pct_high);
    if (cmp->verdict == TALLY_VERDICT_REGRESSION)
        tally__buf_puts(b, " " MARK_REGRESSION);
    else if (cmp->verdict == TALLY_VERDICT_IMPROVEMENT)
        tally__buf_puts(b, " " MARK_IMPROVEMENT);
    else if (cmp->verdict == TALLY_VERDICT_INSUFFICIENT)
        tally__buf_puts(b, " " MARK_INSUFFICIENT " [1]");
}

static void md_p(tally__buf *b, const tally__cell *c)
{
    if (!c->pub.compared || !c->pub.comparison.p_defined)
        return;
    if (c->pub.p_adjusted < 0.0001)
        tally__buf_puts(b, "<0.0001");
    else
        tally__buf_printf(b, "%.4f", c->pub.p_adjusted);
}

/* The verdict, with the runs needed for inconclusive rows and the MDE. */
static void md_verdict(tally__buf *b, const tally__cell *c)
{
    if (!c->pub.compared)
        return;
    const tally_comparison *cmp = &c->pub.comparison;
    tally__buf_puts(b, tally_verdict_name(cmp->verdict));
    if ((cmp->verdict == TALLY_VERDICT_INCONCLUSIVE ||
         cmp->verdict == TALLY_VERDICT_INSUFFICIENT) && cmp->runs_needed > 0) {
        if (cmp->runs_needed <= TALLY__RUNS_NEEDED_MAX)
            tally__buf_printf(b, ": needs ~%zu runs per side to resolve ±%g %%", cmp->runs_needed,
                              cmp->runs_target_pct);
        else
            tally__buf_printf(b, ": more than %zu runs per side to resolve ±%g %%",
                              (size_t)TALLY__RUNS_NEEDED_MAX, cmp->runs_target_pct);
    }
    if (cmp->mde_defined)
        tally__buf_printf(b, " (MDE ±%.2f%%)", cmp->mde_pct);
}

static void render_group(tally__buf *b, const tally_report *r, const tally_render_options *o,
                         const tally__group *g, int compare)
{
    const tally__row *first = &r->rows[g->first];
    tally__buf_puts(b, "### ");
    md_text(b, first->benchmark);
    tally__buf_puts(b, "\n\n");
    if (first->unit[0]) {
        md_text(b, first->unit);
        tally__buf_puts(b, ", ");
    }
    tally__buf_printf(b, "%s is better, %s\n\n",
                      first->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower",
                      tally__stat_title(first->statistic));
    tally__buf_puts(b, "| case |");
    for (size_t j = 0; j < r->config_count; j++) {
        tally__buf_puts(b, " ");
        md_text(b, r->configs[j].label);
        tally__buf_puts(b, " |");
        if (compare && j > 0)
            tally__buf_printf(b, " delta [%g%% CI] | p | verdict |", r->opts.confidence * 100);
    }
    tally__buf_puts(b, "\n|:---|");
    for (size_t j = 0; j < r->config_count; j++)
        tally__buf_puts(b, compare && j > 0 ? "---:|---:|---:|:---|" : "---:|");
    tally__buf_puts(b, "\n");
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const tally__row *row = &r->rows[i];
        int prec = tally__default_precision(r, o, row);
        tally__buf_puts(b, "| ");
        md_text(b, row->case_name);
        tally__buf_puts(b, " |");
        for (size_t j = 0; j < r->config_count; j++) {
            tally__buf_puts(b, " ");
            md_value(b, row, &row->cells[j], prec);
            tally__buf_puts(b, " |");
            if (compare && j > 0) {
                tally__buf_puts(b, " ");
                md_delta(b, &row->cells[j]);
                tally__buf_puts(b, " | ");
                md_p(b, &row->cells[j]);
                tally__buf_puts(b, " | ");
                md_verdict(b, &row->cells[j]);
                tally__buf_puts(b, " |");
            }
        }
        tally__buf_end_line(b);
    }
    tally__buf_puts(b, "\n");
}

static void render_notes(tally__buf *b, const tally_report *r, int compare)
{
    int insufficient = 0, missing = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            missing |= !c->present;
            insufficient |= c->compared && c->comparison.verdict == TALLY_VERDICT_INSUFFICIENT;
        }
    if (compare) {
        tally__buf_printf(b, "%s significant improvement · %s significant regression · "
                             "delta: positive is better · ",
                          MARK_IMPROVEMENT, MARK_REGRESSION);
        tally__render_method_line(b, r);
        tally__buf_puts(b, "\n");
        double worst;
        tally_report_worst_regression(&worst, r);
        if (worst > 0)
            tally__buf_printf(b, "**Worst significant regression: %.2f%%**\n\n", worst);
        tally__buf_printf(b, "Geometric mean of gains (> 1 is better), %g%% interval:\n\n",
                          r->opts.confidence * 100);
        for (size_t j = 1; j < r->config_count; j++) {
            tally_gain gain;
            tally__buf_puts(b, "- ");
            md_text(b, r->configs[j].label);
            int rc = tally_report_gain(&gain, r, j, NULL);
            if (rc == TALLY_ENOMEM)
                b->failed = 1;
            if (rc != TALLY_OK) {
                tally_error_clear();
                tally__buf_puts(b, ": n/a\n");
                continue;
            }
            tally__buf_printf(b, ": %.4f", gain.value);
            if (gain.interval_defined)
                tally__buf_printf(b, " [%.4f, %.4f]", gain.low, gain.high);
            tally__buf_printf(b, " over %zu rows\n", gain.rows);
        }
        tally__buf_puts(b, "\n");
    }
    if (insufficient)
        tally__buf_printf(b, "[1] %s too few samples for the test to reach alpha %g.\n\n",
                          MARK_INSUFFICIENT, r->opts.alpha);
    if (missing) {
        tally__buf_puts(b, "[2] Missing cases:\n\n");
        tally__group g = { 0, r->row_count };
        tally__render_missing_notes(b, r, &g, "- ");
        tally__buf_puts(b, "\n");
    }
}

int tally__render_markdown(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    int compare = !r->opts.summaries_only && r->config_count > 1;
    tally__group g;
    size_t pos = 0;
    while (tally__report_next_group(&g, r, &pos))
        render_group(b, r, o, &g, compare);
    render_notes(b, r, compare);
    /* One trailing newline at most. */
    while (b->len > 1 && !b->failed && b->data[b->len - 1] == '\n' && b->data[b->len - 2] == '\n')
        b->data[--b->len] = '\0';
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}
