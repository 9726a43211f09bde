/* The spreadsheet report through libxlsxwriter: a sheet per benchmark with the comparison table,
 * number formats, conditional colours for significant regressions and improvements and a chart
 * of pct imp per case; a sheet of raw samples; a metadata sheet. Every libxlsxwriter error
 * becomes TALLY_EXLSX with libxlsxwriter's message. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "report/report_internal.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"
#include "report/palette.h"
#include "report/svg.h"
#include "report/xlsx_api.h"

#define SHEET_NAME_MAX 31

typedef struct ctx {
    tally__xlsx_api x;  /* libxlsxwriter, loaded for this render */
    lxw_workbook *wb;
    lxw_error err;      /* first libxlsxwriter error */
    int sys_err;        /* errno of a temporary file libxlsxwriter could not create, or 0 */
    const char *what;   /* what was being written when it happened */
    const tally_render_options *o;
    /* Value formats by their decimals ("0", "0.0", ... "0.00000000000000000"), made on use. */
    lxw_format *value_fmt[18];
    /* Scientific formats by significant digits ("0.00E+00" is 3), for values too small for 17
     * decimals (tally__numfmt's sci), made on use. */
    lxw_format *sci_fmt[18];
    lxw_format *bold, *title, *group, *verdict, *pct_fmt, *cv_fmt, *p_fmt, *p_tiny_fmt,
        *red, *green;
    char (*names)[SHEET_NAME_MAX + 1];
    size_t name_count;
    /* The widths of the sheet being written, in characters, one per column (see fit_columns). */
    double *widths;
    size_t width_count;
} ctx;

static void note(ctx *c, lxw_error err, const char *what)
{
    if (err != LXW_NO_ERROR && c->err == LXW_NO_ERROR) {
        c->err = err;
        c->what = what;
    }
}

/* The format of values with `decimals` decimals (made on first use). */
static lxw_format *value_format(ctx *c, int decimals);
/* The format of values shown as `nf` says (made on first use). */
static lxw_format *numfmt_format(ctx *c, const tally__numfmt *nf);

/* Columns take the width of their widest cell. Excel measures a width in characters of the
 * default font's digits; letters and bold text run wider, hence the factors, found by looking
 * at the sheets in LibreOffice (a 26-character configuration name fits its column). */
static void widen(ctx *c, lxw_col_t col, size_t chars, int bold)
{
    if (col >= c->width_count) {
        size_t count = (size_t)col + 16;
        double *w = tally__reallocarray(c->widths, count, sizeof(*w));
        if (w == NULL) {
            note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a column width");
            return;
        }
        for (size_t k = c->width_count; k < count; k++)
            w[k] = 0;
        c->widths = w;
        c->width_count = count;
    }
    double want = (double)chars * (bold ? 1.2 : 1.1) + 2;
    if (want > c->widths[col])
        c->widths[col] = want;
}

/* Characters of UTF-8 text (continuation bytes do not count). */
static size_t text_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Set every column measured since the last call to its width, and start over. */
static void fit_columns(ctx *c, lxw_worksheet *ws)
{
    for (size_t k = 0; k < c->width_count; k++)
        if (c->widths[k] > 0 && c->err == LXW_NO_ERROR)
            note(c, c->x.worksheet_set_column(ws, (lxw_col_t)k, (lxw_col_t)k,
                                              c->widths[k] > 80 ? 80 : c->widths[k], NULL),
                 "a column width");
    for (size_t k = 0; k < c->width_count; k++)
        c->widths[k] = 0;
}

static void put_str(ctx *c, lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, const char *s,
                    lxw_format *f)
{
    if (c->err != LXW_NO_ERROR)
        return;
    note(c, c->x.worksheet_write_string(ws, row, col, s, f), "a cell");
    if (f != c->title && f != c->group)
        widen(c, col, text_chars(s), f == c->bold);
}

/* The characters a number takes in its format (the formats of make_formats). */
static size_t shown_chars(const ctx *c, double x, lxw_format *f)
{
    char text[TALLY__NUMBER_BUF + 8];
    for (int d = 0; d < (int)TALLY__COUNT(c->value_fmt); d++) {
        if (f != NULL && f == c->value_fmt[d])
            return (size_t)snprintf(text, sizeof(text), "%.*f", d, x);
        if (f != NULL && f == c->sci_fmt[d])
            return tally__format_fixed(text, sizeof(text), -(d < 1 ? 1 : d), x);
    }
    if (f == c->pct_fmt || f == c->cv_fmt)
        return (size_t)snprintf(text, sizeof(text), "%+.2f%%", x * 100);
    if (f == c->p_fmt)
        return 8; /* 0.0000 or 1.00E-05 */
    if (f == c->p_tiny_fmt)
        return 7;
    return tally__number_format(text, x);
}

