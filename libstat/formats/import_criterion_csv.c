/* criterion.rs raw.csv (its csv_output feature, the format criterion keeps stable for other
 * tools): the header group,function,value,throughput_num,throughput_type,
 * sample_measured_value,unit,iteration_count, then one row per sample: sample_measured_value
 * (in `unit`, "ns" for wall time) measured over iteration_count iterations. Each row's
 * sample_measured_value / iteration_count, the time of one iteration, is a sample. The group is
 * the benchmark, the function and value ("recursive/20") the case ("all" when both are empty). */
#include <string.h>

#include "formats/csv_tokenizer.h"
#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static const char header[] = "group,function,value,throughput_num,throughput_type,"
                             "sample_measured_value,unit,iteration_count";

enum { GROUP, FUNCTION, VALUE, THROUGHPUT_NUM, THROUGHPUT_TYPE, MEASURED, UNIT, ITERATIONS,
       COLUMNS };

static int sniff(const char *data, size_t len)
{
    size_t n = strlen(header);
    return len >= n && memcmp(data, header, n) == 0 ? 95 : 0;
}

static int number_at(double *v, const tally__csv_field *f, const char *name, const char *what)
{
    size_t n = f->len;
    const char *s = f->quoted ? f->text : tally__trim(f->text, &n);
    int rc = tally__parse_double(v, s, n);
    if (rc == TALLY_ENONFINITE)
        return tally__error_at(rc, name, f->line, f->col, "%s '%.*s' is not finite", what,
                               (int)n, s);
    if (rc != TALLY_OK)
        return tally__error_at(rc, name, f->line, f->col, "expected %s, found '%.*s'", what,
                               (int)(n > 40 ? 40 : n), s);
    return TALLY_OK;
}

/* One data row into the result set. */
static int one_row(tally_resultset *rs, const tally__csv *t, tally__buf *scratch,
                   const char *name)
{
    const tally__csv_field *f = t->fields;
    if (t->count != COLUMNS)
        return tally__error_at(TALLY_EPARSE, name, f[0].line, f[0].col,
                               "expected %d fields as in the header, found %zu", COLUMNS,
                               t->count);
    double measured, iterations;
    int rc = number_at(&measured, &f[MEASURED], name, "a measured value");
    if (rc == TALLY_OK)
        rc = number_at(&iterations, &f[ITERATIONS], name, "an iteration count");
    if (rc == TALLY_OK && !(iterations > 0))
        rc = tally__error_at(TALLY_EPARSE, name, f[ITERATIONS].line, f[ITERATIONS].col,
                             "expected an iteration count > 0");
    if (rc != TALLY_OK)
        return rc;
    /* group, then function and value joined by '/', then the unit: NUL-separated in scratch. */
    scratch->len = 0;
    tally__buf_append(scratch, f[GROUP].text, f[GROUP].len);
    tally__buf_append(scratch, "", 1);
    size_t case_at = scratch->len;
    for (int k = FUNCTION; k <= VALUE; k++)
        if (f[k].len) {
            if (scratch->len > case_at)
                tally__buf_append(scratch, "/", 1);
            tally__buf_append(scratch, f[k].text, f[k].len);
        }
    if (scratch->len == case_at)
        tally__buf_puts(scratch, "all");
    tally__buf_append(scratch, "", 1);
    size_t unit_at = scratch->len;
    tally__buf_append(scratch, f[UNIT].text, f[UNIT].len);
    tally__buf_append(scratch, "", 1);
    if (scratch->failed)
        return tally__oom();
    if (f[GROUP].len == 0)
        return tally__error_at(TALLY_EPARSE, name, f[GROUP].line, f[GROUP].col,
                               "empty group name");
    rc = tally__import_sample(rs, scratch->data, scratch->data + unit_at, TALLY_LOWER_IS_BETTER,
                              scratch->data + case_at, measured / iterations);
    if (rc == TALLY_EMISMATCH)
        rc = tally__error_at(rc, name, f[UNIT].line, f[UNIT].col,
                             "unit '%s' differs from an earlier row of group '%s'",
                             scratch->data + unit_at, scratch->data);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    tally_resultset *rs;
    int rc = tally__import_begin(&rs, into, name, opts, "criterion");
    if (rc != TALLY_OK)
        return rc;
    tally__csv t;
    tally__csv_init(&t, name, data, len, ',');
    tally__buf scratch = TALLY__BUF_INIT;
    size_t rows = 0;
    rc = tally__csv_next(&t);
    if (rc == 1) {
        /* The header, exactly as criterion writes it. */
        size_t at = 0, n = strlen(header);
        for (size_t i = 0; rc == 1 && i < t.count; i++) {
            const tally__csv_field *f = &t.fields[i];
            if (at + f->len > n || memcmp(header + at, f->text, f->len) != 0 ||
                (i + 1 < t.count && header[at + f->len] != ','))
                rc = tally__error_at(TALLY_EFORMAT, name, f->line, f->col,
                                     "expected criterion's raw.csv header '%s'", header);
            at += f->len + 1;
        }
        if (rc == 1 && at != n + 1)
            rc = tally__error_at(TALLY_EFORMAT, name, 1, 1,
                                 "expected criterion's raw.csv header '%s'", header);
    }
    while (rc == 1 && (rc = tally__csv_next(&t)) == 1) {
        if (t.count == 1 && t.fields[0].len == 0)
            continue; /* a blank line */
        rc = one_row(rs, &t, &scratch, name);
        rows++;
        if (rc == TALLY_OK)
            rc = 1;
    }
    if (rc == 0 && rows == 0)
        rc = tally__import_none_found(name, t.line, "criterion raw.csv rows");
    tally__buf_dispose(&scratch);
    tally__csv_dispose(&t);
    return rc < 0 ? rc : TALLY_OK;
}

const tally__importer tally__importer_criterion_csv = {
    .name = "criterion-csv", .sniff = sniff, .parse = parse, .flags = TALLY__IMPORT_TEXT_LINES,
};
