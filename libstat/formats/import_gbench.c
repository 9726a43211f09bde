/* Google Benchmark --benchmark_format=json: {"context": {...}, "benchmarks": [rows]}.
 * Iteration rows (run_type "iteration") are the samples, one per repetition, grouped by
 * run_name. The benchmark is the family (run_name up to its first '/'), with two cases per
 * run_name: "<run_name>/real_time" and "<run_name>/cpu_time", in the row's time_unit.
 * Aggregate rows (mean, median, stddev, cv, user statistics) are not samples: they are kept
 * as reported.<aggregate_name> on the matching cases for tally_validate(). A row with
 * error_occurred is an error naming the row: a benchmark that failed has no valid times, and
 * leaving it out would silently drop a row from every comparison. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_object(data, len))
        return 0;
    int context = tally__sniff_has(data, len, "\"context\"", 256);
    int benchmarks = tally__sniff_has(data, len, "\"benchmarks\"", 8192);
    int gb = tally__sniff_has(data, len, "\"time_unit\"", 16384) ||
             tally__sniff_has(data, len, "\"library_build_type\"", 8192) ||
             tally__sniff_has(data, len, "\"num_cpus\"", 8192);
    if (context && benchmarks && gb)
        return 95;
    return context && benchmarks ? 50 : 0;
}

static int keep_context(tally_resultset *rs, const cJSON *root, const char *name, tally__jpath *p)
{
    const cJSON *ctx;
    int rc = tally__json_object(&ctx, root, "context", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    const cJSON *v;
    cJSON_ArrayForEach(v, ctx) {
        tally__buf text = TALLY__BUF_INIT;
        char num[32];
        if (cJSON_IsString(v)) {
            tally__buf_puts(&text, v->valuestring);
        } else if (cJSON_IsBool(v)) {
            tally__buf_puts(&text, cJSON_IsTrue(v) ? "true" : "false");
        } else if (cJSON_IsNumber(v)) {
            tally__number_format(num, v->valuedouble);
            tally__buf_puts(&text, num);
        } else if (cJSON_IsArray(v)) {
            /* load_avg: numbers joined by commas; arrays of objects (caches) are left out. */
            const cJSON *e;
            size_t k = 0;
            cJSON_ArrayForEach(e, v) {
                if (!cJSON_IsNumber(e))
                    break;
                tally__number_format(num, e->valuedouble);
                tally__buf_printf(&text, "%s%s", k++ ? "," : "", num);
            }
            if (e != NULL || k == 0) {
                tally__buf_dispose(&text);
                continue;
            }
        } else {
            continue;
        }
        rc = text.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                         : tally_resultset_meta_set(rs, v->string, text.data ? text.data : "");
        tally__buf_dispose(&text);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* The fields of one row that both passes need. */
typedef struct row {
    const char *run_name;
    const char *aggregate; /* NULL for an iteration row */
    const char *unit;
} row;

