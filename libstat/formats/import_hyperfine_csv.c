/* hyperfine --export-csv: a header "command,mean,stddev,median,user,system,min,max" (then one
 * "parameter_NAME" column per scanned parameter) and a row per command, times in seconds.
 * It holds summaries only: each row becomes a summary-only case (n, mean, SD), n being the
 * load option `runs` (hyperfine's --runs: the file does not say it). median, min, max, user and
 * system are kept as case metadata (hyperfine.median, ...). Configurations as in hyperfine's
 * JSON: several commands without parameters are one configuration each (labelled by the
 * command, case "all"); one command, a parameter scan, or --config-key none/file make the file
 * one configuration whose cases are the rows (named by their parameters, else the command). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/csv_tokenizer.h"
#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

#define HEADER "command,mean,stddev,median,user,system,min,max"

static int sniff(const char *data, size_t len)
{
    const char *p = tally__csv_after_preamble(data, &len);
    return tally__starts_with(p, len, HEADER) ? 95 : 0;
}

enum { COMMAND, MEAN, STDDEV, MEDIAN, USER, SYSTEM, MIN, MAX, FIXED };
static const char *const fixed[FIXED] = { "command", "mean", "stddev", "median",
                                          "user", "system", "min", "max" };

/* One row as read: where it goes is decided once every row is known. */
typedef struct row {
    char *command;
    char *params; /* "d=1,mode=a", or NULL without parameter columns */
    double v[FIXED];
    unsigned long line, col;
} row;

typedef struct table {
    row *rows;
    size_t count, cap;
    char **param_names;
    size_t nparams;
} table;

static void table_free(table *t)
{
    for (size_t i = 0; i < t->count; i++) {
        tally__free_mem(t->rows[i].command);
        tally__free_mem(t->rows[i].params);
    }
    tally__free_mem(t->rows);
    for (size_t i = 0; i < t->nparams; i++)
        tally__free_mem(t->param_names[i]);
    tally__free_mem(t->param_names);
}

static int read_header(table *t, const tally__csv *c, const char *name)
{
    for (size_t k = 0; k < FIXED; k++)
        if (c->count <= k || c->fields[k].len != strlen(fixed[k]) ||
            memcmp(c->fields[k].text, fixed[k], c->fields[k].len) != 0)
            return tally__error_at(TALLY_EPARSE, name, c->fields[0].line,
                                   c->count > k ? c->fields[k].col : 1,
                                   "expected the hyperfine CSV header " HEADER);
    t->nparams = c->count - FIXED;
    if (t->nparams == 0)
        return TALLY_OK;
    t->param_names = tally__calloc(t->nparams, sizeof *t->param_names);
    if (t->param_names == NULL)
        return tally__oom();
    for (size_t k = 0; k < t->nparams; k++) {
        const tally__csv_field *f = &c->fields[FIXED + k];
        if (!tally__starts_with(f->text, f->len, "parameter_") || f->len == 10)
            return tally__error_at(TALLY_EPARSE, name, f->line, f->col,
                                   "expected a column parameter_NAME after the fixed columns");
        if ((t->param_names[k] = tally__strndup(f->text + 10, f->len - 10)) == NULL)
            return tally__oom();
    }
    return TALLY_OK;
}

static int read_row(table *t, const tally__csv *c, const char *name)
{
    if (c->count != FIXED + t->nparams)
        return tally__error_at(TALLY_EPARSE, name, c->fields[0].line, c->fields[0].col,
                               "expected %zu fields as the header has, found %zu",
                               FIXED + t->nparams, c->count);
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 8;
        row *grown = tally__reallocarray(t->rows, cap, sizeof *grown);
        if (grown == NULL)
            return tally__oom();
        t->rows = grown;
        t->cap = cap;
    }
    row *r = &t->rows[t->count];
    memset(r, 0, sizeof *r);
    r->line = c->fields[0].line;
    r->col = c->fields[0].col;
    for (size_t k = MEAN; k < FIXED; k++) {
        const tally__csv_field *f = &c->fields[k];
        const char *why;
        int rc = tally__parse_double_why(&r->v[k], f->text, f->len, &why);
        if (rc != TALLY_OK)
            return tally__error_at(rc, name, f->line, f->col, "%s %s: %s, found '%.*s'",
                                   fixed[k], "(seconds)", why, (int)f->len, f->text);
    }
    if ((r->command = tally__strndup(c->fields[0].text, c->fields[0].len)) == NULL)
        return tally__oom();
    t->count++;
    if (t->nparams == 0)
        return TALLY_OK;
    tally__buf p = TALLY__BUF_INIT;
    for (size_t k = 0; k < t->nparams; k++)
        tally__buf_printf(&p, "%s%s=%.*s", k ? "," : "", t->param_names[k],
                          (int)c->fields[FIXED + k].len, c->fields[FIXED + k].text);
    r->params = p.failed ? NULL : tally__strdup(p.data);
    tally__buf_dispose(&p);
    return r->params ? TALLY_OK : tally__oom();
}

