/* GitHub-flavoured Markdown for pull-request comments: the headline first (counts of
 * regressions and improvements, the worst regression, the geometric means), then a table per
 * benchmark with significant changes in bold with a coloured marker, a legend and the notes.
 * Cells that must stay on one line join their words with no-break spaces. With `only_changed`
 * each table keeps the rows with a significant change and folds the others into <details>.
 * The document never exceeds `max_length` bytes (GitHub's 65,536-character limit for a
 * comment by default): a longer one leaves out the rows without a significant change, then
 * notes, then the mildest changes, and says what it left out at the top. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"
#include "util/si.h"

#define MARK_IMPROVEMENT "🟢"
#define MARK_REGRESSION "🔴"
#define MARK_INSUFFICIENT "❔"
#define NBSP "\xc2\xa0"
#define WORD_JOINER "\xe2\x81\xa0"
/* Tables longer than this many rows keep the rows with a significant change (or a missing
 * cell) and fold the others into <details>, as `only_changed` does: 180 rows of five
 * configurations would be a 7,000 px comment. */
#define MD_ROW_BUDGET 30
/* The width a table may take in GitHub's comment column: 912 px less the comment's padding. */
#define MD_COLUMN_PX 880.0
/* GitHub refuses a comment longer than 65,536 characters; a UTF-8 byte is at most one
 * character (or one UTF-16 unit), so a document of at most that many bytes always fits. */
#define GITHUB_COMMENT_LIMIT 65536

static int is_change(const tally__cell *c)
{
    return c->pub.compared && (c->pub.comparison.verdict == TALLY_VERDICT_REGRESSION ||
                               c->pub.comparison.verdict == TALLY_VERDICT_IMPROVEMENT);
}

/* Append a cell's text held in `cell` with every space made a no-break space, so that the
 * browser never breaks `value ± CI` or `delta [low, high] 🔴` across lines, and with `joiners`
 * a word joiner (U+2060, invisible) after each hyphen and slash, where a browser would break a
 * case name (`poly=Castagnoli/size=32768/align=1-` / `2`); `cell` is reset. */
static void md_keep_together(tally__buf *b, tally__buf *cell, int joiners)
{
    if (cell->failed)
        b->failed = 1;
    for (size_t k = 0; k < cell->len; k++) {
        if (cell->data[k] == ' ')
            tally__buf_puts(b, NBSP);
        else
            tally__buf_append(b, cell->data + k, 1);
        if (joiners && (cell->data[k] == '-' || cell->data[k] == '/'))
            tally__buf_puts(b, WORD_JOINER);
    }
    cell->len = 0;
    cell->failed = 0;
}

static void md_nowrap(tally__buf *b, tally__buf *cell)
{
    md_keep_together(b, cell, 0);
}

static void md_case(tally__buf *b, tally__buf *cell)
{
    md_keep_together(b, cell, 1);
}

/* The value as every human format shows it (tally__render_cell_value: the row's decimals in
 * the benchmark's unit prefix, named once in its unit line). */
/* A configuration's name as a column header: a browser may break a name after a hyphen
 * (`5.14.0-` / `rc3-` / `vanilla`); a word joiner (U+2060, invisible) after each one keeps
 * the name on one line. */
static void md_label(tally__buf *b, const char *label)
{
    tally__buf text = TALLY__BUF_INIT;
    tally__md_text(&text, label);
    if (text.failed)
        b->failed = 1;
    for (size_t k = 0; k < text.len; k++) {
        tally__buf_append(b, text.data + k, 1);
        if (text.data[k] == '-')
            tally__buf_puts(b, WORD_JOINER);
    }
    tally__buf_dispose(&text);
}

static void md_value(tally__buf *b, const tally__row *row, const tally__cell *c,
                     const tally__numfmt *f)
{
    if (!c->pub.present) {
        tally__buf_puts(b, "missing [2]");
        return;
    }
    tally__render_cell_value(b, f, row, c, NULL);
}

