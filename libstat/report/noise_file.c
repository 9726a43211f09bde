/* The noise profile file (docs/statistics.md, "Noise profiles"): a JSON object with the format
 * version and one object per benchmark. Unknown members are ignored, so that a later version
 * may add figures that older readers skip; a later format version is refused. */
#include <math.h>
#include <string.h>

#include "report/noise_internal.h"
#include "util/json_util.h"

static void num(tally__buf *b, const char *key, double x)
{
    tally__buf_printf(b, ", \"%s\": ", key);
    tally__buf_double(b, x);
}

int tally_noise_save(const tally_noise *noise, const char *path)
{
    if (noise == NULL || path == NULL)
        return tally__error(TALLY_EINVAL, "tally_noise_save: NULL argument");
    tally__buf b = TALLY__BUF_INIT;
    tally__buf_printf(&b, "{\n  \"tally_noise\": %d,\n  \"benchmarks\": [", TALLY_NOISE_FORMAT_VERSION);
    for (size_t i = 0; i < noise->count; i++) {
        const tally_noise_benchmark *x = &noise->b[i];
        tally__buf_puts(&b, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        tally__buf_json_string(&b, x->name);
        num(&b, "margin_pct", x->margin_pct);
        num(&b, "pct_rms", x->pct_rms);
        tally__buf_printf(&b, ", \"rows\": %zu, \"significant\": %zu", x->rows, x->significant);
        num(&b, "false_positive_rate", x->false_positive_rate);
        num(&b, "alpha", x->alpha);
        tally__buf_printf(&b, ", \"min_runs\": %zu}", x->min_runs);
    }
    tally__buf_puts(&b, noise->count ? "\n  ]\n}\n" : "]\n}\n");
    if (b.failed) {
        tally__buf_dispose(&b);
        return tally__oom();
    }
    int rc = tally__write_file_atomic(path, b.data, b.len);
    tally__buf_dispose(&b);
    return rc;
}

/* An optional count member: a whole number >= 0. */
static int count(size_t *out, const cJSON *obj, const char *key, const char *name,
                 tally__jpath *path)
{
    double v = 0;
    int rc = tally__json_number(&v, obj, key, 0, name, path);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    if (!(v >= 0 && v <= 1e15 && v == floor(v))) {
        size_t mark = tally__jpath_key(path, key);
        rc = tally__error_json(TALLY_EPARSE, name, path->text, "expected a whole number >= 0, "
                                                                "got %g", v);
        tally__jpath_pop(path, mark);
        return rc;
    }
    *out = (size_t)v;
    return TALLY_OK;
}

/* An optional figure; `lo` <= value < `hi` (hi inclusive when `hi_in`). */
static int figure(double *out, const cJSON *obj, const char *key, int required, double lo,
                  double hi, int hi_in, const char *name, tally__jpath *path)
{
    int rc = tally__json_number(out, obj, key, required, name, path);
    if (rc == TALLY_ENOTFOUND && !required)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    if (!(*out >= lo && (hi_in ? *out <= hi : *out < hi))) {
        size_t mark = tally__jpath_key(path, key);
        rc = tally__error_json(TALLY_EPARSE, name, path->text, "expected a number in [%g, %g%s, "
                                                                "got %g",
                               lo, hi, hi_in ? "]" : ")", *out);
        tally__jpath_pop(path, mark);
    }
    return rc;
}

static int read_benchmark(tally_noise *noise, const cJSON *item, const char *name,
                          tally__jpath *path)
{
    if (!cJSON_IsObject(item))
        return tally__error_json(TALLY_EPARSE, name, path->text, "expected an object, got %s",
                                 tally__json_type_name(item));
    tally_noise_benchmark b;
    memset(&b, 0, sizeof(b));
    int rc = tally__json_string(&b.name, item, "name", 1, name, path);
    if (rc == TALLY_OK && tally__noise_find(noise, b.name) != NULL) {
        size_t mark = tally__jpath_key(path, "name");
        rc = tally__error_json(TALLY_EPARSE, name, path->text, "benchmark '%s' is listed twice",
                               b.name);
        tally__jpath_pop(path, mark);
    }
    /* The margin becomes an equivalence margin, which report options bound to [0, 100). */
    if (rc == TALLY_OK)
        rc = figure(&b.margin_pct, item, "margin_pct", 1, 0, 100, 0, name, path);
    if (rc == TALLY_OK)
        rc = figure(&b.pct_rms, item, "pct_rms", 0, 0, HUGE_VAL, 0, name, path);
    if (rc == TALLY_OK)
        rc = figure(&b.false_positive_rate, item, "false_positive_rate", 0, 0, 1, 1, name, path);
    if (rc == TALLY_OK)
        rc = figure(&b.alpha, item, "alpha", 0, 0, 1, 1, name, path);
    if (rc == TALLY_OK)
        rc = count(&b.rows, item, "rows", name, path);
    if (rc == TALLY_OK)
        rc = count(&b.significant, item, "significant", name, path);
    if (rc == TALLY_OK)
        rc = count(&b.min_runs, item, "min_runs", name, path);
    if (rc == TALLY_OK && b.significant > b.rows) {
        size_t mark = tally__jpath_key(path, "significant");
        rc = tally__error_json(TALLY_EPARSE, name, path->text, "%zu significant rows of %zu",
                               b.significant, b.rows);
        tally__jpath_pop(path, mark);
    }
    return rc == TALLY_OK ? tally__noise_add(noise, &b) : rc;
}

static int read_profile(tally_noise *noise, const cJSON *root, const char *name)
{
    tally__jpath path;
    tally__jpath_init(&path);
    if (!cJSON_IsObject(root))
        return tally__error_json(TALLY_EFORMAT, name, path.text, "not a noise profile: expected "
                                                                 "an object with \"tally_noise\"");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "tally_noise");
    if (v == NULL)
        return tally__error_json(TALLY_EFORMAT, name, path.text, "not a noise profile: no "
                                                                 "\"tally_noise\" member (write "
                                                                 "one with tally calibrate)");
    if (!cJSON_IsNumber(v) || v->valuedouble != TALLY_NOISE_FORMAT_VERSION) {
        size_t mark = tally__jpath_key(&path, "tally_noise");
        int rc = tally__error_json(TALLY_EFORMAT, name, path.text, "noise profile format %s; "
                                                                   "this tally reads format %d",
                                   cJSON_IsNumber(v) ? "of another version" : "not a number",
                                   TALLY_NOISE_FORMAT_VERSION);
        tally__jpath_pop(&path, mark);
        return rc;
    }
    const cJSON *list = NULL;
    int rc = tally__json_array(&list, root, "benchmarks", 1, name, &path);
    size_t mark = tally__jpath_key(&path, "benchmarks");
    size_t i = 0;
    for (const cJSON *item = list ? list->child : NULL; rc == TALLY_OK && item;
         item = item->next, i++) {
        size_t m = tally__jpath_index(&path, i);
        rc = read_benchmark(noise, item, name, &path);
        tally__jpath_pop(&path, m);
    }
    tally__jpath_pop(&path, mark);
    return rc;
}

int tally_noise_load(tally_noise **out, const char *path)
{
    if (out == NULL || path == NULL)
        return tally__error(TALLY_EINVAL, "tally_noise_load: NULL argument");
    *out = NULL;
    char *data = NULL;
    size_t len = 0;
    int rc = tally__read_file(&data, &len, path);
    if (rc != TALLY_OK)
        return rc;
    cJSON *root = NULL;
    rc = tally__json_parse(&root, data, len, path);
    tally__free_mem(data);
    if (rc != TALLY_OK)
        return rc;
    tally_noise *noise = tally__calloc(1, sizeof(*noise));
    if (noise == NULL) {
        cJSON_Delete(root);
        return tally__oom();
    }
    rc = read_profile(noise, root, path);
    cJSON_Delete(root);
    if (rc != TALLY_OK) {
        tally_noise_free(noise);
        return rc;
    }
    *out = noise;
    return TALLY_OK;
}