static void put_num(ctx *c, lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, double x,
                    lxw_format *f)
{
    if (c->err != LXW_NO_ERROR)
        return;
    note(c, c->x.worksheet_write_number(ws, row, col, x, f), "a cell");
    widen(c, col, shown_chars(c, x, f), 0);
}

/* A case name that is a plain decimal number (`1`, `16`, `0.5`) is written as a number, so
 * that sorting orders 1, 12, 110 by value; anything else (`1-groups`, `16 clients`) as text. */
static int number_name(double *x, const char *name)
{
    const char *stop = NULL;
    size_t len = strlen(name);
    return len > 0 && len < 24 && strspn(name, "0123456789.-") == len &&
           tally__number_scan(x, &stop, name, name + len, TALLY__NUMBER_JSON) ==
               TALLY__NUMBER_OK &&
           stop == name + len;
}

static void put_case(ctx *c, lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, const char *name)
{
    double x;
    if (number_name(&x, name))
        put_num(c, ws, row, col, x, NULL);
    else
        put_str(c, ws, row, col, name, NULL);
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
    /* Each sheet measures its own columns (a sheet that sets its widths itself ignores them). */
    for (size_t k = 0; k < c->width_count; k++)
        c->widths[k] = 0;
    char name[SHEET_NAME_MAX + 1];
    sheet_name(c, name, want);
    if (c->err != LXW_NO_ERROR)
        return NULL;
    /* A worksheet of constant_memory mode opens its temporary file at once: it fails on a
     * failed allocation (ENOMEM) or a temporary file that cannot be created (EMFILE, ENOSPC,
     * EACCES: errno says which). */
    errno = 0;
    lxw_worksheet *ws = c->x.workbook_add_worksheet(c->wb, name);
    if (ws == NULL && errno != 0 && errno != ENOMEM) {
        c->sys_err = errno;
        note(c, LXW_ERROR_CREATING_TMPFILE, "a worksheet");
    } else if (ws == NULL) {
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a worksheet");
    }
    return ws;
}

/* A table sheet on screen and on paper: the rows above `data_row` (titles and headers) and the
 * first column stay in view, the header row `data_row - 1` gets filter buttons over the
 * table, and the table prints landscape, as wide as one page, the header rows on every page. */
static void table_view(ctx *c, lxw_worksheet *ws, lxw_row_t data_row, lxw_row_t last_row,
                       lxw_col_t last_col)
{
    if (c->err != LXW_NO_ERROR)
        return;
    c->x.worksheet_freeze_panes(ws, data_row, 1);
    note(c, c->x.worksheet_autofilter(ws, data_row - 1, 0, last_row, last_col), "a filter");
    c->x.worksheet_set_landscape(ws);
    c->x.worksheet_fit_to_pages(ws, 1, 0);
    note(c, c->x.worksheet_repeat_rows(ws, 0, data_row - 1), "the print titles");
    /* The table alone goes on paper, at the largest scale that fits the width: the charts
     * beside it would shrink it to an unreadable size (they are for the screen). */
    note(c, c->x.worksheet_print_area(ws, 0, 0, last_row, last_col), "the print area");
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

/* The layout of a benchmark sheet: a title row (benchmark, unit, direction, statistic, test,
 * baseline), a row naming the configurations over their columns, the column headers, then a
 * row per case. */
#define TITLE_ROW 0
#define GROUP_ROW 1
#define HEADER_ROW 2
#define FIRST_DATA_ROW 3

/* Colour the pct imp and verdict cells of a configuration by its verdict column. */
static void colour_rule(ctx *c, lxw_worksheet *ws, lxw_row_t last, lxw_col_t pct_col,
                        lxw_col_t verdict_col, const char *verdict, lxw_format *fmt)
{
    char letters[8], formula[64];
    col_letters(letters, verdict_col);
    snprintf(formula, sizeof(formula), "=$%s%u=\"%s\"", letters, FIRST_DATA_ROW + 1u, verdict);
    lxw_conditional_format cf;
    memset(&cf, 0, sizeof(cf));
    cf.type = LXW_CONDITIONAL_TYPE_FORMULA;
    cf.value_string = formula;
    cf.format = fmt;
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_conditional_format_range(ws, FIRST_DATA_ROW, pct_col, last,
                                                        verdict_col, &cf),
             "a conditional format");
}

/* Columns: case; per configuration value and CV; for the others also pct imp and its
 * interval's bounds, p, verdict, the MDE and the runs needed per side. */
#define COMPARED_COLUMNS 9
static lxw_col_t config_col(const tally_report *r, size_t j, int compare)
{
    (void)r;
    return (lxw_col_t)(j == 0 ? 1 : 3 + (j - 1) * (compare ? COMPARED_COLUMNS : 2));
}

