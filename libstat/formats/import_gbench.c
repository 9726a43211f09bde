/* Google Benchmark --benchmark_format=json: {"context": {...}, "benchmarks": [rows]}.
 * Iteration rows (run_type "iteration") are the samples, one per repetition, grouped by
 * run_name. The benchmark is the family (run_name up to its first '/'), with two cases per
 * run_name: "<run_name>/real_time" and "<run_name>/cpu_time", in the row's time_unit.
 * Aggregate rows (mean, median, stddev, cv, user statistics) are not samples: they are kept
 * as reported.<aggregate_name> on the matching cases for tally_validate(). A row with
 * error_occurred is an error naming the row: a benchmark that failed has no valid times, and
 * leaving it out would silently drop a row from every comparison. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_util.h"
#include "util/number.h"
#include "util/utf8.h"

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

/* The fields of one row that both passes need; `obj` is the row's cJSON object on the tree
 * path (its times are read from it, with the tree's messages), NULL on the fast path (the times
 * were read and checked by the row scanner). Strings are spans: the fast path points into the
 * text. */
typedef struct row {
    const char *run_name;
    size_t run_name_len;
    const char *aggregate; /* NULL for an iteration row */
    size_t aggregate_len;
    const char *unit; /* NUL-terminated */
    const cJSON *obj;
    double time[2];
    unsigned char has_time[2];
} row;

static const char *const timings[] = {"real_time", "cpu_time"};

