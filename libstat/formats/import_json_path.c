/* Any JSON file, read where the caller's paths say (docs/importers.md, "JSON paths"): the load
 * options samples_path (`--samples '$.benchmarks[*].stats.data'`), case_path (`--case
 * '$.benchmarks[*].name'`) and unit_path. A path is `$` then steps: `.name` or `['name']` (a
 * member), `[N]` (an element), `[*]` or `.*` (every element of an array, every member value of
 * an object, in order). Each value the samples path reaches is one case: an array of numbers
 * (its samples), or a number (one sample). The case path reaches as many strings or numbers
 * (the case names, in the same order); without it the cases are "1", "2", ... The unit path
 * reaches one string (the unit of all) or one per case, all equal. The file is one
 * configuration (the caller's label) of one benchmark ("json", or --benchmark). Errors name the
 * JSON path of the value at fault. Never chosen by detection: the caller asks for it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "model/units.h"
#include "util/internal.h"
#include "util/json_util.h"

/* One step of a path: a member name, an index, or every child. */
typedef struct step {
    enum { MEMBER, INDEX, EVERY } kind;
    char *name;
    size_t index;
} step;

typedef struct path {
    const char *text; /* as the caller wrote it, for messages */
    const char *what; /* "--samples" ... */
    step *steps;
    size_t count;
} path;

static void path_free(path *p)
{
    for (size_t i = 0; i < p->count; i++)
        tally__free_mem(p->steps[i].name);
    tally__free_mem(p->steps);
    p->steps = NULL;
    p->count = 0;
}

static int bad_path(const path *p, size_t at, const char *why)
{
    return tally__error(TALLY_EINVAL, "%s '%s': %s at character %zu (a path is $ then .name, "
                                      "['name'], [N] or [*] steps)",
                        p->what, p->text, why, at + 1);
}

static int add_step(path *p, int kind, const char *name, size_t len, size_t index)
{
    step *grown = tally__reallocarray(p->steps, p->count + 1, sizeof *grown);
    if (grown == NULL)
        return tally__oom();
    p->steps = grown;
    step *s = &p->steps[p->count];
    s->kind = kind;
    s->index = index;
    s->name = NULL;
    if (kind == MEMBER && (s->name = tally__strndup(name, len)) == NULL)
        return tally__oom();
    p->count++;
    return TALLY_OK;
}

static int parse_path(path *p, const char *text, const char *what)
{
    p->text = text;
    p->what = what;
    p->steps = NULL;
    p->count = 0;
    const char *s = text;
    if (s[0] != '$')
        return bad_path(p, 0, "expected '$'");
    size_t i = 1;
    int rc = TALLY_OK;
    while (rc == TALLY_OK && s[i]) {
        if (s[i] == '.') {
            size_t start = ++i;
            if (s[i] == '*') {
                rc = add_step(p, EVERY, NULL, 0, 0);
                i++;
                continue;
            }
            while (s[i] && s[i] != '.' && s[i] != '[')
                i++;
            if (i == start)
                return bad_path(p, start, "expected a member name");
            rc = add_step(p, MEMBER, s + start, i - start, 0);
        } else if (s[i] == '[') {
            i++;
            if (s[i] == '*' && s[i + 1] == ']') {
                rc = add_step(p, EVERY, NULL, 0, 0);
                i += 2;
            } else if (s[i] == '\'' || s[i] == '"') {
                char quote = s[i];
                size_t start = ++i;
                while (s[i] && s[i] != quote)
                    i++;
                if (s[i] != quote || s[i + 1] != ']')
                    return bad_path(p, i, "expected a quoted name and ']'");
                rc = add_step(p, MEMBER, s + start, i - start, 0);
                i += 2;
            } else if (s[i] >= '0' && s[i] <= '9') {
                size_t index = 0;
                while (s[i] >= '0' && s[i] <= '9' && index < ((size_t)1 << 40))
                    index = index * 10 + (size_t)(s[i++] - '0');
                if (s[i] != ']')
                    return bad_path(p, i, "expected ']'");
                rc = add_step(p, INDEX, NULL, 0, index);
                i++;
            } else {
                return bad_path(p, i, "expected *, a number or a quoted name");
            }
        } else {
            return bad_path(p, i, "expected '.' or '['");
        }
    }
    return rc;
}

/* What a path reached: the values and their concrete paths. */
typedef struct matches {
    const cJSON **items;
    char **where;
    size_t count;
} matches;

static void matches_free(matches *m)
{
    for (size_t i = 0; i < m->count; i++)
        tally__free_mem(m->where[i]);
    tally__free_mem(m->where);
    tally__free_mem(m->items);
    memset(m, 0, sizeof *m);
}