static int is_significant(const tally__cell *cell)
{
    return cell->pub.compared && (cell->pub.comparison.verdict == TALLY_VERDICT_REGRESSION ||
                                  cell->pub.comparison.verdict == TALLY_VERDICT_IMPROVEMENT);
}

/* Charts only up to this many cases: beyond, bars and points are too thin to read (600 cases
 * made an unreadable comb) and the table, sorted or filtered, says more. */
#define CHART_CASES_MAX 50

/* The colour of configuration j in every chart: the HTML report's (palette.h), so that one
 * configuration has one colour in both charts of a sheet and in the HTML. */
static lxw_color_t config_colour(size_t j)
{
    static const char *const palette[TALLY__PALETTE_SIZE] = {
        TALLY__PALETTE_C0, TALLY__PALETTE_C1, TALLY__PALETTE_C2, TALLY__PALETTE_C3,
        TALLY__PALETTE_C4, TALLY__PALETTE_C5, TALLY__PALETTE_C6, TALLY__PALETTE_C7,
    };
    return (lxw_color_t)strtoul(palette[j % TALLY__PALETTE_SIZE] + 1, NULL, 16);
}

/* Whether every case of the group is named by a number: the cases sweep a parameter (clients,
 * groups, sizes), which a line may join in order; named cases are separate things, drawn as
 * bars with their names beside them. */
static int swept_cases(const tally_report *r, const tally__group *g)
{
    double x;
    for (size_t i = g->first; i < g->first + g->count; i++)
        if (!number_name(&x, r->rows[i].case_name))
            return 0;
    return 1;
}

/* A bar chart's axes are those of a column chart turned: libxlsxwriter's x_axis is then the
 * value axis (horizontal) and y_axis the categories. */
static lxw_chart_axis *category_axis(lxw_chart *chart)
{
    return chart->type == LXW_CHART_BAR ? chart->y_axis : chart->x_axis;
}

static lxw_chart_axis *value_axis(lxw_chart *chart)
{
    return chart->type == LXW_CHART_BAR ? chart->x_axis : chart->y_axis;
}

static lxw_chart *new_chart(ctx *c, uint8_t type, const char *title, const char *x_title,
                            const char *y_title, const char *y_format)
{
    lxw_chart *chart = c->err == LXW_NO_ERROR ? c->x.workbook_add_chart(c->wb, type) : NULL;
    if (chart == NULL) {
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a chart");
        return NULL;
    }
    c->x.chart_title_set_name(chart, title);
    c->x.chart_axis_set_name(category_axis(chart), x_title);
    c->x.chart_axis_set_name(value_axis(chart), y_title);
    c->x.chart_axis_set_num_format(value_axis(chart), y_format);
    /* Category labels at the low end of the value axis, never across bars that go below zero;
     * in a bar chart (named cases) the categories run down its left side, the first case on
     * top as in the table. */
    c->x.chart_axis_set_label_position(category_axis(chart), LXW_CHART_AXIS_LABEL_POSITION_LOW);
    if (type == LXW_CHART_BAR) {
        /* Every case named (a spreadsheet otherwise skips every other label when they are
         * crowded), in a 9-point font: the chart is made tall enough for them. */
        lxw_chart_font small;
        memset(&small, 0, sizeof(small));
        small.size = 9;
        c->x.chart_axis_set_reverse(category_axis(chart));
        c->x.chart_axis_set_interval_unit(category_axis(chart), 1);
        c->x.chart_axis_set_num_font(category_axis(chart), &small);
    }
    /* The legend above the plot: outside it and away from the case labels. */
    c->x.chart_legend_set_position(chart, LXW_CHART_LEGEND_TOP);
    return chart;
}

static lxw_chart_series *add_series(ctx *c, lxw_chart *chart, const char *sheet, size_t cases,
                                    lxw_col_t col, const char *name)
{
    char cats[128], vals[128], letters[8];
    col_letters(letters, col);
    unsigned first = FIRST_DATA_ROW + 1u, last = FIRST_DATA_ROW + (unsigned)cases;
    snprintf(cats, sizeof(cats), "='%s'!$A$%u:$A$%u", sheet, first, last);
    snprintf(vals, sizeof(vals), "='%s'!$%s$%u:$%s$%u", sheet, letters, first, letters, last);
    lxw_chart_series *series = c->x.chart_add_series(chart, cats, vals);
    if (series == NULL) {
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a chart series");
        return NULL;
    }
    c->x.chart_series_set_name(series, name);
    return series;
}

/* The height in pixels of a chart of `cases` categories with `series` series: Excel's default
 * 288 px, taller for named cases drawn as horizontal bars: 14 px a case (a 9-point label)
 * plus 4 px per series, so 36 long-named cases keep every label level and apart. */
