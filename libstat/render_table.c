/* tally's own text layout for humans: per benchmark a table of value ± CI half-width, delta,
 * p-value and verdict per configuration, footnotes, and the geometric mean of ratios. */
#include <stdio.h>
#include <string.h>

#include "report_internal.h"

#define MAX_TEXT 96

typedef enum align { LEFT, RIGHT } align;

typedef struct grid {
    size_t rows, cols;
    char (*text)[MAX_TEXT];
    tally_verdict *verdict; /* colour of a cell, NO_CHANGE for none */
    size_t *width;
} grid;

static size_t display_width(const char *s)
{
    size_t w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        w += (*p & 0xC0) != 0x80; /* count UTF-8 lead bytes only */
    return w;
}

static char *cell_text(grid *g, size_t row, size_t col)
{
    return g->text[row * g->cols + col];
}

/* CI half-width of the row's statistic when the summary has one (mean or median). */
static int ci_half_width(double *out, const tally__row *row, const tally__cell *c)
{
    const tally_summary *s = &c->pub.summary;
    if (row->statistic == TALLY_STAT_AMEAN && (s->defined & TALLY_SUMMARY_MEAN_CI)) {
        *out = (s->mean_ci_high - s->mean_ci_low) / 2;
        return 1;
    }
    if (row->statistic == TALLY_STAT_MEDIAN && (s->defined & TALLY_SUMMARY_MEDIAN_CI)) {
        *out = (s->median_ci_high - s->median_ci_low) / 2;
        return 1;
    }
    return 0;
}

static const char *verdict_text(tally_verdict v)
{
    switch (v) {
    case TALLY_VERDICT_IMPROVEMENT: return "improvement";
    case TALLY_VERDICT_REGRESSION: return "regression";
    case TALLY_VERDICT_INSUFFICIENT: return "insufficient [1]";
    default: return "no change";
    }
}

static void fill_value(char *out, const tally__row *row, const tally__cell *c, int prec)
{
    double h;
    if (!c->pub.present)
        snprintf(out, MAX_TEXT, "missing [2]");
    else if (!c->value_defined)
        snprintf(out, MAX_TEXT, "n/a");
    else if (ci_half_width(&h, row, c))
        snprintf(out, MAX_TEXT, "%.*f ± %.*f", prec, c->pub.value, prec, h);
    else
        snprintf(out, MAX_TEXT, "%.*f", prec, c->pub.value);
}

static void fill_comparison(grid *g, size_t gr, size_t col, const tally__cell *c)
{
    if (!c->pub.compared)
        return;
    const tally_comparison *cmp = &c->pub.comparison;
    snprintf(cell_text(g, gr, col), MAX_TEXT, "%+.2f%%", cmp->pct_imp);
    if (cmp->test == TALLY_TEST_MMTESTS_CI || cmp->test == TALLY_TEST_NONE ||
        cmp->verdict == TALLY_VERDICT_INSUFFICIENT)
        snprintf(cell_text(g, gr, col + 1), MAX_TEXT, "-");
    else if (c->pub.p_adjusted < 0.0001)
        snprintf(cell_text(g, gr, col + 1), MAX_TEXT, "<0.0001");
    else
        snprintf(cell_text(g, gr, col + 1), MAX_TEXT, "%.4f", c->pub.p_adjusted);
    snprintf(cell_text(g, gr, col + 2), MAX_TEXT, "%s", verdict_text(cmp->verdict));
    g->verdict[gr * g->cols + col + 2] = cmp->verdict;
}

static int build_grid(grid *g, const tally_report *r, const tally_render_options *o,
                      const tally__group *grp, int compare)
{
    size_t per_config = compare ? 4 : 1;
    g->rows = grp->count + 1;
    g->cols = 1 + 1 + (r->config_count - 1) * per_config;
    g->text = tally__calloc(g->rows * g->cols, sizeof(*g->text));
    g->verdict = tally__calloc(g->rows * g->cols, sizeof(*g->verdict));
    g->width = tally__calloc(g->cols, sizeof(*g->width));
    if (!g->text || !g->verdict || !g->width)
        return tally__error(TALLY_ENOMEM, "out of memory");
    snprintf(cell_text(g, 0, 0), MAX_TEXT, "case");
    snprintf(cell_text(g, 0, 1), MAX_TEXT, "%.*s", MAX_TEXT - 1, r->configs[0].label);
    for (size_t j = 1; j < r->config_count; j++) {
        size_t col = 2 + (j - 1) * per_config;
        snprintf(cell_text(g, 0, col), MAX_TEXT, "%.*s", MAX_TEXT - 1, r->configs[j].label);
        if (compare) {
            snprintf(cell_text(g, 0, col + 1), MAX_TEXT, "delta");
            snprintf(cell_text(g, 0, col + 2), MAX_TEXT, r->opts.adjust ? "p (adj)" : "p");
            snprintf(cell_text(g, 0, col + 3), MAX_TEXT, "verdict");
        }
    }
    for (size_t i = 0; i < grp->count; i++) {
        const tally__row *row = &r->rows[grp->first + i];
        int prec = tally__default_precision(r, o, row);
        snprintf(cell_text(g, i + 1, 0), MAX_TEXT, "%.*s", MAX_TEXT - 1, row->case_name);
        fill_value(cell_text(g, i + 1, 1), row, &row->cells[0], prec);
        for (size_t j = 1; j < r->config_count; j++) {
            size_t col = 2 + (j - 1) * per_config;
            fill_value(cell_text(g, i + 1, col), row, &row->cells[j], prec);
            if (compare)
                fill_comparison(g, i + 1, col + 1, &row->cells[j]);
        }
    }
    for (size_t k = 0; k < g->rows * g->cols; k++) {
        size_t w = display_width(g->text[k]);
        if (w > g->width[k % g->cols])
            g->width[k % g->cols] = w;
    }
    return TALLY_OK;
}

