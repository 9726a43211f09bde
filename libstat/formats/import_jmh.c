/* JMH JSON results (-rf json): [{"jmhVersion", "benchmark", "mode", "threads", "forks", "jvm",
 * "jvmArgs", "jdkVersion", "vmName", "vmVersion", "warmupIterations", "warmupTime",
 * "measurementIterations", "measurementTime", ..., "params": {...}, "primaryMetric": {"score",
 * "scoreError", "scoreConfidence", "scorePercentiles", "scoreUnit", "rawData": [[...], ...] or
 * "rawDataHistogram": [[[[value, count], ...], ...], ...]}, "secondaryMetrics": {...}}, ...].
 * rawData[fork][iteration] holds one score per measurement iteration: the samples, fork by fork.
 * SampleTime mode writes rawDataHistogram[fork][iteration] instead, the time of every sampled
 * operation as (value, count) pairs: each pair is `count` samples. Throughput (thrpt) is higher
 * is better, the time modes (avgt, sample, ss) lower. score and scoreError are kept as
 * reported.mean and reported.score_error for tally_validate(). */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "model/units.h"
#include "util/internal.h"
#include "util/json_util.h"

/* The most samples one histogram benchmark may expand to (80 MB of doubles): a larger one is
 * refused rather than read in part. */
#define MAX_HISTOGRAM_SAMPLES 10000000.0

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_array(data, len))
        return 0;
    if (tally__sniff_has(data, len, "\"primaryMetric\"", TALLY__SNIFF_MAX) &&
        tally__sniff_has(data, len, "\"benchmark\"", 4096) &&
        tally__sniff_has(data, len, "\"mode\"", 4096))
        return tally__sniff_has(data, len, "\"jmhVersion\"", 4096) ? 95 : 85;
    return 0;
}

/* Direction from JMH's mode (its Mode.shortLabel): throughput is higher-is-better, every time
 * mode lower; an unknown mode goes by its unit. */
static tally_direction mode_direction(const char *mode, const char *unit)
{
    if (strcmp(mode, "thrpt") == 0)
        return TALLY_HIGHER_IS_BETTER;
    if (strcmp(mode, "avgt") == 0 || strcmp(mode, "sample") == 0 || strcmp(mode, "ss") == 0)
        return TALLY_LOWER_IS_BETTER;
    return tally__direction_for_unit(unit);
}

/* 1 when another element of `list` has the same benchmark in another mode. */
static int several_modes(const cJSON *list, const char *bench, const char *mode)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "benchmark");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "mode");
        if (cJSON_IsString(b) && cJSON_IsString(m) && strcmp(b->valuestring, bench) == 0 &&
            strcmp(m->valuestring, mode) != 0)
            return 1;
    }
    return 0;
}

static int read_raw(tally_case *c, const cJSON *raw, const char *name, tally__jpath *p)
{
    const cJSON *fork, *v;
    size_t f = 0;
    cJSON_ArrayForEach(fork, raw) {
        size_t mark = tally__jpath_index(p, f++);
        if (!cJSON_IsArray(fork))
            return tally__error_json(TALLY_EPARSE, name, p->text,
                                     "expected an array of one fork's iterations, found %s",
                                     tally__json_type_name(fork));
        size_t i = 0;
        cJSON_ArrayForEach(v, fork) {
            double x;
            size_t at = tally__jpath_index(p, i++);
            int rc = tally__json_finite(&x, v, name, p);
            tally__jpath_pop(p, at);
            if (rc == TALLY_OK)
                rc = tally_case_append(c, &x, 1);
            if (rc != TALLY_OK)
                return rc;
        }
        tally__jpath_pop(p, mark);
    }
    return TALLY_OK;
}

