/* k6's end-of-test summary as JSON (docs/importers.md, "k6"): `k6 run --summary-export FILE`
 * writes {"root_group": {...}, "metrics": {NAME: {"avg": ..., "min": ..., "med": ..., "max":
 * ..., "p(90)": ..., "p(95)": ..., "thresholds": {...}}, ...}} with the statistics flat;
 * handleSummary()'s data holds them under "values" next to "type" and "contains". A file is one
 * test run: each figure is one sample, and several runs' files are merged into one result set
 * (tally merge) to compare their spread. Trend metrics become a benchmark each (milliseconds,
 * lower is better, for k6's time trends; cases "avg", "med", "p(95)", ...), counters their
 * per-second rate (NAME, case "rate", higher is better; B/s for data counters); rate metrics (checks, http_req_failed)
 * and gauges (vus) have no direction tally could assume and are left out, as a note says. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_object(data, len) || !tally__sniff_has(data, len, "\"metrics\"", 8192))
        return 0;
    if (tally__sniff_has(data, len, "\"root_group\"", 65536) &&
        (tally__sniff_has(data, len, "\"http_reqs\"", 65536) ||
         tally__sniff_has(data, len, "\"iterations\"", 65536)))
        return 90;
    if (tally__sniff_has(data, len, "\"summaryTrendStats\"", 8192))
        return 90;
    return 0;
}

/* k6's built-in time trends: their figures are milliseconds. */
static int time_trend(const char *metric, const cJSON *m)
{
    const cJSON *contains = cJSON_GetObjectItemCaseSensitive(m, "contains");
    if (cJSON_IsString(contains))
        return strcmp(contains->valuestring, "time") == 0;
    return strncmp(metric, "http_req_", 9) == 0 || strcmp(metric, "iteration_duration") == 0 ||
           strcmp(metric, "group_duration") == 0;
}

typedef struct reading {
    tally_resultset *rs;
    const char *name;
    size_t samples;
    tally__buf left_out;
} reading;

static int one_metric(reading *r, const cJSON *m, tally__jpath *p)
{
    const char *metric = m->string;
    if (!cJSON_IsObject(m))
        return tally__error_json(TALLY_EPARSE, r->name, p->text, "expected a metric object");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(m, "values");
    size_t mark = 0;
    if (values != NULL) {
        if (!cJSON_IsObject(values))
            return tally__error_json(TALLY_EPARSE, r->name, p->text,
                                     "expected \"values\" to be an object");
        mark = tally__jpath_key(p, "values");
    } else {
        values = m;
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(m, "type");
    int trend = cJSON_IsString(type) ? strcmp(type->valuestring, "trend") == 0
                                     : cJSON_GetObjectItemCaseSensitive(values, "avg") != NULL;
    int counter = cJSON_IsString(type) ? strcmp(type->valuestring, "counter") == 0
                                       : cJSON_GetObjectItemCaseSensitive(values, "count") != NULL &&
                                             cJSON_GetObjectItemCaseSensitive(values, "rate") != NULL;
    int rc = TALLY_OK;
    const cJSON *v;
    if (trend) {
        const char *unit = time_trend(metric, m) ? "ms" : "";
        cJSON_ArrayForEach(v, values) {
            /* "count" is how many values the trend saw, not a figure of them. */
            if (strcmp(v->string, "count") == 0 || !cJSON_IsNumber(v))
                continue;
            double x;
            size_t at = tally__jpath_key(p, v->string);
            rc = tally__json_finite(&x, v, r->name, p);
            tally__jpath_pop(p, at);
            if (rc == TALLY_OK)
                rc = tally__import_sample(r->rs, metric, unit, TALLY_LOWER_IS_BETTER, v->string, x);
            if (rc != TALLY_OK)
                break;
            r->samples++;
        }
    } else if (counter) {
        double x;
        const cJSON *contains = cJSON_GetObjectItemCaseSensitive(m, "contains");
        int bytes = cJSON_IsString(contains) ? strcmp(contains->valuestring, "data") == 0
                                             : strncmp(metric, "data_", 5) == 0;
        rc = tally__json_number(&x, values, "rate", 1, r->name, p);
        if (rc == TALLY_OK)
            rc = tally__import_sample(r->rs, metric, bytes ? "B/s" : "/s",
                                      TALLY_HIGHER_IS_BETTER, "rate", x);
        r->samples += rc == TALLY_OK;
    } else {
        tally__buf_printf(&r->left_out, "%s'%s'", r->left_out.len ? ", " : "", metric);
    }
    if (mark)
        tally__jpath_pop(p, mark);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, data, len, name);
    if (rc != TALLY_OK)
        return rc;
    reading r = { NULL, name, 0, TALLY__BUF_INIT };
    tally__jpath p;
    tally__jpath_init(&p);
    const cJSON *metrics = NULL;
    if (!cJSON_IsObject(root))
        rc = tally__error_json(TALLY_EPARSE, name, "$", "expected a k6 summary object");
    if (rc == TALLY_OK)
        rc = tally__json_object(&metrics, root, "metrics", 1, name, &p);
    if (rc == TALLY_OK)
        rc = tally__import_begin(&r.rs, into, name, opts, "k6");
    const cJSON *m;
    size_t mark = tally__jpath_key(&p, "metrics");
    if (rc == TALLY_OK) {
        cJSON_ArrayForEach(m, metrics) {
            size_t at = tally__jpath_key(&p, m->string);
            rc = one_metric(&r, m, &p);
            tally__jpath_pop(&p, at);
            if (rc != TALLY_OK)
                break;
        }
    }
    tally__jpath_pop(&p, mark);
    if (rc == TALLY_OK && r.samples == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.metrics",
                               "no trend or counter metric with figures");
    if (rc == TALLY_OK && r.left_out.len) {
        tally__buf note = TALLY__BUF_INIT;
        tally__buf_printf(&note, "%s: k6 rate and gauge metrics left out (no direction to "
                                 "assume): %s", name, r.left_out.data);
        rc = note.failed ? tally__oom() : tally_results_note_add(into, note.data);
        tally__buf_dispose(&note);
    }
    if (rc == TALLY_OK && r.left_out.failed)
        rc = tally__oom();
    tally__buf_dispose(&r.left_out);
    cJSON_Delete(root);
    return rc;
}

const tally__importer tally__importer_k6 = {
    .name = "k6", .sniff = sniff, .parse = parse,
};
