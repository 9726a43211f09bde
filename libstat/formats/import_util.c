/* Shared plumbing of the importers of other harnesses' files. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

int tally__import_begin(tally_resultset **out, tally_results *into, const char *name,
                        const tally_load_options *opts, const char *harness)
{
    *out = NULL;
    char *label = NULL;
    if (opts && opts->label && opts->label[0]) {
        label = tally__strdup(opts->label);
    } else {
        /* "runs/tip.json" -> "tip": the label a user would type on a command line. */
        const char *base = name ? name : "";
        const char *slash = strrchr(base, '/');
        if (slash)
            base = slash + 1;
        const char *dot = strrchr(base, '.');
        size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
        label = n ? tally__strndup(base, n) : tally__strdup(harness);
    }
    if (label == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int rc = tally__import_config(out, into, label, harness);
    tally__free_mem(label);
    return rc;
}

int tally__import_config(tally_resultset **out, tally_results *into, const char *label,
                         const char *harness)
{
    *out = tally_results_find(into, label);
    if (*out)
        return TALLY_OK;
    tally_resultset *rs = NULL;
    int rc = tally_resultset_new(&rs, label);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "harness", harness);
    if (rc == TALLY_OK)
        rc = tally_results_add(into, rs);
    if (rc != TALLY_OK) {
        tally_resultset_free(rs);
        return rc;
    }
    *out = rs;
    return TALLY_OK;
}

int tally__import_config_key_is(const tally_load_options *opts, const char *key)
{
    return opts && opts->config_key && strcmp(opts->config_key, key) == 0;
}

int tally__import_note_split(tally_results *into, const char *name, const char *by)
{
    size_t count = tally_results_count(into);
    if (count < 2)
        return TALLY_OK;
    tally__buf note = TALLY__BUF_INIT;
    tally__buf_printf(&note, "%s: %zu configurations by %s:", name, count, by);
    for (size_t i = 0; i < count; i++)
        tally__buf_printf(&note, "%s '%s'", i ? "," : "",
                          tally_resultset_label(tally_results_at(into, i)));
    int rc = note.failed ? tally__oom() : tally_results_note_add(into, note.data);
    tally__buf_dispose(&note);
    return rc;
}

const char *tally__import_name(const tally_load_options *opts, const char *fallback)
{
    return opts && opts->benchmark && opts->benchmark[0] ? opts->benchmark : fallback;
}

int tally__import_benchmark(tally_benchmark **out, tally_resultset *rs, const char *bench,
                            const char *unit, tally_direction direction)
{
    tally_benchmark *b = tally_resultset_benchmark_find(rs, bench);
    if (b == NULL)
        return tally_resultset_benchmark_add(out, rs, bench, unit, direction);
    *out = b;
    if (strcmp(tally_benchmark_unit(b), unit ? unit : "") != 0 ||
        tally_benchmark_direction(b) != direction)
        return TALLY_EMISMATCH;
    return TALLY_OK;
}

int tally__import_case(tally_case **out, tally_benchmark *b, const char *name)
{
    *out = tally_benchmark_case_find(b, name);
    if (*out)
        return TALLY_OK;
    return tally_benchmark_case_add(out, b, name);
}

int tally__import_sample(tally_resultset *rs, const char *bench, const char *unit,
                         tally_direction direction, const char *casename, double value)
{
    tally_benchmark *b;
    tally_case *c;
    int rc = tally__import_benchmark(&b, rs, bench, unit, direction);
    if (rc == TALLY_OK)
        rc = tally__import_case(&c, b, casename);
    if (rc == TALLY_OK)
        rc = tally_case_append(c, &value, 1);
    return rc;
}

