/* tally's own text layout for humans: per benchmark a table of value ± CI half-width, delta,
 * p-value and verdict per configuration, footnotes, and the geometric mean of ratios. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"

typedef enum align { LEFT, RIGHT } align;

typedef struct grid {
    size_t rows, cols;
    char **text;            /* rows * cols strings, NULL for empty cells */
    tally_verdict *verdict; /* colour of a cell, NO_CHANGE for none */
    size_t *width;
    int failed;             /* an allocation failed */
} grid;

static size_t display_width(const char *s)
{
    size_t w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        w += (*p & 0xC0) != 0x80; /* count UTF-8 lead bytes only */
    return w;
}


/* Set the text of a cell (formatted like printf). */
static void TALLY__PRINTF(4, 5) set_text(grid *g, size_t row, size_t col, const char *fmt, ...)
{
    tally__buf b = TALLY__BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    tally__buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *text = NULL;
    if (tally__buf_detach(&text, NULL, &b) != TALLY_OK) {
        g->failed = 1;
        return;
    }
    tally__free_mem(g->text[row * g->cols + col]);
    g->text[row * g->cols + col] = text;
}

static const char *cell_str(const grid *g, size_t k)
{
    return g->text[k] ? g->text[k] : "";
}

/* Empty cells for `rows` x `cols`; out of memory is recorded (free_grid frees what was made). */
static int alloc_grid(grid *g, size_t rows, size_t cols)
{
    g->rows = rows;
    g->cols = cols;
    g->text = tally__calloc(g->rows * g->cols, sizeof(*g->text));
    g->rows = g->text ? g->rows : 0; /* free_grid walks rows * cols */
    g->verdict = tally__calloc(g->rows * g->cols, sizeof(*g->verdict));
    g->width = tally__calloc(g->cols, sizeof(*g->width));
    if (!g->text || !g->verdict || !g->width)
        return tally__error(TALLY_ENOMEM, "out of memory");
    return TALLY_OK;
}

/* Footnote marks of the table. */
#define NOTE_INSUFFICIENT "[1]"
#define NOTE_MISSING "[2]"
#define NOTE_MEDIAN_CI "[3]"

static void fill_value(grid *g, size_t gr, size_t col, const tally__row *row,
                       const tally__cell *c, const tally__numfmt *f, int *median_note)
{
    if (!c->pub.present) {
        set_text(g, gr, col, "missing " NOTE_MISSING);
        return;
    }
    tally__buf text = TALLY__BUF_INIT;
    int interval = tally__render_cell_value(&text, f, row, c, NULL);
    /* A pooled histogram cell without an interval is the histogram notes' to explain. */
    if (c->value_defined && !interval && c->pooled == NULL &&
        (row->statistic == TALLY_STAT_MEDIAN || row->statistic == TALLY_STAT_PERCENTILE)) {
        tally__buf_puts(&text, " " NOTE_MEDIAN_CI);
        *median_note = 1;
    }
    if (text.failed)
        g->failed = 1;
    else
        set_text(g, gr, col, "%s", text.data);
    tally__buf_dispose(&text);
    set_text(g, gr, col + 1, "%zu", c->n);
}

static void verdict_cell(grid *g, size_t gr, size_t col, const tally_comparison *cmp)
{
    tally__buf text = TALLY__BUF_INIT;
    tally__render_verdict_text(&text, cmp);
    if (text.failed)
        g->failed = 1;
    else
        set_text(g, gr, col, "%s", text.data);
    tally__buf_dispose(&text);
}

