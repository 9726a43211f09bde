/* hyperfine --export-json: {"results": [{"command", "mean", "stddev", "median", "user", "system",
 * "min", "max", "times": [...], "exit_codes": [...], "parameters": {...}}, ...]}.
 * The times (seconds) are the samples; the summary is kept as reported.* case metadata for
 * tally_validate(). The commands are the configurations (`hyperfine 'cmd A' 'cmd B'` holds the
 * two things to compare), each labelled by its command (or -n name); the results of one command
 * over a parameter scan are cases of its configuration, named by their parameter values. A file
 * of one command is one configuration, labelled as the caller says. opts->config_key chooses
 * otherwise: a parameter's values as the configurations, or none (each result a case). */
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

/* One element of $.results as the first pass sees it: where it goes. */
typedef struct entry {
    const char *command;
    char *params;      /* "delay=1,mode=a", or NULL without "parameters" */
    char *config;      /* the label of its configuration, or NULL: the file's one */
    char *case_name;
} entry;

/* What both passes over $.results need. */
typedef struct reading {
    tally_results *into;
    tally__json_doc *doc;
    const tally_load_options *opts;
    entry *entries;
    size_t count;
    size_t at;
    const char *parameter; /* the config key when it is a parameter, else NULL */
} reading;

/* "sleep 0.00{delay}" from "sleep 0.001" and {"delay": "1"}: the command before hyperfine put
 * the parameter values in, so that the results of one command over a scan share a label. */
static char *command_template(const char *command, const cJSON *params)
{
    tally__buf t = TALLY__BUF_INIT;
    tally__buf_puts(&t, command);
    const cJSON *v;
    cJSON_ArrayForEach(v, params) {
        char num[32];
        const char *value = v->valuestring;
        if (cJSON_IsNumber(v)) {
            tally__number_format(num, v->valuedouble);
            value = num;
        }
        if (value == NULL || value[0] == '\0' || t.data == NULL)
            continue;
        tally__buf out = TALLY__BUF_INIT;
        size_t vlen = strlen(value);
        for (const char *p = t.data; *p;) {
            if (strncmp(p, value, vlen) == 0) {
                tally__buf_printf(&out, "{%s}", v->string);
                p += vlen;
            } else {
                tally__buf_append(&out, p, 1);
                p++;
            }
        }
        tally__buf_dispose(&t);
        t = out;
    }
    char *text = t.failed ? NULL : tally__strdup(t.data ? t.data : "");
    tally__buf_dispose(&t);
    return text;
}

/* The first pass: a result's command and parameters. */
static int plan_result(void *ctx, const cJSON *res, tally__jpath *p)
{
    reading *r = ctx;
    entry *e = &r->entries[r->at++];
    const char *name = r->doc->name;
    int rc = tally__json_string(&e->command, res, "command", 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    const cJSON *params;
    rc = tally__json_object(&params, res, "parameters", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    tally__buf text = TALLY__BUF_INIT;
    size_t mark = tally__jpath_key(p, "parameters");
    rc = parameter_text(&text, params, name, p);
    tally__jpath_pop(p, mark);
    if (rc == TALLY_OK && (e->params = tally__strdup(text.data)) == NULL)
        rc = tally__oom();
    tally__buf_dispose(&text);
    return rc;
}

/* Parameter `key` of e->params ("delay=1,mode=a"), into `value`; the rest into `rest`. 0 when
 * the result has no such parameter. */
static int split_parameter(tally__buf *value, tally__buf *rest, const entry *e, const char *key)
{
    int found = 0;
    size_t klen = strlen(key);
    for (const char *p = e->params; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            tally__buf_append(value, p + klen + 1, n - klen - 1);
            found = 1;
        } else {
            if (rest->len)
                tally__buf_puts(rest, ",");
            tally__buf_append(rest, p, n);
        }
        p = comma ? comma + 1 : p + n;
    }
    return found;
}

static const cJSON *parameters_of(const cJSON *results, size_t i)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, (int)i), "parameters");
}

/* Configurations by command: the k-th result with a given parameter text (or the k-th without
 * parameters) belongs to the k-th command, whichever order hyperfine wrote them in (it runs
 * each parameter value for every command). One command: the file's one configuration, each
 * result a case named by its parameters or its command, as with --config-key none. */
