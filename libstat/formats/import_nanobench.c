/* nanobench JSON (ankerl::nanobench::templates::json()): {"results": [{"title", "name", "unit",
 * "batch", "complexityN", "epochs", "clockResolution", ..., "median(elapsed)", ...,
 * "measurements": [{"iterations", "elapsed", "pagefaults", "cpucycles", "contextswitches",
 * "instructions", "branchinstructions", "branchmisses"}, ...]}, ...]}.
 * Each measurement is one epoch; its "elapsed" is already seconds per iteration (nanobench's
 * Result::add divides the epoch's time by its iterations), and divided by "batch" it is the time
 * per unit that nanobench prints as ns/op: the sample. The Bench's title is the benchmark, each
 * run's name a case. median(elapsed) / batch is kept as reported.median and
 * medianAbsolutePercentError(elapsed) (a fraction, the same for any unit) as
 * reported.median_abs_pct_error for tally_validate(). */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_object(data, len) ||
        !tally__sniff_has(data, len, "\"results\"", 256) ||
        !tally__sniff_has(data, len, "\"measurements\"", TALLY__SNIFF_MAX))
        return 0;
    return tally__sniff_has(data, len, "\"median(elapsed)\"", TALLY__SNIFF_MAX) ? 95 : 70;
}

/* nanobench's settings of a run, kept as case metadata under its own names. */
static const char *const settings[] = { "unit", "batch", "complexityN", "epochs",
                                        "clockResolution", "clockResolutionMultiple",
                                        "maxEpochTime", "minEpochTime", "minEpochIterations",
                                        "epochIterations", "warmup", "relative", NULL };

typedef struct reading {
    tally_resultset *rs;
    const char *name;
} reading;

static int read_measurements(tally_case *c, const cJSON *list, double batch, const char *name,
                             tally__jpath *p)
{
    const cJSON *m;
    size_t i = 0;
    cJSON_ArrayForEach(m, list) {
        size_t mark = tally__jpath_index(p, i++);
        double elapsed;
        int rc = tally__json_number(&elapsed, m, "elapsed", 1, name, p);
        if (rc == TALLY_OK) {
            double x = elapsed / batch;
            rc = tally_case_append(c, &x, 1);
        }
        tally__jpath_pop(p, mark);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

static int one_result(void *ctx, const cJSON *res, tally__jpath *p)
{
    reading *r = ctx;
    const char *name = r->name;
    const char *title = NULL, *run = NULL, *unit = "op";
    const cJSON *list;
    double batch = 1;
    int rc = tally__json_string(&title, res, "title", 0, name, p);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_string(&run, res, "name", 1, name, p);
    const char *given = NULL;
    if (rc == TALLY_OK)
        rc = tally__json_string(&given, res, "unit", 0, name, p);
    if (given)
        unit = given;
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_number(&batch, res, "batch", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        rc = TALLY_OK;
    if (rc == TALLY_OK && !(batch > 0))
        rc = tally__error_json(TALLY_EPARSE, name, p->text, "expected a batch > 0, found %g",
                               batch);
    if (rc == TALLY_OK)
        rc = tally__json_array(&list, res, "measurements", 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    tally__buf tunit = TALLY__BUF_INIT;
    /* "op", nanobench's default unit, is the time of one operation: seconds, as elsewhere. */
    tally__buf_printf(&tunit, strcmp(unit, "op") == 0 ? "s" : "s/%s", unit);
    const char *bench = title && title[0] ? title : "benchmark";
    tally_benchmark *b = NULL;
    tally_case *c = NULL;
    rc = tunit.failed ? tally__oom()
                      : tally__import_benchmark(&b, r->rs, bench, tunit.data,
                                                TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_EMISMATCH)
        rc = tally__error_json(rc, name, p->text,
                               "benchmark \"%s\" in unit %s, an earlier run of it in %s", bench,
                               tunit.data, tally_benchmark_unit(b));
    if (rc == TALLY_OK && tally_benchmark_case_find(b, run))
        rc = tally__error_json(TALLY_EEXISTS, name, p->text,
                               "run \"%s\" of \"%s\" appears twice", run, bench);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, run);
    tally__buf_dispose(&tunit);
    if (rc != TALLY_OK)
        return rc;
    size_t mark = tally__jpath_key(p, "measurements");
    rc = read_measurements(c, list, batch, name, p);
    if (rc == TALLY_OK && tally_case_sample_count(c) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, p->text, "no measurements");
    tally__jpath_pop(p, mark);
    const cJSON *median = cJSON_GetObjectItemCaseSensitive(res, "median(elapsed)");
    if (rc == TALLY_OK && cJSON_IsNumber(median) && isfinite(median->valuedouble))
        rc = tally__import_reported(c, "median", median->valuedouble / batch);
    const cJSON *mdape =
        cJSON_GetObjectItemCaseSensitive(res, "medianAbsolutePercentError(elapsed)");
    if (rc == TALLY_OK && cJSON_IsNumber(mdape) && isfinite(mdape->valuedouble))
        rc = tally__import_reported(c, "median_abs_pct_error", mdape->valuedouble);
    if (rc == TALLY_OK)
        rc = tally__import_json_meta(NULL, c, "", res, settings);
    return rc;
}

static int read_root(tally_results *into, const cJSON *root, const char *name,
                     const tally_load_options *opts, tally__jpath *p)
{
    const cJSON *list;
    reading r = { NULL, name };
    int rc = tally__json_array(&list, root, "results", 1, name, p);
    if (rc == TALLY_OK && cJSON_GetArraySize(list) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.results", "no results");
    if (rc == TALLY_OK)
        rc = tally__import_begin(&r.rs, into, name, opts, "nanobench");
    if (rc == TALLY_OK)
        rc = tally__json_each(list, "results", p, one_result, &r);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    return tally__json_import_tree(into, data, len, name, opts, read_root);
}

const tally__importer tally__importer_nanobench = {
    .name = "nanobench", .sniff = sniff, .parse = parse,
};