static int read_row(row *r, const cJSON *obj, const char *name, tally__jpath *p)
{
    const char *nm, *run_type = NULL, *run_name = NULL, *aggregate = NULL;
    memset(r, 0, sizeof *r);
    r->obj = obj;
    int rc = tally__json_string(&nm, obj, "name", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_string(&run_name, obj, "run_name", 0, name, p);
    if (rc == TALLY_ENOTFOUND) /* files before v1.5 have no run_name */
        run_name = nm, rc = TALLY_OK;
    if (rc == TALLY_OK)
        rc = tally__json_string(&run_type, obj, "run_type", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_string(&aggregate, obj, "aggregate_name", 0, name, p);
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
        aggregate = NULL;
    else if (run_type && aggregate == NULL)
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
    r->run_name = run_name;
    r->run_name_len = strlen(run_name);
    r->aggregate = aggregate;
    r->aggregate_len = aggregate ? strlen(aggregate) : 0;
    for (size_t t = 0; t < 2; t++)
        r->has_time[t] = cJSON_GetObjectItemCaseSensitive(obj, timings[t]) != NULL;
    return rc;
}

/* A row's time: from the tree (its messages) or as the row scanner read it. */
static int row_time(double *v, const row *r, size_t t, const char *name, tally__jpath *p)
{
    if (r->obj)
        return tally__json_number(v, r->obj, timings[t], 1, name, p);
    *v = r->time[t];
    return TALLY_OK;
}

static int case_name(tally__buf *out, const row *r, const char *which)
{
    out->len = 0;
    tally__buf_printf(out, "%.*s/%s", (int)r->run_name_len, r->run_name, which);
    return out->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}

static char *family_of(const row *r)
{
    const char *slash = memchr(r->run_name, '/', r->run_name_len);
    size_t flen = slash ? (size_t)(slash - r->run_name) : r->run_name_len;
    return tally__strndup(r->run_name, flen ? flen : r->run_name_len);
}

/* The benchmark and cases of the last iteration row: the next row of the same run_name and
 * unit (the repetitions of one benchmark come one after the other) goes to them directly, as
 * the lookups would find them. */
typedef struct row_cache {
    const char *run_name;
    size_t run_name_len;
    const char *unit;
    tally_case *cases[2];
} row_cache;

/* Whether the iteration row r goes to the cases of the cache. */
static int cache_holds(const row_cache *cache, const row *r)
{
    return cache->cases[0] && cache->run_name_len == r->run_name_len &&
           memcmp(cache->run_name, r->run_name, r->run_name_len) == 0 &&
           strcmp(cache->unit, r->unit) == 0;
}

static int iteration_row(tally_resultset *rs, const row *r, const char *name, tally__jpath *p,
                         tally__buf *cname, row_cache *cache)
{
    if (cache_holds(cache, r)) {
        int rc = TALLY_OK;
        for (size_t t = 0; rc == TALLY_OK && t < 2; t++) {
            double v;
            rc = row_time(&v, r, t, name, p);
            if (rc == TALLY_OK)
                rc = tally_case_append(cache->cases[t], &v, 1);
        }
        return rc;
    }
    cache->cases[0] = cache->cases[1] = NULL;
    char *family = family_of(r);
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
    tally_case *cases[2] = {NULL, NULL};
    for (size_t t = 0; rc == TALLY_OK && t < 2; t++) {
        double v;
        rc = row_time(&v, r, t, name, p);
        if (rc == TALLY_OK)
            rc = case_name(cname, r, timings[t]);
        if (rc == TALLY_OK)
            rc = tally__import_case(&cases[t], b, cname->data);
        if (rc == TALLY_OK)
            rc = tally_case_append(cases[t], &v, 1);
    }
    if (rc == TALLY_OK)
        *cache = (row_cache){r->run_name, r->run_name_len, r->unit, {cases[0], cases[1]}};
    return rc;
}

static int aggregate_row(tally_resultset *rs, const row *r, const char *name, tally__jpath *p,
                         tally__buf *cname)
{
    char *family = family_of(r);
    if (family == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, family);
    tally__free_mem(family);
    /* The aggregate's name whole (a span on the fast path): a cut one could be another's. */
    char *aggregate = b ? tally__strndup(r->aggregate, r->aggregate_len) : NULL;
    int rc = b && aggregate == NULL ? tally__oom() : TALLY_OK;
    for (size_t t = 0; rc == TALLY_OK && b && t < 2; t++) {
        rc = case_name(cname, r, timings[t]);
        if (rc != TALLY_OK)
            break;
        tally_case *c = tally_benchmark_case_find(b, cname->data);
        /* BigO and RMS rows carry coefficients instead of times and name no run of samples. */
        if (c == NULL || !r->has_time[t])
            continue;
        double v;
        rc = row_time(&v, r, t, name, p);
        if (rc == TALLY_OK)
            rc = tally__import_reported(c, aggregate, v);
    }
    tally__free_mem(aggregate);
    return rc;
}

/* One row of a pass (0: the iteration rows, 1: the aggregates), its path in p. */
static int apply_row(tally_resultset *rs, const row *r, int aggregates, const char *name,
                     tally__jpath *p, tally__buf *cname, row_cache *cache, size_t *iterations)
{
    if (!aggregates && r->aggregate == NULL) {
        (*iterations)++;
        return iteration_row(rs, r, name, p, cname, cache);
    }
    if (aggregates && r->aggregate != NULL)
        return aggregate_row(rs, r, name, p, cname);
    return TALLY_OK;
}

/* One pass of the tree path over $.benchmarks: the iteration rows, or the aggregate rows. */
typedef struct tree_pass {
    tally_resultset *rs;
    int aggregates;
    const char *name;
    size_t *iterations;
    tally__buf cname;
    row_cache cache;
} tree_pass;

static int tree_row(void *ctx, const cJSON *obj, tally__jpath *p)
{
    tree_pass *s = ctx;
    row r;
    int rc = read_row(&r, obj, s->name, p);
    if (rc == TALLY_OK)
        rc = apply_row(s->rs, &r, s->aggregates, s->name, p, &s->cname, &s->cache, s->iterations);
    return rc;
}

static int rows(tally_resultset *rs, const cJSON *list, int aggregates, const char *name,
                tally__jpath *p, size_t *iterations)
{
    tree_pass s = {rs, aggregates, name, iterations, TALLY__BUF_INIT, {NULL, 0, NULL, {NULL, NULL}}};
    int rc = tally__json_each(list, "benchmarks", p, tree_row, &s);
    tally__buf_dispose(&s.cname);
    return rc;
}

/* Both passes over the rows, after the document's own checks (the same for both paths). */
static int import_rows(tally_results *into, const cJSON *root, const cJSON *list,
                       const row *fast, size_t fast_count, const char *name,
                       const tally_load_options *opts)
{
    tally__jpath p;
    tally__jpath_init(&p);
    tally_resultset *rs = NULL;
    size_t iterations = 0;
    int rc = tally__import_begin(&rs, into, name, opts, "gbench");
    if (rc == TALLY_OK)
        rc = keep_context(rs, root, name, &p);
    for (int aggregates = 0; aggregates < 2 && rc == TALLY_OK; aggregates++) {
        if (aggregates && iterations == 0) {
            rc = tally__error_json(TALLY_ENODATA, name, "$.benchmarks",
                                   "no iteration rows, only aggregates (run without "
                                   "--benchmark_report_aggregates_only to keep the samples)");
            break;
        }
        if (fast == NULL) {
            rc = rows(rs, list, aggregates, name, &p, &iterations);
            continue;
        }
        tally__buf cname = TALLY__BUF_INIT;
        row_cache cache = {NULL, 0, NULL, {NULL, NULL}};
        for (size_t i = 0; i < fast_count && rc == TALLY_OK; i++) {
            /* The row's path names it in apply_row's messages only, none of which an iteration
             * row can raise in the aggregate pass (it is skipped) or when it goes to the
             * cache's cases (nearly every row): a printf per row was a tenth of the import. */
            const row *r = &fast[i];
            if (r->aggregate == NULL && (aggregates || cache_holds(&cache, r))) {
                rc = apply_row(rs, r, aggregates, name, &p, &cname, &cache, &iterations);
                continue;
            }
            size_t mark = tally__jpath_key(&p, "benchmarks");
            tally__jpath_index(&p, i);
            rc = apply_row(rs, r, aggregates, name, &p, &cname, &cache, &iterations);
            tally__jpath_pop(&p, mark);
        }
        tally__buf_dispose(&cname);
    }
    return rc;
}

/* ---- the fast path: the rows read straight from the text ----
 *
 * A file of 10^5 rows is 1.3 million cJSON nodes, a strtod per number and a duplicate-key check
 * per object. The scanner below reads the rows of $.benchmarks itself (keys and values as raw
 * spans, every number converted and checked by the number module as the tree path checks them),
 * and cJSON parses the rest of the document with that array emptied. It accepts only rows that
 * the tree path accepts with the same result: any doubt (an escape or control character in a
 * string, a nested value, a repeated key, a field of the wrong type, a refused value, a row the
 * tree path would report) sends the whole text down the tree path, whose messages name it. */

typedef struct span {
    const char *p;
    size_t n;
} span;

enum { V_NONE, V_STRING, V_NUMBER, V_TRUE, V_OTHER };

typedef struct field {
    int type;
    span text;
    double number;
} field;

enum { F_NAME, F_RUN_NAME, F_RUN_TYPE, F_AGGREGATE, F_ERROR, F_UNIT, F_REAL, F_CPU, F_COUNT };

/* With their lengths: a row's dozen keys are each looked up among these, and comparing the
 * lengths first leaves one memcmp per key instead of a strlen and a memcmp per candidate. */
#define KEY(word) {word, sizeof(word) - 1}
static const span field_keys[F_COUNT] = {KEY("name"),           KEY("run_name"),
                                         KEY("run_type"),       KEY("aggregate_name"),
                                         KEY("error_occurred"), KEY("time_unit"),
                                         KEY("real_time"),      KEY("cpu_time")};
#undef KEY

static int span_eq(span s, span word)
{
    return s.n == word.n && memcmp(s.p, word.p, word.n) == 0;
}

static int span_is(span s, const char *word)
{
    return span_eq(s, (span){word, strlen(word)});
}

/* A string at p (its '"'): its contents, and where it ends (after the closing quote); NULL for
 * an escape, a control character or no end. */
static const char *scan_string(span *out, const char *p, const char *end)
{
    const char *q = ++p;
    while (q < end && *q != '"') {
        if (*q == '\\' || (unsigned char)*q < 0x20)
            return NULL;
        q++;
    }
    if (q >= end)
        return NULL;
    *out = (span){p, (size_t)(q - p)};
    return q + 1;
}

static int ends_value(const char *p, const char *end)
{
    return p >= end || tally__json_is_ws(*p) || *p == ',' || *p == '}' || *p == ']';
}

/* A scalar value at p: a string, a number, true, false or null; NULL for anything else. */
static const char *scan_value(field *f, const char *p, const char *end)
{
    if (p >= end)
        return NULL;
    if (*p == '"') {
        f->type = V_STRING;
        return scan_string(&f->text, p, end);
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        const char *stop;
        if (tally__number_scan_json(&f->number, &stop, p, end) != TALLY__NUMBER_OK ||
            !ends_value(stop, end))
            return NULL;
        f->type = V_NUMBER;
        return stop;
    }
    static const char *const words[3] = {"true", "false", "null"};
    for (int w = 0; w < 3; w++) {
        size_t n = strlen(words[w]);
        if ((size_t)(end - p) >= n && memcmp(p, words[w], n) == 0 && ends_value(p + n, end)) {
            f->type = w == 0 ? V_TRUE : V_OTHER;
            return p + n;
        }
    }
    return NULL;
}

#define ROW_KEYS_MAX 64

/* One row object at p (its '{'): the row as read_row would make it, and where the object ends;
 * NULL for a doubt. */
static const char *scan_row(row *r, const char *p, const char *end)
{
    field f[F_COUNT];
    memset(f, 0, sizeof f);
    span keys[ROW_KEYS_MAX];
    size_t nkeys = 0;
    uint64_t seen = 0; /* a bit per key length and first byte, to look for repeats rarely */
    p = tally__json_skip_ws(p + 1, end);
    if (p < end && *p == '}')
        return NULL; /* an empty row: the tree path names what is missing */
    for (;;) {
        span key;
        if (p >= end || *p != '"' || (p = scan_string(&key, p, end)) == NULL)
            return NULL;
        unsigned bit = (unsigned)(key.n * 7 + (key.n ? (unsigned char)key.p[0] : 0)) & 63;
        if (seen >> bit & 1)
            for (size_t k = 0; k < nkeys; k++)
                if (keys[k].n == key.n && memcmp(keys[k].p, key.p, key.n) == 0)
                    return NULL; /* a repeated key */
        seen |= UINT64_C(1) << bit;
        if (nkeys == ROW_KEYS_MAX)
            return NULL;
        keys[nkeys++] = key;
        p = tally__json_skip_ws(p, end);
        if (p >= end || *p != ':')
            return NULL;
        p = tally__json_skip_ws(p + 1, end);
        field v;
        int which = F_COUNT;
        for (int k = 0; k < F_COUNT; k++)
            if (span_eq(key, field_keys[k])) {
                which = k;
                break;
            }
        if ((p = scan_value(&v, p, end)) == NULL)
            return NULL;
        if (which < F_COUNT)
            f[which] = v;
        p = tally__json_skip_ws(p, end);
        if (p < end && *p == ',') {
            p = tally__json_skip_ws(p + 1, end);
            continue;
        }
        if (p < end && *p == '}')
            break;
        return NULL;
    }
    /* read_row's checks, in its terms; every refusal is the tree path's to report. */
    for (int k = F_NAME; k <= F_AGGREGATE; k++)
        if (f[k].type != V_NONE && f[k].type != V_STRING)
            return NULL;
    if (f[F_NAME].type != V_STRING || f[F_ERROR].type == V_TRUE)
        return NULL;
    memset(r, 0, sizeof *r);
    span run_name = f[F_RUN_NAME].type == V_STRING ? f[F_RUN_NAME].text : f[F_NAME].text;
    r->run_name = run_name.p;
    r->run_name_len = run_name.n;
    if (f[F_AGGREGATE].type == V_STRING) {
        r->aggregate = f[F_AGGREGATE].text.p;
        r->aggregate_len = f[F_AGGREGATE].text.n;
    }
    if (f[F_RUN_TYPE].type == V_STRING) {
        if (span_is(f[F_RUN_TYPE].text, "iteration"))
            r->aggregate = NULL, r->aggregate_len = 0;
        else if (!span_is(f[F_RUN_TYPE].text, "aggregate") || r->aggregate == NULL)
            return NULL;
    }
    static const char *const units[4] = {"ns", "us", "ms", "s"};
    r->unit = f[F_UNIT].type == V_NONE ? "ns" : NULL;
    for (int u = 0; u < 4 && r->unit == NULL; u++)
        if (f[F_UNIT].type == V_STRING && span_is(f[F_UNIT].text, units[u]))
            r->unit = units[u];
    if (r->unit == NULL)
        return NULL;
    for (size_t t = 0; t < 2; t++) {
        const field *tf = &f[F_REAL + t];
        if (tf->type != V_NONE && tf->type != V_NUMBER)
            return NULL;
        if (r->aggregate == NULL && tf->type != V_NUMBER)
            return NULL;
        r->has_time[t] = tf->type == V_NUMBER;
        r->time[t] = tf->number;
    }
    return p + 1;
}

/* Finds the value of the top-level member "benchmarks" when it is an array: its '[' in *open.
 * 0 when there is none (or a doubt). */
static int find_rows(const char **open, const char *data, const char *end)
{
    const char *p = tally__json_skip_ws(data, end);
    if (p >= end || *p != '{')
        return 0;
    size_t depth = 0;
    for (; p < end; p++) {
        char c = *p;
        if (c == '"') {
            span key;
            const char *after = scan_string(&key, p, end);
            if (after == NULL)
                return 0; /* escapes outside the rows: left to the tree */
            const char *q = tally__json_skip_ws(after, end);
            if (depth == 1 && q < end && *q == ':' && span_is(key, "benchmarks")) {
                q = tally__json_skip_ws(q + 1, end);
                if (q < end && *q == '[') {
                    *open = q;
                    return 1;
                }
                return 0;
            }
            p = after - 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth-- == 0)
                return 0;
        }
    }
    return 0;
}

/* The fast path: TALLY_OK or an error of the import itself (the same as the tree path's), or 1
 * when the text is left to the tree path. */
static int parse_fast(tally_results *into, const char *data, size_t len, const char *name,
                      const tally_load_options *opts)
{
    const char *end = data + len, *open;
    if (!find_rows(&open, data, end))
        return 1;
    row *list = NULL;
    size_t count = 0, cap = 0;
    const char *p = tally__json_skip_ws(open + 1, end);
    int doubt = p >= end || *p == ']';
    while (!doubt) {
        if (count == cap) {
            size_t grown = cap ? 2 * cap : 1024;
            row *bigger = tally__reallocarray(list, grown, sizeof *bigger);
            if (bigger == NULL) {
                tally__free_mem(list);
                return tally__error(TALLY_ENOMEM, "out of memory");
            }
            list = bigger;
            cap = grown;
        }
        if (p >= end || *p != '{' || (p = scan_row(&list[count], p, end)) == NULL) {
            doubt = 1;
            break;
        }
        count++;
        p = tally__json_skip_ws(p, end);
        if (p < end && *p == ',') {
            p = tally__json_skip_ws(p + 1, end);
            continue;
        }
        if (p >= end || *p != ']')
            doubt = 1;
        break;
    }
    /* The rows' text must be what the tree path checks it to be: valid UTF-8 (the scanner saw
     * no NUL: it stops at any byte it does not expect). */
    if (!doubt && tally__utf8_valid_prefix(open, (size_t)(p - open)) != (size_t)(p - open))
        doubt = 1;
    if (doubt) {
        tally__free_mem(list);
        return 1;
    }
    /* The document without the rows: "benchmarks": [] */
    size_t head = (size_t)(open + 1 - data), tail = (size_t)(end - p);
    char *skeleton = tally__malloc(head + tail + 1);
    if (skeleton == NULL) {
        tally__free_mem(list);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    memcpy(skeleton, data, head);
    memcpy(skeleton + head, p, tail);
    skeleton[head + tail] = '\0';
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, skeleton, head + tail, name);
    tally__free_mem(skeleton);
    const cJSON *rows_array = NULL;
    if (rc == TALLY_OK) {
        tally__jpath path;
        tally__jpath_init(&path);
        rc = tally__json_array(&rows_array, root, "benchmarks", 1, name, &path);
    }
    if (rc == TALLY_ENOMEM) {
        cJSON_Delete(root);
        tally__free_mem(list);
        return rc;
    }
    if (rc != TALLY_OK || cJSON_GetArraySize(rows_array) != 0) {
        cJSON_Delete(root);
        tally__free_mem(list);
        return 1; /* the tree path reports it, with positions in the whole text */
    }
    rc = import_rows(into, root, rows_array, list, count, name, opts);
    cJSON_Delete(root);
    tally__free_mem(list);
    return rc;
}

int tally__gbench_parse_tree(tally_results *into, const char *data, size_t len, const char *name,
                             const tally_load_options *opts)
{
    cJSON *root;
    int rc = tally__json_parse(&root, data, len, name);
    if (rc != TALLY_OK)
        return rc;
    tally__jpath p;
    tally__jpath_init(&p);
    const cJSON *list;
    rc = tally__json_array(&list, root, "benchmarks", 1, name, &p);
    if (rc == TALLY_OK && cJSON_GetArraySize(list) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.benchmarks", "no benchmark rows");
    if (rc == TALLY_OK)
        rc = import_rows(into, root, list, NULL, 0, name, opts);
    cJSON_Delete(root);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    int rc = parse_fast(into, data, len, name, opts);
    return rc != 1 ? rc : tally__gbench_parse_tree(into, data, len, name, opts);
}

const tally__importer tally__importer_gbench = {
    .kind = TALLY_INPUT_GBENCH, .name = "gbench", .sniff = sniff, .parse = parse,
};