static void free_grid(grid *g)
{
    tally__free_mem(g->text);
    tally__free_mem(g->verdict);
    tally__free_mem(g->width);
}

static void print_grid(tally__buf *b, const grid *g, int color, int compare)
{
    for (size_t i = 0; i < g->rows; i++) {
        for (size_t c = 0; c < g->cols; c++) {
            const char *text = g->text[i * g->cols + c];
            size_t pad = g->width[c] - display_width(text);
            /* The case and the verdict are words: left-aligned; numbers right-aligned. */
            align a = c == 0 || (compare && c >= 2 && (c - 2) % 4 == 3) ? LEFT : RIGHT;
            tally_verdict v = g->verdict[i * g->cols + c];
            const char *on = !color ? ""
                             : v == TALLY_VERDICT_REGRESSION  ? "\033[31m"
                             : v == TALLY_VERDICT_IMPROVEMENT ? "\033[32m"
                                                              : "";
            if (c > 0)
                tally__buf_puts(b, "  ");
            if (a == RIGHT)
                tally__buf_pad(b, pad);
            tally__buf_printf(b, "%s%s%s", on, text, on[0] ? "\033[0m" : "");
            if (a == LEFT)
                tally__buf_pad(b, pad);
        }
        tally__buf_end_line(b);
    }
}

static int render_group(tally__buf *b, const tally_report *r, const tally_render_options *o,
                        const tally__group *grp, int *insufficient)
{
    const tally__row *first = &r->rows[grp->first];
    int compare = !r->opts.summaries_only && r->config_count > 1;
    tally__buf_printf(b, "%s", first->benchmark);
    tally__buf_printf(b, " (%s%s%s is better; %s)\n", first->unit,
                      first->unit[0] ? ", " : "",
                      first->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower",
                      tally__stat_title(first->statistic));
    grid g;
    memset(&g, 0, sizeof(g));
    int rc = build_grid(&g, r, o, grp, compare);
    if (rc == TALLY_OK)
        print_grid(b, &g, o->color, compare);
    for (size_t i = grp->first; i < grp->first + grp->count; i++)
        for (size_t j = 1; j < r->config_count; j++)
            if (r->rows[i].cells[j].pub.compared &&
                r->rows[i].cells[j].pub.comparison.verdict == TALLY_VERDICT_INSUFFICIENT)
                *insufficient = 1;
    free_grid(&g);
    return rc;
}

static int any_missing(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            if (!r->rows[i].cells[j].pub.present)
                return 1;
    return 0;
}

static void render_footer(tally__buf *b, const tally_report *r, int insufficient)
{
    int compare = !r->opts.summaries_only && r->config_count > 1;
    if (compare) {
        tally__buf_printf(b, "\n%s test, alpha %g", tally_test_name(r->opts.test), r->opts.alpha);
        if (r->opts.adjust != TALLY_ADJUST_NONE)
            tally__buf_printf(b, ", p-values adjusted (%s) across the report",
                              tally_adjust_name(r->opts.adjust));
        tally__buf_printf(b, "; ± is the half-width of the %g%% confidence interval.\n",
                          r->opts.confidence * 100);
    }
    if (!compare && any_missing(r))
        tally__buf_puts(b, "\n");
    if (insufficient)
        tally__buf_printf(b, "[1] too few samples for the test to reach alpha %g.\n", r->opts.alpha);
    if (any_missing(r)) {
        tally__buf_puts(b, "[2] missing cases:\n");
        tally__group g = { 0, r->row_count };
        tally__render_missing_notes(b, r, &g, "    ");
    }
    if (!compare)
        return;
    tally__buf_puts(b, "\nGeometric mean of ratios (new/base) over paired rows:\n");
    for (size_t j = 1; j < r->config_count; j++) {
        double gm;
        if (tally__render_geomean(&gm, b, r, j))
            tally__buf_printf(b, "  %s: %.4f\n", r->configs[j].label, gm);
        else
            tally__buf_printf(b, "  %s: n/a\n", r->configs[j].label);
    }
}

int tally__render_table(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    tally__group g;
    size_t pos = 0;
    int first = 1, insufficient = 0;
    while (tally__report_next_group(&g, r, &pos)) {
        if (!first)
            tally__buf_puts(b, "\n");
        first = 0;
        int rc = render_group(b, r, o, &g, &insufficient);
        if (rc != TALLY_OK)
            return rc;
    }
    render_footer(b, r, insufficient);
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}
