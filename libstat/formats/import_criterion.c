/* criterion.rs sample.json (target/criterion/<benchmark>/<baseline>/sample.json):
 * {"sampling_mode": "Linear"|"Flat", "iters": [...], "times": [...]}. Sample i took times[i]
 * nanoseconds for iters[i] iterations: times[i] / iters[i], the time of one iteration, is the
 * sample, as criterion's own analysis divides them. The file names nothing: the benchmark and
 * case come from benchmark.json beside it ({"group_id", "function_id", "value_str"}), else from
 * the path (the folders under criterion/ before the baseline's), and the configuration is
 * labelled by the baseline's folder ("new", "base", a --save-baseline name). estimates.json
 * beside it, when there, gives criterion's own estimates as reported.* case metadata for
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
    if (!tally__sniff_json_object(data, len) ||
        !tally__sniff_has(data, len, "\"iters\"", 4096) ||
        !tally__sniff_has(data, len, "\"times\"", TALLY__SNIFF_MAX))
        return 0;
    return tally__sniff_has(data, len, "\"sampling_mode\"", 4096) ? 95 : 80;
}

/* The folders of `name` ("a/criterion/fib/recursive/20/new/sample.json"): where the last one
 * (the baseline's) starts and ends, and where the benchmark's path under criterion/ starts
 * (NULL when the path has no criterion/ folder). */
typedef struct where {
    const char *baseline, *baseline_end; /* NULL when the file has no folder */
    const char *under;                   /* "fib/recursive/20/new/sample.json" */
} where;

static void locate(where *w, const char *name)
{
    memset(w, 0, sizeof *w);
    const char *slash = strrchr(name, '/');
    if (slash == NULL)
        return;
    w->baseline_end = slash;
    w->baseline = slash;
    while (w->baseline > name && w->baseline[-1] != '/')
        w->baseline--;
    if (w->baseline == w->baseline_end)
        w->baseline = NULL;
    for (const char *p = name; (p = strstr(p, "criterion/")) != NULL; p++)
        if (p == name || p[-1] == '/')
            w->under = p + strlen("criterion/");
    if (w->under && w->baseline && w->under >= w->baseline)
        w->under = NULL;
}

/* The file `file` in the folder of `name`, read whole into *data, or *data NULL when it is not
 * there. */
static int read_beside(char **data, size_t *len, char **path, const char *name, const where *w,
                       const char *file)
{
    *data = NULL;
    *path = NULL;
    /* Only a file criterion wrote has its companions beside it (not standard input, not a
     * renamed copy). */
    const char *base = w->baseline_end ? w->baseline_end + 1 : name;
    if (strcmp(base, "sample.json") != 0)
        return TALLY_OK;
    tally__buf p = TALLY__BUF_INIT;
    if (w->baseline_end)
        tally__buf_append(&p, name, (size_t)(w->baseline_end - name) + 1);
    tally__buf_puts(&p, file);
    if (p.failed)
        return tally__oom();
    *path = p.data;
    FILE *f = fopen(p.data, "rb");
    if (f == NULL)
        return TALLY_OK;
    fclose(f);
    return tally__read_file(data, len, p.data);
}

/* benchmark.json's names: the group, and function_id / value_str as the case. */
static int names_from_json(tally__buf *bench, tally__buf *cname, const char *data, size_t len,
                           const char *path)
{
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, data, len, path);
    tally__jpath p;
    tally__jpath_init(&p);
    const char *group = NULL, *parts[2] = { NULL, NULL };
    static const char *const keys[2] = { "function_id", "value_str" };
    if (rc == TALLY_OK)
        rc = tally__json_string(&group, root, "group_id", 1, path, &p);
    for (size_t i = 0; rc == TALLY_OK && i < 2; i++) {
        if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, keys[i])))
            continue;
        rc = tally__json_string(&parts[i], root, keys[i], 0, path, &p);
        if (rc == TALLY_ENOTFOUND)
            rc = TALLY_OK;
    }
    if (rc == TALLY_OK) {
        tally__buf_puts(bench, group);
        for (size_t i = 0; i < 2; i++)
            if (parts[i] && parts[i][0])
                tally__buf_printf(cname, "%s%s", cname->len ? "/" : "", parts[i]);
    }
    cJSON_Delete(root);
    return rc;
}