int tally__buckets_add(tally__buckets *b, const double *values, const uint64_t *counts, size_t n,
                       double resolution)
{
    if (n > SIZE_MAX / 2 - b->n)
        return tally__oom();
    size_t need = b->n + n;
    double *v = tally__reallocarray(NULL, need ? need : 1, sizeof *v);
    uint64_t *k = tally__reallocarray(NULL, need ? need : 1, sizeof *k);
    if (v == NULL || k == NULL) {
        tally__free_mem(v);
        tally__free_mem(k);
        return tally__oom();
    }
    size_t i = 0, j = 0, m = 0;
    while (i < b->n || j < n) {
        if (j == n || (i < b->n && b->values[i] < values[j])) {
            v[m] = b->values[i];
            k[m++] = b->counts[i++];
        } else if (i == b->n || values[j] < b->values[i]) {
            v[m] = values[j];
            k[m++] = counts[j++];
        } else {
            if (counts[j] > UINT64_MAX - b->counts[i]) {
                tally__free_mem(v);
                tally__free_mem(k);
                return tally__error(TALLY_ELIMIT, "histogram counts add up to more than 2^64 - 1");
            }
            v[m] = values[j];
            k[m++] = b->counts[i++] + counts[j++];
        }
    }
    tally__free_mem(b->values);
    tally__free_mem(b->counts);
    b->values = v;
    b->counts = k;
    b->n = m;
    b->cap = need;
    if (resolution > b->resolution)
        b->resolution = resolution;
    return TALLY_OK;
}

int tally__buckets_flush(tally__buckets *b, tally_case *c)
{
    int rc = b->n ? tally_case_histogram_append(c, b->values, b->counts, b->n, b->resolution)
                  : TALLY_OK;
    tally__buckets_free(b);
    return rc;
}

void tally__buckets_free(tally__buckets *b)
{
    tally__free_mem(b->values);
    tally__free_mem(b->counts);
    memset(b, 0, sizeof *b);
}

void tally__intervals_note(tally__buf *b, const tally_load_options *opts, const char *per,
                           size_t empty)
{
    if (opts->interval_runs)
        tally__buf_printf(b, ", each a run");
    else
        tally__buf_printf(b, ", pooled into one run per %s", per);
    if (empty)
        tally__buf_printf(b, " (%zu empty left out)", empty);
}

int tally__intervals_kept(const char *name, size_t intervals, size_t kept,
                          const tally_load_options *opts, const char *where, const char *start)
{
    if (kept > 0)
        return TALLY_OK;
    return tally__error_at(TALLY_ENODATA, name, 0, 0,
                           "none of the %zu intervals %s the time range %g to %g s after the "
                           "%s's start",
                           intervals, where, opts->time_start, opts->time_end, start);
}

int tally__import_meta_number(tally_case *c, const char *key, double value)
{
    char text[32];
    tally__number_format(text, value);
    return tally_case_meta_set(c, key, text);
}

size_t tally__split_fields(tally__field *f, size_t max, const char *line, size_t len)
{
    size_t count = 0, i = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            i++;
        if (i >= len)
            break;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            i++;
        if (count < max) {
            f[count].s = line + start;
            f[count].len = i - start;
            f[count].col = (unsigned long)start + 1;
        }
        count++;
    }
    return count;
}

int tally__field_is(const tally__field *f, const char *word)
{
    return strlen(word) == f->len && memcmp(f->s, word, f->len) == 0;
}

int tally__field_case_name(char *out, size_t room, const tally__field *f, const char *suffix,
                           const char *what, const char *name, unsigned long line)
{
    /* Refused rather than cut: a cut text would name another case, or end inside a UTF-8
     * character (a count's text may run to TALLY__NUMBER_MAX bytes, "0000...2"). */
    size_t keep = room - strlen(suffix) - 1;
    if (f->len > keep)
        return tally__error_at(TALLY_ELIMIT, name, line, f->col,
                               "a %s of %zu bytes: longer than the %zu this reader keeps", what,
                               f->len, keep);
    memcpy(out, f->s, f->len);
    memcpy(out + f->len, suffix, strlen(suffix) + 1);
    return TALLY_OK;
}