static void md_delta(tally__buf *b, const tally__cell *c, int split)
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
    if (cmp->interval_defined && !split)
        tally__buf_printf(b, " [%+.2f, %+.2f]", cmp->pct_low, cmp->pct_high);
    if (cmp->verdict == TALLY_VERDICT_REGRESSION)
        tally__buf_puts(b, " " MARK_REGRESSION);
    else if (cmp->verdict == TALLY_VERDICT_IMPROVEMENT)
        tally__buf_puts(b, " " MARK_IMPROVEMENT);
    else if (cmp->verdict == TALLY_VERDICT_INSUFFICIENT)
        tally__buf_puts(b, " " MARK_INSUFFICIENT " [1]");
    if (cmp->interval_defined && split)
        tally__buf_printf(b, "<br>[%+.2f, %+.2f]", cmp->pct_low, cmp->pct_high);
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
static void md_verdict(tally__buf *b, const tally__cell *c, int mde)
{
    if (!c->pub.compared)
        return;
    const tally_comparison *cmp = &c->pub.comparison;
    int worded = cmp->verdict == TALLY_VERDICT_IDENTICAL ||
                 cmp->verdict == TALLY_VERDICT_WITHIN_NOISE;
    tally__buf_puts(b, worded ? tally__verdict_word(cmp->verdict)
                              : tally_verdict_name(cmp->verdict));
    if ((cmp->verdict == TALLY_VERDICT_INCONCLUSIVE ||
         cmp->verdict == TALLY_VERDICT_INSUFFICIENT) && cmp->runs_needed > 0)
        tally__render_runs_needed(b, cmp);
    /* The MDE says what the runs could have seen: news only where no change was shown. */
    if (mde && cmp->mde_defined && !is_change(c))
        tally__buf_printf(b, " (MDE ±%.2f%%)", cmp->mde_pct);
}

/* ---- the pieces of the document ---- */

typedef struct piece {
    size_t off, len; /* in md_doc.text */
} piece;

typedef struct md_group {
    tally__group g;
    size_t config;     /* the configuration compared with the baseline; 0: all of them */
    size_t first_item; /* its rows are items first_item .. first_item + g.count - 1 */
    piece head;  /* the benchmark's heading and unit line (the same in each of its blocks) */
    piece sub;   /* the block's own heading (one configuration against the baseline) */
    piece thead; /* the table's header and alignment lines */
    size_t changed, unchanged;
    tally__si si; /* the unit prefix of its values */
    size_t prefix; /* bytes of the common prefix its case names are shown without */
    int no_mde;    /* its verdicts leave out the MDE, so that the table fits the column */
    int split;     /* and its deltas put the interval on a line of its own */
    int no_p;      /* and it has no p column */
    int short_headers; /* its headers read "base" and "new" */
} md_group;

/* Importance of a row when the document must be shortened: regressions first, the worst
 * first, then improvements, the largest first, then rows with a missing cell. */
typedef struct rank {
    int klass;
    double key;
    size_t row; /* the item */
} rank;

typedef struct md_doc {
    const tally_report *r;
    const tally_render_options *o;
    int compare, fold;
    tally__buf text;         /* every piece, one after the other */
    /* An item is a table row: a report row in one block. With more than one configuration
     * compared, each gets its own table (block) per benchmark, so that a table stays as
     * narrow as the comment; otherwise one block per benchmark shows every configuration. */
    size_t item_count;
    size_t *item_row;        /* per item: its report row */
    piece *rows;             /* per item: its table line */
    unsigned char *changed;  /* per item: a significant change or a missing cell */
    unsigned char *shown;    /* per item: in the document */
    size_t *group_of;        /* per item: its md_group (block) */
    md_group *groups;
    size_t group_count;
    piece *tail;             /* footnote and note lines after the tables */
    size_t tail_count, tail_shown;
    size_t changed_total;
    size_t prefix_len;       /* column headers leave out this common prefix of the labels */
    int short_headers;       /* some block's headers read "base" and "new" */
    int mde_left_out;        /* some block's verdicts leave out the MDE to fit the column */
    int p_left_out;          /* some block's table leaves out the p column to fit it */
} md_doc;

/* The width in px a table line takes in GitHub's comment: 8 px per character as a reader sees
 * it (no Markdown bold marks, no word joiners, an emoji as two, of a cell holding lines (`<br>`)
 * its longest line; digits of the 14 px font are 7.5-8.5 px wide) and 27 px of padding and
 * border per cell. */
static double row_px(const char *s, size_t len)
{
    size_t chars = 0, cells = 0, line = 0, cell = 0;
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '|' || c == '\n') {
            chars += line > cell ? line : cell;
            cells += c == '|';
            line = cell = 0;
            continue;
        }
        if (c == '<' && k + 3 < len && memcmp(s + k, "<br>", 4) == 0) {
            cell = line > cell ? line : cell;
            line = 0;
            k += 3;
            continue;
        }
        if (c == '*' || (c & 0xC0) == 0x80)
            continue;
        if (c == 0xE2 && k + 2 < len && (unsigned char)s[k + 1] == 0x81 &&
            (unsigned char)s[k + 2] == 0xA0) {
            k += 2;
            continue;
        }
        line += c >= 0xF0 ? 2 : 1;
    }
    chars += line > cell ? line : cell;
    /* A line "| a | b |" has one separator more than cells, and a space either side of each
     * cell's text, which the padding stands for. */
    size_t n = cells > 0 ? cells - 1 : 0;
    double text = (double)chars - 2.0 * (double)n;
    return 8.0 * (text > 0 ? text : 0) + 27.0 * (double)n;
}

