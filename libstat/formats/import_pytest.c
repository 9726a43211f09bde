/* pytest-benchmark JSON (--benchmark-json, --benchmark-save, --benchmark-autosave):
 * {"machine_info": {...}, "commit_info": {...}, "benchmarks": [{"group", "name", "fullname",
 * "params", "param", "extra_info", "options", "stats": {"min", "max", "mean", "stddev", "rounds",
 * "median", "iqr", "q1", "q3", ..., "iterations", "data": [...]}}], "datetime", "version"}.
 * stats.data (written with --benchmark-save-data) holds one time per round, in seconds per
 * iteration (pytest-benchmark divides each round's time by its iterations): the samples. The
 * summary is kept as reported.* case metadata for tally_validate(). A benchmark is the test
 * (fullname without its parameter id), a case its parameters ("n=10"), else "all". A file saved
 * without the rounds (--benchmark-save without --benchmark-save-data) gives summary-only cases:
 * rounds, mean and stddev. */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_split.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_object(data, len) ||
        !tally__sniff_has(data, len, "\"benchmarks\"", TALLY__SNIFF_MAX))
        return 0;
    /* machine_info comes first in every file pytest-benchmark writes. */
    return tally__sniff_has(data, len, "\"machine_info\"", 4096) ? 95 : 0;
}

static const char *const bench_prefix[] = { "benchmarks", "*", "stats", NULL };
static const char *const bench_arrays[] = { "data", NULL };
static const tally__json_cut bench_cut = { bench_prefix, bench_arrays };

typedef struct reading {
    tally_resultset *rs;
    tally__json_doc *doc;
} reading;

/* The summary figures of stats kept for validation, under their own names. */
static int keep_summary(tally_case *c, const cJSON *stats, size_t n, const char *name,
                        tally__jpath *p)
{
    static const char *const keys[] = { "mean", "median", "stddev", "min", "max",
                                         "q1", "q3", "iqr" };
    for (size_t i = 0; i < TALLY__COUNT(keys); i++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(stats, keys[i]);
        /* stddev is 0 after a single round (its stats.py): a placeholder, not a figure. */
        if (item == NULL || cJSON_IsNull(item) || (n < 2 && strcmp(keys[i], "stddev") == 0))
            continue;
        double v;
        size_t mark = tally__jpath_key(p, "stats");
        int rc = tally__json_number(&v, stats, keys[i], 1, name, p);
        tally__jpath_pop(p, mark);
        if (rc == TALLY_OK)
            rc = tally__import_reported(c, keys[i], v);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* "tests/test_sort.py::test_sort" from "tests/test_sort.py::test_sort[10]" and the id "10". */
static char *test_name(const char *fullname, const char *param)
{
    size_t n = strlen(fullname), m = param ? strlen(param) : 0;
    if (param && n > m + 2 && fullname[n - 1] == ']' && fullname[n - m - 2] == '[' &&
        memcmp(fullname + n - m - 1, param, m) == 0)
        n -= m + 2;
    return tally__strndup(fullname, n);
}

/* The rounds of stats.data: the samples, with the summary kept for validation. */
static int read_data(tally_case *c, tally__json_doc *doc, const cJSON *stats, const cJSON *data,
                     tally__jpath *p)
{
    double *x = NULL;
    size_t n = 0, cap = 0;
    size_t mark = tally__jpath_key(p, "stats");
    tally__jpath_key(p, "data");
    int rc = tally__json_doc_take(&x, &n, &cap, doc, data, 0, p);
    if (rc == TALLY_OK && n == 0)
        rc = tally__error_json(TALLY_ENODATA, doc->name, p->text, "empty sample list");
    tally__jpath_pop(p, mark);
    if (rc != TALLY_OK) {
        tally__free_mem(x);
        return rc;
    }
    rc = tally__case_adopt(c, x, n, cap);
    return rc == TALLY_OK ? keep_summary(c, stats, n, doc->name, p) : rc;
}

/* A file saved without --benchmark-save-data: the case is known by its rounds, mean and
 * stddev only (a summary-only case, compared by Welch from these statistics). */
static int summary_only(tally_case *c, const cJSON *stats, const char *name, tally__jpath *p)
{
    tally_case_summary s = { .size = sizeof s };
    double rounds = 0;
    s.sd = s.interval_low = s.interval_high = NAN;
    size_t mark = tally__jpath_key(p, "stats");
    int rc = tally__json_number(&rounds, stats, "rounds", 1, name, p);
    if (rc == TALLY_OK && !(rounds >= 1 && rounds == floor(rounds) && rounds < 1e15))
        rc = tally__error_json(TALLY_EPARSE, name, p->text,
                               "\"rounds\" must be a whole number >= 1");
    if (rc == TALLY_OK)
        rc = tally__json_number(&s.mean, stats, "mean", 1, name, p);
    /* stddev is 0 after a single round: unknown, not zero. */
    if (rc == TALLY_OK && rounds >= 2)
        rc = tally__json_number(&s.sd, stats, "stddev", 1, name, p);
    s.n = (size_t)rounds;
    if (rc == TALLY_OK)
        rc = tally__import_case_summary(c, &s, name, p->text, 0, 0);
    tally__jpath_pop(p, mark);
    return rc;
}

static int one_benchmark(void *ctx, const cJSON *bench, tally__jpath *p)
{
    reading *r = ctx;
    const char *name = r->doc->name;
    const char *fullname = NULL, *param = NULL, *group = NULL;
    const cJSON *params = NULL, *stats, *data = NULL, *extra = NULL;
    int rc = tally__json_string(&fullname, bench, "fullname", 0, name, p);
    if (rc == TALLY_ENOTFOUND) /* files before pytest-benchmark 3.0 */
        rc = tally__json_string(&fullname, bench, "name", 1, name, p);
    if (rc == TALLY_OK && !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bench, "param")))
        rc = tally__json_string(&param, bench, "param", 0, name, p);
    if ((rc == TALLY_OK || rc == TALLY_ENOTFOUND) &&
        !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bench, "group")))
        rc = tally__json_string(&group, bench, "group", 0, name, p);
    if ((rc == TALLY_OK || rc == TALLY_ENOTFOUND) &&
        !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bench, "params")))
        rc = tally__json_object(&params, bench, "params", 0, name, p);
    if ((rc == TALLY_OK || rc == TALLY_ENOTFOUND) &&
        !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bench, "extra_info")))
        rc = tally__json_object(&extra, bench, "extra_info", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_object(&stats, bench, "stats", 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(p, "stats");
    rc = tally__json_array(&data, stats, "data", 0, name, p);
    tally__jpath_pop(p, mark);
    if (rc != TALLY_OK && rc != TALLY_ENOTFOUND)
        return rc;
    rc = TALLY_OK;

    tally__buf casename = TALLY__BUF_INIT;
    if (params) {
        mark = tally__jpath_key(p, "params");
        rc = tally__import_params_text(&casename, params, name, p);
        tally__jpath_pop(p, mark);
    }
    char *bench_name = rc == TALLY_OK ? test_name(fullname, param) : NULL;
    if (rc == TALLY_OK && bench_name == NULL)
        rc = tally__oom();
    const char *cname = casename.len ? casename.data : "all";
    tally_benchmark *b = NULL;
    tally_case *c = NULL;
    if (rc == TALLY_OK)
        rc = tally__import_benchmark(&b, r->rs, bench_name, "s", TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK && tally_benchmark_case_find(b, cname))
        rc = tally__error_json(TALLY_EEXISTS, name, p->text,
                               "benchmark \"%s\" with parameters \"%s\" appears twice",
                               bench_name, cname);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, cname);
    tally__free_mem(bench_name);
    tally__buf_dispose(&casename);
    if (rc != TALLY_OK)
        return rc;

    if (data == NULL) {
        rc = summary_only(c, stats, name, p);
    } else {
        rc = read_data(c, r->doc, stats, data, p);
    }
    if (rc == TALLY_OK && group)
        rc = tally_case_meta_set(c, "group", group);
    if (rc == TALLY_OK && param)
        rc = tally_case_meta_set(c, "param", param);
    double iterations;
    mark = tally__jpath_key(p, "stats");
    int has = rc == TALLY_OK ? tally__json_number(&iterations, stats, "iterations", 0, name, p)
                             : rc;
    tally__jpath_pop(p, mark);
    if (rc == TALLY_OK && has == TALLY_OK)
        rc = tally__import_meta_number(c, "iterations", iterations);
    else if (rc == TALLY_OK && has != TALLY_ENOTFOUND)
        rc = has;
    if (rc == TALLY_OK && extra)
        rc = tally__import_json_meta(NULL, c, "extra_info.", extra, NULL);
    return rc;
}