static void fill_comparison(grid *g, size_t gr, size_t col, const tally__cell *c)
{
    if (!c->pub.compared)
        return;
    const tally_comparison *cmp = &c->pub.comparison;
    if (!cmp->ratio_defined)
        set_text(g, gr, col, "n/a");
    else if (cmp->interval_defined)
        set_text(g, gr, col, "%+.2f%% [%+.2f, %+.2f]", cmp->pct_imp, cmp->pct_low,
                 cmp->pct_high);
    else
        set_text(g, gr, col, "%+.2f%%", cmp->pct_imp);
    if (!cmp->p_defined)
        set_text(g, gr, col + 1, "-");
    else if (c->pub.p_adjusted < 0.0001)
        set_text(g, gr, col + 1, "<0.0001");
    else
        set_text(g, gr, col + 1, "%.4f", c->pub.p_adjusted);
    if (cmp->mde_defined)
        set_text(g, gr, col + 2, "±%.2f%%", cmp->mde_pct);
    else
        set_text(g, gr, col + 2, "-");
    /* The verdict last: an inconclusive row's runs needed make it the longest cell. */
    verdict_cell(g, gr, col + 3, cmp);
    /* The delta takes the verdict's colour too: the size of a regression reads red. */
    g->verdict[gr * g->cols + col] = cmp->verdict;
    g->verdict[gr * g->cols + col + 3] = cmp->verdict;
}

/* Once every cell is filled: the out-of-memory check and each column's width. */
static int finish_grid(grid *g)
{
    if (g->failed)
        return tally__error(TALLY_ENOMEM, "out of memory");
    for (size_t k = 0; k < g->rows * g->cols; k++) {
        size_t w = display_width(cell_str(g, k));
        if (w > g->width[k % g->cols])
            g->width[k % g->cols] = w;
    }
    return TALLY_OK;
}

/* Columns per compared configuration: value, n, delta [CI], p, MDE, verdict. */
#define PER_CONFIG 6

static int build_grid(grid *g, const tally_report *r, const tally_render_options *o,
                      const tally__group *grp, const tally__si *si, int compare,
                      int *median_note)
{
    char ci[32];
    tally__ci_label(ci, sizeof ci, r);
    size_t per_config = compare ? PER_CONFIG : 2;
    if (alloc_grid(g, grp->count + 1, 1 + 2 + (r->config_count - 1) * per_config) != TALLY_OK)
        return TALLY_ENOMEM;
    set_text(g, 0, 0, "case");
    set_text(g, 0, 1, "%s", r->configs[0].label);
    set_text(g, 0, 2, "n");
    for (size_t j = 1; j < r->config_count; j++) {
        size_t col = 3 + (j - 1) * per_config;
        set_text(g, 0, col, "%s", r->configs[j].label);
        set_text(g, 0, col + 1, "n");
        if (compare) {
            set_text(g, 0, col + 2, "delta [%s]", ci);
            set_text(g, 0, col + 3, "%s", r->opts.adjust ? "p (adj)" : "p");
            set_text(g, 0, col + 4, "MDE");
            set_text(g, 0, col + 5, "verdict");
        }
    }
    for (size_t i = 0; i < grp->count; i++) {
        const tally__row *row = &r->rows[grp->first + i];
        tally__numfmt f;
        tally__row_numfmt(&f, r, row, si, o->precision);
        set_text(g, i + 1, 0, "%s", row->case_name);
        fill_value(g, i + 1, 1, row, &row->cells[0], &f, median_note);
        for (size_t j = 1; j < r->config_count; j++) {
            size_t col = 3 + (j - 1) * per_config;
            fill_value(g, i + 1, col, row, &row->cells[j], &f, median_note);
            if (compare)
                fill_comparison(g, i + 1, col + 2, &row->cells[j]);
        }
    }
    return finish_grid(g);
}

/* Columns of the summaries-only table (`tally summary`): one row per case of one configuration. */
static const char *const summary_headers[] = {"case", "n", NULL, "min", "median", "max",
                                              "spread", "CV%", "outliers"};
#define SUMMARY_COLS (TALLY__COUNT(summary_headers))

/* A number of the summary table in the row's display. */
static void set_number(grid *g, size_t gr, size_t col, const tally__numfmt *f, double x)
{
    tally__buf text = TALLY__BUF_INIT;
    tally__buf_number(&text, f, x);
    if (text.failed)
        g->failed = 1;
    else
        set_text(g, gr, col, "%s", text.data);
    tally__buf_dispose(&text);
}