static int plan_by_command(reading *r, const cJSON *results, size_t *configs)
{
    /* Quadratic in the results: hyperfine files hold tens of them, a long scan thousands. */
    size_t *index = tally__calloc(r->count ? r->count : 1, sizeof *index);
    if (index == NULL)
        return tally__oom();
    *configs = 0;
    for (size_t i = 0; i < r->count; i++) {
        for (size_t j = 0; j < i; j++) {
            const char *a = r->entries[i].params, *b = r->entries[j].params;
            if ((a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0))
                index[i]++;
        }
        if (index[i] + 1 > *configs)
            *configs = index[i] + 1;
    }
    int rc = TALLY_OK;
    for (size_t k = 0; rc == TALLY_OK && k < *configs && *configs > 1; k++) {
        /* Its label: the command of its first result, as a template over the parameters when
         * that template fits every result of the configuration (else a value also occurs
         * elsewhere in the command, and the first command names it as it is). */
        size_t first = 0;
        while (index[first] != k)
            first++;
        char *label = NULL;
        for (size_t i = first; i < r->count; i++) {
            if (index[i] != k || r->entries[i].params == NULL)
                continue;
            char *mine = command_template(r->entries[i].command, parameters_of(results, i));
            if (mine == NULL) {
                rc = tally__oom();
                break;
            }
            if (label == NULL) {
                label = mine;
            } else if (strcmp(label, mine) != 0) {
                tally__free_mem(mine);
                tally__free_mem(label);
                label = NULL;
                break;
            } else {
                tally__free_mem(mine);
            }
        }
        if (rc == TALLY_OK && label == NULL &&
            (label = tally__strdup(r->entries[first].command)) == NULL)
            rc = tally__oom();
        for (size_t i = first; rc == TALLY_OK && i < r->count; i++)
            if (index[i] == k && (r->entries[i].config = tally__strdup(label)) == NULL)
                rc = tally__oom();
        tally__free_mem(label);
    }
    tally__free_mem(index);
    for (size_t i = 0; rc == TALLY_OK && i < r->count; i++) {
        entry *e = &r->entries[i];
        const char *c = e->params ? e->params : *configs > 1 ? "all" : e->command;
        if ((e->case_name = tally__strdup(c)) == NULL)
            rc = tally__oom();
    }
    return rc;
}

/* --config-key none: one configuration, each result a case (its parameters, else its
 * command); several commands scanned over the same values are told apart by command. */
static int plan_one(reading *r)
{
    for (size_t i = 0; i < r->count; i++) {
        entry *e = &r->entries[i];
        tally__buf c = TALLY__BUF_INIT;
        tally__buf_puts(&c, e->params ? e->params : e->command);
        for (size_t j = 0; e->params && j < i; j++)
            if (r->entries[j].params && strcmp(r->entries[j].params, e->params) == 0) {
                tally__buf_printf(&c, " (%s)", e->command);
                break;
            }
        e->case_name = c.failed ? NULL : tally__strdup(c.data ? c.data : "");
        tally__buf_dispose(&c);
        if (e->case_name == NULL)
            return tally__oom();
    }
    return TALLY_OK;
}

/* --config-key PARAM: the parameter's values are the configurations, the other parameters the
 * cases ("all" when there are none). */