static int read_doc(tally_results *into, tally__json_doc *doc, const tally_load_options *opts,
                    tally__jpath *p)
{
    const char *name = doc->name;
    const cJSON *root = doc->root, *list, *machine = NULL, *commit = NULL;
    const char *text;
    reading r = { NULL, doc };
    int rc = tally__json_array(&list, root, "benchmarks", 1, name, p);
    if (rc == TALLY_OK && cJSON_GetArraySize(list) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.benchmarks", "no benchmarks");
    if (rc == TALLY_OK)
        rc = tally__json_object(&machine, root, "machine_info", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_object(&commit, root, "commit_info", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__import_begin(&r.rs, into, name, opts, "pytest-benchmark");
    if (rc == TALLY_OK && machine)
        rc = tally__import_json_meta(r.rs, NULL, "machine_info.", machine, NULL);
    if (rc == TALLY_OK && commit)
        rc = tally__import_json_meta(r.rs, NULL, "commit_info.", commit, NULL);
    static const char *const top[][2] = { { "datetime", "datetime" },
                                          { "version", "pytest_benchmark_version" } };
    for (size_t i = 0; rc == TALLY_OK && i < TALLY__COUNT(top); i++) {
        rc = tally__json_string(&text, root, top[i][0], 0, name, p);
        if (rc == TALLY_OK)
            rc = tally_resultset_meta_set(r.rs, top[i][1], text);
        else if (rc == TALLY_ENOTFOUND)
            rc = TALLY_OK;
    }
    if (rc == TALLY_OK)
        rc = tally__json_each(list, "benchmarks", p, one_benchmark, &r);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    return tally__json_import(into, data, len, name, opts, &bench_cut, read_doc);
}

const tally__importer tally__importer_pytest = {
    .name = "pytest-benchmark", .sniff = sniff,
    .parse = parse,
};
