/* The spreadsheet report through libxlsxwriter: a sheet per benchmark with the comparison table,
 * number formats, conditional colours for significant regressions and improvements and a chart
 * of pct imp per case; a sheet of raw samples; a metadata sheet. Every libxlsxwriter error
 * becomes TALLY_EXLSX with libxlsxwriter's message. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "report/report_internal.h"
#include "stats/compare_impl.h"
#include "report/xlsx_api.h"

#define SHEET_NAME_MAX 31

typedef struct ctx {
    tally__xlsx_api x;  /* libxlsxwriter, loaded for this render */
    lxw_workbook *wb;
    lxw_error err;      /* first libxlsxwriter error */
    const char *what;   /* what was being written when it happened */
    lxw_format *bold, *value_fmt[2], *pct_fmt, *p_fmt, *red, *green;
    char (*names)[SHEET_NAME_MAX + 1];
    size_t name_count;
} ctx;

static void note(ctx *c, lxw_error err, const char *what)
{
    if (err != LXW_NO_ERROR && c->err == LXW_NO_ERROR) {
        c->err = err;
        c->what = what;
    }
}

static void put_str(ctx *c, lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, const char *s,
                    lxw_format *f)
{
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_write_string(ws, row, col, s, f), "a cell");
}

static void put_num(ctx *c, lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, double x,
                    lxw_format *f)
{
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_write_number(ws, row, col, x, f), "a cell");
}

/* A sheet name Excel accepts: at most 31 characters, none of []:*?/\' and unique
 * (case-insensitively) within the workbook. */
static void sheet_name(ctx *c, char *out, const char *want)
{
    size_t len = 0;
    for (const char *p = want; *p && len < SHEET_NAME_MAX; p++)
        out[len++] = strchr("[]:*?/\\'", *p) ? '_' : *p;
    out[len] = '\0';
    if (len == 0)
        snprintf(out, SHEET_NAME_MAX + 1, "sheet");
    char base[SHEET_NAME_MAX + 1];
    memcpy(base, out, sizeof(base));
    for (int k = 2;; k++) {
        int taken = 0;
        for (size_t i = 0; i < c->name_count && !taken; i++)
            taken = strcasecmp(c->names[i], out) == 0;
        if (!taken)
            break;
        char suffix[16];
        int sl = snprintf(suffix, sizeof(suffix), "~%d", k);
        snprintf(out, SHEET_NAME_MAX + 1, "%.*s%s", SHEET_NAME_MAX - sl, base, suffix);
    }
    memcpy(c->names[c->name_count++], out, SHEET_NAME_MAX + 1);
}

static lxw_worksheet *add_sheet(ctx *c, const char *want)
{
    char name[SHEET_NAME_MAX + 1];
    sheet_name(c, name, want);
    lxw_worksheet *ws = c->err == LXW_NO_ERROR ? c->x.workbook_add_worksheet(c->wb, name) : NULL;
    if (ws == NULL)
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a worksheet");
    return ws;
}

static void col_letters(char *out, lxw_col_t col)
{
    char tmp[8];
    int n = 0;
    for (unsigned v = col + 1u; v > 0; v = (v - 1) / 26)
        tmp[n++] = (char)('A' + (v - 1) % 26);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
}

/* Colour the pct imp and verdict cells of a configuration by its verdict column. */
static void colour_rule(ctx *c, lxw_worksheet *ws, lxw_row_t last, lxw_col_t pct_col,
                        lxw_col_t verdict_col, const char *verdict, lxw_format *fmt)
{
    char letters[8], formula[64];
    col_letters(letters, verdict_col);
    snprintf(formula, sizeof(formula), "=$%s2=\"%s\"", letters, verdict);
    lxw_conditional_format cf;
    memset(&cf, 0, sizeof(cf));
    cf.type = LXW_CONDITIONAL_TYPE_FORMULA;
    cf.value_string = formula;
    cf.format = fmt;
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_conditional_format_range(ws, 1, pct_col, last, verdict_col, &cf),
             "a conditional format");
}

/* Columns: case; per configuration value and CV; for the others also pct imp, p, verdict, the
 * pct imp interval's bounds, the MDE and the runs needed per side. */
#define COMPARED_COLUMNS 9
static lxw_col_t config_col(const tally_report *r, size_t j, int compare)
{
    (void)r;
    return (lxw_col_t)(j == 0 ? 1 : 3 + (j - 1) * (compare ? COMPARED_COLUMNS : 2));
}

