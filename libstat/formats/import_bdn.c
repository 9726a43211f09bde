/* BenchmarkDotNet JSON, as its full exporter writes it (JsonExporter.Full, `--exporters json`,
 * *-report-full.json): {"Title", "HostEnvironmentInfo": {...}, "Benchmarks": [{"DisplayInfo",
 * "Namespace", "Type", "Method", "MethodTitle", "Parameters", "FullName", "Statistics": {...},
 * "Measurements": [{"IterationMode", "IterationStage", "LaunchIndex", "IterationIndex",
 * "Operations", "Nanoseconds"}, ...]}, ...]}.
 * The measurements of the actual workload iterations (IterationMode "Workload", IterationStage
 * "Actual"; "MainTarget" in files before 0.11, which have no stage) are the samples, each
 * Nanoseconds / Operations, the time of one operation: jitting, pilot, warm-up and overhead
 * iterations are not, nor the "Result" rows, which BenchmarkDotNet derives from them (overhead
 * subtracted, upper outliers removed). Its Statistics are of those derived rows: they are kept
 * as reported.bdn_* with what rebuilds the rows from the samples (the median overhead per
 * operation, the number of rows left out; model/validate_bdn.c) for tally_validate(). A
 * benchmark is Type.Method, a case its Parameters ("N=1000"), else "all"; the job (DisplayInfo
 * "Type.Method: Job [params]") separates configurations when a file holds several. */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "model/validate_bdn.h"
#include "util/internal.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_object(data, len) ||
        !tally__sniff_has(data, len, "\"Benchmarks\"", TALLY__SNIFF_MAX))
        return 0;
    return tally__sniff_has(data, len, "\"HostEnvironmentInfo\"", 4096) ? 95 : 0;
}

/* The job of a DisplayInfo "Type.Method: Job [N=1]" into `out`; "" when it names none. */
static void job_of(tally__buf *out, const char *display)
{
    const char *colon = display ? strstr(display, ": ") : NULL;
    if (colon == NULL)
        return;
    const char *start = colon + 2;
    const char *end = strstr(start, " [");
    tally__buf_append(out, start, end ? (size_t)(end - start) : strlen(start));
}

typedef struct reading {
    tally_results *into;
    tally_resultset *rs; /* the file's one configuration, or NULL: one per job */
    const cJSON *host;
    const char *name;
} reading;

/* 1 when the jobs of $.Benchmarks differ. */
static int several_jobs(const cJSON *list)
{
    tally__buf first = TALLY__BUF_INIT, job = TALLY__BUF_INIT;
    const cJSON *e;
    int several = 0, k = 0;
    cJSON_ArrayForEach(e, list) {
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "DisplayInfo");
        tally__buf *to = k++ ? &job : &first;
        to->len = 0;
        job_of(to, cJSON_IsString(d) ? d->valuestring : NULL);
        if (k > 1 && (job.len != first.len ||
                      (job.len && memcmp(job.data, first.data, job.len) != 0)))
            several = 1;
    }
    tally__buf_dispose(&first);
    tally__buf_dispose(&job);
    return several;
}

/* 1 for a measurement of an actual workload iteration. */
static int actual(const cJSON *m)
{
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(m, "IterationMode");
    const cJSON *stage = cJSON_GetObjectItemCaseSensitive(m, "IterationStage");
    if (!cJSON_IsString(mode))
        return 0;
    if (strcmp(mode->valuestring, "MainTarget") == 0)
        return stage == NULL;
    return strcmp(mode->valuestring, "Workload") == 0 && cJSON_IsString(stage) &&
           strcmp(stage->valuestring, "Actual") == 0;
}

