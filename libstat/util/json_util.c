/* JSON helpers: parse with positions, typed access (the paths themselves: json_path.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/utf8.h"
#include "util/json_util.h"

int tally__json_each(const cJSON *array, const char *key, tally__jpath *p,
                     int (*each)(void *ctx, const cJSON *item, tally__jpath *p), void *ctx)
{
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        size_t mark = key ? tally__jpath_key(p, key) : p->len;
        tally__jpath_index(p, i++);
        int rc = each(ctx, item, p);
        tally__jpath_pop(p, mark);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* Open brackets before `stop`, and whether the input ends inside a string or an open
 * container: cJSON reports neither cause, only where it gave up. */
static void scan_structure(const char *data, size_t len, const char *stop, size_t *depth_at_stop,
                           int *unclosed)
{
    size_t depth = 0;
    int in_string = 0;
    *depth_at_stop = 0;
    for (const char *c = data; c < data + len; c++) {
        if (c == stop)
            *depth_at_stop = depth;
        if (in_string) {
            if (*c == '\\' && c + 1 < data + len)
                c++;
            else if (*c == '"')
                in_string = 0;
        } else if (*c == '"') {
            in_string = 1;
        } else if (*c == '[' || *c == '{') {
            depth++;
        } else if ((*c == ']' || *c == '}') && depth > 0) {
            depth--;
        }
    }
    *unclosed = in_string || depth > 0;
}

/* Keys are compared in sorted order when an object has more than this many members. */
#define DUP_SCAN_MAX 24