/* One [value, count] pair of a histogram: count samples of value. */
static int read_pair(tally_case *c, const cJSON *pair, double *total, const char *name,
                     tally__jpath *p)
{
    double x, count;
    if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
        return tally__error_json(TALLY_EPARSE, name, p->text,
                                 "expected a [value, count] pair, found %s",
                                 tally__json_type_name(pair));
    size_t mark = tally__jpath_index(p, 0);
    int rc = tally__json_finite(&x, cJSON_GetArrayItem(pair, 0), name, p);
    tally__jpath_pop(p, mark);
    tally__jpath_index(p, 1);
    if (rc == TALLY_OK)
        rc = tally__json_finite(&count, cJSON_GetArrayItem(pair, 1), name, p);
    if (rc == TALLY_OK && (count < 0 || count != floor(count)))
        rc = tally__error_json(TALLY_EPARSE, name, p->text,
                               "expected a whole count >= 0, found %g", count);
    if (rc == TALLY_OK && (*total += count) > MAX_HISTOGRAM_SAMPLES)
        rc = tally__error_json(TALLY_ELIMIT, name, p->text,
                               "the histogram holds more than %.0f samples", MAX_HISTOGRAM_SAMPLES);
    tally__jpath_pop(p, mark);
    double block[512];
    for (size_t i = 0; i < TALLY__COUNT(block); i++)
        block[i] = x;
    for (double left = count; rc == TALLY_OK && left > 0; left -= TALLY__COUNT(block))
        rc = tally_case_append(c, block, left < TALLY__COUNT(block) ? (size_t)left
                                                                    : TALLY__COUNT(block));
    return rc;
}

static int read_histogram(tally_case *c, const cJSON *hist, const char *name, tally__jpath *p)
{
    const cJSON *fork, *iteration, *pair;
    size_t f = 0;
    double total = 0;
    cJSON_ArrayForEach(fork, hist) {
        size_t mark = tally__jpath_index(p, f++);
        size_t i = 0;
        if (!cJSON_IsArray(fork))
            return tally__error_json(TALLY_EPARSE, name, p->text,
                                     "expected an array of one fork's iterations, found %s",
                                     tally__json_type_name(fork));
        cJSON_ArrayForEach(iteration, fork) {
            size_t at = tally__jpath_index(p, i++);
            size_t k = 0;
            if (!cJSON_IsArray(iteration))
                return tally__error_json(TALLY_EPARSE, name, p->text,
                                         "expected an array of [value, count] pairs, found %s",
                                         tally__json_type_name(iteration));
            cJSON_ArrayForEach(pair, iteration) {
                size_t here = tally__jpath_index(p, k++);
                int rc = read_pair(c, pair, &total, name, p);
                tally__jpath_pop(p, here);
                if (rc != TALLY_OK)
                    return rc;
            }
            tally__jpath_pop(p, at);
        }
        tally__jpath_pop(p, mark);
    }
    return TALLY_OK;
}

/* The run settings of an element kept as case metadata, under JMH's own names. */
static const char *const settings[] = { "mode", "threads", "forks", "warmupIterations",
                                        "warmupTime", "warmupBatchSize", "measurementIterations",
                                        "measurementTime", "measurementBatchSize", NULL };

/* The JVM and JMH of the run, from its first result (one invocation writes one file). */
static const char *const run_keys[] = { "jmhVersion", "jvm", "jdkVersion", "vmName",
                                        "vmVersion", "jvmArgs", NULL };

typedef struct reading {
    tally_resultset *rs;
    const cJSON *list;
    const char *name;
} reading;

