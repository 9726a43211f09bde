/* The `450.40 (0.00 pct)` layout: configurations side by side, the case in the first column. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"

#define CASE_GAP 4     /* spaces between the case and the first cell (--case-gap) */
#define MIN_CELL 24    /* cells are left-aligned in at least this width */
#define TITLE_INDENT 4 /* configuration names start this far into their cells (--title-indent) */

/* The posts print pct truncated toward zero to two decimals (459.44 against 450.40 is +2.0071 %,
 * printed 2.00; 1621.24 against 1630.13 is -0.5454 %, printed -0.54). The nudge keeps exact
 * hundredths (2.00 computed as 1.9999999999999996) from dropping a digit. */
static double truncated_pct(double pct)
{
    double t = trunc(pct * 100.0 + copysign(1e-7, pct)) / 100.0;
    return t == 0 ? 0.0 : t; /* never "-0.00" */
}

/* Format one cell into `out` (emptied first), its "(pct)" coloured when `color`. */
static void format_cell(tally__buf *out, const tally__row *row, size_t j, int prec, int color)
{
    const tally__cell *c = &row->cells[j], *base = &row->cells[0];
    double pct;
    char v[400];
    if (c->pub.present && c->value_defined)
        tally__format_fixed(v, sizeof(v), prec, c->pub.value);
    out->len = 0;
    if (!c->pub.present)
        tally__buf_puts(out, "missing");
    else if (!c->value_defined)
        tally__buf_puts(out, "n/a");
    else if (j == 0)
        tally__buf_printf(out, "%s (%.2f pct)", v, 0.0);
    else if (!base->value_defined)
        tally__buf_printf(out, "%s (n/a pct)", v);
    else if (tally_pct_imp(&pct, base->pub.value, c->pub.value, row->direction) == TALLY_OK)
        tally__buf_printf(out, "%s %s(%.2f pct)%s", v,
                          tally__color_on(c, color), truncated_pct(pct),
                          tally__color_off(c, color));
    else {
        tally_error_clear();
        tally__buf_printf(out, "%s (n/a pct)", v);
    }
}

static void render_group(tally__buf *b, const tally_report *r, const tally__group *g,
                         const void *ctx)
{
    const tally_render_options *o = ctx;
    const tally__row *first = &r->rows[g->first];
    int prec = tally__seed_precision(r, o, g, 2);
    /* One column wider than the longest name, as the post; a set width is taken as it is. */
    size_t case_width = tally__group_case_column(r, o, g, 1);
    size_t gap = tally__group_case_gap(r, g, CASE_GAP);
    size_t indent = tally__group_title_indent(r, g, TITLE_INDENT);
    size_t cell_width = MIN_CELL;
    tally__buf cell = TALLY__BUF_INIT;
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            format_cell(&cell, &r->rows[i], j, prec, 0);
            if (cell.len + 3 > cell_width)
                cell_width = cell.len + 3;
        }
    for (size_t j = 0; j < r->config_count; j++)
        if (strlen(r->configs[j].label) + indent + 1 > cell_width)
            cell_width = strlen(r->configs[j].label) + indent + 1;

    tally__buf_printf(b, "%s\n", first->benchmark);
    const char *label = tally__shown_case_label(r, o, first->benchmark);
    size_t lead = case_width + gap + indent;
    /* A blank label: no colon, the titles where they would be. */
    size_t used = label[0] ? strlen(label) + 1 : 0;
    if (label[0])
        tally__buf_printf(b, "%s:", label);
    tally__buf_pad(b, used < lead ? lead - used : 1);
    for (size_t j = r->first_shown; j < r->config_count; j++)
        tally__buf_printf(b, "%-*s", (int)cell_width, r->configs[j].label);
    tally__buf_end_line(b);
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const char *name;
        size_t len = tally__shown_case(&name, r, o, &r->rows[i]);
        size_t over = len > case_width ? len - case_width : 0;
        tally__buf_pad(b, case_width - (len - over));
        tally__buf_append(b, name, len);
        tally__buf_pad(b, gap > over ? gap - over : 1);
        for (size_t j = r->first_shown; j < r->config_count; j++) {
            /* Padded by the plain text's width: colour codes take no columns. */
            format_cell(&cell, &r->rows[i], j, prec, 0);
            size_t plain = cell.len;
            format_cell(&cell, &r->rows[i], j, prec, o->color);
            tally__buf_puts(b, cell.failed ? "" : cell.data);
            tally__buf_pad(b, cell_width > plain ? cell_width - plain : 0);
        }
        tally__buf_end_line(b);
    }
    tally__render_missing_notes(b, r, g, "");
    if (cell.failed)
        b->failed = 1; /* the report is incomplete: fail it as out of memory */
    tally__buf_dispose(&cell);
}

int tally__render_pct(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    return tally__render_groups(b, r, "\n", render_group, o);
}
