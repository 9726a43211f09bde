/* The compare-mmtests layout: one block per benchmark, rows per statistic and case,
 * `%12.4f (%7.2f%%)` cells with `*` instead of the parentheses when significant. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"

/* One statistic row of the layout. */
typedef enum row_kind { ROW_MIN, ROW_CENTRE, ROW_STDDEV, ROW_COEFFVAR, ROW_MAX, ROW_BAMEAN } row_kind;

typedef struct stat_row {
    row_kind kind;
    int bamean_index;
    int harmonic; /* BAmean rows of higher-is-better benchmarks: BHmean-N */
    char title[16];
} stat_row;

#define LABEL_WIDTH 9 /* "BAmean-99", the longest statistic name */
#define VALUE_MIN 12  /* "%12.4f" */
#define PCT_MIN 7     /* " (%7.2f%%)" */

/* The widths of a group's cells, from their content: at least compare-mmtests' %12.{prec}f
 * and %7.2f, wider when a value or a percentage needs it (1.2e9 B/s, -1000 %), so a column
 * never runs into its neighbour. */
typedef struct widths {
    int value; /* the value, right-aligned, with at least one space before it */
    int pct;   /* the percentage inside " (...%)" */
    int prec;  /* decimals of the values */
} widths;

static const char *centre_title(tally_statistic s)
{
    switch (s) {
    case TALLY_STAT_HMEAN: return "Hmean";
    case TALLY_STAT_GMEAN: return "Gmean";
    case TALLY_STAT_MEDIAN: return "Median";
    default: return "Amean";
    }
}

/* Min, the centre (Amean, Hmean, ...), Stddev, CoeffVar, Max, BAmean-50/95/99 (with
 * `harmonic`, where higher is better: BHmean-N, the harmonic mean of the best), as
 * compare-mmtests prints them. A centre that is itself Min, Max or BAmean has no extra row. */
static size_t build_rows(stat_row *rows, tally_statistic centre, int harmonic)
{
    size_t n = 0;
    rows[n++] = (stat_row){ ROW_MIN, 0, 0, "Min" };
    if (centre != TALLY_STAT_MIN && centre != TALLY_STAT_MAX && centre != TALLY_STAT_BAMEAN) {
        rows[n] = (stat_row){ ROW_CENTRE, 0, 0, "" };
        strcpy(rows[n++].title, centre_title(centre));
    }
    rows[n++] = (stat_row){ ROW_STDDEV, 0, 0, "Stddev" };
    rows[n++] = (stat_row){ ROW_COEFFVAR, 0, 0, "CoeffVar" };
    rows[n++] = (stat_row){ ROW_MAX, 0, 0, "Max" };
    for (int k = 0; k < TALLY__BAMEAN_COUNT; k++) {
        /* The compared BAmean (--statistic bamean) stays the arithmetic one the test is about. */
        int h = harmonic && centre != TALLY_STAT_BAMEAN;
        rows[n] = (stat_row){ ROW_BAMEAN, k, h, "" };
        snprintf(rows[n++].title, sizeof(rows[0].title), "%s-%d", h ? "BHmean" : "BAmean",
                 (int)tally__bamean_percents[k]);
    }
    return n;
}

/* compare-mmtests marks significance on the mean rows only (Amean, Hmean, Gmean), never on
 * Median, Min, Max or BAmean rows. */
static int is_marked_row(const stat_row *sr, tally_statistic centre)
{
    return sr->kind == ROW_CENTRE && (centre == TALLY_STAT_AMEAN || centre == TALLY_STAT_HMEAN ||
                                      centre == TALLY_STAT_GMEAN);
}

/* Is this the row whose statistic the report compares? */
static int is_compared_row(const stat_row *sr, tally_statistic centre)
{
    switch (sr->kind) {
    case ROW_CENTRE: return 1;
    case ROW_MIN: return centre == TALLY_STAT_MIN;
    case ROW_MAX: return centre == TALLY_STAT_MAX;
    case ROW_BAMEAN: return centre == TALLY_STAT_BAMEAN && tally__bamean_percents[sr->bamean_index] == 95.0;
    default: return 0;
    }
}

static int stat_value(double *out, const stat_row *sr, const tally__cell *c)
{
    if (!c->pub.present)
        return 0;
    switch (sr->kind) {
    /* A summary-only case has no order statistics: "n/a" (docs/formats.md). */
    case ROW_MIN: *out = c->pub.summary.min; return !c->summary_only;
    case ROW_MAX: *out = c->pub.summary.max; return !c->summary_only;
    case ROW_CENTRE: *out = c->pub.value; return c->value_defined;
    case ROW_STDDEV: *out = c->spread; return c->spread_defined;
    case ROW_COEFFVAR: *out = c->cv; return c->cv_defined;
    case ROW_BAMEAN:
        if (sr->harmonic && !c->bhmean_defined)
            return 0;
        *out = sr->harmonic ? c->bhmean[sr->bamean_index] : c->bamean[sr->bamean_index];
        return !c->summary_only;
    }
    return 0;
}

