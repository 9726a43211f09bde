/* fio's JSON output (`--output-format=json`) and `json+` (the same with each latency's bins):
 *   {"fio version": "fio-3.33", "jobs": [{"jobname": "t", "read": {"iops": ..., "bw": ...,
 *     "total_ios": ..., "clat_ns": {"N": ..., "mean": ..., "percentile": {"99.000000": 81},
 *     "bins": {"40": 759, ...}}, "slat_ns": {...}, "lat_ns": {...}}, "write": ..., "trim": ...}]}
 * A file is one run: several files of a job merge into several runs. Per job (a case, named
 * by its jobname) and direction (read, write, trim): "DIR iops" (IO/s) and "DIR bw" (KiB/s,
 * fio's unit), higher is better; per latency (slat, clat, lat) with samples, "DIR KIND mean"
 * and one benchmark per percentile fio printed ("DIR clat p99"), ns, lower is better; json+'s
 * bins become one histogram run of "DIR KIND" (value in ns -> count). fio 3.x writes
 * nanoseconds (`clat_ns`); fio 2.x microseconds (`clat`), multiplied by 1000 here so that
 * files of both versions compare; the note says which was read. A direction without I/O, a
 * latency without samples and fio's "sync" figures are left out, as the note says. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/json_util.h"
#include "util/number.h"

static const char *const directions[] = { "read", "write", "trim" };
static const char *const latencies[] = { "slat", "clat", "lat" };

typedef struct reading {
    tally_resultset *rs;
    const char *name;
    double scale;     /* ns per unit of the file's latencies: 1 (3.x) or 1000 (2.x) */
    const char *key_suffix; /* "_ns" (3.x) or "" (2.x) */
    size_t jobs, runs;
    double resolution; /* the widest bin resolution of the histogram runs, ns */
    /* What was left out, each figure with the number of jobs it was left out of (the first
     * job's name when one): direction, direction and latency, or sync. */
    struct gap {
        char what[24];
        const char *why;
        size_t jobs;
        char first[224];
    } gaps[TALLY__COUNT(directions) * (1 + TALLY__COUNT(latencies)) + 1];
    size_t ngaps;
    tally__buf failed; /* the jobs fio says ended with an error, and the error */
} reading;

/* fio writes some of its notes to standard output, before the JSON ("note: both iodepth >= 1 and
 * synchronous I/O engine are selected, queue depth will be capped at 1"; "fio: this platform
 * does not support process shared mutexes, ..."), so the file of `fio --output-format=json >
 * out.json` starts with them. The length of those lines (up to 64 of them), 0 when the file
 * starts with its JSON, SIZE_MAX when it starts with any other text. */
static size_t preamble_length(const char *data, size_t len)
{
    size_t i = 0;
    for (int lines = 0; lines <= 64; lines++) {
        size_t j = i;
        while (j < len && tally__json_is_ws(data[j]))
            j++;
        if (j < len && data[j] == '{')
            return i;
        if (lines == 64 || !(tally__starts_with(data + i, len - i, "note: ") ||
                             tally__starts_with(data + i, len - i, "fio: ")))
            return SIZE_MAX;
        const char *nl = memchr(data + i, '\n', len - i);
        if (nl == NULL)
            return SIZE_MAX;
        i = (size_t)(nl - data) + 1;
    }
    return SIZE_MAX;
}

static int sniff(const char *data, size_t len)
{
    size_t skip = preamble_length(data, len);
    if (skip == SIZE_MAX)
        return 0;
    data += skip;
    len -= skip;
    if (!tally__sniff_json_object(data, len) ||
        !tally__sniff_has(data, len, "\"fio version\"", 4096))
        return 0;
    return tally__sniff_has(data, len, "\"jobs\"", 65536) ? 95 : 0;
}

/* fio's bins (FIO_IO_U_PLAT_BITS = 6): values below 128 are exact; above, each power of 2
 * [2^m, 2^(m+1)) is cut into 64 bins of width 2^(m-6), and a bin's value is its midpoint
 * (plat_idx_to_val), so a request lies within half a width of it. In the file's unit. */
static double bin_resolution(double v)
{
    if (v < 128)
        return 0;
    int m = (int)floor(log2(v));
    return ldexp(1.0, m - 7);
}

