/* Helpers shared by the report renderers. */
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"

int tally__report_next_group(tally__group *g, const tally_report *r, size_t *pos)
{
    if (*pos >= r->row_count)
        return 0;
    size_t first = *pos, end = first + 1;
    while (end < r->row_count && strcmp(r->rows[end].benchmark, r->rows[first].benchmark) == 0)
        end++;
    g->first = first;
    g->count = end - first;
    *pos = end;
    return 1;
}

const char *tally__report_meta(const tally_report *r, size_t config, const char *key)
{
    const tally__config *c = &r->configs[config];
    for (size_t k = 0; k < c->meta_count; k++)
        if (strcmp(c->meta[k].key, key) == 0)
            return c->meta[k].value;
    return NULL;
}

const char *tally__report_case_label(const tally_report *r, const char *benchmark)
{
    const tally__config *c = &r->configs[0];
    static const char prefix[] = "report.";
    static const char suffix[] = ".case_label";
    size_t lb = strlen(benchmark);
    for (size_t k = 0; k < c->meta_count; k++) {
        const char *key = c->meta[k].key;
        if (strlen(key) == sizeof(prefix) - 1 + lb + sizeof(suffix) - 1 &&
            strncmp(key, prefix, sizeof(prefix) - 1) == 0 &&
            strncmp(key + sizeof(prefix) - 1, benchmark, lb) == 0 &&
            strcmp(key + sizeof(prefix) - 1 + lb, suffix) == 0)
            return c->meta[k].value;
    }
    const char *all = tally__report_meta(r, 0, "report.case_label");
    return all ? all : "Case";
}

const char *tally__stat_title(tally_statistic stat)
{
    switch (stat) {
    case TALLY_STAT_AMEAN: return "AMean";
    case TALLY_STAT_HMEAN: return "HMean";
    case TALLY_STAT_GMEAN: return "GMean";
    case TALLY_STAT_MEDIAN: return "Median";
    case TALLY_STAT_MIN: return "Min";
    case TALLY_STAT_MAX: return "Max";
    case TALLY_STAT_BAMEAN: return "BAMean";
    case TALLY_STAT_DEFAULT: break;
    }
    return "Default";
}

int tally__default_precision(const tally_report *r, const tally_render_options *o,
                             const tally__row *row)
{
    (void)r;
    if (o->precision >= 0)
        return o->precision > 17 ? 17 : o->precision;
    return row->direction == TALLY_HIGHER_IS_BETTER ? 2 : 4;
}

size_t tally__group_case_width(const tally_report *r, const tally__group *g)
{
    size_t w = 0;
    for (size_t i = g->first; i < g->first + g->count; i++) {
        size_t len = strlen(r->rows[i].case_name);
        if (len > w)
            w = len;
    }
    return w;
}

void tally__render_missing_notes(tally__buf *b, const tally_report *r, const tally__group *g,
                                 const char *prefix)
{
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const tally__row *row = &r->rows[i];
        for (size_t j = 0; j < r->config_count; j++)
            if (!row->cells[j].pub.present)
                tally__buf_printf(b, "%s%s has no %s/%s\n", prefix, r->configs[j].label,
                                  row->benchmark, row->case_name);
    }
}

void tally__buf_json_string(tally__buf *b, const char *s)
{
    tally__buf_puts(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': tally__buf_puts(b, "\\\""); break;
        case '\\': tally__buf_puts(b, "\\\\"); break;
        case '\n': tally__buf_puts(b, "\\n"); break;
        case '\r': tally__buf_puts(b, "\\r"); break;
        case '\t': tally__buf_puts(b, "\\t"); break;
        default:
            if (*p < 0x20)
                tally__buf_printf(b, "\\u%04x", *p);
            else
                tally__buf_append(b, (const char *)p, 1);
        }
    }
    tally__buf_puts(b, "\"");
}

void tally__buf_double(tally__buf *b, double x)
{
    char text[32];
    tally__format_double(text, x);
    tally__buf_puts(b, text);
}

int tally__render_geomean(double *out, tally__buf *b, const tally_report *r, size_t j)
{
    int rc = tally_report_geomean(out, r, j);
    if (rc == TALLY_OK)
        return 1;
    if (rc == TALLY_ENOMEM)
        b->failed = 1;
    else
        tally_error_clear();
    return 0;
}

void tally__buf_end_line(tally__buf *b)
{
    while (b->len > 0 && !b->failed && b->data[b->len - 1] == ' ')
        b->data[--b->len] = '\0';
    tally__buf_puts(b, "\n");
}

void tally__buf_pad(tally__buf *b, size_t count)
{
    for (size_t i = 0; i < count; i++)
        tally__buf_puts(b, " ");
}

int tally__cell_interval(double *lo, double *hi, const tally__row *row, const tally__cell *c)
{
    const tally_summary *s = &c->pub.summary;
    if (!c->pub.present)
        return 0;
    if (row->statistic == TALLY_STAT_AMEAN && (s->defined & TALLY_SUMMARY_MEAN_CI)) {
        *lo = s->mean_ci_low;
        *hi = s->mean_ci_high;
        return 1;
    }
    if (row->statistic == TALLY_STAT_MEDIAN && (s->defined & TALLY_SUMMARY_MEDIAN_CI)) {
        *lo = s->median_ci_low;
        *hi = s->median_ci_high;
        return 1;
    }
    return 0;
}

const char *tally__verdict_word(tally_verdict v)
{
    switch (v) {
    case TALLY_VERDICT_IMPROVEMENT: return "improvement";
    case TALLY_VERDICT_REGRESSION: return "regression";
    case TALLY_VERDICT_INSUFFICIENT: return "insufficient";
    case TALLY_VERDICT_NO_CHANGE: break;
    }
    return "no change";
}