static void benchmark_chart(ctx *c, lxw_worksheet *ws, const char *sheet, const tally_report *r,
                            const tally__group *g, int compare)
{
    lxw_chart *chart = c->x.workbook_add_chart(c->wb, LXW_CHART_COLUMN);
    if (chart == NULL) {
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a chart");
        return;
    }
    c->x.chart_title_set_name(chart, "pct imp (positive is better)");
    for (size_t j = 1; j < r->config_count; j++) {
        char cats[128], vals[128], letters[8];
        lxw_col_t pct_col = config_col(r, j, compare) + 2;
        col_letters(letters, pct_col);
        snprintf(cats, sizeof(cats), "='%s'!$A$2:$A$%zu", sheet, g->count + 1);
        snprintf(vals, sizeof(vals), "='%s'!$%s$2:$%s$%zu", sheet, letters, letters, g->count + 1);
        lxw_chart_series *series = c->x.chart_add_series(chart, cats, vals);
        if (series == NULL) {
            note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a chart series");
            return;
        }
        c->x.chart_series_set_name(series, r->configs[j].label);
    }
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_insert_chart(ws, (lxw_row_t)g->count + 2, 0, chart), "a chart");
}

static void benchmark_sheet(ctx *c, const tally_report *r, const tally__group *g)
{
    const tally__row *first = &r->rows[g->first];
    int compare = !r->opts.summaries_only && r->config_count > 1;
    lxw_worksheet *ws = add_sheet(c, first->benchmark);
    if (ws == NULL)
        return;
    const char *sheet = c->names[c->name_count - 1];
    lxw_format *vf = c->value_fmt[first->direction == TALLY_HIGHER_IS_BETTER];
    char title[256];
    put_str(c, ws, 0, 0, "case", c->bold);
    for (size_t j = 0; j < r->config_count; j++) {
        lxw_col_t col = config_col(r, j, compare);
        put_str(c, ws, 0, col, r->configs[j].label, c->bold);
        snprintf(title, sizeof(title), "%s CV", r->configs[j].label);
        put_str(c, ws, 0, col + 1, title, c->bold);
        if (compare && j > 0) {
            snprintf(title, sizeof(title), "%s pct imp", r->configs[j].label);
            put_str(c, ws, 0, col + 2, title, c->bold);
            snprintf(title, sizeof(title), "%s p", r->configs[j].label);
            put_str(c, ws, 0, col + 3, title, c->bold);
            snprintf(title, sizeof(title), "%s verdict", r->configs[j].label);
            put_str(c, ws, 0, col + 4, title, c->bold);
            snprintf(title, sizeof(title), "%s pct imp low (%g%%)", r->configs[j].label,
                     r->opts.confidence * 100);
            put_str(c, ws, 0, col + 5, title, c->bold);
            snprintf(title, sizeof(title), "%s pct imp high (%g%%)", r->configs[j].label,
                     r->opts.confidence * 100);
            put_str(c, ws, 0, col + 6, title, c->bold);
            snprintf(title, sizeof(title), "%s MDE", r->configs[j].label);
            put_str(c, ws, 0, col + 7, title, c->bold);
            snprintf(title, sizeof(title), "%s runs needed", r->configs[j].label);
            put_str(c, ws, 0, col + 8, title, c->bold);
        }
    }
    for (size_t i = 0; i < g->count; i++) {
        const tally__row *row = &r->rows[g->first + i];
        lxw_row_t xr = (lxw_row_t)(i + 1);
        put_str(c, ws, xr, 0, row->case_name, NULL);
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *cell = &row->cells[j];
            lxw_col_t col = config_col(r, j, compare);
            if (!cell->pub.present) {
                put_str(c, ws, xr, col, "missing", NULL);
                continue;
            }
            if (cell->value_defined)
                put_num(c, ws, xr, col, cell->pub.value, vf);
            if (cell->cv_defined)
                put_num(c, ws, xr, col + 1, cell->cv, c->pct_fmt);
            if (!cell->pub.compared)
                continue;
            const tally_comparison *cmp = &cell->pub.comparison;
            if (cmp->ratio_defined)
                put_num(c, ws, xr, col + 2, cmp->pct_imp, c->pct_fmt);
            if (cmp->p_defined)
                put_num(c, ws, xr, col + 3, cell->pub.p_adjusted, c->p_fmt);
            put_str(c, ws, xr, col + 4, tally_verdict_name(cmp->verdict), NULL);
            if (cmp->interval_defined) {
                put_num(c, ws, xr, col + 5, cmp->pct_low, c->pct_fmt);
                put_num(c, ws, xr, col + 6, cmp->pct_high, c->pct_fmt);
            }
            if (cmp->mde_defined)
                put_num(c, ws, xr, col + 7, cmp->mde_pct, c->pct_fmt);
            /* Runs needed where they settle something: rows that cannot be judged yet. */
            int unsettled = cmp->verdict == TALLY_VERDICT_INCONCLUSIVE ||
                            cmp->verdict == TALLY_VERDICT_INSUFFICIENT;
            if (unsettled && cmp->runs_needed > 0 && cmp->runs_needed <= TALLY__RUNS_NEEDED_MAX)
                put_num(c, ws, xr, col + 8, (double)cmp->runs_needed, NULL);
            else if (unsettled && cmp->runs_needed > 0)
                put_str(c, ws, xr, col + 8, ">10000000", NULL);
        }
    }
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_set_column(ws, 0, 0, 16, NULL), "a column width");
    if (!compare)
        return;
    for (size_t j = 1; j < r->config_count; j++) {
        lxw_col_t col = config_col(r, j, compare);
        colour_rule(c, ws, (lxw_row_t)g->count, col + 2, col + 4, "regression", c->red);
        colour_rule(c, ws, (lxw_row_t)g->count, col + 2, col + 4, "improvement", c->green);
    }
    benchmark_chart(c, ws, sheet, r, g, compare);
}