static void left_out(reading *r, const char *job, const char *what, const char *why)
{
    for (size_t i = 0; i < r->ngaps; i++)
        if (strcmp(r->gaps[i].what, what) == 0) {
            r->gaps[i].jobs++;
            return;
        }
    if (r->ngaps == TALLY__COUNT(r->gaps))
        return; /* cannot happen: one slot per figure that can be left out */
    struct gap *g = &r->gaps[r->ngaps++];
    snprintf(g->what, sizeof g->what, "%s", what);
    snprintf(g->first, sizeof g->first, "%s", job);
    g->why = why;
    g->jobs = 1;
}

/* "read slat of job 'rw' (no samples), trim of 3 jobs (no I/O)" */
static void gaps_text(tally__buf *b, const reading *r)
{
    for (size_t i = 0; i < r->ngaps; i++) {
        const struct gap *g = &r->gaps[i];
        tally__buf_printf(b, "%s%s of ", i ? ", " : "", g->what);
        if (g->jobs == 1)
            tally__buf_printf(b, "job '%s'", g->first);
        else
            tally__buf_printf(b, "%zu jobs", g->jobs);
        tally__buf_printf(b, " (%s)", g->why);
    }
}

static int add_value(reading *r, const char *bench, const char *unit, tally_direction dir,
                     const char *job, double x, tally__jpath *p)
{
    tally_benchmark *b;
    tally_case *c;
    if (!isfinite(x)) /* a 2.x latency near the double range, times 1000 */
        return tally__error_json(TALLY_ENONFINITE, r->name, p->text,
                                 "%s of job '%s' beyond the range of a double in ns", bench, job);
    int rc = tally__import_benchmark(&b, r->rs, bench, unit, dir);
    if (rc == TALLY_EMISMATCH)
        return tally__error_json(rc, r->name, p->text,
                                 "benchmark \"%s\" in %s, an earlier one in %s", bench, unit,
                                 tally_benchmark_unit(b));
    if (rc == TALLY_OK)
        rc = tally__import_case(&c, b, job);
    /* one value per job and figure in a file: a second is a job name met twice */
    if (rc == TALLY_OK && tally_case_sample_count(c) > 0)
        return tally__error_json(TALLY_EEXISTS, r->name, p->text,
                                 "a second figure of benchmark \"%s\" for job '%s'", bench, job);
    return rc == TALLY_OK ? tally_case_append(c, &x, 1) : rc;
}