static double chart_height(int bars, size_t cases, size_t series)
{
    double want = bars ? 100 + (double)cases * (14 + 4 * (double)series) : 288;
    return want < 288 ? 288 : want;
}

/* Beside the table: the row statistic of every configuration across the cases, and below it
 * the pct imp of each compared configuration with its significant bars solid and the others
 * pale. Swept cases (numbers) read left to right, the statistic as a line per configuration;
 * named cases as horizontal bars with their names level at the left, never joined by a line.
 * Configuration j has the colour palette.h gives it, in both charts. */
static void benchmark_charts(ctx *c, lxw_worksheet *ws, const char *sheet, const tally_report *r,
                             const tally__group *g, int compare, lxw_col_t beside,
                             const char *value_head)
{
    const tally__row *first = &r->rows[g->first];
    int bars = !swept_cases(r, g);
    char title[256];
    snprintf(title, sizeof(title), "%s per case (%s is better)", value_head,
             first->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower");
    lxw_chart *sweep = new_chart(c, bars ? LXW_CHART_BAR : LXW_CHART_LINE, title, "case",
                                 value_head, "General");
    if (sweep == NULL)
        return;
    for (size_t j = 0; j < r->config_count; j++) {
        lxw_chart_series *s =
            add_series(c, sweep, sheet, g->count, config_col(r, j, compare), r->configs[j].label);
        if (s == NULL)
            return;
        lxw_chart_fill fill = { config_colour(j), 0, 0 };
        lxw_chart_line line = { config_colour(j), 0, bars ? 0.75f : 1.5f, 0, 0 };
        c->x.chart_series_set_line(s, &line);
        if (bars) {
            c->x.chart_series_set_fill(s, &fill);
        } else {
            c->x.chart_series_set_marker_type(s, LXW_CHART_MARKER_CIRCLE);
            c->x.chart_series_set_fill(s, &fill);
        }
    }
    if (bars)
        c->x.chart_set_series_gap(sweep, 60);
    /* Named cases whose values span more than two decades (a 15-byte and a 32 kB checksum) on
     * a logarithmic axis, so the small ones are not flattened onto zero. */
    double vmin = 0, vmax = 0;
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *cell = &r->rows[i].cells[j];
            double v = cell->pub.value;
            if (!cell->pub.present || !cell->value_defined || !(v > 0))
                continue;
            vmin = vmin == 0 || v < vmin ? v : vmin;
            vmax = v > vmax ? v : vmax;
        }
    if (bars && vmin > 0 && vmax / vmin > 100)
        c->x.chart_axis_set_log_base(value_axis(sweep), 10);
    lxw_chart_options place;
    memset(&place, 0, sizeof(place));
    place.x_offset = 8;
    place.y_offset = 4;
    /* Named cases need room for their labels beside the bars. */
    place.x_scale = bars ? 2.0 : 1.5;
    double height = chart_height(bars, g->count, r->config_count);
    place.y_scale = height / 288;
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_insert_chart_opt(ws, GROUP_ROW, beside, sweep, &place), "a chart");
    if (!compare)
        return;
    snprintf(title, sizeof(title), "Change against %s (solid: significant)", r->configs[0].label);
    lxw_chart *change = new_chart(c, bars ? LXW_CHART_BAR : LXW_CHART_COLUMN, title, "case",
                                  "pct imp (+ is better)", "0%");
    if (change == NULL)
        return;
    lxw_chart_point *points = tally__calloc(g->count + 1, sizeof(*points));
    lxw_chart_point **list = tally__calloc(g->count + 1, sizeof(*list));
    if (points == NULL || list == NULL) {
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a chart series");
        tally__free_mem(points);
        tally__free_mem(list);
        return;
    }
    /* The value axis always holds 0, so that bars start there even when every change has the
     * same sign (or the same size: spreadsheets then make up a range without 0). */
    double lo = 0, hi = 0;
    for (size_t i = 0; i < g->count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell *cell = &r->rows[g->first + i].cells[j];
            if (cell->pub.compared && cell->pub.comparison.ratio_defined) {
                double v = cell->pub.comparison.pct_imp / 100;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        }
    if (hi > lo) {
        /* Whole nice steps (the HTML plots' ticks), so the labels read 10%, 20%, ... */
        tally__ticks t;
        tally__nice_ticks(&t, lo, hi, 6);
        c->x.chart_axis_set_min(value_axis(change), t.lo + 0.0); /* + 0.0: never "-0" */
        c->x.chart_axis_set_max(value_axis(change), t.hi + 0.0);
        c->x.chart_axis_set_major_unit(value_axis(change), t.step);
    }
    for (size_t j = 1; j < r->config_count && c->err == LXW_NO_ERROR; j++) {
        lxw_color_t colour = config_colour(j);
        lxw_chart_series *s = add_series(c, change, sheet, g->count,
                                         config_col(r, j, compare) + 2, r->configs[j].label);
        if (s == NULL)
            break;
        lxw_chart_fill solid = { colour, 0, 0 }, pale = { colour, 0, 75 };
        lxw_chart_line edge = { colour, 0, 1.0f, 0, 0 };
        c->x.chart_series_set_fill(s, &solid);
        c->x.chart_series_set_line(s, &edge);
        for (size_t i = 0; i < g->count; i++) {
            int significant = is_significant(&r->rows[g->first + i].cells[j]);
            points[i].fill = significant ? &solid : &pale;
            points[i].line = &edge;
            points[i].pattern = NULL;
            list[i] = &points[i];
        }
        list[g->count] = NULL;
        note(c, c->x.chart_series_set_points(s, list), "a chart series");
    }
    tally__free_mem(points);
    tally__free_mem(list);
    if (bars)
        c->x.chart_set_series_gap(change, 60);
    place.y_offset = 24;
    place.y_scale = chart_height(bars, g->count, r->config_count - 1) / 288;
    /* Below the first chart: its height in rows of Excel's default 20 px, and one more. */
    lxw_row_t below = GROUP_ROW + (lxw_row_t)(height / 20) + 1;
    if (c->err == LXW_NO_ERROR)
        note(c, c->x.worksheet_insert_chart_opt(ws, below, beside, change, &place), "a chart");
}