static void fill_summary_row(grid *g, size_t gr, const tally__row *row, const tally__cell *c,
                             const tally__numfmt *f)
{
    const tally_summary *s = &c->pub.summary;
    set_text(g, gr, 0, "%s", row->case_name);
    if (!c->pub.present) {
        set_text(g, gr, 1, "missing [2]");
        return;
    }
    int median_note = 0;
    fill_value(g, gr, 2, row, c, f, &median_note);
    set_text(g, gr, 1, "%zu", s->n); /* fill_value wrote n into column 3: the min follows */
    set_number(g, gr, 3, f, s->min);
    set_number(g, gr, 4, f, s->median);
    set_number(g, gr, 5, f, s->max);
    /* The row's spread: the sample SD, or the harmonic SD on HMean rows (as mmtests). */
    if (c->spread_defined)
        set_number(g, gr, 6, f, c->spread);
    else
        set_text(g, gr, 6, "-");
    if (c->cv_defined)
        set_text(g, gr, 7, "%.2f", c->cv);
    else
        set_text(g, gr, 7, "-");
    if (c->summary_only)
        set_text(g, gr, 8, "-");
    else
        set_text(g, gr, 8, "%zu", s->outliers_mad > s->outliers_tukey ? s->outliers_mad
                                                                       : s->outliers_tukey);
}

static int build_summary_grid(grid *g, const tally_report *r, const tally_render_options *o,
                              const tally__group *grp, const tally__si *si, size_t config)
{
    if (alloc_grid(g, grp->count + 1, SUMMARY_COLS) != TALLY_OK)
        return TALLY_ENOMEM;
    const tally__row *first = &r->rows[grp->first];
    for (size_t c = 0; c < SUMMARY_COLS; c++)
        set_text(g, 0, c, "%s", summary_headers[c] ? summary_headers[c]
                                                   : first->stat_title);
    for (size_t i = 0; i < grp->count; i++) {
        const tally__row *row = &r->rows[grp->first + i];
        tally__numfmt f;
        tally__row_numfmt(&f, r, row, si, o->precision);
        fill_summary_row(g, i + 1, row, &row->cells[config], &f);
    }
    return finish_grid(g);
}

static void free_grid(grid *g)
{
    if (g->text)
        for (size_t k = 0; k < g->rows * g->cols; k++)
            tally__free_mem(g->text[k]);
    tally__free_mem(g->text);
    tally__free_mem(g->verdict);
    tally__free_mem(g->width);
}

/* Print the columns `cols` (ncols of them, in order; NULL: all) of every grid row; with
 * `case_line`, the first column on a line of its own above the others, which are indented. */
static void print_columns_as(tally__buf *b, const grid *g, int color, int compare,
                             const size_t *cols, size_t ncols, int case_line)
{
    if (cols == NULL)
        ncols = g->cols;
    for (size_t i = 0; i < g->rows; i++) {
        for (size_t k = 0; k < ncols; k++) {
            size_t c = cols ? cols[k] : k;
            const char *text = cell_str(g, i * g->cols + c);
            if (case_line && k == 0) {
                tally__buf_puts(b, text);
                tally__buf_end_line(b);
                tally__buf_puts(b, "  ");
                continue;
            }
            size_t pad = g->width[c] - display_width(text);
            /* The case and the verdict are words: left-aligned; numbers right-aligned. */
            align a = c == 0 || (compare && c >= 3 && (c - 3) % PER_CONFIG == 5) ? LEFT : RIGHT;
            tally_verdict v = g->verdict[i * g->cols + c];
            const char *on = !color ? ""
                             : v == TALLY_VERDICT_REGRESSION  ? "\033[31m"
                             : v == TALLY_VERDICT_IMPROVEMENT ? "\033[32m"
                                                              : "";
            if (k > (case_line ? 1u : 0u))
                tally__buf_puts(b, "  ");
            /* The last column of a line is not padded: no trailing blanks. */
            if (a == RIGHT)
                tally__buf_pad(b, pad);
            tally__buf_printf(b, "%s%s%s", on, text, on[0] ? "\033[0m" : "");
            if (a == LEFT && k + 1 < ncols)
                tally__buf_pad(b, pad);
        }
        tally__buf_end_line(b);
    }
}

static void print_columns(tally__buf *b, const grid *g, int color, int compare,
                          const size_t *cols, size_t ncols)
{
    print_columns_as(b, g, color, compare, cols, ncols, 0);
}