/* Split a configuration name into compare-mmtests' two header lines: at the first '-', except
 * that a "-rcN" suffix stays with the version ("5.14.0-rc3-vanilla" -> "5.14.0-rc3" /
 * "vanilla"). A name without '-' goes on the second line. */
static void split_label(const char *label, size_t *first_len, const char **second)
{
    const char *dash = strchr(label, '-');
    if (dash && dash[1] == 'r' && dash[2] == 'c' && dash[3] >= '0' && dash[3] <= '9') {
        const char *p = dash + 3;
        while (*p >= '0' && *p <= '9')
            p++;
        dash = *p == '-' ? p : (*p == '\0' ? NULL : strchr(p, '-'));
        if (dash == NULL && *p == '\0') {
            *first_len = strlen(label);
            *second = "";
            return;
        }
    }
    if (dash == NULL) {
        *first_len = 0;
        *second = label;
        return;
    }
    *first_len = (size_t)(dash - label);
    *second = dash + 1;
}

static void render_header(tally__buf *b, const tally_report *r, size_t lead, size_t col_width)
{
    /* The first line is left out when no name has a first part (no name holds a '-'). */
    int first_line = 1;
    for (size_t j = 0; j < r->config_count; j++) {
        size_t first_len;
        const char *second;
        split_label(r->configs[j].label, &first_len, &second);
        if (first_len > 0)
            first_line = 0;
    }
    for (int line = first_line; line < 2; line++) {
        tally__buf_pad(b, lead);
        for (size_t j = r->first_shown; j < r->config_count; j++) {
            size_t first_len;
            const char *second;
            split_label(r->configs[j].label, &first_len, &second);
            if (line == 0)
                tally__buf_printf(b, "%*.*s", (int)col_width, (int)first_len, r->configs[j].label);
            else
                tally__buf_printf(b, "%*s", (int)col_width, second);
        }
        tally__buf_end_line(b);
    }
}

static size_t column_width(const tally_report *r, const widths *w)
{
    size_t width = (size_t)w->value + (size_t)w->pct + 4;
    for (size_t j = 0; j < r->config_count; j++) {
        size_t first_len;
        const char *second;
        split_label(r->configs[j].label, &first_len, &second);
        if (first_len + 1 > width)
            width = first_len + 1;
        if (strlen(second) + 1 > width)
            width = strlen(second) + 1;
    }
    return width;
}

/* The percentage of a cell against the baseline (0 on the baseline); 0 when undefined. */
static int cell_pct(double *pct, const stat_row *sr, const tally__row *row, size_t j, double v)
{
    double base;
    *pct = 0;
    if (j == 0)
        return 1;
    tally_direction dir = sr->kind == ROW_STDDEV || sr->kind == ROW_COEFFVAR
                              ? TALLY_LOWER_IS_BETTER
                              : row->direction;
    if (stat_value(&base, sr, &row->cells[0]) && tally_pct_imp(pct, base, v, dir) == TALLY_OK)
        return 1;
    tally_error_clear();
    return 0;
}

static void render_cell(tally__buf *b, const stat_row *sr, const tally__row *row, size_t j,
                        const widths *w, int marked, int color)
{
    const tally__cell *c = &row->cells[j];
    double v, pct;
    if (!c->pub.present) {
        tally__buf_printf(b, "%*s%*s", w->value, "missing", w->pct + 4, "");
        return;
    }
    if (!stat_value(&v, sr, c)) {
        tally__buf_printf(b, "%*s%*s", w->value, "n/a", w->pct + 4, "");
        return;
    }
    char text[400];
    tally__format_fixed(text, sizeof(text), w->prec, v);
    tally__buf_printf(b, "%*s", w->value, text);
    if (!cell_pct(&pct, sr, row, j, v))
        tally__buf_printf(b, " (%*s )", w->pct, "n/a");
    else if (marked)
        tally__buf_printf(b, " %s*%*.2f%%*%s", tally__color_on(c, color), w->pct, pct,
                          tally__color_off(c, color));
    else
        tally__buf_printf(b, " (%*.2f%%)", w->pct, pct);
}

static int text_len(const char *fmt, int prec, double v)
{
    char text[400];
    int n = snprintf(text, sizeof(text), fmt, prec, v);
    return n < 0 ? 0 : n;
}

static void measure(widths *w, const tally_report *r, const tally__group *g, const stat_row *rows,
                    size_t nrows)
{
    w->value = VALUE_MIN;
    w->pct = PCT_MIN;
    for (size_t s = 0; s < nrows; s++)
        for (size_t i = g->first; i < g->first + g->count; i++)
            for (size_t j = 0; j < r->config_count; j++) {
                const tally__row *row = &r->rows[i];
                double v, pct;
                if (!stat_value(&v, &rows[s], &row->cells[j]))
                    continue;
                char text[400];
                int n = (int)tally__format_fixed(text, sizeof(text), w->prec, v) + 1;
                if (n > w->value)
                    w->value = n;
                if (cell_pct(&pct, &rows[s], row, j, v) && (n = text_len("%.*f", 2, pct)) > w->pct)
                    w->pct = n;
            }
}