static void benchmark_sheet(ctx *c, const tally_report *r, const tally__group *g)
{
    const tally__row *first = &r->rows[g->first];
    int compare = !r->opts.summaries_only && r->config_count > 1;
    lxw_worksheet *ws = add_sheet(c, first->benchmark);
    if (ws == NULL)
        return;
    const char *sheet = c->names[c->name_count - 1];
    lxw_col_t last_col = config_col(r, r->config_count - 1, compare) +
                         (compare && r->config_count > 1 ? COMPARED_COLUMNS : 2) - 1;
    int charts = g->count >= 2 && g->count <= CHART_CASES_MAX;

    /* Values in the benchmark's prefixed unit, as every other format shows them (go's sec/op
     * as ns/op, B/s as MiB/s): the group's prefix, chosen as the text table chooses it. */
    tally__si si;
    tally__group_si(&si, r, g);
    /* The title row: what the numbers are. */
    tally__buf t = TALLY__BUF_INIT;
    tally__buf_printf(&t, "%s: %s%s%s is better, %s", first->benchmark, si.unit,
                      si.unit[0] ? ", " : "",
                      first->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower",
                      first->stat_title);
    if (compare) {
        tally__buf_puts(&t, "; ");
        tally__render_method_line(&t, r);
        if (t.len && t.data[t.len - 1] == '\n')
            t.data[--t.len] = '\0';
        tally__buf_puts(&t, " Baseline: ");
        tally__buf_puts(&t, r->configs[0].label);
        tally__buf_puts(&t, "; pct imp: positive is better.");
    }
    if (g->count > CHART_CASES_MAX)
        tally__buf_printf(&t, " No charts: %zu cases, more than the %d a chart shows legibly.",
                          g->count, CHART_CASES_MAX);
    if (t.failed)
        note(c, LXW_ERROR_MEMORY_MALLOC_FAILED, "a cell");
    else
        put_str(c, ws, TITLE_ROW, 0, t.data, c->title);
    tally__buf_dispose(&t);

    /* A row naming each configuration, centred across its columns. */
    for (size_t j = 0; j < r->config_count; j++) {
        lxw_col_t col = config_col(r, j, compare);
        lxw_col_t span = compare && j > 0 ? COMPARED_COLUMNS : 2;
        put_str(c, ws, GROUP_ROW, col, r->configs[j].label, c->group);
        for (lxw_col_t k = 1; k < span && c->err == LXW_NO_ERROR; k++)
            note(c, c->x.worksheet_write_blank(ws, GROUP_ROW, col + k, c->group), "a cell");
    }

    char value_head[160], low[32], high[32];
    if (si.unit[0])
        snprintf(value_head, sizeof(value_head), "%s (%s)", first->stat_title, si.unit);
    else
        snprintf(value_head, sizeof(value_head), "%s", first->stat_title);
    snprintf(low, sizeof(low), "low %g%%", r->opts.confidence * 100);
    snprintf(high, sizeof(high), "high %g%%", r->opts.confidence * 100);
    const char *p_head = r->opts.adjust != TALLY_ADJUST_NONE ? "p (adjusted)" : "p";
    put_str(c, ws, HEADER_ROW, 0, "case", c->bold);
    for (size_t j = 0; j < r->config_count; j++) {
        lxw_col_t col = config_col(r, j, compare);
        put_str(c, ws, HEADER_ROW, col, value_head, c->bold);
        put_str(c, ws, HEADER_ROW, col + 1, "CV", c->bold);
        if (compare && j > 0) {
            const char *rest[] = { "pct imp", low, high, p_head, "verdict", "MDE",
                                   "runs needed" };
            for (lxw_col_t k = 0; k < TALLY__COUNT(rest); k++)
                put_str(c, ws, HEADER_ROW, col + 2 + k, rest[k], c->bold);
        }
    }

    for (size_t i = 0; i < g->count; i++) {
        const tally__row *row = &r->rows[g->first + i];
        lxw_row_t xr = (lxw_row_t)(FIRST_DATA_ROW + i);
        /* The decimals every human format shows (the row's narrowest interval with 2
         * significant digits) in the benchmark's prefixed unit. */
        tally__numfmt nf;
        tally__row_numfmt(&nf, r, row, &si, c->o->precision);
        lxw_format *vf = numfmt_format(c, &nf);
        put_case(c, ws, xr, 0, row->case_name);
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *cell = &row->cells[j];
            lxw_col_t col = config_col(r, j, compare);
            if (!cell->pub.present) {
                /* Beside an empty value: a chart plots text as 0, an empty cell as a gap. */
                put_str(c, ws, xr, col + 1, "missing", NULL);
                continue;
            }
            if (cell->value_defined)
                put_num(c, ws, xr, col, cell->pub.value / nf.si.factor, vf);
            /* Percentages are stored as fractions under a percent format: 0.0473 shows 4.73%. */
            if (cell->cv_defined)
                put_num(c, ws, xr, col + 1, cell->cv / 100, c->cv_fmt);
            if (!cell->pub.compared)
                continue;
            const tally_comparison *cmp = &cell->pub.comparison;
            if (cmp->ratio_defined)
                put_num(c, ws, xr, col + 2, cmp->pct_imp / 100, c->pct_fmt);
            if (cmp->p_defined)
                put_num(c, ws, xr, col + 5, cell->pub.p_adjusted,
                        cell->pub.p_adjusted < 1e-300 ? c->p_tiny_fmt : c->p_fmt);
            put_str(c, ws, xr, col + 6, tally_verdict_name(cmp->verdict), c->verdict);
            if (cmp->interval_defined) {
                put_num(c, ws, xr, col + 3, cmp->pct_low / 100, c->pct_fmt);
                put_num(c, ws, xr, col + 4, cmp->pct_high / 100, c->pct_fmt);
            }
            if (cmp->mde_defined)
                put_num(c, ws, xr, col + 7, cmp->mde_pct / 100, c->cv_fmt);
            /* Runs needed where they settle something: rows that cannot be judged yet. */
            int unsettled = cmp->verdict == TALLY_VERDICT_INCONCLUSIVE ||
                            cmp->verdict == TALLY_VERDICT_INSUFFICIENT;
            if (unsettled && cmp->runs_needed > 0 && cmp->runs_needed <= TALLY__RUNS_NEEDED_MAX)
                put_num(c, ws, xr, col + 8, (double)cmp->runs_needed, NULL);
            else if (unsettled && cmp->runs_needed > 0)
                put_str(c, ws, xr, col + 8, ">10000000", NULL);
        }
    }
    /* A configuration's name shows whole over its columns: the first one widens if need be. */
    for (size_t j = 0; j < r->config_count && c->err == LXW_NO_ERROR; j++) {
        lxw_col_t col = config_col(r, j, compare);
        lxw_col_t span = compare && j > 0 ? COMPARED_COLUMNS : 2;
        double have = 0;
        for (lxw_col_t k = 0; k < span; k++)
            have += col + k < c->width_count ? c->widths[col + k] : 0;
        double want = (double)text_chars(r->configs[j].label) * 1.2 + 2;
        if (have < want)
            widen(c, col, (size_t)((want - have) / 1.1) + text_chars(value_head) + 1, 0);
    }
    fit_columns(c, ws);
    lxw_row_t last_row = (lxw_row_t)(FIRST_DATA_ROW + g->count - 1);
    table_view(c, ws, FIRST_DATA_ROW, g->count ? last_row : FIRST_DATA_ROW, last_col);
    if (compare)
        for (size_t j = 1; j < r->config_count; j++) {
            lxw_col_t col = config_col(r, j, compare);
            colour_rule(c, ws, last_row, col + 2, col + 6, "regression", c->red);
            colour_rule(c, ws, last_row, col + 2, col + 6, "improvement", c->green);
        }
    if (charts)
        benchmark_charts(c, ws, sheet, r, g, compare, last_col + 2, value_head);
}