static int one_result(void *ctx, const cJSON *e, tally__jpath *p)
{
    reading *r = ctx;
    const char *name = r->name;
    const char *bench, *mode, *unit;
    const cJSON *metric, *params = NULL, *raw = NULL, *hist = NULL;
    int rc = tally__json_string(&bench, e, "benchmark", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_string(&mode, e, "mode", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_object(&metric, e, "primaryMetric", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_object(&params, e, "params", 0, name, p);
    if (rc != TALLY_OK && rc != TALLY_ENOTFOUND)
        return rc;
    size_t mark = tally__jpath_key(p, "primaryMetric");
    rc = tally__json_string(&unit, metric, "scoreUnit", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_array(&raw, metric, "rawData", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        rc = tally__json_array(&hist, metric, "rawDataHistogram", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        rc = tally__error_json(TALLY_ENODATA, name, p->text,
                               "neither rawData nor rawDataHistogram: no samples");
    tally__jpath_pop(p, mark);
    if (rc != TALLY_OK)
        return rc;

    tally__buf bname = TALLY__BUF_INIT, cname = TALLY__BUF_INIT;
    tally__buf_puts(&bname, bench);
    if (several_modes(r->list, bench, mode))
        tally__buf_printf(&bname, " (%s)", mode);
    if (params) {
        mark = tally__jpath_key(p, "params");
        rc = tally__import_params_text(&cname, params, name, p);
        tally__jpath_pop(p, mark);
    }
    if (rc == TALLY_OK && bname.failed)
        rc = tally__oom();
    tally_benchmark *b = NULL;
    tally_case *c = NULL;
    const char *casename = cname.len ? cname.data : "all";
    if (rc == TALLY_OK) {
        rc = tally__import_benchmark(&b, r->rs, bname.data, unit, mode_direction(mode, unit));
        if (rc == TALLY_EMISMATCH)
            rc = tally__error_json(rc, name, p->text,
                                   "benchmark \"%s\" in unit %s, an earlier result of it in %s",
                                   bname.data, unit, tally_benchmark_unit(b));
    }
    if (rc == TALLY_OK && tally_benchmark_case_find(b, casename))
        rc = tally__error_json(TALLY_EEXISTS, name, p->text,
                               "benchmark \"%s\" with parameters \"%s\" appears twice",
                               bname.data, casename);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, casename);
    tally__buf_dispose(&bname);
    tally__buf_dispose(&cname);
    if (rc != TALLY_OK)
        return rc;

    mark = tally__jpath_key(p, "primaryMetric");
    tally__jpath_key(p, raw ? "rawData" : "rawDataHistogram");
    rc = raw ? read_raw(c, raw, name, p) : read_histogram(c, hist, name, p);
    if (rc == TALLY_OK && tally_case_sample_count(c) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, p->text, "empty sample list");
    tally__jpath_pop(p, mark);
    /* score is the mean of all samples, scoreError its 99.9 % Student-t half-width; JMH writes
     * the string "NaN" for an error it cannot compute (fewer than 3 samples), kept out. */
    static const char *const figures[][2] = { { "score", "mean" },
                                              { "scoreError", "score_error" } };
    for (size_t i = 0; rc == TALLY_OK && i < TALLY__COUNT(figures); i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(metric, figures[i][0]);
        if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
            rc = tally__import_reported(c, figures[i][1], v->valuedouble);
    }
    if (rc == TALLY_OK)
        rc = tally__import_json_meta(NULL, c, "", e, settings);
    return rc;
}

static int read_root(tally_results *into, const cJSON *root, const char *name,
                     const tally_load_options *opts, tally__jpath *p)
{
    if (!cJSON_IsArray(root))
        return tally__error_json(TALLY_EPARSE, name, "$",
                                 "expected an array of JMH results, found %s",
                                 tally__json_type_name(root));
    if (cJSON_GetArraySize(root) == 0)
        return tally__error_json(TALLY_ENODATA, name, "$", "no benchmark results");
    reading r = { NULL, root, name };
    int rc = tally__import_begin(&r.rs, into, name, opts, "jmh");
    if (rc == TALLY_OK)
        rc = tally__import_json_meta(r.rs, NULL, "", cJSON_GetArrayItem(root, 0), run_keys);
    if (rc == TALLY_OK)
        rc = tally__json_each(root, NULL, p, one_result, &r);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    return tally__json_import_tree(into, data, len, name, opts, read_root);
}

const tally__importer tally__importer_jmh = {
    .name = "jmh", .sniff = sniff, .parse = parse,
};