/* The row label and the case, as compare-mmtests starts every line. */
static void row_start(tally__buf *b, const char *title, const tally_report *r,
                      const tally_render_options *o, const tally__row *row, size_t case_width)
{
    const char *name;
    size_t len = tally__shown_case(&name, r, o, row);
    tally__buf_printf(b, "%-*s ", LABEL_WIDTH, title);
    tally__buf_append(b, name, len);
    tally__buf_pad(b, case_width - len);
}

/* --print-ratio: each value of the compared statistic over the baseline's, then their geometric
 * mean per configuration over the cases both have. */
static void render_ratios(tally__buf *b, const tally_report *r, const tally_render_options *o,
                          const tally__group *g, const stat_row *sr, const widths *w,
                          size_t case_width)
{
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const tally__row *row = &r->rows[i];
        row_start(b, "Ratio", r, o, row, case_width);
        for (size_t j = r->first_shown; j < r->config_count; j++) {
            double base, v;
            if (stat_value(&base, sr, &row->cells[0]) && stat_value(&v, sr, &row->cells[j]) &&
                base != 0)
                tally__buf_printf(b, "%*.2f%*s", w->value, v / base, w->pct + 4, "");
            else
                tally__buf_printf(b, "%*s%*s", w->value, "n/a", w->pct + 4, "");
        }
        tally__buf_end_line(b);
    }
    tally__buf_printf(b, "%-*s %-*s", LABEL_WIDTH, "Gmean", (int)case_width, "");
    for (size_t j = r->first_shown; j < r->config_count; j++) {
        double logs = 0;
        size_t paired = 0;
        for (size_t i = g->first; i < g->first + g->count; i++) {
            double base, v;
            const tally__row *row = &r->rows[i];
            if (stat_value(&base, sr, &row->cells[0]) && stat_value(&v, sr, &row->cells[j]) &&
                base > 0 && v > 0) {
                logs += log(v / base);
                paired++;
            }
        }
        if (paired)
            tally__buf_printf(b, "%*.2f%*s", w->value, exp(logs / (double)paired), w->pct + 4, "");
        else
            tally__buf_printf(b, "%*s%*s", w->value, "n/a", w->pct + 4, "");
    }
    tally__buf_end_line(b);
}

static void render_group(tally__buf *b, const tally_report *r, const tally__group *g,
                         const void *ctx)
{
    const tally_render_options *o = ctx;
    const tally__row *first = &r->rows[g->first];
    size_t case_width = tally__group_case_width(r, o, g);
    stat_row rows[16];
    /* BHmean needs the samples: a report made from partitions keeps the BAmean rows. */
    int harmonic = first->direction == TALLY_HIGHER_IS_BETTER;
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            if (r->rows[i].cells[j].pub.present && !r->rows[i].cells[j].bhmean_defined &&
                r->rows[i].cells[j].part_made)
                harmonic = 0;
    size_t nrows = build_rows(rows, first->statistic, harmonic);
    const stat_row *compared = NULL;
    for (size_t s = 0; s < nrows && compared == NULL; s++)
        if (is_compared_row(&rows[s], first->statistic))
            compared = &rows[s];
    stat_row compared_row = compared ? *compared : rows[0];
    if (o->only_statistic) {
        size_t kept = 0;
        for (size_t s = 0; s < nrows; s++)
            if (is_compared_row(&rows[s], first->statistic))
                rows[kept++] = rows[s];
        nrows = kept;
    }
    widths w;
    w.prec = tally__seed_precision(r, o, g, first->direction == TALLY_HIGHER_IS_BETTER ? 2 : 4);
    measure(&w, r, g, rows, nrows);
    size_t col_width = column_width(r, &w);
    /* Long configuration names widen the value, as compare-mmtests does. */
    w.value = (int)col_width - w.pct - 4;

    tally__buf_printf(b, "%s\n", first->benchmark);
    render_header(b, r, LABEL_WIDTH + 1 + case_width, col_width);
    for (size_t s = 0; s < nrows; s++) {
        int marked_row = is_marked_row(&rows[s], first->statistic);
        for (size_t i = g->first; i < g->first + g->count; i++) {
            const tally__row *row = &r->rows[i];
            row_start(b, rows[s].title, r, o, row, case_width);
            for (size_t j = r->first_shown; j < r->config_count; j++) {
                const tally__cell *c = &row->cells[j];
                int marked = marked_row && c->pub.compared && c->pub.comparison.significant;
                render_cell(b, &rows[s], row, j, &w, marked, o->color);
            }
            tally__buf_end_line(b);
        }
    }
    if (o->print_ratio)
        render_ratios(b, r, o, g, &compared_row, &w, case_width);
    tally__render_missing_notes(b, r, g, "");
}

int tally__render_mmtests(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    return tally__render_groups(b, r, "\n", render_group, o);
}