static int read_measurements(tally_case *c, const cJSON *list, const char *name, tally__jpath *p)
{
    const cJSON *m;
    size_t i = 0;
    cJSON_ArrayForEach(m, list) {
        size_t mark = tally__jpath_index(p, i++);
        double ops, ns;
        int rc = TALLY_OK;
        if (actual(m)) {
            rc = tally__json_number(&ops, m, "Operations", 1, name, p);
            if (rc == TALLY_OK)
                rc = tally__json_number(&ns, m, "Nanoseconds", 1, name, p);
            if (rc == TALLY_OK && !(ops > 0))
                rc = tally__error_json(TALLY_EPARSE, name, p->text,
                                       "expected Operations > 0, found %g", ops);
            if (rc == TALLY_OK) {
                double x = ns / ops;
                rc = tally_case_append(c, &x, 1);
            }
        }
        tally__jpath_pop(p, mark);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* What rebuilds BenchmarkDotNet's Result rows from the samples: the median of the overhead
 * iterations' Nanoseconds per operation of the actual ones, and how many actual ones the Result
 * rows leave out. *kept 0 when the file does not say (no Result rows, actual iterations of
 * different operation counts, where the overhead per operation is not one number). */
typedef struct derived {
    size_t actual, results;
    double ops, overhead;
    int kept;
} derived;

static int find_derived(derived *d, const cJSON *list)
{
    const cJSON *m;
    double *ovh = NULL;
    size_t n = 0, cap = 0;
    int same_ops = 1;
    memset(d, 0, sizeof *d);
    cJSON_ArrayForEach(m, list) {
        const cJSON *mode = cJSON_GetObjectItemCaseSensitive(m, "IterationMode");
        const cJSON *stage = cJSON_GetObjectItemCaseSensitive(m, "IterationStage");
        const cJSON *ops = cJSON_GetObjectItemCaseSensitive(m, "Operations");
        const cJSON *ns = cJSON_GetObjectItemCaseSensitive(m, "Nanoseconds");
        if (!cJSON_IsString(mode) || !cJSON_IsString(stage))
            continue;
        if (actual(m) && cJSON_IsNumber(ops)) {
            if (d->actual++ == 0)
                d->ops = ops->valuedouble;
            same_ops &= ops->valuedouble == d->ops;
        } else if (strcmp(mode->valuestring, "Workload") == 0 &&
                   strcmp(stage->valuestring, "Result") == 0) {
            d->results++;
        } else if (strcmp(mode->valuestring, "Overhead") == 0 &&
                   strcmp(stage->valuestring, "Actual") == 0 && cJSON_IsNumber(ns) &&
                   isfinite(ns->valuedouble)) {
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                double *grown = tally__reallocarray(ovh, cap, sizeof *grown);
                if (grown == NULL) {
                    tally__free_mem(ovh);
                    return tally__oom();
                }
                ovh = grown;
            }
            ovh[n++] = ns->valuedouble;
        }
    }
    int rc = TALLY_OK;
    if (n > 0) {
        tally_summary sum = { .size = sizeof sum };
        rc = tally_summarize(&sum, ovh, n, NULL);
        d->overhead = sum.median;
    }
    tally__free_mem(ovh);
    if (rc != TALLY_OK)
        return rc;
    d->kept = d->results > 0 && same_ops && d->ops > 0;
    if (d->kept)
        d->overhead /= d->ops;
    return TALLY_OK;
}

/* Statistics' Mean, Median, StandardDeviation, Min and Max as reported.bdn_*, with what
 * rebuilds the rows they describe. */
static int keep_statistics(tally_case *c, const cJSON *e, const cJSON *list)
{
    static const char *const figures[][2] = { { "Mean", "bdn_mean" },
                                               { "Median", "bdn_median" },
                                               { "StandardDeviation", "bdn_stddev" },
                                               { "Min", "bdn_min" },
                                               { "Max", "bdn_max" } };
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(e, "Statistics");
    derived d;
    if (!cJSON_IsObject(stats))
        return TALLY_OK;
    int rc = find_derived(&d, list);
    if (rc != TALLY_OK || !d.kept)
        return rc;
    rc = tally__import_meta_number(c, TALLY__BDN_OVERHEAD, d.overhead);
    if (rc == TALLY_OK)
        rc = tally__import_meta_number(c, TALLY__BDN_OUTLIERS,
                                       (double)d.actual - (double)d.results);
    for (size_t i = 0; rc == TALLY_OK && i < TALLY__COUNT(figures); i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(stats, figures[i][0]);
        if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
            rc = tally__import_reported(c, figures[i][1], v->valuedouble);
    }
    return rc;
}

static int one_benchmark(void *ctx, const cJSON *e, tally__jpath *p)
{
    reading *r = ctx;
    const char *name = r->name;
    const char *type, *method, *params = NULL, *display = NULL;
    const cJSON *list;
    int rc = tally__json_string(&type, e, "Type", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_string(&method, e, "Method", 1, name, p);
    if (rc == TALLY_OK)
        rc = tally__json_string(&params, e, "Parameters", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_string(&display, e, "DisplayInfo", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_array(&list, e, "Measurements", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        return tally__error_json(TALLY_ENODATA, name, p->text,
                                 "no Measurements: export with JsonExporter.Full (the brief "
                                 "exporter leaves out every iteration)");
    if (rc != TALLY_OK)
        return rc;
    tally_resultset *rs = r->rs;
    tally__buf job = TALLY__BUF_INIT, bench = TALLY__BUF_INIT;
    if (rs == NULL) {
        job_of(&job, display);
        rc = job.failed ? tally__oom()
                        : tally__import_config(&rs, r->into, job.len ? job.data : "(no job)",
                                               "benchmarkdotnet");
        if (rc == TALLY_OK && tally_resultset_meta_count(rs) == 1 && r->host)
            rc = tally__import_json_meta(rs, NULL, "host.", r->host, NULL);
    }
    tally__buf_printf(&bench, "%s.%s", type, method);
    const char *casename = params && params[0] ? params : "all";
    tally_benchmark *b = NULL;
    tally_case *c = NULL;
    if (rc == TALLY_OK)
        rc = bench.failed ? tally__oom()
                          : tally__import_benchmark(&b, rs, bench.data, "ns",
                                                    TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK && tally_benchmark_case_find(b, casename))
        rc = tally__error_json(TALLY_EEXISTS, name, p->text,
                               "benchmark \"%s\" with parameters \"%s\" appears twice in job "
                               "\"%s\"", bench.data, casename, tally_resultset_label(rs));
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, casename);
    tally__buf_dispose(&job);
    tally__buf_dispose(&bench);
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(p, "Measurements");
    rc = read_measurements(c, list, name, p);
    if (rc == TALLY_OK && tally_case_sample_count(c) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, p->text,
                               "no measurement of an actual workload iteration");
    tally__jpath_pop(p, mark);
    if (rc == TALLY_OK && display)
        rc = tally_case_meta_set(c, "display_info", display);
    if (rc == TALLY_OK)
        rc = keep_statistics(c, e, list);
    return rc;
}

static int read_root(tally_results *into, const cJSON *root, const char *name,
                     const tally_load_options *opts, tally__jpath *p)
{
    const cJSON *list, *host = NULL;
    const char *title = NULL;
    reading r = { into, NULL, NULL, name };
    int rc = tally__json_array(&list, root, "Benchmarks", 1, name, p);
    if (rc == TALLY_OK && cJSON_GetArraySize(list) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.Benchmarks", "no benchmarks");
    if (rc == TALLY_OK)
        rc = tally__json_object(&host, root, "HostEnvironmentInfo", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_string(&title, root, "Title", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        rc = TALLY_OK;
    r.host = host;
    if (rc == TALLY_OK && !several_jobs(list)) {
        rc = tally__import_begin(&r.rs, into, name, opts, "benchmarkdotnet");
        if (rc == TALLY_OK && host)
            rc = tally__import_json_meta(r.rs, NULL, "host.", host, NULL);
    }
    if (rc == TALLY_OK)
        rc = tally__json_each(list, "Benchmarks", p, one_benchmark, &r);
    for (size_t i = 0; rc == TALLY_OK && title && i < tally_results_count(into); i++)
        rc = tally_resultset_meta_set(tally_results_at(into, i), "title", title);
    if (rc == TALLY_OK)
        rc = tally__import_note_split(into, name, "job");
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    return tally__json_import_tree(into, data, len, name, opts, read_root);
}

const tally__importer tally__importer_benchmarkdotnet = {
    .name = "benchmarkdotnet", .sniff = sniff,
    .parse = parse, .configs = "its jobs",
};