/* Names from the path: the first folder under criterion/ the benchmark, the others the case. */
static void names_from_path(tally__buf *bench, tally__buf *cname, const where *w,
                            const char *fallback)
{
    if (w->under == NULL || w->under + 1 >= w->baseline) {
        tally__buf_puts(bench, fallback);
        return;
    }
    const char *end = w->baseline - 1; /* the '/' before the baseline's folder */
    const char *slash = memchr(w->under, '/', (size_t)(end - w->under));
    if (slash == NULL) {
        tally__buf_append(bench, w->under, (size_t)(end - w->under));
        return;
    }
    tally__buf_append(bench, w->under, (size_t)(slash - w->under));
    tally__buf_append(cname, slash + 1, (size_t)(end - slash - 1));
}

/* One estimate of estimates.json, {"confidence_interval": {"confidence_level", "lower_bound",
 * "upper_bound"}, "point_estimate", "standard_error"}, as reported.KEY, KEY.lower, KEY.upper. */
static int keep_estimate(tally_case *c, const cJSON *root, const char *member, const char *key,
                         const char *path, tally__jpath *p)
{
    const cJSON *est, *ci;
    double point, lo, hi;
    int rc = tally__json_object(&est, root, member, 1, path, p);
    size_t mark = tally__jpath_key(p, member);
    if (rc == TALLY_OK)
        rc = tally__json_number(&point, est, "point_estimate", 1, path, p);
    if (rc == TALLY_OK)
        rc = tally__json_object(&ci, est, "confidence_interval", 1, path, p);
    tally__jpath_key(p, "confidence_interval");
    if (rc == TALLY_OK)
        rc = tally__json_number(&lo, ci, "lower_bound", 1, path, p);
    if (rc == TALLY_OK)
        rc = tally__json_number(&hi, ci, "upper_bound", 1, path, p);
    tally__jpath_pop(p, mark);
    char bound[64];
    if (rc == TALLY_OK)
        rc = tally__import_reported(c, key, point);
    snprintf(bound, sizeof bound, "%s.lower", key);
    if (rc == TALLY_OK)
        rc = tally__import_reported(c, bound, lo);
    snprintf(bound, sizeof bound, "%s.upper", key);
    if (rc == TALLY_OK)
        rc = tally__import_reported(c, bound, hi);
    return rc;
}

/* A slope over other iteration counts, kept as reported.slope_other_iters: tally_validate()
 * lists it as not recomputable from the per-iteration samples rather than leaving it out. */
static int keep_unrecomputable_slope(tally_case *c, const cJSON *root, const char *path,
                                     tally__jpath *p)
{
    const cJSON *est;
    double point;
    int rc = tally__json_object(&est, root, "slope", 1, path, p);
    size_t mark = tally__jpath_key(p, "slope");
    if (rc == TALLY_OK)
        rc = tally__json_number(&point, est, "point_estimate", 1, path, p);
    tally__jpath_pop(p, mark);
    return rc == TALLY_OK ? tally__import_reported(c, "slope_other_iters", point) : rc;
}

/* estimates.json: {"mean": {...}, "median": {...}, "median_abs_dev": {...}, "slope": {...} or
 * null, "std_dev": {...}}, in the unit of the samples. The slope (of times on iters) is kept
 * only when the iteration counts were d, 2d, ..., nd (`linear`), for which tally_validate()
 * recomputes it from the per-iteration samples alone; otherwise its point estimate is kept as
 * reported.slope_other_iters, which tally_validate() lists as not recomputable. */
static int keep_estimates(tally_case *c, const char *data, size_t len, const char *path,
                          int linear)
{
    static const char *const names[][2] = { { "mean", "mean" }, { "median", "median" },
                                            { "std_dev", "stddev" },
                                            { "median_abs_dev", "median_abs_dev" } };
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, data, len, path);
    tally__jpath p;
    tally__jpath_init(&p);
    for (size_t i = 0; rc == TALLY_OK && i < TALLY__COUNT(names); i++)
        rc = keep_estimate(c, root, names[i][0], names[i][1], path, &p);
    int slope = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "slope"));
    if (rc == TALLY_OK && slope && linear)
        rc = keep_estimate(c, root, "slope", "slope", path, &p);
    else if (rc == TALLY_OK && slope)
        rc = keep_unrecomputable_slope(c, root, path, &p);
    cJSON_Delete(root);
    return rc;
}

static const char *const sample_prefix[] = { NULL };
static const char *const sample_arrays[] = { "iters", "times", NULL };
static const tally__json_cut sample_cut = { sample_prefix, sample_arrays };
enum { ITERS = 0, TIMES = 1 };

/* The samples: times[i] / iters[i]; *linear 1 when iters[i] = (i + 1) iters[0] (criterion's
 * linear sampling). */