static int keep_figures(tally_case *c, const row *r)
{
    static const char *const keys[] = { "hyperfine.median", "user", "system", "hyperfine.min",
                                        "hyperfine.max" };
    static const int which[] = { MEDIAN, USER, SYSTEM, MIN, MAX };
    int rc = tally_case_meta_set(c, "command", r->command);
    for (size_t k = 0; rc == TALLY_OK && k < TALLY__COUNT(keys); k++)
        rc = tally__import_meta_number(c, keys[k], r->v[which[k]]);
    return rc;
}

static int add_row(tally_results *into, tally_resultset *rs, const row *r, const char *case_name,
                   const char *name, const tally_load_options *opts)
{
    int rc = TALLY_OK;
    if (rs == NULL)
        rc = tally__import_config(&rs, into, r->command, "hyperfine");
    tally_benchmark *b = NULL;
    if (rc == TALLY_OK)
        rc = tally__import_benchmark(&b, rs, tally__import_name(opts, "hyperfine"), "s",
                                     TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK && tally_benchmark_case_find(b, case_name) != NULL)
        return tally__error_at(TALLY_EEXISTS, name, r->line, r->col,
                               "a second row of case '%s' (command \"%s\")", case_name,
                               r->command);
    tally_case *c = NULL;
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, case_name);
    tally_case_summary s = { .size = sizeof s };
    s.n = opts->runs;
    s.mean = r->v[MEAN];
    s.sd = r->v[STDDEV];
    s.interval_low = s.interval_high = NAN;
    if (rc == TALLY_OK)
        rc = tally__import_case_summary(c, &s, name, NULL, r->line, r->col);
    if (rc == TALLY_OK)
        rc = keep_figures(c, r);
    return rc;
}

static int place_rows(tally_results *into, const table *t, const char *name,
                      const tally_load_options *opts)
{
    int one = t->count == 1 || t->nparams > 0 || tally__import_config_key_is(opts, "none") ||
              tally__import_config_key_is(opts, "file");
    tally_resultset *rs = NULL;
    int rc = one ? tally__import_begin(&rs, into, name, opts, "hyperfine") : TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < t->count; i++) {
        const row *r = &t->rows[i];
        tally__buf cn = TALLY__BUF_INIT;
        tally__buf_puts(&cn, !one ? "all" : r->params ? r->params : r->command);
        /* Several commands scanned over the same values: told apart by command. */
        for (size_t j = 0; one && r->params && j < i; j++)
            if (strcmp(t->rows[j].params, r->params) == 0) {
                tally__buf_printf(&cn, " (%s)", r->command);
                break;
            }
        rc = cn.failed ? tally__oom() : add_row(into, rs, r, cn.data, name, opts);
        tally__buf_dispose(&cn);
    }
    if (rc == TALLY_OK && !one)
        rc = tally__import_note_split(into, name, "command");
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    if (opts->runs == 0)
        return tally__error_at(TALLY_EINVAL, name, 1, 1,
                               "a hyperfine CSV export holds each command's mean and SD but not "
                               "how many runs they summarise: give them (--runs N, hyperfine's "
                               "--runs), or export the runs with --export-json");
    tally__csv c;
    tally__csv_init(&c, name, data, len, ',');
    tally__csv_skip_preamble(&c);
    table t;
    memset(&t, 0, sizeof t);
    int rc = tally__csv_next(&c);
    if (rc == 1)
        rc = read_header(&t, &c, name);
    else if (rc == 0)
        rc = tally__import_none_found(name, c.line, "hyperfine CSV header");
    while (rc == TALLY_OK && (rc = tally__csv_next(&c)) == 1) {
        if (c.count == 1 && c.fields[0].len == 0)
            continue; /* a blank line */
        rc = read_row(&t, &c, name);
    }
    if (rc == TALLY_OK && t.count == 0)
        rc = tally__import_none_found(name, c.line, "hyperfine CSV rows");
    if (rc == TALLY_OK)
        rc = place_rows(into, &t, name, opts);
    table_free(&t);
    tally__csv_dispose(&c);
    return rc;
}

const tally__importer tally__importer_hyperfine_csv = {
    .name = "hyperfine-csv", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_TAKES_RUNS | TALLY__IMPORT_TEXT_LINES,
    .configs = "its commands", .config_key = 1,
};