static void print_grid(tally__buf *b, const grid *g, int color, int compare)
{
    print_columns(b, g, color, compare, NULL, 0);
}

/* Columns a line of these columns takes. */
static size_t columns_width(const grid *g, const size_t *cols, size_t ncols)
{
    size_t w = 0;
    for (size_t k = 0; k < ncols; k++)
        w += g->width[cols ? cols[k] : k] + (k ? 2 : 0);
    return w;
}

/* One block per row: the case, then a line per configuration (value and n) and, for the
 * compared ones, a line with the change, p, MDE and verdict. Lines this short fit any terminal
 * the table itself does not. */
static void print_row_blocks(tally__buf *b, const grid *g, const tally_report *r, int color)
{
    size_t label = 0;
    for (size_t j = 0; j < r->config_count; j++)
        if (display_width(r->configs[j].label) > label)
            label = display_width(r->configs[j].label);
    for (size_t i = 1; i < g->rows; i++) {
        tally__buf_printf(b, "%s\n", cell_str(g, i * g->cols));
        for (size_t j = 0; j < r->config_count; j++) {
            size_t col = j == 0 ? 1 : 3 + (j - 1) * PER_CONFIG;
            const char *name = r->configs[j].label;
            tally__buf_printf(b, "  %s", name);
            tally__buf_pad(b, label - display_width(name));
            tally__buf_printf(b, "  %s", cell_str(g, i * g->cols + col));
            if (g->text[i * g->cols + col + 1])
                tally__buf_printf(b, "  n %s", cell_str(g, i * g->cols + col + 1));
            tally__buf_end_line(b);
            if (j == 0 || g->cols <= col + 5 || g->text[i * g->cols + col + 2] == NULL)
                continue;
            tally_verdict v = g->verdict[i * g->cols + col + 5];
            const char *on = !color ? ""
                             : v == TALLY_VERDICT_REGRESSION  ? "\033[31m"
                             : v == TALLY_VERDICT_IMPROVEMENT ? "\033[32m"
                                                              : "";
            /* The p column's title says whether p-values are adjusted: "p (adj)". */
            tally__buf_printf(b, "    delta %s%s%s, %s %s, MDE %s, %s%s%s\n", on,
                              cell_str(g, i * g->cols + col + 2), on[0] ? "\033[0m" : "",
                              cell_str(g, col + 3), cell_str(g, i * g->cols + col + 3),
                              cell_str(g, i * g->cols + col + 4), on,
                              cell_str(g, i * g->cols + col + 5), on[0] ? "\033[0m" : "");
        }
    }
}

/* What makes a configuration's table narrower: the n columns left out when every cell of the
 * benchmark holds the same number of runs (said once above the tables) and p and MDE folded
 * into one column (always); the case names without the prefix and suffix they all share (named
 * in the case column's title, "CRC32/…-2"); the values without their interval (the delta's
 * interval remains); the changes with 3 significant digits; each case name on a line of its own
 * above its figures (long names: go's sub-benchmarks at 80 columns). */
enum {
    COMPACT_PREFIX = 1,
    COMPACT_BARE = 2,
    COMPACT_SHORT = 4,
    COMPACT_CASE_LINE = 8,
};

/* The steps tried in order, the first whose tables all fit being printed: each gives up a
 * little more, and a case on its own line first keeps the figures whole again. */
static const unsigned compact_steps[] = {
    0,
    COMPACT_PREFIX,
    COMPACT_PREFIX | COMPACT_BARE,
    COMPACT_PREFIX | COMPACT_BARE | COMPACT_SHORT,
    COMPACT_CASE_LINE | COMPACT_PREFIX,
    COMPACT_CASE_LINE | COMPACT_PREFIX | COMPACT_BARE,
    COMPACT_CASE_LINE | COMPACT_PREFIX | COMPACT_BARE | COMPACT_SHORT,
};

/* The number of runs of every cell of the group when it is the same everywhere, else 0. */
static size_t same_n(const tally_report *r, const tally__group *grp)
{
    size_t n = 0;
    for (size_t i = grp->first; i < grp->first + grp->count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &r->rows[i].cells[j];
            if (!c->pub.present || (n != 0 && c->n != n))
                return 0;
            n = c->n;
        }
    return n;
}