static piece piece_end(md_doc *d, size_t start)
{
    piece p = { start, d->text.len - start };
    return p;
}

static void put_piece(tally__buf *b, const md_doc *d, piece p)
{
    if (d->text.failed)
        b->failed = 1;
    else
        tally__buf_append(b, d->text.data + p.off, p.len);
}

/* Whether block `mg` shows configuration j. */
static int block_shows(const md_group *mg, size_t j)
{
    return mg->config == 0 || j == 0 || j == mg->config;
}

/* Column headers of a compared block longer than this (in characters) make the block's table
 * too wide for GitHub's comment column (about 880 px for the table: 16 characters of a header
 * are about 120 px, the delta, p and verdict columns about 480): those read "base" / "new"
 * under a heading that names both configurations in full. */
#define HEADER_MAX 16

/* The common prefix of every configuration's label up to and including its last separator
 * (`5.14.0-rc3-` of `5.14.0-rc3-vanilla` and `5.14.0-rc3-alwayswake-v1r1`), when every label
 * keeps something after it; 0 otherwise. */
static size_t common_prefix(const tally_report *r)
{
    if (r->config_count < 2)
        return 0;
    const char *first = r->configs[0].label;
    size_t n = strlen(first);
    for (size_t j = 1; j < r->config_count; j++) {
        const char *l = r->configs[j].label;
        size_t k = 0;
        while (k < n && l[k] == first[k])
            k++;
        n = k;
    }
    while (n > 0 && !strchr("-_./: ", first[n - 1]))
        n--;
    for (size_t j = 0; j < r->config_count; j++)
        if (r->configs[j].label[n] == '\0')
            return 0;
    return n;
}

static size_t text_chars(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}

/* Whether a compared block's headers are "base" / "new": a shown label (without the common
 * prefix) is longer than HEADER_MAX. */
static int block_short_headers(const md_doc *d, const md_group *mg)
{
    if (!d->compare)
        return 0;
    for (size_t j = 0; j < d->r->config_count; j++)
        if (block_shows(mg, j) && text_chars(d->r->configs[j].label + d->prefix_len) > HEADER_MAX)
            return 1;
    return 0;
}

static void row_line(md_doc *d, const md_group *mg, size_t i, tally__buf *cell)
{
    const tally_report *r = d->r;
    const tally__row *row = &r->rows[i];
    tally__buf *b = &d->text;
    tally__numfmt f;
    tally__row_numfmt(&f, r, row, &mg->si, d->o->precision);
    tally__buf_puts(b, "| ");
    tally__md_text(cell, row->case_name + mg->prefix);
    md_case(b, cell);
    tally__buf_puts(b, " |");
    for (size_t j = 0; j < r->config_count; j++) {
        if (!block_shows(mg, j))
            continue;
        tally__buf_puts(b, " ");
        md_value(cell, row, &row->cells[j], &f);
        md_nowrap(b, cell);
        tally__buf_puts(b, " |");
        if (d->compare && j > 0) {
            tally__buf_puts(b, " ");
            md_delta(cell, &row->cells[j], mg->split);
            md_nowrap(b, cell);
            tally__buf_puts(b, " | ");
            if (!mg->no_p) {
                md_p(b, &row->cells[j]);
                tally__buf_puts(b, " | ");
            }
            md_verdict(cell, &row->cells[j], !mg->no_mde);
            md_nowrap(b, cell);
            tally__buf_puts(b, " |");
        }
    }
    tally__buf_end_line(b);
}

/* The table's header and alignment lines, as a piece of its own (written again when the
 * rows drop a column to fit). */
static void write_thead(md_doc *d, md_group *mg)
{
    const tally_report *r = d->r;
    tally__buf *b = &d->text;
    size_t start = b->len;
    char ci[32];
    tally__ci_label(ci, sizeof ci, r);
    tally__buf_puts(b, "| case |");
    for (size_t j = 0; j < r->config_count; j++) {
        if (!block_shows(mg, j))
            continue;
        tally__buf_puts(b, " ");
        if (mg->short_headers)
            tally__buf_puts(b, j == 0 ? "base" : "new");
        else
            md_label(b, r->configs[j].label + d->prefix_len);
        tally__buf_puts(b, " |");
        if (d->compare && j > 0)
            tally__buf_printf(b, " delta [%s] |%s verdict |", ci, mg->no_p ? "" : " p |");
    }
    tally__buf_puts(b, "\n|:---|");
    for (size_t j = 0; j < r->config_count; j++)
        if (block_shows(mg, j))
            tally__buf_puts(b, d->compare && j > 0 ? (mg->no_p ? "---:|---:|:---|"
                                                               : "---:|---:|---:|:---|")
                                                   : "---:|");
    tally__buf_puts(b, "\n");
    mg->thead = piece_end(d, start);
}