static void samples_sheet(ctx *c, const tally_report *r)
{
    lxw_worksheet *ws = add_sheet(c, "samples");
    if (ws == NULL)
        return;
    static const char *const head[] = { "benchmark", "case", "configuration", "run", "value" };
    for (lxw_col_t k = 0; k < 5; k++)
        put_str(c, ws, 0, k, head[k], c->bold);
    lxw_row_t xr = 1;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *cell = &r->rows[i].cells[j];
            for (size_t k = 0; k < cell->n && c->err == LXW_NO_ERROR; k++, xr++) {
                put_str(c, ws, xr, 0, r->rows[i].benchmark, NULL);
                put_str(c, ws, xr, 1, r->rows[i].case_name, NULL);
                put_str(c, ws, xr, 2, r->configs[j].label, NULL);
                put_num(c, ws, xr, 3, (double)(k + 1), NULL);
                put_num(c, ws, xr, 4, cell->samples[k], NULL);
            }
        }
}

static void metadata_sheet(ctx *c, const tally_report *r)
{
    lxw_worksheet *ws = add_sheet(c, "metadata");
    if (ws == NULL)
        return;
    put_str(c, ws, 0, 0, "configuration", c->bold);
    put_str(c, ws, 0, 1, "key", c->bold);
    put_str(c, ws, 0, 2, "value", c->bold);
    lxw_row_t xr = 1;
    char alpha[32], confidence[32], margin[32], power[32], mde[32];
    tally__number_format(alpha, r->opts.alpha);
    tally__number_format(confidence, r->opts.confidence);
    tally__number_format(margin, r->opts.equivalence_pct);
    tally__number_format(power, r->opts.power);
    tally__number_format(mde, r->opts.mde_pct);
    const char *options[][2] = {
        { "statistic", tally_statistic_name(r->opts.statistic) },
        { "test", tally_test_name(r->opts.test) },
        { "alpha", alpha },
        { "adjust", tally_adjust_name(r->opts.adjust) },
        { "confidence", confidence },
        { "equivalence_pct", r->opts.equivalence_pct > 0 ? margin : "" },
        { "power", power },
        { "mde_pct", r->opts.mde_pct > 0 ? mde : "" },
        { "filter", r->opts.filter ? r->opts.filter : "" },
    };
    for (size_t k = 0; k < TALLY__COUNT(options); k++, xr++) {
        put_str(c, ws, xr, 0, "(report)", NULL);
        put_str(c, ws, xr, 1, options[k][0], NULL);
        put_str(c, ws, xr, 2, options[k][1] ? options[k][1] : "", NULL);
    }
    for (size_t j = 0; j < r->config_count; j++)
        for (size_t k = 0; k < r->configs[j].meta_count; k++, xr++) {
            put_str(c, ws, xr, 0, r->configs[j].label, NULL);
            put_str(c, ws, xr, 1, r->configs[j].meta[k].key, NULL);
            put_str(c, ws, xr, 2, r->configs[j].meta[k].value, NULL);
        }
}