/* A percentage with 3 significant digits (at least the units): +4.73, -58.7, -588. */
static void short_pct(tally__buf *b, double x)
{
    double a = x < 0 ? -x : x;
    tally__buf_printf(b, "%+.*f", a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2, x);
}

/* A value cell without its interval: "196.2 ± 4.1" and "12.3 [11.0, 13.5]" give the value;
 * "missing [2]" and a value with a footnote mark stay as they are. */
static size_t bare_value(const char *text)
{
    const char *pm = strstr(text, " \xc2\xb1 ");
    if (pm)
        return (size_t)(pm - text);
    const char *open = strstr(text, " [");
    if (open && strchr(open, ',') && (open[2] == '-' || (open[2] >= '0' && open[2] <= '9')))
        return (size_t)(open - text);
    return strlen(text);
}

/* The table of compared configuration j (columns as one configuration of the full grid: case,
 * baseline value, n, value, n, delta, p, MDE, verdict) made narrower by the steps in
 * `level` (COMPACT_*); `prefix`, `suffix`: the bytes every case name starts and ends with. */
static int build_compact(grid *cg, const grid *g, const tally_report *r, const tally__group *grp,
                         size_t j, unsigned level, size_t prefix, size_t suffix)
{
    memset(cg, 0, sizeof(*cg));
    if (alloc_grid(cg, g->rows, 3 + PER_CONFIG) != TALLY_OK)
        return TALLY_ENOMEM;
    size_t src = 3 + (j - 1) * PER_CONFIG;
    for (size_t i = 0; i < cg->rows; i++) {
        for (size_t k = 0; k < cg->cols; k++) {
            size_t from = i * g->cols + (k < 3 ? k : src + k - 3);
            const char *text = cell_str(g, from);
            cg->verdict[i * cg->cols + k] = g->verdict[from];
            if (k == 0 && i == 0 && (level & COMPACT_PREFIX) && prefix + suffix > 0) {
                const char *name = r->rows[grp->first].case_name;
                set_text(cg, i, k, "%.*s\xe2\x80\xa6%s", (int)prefix, name,
                         name + strlen(name) - suffix);
            } else if (k == 0 && i > 0 && (level & COMPACT_PREFIX) && prefix + suffix > 0) {
                set_text(cg, i, k, "%.*s", (int)(strlen(text) - prefix - suffix), text + prefix);
            } else if ((k == 1 || k == 3) && i > 0 && (level & COMPACT_BARE))
                set_text(cg, i, k, "%.*s", (int)bare_value(text), text);
            else if (g->text[from])
                set_text(cg, i, k, "%s", text);
        }
        if (i == 0) {
            /* The configurations are named above the table: short titles over the values. */
            set_text(cg, 0, 1, "base");
            set_text(cg, 0, 3, "new");
            set_text(cg, 0, 6, "%s, MDE", cell_str(g, src + 3));
            continue;
        }
        const tally__cell *c = &r->rows[grp->first + i - 1].cells[j];
        if (!c->pub.compared)
            continue;
        const tally_comparison *cmp = &c->pub.comparison;
        tally__buf t = TALLY__BUF_INIT;
        if ((level & COMPACT_SHORT) && cmp->ratio_defined) {
            short_pct(&t, cmp->pct_imp);
            tally__buf_puts(&t, "%");
            if (cmp->interval_defined) {
                tally__buf_puts(&t, " [");
                short_pct(&t, cmp->pct_low);
                tally__buf_puts(&t, ", ");
                short_pct(&t, cmp->pct_high);
                tally__buf_puts(&t, "]");
            }
            if (!t.failed)
                set_text(cg, i, 5, "%s", t.data);
            t.len = 0;
        }
        /* p and MDE in one cell: "0.0332 ±4.07%"; without an MDE the p alone. Shortened:
         * p with 3 decimals, the MDE with 2 significant digits ("0.033 ±4.1%"). */
        if ((level & COMPACT_SHORT) && cmp->p_defined)
            tally__buf_printf(&t, c->pub.p_adjusted < 0.001 ? "<0.001" : "%.3f",
                              c->pub.p_adjusted);
        else
            tally__buf_puts(&t, cell_str(g, i * g->cols + src + 3));
        if (cmp->mde_defined && (level & COMPACT_SHORT))
            tally__buf_printf(&t, " \xc2\xb1%.*f%%", cmp->mde_pct < 9.95 ? 1 : 0, cmp->mde_pct);
        else if (cmp->mde_defined)
            tally__buf_printf(&t, " \xc2\xb1%.2f%%", cmp->mde_pct);
        if (t.failed)
            cg->failed = 1;
        else
            set_text(cg, i, 6, "%s", t.data);
        tally__buf_dispose(&t);
    }
    return finish_grid(cg);
}

