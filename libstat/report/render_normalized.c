/* The AMD layout: per benchmark a Test/Units/Interpretation/Statistic block framed by lines of
 * 66 '=', then `1.00 [ -0.00]( 1.94)` cells: value normalised to the baseline, [pct imp], (CV). */
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/stats_internal.h"

#define RULE "=================================================================="
#define CELL_GAP 5    /* spaces before each cell */
#define RATIO_MIN 4   /* "%.2f" of a ratio below 10 */
#define PCT_MIN 6     /* "[%6.2f]" */
#define CV_MIN 5      /* "(%5.2f)" */

/* pct imp as the AMD posts print it: the baseline reads -0.00 on lower-is-better tests because
 * the difference is negated there, (1 - ratio) * 100 computed as -(ratio - 1) * 100. */
static double amd_pct(double ratio, tally_direction dir)
{
    double diff = (ratio - 1.0) * 100.0;
    return dir == TALLY_LOWER_IS_BETTER ? -diff : diff;
}

/* The widths of a group's cells, from their content: the posts' `%.2f [%6.2f](%5.2f)` at
 * least, wider for a ratio >= 10, a pct imp <= -100 or a CV >= 100, so columns stay aligned. */
typedef struct widths {
    int ratio, pct, cv;
    size_t column; /* a configuration's columns: the gap and the cell, or its title + 2 */
} widths;

static int ratio_of(double *ratio, const tally__row *row, size_t j)
{
    const tally__cell *base = &row->cells[0], *c = &row->cells[j];
    if (!c->value_defined || !base->value_defined || base->pub.value == 0)
        return 0;
    *ratio = c->pub.value / base->pub.value;
    return 1;
}

static int len_of(const char *fmt, double v)
{
    char text[400];
    int n = snprintf(text, sizeof(text), fmt, v);
    return n < 0 ? 0 : n;
}

static size_t cell_width(const widths *w)
{
    return (size_t)(w->ratio + w->pct + w->cv + 5); /* " [", "]", "(", ")" */
}

static void measure(widths *w, const tally_report *r, const tally__group *g)
{
    w->ratio = RATIO_MIN;
    w->pct = PCT_MIN;
    w->cv = CV_MIN;
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__row *row = &r->rows[i];
            const tally__cell *c = &row->cells[j];
            double ratio;
            int n;
            if (c->pub.present && ratio_of(&ratio, row, j)) {
                if ((n = len_of("%.2f", ratio)) > w->ratio)
                    w->ratio = n;
                if ((n = len_of("%.2f", amd_pct(ratio, row->direction))) > w->pct)
                    w->pct = n;
            }
            if (c->pub.present && c->cv_defined && (n = len_of("%.2f", c->cv)) > w->cv)
                w->cv = n;
        }
    w->column = CELL_GAP + cell_width(w);
    /* A title longer than its column widens it: titles end two columns before their cells. */
    for (size_t j = 0; j < r->config_count; j++) {
        size_t title = strlen(r->configs[j].label) + strlen("[pct imp](CV)") + 3;
        if (title > w->column)
            w->column = title;
    }
}

/* `over`: columns the case name took beyond its column, taken from the gap before the first
 * cell (one space stays). */
static void render_cell(tally__buf *b, const tally__row *row, size_t j, const widths *w,
                        size_t over, int color)
{
    const tally__cell *c = &row->cells[j];
    size_t gap = w->column - cell_width(w);
    tally__buf_pad(b, gap > over ? gap - over : 1);
    if (!c->pub.present) {
        tally__buf_printf(b, "%-*s", (int)cell_width(w), "missing");
        return;
    }
    double ratio;
    if (!ratio_of(&ratio, row, j))
        tally__buf_printf(b, "%*s [%*s]", w->ratio, "n/a", w->pct, "n/a");
    else
        tally__buf_printf(b, "%*.2f [%s%*.2f%s]", w->ratio, ratio, tally__color_on(c, color),
                          w->pct, amd_pct(ratio, row->direction), tally__color_off(c, color));
    if (c->cv_defined)
        tally__buf_printf(b, "(%*.2f)", w->cv, c->cv);
    else
        tally__buf_printf(b, "(%*s)", w->cv, "n/a");
}

/* Column headers end two columns before their cells do, as in the posts. */
static void render_header(tally__buf *b, const tally_report *r, const char *label,
                          size_t case_width, const widths *w)
{
    size_t start = b->len;
    if (label[0]) /* a blank label: no colon */
        tally__buf_printf(b, "%s:", label);
    for (size_t j = r->first_shown; j < r->config_count; j++) {
        size_t title_len = strlen(r->configs[j].label) + strlen("[pct imp](CV)");
        size_t end = case_width + w->column * (j - r->first_shown + 1) - 2;
        size_t used = b->len - start;
        tally__buf_pad(b, used + title_len < end ? end - used - title_len : 1);
        tally__buf_printf(b, "%s[pct imp](CV)", r->configs[j].label);
    }
    tally__buf_end_line(b);
}

static void render_group(tally__buf *b, const tally_report *r, const tally__group *g,
                         const void *ctx)
{
    const tally_render_options *o = ctx;
    const tally__row *first = &r->rows[g->first];
    size_t case_width = tally__group_case_column(r, o, g, 0);
    widths w;
    measure(&w, r, g);
    const char *units = tally__shown_units_text(r, o, first);
    /* The posts' rule is 66 columns; a narrower terminal gets one as wide as itself. */
    int rule = o->fit_width > 0 && o->fit_width < (int)strlen(RULE) ? o->fit_width
                                                                   : (int)strlen(RULE);
    tally__buf_printf(b, "%.*s\nTest          : %s\n", rule, RULE, first->benchmark);
    tally__buf_printf(b, "Units         : Normalized%s%s\n", units[0] ? " " : "", units);
    tally__buf_printf(b, "Interpretation: %s is better\n",
                      first->direction == TALLY_HIGHER_IS_BETTER ? "Higher" : "Lower");
    tally__buf_printf(b, "Statistic     : %s\n%.*s\n", first->stat_title,
                      rule, RULE);
    render_header(b, r, tally__shown_case_label(r, o, first->benchmark), case_width, &w);
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const tally__row *row = &r->rows[i];
        const char *name;
        size_t len = tally__shown_case(&name, r, o, row);
        size_t over = len > case_width ? len - case_width : 0;
        tally__buf_pad(b, case_width - (len - over));
        tally__buf_append(b, name, len);
        for (size_t j = r->first_shown; j < r->config_count; j++)
            render_cell(b, row, j, &w, j == r->first_shown ? over : 0, o->color);
        tally__buf_end_line(b);
    }
    tally__render_missing_notes(b, r, g, "");
}

int tally__render_normalized(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    return tally__render_groups(b, r, "\n\n", render_group, o);
}