/* The notes the text reports end with (partial sets, failed runs, environment differences), one
 * per row of a "notes" sheet; no sheet when there is nothing to say. */
static void notes_sheet(ctx *c, const tally_report *r)
{
    tally__buf notes = TALLY__BUF_INIT;
    tally__render_run_notes(&notes, r, "");
    tally__render_env_notes(&notes, r, "");
    if (notes.failed) {
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "the notes");
        tally__buf_dispose(&notes);
        return;
    }
    lxw_worksheet *ws = notes.len > 0 ? add_sheet(c, "notes") : NULL;
    if (ws != NULL) {
        /* Wide enough for the longest note (in characters, UTF-8 continuation bytes aside, up to
         * Excel's 255), set before the first row as constant_memory requires. */
        size_t width = 0, longest = 0;
        for (const char *p = notes.data; *p; p++) {
            if (*p == '\n')
                width = 0;
            else if (((unsigned char)*p & 0xC0) != 0x80 && ++width > longest)
                longest = width;
        }
        note(c, c->x.worksheet_set_column(ws, 0, 0, longest > 254 ? 255 : (double)longest + 1,
                                          NULL),
             "a column width");
        put_str(c, ws, 0, 0, "note", c->bold);
        lxw_row_t xr = 1;
        for (char *line = notes.data; c->err == LXW_NO_ERROR && *line; xr++) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            put_str(c, ws, xr, 0, line, NULL);
            line = nl ? nl + 1 : line + strlen(line);
        }
    }
    tally__buf_dispose(&notes);
}

static lxw_format *make_format(ctx *c)
{
    lxw_format *f = c->err == LXW_NO_ERROR ? c->x.workbook_add_format(c->wb) : NULL;
    if (f == NULL)
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a cell format");
    return f;
}

static void make_formats(ctx *c)
{
    if ((c->bold = make_format(c)) != NULL)
        c->x.format_set_bold(c->bold);
    if ((c->value_fmt[0] = make_format(c)) != NULL)
        c->x.format_set_num_format(c->value_fmt[0], "0.0000");
    if ((c->value_fmt[1] = make_format(c)) != NULL)
        c->x.format_set_num_format(c->value_fmt[1], "0.00");
    if ((c->pct_fmt = make_format(c)) != NULL)
        c->x.format_set_num_format(c->pct_fmt, "0.00");
    if ((c->p_fmt = make_format(c)) != NULL)
        c->x.format_set_num_format(c->p_fmt, "0.0000");
    if ((c->red = make_format(c)) != NULL) {
        c->x.format_set_bg_color(c->red, 0xFFC7CE);
        c->x.format_set_font_color(c->red, 0x9C0006);
    }
    if ((c->green = make_format(c)) != NULL) {
        c->x.format_set_bg_color(c->green, 0xC6EFCE);
        c->x.format_set_font_color(c->green, 0x006100);
    }
}

/* Whether a cell's run-order checks ran: those cells get a row of the diagnostics sheet. */
static int diagnosed(const tally__cell *cell)
{
    return cell->diag_defined && cell->diag.tested != 0;
}

/* The run-order and shape checks of every cell that had enough runs for them (the JSON
 * report's "diagnostics"), one row per cell; the findings of a cell where a check fired in
 * words and highlighted. Only written when some cell was checked. */