static void free_grid(grid *g);

/* The columns of a compact table: n only when it varies, MDE folded into p's. */
static size_t compact_columns(size_t *cols, int drop_n)
{
    static const size_t all[] = {0, 1, 2, 3, 4, 5, 6, 8};
    size_t n = 0;
    for (size_t k = 0; k < TALLY__COUNT(all); k++)
        if (!(drop_n && (all[k] == 2 || all[k] == 4)))
            cols[n++] = all[k];
    return n;
}

/* The compact per-configuration tables at the first step at which every one fits `width`;
 * 0 (nothing printed) when none does. */
static int print_compact(tally__buf *b, const grid *g, const tally_report *r,
                         const tally__group *grp, int color, int width)
{
    size_t runs = same_n(r, grp), prefix = tally__case_prefix(r, grp);
    size_t suffix = tally__case_suffix(r, grp, prefix);
    size_t cols[3 + PER_CONFIG];
    size_t ncols = compact_columns(cols, runs > 0);
    for (size_t step = 0; step < TALLY__COUNT(compact_steps); step++) {
        unsigned level = compact_steps[step];
        /* Without a shared prefix or suffix, a step that cuts them is the one before. */
        unsigned cut = ~(unsigned)COMPACT_PREFIX;
        if (step > 0 && prefix + suffix == 0 && (level & cut) == (compact_steps[step - 1] & cut))
            continue;
        int fits = 1;
        for (size_t j = 1; j < r->config_count && fits; j++) {
            grid cg;
            if (build_compact(&cg, g, r, grp, j, level, prefix, suffix) != TALLY_OK) {
                free_grid(&cg);
                b->failed = 1;
                return 1;
            }
            /* On a line of its own, the case takes no column (its name may still be wider). */
            fits = (level & COMPACT_CASE_LINE)
                       ? 2 + columns_width(&cg, cols + 1, ncols - 1) <= (size_t)width
                       : columns_width(&cg, cols, ncols) <= (size_t)width;
            free_grid(&cg);
        }
        if (!fits)
            continue;
        if (runs > 0)
            tally__buf_printf(b, "n = %zu runs in every cell\n", runs);
        for (size_t j = 1; j < r->config_count; j++) {
            grid cg;
            if (build_compact(&cg, g, r, grp, j, level, prefix, suffix) == TALLY_OK) {
                if (j > 1)
                    tally__buf_puts(b, "\n");
                size_t title = b->len;
                tally__buf_printf(b, "%s against %s:\n", r->configs[j].label,
                                  r->configs[0].label);
                tally__reflow(b, title, (size_t)width);
                print_columns_as(b, &cg, color, 1, cols, ncols,
                                 (level & COMPACT_CASE_LINE) != 0);
            } else {
                b->failed = 1;
            }
            free_grid(&cg);
        }
        return 1;
    }
    return 0;
}

/* The comparison table within `width` columns (0: no limit): whole when it fits, else one
 * block per compared configuration (case, baseline, that configuration), else those blocks
 * made compact, else one block per row. Never a line the terminal would wrap, as far as the
 * case names and verdicts allow. */