static void group_pieces(md_doc *d, md_group *mg)
{
    const tally_report *r = d->r;
    const tally__row *first = &r->rows[mg->g.first];
    tally__buf *b = &d->text;
    size_t start = b->len;
    tally__group_si(&mg->si, r, &mg->g);
    tally__buf_puts(b, "### ");
    tally__md_text(b, first->benchmark);
    tally__buf_puts(b, "\n\n");
    if (mg->si.unit[0]) {
        tally__md_text(b, mg->si.unit);
        tally__buf_puts(b, ", ");
    }
    tally__buf_printf(b, "%s is better, %s",
                      first->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower",
                      first->stat_title);
    mg->prefix = tally__case_prefix(r, &mg->g);
    if (mg->prefix > 0) {
        char *lead = tally__strndup(first->case_name, mg->prefix);
        if (lead == NULL) {
            b->failed = 1;
        } else {
            tally__buf_puts(b, "; cases without their common prefix `");
            tally__buf_puts(b, lead); /* in a code span: no Markdown escapes */
            tally__buf_puts(b, "`");
            tally__free_mem(lead);
        }
    }
    tally__buf_puts(b, "\n\n");
    mg->head = piece_end(d, start);
    start = b->len;
    int short_headers = block_short_headers(d, mg);
    d->short_headers |= short_headers;
    /* The heading names the compared configuration and the baseline in full; a table of one
     * comparison whose headers are shortened gets one too. */
    if (mg->config > 0 || (short_headers && r->config_count == 2)) {
        size_t j = mg->config > 0 ? mg->config : 1;
        tally__buf_puts(b, "#### ");
        tally__md_text(b, r->configs[j].label);
        tally__buf_puts(b, " against ");
        tally__md_text(b, r->configs[0].label);
        tally__buf_puts(b, "\n\n");
    }
    mg->sub = piece_end(d, start);
    mg->short_headers = short_headers;
    write_thead(d, mg);
}

/* The footnotes and notes, one piece per line. A line that is not a list item right after
 * one gets a blank line before it: Markdown would otherwise join it to the item above. */
static void tail_pieces(md_doc *d)
{
    const tally_report *r = d->r;
    tally__buf notes = TALLY__BUF_INIT;
    int insufficient = 0, missing = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            missing |= !c->present;
            insufficient |= c->compared && c->comparison.verdict == TALLY_VERDICT_INSUFFICIENT;
        }
    if (insufficient)
        tally__buf_printf(&notes, "[1] %s too few samples for the test to reach alpha %g.\n\n",
                          MARK_INSUFFICIENT, r->opts.alpha);
    if (missing) {
        tally__buf_puts(&notes, "[2] Missing cases:\n\n");
        tally__group all = { 0, r->row_count };
        tally__render_missing_notes(&notes, r, &all, "- ");
        tally__buf_puts(&notes, "\n");
    }
    tally__render_pairing_notes(&notes, r, "- ", 1);
    tally__render_run_notes(&notes, r, "- ");
    tally__render_env_notes(&notes, r, "- ");
    tally__render_block_notes(&notes, r, "- ");
    tally__render_exact_notes(&notes, r, "- ");
    tally__render_summary_only_notes(&notes, r, "- ");
    tally__render_histogram_notes(&notes, r, "- ");
    tally__render_diag_notes(&notes, r, "- ");
    if (notes.failed)
        d->text.failed = 1;
    size_t lines = 0;
    for (size_t k = 0; k < notes.len; k++)
        lines += notes.data[k] == '\n';
    d->tail = tally__calloc(lines + 1, sizeof(*d->tail));
    if (d->tail == NULL) {
        d->text.failed = 1;
        tally__buf_dispose(&notes);
        return;
    }
    int after_item = 0;
    for (size_t k = 0; k < notes.len;) {
        const char *line = notes.data + k;
        const char *nl = memchr(line, '\n', notes.len - k);
        size_t len = nl ? (size_t)(nl - line) : notes.len - k;
        k += len + 1;
        if (len == 0) {
            after_item = 0;
            continue; /* blank lines are put back where they belong below */
        }
        int item = len >= 2 && line[0] == '-' && line[1] == ' ';
        size_t start = d->text.len;
        if (!item || !after_item)
            tally__buf_puts(&d->text, "\n");
        tally__buf_append(&d->text, line, len);
        tally__buf_puts(&d->text, "\n");
        d->tail[d->tail_count++] = piece_end(d, start);
        after_item = item;
    }
    tally__buf_dispose(&notes);
}