static void diagnostics_sheet(ctx *c, const tally_report *r, lxw_format *warn)
{
    static const char *const head[] = {
        "benchmark", "case", "configuration", "runs", "checks run", "checks fired", "findings",
        "trend p", "trend slope per run", "lag-1", "lag-1 p", "warm-up runs", "warm-up p",
        "warm-up shift", "step after run", "step p", "step shift", "dip", "dip p",
        "verdict without outliers",
    };
    lxw_worksheet *ws = add_sheet(c, "diagnostics");
    if (ws == NULL)
        return;
    for (lxw_col_t k = 0; k < TALLY__COUNT(head); k++)
        put_str(c, ws, 0, k, head[k], c->bold);
    lxw_row_t xr = 1;
    tally__buf t = TALLY__BUF_INIT;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count && c->err == LXW_NO_ERROR; j++) {
            const tally__cell *cell = &r->rows[i].cells[j];
            if (!diagnosed(cell))
                continue;
            const tally_diagnostics *d = &cell->diag;
            lxw_format *f = d->flagged ? warn : NULL;
            put_str(c, ws, xr, 0, r->rows[i].benchmark, NULL);
            put_str(c, ws, xr, 1, r->rows[i].case_name, NULL);
            put_str(c, ws, xr, 2, r->configs[j].label, NULL);
            put_num(c, ws, xr, 3, (double)d->n, NULL);
            for (int which = 0; which < 3; which++) {
                t.len = 0;
                if (which == 2)
                    tally__render_diag_findings(&t, r, cell);
                else
                    tally__render_diag_names(&t, which ? d->flagged : d->tested, ", ");
                if (t.failed)
                    note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a cell");
                else if (t.len)
                    put_str(c, ws, xr, (lxw_col_t)(4 + which), t.data, which ? f : NULL);
            }
            if (d->tested & TALLY_DIAG_TREND) {
                put_num(c, ws, xr, 7, d->trend_p, c->p_fmt);
                put_num(c, ws, xr, 8, d->trend_slope, NULL);
            }
            if (d->tested & TALLY_DIAG_AUTOCORR) {
                put_num(c, ws, xr, 9, d->autocorr_r1, NULL);
                put_num(c, ws, xr, 10, d->autocorr_p, c->p_fmt);
            }
            if (d->tested & TALLY_DIAG_WARMUP) {
                put_num(c, ws, xr, 11, (double)d->warmup_runs, NULL);
                put_num(c, ws, xr, 12, d->warmup_p, c->p_fmt);
                put_num(c, ws, xr, 13, d->warmup_shift, NULL);
            }
            if (d->tested & TALLY_DIAG_STEP) {
                put_num(c, ws, xr, 14, (double)d->step_at, NULL);
                put_num(c, ws, xr, 15, d->step_p, c->p_fmt);
                put_num(c, ws, xr, 16, d->step_shift, NULL);
            }
            if (d->tested & TALLY_DIAG_MULTIMODAL) {
                put_num(c, ws, xr, 17, d->dip, NULL);
                put_num(c, ws, xr, 18, d->dip_p, c->p_fmt);
            }
            if (d->flagged & TALLY_DIAG_OUTLIERS)
                put_str(c, ws, xr, 19,
                        tally_verdict_name((tally_verdict)d->verdict_without_outliers), warn);
            xr++;
        }
    tally__buf_dispose(&t);
    t = (tally__buf)TALLY__BUF_INIT;
    tally__render_diag_legend(&t);
    if (t.failed)
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a cell");
    else
        put_str(c, ws, xr + 1, 0, t.data, NULL);
    tally__buf_dispose(&t);
    /* Wide enough for the header of each column; the findings read as a sentence. */
    static const struct { lxw_col_t first, last; double width; } widths[] = {
        { 0, 2, 16 }, { 3, 3, 6 }, { 4, 5, 44 }, { 6, 6, 90 }, { 7, 18, 14 }, { 19, 19, 22 },
    };
    for (size_t k = 0; k < TALLY__COUNT(widths) && c->err == LXW_NO_ERROR; k++)
        note(c, c->x.worksheet_set_column(ws, widths[k].first, widths[k].last, widths[k].width,
                                          NULL),
             "a column width");
}

/* The diagnostics sheet, when some cell was checked. */
static void write_diagnostics(ctx *c, const tally_report *r)
{
    int any = 0;
    for (size_t i = 0; i < r->row_count && !any; i++)
        for (size_t j = 0; j < r->config_count && !any; j++)
            any = diagnosed(&r->rows[i].cells[j]);
    if (!any)
        return;
    lxw_format *warn = make_format(c);
    if (warn == NULL)
        return;
    c->x.format_set_bg_color(warn, 0xFFEB9C);
    c->x.format_set_font_color(warn, 0x9C5700);
    diagnostics_sheet(c, r, warn);
}

/* Excel's sheets hold at most 1,048,576 rows (the header included): more would fail inside
 * libxlsxwriter halfway through the file, so a report that cannot fit is refused first. */
#define EXCEL_ROWS 1048576u