int tally__starts_with(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

int tally__sniff_has(const char *data, size_t len, const char *needle, size_t limit)
{
    size_t n = strlen(needle);
    if (len > limit)
        len = limit;
    if (n == 0 || n > len)
        return 0;
    for (const char *p = data; (p = memchr(p, needle[0], len - (size_t)(p - data))) != NULL; p++) {
        if ((size_t)(data + len - p) < n)
            return 0;
        if (memcmp(p, needle, n) == 0)
            return 1;
    }
    return 0;
}

int tally__sniff_line_starts(const char *data, size_t len, const char *prefix, size_t limit)
{
    if (len > limit)
        len = limit;
    const char *end = data + len;
    for (const char *p = data; p < end;) {
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (tally__starts_with(q, (size_t)(end - q), prefix))
            return 1;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            break;
        p = nl + 1;
    }
    return 0;
}

int tally__fields_next(tally__lines *l, const char **line, size_t *n, tally__field *f, size_t max,
                       size_t *nf)
{
    int rc = tally__lines_next(l, line, n);
    *nf = rc > 0 ? tally__split_fields(f, max, *line, *n) : 0;
    return rc;
}

int tally__field_number(double *v, const tally__field *f, const char *name, unsigned long line,
                        const char *what, const char *expected)
{
    int rc = tally__parse_double(v, f->s, f->len);
    if (rc == TALLY_ENONFINITE)
        return tally__error_at(rc, name, line, f->col, "%s '%.*s' is not finite", what,
                               (int)f->len, f->s);
    if (rc != TALLY_OK)
        return tally__error_at(rc, name, line, f->col, "expected %s, found '%.*s'", expected,
                               (int)f->len, f->s);
    return TALLY_OK;
}

int tally__sniff_json_object(const char *data, size_t len)
{
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
        i++;
    return i < len && data[i] == '{';
}

int tally__json_import(tally_results *into, const char *data, size_t len, const char *name,
                       const tally_load_options *opts, const tally__json_cut *cut,
                       int (*read)(tally_results *into, tally__json_doc *doc,
                                   const tally_load_options *opts, tally__jpath *p))
{
    tally__json_doc doc;
    int rc = tally__json_doc_parse(&doc, data, len, name, cut);
    if (rc == TALLY_OK) {
        tally__jpath p;
        tally__jpath_init(&p);
        rc = read(into, &doc, opts, &p);
    }
    tally__json_doc_free(&doc);
    return rc;
}

int tally__line_import_begin(tally__line_import *t, tally_results *into, const char *data,
                             size_t len, const char *name, const tally_load_options *opts,
                             const char *harness)
{
    t->line = NULL;
    t->len = t->nf = 0;
    tally__lines_init(&t->lines, name, data, len);
    return tally__import_begin(&t->rs, into, name, opts, harness);
}

int tally__line_import_next(tally__line_import *t)
{
    return tally__fields_next(&t->lines, &t->line, &t->len, t->f, TALLY__COUNT(t->f), &t->nf);
}

int tally__line_import_run(tally__line_import *t, tally_results *into, const char *data,
                           size_t len, const char *name, const tally_load_options *opts,
                           const tally__line_driver *d, void *ctx, const size_t *found)
{
    int rc = tally__line_import_begin(t, into, data, len, name, opts, d->harness);
    if (rc != TALLY_OK)
        return rc;
    while ((rc = tally__line_import_next(t)) > 0)
        if ((rc = d->line(ctx)) != TALLY_OK)
            return rc;
    if (rc == 0 && d->finish)
        rc = d->finish(ctx);
    return tally__import_end(rc, *found, &t->lines, d->what);
}

int tally__import_end(int rc, size_t found, const tally__lines *l, const char *what)
{
    if (rc < 0)
        return rc;
    return found == 0 ? tally__import_none_found(l->name, l->lineno, what) : TALLY_OK;
}

int tally__import_none_found(const char *name, unsigned long lines, const char *what)
{
    return tally__error_at(TALLY_EFORMAT, name, lines ? lines : 1, 1, "no %s found in the file",
                           what);
}

/* A scalar as metadata text: strings as they are, numbers shortest round-trip, booleans as
 * true/false; 0 for anything else. */
static int meta_text(char num[TALLY__NUMBER_BUF], const cJSON *v, const char **text)
{
    if (cJSON_IsString(v)) {
        *text = v->valuestring;
        return 1;
    }
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        tally__number_format(num, v->valuedouble);
        *text = num;
        return 1;
    }
    if (cJSON_IsBool(v)) {
        *text = cJSON_IsTrue(v) ? "true" : "false";
        return 1;
    }
    return 0;
}

