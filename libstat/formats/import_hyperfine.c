/* hyperfine --export-json: {"results": [{"command", "mean", "stddev", "median", "user", "system",
 * "min", "max", "times": [...], "exit_codes": [...], "parameters": {...}}, ...]}.
 * The times (seconds) are the samples; the summary is kept as reported.* case metadata for
 * tally_validate(). */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
        i++;
    if (i >= len || data[i] != '{')
        return 0;
    if (!tally__sniff_has(data, len, "\"results\"", 256) ||
        !tally__sniff_has(data, len, "\"command\"", 1024))
        return 0;
    return tally__sniff_has(data, len, "\"times\"", 8192) ? 95 : 70;
}

/* "delay=1,mode=a" from {"delay": "1", "mode": "a"}: hyperfine writes parameter values as
 * strings; numbers are accepted too. */
static int parameter_text(tally__buf *out, const cJSON *params, const char *name, tally__jpath *p)
{
    const cJSON *v;
    size_t k = 0;
    cJSON_ArrayForEach(v, params) {
        size_t mark = tally__jpath_key(p, v->string);
        char num[32];
        const char *text;
        if (cJSON_IsString(v)) {
            text = v->valuestring;
        } else if (cJSON_IsNumber(v)) {
            double d;
            int rc = tally__json_finite(&d, v, name, p);
            if (rc != TALLY_OK)
                return rc;
            tally__number_format(num, d);
            text = num;
        } else {
            return tally__error_json(TALLY_EPARSE, name, p->text,
                                     "expected a string or a number as parameter value");
        }
        tally__jpath_pop(p, mark);
        tally__buf_printf(out, "%s%s=%s", k++ ? "," : "", v->string, text);
    }
    if (k == 0)
        return tally__error_json(TALLY_EPARSE, name, p->text, "empty \"parameters\" object");
    return out->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}

static int keep_summary(tally_case *c, const cJSON *res, const char *name, tally__jpath *p)
{
    static const char *const stats[] = {"mean", "stddev", "median", "min", "max"};
    static const char *const extra[] = {"user", "system"};
    for (size_t i = 0; i < 7; i++) {
        const char *key = i < 5 ? stats[i] : extra[i - 5];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(res, key);
        if (item == NULL || cJSON_IsNull(item)) /* stddev is null after a single run */
            continue;
        double v;
        int rc = tally__json_number(&v, res, key, 1, name, p);
        if (rc != TALLY_OK)
            return rc;
        char meta[32];
        snprintf(meta, sizeof meta, i < 5 ? "reported.%s" : "%s", key);
        rc = tally__import_meta_number(c, meta, v);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

static int keep_exit_codes(tally_case *c, const cJSON *res, const char *name, tally__jpath *p)
{
    const cJSON *codes;
    int rc = tally__json_array(&codes, res, "exit_codes", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    tally__buf text = TALLY__BUF_INIT;
    const cJSON *code;
    size_t j = 0;
    cJSON_ArrayForEach(code, codes) {
        /* null: the command was killed by a signal. */
        if (cJSON_IsNull(code)) {
            tally__buf_printf(&text, "%snull", j ? "," : "");
        } else {
            double v;
            size_t mark = tally__jpath_key(p, "exit_codes");
            tally__jpath_index(p, j);
            rc = tally__json_finite(&v, code, name, p);
            tally__jpath_pop(p, mark);
            if (rc != TALLY_OK) {
                tally__buf_dispose(&text);
                return rc;
            }
            tally__buf_printf(&text, "%s%.0f", j ? "," : "", v);
        }
        j++;
    }
    rc = text.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                     : tally_case_meta_set(c, "exit_codes", text.data ? text.data : "");
    tally__buf_dispose(&text);
    return rc;
}

static int read_times(tally_case *c, const cJSON *res, const char *name, tally__jpath *p)
{
    const cJSON *times;
    int rc = tally__json_array(&times, res, "times", 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(p, "times");
    size_t n = (size_t)cJSON_GetArraySize(times);
    if (n == 0) {
        rc = tally__error_json(TALLY_ENODATA, name, p->text, "empty sample list");
        tally__jpath_pop(p, mark);
        return rc;
    }
    double *x = tally__reallocarray(NULL, n, sizeof(double));
    if (x == NULL) {
        tally__jpath_pop(p, mark);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    size_t j = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, times) {
        size_t m = tally__jpath_index(p, j);
        rc = tally__json_finite(&x[j], t, name, p);
        tally__jpath_pop(p, m);
        if (rc != TALLY_OK)
            break;
        j++;
    }
    tally__jpath_pop(p, mark);
    if (rc == TALLY_OK)
        rc = tally_case_append(c, x, n);
    tally__free_mem(x);
    return rc;
}

static int one_result(tally_benchmark *b, const cJSON *res, const char *name, tally__jpath *p)
{
    const char *command;
    int rc = tally__json_string(&command, res, "command", 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    const cJSON *params;
    rc = tally__json_object(&params, res, "parameters", 0, name, p);
    if (rc != TALLY_OK && rc != TALLY_ENOTFOUND)
        return rc;
    rc = TALLY_OK;
    tally__buf casename = TALLY__BUF_INIT;
    if (params) {
        size_t mark = tally__jpath_key(p, "parameters");
        rc = parameter_text(&casename, params, name, p);
        tally__jpath_pop(p, mark);
        /* Several commands scanned over the same values: tell them apart by command. */
        if (rc == TALLY_OK && tally_benchmark_case_find(b, casename.data))
            tally__buf_printf(&casename, " (%s)", command);
    } else {
        tally__buf_puts(&casename, command);
    }
    if (rc == TALLY_OK && casename.failed)
        rc = tally__error(TALLY_ENOMEM, "out of memory");
    tally_case *c = NULL;
    if (rc == TALLY_OK && tally_benchmark_case_find(b, casename.data))
        rc = tally__error_json(TALLY_EEXISTS, name, p->text,
                               "command \"%s\" appears twice (name the commands with -n)",
                               casename.data);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, casename.data);
    tally__buf_dispose(&casename);
    if (rc == TALLY_OK)
        rc = read_times(c, res, name, p);
    if (rc == TALLY_OK && params)
        rc = tally_case_meta_set(c, "command", command);
    if (rc == TALLY_OK)
        rc = keep_exit_codes(c, res, name, p);
    if (rc == TALLY_OK)
        rc = keep_summary(c, res, name, p);
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
    const cJSON *results;
    rc = tally__json_array(&results, root, "results", 1, name, &p);
    if (rc == TALLY_OK && cJSON_GetArraySize(results) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.results", "no results (empty list)");
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    if (rc == TALLY_OK)
        rc = tally__import_begin(&rs, into, name, opts, "hyperfine");
    if (rc == TALLY_OK)
        rc = tally_resultset_benchmark_add(&b, rs, tally__import_name(opts, "hyperfine"), "s",
                                           TALLY_LOWER_IS_BETTER);
    size_t i = 0;
    const cJSON *res;
    if (rc == TALLY_OK) {
        cJSON_ArrayForEach(res, results) {
            size_t mark = tally__jpath_key(&p, "results");
            tally__jpath_index(&p, i++);
            rc = one_result(b, res, name, &p);
            tally__jpath_pop(&p, mark);
            if (rc != TALLY_OK)
                break;
        }
    }
    cJSON_Delete(root);
    return rc;
}

const tally__importer tally__importer_hyperfine = {TALLY_INPUT_HYPERFINE, "hyperfine", sniff,
                                                   parse};