static int plan_by_parameter(reading *r, const char *key)
{
    for (size_t i = 0; i < r->count; i++) {
        entry *e = &r->entries[i];
        tally__buf value = TALLY__BUF_INIT, rest = TALLY__BUF_INIT;
        int found = split_parameter(&value, &rest, e, key);
        int rc = TALLY_OK;
        if (!found) {
            char path[64];
            snprintf(path, sizeof path, "$.results[%zu]", i);
            rc = tally__error_json(TALLY_ENOTFOUND, r->doc->name, path,
                                   "--config-key %s: the result of \"%s\" has no parameter "
                                   "'%s' (a hyperfine file's configurations are its "
                                   "commands, one of its parameters, or none)",
                                   key, e->command, key);
        } else if (value.failed || rest.failed) {
            rc = tally__oom();
        } else {
            e->config = tally__strndup(value.data ? value.data : "", value.len);
            e->case_name = tally__strdup(rest.len ? rest.data : "all");
            if (e->config == NULL || e->case_name == NULL)
                rc = tally__oom();
        }
        tally__buf_dispose(&value);
        tally__buf_dispose(&rest);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* The second pass: one element of $.results, a case of its configuration. */
static int one_result(void *ctx, const cJSON *res, tally__jpath *p)
{
    reading *r = ctx;
    const entry *e = &r->entries[r->at++];
    tally__json_doc *doc = r->doc;
    const char *name = doc->name;
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    if (e->config && e->config[0] == '\0')
        return tally__error_json(TALLY_EPARSE, name, p->text,
                                 "an empty command cannot label a configuration (name the "
                                 "commands with -n)");
    int rc = e->config ? tally__import_config(&rs, r->into, e->config, "hyperfine")
                       : TALLY_OK;
    if (rc == TALLY_OK && rs == NULL)
        rs = tally_results_at(r->into, 0);
    if (rc == TALLY_OK && (b = tally_resultset_benchmark_at(rs, 0)) == NULL)
        rc = tally_resultset_benchmark_add(&b, rs, tally__import_name(r->opts, "hyperfine"),
                                           "s", TALLY_LOWER_IS_BETTER);
    tally_case *c = NULL;
    if (rc == TALLY_OK && tally_benchmark_case_find(b, e->case_name) && r->parameter)
        rc = tally__error_json(TALLY_EEXISTS, name, p->text,
                               "\"%s\" is a second command of configuration '%s', case '%s': "
                               "with --config-key %s the other parameters must tell the "
                               "commands apart", e->command, e->config, e->case_name,
                               r->parameter);
    else if (rc == TALLY_OK && tally_benchmark_case_find(b, e->case_name))
        rc = tally__error_json(TALLY_EEXISTS, name, p->text,
                               "command \"%s\" appears twice (name the commands with -n)",
                               e->command);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, e->case_name);
    if (rc == TALLY_OK)
        rc = read_times(c, doc, res, p);
    if (rc == TALLY_OK && (e->params || e->config))
        rc = tally_case_meta_set(c, "command", e->command);
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
    if (rc != TALLY_OK)
        return rc;
    reading r = { into, doc, opts, NULL, (size_t)cJSON_GetArraySize(results), 0, NULL };
    r.entries = tally__calloc(r.count, sizeof *r.entries);
    if (r.entries == NULL)
        return tally__oom();
    rc = tally__json_each(results, "results", p, plan_result, &r);
    size_t configs = 1;
    const char *key = opts ? opts->config_key : NULL;
    if (rc == TALLY_OK && (key == NULL || strcmp(key, "command") == 0))
        rc = plan_by_command(&r, results, &configs);
    else if (rc == TALLY_OK && (strcmp(key, "none") == 0 || strcmp(key, "file") == 0))
        rc = plan_one(&r);
    else if (rc == TALLY_OK)
        rc = plan_by_parameter(&r, r.parameter = key);
    tally_resultset *rs = NULL;
    /* One configuration: the file's, labelled as the caller says. */
    if (rc == TALLY_OK && configs == 1 && r.count > 0 && r.entries[0].config == NULL)
        rc = tally__import_begin(&rs, into, name, opts, "hyperfine");
    r.at = 0;
    if (rc == TALLY_OK)
        rc = tally__json_each(results, "results", p, one_result, &r);
    tally__buf by = TALLY__BUF_INIT;
    if (key && strcmp(key, "command") != 0 && strcmp(key, "none") != 0 &&
        strcmp(key, "file") != 0)
        tally__buf_printf(&by, "the parameter '%s'", key);
    else
        tally__buf_puts(&by, "command");
    if (rc == TALLY_OK)
        rc = by.failed ? tally__oom() : tally__import_note_split(into, name, by.data);
    tally__buf_dispose(&by);
    for (size_t i = 0; i < r.count; i++) {
        tally__free_mem(r.entries[i].params);
        tally__free_mem(r.entries[i].config);
        tally__free_mem(r.entries[i].case_name);
    }
    tally__free_mem(r.entries);
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
    .configs = "its commands", .config_key = 1,
};
