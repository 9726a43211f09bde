/* Exact units whose samples vary (docs/reports.md, "Exact units"): a unit declared exact (go
 * test's `Unit NAME assume=exact`) is compared without a significance test, on the premise that
 * every run gives the same number. When a cell's runs disagree, that premise is false and a
 * difference may be nothing but that variation: the report says so, next to its other notes,
 * in every format (the JSON marks each such cell with `exact_varies`). */
#include <string.h>

#include "report/report_internal.h"
#include "util/utf8.h"

int tally__cell_exact_varies(const tally__row *row, const tally__cell *c)
{
    const tally_summary *s = &c->pub.summary;
    return row->exact && c->pub.present && s->n > 1 && s->min != s->max;
}

void tally__render_exact_notes(tally__buf *b, const tally_report *r, const char *prefix)
{
    /* One note per unit, naming up to three of its varying cells and how many there are. */
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        if (!row->exact)
            continue;
        int seen_before = 0;
        for (size_t k = 0; k < i && !seen_before; k++)
            seen_before = r->rows[k].exact && strcmp(r->rows[k].unit, row->unit) == 0;
        if (seen_before)
            continue;
        size_t vary = 0;
        tally__buf cells = TALLY__BUF_INIT;
        for (size_t k = i; k < r->row_count; k++) {
            const tally__row *other = &r->rows[k];
            if (!other->exact || strcmp(other->unit, row->unit) != 0)
                continue;
            for (size_t j = 0; j < r->config_count; j++) {
                const tally__cell *c = &other->cells[j];
                if (!tally__cell_exact_varies(other, c))
                    continue;
                if (vary++ < 3) {
                    tally__buf_puts(&cells, vary > 1 ? ", " : "");
                    tally__buf_put_terminal(&cells, other->benchmark);
                    tally__buf_puts(&cells, ": ");
                    tally__buf_put_terminal(&cells, other->case_name);
                    tally__buf_puts(&cells, " in ");
                    tally__buf_put_terminal(&cells, r->configs[j].label);
                    tally__buf_puts(&cells, " (");
                    tally__buf_double(&cells, c->pub.summary.min);
                    tally__buf_puts(&cells, " to ");
                    tally__buf_double(&cells, c->pub.summary.max);
                    tally__buf_puts(&cells, ")");
                }
            }
        }
        if (vary) {
            tally__buf_printf(b, "%sexact: unit '", prefix);
            tally__buf_put_terminal(b, row->unit);
            tally__buf_printf(b, "' is declared exact (assume=exact) but its samples vary in %zu "
                                 "cell%s: ", vary, vary == 1 ? "" : "s");
            tally__buf_append(b, cells.data, cells.len);
            tally__buf_printf(b, "%s; its rows are compared without a significance test, so a "
                                 "difference may be only this variation\n",
                              vary > 3 ? ", ..." : "");
        }
        if (cells.failed)
            b->failed = 1;
        tally__buf_dispose(&cells);
    }
}