static int doc_build(md_doc *d, const tally_report *r, const tally_render_options *o)
{
    memset(d, 0, sizeof(*d));
    d->r = r;
    d->o = o;
    d->compare = !r->opts.summaries_only && r->config_count > 1;
    d->fold = d->compare && (o->only_changed || r->row_count * (r->config_count > 2
                                                                   ? r->config_count - 1
                                                                   : 1) > MD_ROW_BUDGET);
    d->prefix_len = common_prefix(r);
    size_t blocks = d->compare && r->config_count > 2 ? r->config_count - 1 : 1;
    d->item_count = r->row_count * blocks;
    size_t n = d->item_count ? d->item_count : 1;
    d->item_row = tally__calloc(n, sizeof(*d->item_row));
    d->rows = tally__calloc(n, sizeof(*d->rows));
    d->changed = tally__calloc(n, 1);
    d->shown = tally__calloc(n, 1);
    d->group_of = tally__calloc(n, sizeof(*d->group_of));
    d->groups = tally__calloc(n, sizeof(*d->groups));
    if (!d->item_row || !d->rows || !d->changed || !d->shown || !d->group_of || !d->groups)
        return tally__oom();
    tally__buf cell = TALLY__BUF_INIT;
    tally__group g;
    size_t pos = 0, item = 0;
    while (tally__report_next_group(&g, r, &pos))
        for (size_t k = 0; k < blocks; k++) {
            md_group *mg = &d->groups[d->group_count];
            mg->g = g;
            mg->config = blocks > 1 ? k + 1 : 0;
            mg->first_item = item;
            group_pieces(d, mg);
            /* Rows wider than the column are written again without the MDE, then also with
             * the delta's interval on a line of its own (a third of the delta's width). */
            for (int level = 0; level < 4; level++) {
                mg->no_mde = level >= 1;
                mg->split = level >= 2;
                mg->no_p = level >= 3;
                size_t rows_at = d->text.len;
                double widest = 0;
                for (size_t i = g.first; i < g.first + g.count; i++) {
                    size_t start = d->text.len;
                    row_line(d, mg, i, &cell);
                    widest = fmax(widest, row_px(d->text.data ? d->text.data + start : "",
                                                 d->text.len - start));
                }
                if (d->text.failed)
                    break;
                d->text.len = rows_at;
                d->text.data[rows_at] = '\0';
                if (widest <= MD_COLUMN_PX)
                    break;
            }
            d->mde_left_out |= mg->no_mde;
            d->p_left_out |= mg->no_p;
            if (mg->no_p) /* the header without the p column, after the rows' scratch */
                write_thead(d, mg);
            for (size_t i = g.first; i < g.first + g.count; i++, item++) {
                d->item_row[item] = i;
                d->group_of[item] = d->group_count;
                size_t start = d->text.len;
                row_line(d, mg, i, &cell);
                d->rows[item] = piece_end(d, start);
                for (size_t j = 0; j < r->config_count; j++)
                    if (block_shows(mg, j))
                        d->changed[item] |= is_change(&r->rows[i].cells[j]) ||
                                            (d->compare && !r->rows[i].cells[j].pub.present);
                if (d->changed[item])
                    mg->changed++;
                else
                    mg->unchanged++;
                d->changed_total += d->changed[item];
            }
            d->group_count++;
        }
    tally__buf_dispose(&cell);
    tail_pieces(d);
    return d->text.failed ? tally__oom() : TALLY_OK;
}

static void doc_free(md_doc *d)
{
    tally__buf_dispose(&d->text);
    tally__free_mem(d->item_row);
    tally__free_mem(d->rows);
    tally__free_mem(d->changed);
    tally__free_mem(d->shown);
    tally__free_mem(d->group_of);
    tally__free_mem(d->groups);
    tally__free_mem(d->tail);
}

/* ---- writing the document from the pieces shown ---- */

static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* Counts of the verdicts of configuration j (0: every compared configuration). */
static void count_verdicts(const tally_report *r, size_t j, size_t *reg, size_t *imp,
                           size_t *rest)
{
    *reg = *imp = *rest = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t k = 1; k < r->config_count; k++) {
            const tally__cell_figures *c = &r->rows[i].cells[k].pub;
            if ((j != 0 && k != j) || !c->compared)
                continue;
            if (c->comparison.verdict == TALLY_VERDICT_REGRESSION)
                (*reg)++;
            else if (c->comparison.verdict == TALLY_VERDICT_IMPROVEMENT)
                (*imp)++;
            else
                (*rest)++;
        }
}

