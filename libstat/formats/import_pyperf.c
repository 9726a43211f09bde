/* pyperf JSON (format version 1.0): {"version": "1.0", "metadata": {...}, "benchmarks":
 * [{"metadata": {"name", "unit", ...}, "runs": [{"warmups": [[loops, value], ...],
 * "values": [...], "metadata": {...}}, ...]}]}.
 * The values of every run are the samples, in run order; warmups are skipped, and calibration
 * runs (warmups only, no values) too. Each pyperf benchmark is a case of one tally benchmark per
 * unit ("pyperf" for seconds, "pyperf (byte)", "pyperf (integer)"), so the benchmarks of a
 * suite line up as rows of one table. A benchmark's metadata overrides the file's common
 * metadata, as in pyperf. With opts->config_key "name" each benchmark is a configuration
 * instead, labelled by its name, its values the case "all" (benchmarks of one file compared
 * with each other, as `pyperf compare_to` compares files). */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_split.h"
#include "util/json_util.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_json_object(data, len))
        return 0;
    if (!tally__sniff_has(data, len, "\"benchmarks\"", 65536) ||
        !tally__sniff_has(data, len, "\"runs\"", 65536))
        return 0;
    return tally__sniff_has(data, len, "\"version\"", 65536) ? 90 : 60;
}

/* A metadata value as text: pyperf stores strings and numbers. */
static int scalar_text(char *num, const cJSON *v, const char **text)
{
    if (cJSON_IsString(v)) {
        *text = v->valuestring;
        return 1;
    }
    if (cJSON_IsNumber(v)) {
        tally__number_format(num, v->valuedouble);
        *text = num;
        return 1;
    }
    return 0;
}

/* Look `key` up in the benchmark's metadata, then in the file's. */
static int lookup(const char **out, const cJSON *bmeta, const cJSON *fmeta, const char *key,
                  const char *name, tally__jpath *p)
{
    *out = NULL;
    int rc = TALLY_ENOTFOUND;
    if (bmeta) {
        size_t mark = tally__jpath_key(p, "metadata");
        rc = tally__json_string(out, bmeta, key, 0, name, p);
        tally__jpath_pop(p, mark);
    }
    if (rc == TALLY_ENOTFOUND && fmeta) {
        tally__jpath q;
        tally__jpath_init(&q);
        tally__jpath_key(&q, "metadata");
        rc = tally__json_string(out, fmeta, key, 0, name, &q);
    }
    return rc;
}

/* The file's common metadata onto a result set. */
static int file_metadata(tally_resultset *rs, const cJSON *fmeta)
{
    int rc = TALLY_OK;
    const cJSON *v;
    if (fmeta == NULL)
        return TALLY_OK;
    cJSON_ArrayForEach(v, fmeta) {
        char num[32];
        const char *text;
        if (rc == TALLY_OK && scalar_text(num, v, &text))
            rc = tally_resultset_meta_set(rs, v->string, text);
    }
    return rc;
}

/* The values of every run, read straight from the text (util/json_split.h). */
static const char *const run_prefix[] = { "benchmarks", "*", "runs", "*", NULL };
static const char *const run_values[] = { "values", NULL };
static const tally__json_cut run_cut = { run_prefix, run_values };

/* The time span of the measured runs: pyperf stamps each run with its local start time,
 * `"date": "2026-11-29 21:10:01.500002"`. Kept as `first_run` and `last_run` on the result set
 * ('T' between date and time, as ISO 8601 writes it), the report tells from them whether two
 * configurations' runs interleaved or came in separate blocks (report/report_blocks.c). A date
 * of another shape is not guessed at: that run adds nothing to the span. */
typedef struct span {
    char first[40], last[40];
} span;

static void span_add(span *sp, const cJSON *run)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(run, "metadata");
    const cJSON *date = meta ? cJSON_GetObjectItemCaseSensitive(meta, "date") : NULL;
    if (!cJSON_IsString(date))
        return;
    static const char shape[] = "dddd-dd-dd dd:dd:dd";
    const char *d = date->valuestring;
    size_t len = strlen(d);
    if (len < sizeof shape - 1 || len >= sizeof sp->first)
        return;
    for (size_t i = 0; i < sizeof shape - 1; i++) {
        int ok = shape[i] == 'd' ? d[i] >= '0' && d[i] <= '9'
                                 : d[i] == shape[i] || (i == 10 && d[i] == 'T');
        if (!ok)
            return;
    }
    char text[sizeof sp->first];
    memcpy(text, d, len + 1);
    text[10] = 'T';
    if (sp->first[0] == '\0' || strcmp(text, sp->first) < 0)
        memcpy(sp->first, text, len + 1);
    if (strcmp(text, sp->last) > 0)
        memcpy(sp->last, text, len + 1);
}

