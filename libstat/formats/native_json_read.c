/* tally's own JSON result sets (docs/formats.md): format "tally-results", major version 1.
 * Unknown members are ignored, so later minor additions stay readable; a higher major version is
 * refused. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "formats/importer.h"
#include "model/units.h"
#include "util/internal.h"
#include "util/json_split.h"
#include "util/json_util.h"
#include "formats/native_json.h"

#define SNIFF_WINDOW 4096

static int sniff_native_json(const char *data, size_t len)
{
    size_t window = len < SNIFF_WINDOW ? len : SNIFF_WINDOW;
    size_t i = 0;
    if (window >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < window && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
        i++;
    if (i >= window || data[i] != '{')
        return 0;
    static const char signature[] = "\"" TALLY__NATIVE_FORMAT "\"";
    for (size_t j = i; j + sizeof(signature) - 1 <= window; j++)
        if (memcmp(data + j, signature, sizeof(signature) - 1) == 0)
            return 100;
    return 0;
}

typedef struct reader {
    const char *name;
    tally__json_doc *doc;
    tally__jpath path;
} reader;

/* The samples arrays, read straight from the text (util/json_split.h). */
static const char *const samples_prefix[] = { "results", "*", "benchmarks", "*", "cases", "*",
                                              NULL };
static const char *const samples_key[] = { "samples", NULL };
static const tally__json_cut samples_cut = { samples_prefix, samples_key };

/* Record an error at the member `key` of the current path. */
static int fail_at_key(reader *r, int code, const char *key, const char *fmt, ...)
    TALLY__PRINTF(4, 5);

static int fail_at_key(reader *r, int code, const char *key, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    void *locale = tally__locale_c_begin();
    vsnprintf(text, sizeof(text), fmt, ap);
    tally__locale_c_end(locale);
    va_end(ap);
    size_t mark = tally__jpath_key(&r->path, key);
    tally__error_json(code, r->name, r->path.text, "%s", text);
    tally__jpath_pop(&r->path, mark);
    return code;
}

/* A required, non-empty string member. */
static int name_member(const char **out, reader *r, const cJSON *obj, const char *key)
{
    int rc = tally__json_string(out, obj, key, 1, r->name, &r->path);
    if (rc == TALLY_OK && (*out)[0] == '\0')
        return fail_at_key(r, TALLY_EPARSE, key, "expected a non-empty string");
    return rc;
}

/* Metadata: an object whose members are strings, numbers or booleans (kept as text). */
typedef int (*meta_setter)(void *owner, const char *key, const char *value);

static int set_rs_meta(void *rs, const char *key, const char *value)
{
    return tally_resultset_meta_set(rs, key, value);
}

static int set_case_meta(void *c, const char *key, const char *value)
{
    return tally_case_meta_set(c, key, value);
}

static int read_metadata(reader *r, const cJSON *obj, void *owner, meta_setter set)
{
    const cJSON *meta;
    int rc = tally__json_object(&meta, obj, "metadata", 0, r->name, &r->path);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(&r->path, "metadata");
    const cJSON *item;
    cJSON_ArrayForEach(item, meta)
    {
        char number[32];
        const char *value = NULL;
        if (cJSON_IsString(item)) {
            value = item->valuestring;
        } else if (cJSON_IsBool(item)) {
            value = cJSON_IsTrue(item) ? "true" : "false";
        } else if (cJSON_IsNumber(item)) {
            tally__number_format(number, item->valuedouble);
            value = number;
        } else {
            rc = fail_at_key(r, TALLY_EPARSE, item->string,
                             "expected a string, number or boolean, found %s", tally__json_type_name(item));
            break;
        }
        if (item->string[0] == '\0') {
            rc = tally__error_json(TALLY_EPARSE, r->name, r->path.text,
                                   "metadata keys must not be empty");
            break;
        }
        if ((rc = set(owner, item->string, value)) != TALLY_OK)
            break;
    }
    tally__jpath_pop(&r->path, mark);
    return rc;
}