static void headline(tally__buf *b, const md_doc *d)
{
    const tally_report *r = d->r;
    size_t reg, imp, rest;
    count_verdicts(r, 0, &reg, &imp, &rest);
    tally__buf_printf(b, "**%zu %s %s · %zu %s %s** against ", reg,
                      plural(reg, "regression", "regressions"), MARK_REGRESSION, imp,
                      plural(imp, "improvement", "improvements"), MARK_IMPROVEMENT);
    tally__md_text(b, r->configs[0].label);
    tally__buf_printf(b, ", %zu without a significant change (%zu %s, %zu %s compared)\n\n",
                      rest, r->row_count, plural(r->row_count, "row", "rows"),
                      r->config_count - 1,
                      plural(r->config_count - 1, "configuration", "configurations"));
    size_t worst_i = 0, worst_j = 0;
    if (tally__worst_regression(&worst_i, &worst_j, r)) {
        const tally__row *worst_row = &r->rows[worst_i];
        const tally_comparison *cmp = &worst_row->cells[worst_j].pub.comparison;
        tally__buf_printf(b, "- Worst regression: **%+.2f%%**", cmp->pct_imp);
        tally__buf t = TALLY__BUF_INIT;
        tally__render_regression_size(&t, worst_row, cmp);
        /* The rest of the size (ratio, interval) after the bold percentage. */
        const char *after = t.data ? strchr(t.data, ' ') : NULL;
        if (after)
            tally__buf_puts(b, after);
        if (t.failed)
            b->failed = 1;
        tally__buf_dispose(&t);
        tally__buf_puts(b, " in ");
        tally__md_text(b, worst_row->benchmark);
        tally__buf_puts(b, "/");
        tally__md_text(b, worst_row->case_name);
        tally__buf_puts(b, ", ");
        tally__md_text(b, r->configs[worst_j].label);
        tally__buf_puts(b, "\n");
    }
    tally__buf_printf(b, "- Geometric mean of gains (> 1 is better, %g%% interval):\n",
                      r->opts.confidence * 100);
    for (size_t j = 1; j < r->config_count; j++) {
        tally_gain gain = { .size = sizeof gain };
        tally__buf_puts(b, "  - ");
        tally__md_text(b, r->configs[j].label);
        tally__buf per = TALLY__BUF_INIT;
        int rc = tally__render_family_gains(&per, r, j) ? TALLY_ENODATA
                                                        : tally_report_gain(&gain, r, j, NULL);
        if (rc == TALLY_ENOMEM || per.failed)
            b->failed = 1;
        if (per.len) {
            tally_error_clear();
            tally__buf_puts(b, ": per unit ");
            tally__md_text(b, per.data);
        } else if (rc != TALLY_OK) {
            tally_error_clear();
            tally__buf_puts(b, ": n/a");
        } else {
            tally__buf_printf(b, ": %.4f", gain.value);
            if (gain.interval_defined)
                tally__buf_printf(b, " [%.4f, %.4f]", gain.low, gain.high);
            tally__buf_printf(b, " over %zu %s", gain.rows, plural(gain.rows, "row", "rows"));
        }
        tally__buf_dispose(&per);
        if (r->config_count > 2) {
            count_verdicts(r, j, &reg, &imp, &rest);
            tally__buf_printf(b, "; %zu %s, %zu %s", reg,
                              plural(reg, "regression", "regressions"), imp,
                              plural(imp, "improvement", "improvements"));
        }
        tally__buf_puts(b, "\n");
    }
    tally__buf_puts(b, "\n");
}

/* What was left out to stay within the length limit (nothing when nothing was). */
static void omitted_note(tally__buf *b, const md_doc *d, long limit)
{
    size_t rows_changed = 0, rows_other = 0, benchmarks = 0;
    for (size_t k = 0; k < d->group_count; k++) {
        const md_group *mg = &d->groups[k];
        size_t shown = 0;
        for (size_t i = mg->first_item; i < mg->first_item + mg->g.count; i++) {
            shown += d->shown[i];
            if (!d->shown[i] && d->changed[i])
                rows_changed++;
            else if (!d->shown[i])
                rows_other++;
        }
        benchmarks += shown == 0;
    }
    size_t notes = d->tail_count - d->tail_shown;
    if (rows_changed + rows_other + notes == 0)
        return;
    char limit_text[32];
    snprintf(limit_text, sizeof(limit_text), "%ld", limit);
    tally__buf_printf(b, "> **Shortened to stay within %s characters.** Left out: ",
                      limit == GITHUB_COMMENT_LIMIT ? "GitHub's limit of 65,536" : limit_text);
    const char *sep = "";
    if (rows_other) {
        tally__buf_printf(b, "%zu %s without a significant change", rows_other,
                          plural(rows_other, "row", "rows"));
        sep = ", ";
    }
    if (rows_changed) {
        tally__buf_printf(b, "%s%zu %s with a change (the smallest)", sep, rows_changed,
                          plural(rows_changed, "row", "rows"));
        sep = ", ";
    }
    if (notes)
        tally__buf_printf(b, "%s%zu %s of notes", sep, notes, plural(notes, "line", "lines"));
    if (benchmarks)
        tally__buf_printf(b, "; %zu %s not shown at all", benchmarks,
                          plural(benchmarks, "table is", "tables are"));
    tally__buf_puts(b, ". `--format csv`, `json` or `html` shows every row.\n\n");
}

