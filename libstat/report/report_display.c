/* Text reports show names from input files (labels, benchmarks, cases, units, metadata) on a
 * terminal: a copy of the report in which those that hold control characters or bidirectional
 * overrides are escaped (util/utf8.h), so that an input cannot move the cursor, change colours,
 * ring the bell or reorder what the reader sees. The copy shares the cells (read-only while
 * rendering) and owns only the strings and arrays it replaces. */
#include <string.h>

#include "report/report_internal.h"
#include "report/report_display.h"
#include "util/utf8.h"

static int report_needs_escape(const tally_report *r)
{
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__config *c = &r->configs[j];
        if (tally__needs_terminal_escape(c->label))
            return 1;
        for (size_t k = 0; k < c->meta_count; k++)
            if (tally__needs_terminal_escape(c->meta[k].key) ||
                tally__needs_terminal_escape(c->meta[k].value))
                return 1;
    }
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        if (tally__needs_terminal_escape(row->benchmark) ||
            tally__needs_terminal_escape(row->case_name) ||
            tally__needs_terminal_escape(row->unit))
            return 1;
    }
    return r->opts.filter != NULL && tally__needs_terminal_escape(r->opts.filter);
}

static char *escaped(const char *s, int *failed)
{
    if (s == NULL)
        return NULL;
    tally__buf b = TALLY__BUF_INIT;
    char *out = NULL;
    size_t len;
    if (tally__buf_put_terminal(&b, s) != TALLY_OK || tally__buf_detach(&out, &len, &b) != TALLY_OK) {
        tally__buf_dispose(&b);
        *failed = 1;
        return NULL;
    }
    return out;
}

int tally__report_for_terminal(tally_report **out, const tally_report *r)
{
    *out = NULL;
    if (!report_needs_escape(r))
        return TALLY_OK;
    tally_report *d = tally__calloc(1, sizeof(*d));
    if (d == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    *d = *r;
    d->configs = tally__calloc(r->config_count ? r->config_count : 1, sizeof(*d->configs));
    d->rows = tally__calloc(r->row_count ? r->row_count : 1, sizeof(*d->rows));
    d->row_cap = r->row_count;
    d->filter_copy = NULL;
    int failed = d->configs == NULL || d->rows == NULL;
    for (size_t j = 0; !failed && j < r->config_count; j++) {
        const tally__config *c = &r->configs[j];
        d->configs[j].label = escaped(c->label, &failed);
        d->configs[j].meta = tally__calloc(c->meta_count ? c->meta_count : 1, sizeof(tally__meta));
        failed |= d->configs[j].meta == NULL;
        d->configs[j].meta_count = d->configs[j].meta ? c->meta_count : 0;
        for (size_t k = 0; !failed && k < c->meta_count; k++) {
            d->configs[j].meta[k].key = escaped(c->meta[k].key, &failed);
            d->configs[j].meta[k].value = escaped(c->meta[k].value, &failed);
        }
    }
    for (size_t i = 0; !failed && i < r->row_count; i++) {
        d->rows[i] = r->rows[i]; /* numbers and the shared cells */
        d->rows[i].benchmark = escaped(r->rows[i].benchmark, &failed);
        d->rows[i].case_name = escaped(r->rows[i].case_name, &failed);
        d->rows[i].unit = escaped(r->rows[i].unit, &failed);
    }
    if (!failed && r->opts.filter != NULL)
        d->opts.filter = d->filter_copy = escaped(r->opts.filter, &failed);
    if (failed) {
        tally__report_for_terminal_free(d);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    *out = d;
    return TALLY_OK;
}

void tally__report_for_terminal_free(tally_report *d)
{
    if (d == NULL)
        return;
    for (size_t j = 0; d->configs && j < d->config_count; j++) {
        tally__free_mem(d->configs[j].label);
        for (size_t k = 0; k < d->configs[j].meta_count; k++) {
            tally__free_mem(d->configs[j].meta[k].key);
            tally__free_mem(d->configs[j].meta[k].value);
        }
        tally__free_mem(d->configs[j].meta);
    }
    for (size_t i = 0; d->rows && i < d->row_count; i++) {
        tally__free_mem(d->rows[i].benchmark);
        tally__free_mem(d->rows[i].case_name);
        tally__free_mem(d->rows[i].unit);
    }
    tally__free_mem(d->configs);
    tally__free_mem(d->rows);
    tally__free_mem(d->filter_copy);
    tally__free_mem(d);
}
