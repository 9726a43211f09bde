/* The outputs of a history (docs/history.md): text (one line per change point, newest first,
 * then the series that changed), JSON, CSV and Markdown for a CI comment; the entry points
 * tally_history_render and tally_history_write. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/history_internal.h"
#include "report/report_internal.h"
#include "util/number.h"
#include "util/si.h"
#include "util/utf8.h"

#define SHORT_COMMIT 12 /* a full hash is shown by its first 12 digits in the human formats */

static const tally_changepoint *change_of(const tally_history *h, size_t i,
                                          const tally__hseries **s)
{
    *s = &h->series[h->changes[i].series];
    return &(*s)->cps[h->changes[i].k];
}

/* A commit as the human formats show it: a long hexadecimal hash abbreviated. */
static void short_commit(char *out, size_t size, const char *commit)
{
    size_t n = strlen(commit);
    int hex = n > SHORT_COMMIT;
    for (size_t i = 0; hex && i < n; i++)
        hex = strchr("0123456789abcdefABCDEF", commit[i]) != NULL;
    snprintf(out, size, "%.*s", hex ? SHORT_COMMIT : (int)(size - 1), commit);
}

/* "1.0302 ± 0.0004 s": the level with its interval's half-width, in decimals the half-width
 * justifies and the unit's SI prefix shared by both levels of a change. */
static void level_text(tally__buf *b, const tally__numfmt *f, double v, double lo, double hi)
{
    char num[64], half[64];
    tally__numfmt_number(num, sizeof num, f, v);
    tally__numfmt_number(half, sizeof half, f, (hi - lo) / 2);
    tally__buf_printf(b, "%s ± %s%s%s", num, half, f->si.unit[0] ? " " : "", f->si.unit);
}

static void change_numfmt(tally__numfmt *f, const tally_changepoint *c, const char *unit)
{
    double mag = fmax(fabs(c->before), fabs(c->after));
    double spread = fmin(c->before_high - c->before, c->after_high - c->after);
    tally__numfmt_choose(f, mag, spread, unit, 1, -1);
}

static void pct_text(tally__buf *b, const tally_changepoint *c)
{
    tally__buf_printf(b, "%+.2f%%", c->pct_imp);
    if (isfinite(c->pct_imp_low))
        tally__buf_printf(b, " [%+.2f, %+.2f]", c->pct_imp_low, c->pct_imp_high);
    else
        tally__buf_puts(b, " [unbounded]");
}

static void p_text(tally__buf *b, double p)
{
    if (p >= 0.001 || p == 0)
        tally__buf_printf(b, "%.3g", p);
    else
        tally__buf_printf(b, "%.1e", p);
}

/* ---- text ---- */