/* A bins object {"VALUE": COUNT, ...}, values ascending, as one histogram run of `bench`. */
static int read_bins(reading *r, const cJSON *bins, const char *bench, const char *job,
                     double n_total, tally__jpath *p)
{
    size_t n = (size_t)cJSON_GetArraySize(bins), k = 0;
    double *values = tally__malloc((n ? n : 1) * sizeof *values);
    uint64_t *counts = tally__malloc((n ? n : 1) * sizeof *counts);
    int rc = values && counts ? TALLY_OK : tally__oom();
    double resolution = 0, sum = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, bins) {
        if (rc != TALLY_OK)
            break;
        size_t at = tally__jpath_key(p, b->string);
        double v, c;
        const char *stop;
        size_t klen = strlen(b->string);
        if (tally__number_scan(&v, &stop, b->string, b->string + klen, TALLY__NUMBER_TEXT) !=
                TALLY__NUMBER_OK ||
            stop != b->string + klen || !(v >= 0) || v != floor(v) || !isfinite(v * r->scale))
            rc = tally__error_json(TALLY_EPARSE, r->name, p->text,
                                   "expected a bin's value (a whole number >= 0) as the key");
        else if (k > 0 && v * r->scale <= values[k - 1])
            rc = tally__error_json(TALLY_EPARSE, r->name, p->text,
                                   "bin values must ascend: %s follows a larger or equal one",
                                   b->string);
        else if ((rc = tally__json_finite(&c, b, r->name, p)) == TALLY_OK &&
                 (!(c >= 0) || c != floor(c) || c > 9007199254740992.0))
            rc = tally__error_json(TALLY_EPARSE, r->name, p->text,
                                   "expected a bin's count (a whole number >= 0)");
        if (rc == TALLY_OK && c > 0) {
            values[k] = v * r->scale;
            counts[k++] = (uint64_t)c;
            sum += c;
            if (bin_resolution(v) * r->scale > resolution)
                resolution = bin_resolution(v) * r->scale;
        }
        tally__jpath_pop(p, at);
    }
    if (rc == TALLY_OK && n_total >= 0 && sum != n_total)
        rc = tally__error_json(TALLY_EMISMATCH, r->name, p->text,
                               "the bins count %.17g requests, N says %.17g", sum, n_total);
    tally_benchmark *bm = NULL;
    tally_case *c = NULL;
    if (rc == TALLY_OK && k > 0) {
        rc = tally__import_benchmark(&bm, r->rs, bench, "ns", TALLY_LOWER_IS_BETTER);
        if (rc == TALLY_OK)
            rc = tally__import_case(&c, bm, job);
        if (rc == TALLY_OK && tally_case_histogram_count(c) > 0)
            rc = tally__error_json(TALLY_EEXISTS, r->name, p->text,
                                   "a second bin set of \"%s\" for job '%s'", bench, job);
        if (rc == TALLY_OK)
            rc = tally_case_histogram_append(c, values, counts, k, resolution);
        if (rc == TALLY_ELIMIT || rc == TALLY_EMISMATCH) {
            char why[256]; /* the message lives where the new one goes */
            snprintf(why, sizeof why, "%s", tally_error_last()->message);
            rc = tally__error_json(rc, r->name, p->text, "%s", why);
        }
        if (rc == TALLY_OK) {
            r->runs++;
            if (resolution > r->resolution)
                r->resolution = resolution;
        }
    }
    tally__free_mem(values);
    tally__free_mem(counts);
    return rc;
}

/* "percentile": {"99.000000": 81, ...}: one benchmark "DIR KIND pNN" per key. */
static int read_percentiles(reading *r, const cJSON *pct, const char *prefix, const char *job,
                            tally__jpath *p)
{
    const cJSON *e;
    int rc = TALLY_OK;
    cJSON_ArrayForEach(e, pct) {
        size_t at = tally__jpath_key(p, e->string);
        double q, x;
        const char *stop;
        size_t klen = strlen(e->string);
        if (tally__number_scan(&q, &stop, e->string, e->string + klen, TALLY__NUMBER_TEXT) !=
                TALLY__NUMBER_OK ||
            stop != e->string + klen || !(q > 0 && q <= 100))
            rc = tally__error_json(TALLY_EPARSE, r->name, p->text,
                                   "expected a percentile (0 to 100) as the key");
        if (rc == TALLY_OK)
            rc = tally__json_finite(&x, e, r->name, p);
        if (rc == TALLY_OK) {
            char qtext[TALLY__NUMBER_BUF], bench[160];
            tally__number_format(qtext, q);
            snprintf(bench, sizeof bench, "%s p%s", prefix, qtext);
            rc = add_value(r, bench, "ns", TALLY_LOWER_IS_BETTER, job, x * r->scale, p);
        }
        tally__jpath_pop(p, at);
        if (rc != TALLY_OK)
            break;
    }
    return rc;
}