static int key_order(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* The first key of `obj` that appears twice (a key of a duplicated pair), or NULL. */
static const char *duplicate_key(const cJSON *obj, int *oom)
{
    size_t n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        n++;
    if (n <= DUP_SCAN_MAX) {
        for (const cJSON *c = obj->child; c; c = c->next)
            for (const cJSON *d = obj->child; d != c; d = d->next)
                if (strcmp(c->string, d->string) == 0)
                    return c->string;
        return NULL;
    }
    const cJSON **keys = tally__calloc(n, sizeof(*keys));
    if (keys == NULL) {
        *oom = 1;
        return NULL;
    }
    size_t i = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        keys[i++] = c;
    qsort(keys, n, sizeof(*keys), key_order);
    const char *dup = NULL;
    for (i = 1; i < n && dup == NULL; i++)
        if (strcmp(keys[i - 1]->string, keys[i]->string) == 0)
            dup = keys[i]->string;
    tally__free_mem(keys);
    return dup;
}

/* Refuse what cJSON lets through: a key twice in one object (cJSON would keep the first and
 * drop the other silently). */
static int check_tree(const cJSON *item, const char *name, tally__jpath *path)
{
    if (cJSON_IsObject(item)) {
        int oom = 0;
        const char *dup = duplicate_key(item, &oom);
        if (oom)
            return tally__error(TALLY_ENOMEM, "out of memory");
        if (dup != NULL) {
            size_t mark = tally__jpath_key(path, dup);
            tally__error_json(TALLY_EPARSE, name, path->text,
                              "duplicate key \"%s\" in one object: keep one of them", dup);
            tally__jpath_pop(path, mark);
            return TALLY_EPARSE;
        }
    }
    size_t index = 0;
    for (const cJSON *c = item->child; c; c = c->next, index++) {
        if (!cJSON_IsObject(c) && !cJSON_IsArray(c))
            continue; /* numbers and strings hold no keys */
        size_t mark = cJSON_IsObject(item) ? tally__jpath_key(path, c->string)
                                           : tally__jpath_index(path, index);
        int rc = check_tree(c, name, path);
        tally__jpath_pop(path, mark);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

static int parse(cJSON **out, const char *data, size_t len, const char *name, int strict)
{
    *out = NULL;
    unsigned long line, col;
    const char *nul = memchr(data, '\0', len);
    if (nul) {
        tally__text_position(data, nul, &line, &col);
        return tally__error_at(TALLY_EFORMAT, name, line, col,
                               "NUL byte in a JSON file (is this a binary file?)");
    }
    int checked = strict ? tally__check_utf8(data, len, name) : TALLY_OK;
    if (checked != TALLY_OK)
        return checked;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(data, len, &end, 0);
    if (root == NULL) {
        if (end == NULL || end < data || end > data + len)
            end = data + len;
        size_t depth;
        int unclosed;
        scan_structure(data, len, end, &depth, &unclosed);
        if (depth >= CJSON_NESTING_LIMIT) {
            tally__text_position(data, end, &line, &col);
            return tally__error_at(TALLY_ELIMIT, name, line, col,
                                   "JSON nested deeper than %d levels", CJSON_NESTING_LIMIT);
        }
        if (unclosed || end >= data + len) {
            tally__text_position(data, data + len, &line, &col);
            return tally__error_at(TALLY_EPARSE, name, line, col,
                                   "unexpected end of JSON input (truncated file?)");
        }
        tally__text_position(data, end, &line, &col);
        /* The input need not be NUL-terminated: quote at most what is left of it. */
        size_t left = (size_t)(data + len - end);
        int quoted = left < 16 ? (int)left : 16;
        return tally__error_at(TALLY_EPARSE, name, line, col, "invalid JSON near '%.*s'", quoted,
                               end);
    }
    /* Only white space may follow the document. */
    while (end < data + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
        end++;
    if (end < data + len) {
        tally__text_position(data, end, &line, &col);
        cJSON_Delete(root);
        return tally__error_at(TALLY_EPARSE, name, line, col, "unexpected data after the JSON document");
    }
    int numbers = tally__json_check_numbers(data, len, name);
    if (numbers != TALLY_OK) {
        cJSON_Delete(root);
        return numbers;
    }
    tally__jpath path;
    tally__jpath_init(&path);
    int rc = strict ? check_tree(root, name, &path) : TALLY_OK;
    if (rc != TALLY_OK) {
        cJSON_Delete(root);
        return rc;
    }
    *out = root;
    return TALLY_OK;
}

int tally__json_parse(cJSON **out, const char *data, size_t len, const char *name)
{
    return parse(out, data, len, name, 1);
}

int tally__json_parse_tool_output(cJSON **out, const char *data, size_t len, const char *name)
{
    return parse(out, data, len, name, 0);
}

const char *tally__json_type_name(const cJSON *item)
{
    if (cJSON_IsString(item))
        return "a string";
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsArray(item))
        return "an array";
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsBool(item))
        return "a boolean";
    if (cJSON_IsNull(item))
        return "null";
    return "an invalid value";
}

typedef int (*type_check)(const cJSON *);

static int member(const cJSON **out, const cJSON *obj, const char *key, int required,
                  const char *name, tally__jpath *path, type_check is, const char *want)
{
    *out = NULL;
    if (!cJSON_IsObject(obj))
        return tally__error_json(TALLY_EPARSE, name, path->text, "expected an object, found %s",
                                 tally__json_type_name(obj));
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (item == NULL) {
        if (!required)
            return TALLY_ENOTFOUND;
        return tally__error_json(TALLY_EPARSE, name, path->text, "missing member \"%s\" (%s)", key,
                                 want);
    }
    if (!is(item)) {
        size_t mark = tally__jpath_key(path, key);
        tally__error_json(TALLY_EPARSE, name, path->text, "expected %s, found %s", want,
                          tally__json_type_name(item));
        tally__jpath_pop(path, mark);
        return TALLY_EPARSE;
    }
    *out = item;
    return TALLY_OK;
}

static int is_string(const cJSON *i) { return cJSON_IsString(i); }
static int is_number(const cJSON *i) { return cJSON_IsNumber(i); }
static int is_array(const cJSON *i) { return cJSON_IsArray(i); }
static int is_object(const cJSON *i) { return cJSON_IsObject(i); }

int tally__json_string(const char **out, const cJSON *obj, const char *key, int required,
                       const char *name, tally__jpath *path)
{
    const cJSON *item;
    int rc = member(&item, obj, key, required, name, path, is_string, "a string");
    *out = rc == TALLY_OK ? item->valuestring : NULL;
    return rc;
}

int tally__json_number(double *out, const cJSON *obj, const char *key, int required,
                       const char *name, tally__jpath *path)
{
    const cJSON *item;
    int rc = member(&item, obj, key, required, name, path, is_number, "a number");
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(path, key);
    rc = tally__json_finite(out, item, name, path);
    tally__jpath_pop(path, mark);
    return rc;
}

int tally__json_array(const cJSON **out, const cJSON *obj, const char *key, int required,
                      const char *name, tally__jpath *path)
{
    return member(out, obj, key, required, name, path, is_array, "an array");
}

int tally__json_object(const cJSON **out, const cJSON *obj, const char *key, int required,
                       const char *name, tally__jpath *path)
{
    return member(out, obj, key, required, name, path, is_object, "an object");
}

int tally__json_finite(double *out, const cJSON *item, const char *name, tally__jpath *path)
{
    if (!cJSON_IsNumber(item))
        return tally__error_json(TALLY_EPARSE, name, path->text, "expected a number, found %s",
                                 tally__json_type_name(item));
    /* cJSON turns out-of-range literals such as 1e999 into infinity. */
    if (!isfinite(item->valuedouble))
        return tally__error_json(TALLY_ENONFINITE, name, path->text, "number is not finite");
    *out = item->valuedouble;
    return TALLY_OK;
}