static int read_samples(reader *r, const cJSON *case_obj, tally_case *c)
{
    const cJSON *samples;
    int rc = tally__json_array(&samples, case_obj, "samples", 1, r->name, &r->path);
    if (rc != TALLY_OK)
        return rc;
    double *x;
    size_t count, cap;
    size_t mark = tally__jpath_key(&r->path, "samples");
    rc = tally__json_doc_take(&x, &count, &cap, r->doc, samples, 0, &r->path);
    tally__jpath_pop(&r->path, mark);
    if (rc == TALLY_OK && count == 0)
        rc = fail_at_key(r, TALLY_ENODATA, "samples", "expected at least one sample");
    if (rc != TALLY_OK) {
        tally__free_mem(x);
        return rc;
    }
    rc = tally__case_adopt(c, x, count, cap);
    /* The samples now live in the case: drop their tree nodes (when the text went to cJSON
     * whole), which cost several times more. */
    if (rc == TALLY_OK)
        cJSON_DeleteItemFromObjectCaseSensitive((cJSON *)case_obj, "samples");
    return rc;
}

static int read_case(reader *r, const cJSON *obj, tally_benchmark *b)
{
    const char *name;
    int rc = name_member(&name, r, obj, "name");
    if (rc != TALLY_OK)
        return rc;
    if (tally_benchmark_case_find(b, name))
        return fail_at_key(r, TALLY_EEXISTS, "name", "duplicate case name '%s'", name);
    tally_case *c;
    if ((rc = tally_benchmark_case_add(&c, b, name)) != TALLY_OK)
        return rc;
    if ((rc = read_metadata(r, obj, c, set_case_meta)) != TALLY_OK)
        return rc;
    /* A summary-only case holds "summary" instead of "samples" (docs/formats.md). */
    if (cJSON_GetObjectItemCaseSensitive(obj, "summary") != NULL) {
        if (cJSON_GetObjectItemCaseSensitive(obj, "samples") != NULL)
            return fail_at_key(r, TALLY_EPARSE, "summary", "a case holds \"samples\" or "
                                                           "\"summary\", not both");
        return tally__json_case_summary(c, obj, "summary", r->name, &r->path);
    }
    return read_samples(r, obj, c);
}

static int read_direction(tally_direction *out, reader *r, const cJSON *obj, const char *unit)
{
    const char *word;
    int rc = tally__json_string(&word, obj, "better", 0, r->name, &r->path);
    if (rc == TALLY_ENOTFOUND) {
        *out = tally__direction_for_unit(unit);
        return TALLY_OK;
    }
    if (rc != TALLY_OK)
        return rc;
    if (tally_direction_from_name(out, word) != TALLY_OK)
        return fail_at_key(r, TALLY_EPARSE, "better", "expected \"lower\" or \"higher\", found \"%s\"",
                           word);
    return TALLY_OK;
}

static int read_statistic(reader *r, const cJSON *obj, tally_benchmark *b)
{
    const char *word;
    tally_statistic stat;
    int rc = tally__json_string(&word, obj, "statistic", 0, r->name, &r->path);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    if (tally_statistic_from_name(&stat, word) != TALLY_OK)
        return fail_at_key(r, TALLY_EPARSE, "statistic",
                           "expected amean, hmean, gmean, median, min, max, bamean or default, "
                           "found \"%s\"",
                           word);
    return tally_benchmark_set_statistic(b, stat);
}

/* Calls read_one for each element of the array member `key`, with the path pointing at it. */
typedef int (*element_reader)(reader *r, const cJSON *item, void *parent);

static int for_each(reader *r, const cJSON *obj, const char *key, void *parent,
                    element_reader read_one)
{
    const cJSON *array;
    int rc = tally__json_array(&array, obj, key, 1, r->name, &r->path);
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(&r->path, key);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array)
    {
        size_t at = tally__jpath_index(&r->path, i++);
        if (!cJSON_IsObject(item))
            rc = tally__error_json(TALLY_EPARSE, r->name, r->path.text,
                                   "expected an object, found %s", tally__json_type_name(item));
        else
            rc = read_one(r, item, parent);
        tally__jpath_pop(&r->path, at);
        if (rc != TALLY_OK)
            break;
    }
    tally__jpath_pop(&r->path, mark);
    return rc;
}

static int read_case_element(reader *r, const cJSON *item, void *b)
{
    return read_case(r, item, b);
}