static int read_latency(reading *r, const cJSON *dirobj, const char *dir, const char *kind,
                        const char *job, tally__jpath *p)
{
    char key[16], prefix[64];
    snprintf(key, sizeof key, "%s%s", kind, r->key_suffix);
    snprintf(prefix, sizeof prefix, "%s %s", dir, kind);
    const cJSON *lat;
    int rc = tally__json_object(&lat, dirobj, key, 0, r->name, p);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK;
    if (rc != TALLY_OK)
        return rc;
    size_t at = tally__jpath_key(p, key);
    /* fio 3.x counts the samples (N); 2.x does not, and writes zeros when there were none. */
    double n = -1, mean = 0;
    rc = tally__json_number(&n, lat, "N", 0, r->name, p);
    if (rc == TALLY_ENOTFOUND) {
        double mx = 0;
        n = -1;
        rc = tally__json_number(&mx, lat, "max", 0, r->name, p);
        if (rc == TALLY_OK && mx == 0)
            n = 0;
        if (rc == TALLY_ENOTFOUND)
            rc = TALLY_OK;
    }
    if (rc == TALLY_OK && n == 0) {
        left_out(r, job, prefix, "no samples");
    } else if (rc == TALLY_OK) {
        rc = tally__json_number(&mean, lat, "mean", 1, r->name, p);
        if (rc == TALLY_OK) {
            char bench[80];
            snprintf(bench, sizeof bench, "%s mean", prefix);
            rc = add_value(r, bench, "ns", TALLY_LOWER_IS_BETTER, job, mean * r->scale, p);
        }
        const cJSON *pct = NULL, *bins = NULL;
        if (rc == TALLY_OK &&
            (rc = tally__json_object(&pct, lat, "percentile", 0, r->name, p)) == TALLY_OK) {
            size_t m = tally__jpath_key(p, "percentile");
            rc = read_percentiles(r, pct, prefix, job, p);
            tally__jpath_pop(p, m);
        }
        if (rc == TALLY_ENOTFOUND)
            rc = TALLY_OK;
        if (rc == TALLY_OK &&
            (rc = tally__json_object(&bins, lat, "bins", 0, r->name, p)) == TALLY_OK) {
            size_t m = tally__jpath_key(p, "bins");
            rc = read_bins(r, bins, prefix, job, n, p);
            tally__jpath_pop(p, m);
        }
        if (rc == TALLY_ENOTFOUND)
            rc = TALLY_OK;
    }
    tally__jpath_pop(p, at);
    return rc;
}

static int read_direction(reading *r, const cJSON *jobobj, const char *dir, const char *job,
                          tally__jpath *p)
{
    const cJSON *d;
    int rc = tally__json_object(&d, jobobj, dir, 0, r->name, p);
    if (rc == TALLY_ENOTFOUND)
        return TALLY_OK; /* fio before 2.1 wrote no "trim" */
    if (rc != TALLY_OK)
        return rc;
    size_t at = tally__jpath_key(p, dir);
    double ios = 0, iops = 0, bw = 0;
    /* total_ios since fio 2.2; before it, io_bytes tells a direction without I/O */
    rc = tally__json_number(&ios, d, "total_ios", 0, r->name, p);
    if (rc == TALLY_ENOTFOUND)
        rc = tally__json_number(&ios, d, "io_bytes", 1, r->name, p);
    if (rc == TALLY_OK && ios == 0) {
        left_out(r, job, dir, "no I/O");
    } else if (rc == TALLY_OK) {
        char bench[64];
        rc = tally__json_number(&iops, d, "iops", 1, r->name, p);
        if (rc == TALLY_OK)
            rc = tally__json_number(&bw, d, "bw", 1, r->name, p);
        snprintf(bench, sizeof bench, "%s iops", dir);
        if (rc == TALLY_OK)
            rc = add_value(r, bench, "IO/s", TALLY_HIGHER_IS_BETTER, job, iops, p);
        snprintf(bench, sizeof bench, "%s bw", dir);
        if (rc == TALLY_OK)
            rc = add_value(r, bench, "KiB/s", TALLY_HIGHER_IS_BETTER, job, bw, p);
        for (size_t i = 0; rc == TALLY_OK && i < TALLY__COUNT(latencies); i++)
            rc = read_latency(r, d, dir, latencies[i], job, p);
    }
    tally__jpath_pop(p, at);
    return rc;
}

/* The case of a job: its name, numbered "NAME#2", "NAME#3" when the name repeats (numjobs
 * without group_reporting writes each clone under the job's name). */
static int job_case_name(char *out, size_t cap, const cJSON *jobs, const cJSON *job,
                         const char *jobname)
{
    size_t same = 0;
    const cJSON *j;
    cJSON_ArrayForEach(j, jobs) {
        if (j == job)
            break;
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "jobname");
        same += cJSON_IsString(n) && strcmp(n->valuestring, jobname) == 0;
    }
    if (same == 0)
        snprintf(out, cap, "%s", jobname);
    else
        snprintf(out, cap, "%s#%zu", jobname, same + 1);
    return same > 0;
}

typedef struct job_ctx {
    reading *r;
    const cJSON *jobs;
    size_t numbered;
} job_ctx;