/* The span onto the result set, widening the one its other benchmarks gave. */
static int span_keep(tally_resultset *rs, const span *sp)
{
    if (sp->first[0] == '\0')
        return TALLY_OK;
    const char *first = tally_resultset_meta_get(rs, "first_run");
    const char *last = tally_resultset_meta_get(rs, "last_run");
    int rc = TALLY_OK;
    if (first == NULL || strcmp(sp->first, first) < 0)
        rc = tally_resultset_meta_set(rs, "first_run", sp->first);
    if (rc == TALLY_OK && (last == NULL || strcmp(sp->last, last) > 0))
        rc = tally_resultset_meta_set(rs, "last_run", sp->last);
    return rc;
}

static int read_runs(tally_case *c, tally__json_doc *doc, const cJSON *runs, tally__jpath *p,
                     size_t *calibration, span *sp)
{
    size_t j = 0;
    const cJSON *run;
    cJSON_ArrayForEach(run, runs) {
        size_t mark = tally__jpath_index(p, j++);
        const cJSON *values;
        double *x = NULL;
        size_t n = 0, cap = 0;
        int rc = tally__json_array(&values, run, "values", 0, doc->name, p);
        if (rc == TALLY_OK) {
            tally__jpath_key(p, "values");
            rc = tally__json_doc_take(&x, &n, &cap, doc, values, 0, p);
        }
        if (rc == TALLY_ENOTFOUND || (rc == TALLY_OK && n == 0)) {
            (*calibration)++, rc = TALLY_OK;
            tally__free_mem(x);
        } else if (rc == TALLY_OK) {
            rc = tally__case_adopt(c, x, n, cap); /* takes x */
            span_add(sp, run);
        }
        tally__jpath_pop(p, mark);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* What one_benchmark needs of the file. */
typedef struct reading {
    tally_results *into;
    tally_resultset *rs; /* the file's one configuration, or NULL: one per benchmark */
    tally__json_doc *doc;
    const cJSON *fmeta; /* the file's metadata, or NULL */
    const char *base;   /* the benchmark name's prefix */
} reading;

/* One element of $.benchmarks. */
static int one_benchmark(void *ctx, const cJSON *bench, tally__jpath *p)
{
    const reading *r = ctx;
    tally_resultset *rs = r->rs;
    tally__json_doc *doc = r->doc;
    const cJSON *fmeta = r->fmeta;
    const char *base = r->base;
    const char *name = doc->name;
    const cJSON *bmeta = NULL, *runs;
    int rc = tally__json_object(&bmeta, bench, "metadata", 0, name, p);
    if (rc != TALLY_OK && rc != TALLY_ENOTFOUND)
        return rc;
    const char *bname, *unit;
    rc = lookup(&bname, bmeta, fmeta, "name", name, p);
    if (rc == TALLY_ENOTFOUND)
        return tally__error_json(TALLY_EPARSE, name, p->text,
                                 "missing \"name\" in the benchmark's or the file's metadata");
    if (rc == TALLY_OK)
        rc = lookup(&unit, bmeta, fmeta, "unit", name, p);
    if (rc == TALLY_ENOTFOUND)
        unit = "second", rc = TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    const char *tunit;
    if (strcmp(unit, "second") == 0)
        tunit = "s";
    else if (strcmp(unit, "byte") == 0)
        tunit = "B";
    else if (strcmp(unit, "integer") == 0)
        tunit = "";
    else
        return tally__error_json(TALLY_EPARSE, name, p->text,
                                 "unknown unit \"%s\" (expected second, byte or integer)", unit);
    char bench_name[256];
    int w = strcmp(unit, "second") == 0
                ? snprintf(bench_name, sizeof bench_name, "%s", base)
                : snprintf(bench_name, sizeof bench_name, "%s (%s)", base, unit);
    if (w < 0 || (size_t)w >= sizeof bench_name)
        return tally__error(TALLY_ELIMIT, "benchmark name longer than %zu bytes",
                            sizeof bench_name - 1);
    rc = tally__json_array(&runs, bench, "runs", 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    tally_benchmark *b;
    tally_case *c;
    const char *casename = rs ? bname : "all";
    if (rs == NULL && tally_results_find(r->into, bname))
        return tally__error_json(TALLY_EEXISTS, name, p->text, "benchmark \"%s\" appears twice",
                                 bname);
    if (rs == NULL && (rc = tally__import_config(&rs, r->into, bname, "pyperf")) == TALLY_OK)
        rc = file_metadata(rs, fmeta);
    if (rc != TALLY_OK)
        return rc;
    rc = tally__import_benchmark(&b, rs, bench_name, tunit, TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK && tally_benchmark_case_find(b, casename))
        return tally__error_json(TALLY_EEXISTS, name, p->text, "benchmark \"%s\" appears twice",
                                 bname);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, casename);
    if (rc != TALLY_OK)
        return rc;
    size_t calibration = 0;
    span sp = { "", "" };
    size_t mark = tally__jpath_key(p, "runs");
    rc = read_runs(c, doc, runs, p, &calibration, &sp);
    if (rc == TALLY_OK)
        rc = span_keep(rs, &sp);
    if (rc == TALLY_OK && tally_case_sample_count(c) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, p->text,
                               "no run with values (empty sample list)");
    tally__jpath_pop(p, mark);
    if (rc == TALLY_OK && calibration > 0)
        rc = tally__import_meta_number(c, "calibration_runs", (double)calibration);
    const cJSON *v;
    if (bmeta) {
        cJSON_ArrayForEach(v, bmeta) {
            char num[32];
            const char *text;
            if (rc != TALLY_OK)
                break;
            if (strcmp(v->string, "name") != 0 && scalar_text(num, v, &text))
                rc = tally_case_meta_set(c, v->string, text);
        }
    }
    return rc;
}

static int read_doc(tally_results *into, tally__json_doc *doc, const tally_load_options *opts,
                    tally__jpath *p)
{
    const char *name = doc->name;
    const cJSON *root = doc->root;
    const cJSON *list, *fmeta = NULL;
    const char *version = NULL;
    tally_resultset *rs = NULL;
    int rc = tally__json_string(&version, root, "version", 0, name, p);
    if (rc == TALLY_OK && strncmp(version, "1.", 2) != 0)
        rc = tally__error_json(TALLY_EFORMAT, name, "$.version",
                               "unsupported pyperf format version \"%s\" (expected 1.x)", version);
    if (rc == TALLY_OK || rc == TALLY_ENOTFOUND)
        rc = tally__json_array(&list, root, "benchmarks", 1, name, p);
    if (rc == TALLY_OK && cJSON_GetArraySize(list) == 0)
        rc = tally__error_json(TALLY_ENODATA, name, "$.benchmarks", "no benchmarks");
    if (rc == TALLY_OK)
        rc = tally__json_object(&fmeta, root, "metadata", 0, name, p);
    const char *key = opts ? opts->config_key : NULL;
    int by_name = key && strcmp(key, "name") == 0;
    if (key && strcmp(key, "file") == 0)
        key = NULL; /* the file is one configuration already */
    if (rc == TALLY_ENOTFOUND)
        rc = TALLY_OK;
    if (rc == TALLY_OK && key && !by_name && strcmp(key, "none") != 0)
        rc = tally__error_at(TALLY_EINVAL, name, 0, 0,
                             "--config-key %s: a pyperf file's configurations are its "
                             "benchmarks (name) or the file (none)", key);
    if (rc == TALLY_OK && !by_name)
        rc = tally__import_begin(&rs, into, name, opts, "pyperf");
    if (rc == TALLY_OK && rs)
        rc = file_metadata(rs, fmeta);
    reading r = { into, rs, doc, fmeta, tally__import_name(opts, "pyperf") };
    if (rc == TALLY_OK)
        rc = tally__json_each(list, "benchmarks", p, one_benchmark, &r);
    if (rc == TALLY_OK)
        rc = tally__import_note_split(into, name, "benchmark name");
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    return tally__json_import(into, data, len, name, opts, &run_cut, read_doc);
}

const tally__importer tally__importer_pyperf = {
    .kind = TALLY_INPUT_PYPERF, .name = "pyperf", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK,
    .configs = "its benchmarks (with the config key name)", .config_key = 1,
};