static void samples_sheet(ctx *c, const tally_report *r)
{
    lxw_worksheet *ws = add_sheet(c, "samples");
    if (ws == NULL)
        return;
    static const char *const head[] = { "benchmark", "case", "configuration", "run", "value",
                                        "unit", "better" };
    for (lxw_col_t k = 0; k < TALLY__COUNT(head); k++)
        put_str(c, ws, 0, k, head[k], c->bold);
    lxw_row_t xr = 1;
    size_t pos = 0;
    tally__group g = { 0, 0 };
    tally__si si = { 1.0, "" };
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        const char *better = row->direction == TALLY_HIGHER_IS_BETTER ? "higher" : "lower";
        /* In the unit of the benchmark's sheet. */
        if (i >= g.first + g.count && tally__report_next_group(&g, r, &pos))
            tally__group_si(&si, r, &g);
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *cell = &row->cells[j];
            for (size_t k = 0; cell->samples && k < cell->n && c->err == LXW_NO_ERROR;
                 k++, xr++) {
                put_str(c, ws, xr, 0, row->benchmark, NULL);
                put_case(c, ws, xr, 1, row->case_name);
                put_str(c, ws, xr, 2, r->configs[j].label, NULL);
                put_num(c, ws, xr, 3, (double)(k + 1), NULL);
                put_num(c, ws, xr, 4, cell->samples[k] / si.factor, NULL);
                put_str(c, ws, xr, 5, si.unit, NULL);
                put_str(c, ws, xr, 6, better, NULL);
            }
        }
    }
    fit_columns(c, ws);
    table_view(c, ws, 1, xr > 1 ? xr - 1 : 1, (lxw_col_t)(TALLY__COUNT(head) - 1));
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
    char alpha[32], confidence[32], margin[32], power[32], mde[32], stat[32];
    tally_statistic_label(stat, sizeof stat, r->opts.statistic, r->opts.percentile);
    tally__number_format(alpha, r->opts.alpha);
    tally__number_format(confidence, r->opts.confidence);
    tally__number_format(margin, r->opts.equivalence_pct);
    tally__number_format(power, r->opts.power);
    tally__number_format(mde, r->opts.mde_pct);
    const char *options[][2] = {
        { "statistic", stat },
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
    fit_columns(c, ws);
    table_view(c, ws, 1, xr - 1, 2);
}