static int one_job(void *ctx, const cJSON *job, tally__jpath *p)
{
    job_ctx *j = ctx;
    reading *r = j->r;
    if (!cJSON_IsObject(job))
        return tally__error_json(TALLY_EPARSE, r->name, p->text, "expected a job object, found %s",
                                 tally__json_type_name(job));
    const char *jobname;
    int rc = tally__json_string(&jobname, job, "jobname", 1, r->name, p);
    if (rc != TALLY_OK)
        return rc;
    if (jobname[0] == '\0' || strlen(jobname) > 200)
        return tally__error_json(TALLY_EPARSE, r->name, p->text,
                                 "expected a jobname of 1 to 200 bytes");
    char casename[224];
    j->numbered += (size_t)job_case_name(casename, sizeof casename, j->jobs, job, jobname);
    r->jobs++;
    /* fio's "error" is the errno a job stopped with: its figures cover the I/O until then */
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(job, "error");
    if (cJSON_IsNumber(err) && err->valuedouble != 0)
        tally__buf_printf(&r->failed, "%s'%s' (error %g)", r->failed.len ? ", " : "", casename,
                          err->valuedouble);
    for (size_t i = 0; rc == TALLY_OK && i < TALLY__COUNT(directions); i++)
        rc = read_direction(r, job, directions[i], casename, p);
    const cJSON *sync = cJSON_GetObjectItemCaseSensitive(job, "sync");
    const cJSON *sync_ios = cJSON_GetObjectItemCaseSensitive(sync, "total_ios");
    if (rc == TALLY_OK && cJSON_IsNumber(sync_ios) && sync_ios->valuedouble > 0)
        left_out(r, casename, "sync", "fsync latencies are not read");
    return rc;
}

/* fio 3.x names its latencies clat_ns, slat_ns, lat_ns (nanoseconds); 2.x clat, slat, lat
 * (microseconds). The keys decide, not the version string: fio 2.99 already wrote ns. */
static int latency_version(const cJSON *jobs, int *ns)
{
    const cJSON *job;
    cJSON_ArrayForEach(job, jobs) {
        for (size_t d = 0; d < TALLY__COUNT(directions); d++) {
            const cJSON *dir = cJSON_GetObjectItemCaseSensitive(job, directions[d]);
            for (size_t k = 0; k < TALLY__COUNT(latencies); k++) {
                char key[16];
                snprintf(key, sizeof key, "%s_ns", latencies[k]);
                int has_ns = cJSON_GetObjectItemCaseSensitive(dir, key) != NULL;
                int has_us = cJSON_GetObjectItemCaseSensitive(dir, latencies[k]) != NULL;
                if (has_ns || has_us) {
                    *ns = has_ns;
                    return 1;
                }
            }
        }
    }
    return 0;
}

static int note(tally_results *into, const reading *r, const char *version, int ns, int known,
                size_t numbered)
{
    tally__buf b = TALLY__BUF_INIT;
    tally__buf_printf(&b, "%s: %s JSON, %zu job%s", r->name, version, r->jobs,
                      r->jobs == 1 ? "" : "s");
    if (known)
        tally__buf_printf(&b, ", latencies in %s", ns ? "ns (clat_ns)"
                                                      : "microseconds (clat), read as ns x 1000");
    if (numbered)
        tally__buf_printf(&b, "; jobs of one name numbered NAME#2, NAME#3, ...");
    if (r->runs) {
        char res[TALLY__NUMBER_BUF];
        tally__number_format(res, r->resolution);
        tally__buf_printf(&b, "; %zu json+ bin set%s as histogram runs, exact to within %s ns "
                              "(fio's bins: 64 per power of 2, a bin's midpoint)",
                          r->runs, r->runs == 1 ? "" : "s", res);
    }
    if (r->failed.len)
        tally__buf_printf(&b, "; jobs that ended with an error (their figures kept, up to the "
                              "error): %s",
                          r->failed.data);
    if (r->ngaps) {
        tally__buf_printf(&b, "; left out: ");
        gaps_text(&b, r);
    }
    int rc = b.failed ? tally__oom() : tally_results_note_add(into, b.data);
    tally__buf_dispose(&b);
    return rc;
}