/* Display columns of UTF-8 text (every character one column). */
static size_t columns(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

#define TEXT_COLUMNS 8

static void text_row(tally__buf *b, char *const cells[TEXT_COLUMNS],
                     const size_t width[TEXT_COLUMNS])
{
    /* The series name left-aligned, the rest right-aligned but the verdict. */
    for (int k = 0; k < TEXT_COLUMNS; k++) {
        size_t pad = width[k] - columns(cells[k]);
        int left = k == 1 || k == 2 || k == TEXT_COLUMNS - 1;
        if (k)
            tally__buf_puts(b, "  ");
        if (!left)
            tally__buf_pad(b, pad);
        tally__buf_puts(b, cells[k]);
        if (left && k != TEXT_COLUMNS - 1)
            tally__buf_pad(b, pad);
    }
    tally__buf_end_line(b);
}

static int text_changes(tally__buf *b, const tally_history *h)
{
    char change_head[48];
    snprintf(change_head, sizeof change_head, "change [%g%% CI]", 100 * h->opts.confidence);
    const char *const head[TEXT_COLUMNS] = { "point", "commit", "series", "before",
                                             "after", change_head, "p", "verdict" };
    size_t rows = h->change_count + 1;
    char **cells = tally__calloc(rows * TEXT_COLUMNS, sizeof *cells);
    if (cells == NULL)
        return tally__oom();
    size_t width[TEXT_COLUMNS] = { 0 };
    int rc = TALLY_OK;
    for (size_t r = 0; rc == TALLY_OK && r < rows; r++) {
        for (int k = 0; rc == TALLY_OK && k < TEXT_COLUMNS; k++) {
            tally__buf cell = TALLY__BUF_INIT;
            if (r == 0) {
                tally__buf_puts(&cell, head[k]);
            } else {
                const tally__hseries *s;
                const tally_changepoint *c = change_of(h, r - 1, &s);
                tally__numfmt f;
                char commit[64];
                change_numfmt(&f, c, s->unit);
                switch (k) {
                case 0: tally__buf_printf(&cell, "%zu", c->index + 1); break;
                case 1:
                    short_commit(commit, sizeof commit, h->commits[c->index]);
                    tally__buf_put_terminal(&cell, commit);
                    break;
                case 2:
                    tally__buf_put_terminal(&cell, s->benchmark);
                    tally__buf_puts(&cell, "/");
                    tally__buf_put_terminal(&cell, s->case_name);
                    break;
                case 3: level_text(&cell, &f, c->before, c->before_low, c->before_high); break;
                case 4: level_text(&cell, &f, c->after, c->after_low, c->after_high); break;
                case 5: pct_text(&cell, c); break;
                case 6: p_text(&cell, c->p_value); break;
                default: tally__buf_puts(&cell, tally__verdict_word(c->verdict)); break;
                }
            }
            if (cell.failed || tally__buf_puts(&cell, "") != TALLY_OK) {
                tally__buf_dispose(&cell);
                rc = tally__oom();
                break;
            }
            cells[r * TEXT_COLUMNS + k] = cell.data;
            size_t w = columns(cell.data);
            if (w > width[k])
                width[k] = w;
        }
    }
    for (size_t r = 0; rc == TALLY_OK && r < rows; r++)
        text_row(b, cells + r * TEXT_COLUMNS, width);
    for (size_t i = 0; i < rows * TEXT_COLUMNS; i++)
        tally__free_mem(cells[i]);
    tally__free_mem(cells);
    return rc;
}

static void point_range(tally__buf *b, const tally_history *h, size_t first, size_t end)
{
    char c0[64], c1[64];
    short_commit(c0, sizeof c0, h->commits[first]);
    short_commit(c1, sizeof c1, h->commits[end - 1]);
    if (end - first == 1) {
        tally__buf_printf(b, "point %zu (", first + 1);
        tally__buf_put_terminal(b, c0);
    } else {
        tally__buf_printf(b, "points %zu-%zu (", first + 1, end);
        tally__buf_put_terminal(b, c0);
        tally__buf_puts(b, "..");
        tally__buf_put_terminal(b, c1);
    }
    tally__buf_puts(b, ")");
}

static void trend_text(tally__buf *b, const tally_trend *t)
{
    tally__buf_printf(b, "%+.3f%% per point [%+.3f, %+.3f], %+.2f%% over %zu points, "
                         "Mann-Kendall p ", t->slope_pct, t->slope_pct_low, t->slope_pct_high,
                      t->total_pct, t->count);
    p_text(b, t->p_value);
}

static void text_series(tally__buf *b, const tally_history *h, const tally__hseries *s)
{
    tally__buf_put_terminal(b, s->benchmark);
    tally__buf_puts(b, "/");
    tally__buf_put_terminal(b, s->case_name);
    tally__buf_printf(b, " (%s%s%s is better): ", s->unit, s->unit[0] ? ", " : "",
                      s->direction == TALLY_LOWER_IS_BETTER ? "lower" : "higher");
    if (s->n < h->point_count)
        tally__buf_printf(b, "in %zu of the %zu points, ", s->n, h->point_count);
    if (s->cp_count)
        tally__buf_printf(b, "%zu change point%s", s->cp_count, s->cp_count == 1 ? "" : "s");
    if (s->trend.drifting)
        tally__buf_printf(b, "%sdrifting", s->cp_count ? ", " : "");
    tally__buf_end_line(b);
    for (size_t k = 0; k < s->cp_count; k++) {
        const tally_changepoint *c = &s->cps[k];
        tally__numfmt f;
        change_numfmt(&f, c, s->unit);
        if (k == 0) {
            tally__buf_puts(b, "  ");
            level_text(b, &f, c->before, c->before_low, c->before_high);
            tally__buf_puts(b, "  ");
            point_range(b, h, c->before_first, c->index);
            tally__buf_end_line(b);
        }
        tally__buf_puts(b, "  ");
        level_text(b, &f, c->after, c->after_low, c->after_high);
        tally__buf_puts(b, "  ");
        point_range(b, h, c->index, c->after_end);
        tally__buf_printf(b, "  %+.2f%% %s", c->pct_imp, tally__verdict_word(c->verdict));
        tally__buf_end_line(b);
    }
    if (s->trend.drifting) {
        tally__buf_puts(b, "  drift of the newest level: ");
        trend_text(b, &s->trend);
        tally__buf_printf(b, " (%s)", tally__verdict_word(s->trend.verdict));
        tally__buf_end_line(b);
    }
    if (s->outlier_count) {
        tally__buf_printf(b, "  outlier%s (spikes, left out):", s->outlier_count == 1 ? "" : "s");
        for (size_t i = 0, shown = 0; i < s->n && shown < 10; i++)
            if (s->outlier[i]) {
                tally__buf_printf(b, " %zu", s->point[i] + 1);
                shown++;
            }
        if (s->outlier_count > 10)
            tally__buf_printf(b, " and %zu more", s->outlier_count - 10);
        tally__buf_end_line(b);
    }
}

static void count_verdicts(const tally_history *h, size_t *reg, size_t *imp, size_t *series,
                           size_t *drifting)
{
    *reg = *imp = *series = *drifting = 0;
    for (size_t i = 0; i < h->change_count; i++) {
        const tally__hseries *s;
        const tally_changepoint *c = change_of(h, i, &s);
        if (c->verdict == TALLY_VERDICT_REGRESSION)
            (*reg)++;
        else
            (*imp)++;
    }
    for (size_t i = 0; i < h->series_count; i++) {
        *series += h->series[i].cp_count > 0;
        *drifting += h->series[i].trend.drifting;
    }
}

static void order_text(tally__buf *b, const tally_history *h)
{
    if (h->git_order)
        tally__buf_puts(b, "in commit order");
    else if (h->order_by) {
        tally__buf_puts(b, "ordered by ");
        tally__buf_put_terminal(b, h->order_by);
    } else {
        tally__buf_puts(b, "in the order given");
    }
}

int tally__history_text(tally__buf *b, const tally_history *h)
{
    size_t reg, imp, changed, drifting;
    count_verdicts(h, &reg, &imp, &changed, &drifting);
    tally__buf_printf(b, "%zu point%s (", h->point_count, h->point_count == 1 ? "" : "s");
    order_text(b, h);
    tally__buf_printf(b, "), %zu series: %zu change point%s in %zu series (%zu regression%s, %zu "
                         "improvement%s)", h->series_count, h->change_count,
                      h->change_count == 1 ? "" : "s", changed, reg, reg == 1 ? "" : "s", imp,
                      imp == 1 ? "" : "s");
    if (drifting)
        tally__buf_printf(b, ", %zu drifting", drifting);
    tally__buf_end_line(b);
    if (h->change_count) {
        tally__buf_puts(b, "\n");
        int rc = text_changes(b, h);
        if (rc)
            return rc;
    }
    int heading = 0;
    for (size_t i = 0; i < h->series_count; i++) {
        const tally__hseries *s = &h->series[i];
        if (!s->cp_count && !s->trend.drifting)
            continue;
        if (!heading++)
            tally__buf_printf(b, "\nSeries that changed (levels with their %g%% intervals):\n",
                              100 * h->opts.confidence);
        text_series(b, h, s);
    }
    size_t outliers = 0;
    for (size_t i = 0; i < h->series_count; i++)
        outliers += h->series[i].cp_count || h->series[i].trend.drifting
                        ? 0 : h->series[i].outlier_count;
    if (outliers)
        tally__buf_printf(b, "\n%zu outlier point%s (spikes) in series without a change, left "
                             "out of the levels and tests.\n", outliers, outliers == 1 ? "" : "s");
    size_t partial = 0;
    for (size_t i = 0; i < h->series_count; i++)
        partial += h->series[i].n < h->point_count;
    if (partial)
        tally__buf_printf(b, "\n%zu series %s missing from some points (the JSON output lists "
                             "the points of each).\n", partial, partial == 1 ? "is" : "are");
    tally__buf_printf(b, "\nMethod: E-divisive candidates, Welch's t between neighbouring levels "
                         "x the splits tried <= alpha %g, at least %zu points and %g%% per level "
                         "(docs/history.md).\n", h->opts.alpha, h->opts.min_segment,
                      h->opts.min_change_pct);
    return b->failed ? tally__oom() : TALLY_OK;
}

/* ---- JSON ---- */

static void json_num(tally__buf *b, const char *key, double x)
{
    tally__buf_printf(b, "\"%s\": ", key);
    if (isfinite(x))
        tally__buf_double(b, x);
    else
        tally__buf_puts(b, "null");
}

static void json_change(tally__buf *b, const tally_history *h, const tally__hseries *s,
                        size_t series, const tally_changepoint *c)
{
    tally__buf_printf(b, "{\"series\": %zu, \"benchmark\": ", series);
    tally__buf_json_string(b, s->benchmark);
    tally__buf_puts(b, ", \"case\": ");
    tally__buf_json_string(b, s->case_name);
    tally__buf_printf(b, ", \"point\": %zu, \"label\": ", c->index);
    tally__buf_json_string(b, h->labels[c->index]);
    tally__buf_puts(b, ", \"commit\": ");
    tally__buf_json_string(b, h->commits[c->index]);
    tally__buf_printf(b, ", \"before_first\": %zu, \"after_end\": %zu, ", c->before_first,
                      c->after_end);
    const struct { const char *k; double v; } nums[] = {
        { "before", c->before }, { "before_low", c->before_low },
        { "before_high", c->before_high }, { "after", c->after }, { "after_low", c->after_low },
        { "after_high", c->after_high }, { "pct_imp", c->pct_imp },
        { "pct_imp_low", c->pct_imp_low }, { "pct_imp_high", c->pct_imp_high }, { "t", c->t },
        { "df", c->df }, { "p_raw", c->p_raw }, { "p_value", c->p_value } };
    for (size_t i = 0; i < TALLY__COUNT(nums); i++) {
        json_num(b, nums[i].k, nums[i].v);
        tally__buf_puts(b, ", ");
    }
    tally__buf_printf(b, "\"before_runs\": %zu, \"after_runs\": %zu, \"verdict\": \"%s\"}",
                      c->before_runs, c->after_runs, tally_verdict_name(c->verdict));
}

static void json_trend(tally__buf *b, const tally_trend *t)
{
    if (!t->tested) {
        tally__buf_puts(b, "null");
        return;
    }
    tally__buf_printf(b, "{\"first\": %zu, \"count\": %zu, ", t->first, t->count);
    json_num(b, "slope_pct", t->slope_pct);
    tally__buf_puts(b, ", ");
    json_num(b, "slope_pct_low", t->slope_pct_low);
    tally__buf_puts(b, ", ");
    json_num(b, "slope_pct_high", t->slope_pct_high);
    tally__buf_puts(b, ", ");
    json_num(b, "total_pct", t->total_pct);
    tally__buf_puts(b, ", ");
    json_num(b, "p_value", t->p_value);
    tally__buf_printf(b, ", \"drifting\": %s, \"verdict\": \"%s\"}", t->drifting ? "true" : "false",
                      tally_verdict_name(t->verdict));
}

int tally__history_json(tally__buf *b, const tally_history *h)
{
    tally__buf_puts(b, "{\n\"tally_history\": 1,\n\"order\": ");
    if (h->git_order)
        tally__buf_puts(b, "\"commits\"");
    else if (h->order_by)
        tally__buf_json_string(b, h->order_by);
    else
        tally__buf_puts(b, "\"given\"");
    tally__buf_printf(b, ",\n\"options\": {\"min_segment\": %zu, \"window\": %zu, \"recent\": %zu, ",
                      h->opts.min_segment, h->opts.window, h->opts.recent);
    json_num(b, "alpha", h->opts.alpha);
    tally__buf_puts(b, ", ");
    json_num(b, "min_change_pct", h->opts.min_change_pct);
    tally__buf_puts(b, ", ");
    json_num(b, "confidence", h->opts.confidence);
    tally__buf_puts(b, "},\n\"points\": [");
    for (size_t i = 0; i < h->point_count; i++) {
        tally__buf_puts(b, i ? ",\n  {\"label\": " : "\n  {\"label\": ");
        tally__buf_json_string(b, h->labels[i]);
        tally__buf_puts(b, ", \"commit\": ");
        tally__buf_json_string(b, h->commits[i]);
        tally__buf_puts(b, "}");
    }
    tally__buf_puts(b, "],\n\"change_points\": [");
    for (size_t i = 0; i < h->change_count; i++) {
        const tally__hseries *s;
        const tally_changepoint *c = change_of(h, i, &s);
        tally__buf_puts(b, i ? ",\n  " : "\n  ");
        json_change(b, h, s, h->changes[i].series, c);
    }
    tally__buf_puts(b, "],\n\"series\": [");
    for (size_t i = 0; i < h->series_count; i++) {
        const tally__hseries *s = &h->series[i];
        tally__buf_puts(b, i ? ",\n  {\"benchmark\": " : "\n  {\"benchmark\": ");
        tally__buf_json_string(b, s->benchmark);
        tally__buf_puts(b, ", \"case\": ");
        tally__buf_json_string(b, s->case_name);
        tally__buf_puts(b, ", \"unit\": ");
        tally__buf_json_string(b, s->unit);
        tally__buf_printf(b, ", \"direction\": \"%s\", \"points\": [",
                          tally_direction_name(s->direction));
        for (size_t k = 0; k < s->n; k++)
            tally__buf_printf(b, k ? ", %zu" : "%zu", s->point[k]);
        tally__buf_puts(b, "], \"means\": [");
        for (size_t k = 0; k < s->n; k++) {
            tally__buf_puts(b, k ? ", " : "");
            tally__buf_double(b, s->mean[k]);
        }
        tally__buf_puts(b, "], \"runs\": [");
        for (size_t k = 0; k < s->n; k++)
            tally__buf_printf(b, k ? ", %zu" : "%zu", s->offsets[k + 1] - s->offsets[k]);
        tally__buf_puts(b, "], \"outliers\": [");
        for (size_t k = 0, first = 1; k < s->n; k++)
            if (s->outlier[k]) {
                tally__buf_printf(b, first ? "%zu" : ", %zu", s->point[k]);
                first = 0;
            }
        tally__buf_puts(b, "],\n   \"change_points\": [");
        for (size_t k = 0; k < s->cp_count; k++) {
            tally__buf_puts(b, k ? ",\n     " : "\n     ");
            json_change(b, h, s, i, &s->cps[k]);
        }
        tally__buf_puts(b, "],\n   \"trend\": ");
        json_trend(b, &s->trend);
        tally__buf_puts(b, "}");
    }
    tally__buf_puts(b, "]\n}\n");
    return b->failed ? tally__oom() : TALLY_OK;
}

/* ---- CSV ---- */

int tally__history_csv(tally__buf *b, const tally_history *h)
{
    tally__buf_puts(b, "benchmark,case,unit,direction,point,label,commit,before,before_low,"
                       "before_high,after,after_low,after_high,pct_imp,pct_imp_low,pct_imp_high,"
                       "p_value,p_raw,verdict\r\n");
    for (size_t i = 0; i < h->change_count; i++) {
        const tally__hseries *s;
        const tally_changepoint *c = change_of(h, i, &s);
        int first = 1;
        tally__csv_text(b, &first, s->benchmark);
        tally__csv_text(b, &first, s->case_name);
        tally__csv_text(b, &first, s->unit);
        tally__csv_text(b, &first, tally_direction_name(s->direction));
        tally__csv_sep(b, &first);
        tally__buf_printf(b, "%zu", c->index + 1);
        tally__csv_text(b, &first, h->labels[c->index]);
        tally__csv_text(b, &first, h->commits[c->index]);
        const double nums[] = { c->before, c->before_low, c->before_high, c->after,
                                c->after_low, c->after_high, c->pct_imp, c->pct_imp_low,
                                c->pct_imp_high, c->p_value, c->p_raw };
        for (size_t k = 0; k < TALLY__COUNT(nums); k++) {
            tally__csv_sep(b, &first);
            if (isfinite(nums[k]))
                tally__buf_double(b, nums[k]);
        }
        tally__csv_text(b, &first, tally_verdict_name(c->verdict));
        tally__buf_puts(b, "\r\n");
    }
    return b->failed ? tally__oom() : TALLY_OK;
}

/* ---- Markdown ---- */

static void md_commit(tally__buf *b, const char *commit)
{
    char s[64];
    short_commit(s, sizeof s, commit);
    tally__buf_puts(b, "`");
    for (const char *p = s; *p; p++)
        if (*p != '`' && (unsigned char)*p >= 0x20)
            tally__buf_append(b, p, 1);
    tally__buf_puts(b, "`");
}

static void md_table(tally__buf *b, const tally_history *h, size_t start, tally_verdict which)
{
    tally__buf_printf(b, "| commit | series | before | after | change [%g%% CI] | p |\n"
                         "|:--|:--|--:|--:|--:|--:|\n", 100 * h->opts.confidence);
    for (size_t i = 0; i < h->change_count; i++) {
        const tally__hseries *s;
        const tally_changepoint *c = change_of(h, i, &s);
        if (c->index < start || c->verdict != which)
            continue;
        tally__numfmt f;
        change_numfmt(&f, c, s->unit);
        tally__buf_puts(b, "| ");
        md_commit(b, h->commits[c->index]);
        tally__buf_printf(b, " (%zu) | ", c->index + 1);
        tally__md_text(b, s->benchmark);
        tally__buf_puts(b, "/");
        tally__md_text(b, s->case_name);
        tally__buf_puts(b, " | ");
        level_text(b, &f, c->before, c->before_low, c->before_high);
        tally__buf_puts(b, " | ");
        level_text(b, &f, c->after, c->after_low, c->after_high);
        tally__buf_puts(b, " | ");
        if (which == TALLY_VERDICT_REGRESSION)
            tally__buf_puts(b, "🔴 ");
        else
            tally__buf_puts(b, "🟢 ");
        pct_text(b, c);
        tally__buf_puts(b, " | ");
        p_text(b, c->p_value);
        tally__buf_puts(b, " |\n");
    }
}

int tally__history_markdown(tally__buf *b, const tally_history *h)
{
    size_t start = tally__history_recent_start(h, 0), reg = 0, imp = 0, earlier = 0;
    for (size_t i = 0; i < h->change_count; i++) {
        const tally__hseries *s;
        const tally_changepoint *c = change_of(h, i, &s);
        if (c->index < start)
            earlier++;
        else if (c->verdict == TALLY_VERDICT_REGRESSION)
            reg++;
        else
            imp++;
    }
    tally__buf_puts(b, "### Regressions since ");
    md_commit(b, h->commits[start]);
    tally__buf_printf(b, "\n\n%zu point%s from ", h->point_count - start,
                      h->point_count - start == 1 ? "" : "s");
    md_commit(b, h->commits[start]);
    tally__buf_puts(b, " to ");
    md_commit(b, h->commits[h->point_count - 1]);
    tally__buf_printf(b, ", %zu series: **%zu regression%s**, %zu improvement%s", h->series_count,
                      reg, reg == 1 ? "" : "s", imp, imp == 1 ? "" : "s");
    if (earlier)
        tally__buf_printf(b, " (%zu earlier change point%s not shown)", earlier,
                          earlier == 1 ? "" : "s");
    tally__buf_puts(b, ".\n\n");
    if (reg) {
        md_table(b, h, start, TALLY_VERDICT_REGRESSION);
        tally__buf_puts(b, "\n");
    }
    if (imp) {
        tally__buf_printf(b, "<details><summary>%zu improvement%s</summary>\n\n", imp,
                          imp == 1 ? "" : "s");
        md_table(b, h, start, TALLY_VERDICT_IMPROVEMENT);
        tally__buf_puts(b, "\n</details>\n\n");
    }
    int drift_heading = 0;
    for (size_t i = 0; i < h->series_count; i++) {
        const tally__hseries *s = &h->series[i];
        if (!s->trend.drifting)
            continue;
        if (!drift_heading++)
            tally__buf_puts(b, "Slow drifts of the newest level:\n\n");
        tally__buf_puts(b, "- ");
        tally__md_text(b, s->benchmark);
        tally__buf_puts(b, "/");
        tally__md_text(b, s->case_name);
        tally__buf_printf(b, ": %s, ", tally__verdict_word(s->trend.verdict));
        trend_text(b, &s->trend);
        tally__buf_puts(b, "\n");
    }
    if (drift_heading)
        tally__buf_puts(b, "\n");
    tally__buf_printf(b, "<sub>A change is a level that holds for at least %zu points and moves "
                         "by %g%% or more, Welch's p corrected for the splits tried <= %g. "
                         "Positive change = better.</sub>\n", h->opts.min_segment,
                      h->opts.min_change_pct, h->opts.alpha);
    return b->failed ? tally__oom() : TALLY_OK;
}

/* ---- entry points ---- */

int tally_history_render(char **out, size_t *len, const tally_history *h,
                         const tally_render_options *opts)
{
    if (out == NULL || h == NULL)
        return tally__error(TALLY_EINVAL, "tally_history_render: NULL argument");
    *out = NULL;
    if (len)
        *len = 0;
    tally_render_options o;
    int read = tally__render_options_read(&o, opts);
    if (read != TALLY_OK)
        return read;
    tally__buf b = TALLY__BUF_INIT;
    void *locale = tally__locale_c_begin();
    int rc;
    switch (o.format) {
    case TALLY_FORMAT_TEXT: rc = tally__history_text(&b, h); break;
    case TALLY_FORMAT_JSON: rc = tally__history_json(&b, h); break;
    case TALLY_FORMAT_CSV: rc = tally__history_csv(&b, h); break;
    case TALLY_FORMAT_MARKDOWN: rc = tally__history_markdown(&b, h); break;
    case TALLY_FORMAT_HTML: rc = tally__history_html(&b, h, o.fragment); break;
    default:
        rc = tally__error(TALLY_EINVAL, "history: no %s output (text, json, csv, md or html)",
                          o.format == TALLY_FORMAT_XLSX ? "xlsx" : "such");
        break;
    }
    tally__locale_c_end(locale);
    if (rc) {
        tally__buf_dispose(&b);
        return rc;
    }
    return tally__buf_detach(out, len, &b);
}

int tally_history_write(const tally_history *h, const char *path,
                        const tally_render_options *opts)
{
    if (h == NULL || path == NULL || path[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_history_write: NULL argument or empty path");
    char *text;
    size_t len;
    int rc = tally_history_render(&text, &len, h, opts);
    if (rc)
        return rc;
    rc = tally__write_file_atomic(path, text, len);
    tally_free(text);
    return rc;
}