static int read_row(row *r, const cJSON *obj, const char *name, tally__jpath *p)
{
    const char *nm, *run_type = NULL;
    int rc = tally__json_string(&nm, obj, "name", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_string(&r->run_name, obj, "run_name", 0, name, p);
    if (rc == TALLY_ENOTFOUND) /* files before v1.5 have no run_name */
        r->run_name = nm, rc = TALLY_OK;
    if (rc == TALLY_OK)
        rc = tally__json_string(&run_type, obj, "run_type", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_string(&r->aggregate, obj, "aggregate_name", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        rc = TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    if (run_type && strcmp(run_type, "iteration") != 0 && strcmp(run_type, "aggregate") != 0) {
        size_t mark = tally__jpath_key(p, "run_type");
        rc = tally__error_json(TALLY_EPARSE, name, p->text,
                               "expected \"iteration\" or \"aggregate\", found \"%s\"", run_type);
        tally__jpath_pop(p, mark);
        return rc;
    }
    if (run_type && strcmp(run_type, "iteration") == 0)
        r->aggregate = NULL;
    else if (run_type && r->aggregate == NULL)
        return tally__error_json(TALLY_EPARSE, name, p->text,
                                 "aggregate row without \"aggregate_name\"");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(obj, "error_occurred");
    if (cJSON_IsTrue(err)) {
        const char *msg = NULL;
        tally__json_string(&msg, obj, "error_message", 0, name, p);
        return tally__error_json(TALLY_ERUN, name, p->text,
                                 "benchmark \"%s\" reported an error: %s (error_occurred)", nm,
                                 msg ? msg : "no message");
    }
    rc = tally__json_string(&r->unit, obj, "time_unit", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        r->unit = "ns", rc = TALLY_OK;
    if (rc == TALLY_OK && strcmp(r->unit, "ns") != 0 && strcmp(r->unit, "us") != 0 &&
        strcmp(r->unit, "ms") != 0 && strcmp(r->unit, "s") != 0) {
        size_t mark = tally__jpath_key(p, "time_unit");
        rc = tally__error_json(TALLY_EPARSE, name, p->text,
                               "expected \"ns\", \"us\", \"ms\" or \"s\", found \"%s\"", r->unit);
        tally__jpath_pop(p, mark);
    }
    return rc;
}

static int case_name(tally__buf *out, const char *run_name, const char *which)
{
    out->len = 0;
    tally__buf_printf(out, "%s/%s", run_name, which);
    return out->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}

static const char *const timings[] = {"real_time", "cpu_time"};

/* The benchmark of a run name: up to its first '/' (the whole name when it starts with one);
 * NULL when out of memory. */
static char *family_of(const char *run_name)
{
    size_t flen = strcspn(run_name, "/");
    return tally__strndup(run_name, flen ? flen : strlen(run_name));
}

static int iteration_row(tally_resultset *rs, const row *r, const cJSON *obj, const char *name,
                         tally__jpath *p, tally__buf *cname)
{
    char *family = family_of(r->run_name);
    if (family == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    tally_benchmark *b;
    int rc = tally__import_benchmark(&b, rs, family, r->unit, TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_EMISMATCH) {
        size_t mark = tally__jpath_key(p, "time_unit");
        rc = tally__error_json(TALLY_EMISMATCH, name, p->text,
                               "time_unit \"%s\" differs from \"%s\" of earlier rows of %s",
                               r->unit, tally_benchmark_unit(b), family);
        tally__jpath_pop(p, mark);
    }
    tally__free_mem(family);
    for (size_t t = 0; rc == TALLY_OK && t < 2; t++) {
        double v;
        tally_case *c;
        rc = tally__json_number(&v, obj, timings[t], 1, name, p);
        if (rc == TALLY_OK)
            rc = case_name(cname, r->run_name, timings[t]);
        if (rc == TALLY_OK)
            rc = tally__import_case(&c, b, cname->data);
        if (rc == TALLY_OK)
            rc = tally_case_append(c, &v, 1);
    }
    return rc;
}

static int aggregate_row(tally_resultset *rs, const row *r, const cJSON *obj, const char *name,
                         tally__jpath *p, tally__buf *cname)
{
    char *family = family_of(r->run_name);
    if (family == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, family);
    tally__free_mem(family);
    for (size_t t = 0; b && t < 2; t++) {
        int rc = case_name(cname, r->run_name, timings[t]);
        if (rc != TALLY_OK)
            return rc;
        tally_case *c = tally_benchmark_case_find(b, cname->data);
        /* BigO and RMS rows carry coefficients instead of times and name no run of samples. */
        if (c == NULL || cJSON_GetObjectItemCaseSensitive(obj, timings[t]) == NULL)
            continue;
        double v;
        rc = tally__json_number(&v, obj, timings[t], 1, name, p);
        char key[96];
        snprintf(key, sizeof key, "reported.%s", r->aggregate);
        if (rc == TALLY_OK)
            rc = tally__import_meta_number(c, key, v);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* One pass over $.benchmarks: the iteration rows, or the aggregate rows. */
typedef struct pass {
    tally_resultset *rs;
    int aggregates;
    const char *name;
    size_t *iterations;
    tally__buf cname; /* scratch for case names */
} pass;

static int one_row(void *ctx, const cJSON *obj, tally__jpath *p)
{
    pass *s = ctx;
    row r = {NULL, NULL, NULL};
    int rc = read_row(&r, obj, s->name, p);
    if (rc == TALLY_OK && !s->aggregates && r.aggregate == NULL) {
        rc = iteration_row(s->rs, &r, obj, s->name, p, &s->cname);
        (*s->iterations)++;
    } else if (rc == TALLY_OK && s->aggregates && r.aggregate != NULL) {
        rc = aggregate_row(s->rs, &r, obj, s->name, p, &s->cname);
    }
    return rc;
}

static int rows(tally_resultset *rs, const cJSON *list, int aggregates, const char *name,
                tally__jpath *p, size_t *iterations)
{
    pass s = {rs, aggregates, name, iterations, TALLY__BUF_INIT};
    int rc = tally__json_each(list, "benchmarks", p, one_row, &s);
    tally__buf_dispose(&s.cname);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    cJSON *root;
    int rc = tally__json_parse(&root, data, len, name);
    if (rc != TALLY_OK)
        return rc;
    tally__jpath p;
    tally__jpath_init(&p);
    const cJSON *list;
    tally_resultset *rs = NULL;
    size_t iterations = 0;
    rc = tally__json_array(&list, root, "benchmarks", 1, name, &p);
    if (rc == TALLY_OK && cJSON_GetArraySize(list) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.benchmarks", "no benchmark rows");
    if (rc == TALLY_OK)
        rc = tally__import_begin(&rs, into, name, opts, "gbench");
    if (rc == TALLY_OK)
        rc = keep_context(rs, root, name, &p);
    if (rc == TALLY_OK)
        rc = rows(rs, list, 0, name, &p, &iterations);
    if (rc == TALLY_OK && iterations == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.benchmarks",
                               "no iteration rows, only aggregates (run without "
                               "--benchmark_report_aggregates_only to keep the samples)");
    if (rc == TALLY_OK)
        rc = rows(rs, list, 1, name, &p, &iterations);
    cJSON_Delete(root);
    return rc;
}

const tally__importer tally__importer_gbench = {TALLY_INPUT_GBENCH, "gbench", sniff, parse};