static int meta_put(tally_resultset *rs, tally_case *c, const char *key, const char *value)
{
    return rs ? tally_resultset_meta_set(rs, key, value) : tally_case_meta_set(c, key, value);
}

static int listed(const char *const *only, const char *key)
{
    for (; *only; only++)
        if (strcmp(*only, key) == 0)
            return 1;
    return 0;
}

int tally__import_json_meta(tally_resultset *rs, tally_case *c, const char *prefix,
                            const cJSON *obj, const char *const *only)
{
    const cJSON *v;
    int rc = TALLY_OK;
    cJSON_ArrayForEach(v, obj) {
        if (rc != TALLY_OK || v->string == NULL)
            break;
        if (only && !listed(only, v->string))
            continue;
        tally__buf key = TALLY__BUF_INIT;
        tally__buf_printf(&key, "%s%s", prefix, v->string);
        char num[TALLY__NUMBER_BUF];
        const char *text;
        if (key.failed) {
            rc = tally__oom();
        } else if (cJSON_IsObject(v)) {
            tally__buf_puts(&key, ".");
            rc = key.failed ? tally__oom() : tally__import_json_meta(rs, c, key.data, v, NULL);
        } else if (cJSON_IsArray(v)) {
            tally__buf list = TALLY__BUF_INIT;
            const cJSON *e;
            int scalars = 1;
            size_t k = 0;
            cJSON_ArrayForEach(e, v) {
                if (!meta_text(num, e, &text)) {
                    scalars = 0;
                    break;
                }
                tally__buf_printf(&list, "%s%s", k++ ? "," : "", text);
            }
            if (list.failed)
                rc = tally__oom();
            else if (scalars)
                rc = meta_put(rs, c, key.data, list.data ? list.data : "");
            tally__buf_dispose(&list);
        } else if (meta_text(num, v, &text)) {
            rc = meta_put(rs, c, key.data, text);
        }
        tally__buf_dispose(&key);
    }
    return rc;
}

int tally__import_params_text(tally__buf *out, const cJSON *params, const char *name,
                              tally__jpath *p)
{
    const cJSON *v;
    size_t k = 0;
    cJSON_ArrayForEach(v, params) {
        char num[TALLY__NUMBER_BUF];
        const char *text;
        if (!meta_text(num, v, &text)) {
            size_t mark = tally__jpath_key(p, v->string);
            int rc = tally__error_json(TALLY_EPARSE, name, p->text,
                                       "expected a string, a number or a boolean as parameter "
                                       "value, found %s", tally__json_type_name(v));
            tally__jpath_pop(p, mark);
            return rc;
        }
        tally__buf_printf(out, "%s%s=%s", k++ ? "," : "", v->string, text);
    }
    return out->failed ? tally__oom() : TALLY_OK;
}

int tally__import_reported(tally_case *c, const char *key, double v)
{
    /* Built whole: a key may come from the file (Google Benchmark's aggregate names). */
    tally__buf meta = TALLY__BUF_INIT;
    tally__buf_printf(&meta, "reported.%s", key);
    int rc = meta.failed ? tally__oom() : tally__import_meta_number(c, meta.data, v);
    tally__buf_dispose(&meta);
    return rc;
}

