/* hyperfine --export-json: {"results": [{"command", "mean", "stddev", "median", "user", "system",
 * "min", "max", "times": [...], "exit_codes": [...], "parameters": {...}}, ...]}.
 * The times (seconds) are the samples; the summary is kept as reported.* case metadata for
 * tally_validate(). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_split.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_object(data, len))
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

/* The arrays read straight from the text (util/json_split.h); both hold numbers only in the
 * files hyperfine writes (an exit code is null after a signal: such a file takes the tree). */
static const char *const result_prefix[] = { "results", "*", NULL };
static const char *const result_arrays[] = { "times", "exit_codes", NULL };
static const tally__json_cut result_cut = { result_prefix, result_arrays };
enum { TIMES = 0, EXIT_CODES = 1 };

/* The exit codes as text ("0,0,1"), gathered a block at a time: a file of a million runs has a
 * million of them. */
typedef struct code_text {
    tally__buf *out;
    char block[4096];
    size_t len;
} code_text;

static void codes_flush(code_text *t)
{
    tally__buf_append(t->out, t->block, t->len);
    t->len = 0;
}

/* An exit code as "%.0f" writes it, without printf for the whole numbers of real files: their
 * digits, the sign of -0 kept. */
static void append_code(code_text *t, double v, size_t j)
{
    if (t->len > sizeof(t->block) - 24)
        codes_flush(t);
    unsigned digit = v >= 0.0 && v < 10.0 ? (unsigned)v : 10;
    if (digit < 10 && (double)digit == v && !signbit(v)) {
        /* The one digit of nearly every code, without the general conversion below. */
        char *at = t->block + t->len;
        if (j)
            *at++ = ',';
        *at++ = (char)('0' + digit);
        t->len = (size_t)(at - t->block);
        return;
    }
    if (!(v == trunc(v) && fabs(v) < 1e15)) {
        codes_flush(t);
        tally__buf_printf(t->out, "%s%.0f", j ? "," : "", v);
        return;
    }
    char *at = t->block + t->len;
    if (j)
        *at++ = ',';
    if (signbit(v))
        *at++ = '-';
    char digits[16];
    size_t n = 0;
    for (unsigned long long u = (unsigned long long)fabs(v); n == 0 || u > 0; u /= 10)
        digits[n++] = (char)('0' + u % 10);
    while (n > 0)
        *at++ = digits[--n];
    t->len = (size_t)(at - t->block);
}

static int keep_exit_codes(tally_case *c, tally__json_doc *doc, const cJSON *res, tally__jpath *p)
{
    const cJSON *codes;
    int rc = tally__json_array(&codes, res, "exit_codes", 0, doc->name, p);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    tally__buf text = TALLY__BUF_INIT;
    code_text t;
    t.out = &text;
    t.len = 0;
    size_t mark = tally__jpath_key(p, "exit_codes");
    if (doc->arrays) {
        const double *v;
        size_t n;
        rc = tally__json_doc_numbers(&v, &n, doc, codes, EXIT_CODES, p);
        for (size_t j = 0; rc == TALLY_OK && j < n; j++)
            append_code(&t, v[j], j);
    } else {
        const cJSON *code;
        size_t j = 0;
        cJSON_ArrayForEach(code, codes) {
            /* null: the command was killed by a signal. */
            if (cJSON_IsNull(code)) {
                codes_flush(&t);
                tally__buf_printf(&text, "%snull", j ? "," : "");
            } else {
                double v;
                size_t at = tally__jpath_index(p, j);
                rc = tally__json_finite(&v, code, doc->name, p);
                tally__jpath_pop(p, at);
                if (rc != TALLY_OK)
                    break;
                append_code(&t, v, j);
            }
            j++;
        }
    }
    codes_flush(&t);
    tally__jpath_pop(p, mark);
    if (rc == TALLY_OK)
        rc = text.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                         : tally_case_meta_set(c, "exit_codes", text.data ? text.data : "");
    tally__buf_dispose(&text);
    return rc;
}

static int read_times(tally_case *c, tally__json_doc *doc, const cJSON *res, tally__jpath *p)
{
    const cJSON *times;
    int rc = tally__json_array(&times, res, "times", 1, doc->name, p);
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(p, "times");
    double *x;
    size_t n, cap;
    rc = tally__json_doc_take(&x, &n, &cap, doc, times, TIMES, p);
    if (rc == TALLY_OK && n == 0)
        rc = tally__error_json(TALLY_ENODATA, doc->name, p->text, "empty sample list");
    tally__jpath_pop(p, mark);
    if (rc != TALLY_OK) {
        tally__free_mem(x);
        return rc;
    }
    return tally__case_adopt(c, x, n, cap);
}

/* What one_result needs of the file. */
typedef struct reading {
    tally_benchmark *b;
    tally__json_doc *doc;
} reading;

/* One element of $.results: a command, its case. */
static int one_result(void *ctx, const cJSON *res, tally__jpath *p)
{
    tally_benchmark *b = ((reading *)ctx)->b;
    tally__json_doc *doc = ((reading *)ctx)->doc;
    const char *name = doc->name;
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
        rc = read_times(c, doc, res, p);
    if (rc == TALLY_OK && params)
        rc = tally_case_meta_set(c, "command", command);
    if (rc == TALLY_OK)
        rc = keep_exit_codes(c, doc, res, p);
    if (rc == TALLY_OK)
        rc = keep_summary(c, res, name, p);
    return rc;
}

static int read_doc(tally_results *into, tally__json_doc *doc, const tally_load_options *opts,
                    tally__jpath *p)
{
    const char *name = doc->name;
    const cJSON *results;
    int rc = tally__json_array(&results, doc->root, "results", 1, name, p);
    if (rc == TALLY_OK && cJSON_GetArraySize(results) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.results", "no results (empty list)");
    tally_resultset *rs = NULL;
    reading r = { NULL, doc };
    if (rc == TALLY_OK)
        rc = tally__import_begin(&rs, into, name, opts, "hyperfine");
    if (rc == TALLY_OK)
        rc = tally_resultset_benchmark_add(&r.b, rs, tally__import_name(opts, "hyperfine"), "s",
                                           TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK)
        rc = tally__json_each(results, "results", p, one_result, &r);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    return tally__json_import(into, data, len, name, opts, &result_cut, read_doc);
}

const tally__importer tally__importer_hyperfine = {
    .kind = TALLY_INPUT_HYPERFINE, .name = "hyperfine", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK,
};