static int read_root(tally_results *into, const cJSON *root, const char *name,
                     const tally_load_options *opts, tally__jpath *p)
{
    if (!cJSON_IsObject(root))
        return tally__error_json(TALLY_EPARSE, name, "$", "expected fio's JSON object, found %s",
                                 tally__json_type_name(root));
    const char *version = "fio";
    const cJSON *jobs;
    int rc = tally__json_string(&version, root, "fio version", 0, name, p);
    if (rc == TALLY_ENOTFOUND)
        rc = TALLY_OK;
    if (rc == TALLY_OK)
        rc = tally__json_array(&jobs, root, "jobs", 1, name, p);
    if (rc != TALLY_OK)
        return rc;
    if (cJSON_GetArraySize(jobs) == 0)
        return tally__error_json(TALLY_ENODATA, name, "$.jobs", "no jobs");
    static const reading zero;
    reading r = zero;
    r.name = name;
    r.scale = 1.0;
    r.key_suffix = "_ns";
    int ns = 1;
    int known = latency_version(jobs, &ns);
    if (!ns) {
        r.scale = 1000.0;
        r.key_suffix = "";
    }
    rc = tally__import_begin(&r.rs, into, name, opts, "fio");
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(r.rs, "fio_version", version);
    job_ctx j = { &r, jobs, 0 };
    if (rc == TALLY_OK)
        rc = tally__json_each(jobs, "jobs", p, one_job, &j);
    if (rc == TALLY_OK && tally_resultset_benchmark_count(r.rs) == 0) {
        tally__buf why = TALLY__BUF_INIT;
        gaps_text(&why, &r);
        rc = why.failed ? tally__oom()
                        : tally__error_json(TALLY_ENODATA, name, "$.jobs", "no figures: %s",
                                            why.data ? why.data : "no job with a direction");
        tally__buf_dispose(&why);
    }
    if (rc == TALLY_OK)
        rc = r.failed.failed ? tally__oom() : note(into, &r, version, ns, known, j.numbered);
    tally__buf_dispose(&r.failed);
    return rc;
}

/* The JSON with fio's lines before it blanked (newlines kept, so that a JSON error keeps its
 * line and column in the file), and those lines, blank ones left out, as one text ("LINE;
 * LINE") for the note. */
static int blank_preamble(char **json, tally__buf *lines, const char *data, size_t len,
                          size_t skip)
{
    *json = tally__malloc(len ? len : 1);
    if (*json == NULL)
        return tally__oom();
    memcpy(*json, data, len);
    for (size_t i = 0; i < skip; i++)
        if (data[i] != '\n')
            (*json)[i] = ' ';
    for (size_t i = 0; i < skip;) {
        const char *nl = memchr(data + i, '\n', skip - i);
        size_t end = nl ? (size_t)(nl - data) : skip, n = end - i;
        while (n > 0 && tally__json_is_ws(data[i + n - 1]))
            n--;
        if (n > 0) {
            if (lines->len > 0)
                tally__buf_puts(lines, "; ");
            tally__buf_append(lines, data + i, n);
        }
        i = end + 1;
    }
    return lines->failed ? tally__oom() : TALLY_OK;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    size_t skip = preamble_length(data, len);
    if (skip == 0 || skip == SIZE_MAX)
        return tally__json_import_tree(into, data, len, name, opts, read_root);
    char *json = NULL;
    tally__buf lines = TALLY__BUF_INIT;
    int rc = blank_preamble(&json, &lines, data, len, skip);
    if (rc == TALLY_OK)
        rc = tally__json_import_tree(into, json, len, name, opts, read_root);
    if (rc == TALLY_OK && lines.len > 0) {
        tally__buf text = TALLY__BUF_INIT;
        tally__buf_printf(&text, "%s: fio's lines before its JSON, not read: %s", name,
                          lines.data);
        rc = text.failed ? tally__oom() : tally_results_note_add(into, text.data);
        tally__buf_dispose(&text);
    }
    tally__free_mem(json);
    tally__buf_dispose(&lines);
    return rc;
}

const tally__importer tally__importer_fio = {
    .name = "fio", .sniff = sniff, .parse = parse,
};