/* The notes the text reports end with (pairing, partial sets, failed runs, environment differences), one
 * per row of a "notes" sheet; no sheet when there is nothing to say. */
static void notes_sheet(ctx *c, const tally_report *r)
{
    tally__buf notes = TALLY__BUF_INIT;
    tally__render_pairing_notes(&notes, r, "", 1);
    tally__render_run_notes(&notes, r, "");
    tally__render_env_notes(&notes, r, "");
    tally__render_block_notes(&notes, r, "");
    tally__render_exact_notes(&notes, r, "");
    tally__render_summary_only_notes(&notes, r, "");
    tally__render_histogram_notes(&notes, r, "");
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

/* The format `nf` shows values in: its decimals, or scientific with its digits. */
static lxw_format *numfmt_format(ctx *c, const tally__numfmt *nf)
{
    int digits = nf->sci;
    if (digits <= 0)
        return value_format(c, nf->decimals);
    if (digits >= (int)TALLY__COUNT(c->sci_fmt))
        digits = (int)TALLY__COUNT(c->sci_fmt) - 1;
    if (c->sci_fmt[digits] == NULL && (c->sci_fmt[digits] = make_format(c)) != NULL) {
        char code[32] = "0.";
        for (int k = 0; k < digits - 1; k++)
            code[2 + k] = '0';
        snprintf(code + (digits > 1 ? 1 + digits : 1), sizeof(code) - 20, "E+00");
        c->x.format_set_num_format(c->sci_fmt[digits], code);
    }
    return c->sci_fmt[digits];
}

static lxw_format *value_format(ctx *c, int decimals)
{
    if (decimals < 0)
        decimals = 0;
    if (decimals >= (int)TALLY__COUNT(c->value_fmt))
        decimals = (int)TALLY__COUNT(c->value_fmt) - 1;
    if (c->value_fmt[decimals] == NULL && (c->value_fmt[decimals] = make_format(c)) != NULL) {
        char code[24] = "0.";
        for (int k = 0; k < decimals; k++)
            code[2 + k] = '0';
        code[decimals ? 2 + decimals : 1] = '\0';
        c->x.format_set_num_format(c->value_fmt[decimals], code);
    }
    return c->value_fmt[decimals];
}

static void make_formats(ctx *c)
{
    if ((c->bold = make_format(c)) != NULL)
        c->x.format_set_bold(c->bold);
    if ((c->title = make_format(c)) != NULL)
        c->x.format_set_bold(c->title);
    if ((c->group = make_format(c)) != NULL) {
        c->x.format_set_bold(c->group);
        c->x.format_set_align(c->group, LXW_ALIGN_CENTER_ACROSS);
        c->x.format_set_bottom(c->group, LXW_BORDER_THIN);
    }
    /* Indented: a verdict does not run into the right-aligned p-value before it. */
    if ((c->verdict = make_format(c)) != NULL)
        c->x.format_set_indent(c->verdict, 1);
    /* pct imp carries its sign: +4.73% better, -4.73% worse. */
    if ((c->pct_fmt = make_format(c)) != NULL)
        c->x.format_set_num_format(c->pct_fmt, "+0.00%;-0.00%;0.00%");
    if ((c->cv_fmt = make_format(c)) != NULL)
        c->x.format_set_num_format(c->cv_fmt, "0.00%");
    /* p-values: 0.0123 down to 0.0001, then 1.23E-05: never a 0.0000 that reads as impossible;
     * one below the smallest normal double (an underflow: 0 itself) reads <1E-300. */
    if ((c->p_fmt = make_format(c)) != NULL)
        c->x.format_set_num_format(c->p_fmt, "[<0.0001]0.00E+00;0.0000");
    if ((c->p_tiny_fmt = make_format(c)) != NULL)
        c->x.format_set_num_format(c->p_tiny_fmt, "\"<1E-300\"");
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
        if (g.count + FIRST_DATA_ROW > EXCEL_ROWS)
            return tally__error_at(TALLY_ELIMIT, shown_path, 0, 0,
                                   "benchmark '%s' has %zu cases, more than the 1,048,573 rows "
                                   "an Excel sheet holds below its headers: select fewer with a "
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
    ctx c;
    memset(&c, 0, sizeof(c));
    c.o = o;
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
     * sheet is written in row order), so memory stays flat however many samples there are. The
     * temporary files go beside the output (which is itself a temporary name there), not into
     * the system's temporary directory: they need about the space of the output, and a full
     * /tmp must not decide whether a report can be written elsewhere. libxlsxwriter unlinks
     * each as soon as it is created, so a killed write leaves none behind. */
    const char *slash = strrchr(path, '/');
    char *tmpdir = slash == NULL ? tally__strdup(".")
                   : slash == path ? tally__strdup("/")
                                   : tally__strndup(path, (size_t)(slash - path));
    lxw_workbook_options wo;
    memset(&wo, 0, sizeof(wo));
    wo.constant_memory = LXW_TRUE;
    wo.use_zip64 = LXW_TRUE;
    wo.tmpdir = tmpdir;
    c.wb = tmpdir != NULL ? c.x.workbook_new_opt(path, &wo) : NULL;
    if (c.wb == NULL) {
        tally__locale_c_end(locale);
        tally__free_mem(c.names);
        tally__xlsx_close(&c.x);
        tally__free_mem(tmpdir);
        return tmpdir == NULL ? tally__oom()
                              : tally__error_at(TALLY_EXLSX, shown_path, 0, 0,
                                                "cannot create the workbook");
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
    errno = 0;
    lxw_error closed = c.x.workbook_close(c.wb);
    if (closed == LXW_ERROR_CREATING_TMPFILE || closed == LXW_ERROR_CREATING_XLSX_FILE ||
        closed == LXW_ERROR_ZIP_FILE_OPERATION || closed == LXW_ERROR_ZIP_CLOSE)
        c.sys_err = c.err == LXW_NO_ERROR ? errno : c.sys_err;
    tally__locale_c_end(locale);
    note(&c, closed, "the file");
    tally__free_mem(c.names);
    tally__free_mem(c.widths);
    /* An allocation that failed, ours or libxlsxwriter's, is out of memory like anywhere else in
     * the library (nothing is left at the path: the output commits only on success). */
    if (c.err == LXW_ERROR_MEMORY_MALLOC_FAILED)
        rc = tally__error_at(TALLY_ENOMEM, shown_path, 0, 0, "writing %s: out of memory",
                             c.what);
    else if (c.err != LXW_NO_ERROR && c.sys_err != 0)
        rc = tally__error_at(TALLY_EXLSX, shown_path, 0, 0,
                             "writing %s: cannot create or write a file in %s: %s%s", c.what,
                             tmpdir, strerror(c.sys_err),
                             c.sys_err == EMFILE || c.sys_err == ENFILE
                                 ? " (raise the limit of open files: ulimit -n)"
                             : c.sys_err == ENOSPC ? " (free some space there)"
                                                   : "");
    else if (c.err != LXW_NO_ERROR)
        rc = tally__error_at(TALLY_EXLSX, shown_path, 0, 0, "writing %s: %s", c.what,
                             c.x.lxw_strerror(c.err));
    else
        rc = tally__xlsx_verify(&c.x, path, shown_path);
    tally__free_mem(tmpdir);
    tally__xlsx_close(&c.x);
    return rc;
}