static void print_fitted(tally__buf *b, const grid *g, const tally_report *r,
                         const tally__group *grp, int color, int width)
{
    if (width <= 0 || columns_width(g, NULL, g->cols) <= (size_t)width ||
        r->config_count < 2) {
        print_grid(b, g, color, 1);
        return;
    }
    size_t cols[3 + PER_CONFIG];
    int fits = 1;
    for (size_t j = 1; j < r->config_count && fits; j++) {
        cols[0] = 0, cols[1] = 1, cols[2] = 2;
        for (size_t k = 0; k < PER_CONFIG; k++)
            cols[3 + k] = 3 + (j - 1) * PER_CONFIG + k;
        fits = columns_width(g, cols, TALLY__COUNT(cols)) <= (size_t)width;
    }
    if (!fits) {
        if (!print_compact(b, g, r, grp, color, width))
            print_row_blocks(b, g, r, color);
        return;
    }
    for (size_t j = 1; j < r->config_count; j++) {
        cols[0] = 0, cols[1] = 1, cols[2] = 2;
        for (size_t k = 0; k < PER_CONFIG; k++)
            cols[3 + k] = 3 + (j - 1) * PER_CONFIG + k;
        if (j > 1)
            tally__buf_puts(b, "\n");
        print_columns(b, g, color, 1, cols, TALLY__COUNT(cols));
    }
}

/* A summary table (`tally summary`) within `width` columns (0: no limit): whole when it fits,
 * else its columns in blocks, each led by the case column, as many columns per block as fit
 * (one at least): a wide table reads as several narrower ones, never as wrapped lines. */
static void print_summary_fitted(tally__buf *b, const grid *g, int width)
{
    if (width <= 0 || columns_width(g, NULL, g->cols) <= (size_t)width || g->cols < 2) {
        print_grid(b, g, 0, 0);
        return;
    }
    size_t cols[SUMMARY_COLS];
    for (size_t from = 1, to; from < g->cols; from = to) {
        size_t n = 1;
        cols[0] = 0;
        cols[n++] = from;
        for (to = from + 1; to < g->cols; to++) {
            cols[n] = to;
            if (columns_width(g, cols, n + 1) > (size_t)width)
                break;
            n++;
        }
        if (from > 1)
            tally__buf_puts(b, "\n");
        print_columns(b, g, 0, 0, cols, n);
    }
}

typedef struct notes {
    int insufficient, median_ci, inconclusive, not_tested;
    tally__buf detail; /* one line per insufficient cell */
} notes;

static void insufficient_note(notes *n, const tally_report *r, const tally__row *row, size_t j)
{
    const tally_comparison *c = &row->cells[j].pub.comparison;
    tally__buf *b = &n->detail;
    tally__buf_printf(b, "    %s/%s, %s: ", row->benchmark, row->case_name, r->configs[j].label);
    tally__render_insufficient_reason(b, row, c, r->opts.alpha);
    tally__buf_puts(b, "\n");
}

/* What render_group needs besides the group: the options and the notes it adds to. */
typedef struct table_ctx {
    const tally_render_options *o;
    notes *n;
} table_ctx;