static int keep(matches *m, const cJSON *v, const tally__jpath *at)
{
    const cJSON **items = tally__reallocarray(m->items, m->count + 1, sizeof *items);
    if (items == NULL)
        return tally__oom();
    m->items = items;
    char **where = tally__reallocarray(m->where, m->count + 1, sizeof *where);
    if (where == NULL)
        return tally__oom();
    m->where = where;
    if ((m->where[m->count] = tally__strdup(at->text)) == NULL)
        return tally__oom();
    m->items[m->count++] = v;
    return TALLY_OK;
}

/* Every value under `v` that steps[k..] reach; `missing` gets the first concrete path where a
 * member or element was absent (for the message when nothing matches). */
static int walk(matches *m, const path *p, size_t k, const cJSON *v, tally__jpath *at,
                char *missing, size_t room)
{
    if (k == p->count)
        return keep(m, v, at);
    const step *s = &p->steps[k];
    int rc = TALLY_OK;
    if (s->kind == MEMBER) {
        const cJSON *child = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, s->name)
                                               : NULL;
        size_t mark = tally__jpath_key(at, s->name);
        if (child)
            rc = walk(m, p, k + 1, child, at, missing, room);
        else if (missing[0] == '\0')
            snprintf(missing, room, "%s", at->text);
        tally__jpath_pop(at, mark);
    } else if (s->kind == INDEX) {
        const cJSON *child = cJSON_IsArray(v) && s->index < (size_t)cJSON_GetArraySize(v)
                                 ? cJSON_GetArrayItem(v, (int)s->index)
                                 : NULL;
        size_t mark = tally__jpath_index(at, s->index);
        if (child)
            rc = walk(m, p, k + 1, child, at, missing, room);
        else if (missing[0] == '\0')
            snprintf(missing, room, "%s", at->text);
        tally__jpath_pop(at, mark);
    } else {
        const cJSON *child;
        size_t i = 0;
        cJSON_ArrayForEach(child, v) {
            if (!cJSON_IsArray(v) && !cJSON_IsObject(v))
                break;
            size_t mark = cJSON_IsArray(v) ? tally__jpath_index(at, i) : tally__jpath_key(at, child->string);
            rc = walk(m, p, k + 1, child, at, missing, room);
            tally__jpath_pop(at, mark);
            if (rc != TALLY_OK)
                break;
            i++;
        }
        if (i == 0 && missing[0] == '\0')
            snprintf(missing, room, "%s (%s)", at->text,
                     cJSON_IsArray(v) || cJSON_IsObject(v) ? "empty" : "not an array or object");
    }
    return rc;
}

/* The values `text` reaches in root; TALLY_ENODATA when none. */
static int find(matches *m, const char *text, const char *what, const cJSON *root,
                const char *name)
{
    path p;
    memset(m, 0, sizeof *m);
    int rc = parse_path(&p, text, what);
    if (rc == TALLY_OK) {
        tally__jpath at;
        tally__jpath_init(&at);
        char missing[sizeof at.text + 32] = "";
        rc = walk(m, &p, 0, root, &at, missing, sizeof missing);
        if (rc == TALLY_OK && m->count == 0)
            rc = tally__error_json(TALLY_ENODATA, name, missing[0] ? missing : "$",
                                   "%s '%s' reaches nothing: nothing at this path", what, text);
    }
    path_free(&p);
    return rc;
}

/* A case name or unit: a string, or a number as text. */
static int text_of(char *out, size_t room, const cJSON *v, const char *where, const char *name,
                   const char *what)
{
    if (cJSON_IsString(v) && v->valuestring[0] != '\0') {
        /* Refused rather than cut: a cut text would be another name (or invalid UTF-8). */
        size_t len = strlen(v->valuestring);
        if (len >= room)
            return tally__error_json(TALLY_ELIMIT, name, where, "a %s of %zu bytes: longer "
                                                                "than the %zu this reader keeps",
                                     what, len, room - 1);
        memcpy(out, v->valuestring, len + 1);
        return TALLY_OK;
    }
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        tally__number_format(out, v->valuedouble);
        return TALLY_OK;
    }
    return tally__error_json(TALLY_EPARSE, name, where, "expected a %s (a non-empty string or a "
                                                        "number), found %s",
                             what, tally__json_type_name(v));
}