static int read_samples(tally_case *c, int *linear, tally__json_doc *doc, tally__jpath *p)
{
    const cJSON *iters, *times;
    const double *it, *t;
    size_t ni, nt;
    const char *name = doc->name;
    int rc = tally__json_array(&iters, doc->root, "iters", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_array(&times, doc->root, "times", 1, name, p);
    size_t mark = tally__jpath_key(p, "iters");
    if (rc == TALLY_OK)
        rc = tally__json_doc_numbers(&it, &ni, doc, iters, ITERS, p);
    tally__jpath_pop(p, mark);
    double *x = NULL;
    if (rc == TALLY_OK && ni > 0 && (x = tally__reallocarray(NULL, ni, sizeof(double))) == NULL)
        rc = tally__oom();
    for (size_t i = 0; rc == TALLY_OK && i < ni; i++) {
        if (!(it[i] > 0)) {
            tally__jpath_key(p, "iters");
            tally__jpath_index(p, i);
            rc = tally__error_json(TALLY_EPARSE, name, p->text,
                                   "expected an iteration count > 0, found %g", it[i]);
            tally__jpath_pop(p, mark);
        }
        x[i] = it[i];
    }
    *linear = 1;
    for (size_t i = 0; rc == TALLY_OK && i < ni; i++)
        *linear &= it[i] == (double)(i + 1) * it[0];
    tally__jpath_key(p, "times");
    if (rc == TALLY_OK)
        rc = tally__json_doc_numbers(&t, &nt, doc, times, TIMES, p);
    if (rc == TALLY_OK && nt != ni)
        rc = tally__error_json(TALLY_EPARSE, name, p->text,
                               "%zu times for %zu iteration counts", nt, ni);
    if (rc == TALLY_OK && ni == 0)
        rc = tally__error_json(TALLY_ENODATA, name, p->text, "empty sample list");
    for (size_t i = 0; rc == TALLY_OK && i < ni; i++)
        x[i] = t[i] / x[i];
    tally__jpath_pop(p, mark);
    if (rc != TALLY_OK) {
        tally__free_mem(x);
        return rc;
    }
    return tally__case_adopt(c, x, ni, ni);
}

static int read_doc(tally_results *into, tally__json_doc *doc, const tally_load_options *opts,
                    tally__jpath *p)
{
    const char *name = doc->name;
    where w;
    locate(&w, name);
    tally__buf bench = TALLY__BUF_INIT, cname = TALLY__BUF_INIT, label = TALLY__BUF_INIT;
    char *data = NULL, *path = NULL;
    size_t len = 0;
    int rc = read_beside(&data, &len, &path, name, &w, "benchmark.json");
    if (rc == TALLY_OK && data)
        rc = names_from_json(&bench, &cname, data, len, path);
    else if (rc == TALLY_OK)
        names_from_path(&bench, &cname, &w, tally__import_name(opts, "criterion"));
    tally__free_mem(data);
    tally__free_mem(path);
    data = path = NULL;
    const char *given = tally__import_name(opts, NULL);
    if (rc == TALLY_OK && given) {
        tally__buf_dispose(&bench);
        tally__buf_puts(&bench, given);
    }
    if (rc == TALLY_OK && (bench.failed || cname.failed))
        rc = tally__oom();
    tally_resultset *rs = NULL;
    tally_benchmark *b;
    tally_case *c;
    int linear = 0;
    /* The baseline's folder labels the set unless the caller gave a label (the loader puts the
     * caller's in place of this one). */
    if (rc == TALLY_OK && w.baseline) {
        tally__buf_append(&label, w.baseline, (size_t)(w.baseline_end - w.baseline));
        rc = label.failed ? tally__oom() : tally__import_config(&rs, into, label.data, "criterion");
    } else if (rc == TALLY_OK) {
        rc = tally__import_begin(&rs, into, name, opts, "criterion");
    }
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(doc->root, "sampling_mode");
    if (rc == TALLY_OK)
        rc = tally__import_benchmark(&b, rs, bench.data, "ns", TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, cname.len ? cname.data : "all");
    if (rc == TALLY_OK)
        rc = read_samples(c, &linear, doc, p);
    if (rc == TALLY_OK && cJSON_IsString(mode))
        rc = tally_case_meta_set(c, "sampling_mode", mode->valuestring);
    if (rc == TALLY_OK)
        rc = read_beside(&data, &len, &path, name, &w, "estimates.json");
    if (rc == TALLY_OK && data)
        rc = keep_estimates(c, data, len, path, linear);
    tally__free_mem(data);
    tally__free_mem(path);
    tally__buf_dispose(&bench);
    tally__buf_dispose(&cname);
    tally__buf_dispose(&label);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    return tally__json_import(into, data, len, name, opts, &sample_cut, read_doc);
}

const tally__importer tally__importer_criterion = {
    .name = "criterion", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK,
};