static int read_benchmark(reader *r, const cJSON *obj, void *rs)
{
    const char *name, *unit;
    int rc = name_member(&name, r, obj, "name");
    if (rc != TALLY_OK)
        return rc;
    if (tally_resultset_benchmark_find(rs, name))
        return fail_at_key(r, TALLY_EEXISTS, "name", "duplicate benchmark name '%s'", name);
    rc = tally__json_string(&unit, obj, "unit", 0, r->name, &r->path);
    if (rc == TALLY_ENOTFOUND)
        unit = "";
    else if (rc != TALLY_OK)
        return rc;
    tally_direction dir;
    if ((rc = read_direction(&dir, r, obj, unit)) != TALLY_OK)
        return rc;
    tally_benchmark *b;
    if ((rc = tally_resultset_benchmark_add(&b, rs, name, unit, dir)) != TALLY_OK)
        return rc;
    if ((rc = read_statistic(r, obj, b)) != TALLY_OK)
        return rc;
    return for_each(r, obj, "cases", b, read_case_element);
}

static int read_result(reader *r, const cJSON *obj, void *list)
{
    const char *label;
    int rc = name_member(&label, r, obj, "label");
    if (rc != TALLY_OK)
        return rc;
    if (tally_results_find(list, label))
        return fail_at_key(r, TALLY_EEXISTS, "label", "duplicate label '%s'", label);
    tally_resultset *rs;
    if ((rc = tally_resultset_new(&rs, label)) != TALLY_OK)
        return rc;
    if ((rc = tally_results_add(list, rs)) != TALLY_OK) {
        tally_resultset_free(rs);
        return rc;
    }
    if ((rc = read_metadata(r, obj, rs, set_rs_meta)) != TALLY_OK)
        return rc;
    return for_each(r, obj, "benchmarks", rs, read_benchmark);
}

static int read_header(reader *r, const cJSON *root)
{
    const char *format;
    int rc = cJSON_IsObject(root)
                 ? tally__json_string(&format, root, "format", 0, r->name, &r->path)
                 : TALLY_ENOTFOUND;
    if (rc == TALLY_ENOTFOUND)
        return tally__error_json(TALLY_EFORMAT, r->name, r->path.text,
                                 "not a tally results file (no \"format\": \"%s\")",
                                 TALLY__NATIVE_FORMAT);
    if (rc != TALLY_OK)
        return rc;
    if (strcmp(format, TALLY__NATIVE_FORMAT) != 0)
        return fail_at_key(r, TALLY_EFORMAT, "format",
                           "expected \"" TALLY__NATIVE_FORMAT "\", found \"%s\"", format);
    double version;
    if ((rc = tally__json_number(&version, root, "version", 1, r->name, &r->path)) != TALLY_OK)
        return rc;
    if (version < 1 || version > 1e9 || version != (double)(long)version)
        return fail_at_key(r, TALLY_EPARSE, "version", "expected a whole number >= 1");
    if (version > TALLY__NATIVE_VERSION)
        return fail_at_key(r, TALLY_EFORMAT, "version",
                           "version %.0f is newer than this tally reads (%d): upgrade tally",
                           version, TALLY__NATIVE_VERSION);
    return TALLY_OK;
}

static int parse_native_json(tally_results *into, const char *data, size_t len, const char *name,
                             const tally_load_options *opts)
{
    (void)opts;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3;
        len -= 3;
    }
    tally__json_doc doc;
    int rc = tally__json_doc_parse(&doc, data, len, name, &samples_cut);
    if (rc != TALLY_OK) {
        tally__json_doc_free(&doc);
        return rc;
    }
    reader r;
    memset(&r, 0, sizeof(r));
    r.name = name;
    r.doc = &doc;
    tally__jpath_init(&r.path);
    rc = read_header(&r, doc.root);
    if (rc == TALLY_OK)
        rc = for_each(&r, doc.root, "results", into, read_result);
    tally__json_doc_free(&doc);
    return rc;
}

const tally__importer tally__importer_native_json = {
    .kind = TALLY_INPUT_NATIVE_JSON, .name = "json", .sniff = sniff_native_json,
    .parse = parse_native_json,
    .configs = "its result sets' labels",
};