/* What the shortened column headers stand for (nothing when none is), each sentence followed
 * by `end`. */
static void headers_note(tally__buf *b, const md_doc *d, const char *end)
{
    if (d->prefix_len > 0) {
        tally__buf_puts(b, "headers omit the common prefix “");
        char *prefix = tally__calloc(d->prefix_len + 1, 1);
        if (prefix == NULL) {
            b->failed = 1;
            return;
        }
        memcpy(prefix, d->r->configs[0].label, d->prefix_len);
        tally__md_text(b, prefix);
        tally__free_mem(prefix);
        tally__buf_printf(b, "”%s", end);
    }
    if (d->short_headers)
        tally__buf_printf(b, "base / new: as in the heading%s", end);
}

static void write_doc(tally__buf *b, const md_doc *d, long limit)
{
    const tally_report *r = d->r;
    if (d->compare)
        headline(b, d);
    omitted_note(b, d, limit);
    size_t headed = (size_t)-1; /* the benchmark (first row) whose heading was written last */
    for (size_t k = 0; k < d->group_count; k++) {
        const md_group *mg = &d->groups[k];
        size_t shown_changed = 0, shown_other = 0;
        for (size_t i = mg->first_item; i < mg->first_item + mg->g.count; i++) {
            shown_changed += d->shown[i] && (d->changed[i] || !d->fold);
            shown_other += d->shown[i] && !d->changed[i] && d->fold;
        }
        if (shown_changed + shown_other == 0)
            continue;
        if (headed != mg->g.first)
            put_piece(b, d, mg->head);
        headed = mg->g.first;
        put_piece(b, d, mg->sub);
        if (shown_changed) {
            put_piece(b, d, mg->thead);
            for (size_t i = mg->first_item; i < mg->first_item + mg->g.count; i++)
                if (d->shown[i] && (d->changed[i] || !d->fold))
                    put_piece(b, d, d->rows[i]);
            tally__buf_puts(b, "\n");
        } else if (mg->changed == 0) {
            tally__buf_puts(b, "No row with a significant change.\n\n");
        }
        if (shown_other) {
            tally__buf_printf(b, "<details><summary>");
            if (shown_other < mg->unchanged)
                tally__buf_printf(b, "%zu of ", shown_other);
            tally__buf_printf(b, "%zu %s without a significant change</summary>\n\n",
                              mg->unchanged, plural(mg->unchanged, "row", "rows"));
            put_piece(b, d, mg->thead);
            for (size_t i = mg->first_item; i < mg->first_item + mg->g.count; i++)
                if (d->shown[i] && !d->changed[i])
                    put_piece(b, d, d->rows[i]);
            tally__buf_puts(b, "\n</details>\n\n");
        }
    }
    if (d->compare) {
        tally__buf_printf(b, "%s significant improvement · %s significant regression · "
                             "delta: positive is better · ",
                          MARK_IMPROVEMENT, MARK_REGRESSION);
        headers_note(b, d, " · ");
        if (d->mde_left_out)
            tally__buf_printf(b, "%s left out of wide tables to fit the column (`--format html` "
                                 "or `csv` has %s) · ",
                              d->p_left_out ? "MDE and p" : "MDE", d->p_left_out ? "them" : "it");
        tally__render_method_line(b, r);
    } else {
        headers_note(b, d, ".\n");
    }
    for (size_t k = 0; k < d->tail_shown; k++) {
        piece p = d->tail[k];
        /* A blank line before a note, but never two. */
        if (b->len >= 2 && b->data[b->len - 1] == '\n' && b->data[b->len - 2] == '\n' &&
            p.len > 0 && d->text.data[p.off] == '\n') {
            p.off++;
            p.len--;
        }
        put_piece(b, d, p);
    }
    /* One trailing newline at most. */
    while (b->len > 1 && !b->failed && b->data[b->len - 1] == '\n' && b->data[b->len - 2] == '\n')
        b->data[--b->len] = '\0';
}

/* ---- fitting the length limit ---- */