int tally__json_import_tree(tally_results *into, const char *data, size_t len, const char *name,
                            const tally_load_options *opts,
                            int (*read)(tally_results *into, const cJSON *root, const char *name,
                                        const tally_load_options *opts, tally__jpath *p))
{
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, data, len, name);
    if (rc == TALLY_OK) {
        tally__jpath p;
        tally__jpath_init(&p);
        rc = read(into, root, name, opts, &p);
    }
    cJSON_Delete(root);
    return rc;
}

int tally__sniff_json_array(const char *data, size_t len)
{
    size_t i = 0;
    while (i < len && tally__json_is_ws(data[i]))
        i++;
    return i < len && data[i] == '[';
}

int tally__import_case_summary(tally_case *c, const tally_case_summary *s, const char *name,
                               const char *json_path, unsigned long line, unsigned long col)
{
    int rc = tally_case_set_summary(c, s);
    if (rc == TALLY_OK || rc == TALLY_ENOMEM)
        return rc;
    char why[512];
    snprintf(why, sizeof why, "%s", tally_error_last()->message);
    return json_path ? tally__error_json(rc, name, json_path, "%s", why)
                     : tally__error_at(rc, name, line, col, "%s", why);
}

int tally__json_case_summary(tally_case *c, const cJSON *obj, const char *key, const char *name,
                             tally__jpath *p)
{
    const cJSON *sum;
    int rc = tally__json_object(&sum, obj, key, 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(p, key);
    tally_case_summary s = { .size = sizeof s };
    double n = 0;
    s.sd = s.interval_low = s.interval_high = NAN;
    rc = tally__json_number(&n, sum, "n", 1, name, p);
    if (rc == TALLY_OK && !(n >= 1 && n == floor(n) && n < 9007199254740992.0))
        rc = tally__error_json(TALLY_EPARSE, name, p->text, "\"n\" must be a whole number >= 1");
    if (rc == TALLY_OK)
        rc = tally__json_number(&s.mean, sum, "mean", 1, name, p);
    if (rc == TALLY_OK) {
        rc = tally__json_number(&s.sd, sum, "sd", 0, name, p);
        if (rc == TALLY_ENOTFOUND) {
            s.sd = NAN;
            rc = TALLY_OK;
        }
    }
    const cJSON *iv = NULL;
    if (rc == TALLY_OK) {
        rc = tally__json_array(&iv, sum, "interval", 0, name, p);
        if (rc == TALLY_ENOTFOUND) {
            iv = NULL;
            rc = TALLY_OK;
        }
    }
    if (rc == TALLY_OK && iv) {
        size_t at = tally__jpath_key(p, "interval");
        if (cJSON_GetArraySize(iv) != 2)
            rc = tally__error_json(TALLY_EPARSE, name, p->text, "expected [low, high]");
        for (int k = 0; rc == TALLY_OK && k < 2; k++) {
            size_t ki = tally__jpath_index(p, (size_t)k);
            rc = tally__json_finite(k ? &s.interval_high : &s.interval_low,
                                    cJSON_GetArrayItem(iv, k), name, p);
            tally__jpath_pop(p, ki);
        }
        tally__jpath_pop(p, at);
        if (rc == TALLY_OK)
            rc = tally__json_number(&s.interval_level, sum, "interval_level", 1, name, p);
    }
    s.n = (size_t)n;
    if (rc == TALLY_OK)
        rc = tally__import_case_summary(c, &s, name, p->text, 0, 0);
    tally__jpath_pop(p, mark);
    return rc;
}

int tally__import_case_meta_number(tally_resultset *rs, const char *bench, const char *casename,
                                   const char *key, double v)
{
    tally_benchmark *b = tally_resultset_benchmark_find(rs, bench);
    tally_case *c = b ? tally_benchmark_case_find(b, casename) : NULL;
    return c ? tally__import_meta_number(c, key, v) : TALLY_OK;
}
