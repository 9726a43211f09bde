/* The seed layouts (mmtests, normalized, pct) within the render option fit_width: a benchmark's
 * block whose widest line fits is printed as it is (so the posts' tables stay byte for byte);
 * otherwise its configurations are split into blocks, each a view of the report holding the
 * baseline and as many of the next configurations as fit; when not even the baseline and one
 * other fit, each configuration gets a block of its own, the later ones showing only their
 * column (the baseline stays in the view, hidden, for the percentages against it). */
#include <string.h>

#include "report/report_internal.h"

/* Columns of the widest line from `start`: UTF-8 lead bytes, without the colour codes. */
static size_t widest_line(const tally__buf *b, size_t start)
{
    size_t widest = 0, col = 0;
    for (size_t i = start; i < b->len; i++) {
        unsigned char ch = (unsigned char)b->data[i];
        if (ch == '\n') {
            col = 0;
            continue;
        }
        if (ch == 0x1b && i + 1 < b->len && b->data[i + 1] == '[') {
            i += 2;
            while (i < b->len && !((unsigned char)b->data[i] >= 0x40 &&
                                   (unsigned char)b->data[i] <= 0x7e))
                i++;
            continue;
        }
        if ((ch & 0xC0) != 0x80 && ++col > widest)
            widest = col;
    }
    return widest;
}

/* The view of configurations `pick` (count of them, the baseline first) over the rows of `g`,
 * showing those from index `first_shown`. Shares the names and the cells' contents with `r`. */
typedef struct view {
    tally_report report;
    tally__config *configs;
    tally__row *rows;
    tally__cell *cells;
} view;

static int view_make(view *v, const tally_report *r, const tally__group *g, const size_t *pick,
                     size_t count, size_t first_shown)
{
    memset(v, 0, sizeof(*v));
    v->configs = tally__calloc(count, sizeof(*v->configs));
    v->rows = tally__calloc(g->count, sizeof(*v->rows));
    v->cells = tally__calloc(g->count * count, sizeof(*v->cells));
    if (!v->configs || !v->rows || !v->cells)
        return tally__oom();
    for (size_t k = 0; k < count; k++)
        v->configs[k] = r->configs[pick[k]];
    for (size_t i = 0; i < g->count; i++) {
        v->rows[i] = r->rows[g->first + i];
        v->rows[i].cells = v->cells + i * count;
        for (size_t k = 0; k < count; k++)
            v->rows[i].cells[k] = r->rows[g->first + i].cells[pick[k]];
    }
    v->report = *r;
    v->report.configs = v->configs;
    v->report.config_count = count;
    v->report.rows = v->rows;
    v->report.row_count = g->count;
    v->report.row_cap = g->count;
    v->report.first_shown = first_shown;
    return TALLY_OK;
}

static void view_free(view *v)
{
    tally__free_mem(v->configs);
    tally__free_mem(v->rows);
    tally__free_mem(v->cells);
}

/* Render configurations `pick` of group `g` into `out` (emptied first). */
static int render_view(tally__buf *out, const tally_report *r, const tally__group *g,
                       const size_t *pick, size_t count, size_t first_shown,
                       tally__group_renderer render, const tally_render_options *o)
{
    view v;
    int rc = view_make(&v, r, g, pick, count, first_shown);
    out->len = 0;
    if (rc == TALLY_OK) {
        tally__group all = {0, g->count};
        render(out, &v.report, &all, o);
        if (out->failed)
            rc = tally__oom();
    }
    view_free(&v);
    return rc;
}

/* The block of the baseline and the configurations from `from` on, as many as fit (one at
 * least, fitting or not), rendered into `out`; *end: the index after its last one. */
static int next_block(size_t *end, tally__buf *out, const tally_report *r, const tally__group *g,
                      size_t *pick, size_t from, tally__group_renderer render,
                      const tally_render_options *o)
{
    size_t to = from + 1;
    int rc = TALLY_OK;
    pick[0] = 0;
    pick[1] = from;
    for (; rc == TALLY_OK && to < r->config_count; to++) {
        pick[1 + to - from] = to;
        rc = render_view(out, r, g, pick, 2 + to - from, 0, render, o);
        if (rc == TALLY_OK && widest_line(out, 0) > (size_t)o->fit_width)
            break;
    }
    *end = to;
    return rc == TALLY_OK ? render_view(out, r, g, pick, 1 + to - from, 0, render, o) : rc;
}

int tally__render_group_fitted(tally__buf *b, const tally_report *r, const tally__group *g,
                               const char *separator, tally__group_renderer render,
                               const tally_render_options *o)
{
    size_t start = b->len;
    render(b, r, g, o);
    if (o->fit_width <= 0 || r->config_count < 2 || b->failed ||
        widest_line(b, start) <= (size_t)o->fit_width)
        return b->failed ? tally__oom() : TALLY_OK;
    b->len = start;

    size_t *pick = tally__calloc(r->config_count, sizeof(*pick));
    if (pick == NULL)
        return tally__oom();
    tally__buf out = TALLY__BUF_INIT;
    /* The baseline and one other: if they do not fit, every configuration goes alone. */
    pick[0] = 0;
    pick[1] = 1;
    int rc = render_view(&out, r, g, pick, 2, 0, render, o);
    int pairs_fit = widest_line(&out, 0) <= (size_t)o->fit_width;
    if (rc == TALLY_OK && !pairs_fit) {
        rc = render_view(&out, r, g, pick, 1, 0, render, o);
        tally__buf_append(b, out.data ? out.data : "", out.len);
    }
    for (size_t from = 1, end; rc == TALLY_OK && from < r->config_count; from = end) {
        if (pairs_fit) {
            rc = next_block(&end, &out, r, g, pick, from, render, o);
        } else {
            end = from + 1;
            pick[1] = from;
            rc = render_view(&out, r, g, pick, 2, 1, render, o);
        }
        if (from > 1 || !pairs_fit)
            tally__buf_puts(b, separator);
        tally__buf_append(b, out.data ? out.data : "", out.len);
    }
    tally__buf_dispose(&out);
    tally__free_mem(pick);
    if (rc == TALLY_OK && b->failed)
        rc = tally__oom();
    return rc;
}