static int by_rank(const void *pa, const void *pb)
{
    const rank *a = pa, *b = pb;
    if (a->klass != b->klass)
        return a->klass < b->klass ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* Choose what is shown within `budget` bytes on top of the document with nothing shown: the
 * changed rows by importance, then the notes, then the other rows in order; each kind stops
 * at the first piece that does not fit, and the other rows only come when every change did.
 * The costs of opening a table or a fold are estimated generously; the caller measures. */
static void choose(md_doc *d, const rank *ranked, size_t nranked, long budget)
{
    memset(d->shown, 0, d->item_count);
    d->tail_shown = 0;
    unsigned char *opened = tally__calloc(d->group_count ? d->group_count : 1, 1);
    if (opened == NULL) {
        d->text.failed = 1;
        return;
    }
    long left = budget;
    int all_changes = 1;
    for (size_t k = 0; k < nranked; k++) {
        size_t i = ranked[k].row;
        const md_group *mg = &d->groups[d->group_of[i]];
        long cost = (long)d->rows[i].len;
        if (!(opened[d->group_of[i]] & 1))
            cost += (long)(mg->head.len + mg->sub.len + mg->thead.len) + 2;
        if (cost > left) {
            all_changes = 0;
            break;
        }
        left -= cost;
        opened[d->group_of[i]] |= 1;
        d->shown[i] = 1;
    }
    for (size_t k = 0; k < d->tail_count && (long)d->tail[k].len <= left; k++) {
        left -= (long)d->tail[k].len;
        d->tail_shown++;
    }
    for (size_t i = 0; all_changes && i < d->item_count; i++) {
        if (d->changed[i])
            continue;
        size_t gi = d->group_of[i];
        const md_group *mg = &d->groups[gi];
        long cost = (long)d->rows[i].len;
        if (d->fold && !(opened[gi] & 2))
            cost += (long)(mg->thead.len + mg->head.len + mg->sub.len) + 128;
        else if (!d->fold && !(opened[gi] & 1))
            cost += (long)(mg->head.len + mg->sub.len + mg->thead.len) + 2;
        if (cost > left)
            break;
        left -= cost;
        opened[gi] |= d->fold ? 2 : 1;
        d->shown[i] = 1;
    }
    tally__free_mem(opened);
}

int tally__render_markdown(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    long limit = o->max_length == 0 ? GITHUB_COMMENT_LIMIT : o->max_length;
    md_doc d;
    int rc = doc_build(&d, r, o);
    if (rc != TALLY_OK) {
        doc_free(&d);
        return rc;
    }
    memset(d.shown, 1, d.item_count);
    d.tail_shown = d.tail_count;
    tally__buf out = TALLY__BUF_INIT;
    write_doc(&out, &d, limit);
    if (limit > 0 && !out.failed && out.len > (size_t)limit) {
        /* The document with nothing shown (its note then names the most left out, so it is
         * the longest the note gets) is the floor: what is left of the limit is the budget. */
        memset(d.shown, 0, d.item_count);
        d.tail_shown = 0;
        out.len = 0;
        write_doc(&out, &d, limit);
        long budget = limit - (long)out.len;
        if (!out.failed && budget < 0) {
            rc = tally__error(TALLY_ELIMIT, "Markdown: the headline and legend alone take %zu "
                                            "bytes, more than the length limit of %ld",
                              out.len, limit);
            goto done;
        }
        rank *ranked = tally__calloc(d.changed_total ? d.changed_total : 1, sizeof(*ranked));
        if (ranked == NULL) {
            rc = tally__oom();
            goto done;
        }
        size_t nranked = 0;
        for (size_t i = 0; i < d.item_count; i++) {
            if (!d.changed[i])
                continue;
            rank k = { 2, 0, i };
            const md_group *mg = &d.groups[d.group_of[i]];
            for (size_t j = 1; j < r->config_count; j++) {
                const tally__cell *c = &r->rows[d.item_row[i]].cells[j];
                if (!block_shows(mg, j) || !is_change(c))
                    continue;
                double pct = c->pub.comparison.pct_imp;
                if (c->pub.comparison.verdict == TALLY_VERDICT_REGRESSION &&
                    (k.klass > 0 || pct < k.key)) {
                    k.klass = 0;
                    k.key = pct;
                } else if (k.klass > 0 && (k.klass == 2 || -pct < k.key)) {
                    k.klass = 1;
                    k.key = -pct;
                }
            }
            ranked[nranked++] = k;
        }
        qsort(ranked, nranked, sizeof(*ranked), by_rank);
        /* The estimate errs long; should it not, shrink the budget by the excess and retry. */
        do {
            choose(&d, ranked, nranked, budget);
            out.len = 0;
            write_doc(&out, &d, limit);
            budget -= out.len > (size_t)limit ? (long)(out.len - (size_t)limit) : 0;
        } while (!out.failed && !d.text.failed && out.len > (size_t)limit);
        tally__free_mem(ranked);
    }
    if (out.failed || d.text.failed)
        rc = tally__oom();
    else
        tally__buf_append(b, out.data, out.len);
done:
    tally__buf_dispose(&out);
    doc_free(&d);
    if (rc == TALLY_OK && b->failed)
        rc = tally__oom();
    return rc;
}