static int render_group(tally__buf *b, const tally_report *r, const tally__group *grp, void *ctx)
{
    const tally_render_options *o = ((table_ctx *)ctx)->o;
    notes *n = ((table_ctx *)ctx)->n;
    const tally__row *first = &r->rows[grp->first];
    int compare = !r->opts.summaries_only && r->config_count > 1;
    size_t title = b->len;
    tally__buf_printf(b, "%s", first->benchmark);
    /* Values show in one prefixed unit per benchmark, named here. */
    tally__si si;
    tally__group_si(&si, r, grp);
    tally__buf_printf(b, " (%s%s%s is better; %s)\n", si.unit, si.unit[0] ? ", " : "",
                      first->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower",
                      first->stat_title);
    if (o->fit_width > 0)
        tally__reflow(b, title, (size_t)o->fit_width);
    grid g;
    memset(&g, 0, sizeof(g));
    if (r->opts.summaries_only) {
        /* One table per configuration: n, centre ± CI, spread and outliers of every case. */
        int rc = TALLY_OK;
        for (size_t j = 0; j < r->config_count && rc == TALLY_OK; j++) {
            memset(&g, 0, sizeof(g));
            tally__buf_printf(b, "%s%s:\n", j ? "\n" : "", r->configs[j].label);
            rc = build_summary_grid(&g, r, o, grp, &si, j);
            if (rc == TALLY_OK)
                print_summary_fitted(b, &g, o->fit_width);
            free_grid(&g);
        }
        return rc;
    }
    int rc = build_grid(&g, r, o, grp, &si, compare, &n->median_ci);
    if (rc == TALLY_OK)
        print_fitted(b, &g, r, grp, o->color, compare ? o->fit_width : 0);
    for (size_t i = grp->first; i < grp->first + grp->count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            if (!c->compared)
                continue;
            if (c->comparison.verdict == TALLY_VERDICT_INSUFFICIENT) {
                n->insufficient = 1;
                insufficient_note(n, r, &r->rows[i], j);
            }
            n->inconclusive |= c->comparison.verdict == TALLY_VERDICT_INCONCLUSIVE;
            n->not_tested |= c->comparison.verdict == TALLY_VERDICT_NOT_TESTED;
        }
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

/* The headline HTML, Markdown and JSON give too: the worst significant regression, signed,
 * with its interval (and as a ratio beyond -100 %), and where it is. */
static void worst_regression(tally__buf *b, const tally_report *r, int color)
{
    size_t wi = 0, wj = 0;
    if (!tally__worst_regression(&wi, &wj, r))
        return;
    const tally__row *row = &r->rows[wi];
    tally__buf_printf(b, "\n%sWorst significant regression: ", color ? "\033[31m" : "");
    tally__render_regression_size(b, row, &row->cells[wj].pub.comparison);
    tally__buf_printf(b, " in %s/%s, %s%s\n", row->benchmark, row->case_name,
                      r->configs[wj].label, color ? "\033[0m" : "");
}

static void render_footer(tally__buf *b, const tally_report *r, const notes *n, int color)
{
    int compare = !r->opts.summaries_only && r->config_count > 1;
    if (compare) {
        tally__buf_puts(b, "\n");
        tally__render_method_line(b, r);
        tally__render_delta_note(b, r);
        if (n->inconclusive && !tally__report_has_margin(r) && !(r->opts.mde_pct > 0))
            tally__buf_puts(b, "inconclusive: neither a change nor equivalence is shown; "
                               "--equivalence PCT or --mde PCT gives the runs needed.\n");
        if (n->not_tested)
            tally__buf_printf(b, "%s.\n", tally__report_not_tested_note(r));
    }
    if (r->opts.summaries_only)
        tally__buf_printf(b, "\n± is the half-width of the %g%% confidence interval ([low, high] "
                          "for the median); spread: the sample SD (the harmonic SD on HMean "
                          "rows); outliers: the larger of the MAD z-score and Tukey counts.\n",
                          r->opts.confidence * 100);
    if (!compare && any_missing(r))
        tally__buf_puts(b, "\n");
    if (n->insufficient) {
        tally__buf_puts(b, NOTE_INSUFFICIENT " too few samples for the test to reach alpha:\n");
        tally__buf_append(b, n->detail.data ? n->detail.data : "", n->detail.len);
    }
    if (any_missing(r)) {
        tally__buf_puts(b, NOTE_MISSING " missing cases:\n");
        tally__group g = { 0, r->row_count };
        tally__render_missing_notes(b, r, &g, "    ");
    }
    if (n->median_ci) {
        char what[40];
        size_t need = tally__order_ci_need(what, sizeof what, &r->rows[0], r->opts.confidence);
        tally__buf_printf(b, NOTE_MEDIAN_CI " no %g%% interval of %s: it needs n >= %zu "
                          "(order statistics).\n", r->opts.confidence * 100, what, need);
    }
    if (!compare)
        return;
    worst_regression(b, r, color);
    tally__render_geomean_lines(b, r);
}

int tally__render_table(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    notes n;
    memset(&n, 0, sizeof(n));
    n.detail = (tally__buf)TALLY__BUF_INIT;
    table_ctx ctx = { o, &n };
    int rc = tally__each_group(b, r, "\n", render_group, &ctx);
    if (rc != TALLY_OK) {
        tally__buf_dispose(&n.detail);
        return rc;
    }
    size_t footer = b->len;
    render_footer(b, r, &n, o->color);
    if (o->fit_width > 0)
        tally__reflow(b, footer, (size_t)o->fit_width);
    int failed = b->failed || n.detail.failed;
    tally__buf_dispose(&n.detail);
    return failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}