static int add_samples(tally_case *c, const cJSON *v, const char *where, const char *name)
{
    tally__jpath at;
    snprintf(at.text, sizeof at.text, "%s", where);
    at.len = strlen(at.text);
    double x;
    if (cJSON_IsNumber(v)) {
        int rc = tally__json_finite(&x, v, name, &at);
        return rc ? rc : tally_case_append(c, &x, 1);
    }
    if (!cJSON_IsArray(v))
        return tally__error_json(TALLY_EPARSE, name, where, "expected an array of numbers or a "
                                                            "number, found %s",
                                 tally__json_type_name(v));
    if (cJSON_GetArraySize(v) == 0)
        return tally__error_json(TALLY_ENODATA, name, where, "empty sample list");
    const cJSON *e;
    size_t i = 0;
    cJSON_ArrayForEach(e, v) {
        size_t mark = tally__jpath_index(&at, i++);
        int rc = tally__json_finite(&x, e, name, &at);
        tally__jpath_pop(&at, mark);
        if (rc == TALLY_OK)
            rc = tally_case_append(c, &x, 1);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

static int read_unit(char *unit, size_t room, const cJSON *root, size_t cases, const char *name,
                     const tally_load_options *opts)
{
    unit[0] = '\0';
    if (opts->unit_path == NULL)
        return TALLY_OK;
    matches u;
    int rc = find(&u, opts->unit_path, "--unit", root, name);
    if (rc == TALLY_OK && u.count != 1 && u.count != cases)
        rc = tally__error_json(TALLY_EINVAL, name, u.where[0],
                               "--unit '%s' reaches %zu values: expected one, or one per case "
                               "(%zu)", opts->unit_path, u.count, cases);
    char other[128];
    for (size_t i = 0; rc == TALLY_OK && i < u.count; i++) {
        rc = text_of(i ? other : unit, i ? sizeof other : room, u.items[i], u.where[i], name,
                     "unit");
        if (rc == TALLY_OK && i && strcmp(other, unit) != 0)
            rc = tally__error_json(TALLY_EMISMATCH, name, u.where[i],
                                   "unit '%s' here but '%s' at %s: the cases of one benchmark "
                                   "share a unit", other, unit, u.where[0]);
    }
    matches_free(&u);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    if (opts == NULL || opts->samples_path == NULL)
        return tally__error_at(TALLY_EINVAL, name, 0, 0,
                               "the json-path reader needs the samples' path (--samples PATH, "
                               "load option samples_path)");
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, data, len, name);
    if (rc != TALLY_OK)
        return rc;
    matches s, c;
    memset(&c, 0, sizeof c);
    rc = find(&s, opts->samples_path, "--samples", root, name);
    if (rc == TALLY_OK && opts->case_path) {
        rc = find(&c, opts->case_path, "--case", root, name);
        if (rc == TALLY_OK && c.count != s.count)
            rc = tally__error_json(TALLY_EMISMATCH, name, c.where[0],
                                   "--case '%s' reaches %zu names but --samples '%s' %zu sample "
                                   "lists: expected one name per list",
                                   opts->case_path, c.count, opts->samples_path, s.count);
    }
    char unit[128];
    if (rc == TALLY_OK)
        rc = read_unit(unit, sizeof unit, root, s.count, name, opts);
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    if (rc == TALLY_OK)
        rc = tally__import_begin(&rs, into, name, opts, "json");
    if (rc == TALLY_OK)
        rc = tally_resultset_benchmark_add(&b, rs, tally__import_name(opts, "json"), unit,
                                           tally__direction_for_unit(unit));
    for (size_t i = 0; rc == TALLY_OK && i < s.count; i++) {
        char cn[256];
        if (opts->case_path)
            rc = text_of(cn, sizeof cn, c.items[i], c.where[i], name, "case name");
        else
            snprintf(cn, sizeof cn, "%zu", i + 1);
        tally_case *k = NULL;
        if (rc == TALLY_OK && tally_benchmark_case_find(b, cn))
            rc = tally__error_json(TALLY_EEXISTS, name, opts->case_path ? c.where[i] : s.where[i],
                                   "a second case named '%s'", cn);
        if (rc == TALLY_OK)
            rc = tally_benchmark_case_add(&k, b, cn);
        if (rc == TALLY_OK)
            rc = add_samples(k, s.items[i], s.where[i], name);
    }
    matches_free(&s);
    matches_free(&c);
    cJSON_Delete(root);
    return rc;
}

/* Detection never picks it: only the caller's paths say how to read a file. */
static int sniff(const char *data, size_t len)
{
    (void)data;
    (void)len;
    return 0;
}

const tally__importer tally__importer_json_path = {
    .name = "json-path", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK,
};