static int check_rows(const tally_report *r, const char *shown_path)
{
    size_t pos = 0, samples = 0;
    tally__group g;
    while (tally__report_next_group(&g, r, &pos))
        if (g.count + 1 > EXCEL_ROWS)
            return tally__error_at(TALLY_ELIMIT, shown_path, 0, 0,
                                   "benchmark '%s' has %zu cases, more than the 1,048,575 rows "
                                   "an Excel sheet holds below its header: select fewer with a "
                                   "filter, or write CSV or JSON",
                                   r->rows[g.first].benchmark, g.count);
    for (size_t i = 0; !r->opts.omit_samples && i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            samples += r->rows[i].cells[j].n;
    if (samples + 1 > EXCEL_ROWS)
        return tally__error_at(TALLY_ELIMIT, shown_path, 0, 0,
                               "the samples sheet needs %zu rows, more than Excel's 1,048,576 "
                               "rows a sheet: leave the raw samples out (report option "
                               "omit_samples), or write CSV or JSON",
                               samples + 1);
    size_t checked = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            checked += diagnosed(&r->rows[i].cells[j]);
    /* The header, the rows and the legend a line below them. */
    if (checked + 3 > EXCEL_ROWS)
        return tally__error_at(TALLY_ELIMIT, shown_path, 0, 0,
                               "the diagnostics sheet needs %zu rows, more than Excel's "
                               "1,048,576 rows a sheet: select fewer cases with a filter, or "
                               "write CSV or JSON",
                               checked + 3);
    return TALLY_OK;
}

/* libxlsxwriter formats the workbook's creation time with gmtime(), whose result is shared by
 * every thread: workbooks are written one at a time, so that concurrent renders of XLSX (which
 * report.h promises) never race there. */
static pthread_mutex_t xlsx_lock = PTHREAD_MUTEX_INITIALIZER;

static int render_workbook(const char *path, const char *shown_path, const tally_report *r,
                           const tally_render_options *o);

int tally__render_xlsx(const char *path, const char *shown_path, const tally_report *r,
                       const tally_render_options *o)
{
    int rc = check_rows(r, shown_path);
    if (rc != TALLY_OK)
        return rc;
    pthread_mutex_lock(&xlsx_lock);
    rc = render_workbook(path, shown_path, r, o);
    pthread_mutex_unlock(&xlsx_lock);
    return rc;
}

static int render_workbook(const char *path, const char *shown_path, const tally_report *r,
                           const tally_render_options *o)
{
    (void)o;
    ctx c;
    memset(&c, 0, sizeof(c));
    size_t groups = 0, pos = 0;
    tally__group g;
    while (tally__report_next_group(&g, r, &pos))
        groups++;
    /* + diagnostics, samples, notes, metadata */
    c.names = tally__calloc(groups + 4, sizeof(*c.names));
    if (c.names == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int rc = tally__xlsx_open(&c.x);
    if (rc != TALLY_OK) {
        tally__free_mem(c.names);
        return rc;
    }
    /* libxlsxwriter prints numbers with the locale's decimal mark: the C locale for this thread
     * while it works. */
    void *locale = tally__locale_c_begin();
    /* constant_memory: each row goes to a temporary file as soon as the next one starts (every
     * sheet is written in row order), so memory stays flat however many samples there are. */
    lxw_workbook_options wo;
    memset(&wo, 0, sizeof(wo));
    wo.constant_memory = LXW_TRUE;
    wo.use_zip64 = LXW_TRUE;
    c.wb = c.x.workbook_new_opt(path, &wo);
    if (c.wb == NULL) {
        tally__locale_c_end(locale);
        tally__free_mem(c.names);
        tally__xlsx_close(&c.x);
        return tally__error_at(TALLY_EXLSX, shown_path, 0, 0, "cannot create the workbook");
    }
    make_formats(&c);
    pos = 0;
    while (c.err == LXW_NO_ERROR && tally__report_next_group(&g, r, &pos))
        benchmark_sheet(&c, r, &g);
    write_diagnostics(&c, r);
    if (!r->opts.omit_samples)
        samples_sheet(&c, r);
    notes_sheet(&c, r);
    metadata_sheet(&c, r);
    /* workbook_close also frees the workbook, so it runs even after an error. */
    lxw_error closed = c.x.workbook_close(c.wb);
    tally__locale_c_end(locale);
    note(&c, closed, "the file");
    tally__free_mem(c.names);
    if (c.err != LXW_NO_ERROR)
        rc = tally__error_at(TALLY_EXLSX, shown_path, 0, 0, "writing %s: %s", c.what,
                             c.x.lxw_strerror(c.err));
    tally__xlsx_close(&c.x);
    return rc;
}
