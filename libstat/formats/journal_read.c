/* Reading run journals and building result sets from them (formats/journal.h). The same code
 * serves `tally summary OUT.json.journal` (an input like any other, marked partial when runs
 * are missing), `tally run --finish` and the runner's own result set. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/importer.h"
#include "formats/journal.h"
#include "util/internal.h"
#include "util/json_util.h"

#define SIGNATURE "{\"tally_journal\":"

int tally__journal_sniff(const char *data, size_t len)
{
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3;
        len -= 3;
    }
    return len >= sizeof(SIGNATURE) - 1 && memcmp(data, SIGNATURE, sizeof(SIGNATURE) - 1) == 0;
}

void tally__journal_data_free(tally__journal_data *d)
{
    if (d == NULL)
        return;
    cJSON_Delete(d->header);
    cJSON_Delete(d->resumes);
    for (size_t i = 0; d->metrics && i < d->metric_count; i++) {
        tally__free_mem(d->metrics[i].benchmark);
        tally__free_mem(d->metrics[i].case_name);
        tally__free_mem(d->metrics[i].unit);
    }
    tally__free_mem(d->metrics);
    for (size_t i = 0; i < d->count; i++) {
        tally__free_mem(d->runs_done[i].values);
        tally__free_mem(d->runs_done[i].failure);
        tally__journal_hists_free(d->runs_done[i].hists, d->metric_count);
    }
    tally__free_mem(d->runs_done);
    tally__free_mem(d->seen);
    for (size_t i = 0; d->stops && i < d->points; i++) {
        tally__free_mem(d->stops[i].reason);
        tally__free_mem(d->stops[i].detail);
    }
    tally__free_mem(d->stops);
    memset(d, 0, sizeof(*d));
}

void tally__journal_hists_free(tally__journal_hist *h, size_t count)
{
    for (size_t i = 0; h != NULL && i < count; i++) {
        tally__free_mem(h[i].values);
        tally__free_mem(h[i].counts);
    }
    tally__free_mem(h);
}

int tally__journal_has_histograms(const tally__journal_data *d)
{
    for (size_t m = 0; m < d->metric_count; m++)
        if (d->metrics[m].histogram)
            return 1;
    return 0;
}

static int bad_header(const char *name, const char *what)
{
    return tally__error_at(TALLY_EPARSE, name, 1, 1, "not a tally journal header: %s", what);
}

static int string_array(const cJSON *h, const char *key, size_t *count)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(h, key);
    if (!cJSON_IsArray(a))
        return -1;
    const cJSON *v;
    size_t n = 0;
    cJSON_ArrayForEach(v, a)
    {
        if (!cJSON_IsString(v))
            return -1;
        n++;
    }
    *count = n;
    return 0;
}

static int count_field(size_t *out, const cJSON *h, const char *key, double min)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= min) || v->valuedouble > 1e6 ||
        v->valuedouble != floor(v->valuedouble))
        return -1;
    *out = (size_t)v->valuedouble;
    return 0;
}

static int read_metrics(tally__journal_data *d, const char *name)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(d->header, "metrics");
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1)
        return bad_header(name, "no \"metrics\"");
    size_t n = (size_t)cJSON_GetArraySize(a);
    d->metrics = tally__calloc(n, sizeof(*d->metrics));
    if (d->metrics == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    d->metric_count = n;
    size_t i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, a)
    {
        tally__metric *t = &d->metrics[i++];
        const cJSON *bench = cJSON_GetObjectItemCaseSensitive(m, "benchmark");
        const cJSON *cs = cJSON_GetObjectItemCaseSensitive(m, "case");
        const cJSON *unit = cJSON_GetObjectItemCaseSensitive(m, "unit");
        const cJSON *better = cJSON_GetObjectItemCaseSensitive(m, "better");
        const cJSON *stat = cJSON_GetObjectItemCaseSensitive(m, "statistic");
        const cJSON *hist = cJSON_GetObjectItemCaseSensitive(m, "histogram");
        if (!cJSON_IsString(bench) || !cJSON_IsString(unit) || !cJSON_IsString(better) ||
            !cJSON_IsString(stat) || (cs != NULL && !cJSON_IsString(cs) && !cJSON_IsNull(cs)))
            return bad_header(name, "a \"metrics\" entry lacks benchmark, unit, better or "
                                    "statistic");
        if (hist != NULL && !cJSON_IsBool(hist))
            return bad_header(name, "a \"metrics\" entry's \"histogram\" is not true or false");
        t->histogram = cJSON_IsTrue(hist);
        if (tally_direction_from_name(&t->direction, better->valuestring) != TALLY_OK ||
            tally_statistic_from_name(&t->statistic, stat->valuestring) != TALLY_OK)
            return bad_header(name, "a \"metrics\" entry has an unknown direction or statistic");
        t->benchmark = tally__strdup(bench->valuestring);
        t->unit = tally__strdup(unit->valuestring);
        t->case_name = cJSON_IsString(cs) ? tally__strdup(cs->valuestring) : NULL;
        if (t->benchmark == NULL || t->unit == NULL || (cJSON_IsString(cs) && !t->case_name))
            return tally__error(TALLY_ENOMEM, "out of memory");
    }
    return TALLY_OK;
}

int tally__journal_init(tally__journal_data *d, cJSON *header, const char *name)
{
    memset(d, 0, sizeof(*d));
    d->header = header;
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(header, "tally_journal");
    if (!cJSON_IsNumber(version))
        return bad_header(name, "no \"tally_journal\" version");
    if (version->valuedouble != TALLY__JOURNAL_VERSION && version->valuedouble != 3 &&
        version->valuedouble != TALLY__JOURNAL_VERSION_HIST)
        return tally__error_at(TALLY_EPARSE, name, 1, 1,
                               "journal version %g is not readable by this tally (it reads "
                               "versions %d to %d)",
                               version->valuedouble, TALLY__JOURNAL_VERSION,
                               TALLY__JOURNAL_VERSION_HIST);
    int adaptive = version->valuedouble == 3;
    if (adaptive != cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(header, "adaptive")))
        return bad_header(name, "version 3 (and only it) has an \"adaptive\" object");
    size_t cases = 0;
    if (string_array(header, "sweep", &d->sweep_count) != 0 || d->sweep_count == 0 ||
        string_array(header, "cases", &cases) != 0 || cases != d->sweep_count)
        return bad_header(name, "\"sweep\" and \"cases\" must be lists of the same length");
    if (string_array(header, "labels", &d->config_count) != 0 || d->config_count == 0)
        return bad_header(name, "no \"labels\"");
    if (count_field(&d->runs, header, "runs", 1) != 0 ||
        count_field(&d->warmup, header, "warmup", 0) != 0)
        return bad_header(name, "\"runs\" and \"warmup\" must be counts");
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(header, "meta")))
        return bad_header(name, "no \"meta\" object");
    d->points = d->sweep_count * d->config_count;
    d->slots = d->warmup + d->runs;
    int rc = read_metrics(d, name);
    if (rc != TALLY_OK)
        return rc;
    /* An older tally refuses a journal of histograms by its version instead of reading its
     * runs without them. */
    if ((version->valuedouble == TALLY__JOURNAL_VERSION_HIST) != tally__journal_has_histograms(d))
        return bad_header(name, "version 4 (and only it) has histogram metrics");
    d->seen = tally__calloc(d->points * d->slots, 1);
    if (adaptive && d->seen != NULL)
        d->stops = tally__calloc(d->points, sizeof(*d->stops));
    return d->seen && (!adaptive || d->stops) ? TALLY_OK
                                              : tally__error(TALLY_ENOMEM, "out of memory");
}

int tally__journal_add_stop(tally__journal_data *d, size_t point, const tally__journal_stop *stop,
                            const char *name, unsigned long line)
{
    if (d->stops == NULL || point >= d->points || stop->reason == NULL || stop->runs > d->runs)
        return tally__error_at(TALLY_EPARSE, name, line, 1, "not a stop record of this sweep");
    tally__journal_stop *t = &d->stops[point];
    if (t->reason != NULL)
        return tally__error_at(TALLY_EPARSE, name, line, 1,
                               "case %zu is stopped twice (a journal written by two processes?)",
                               point + 1);
    t->reason = tally__strdup(stop->reason);
    t->detail = tally__strdup(stop->detail ? stop->detail : "");
    t->runs = stop->runs;
    t->look = stop->look;
    return t->reason && t->detail ? TALLY_OK : tally__error(TALLY_ENOMEM, "out of memory");
}

/* A `{"stop":{"case_index":P,"reason":R,"runs":N,"look":K,"detail":D}}` line. */
static int parse_stop(tally__journal_data *d, const cJSON *stop, unsigned long lineno,
                      const char *name)
{
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(stop, "case_index");
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(stop, "reason");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(stop, "runs");
    const cJSON *look = cJSON_GetObjectItemCaseSensitive(stop, "look");
    const cJSON *detail = cJSON_GetObjectItemCaseSensitive(stop, "detail");
    static const char *const reasons[] = { "precision", "significant", "equivalent", "max-runs" };
    int known = 0;
    for (size_t i = 0; cJSON_IsString(reason) && i < 4; i++)
        known |= strcmp(reason->valuestring, reasons[i]) == 0;
    if (!known || !cJSON_IsNumber(ci) || !cJSON_IsNumber(runs) || !cJSON_IsNumber(look) ||
        ci->valuedouble < 0 || ci->valuedouble != floor(ci->valuedouble) ||
        runs->valuedouble < 0 || runs->valuedouble != floor(runs->valuedouble) ||
        look->valuedouble < 1 || look->valuedouble != floor(look->valuedouble) ||
        look->valuedouble > 1e9 || ci->valuedouble >= (double)d->points)
        return tally__error_at(TALLY_EPARSE, name, lineno, 1, "not a stop record of this sweep");
    tally__journal_stop t = { reason->valuestring, (size_t)runs->valuedouble,
                              (size_t)look->valuedouble,
                              cJSON_IsString(detail) ? detail->valuestring : NULL };
    return tally__journal_add_stop(d, (size_t)ci->valuedouble, &t, name, lineno);
}

/* A run's histograms copied: each histogram metric's (non-empty), nothing for the others. */
static int copy_hists(tally__journal_hist **out, const tally__journal_data *d,
                      const tally__journal_run *run)
{
    *out = NULL;
    if (!tally__journal_has_histograms(d))
        return TALLY_OK;
    tally__journal_hist *h = tally__calloc(d->metric_count, sizeof(*h));
    if (h == NULL)
        return tally__oom();
    for (size_t m = 0; m < d->metric_count; m++) {
        const tally__journal_hist *from = run->hists ? &run->hists[m] : NULL;
        if (!d->metrics[m].histogram)
            continue;
        if (from == NULL || from->n == 0) {
            tally__journal_hists_free(h, d->metric_count);
            return tally__error(TALLY_EINVAL, "a run of histogram metric '%s' without its "
                                "histogram", d->metrics[m].benchmark);
        }
        h[m].values = tally__reallocarray(NULL, from->n, sizeof(double));
        h[m].counts = tally__reallocarray(NULL, from->n, sizeof(uint64_t));
        if (h[m].values == NULL || h[m].counts == NULL) {
            tally__journal_hists_free(h, d->metric_count);
            return tally__oom();
        }
        memcpy(h[m].values, from->values, from->n * sizeof(double));
        memcpy(h[m].counts, from->counts, from->n * sizeof(uint64_t));
        h[m].n = from->n;
        h[m].resolution = from->resolution;
    }
    *out = h;
    return TALLY_OK;
}

int tally__journal_add(tally__journal_data *d, const tally__journal_run *run, const char *name,
                       unsigned long line)
{
    unsigned char *seen = &d->seen[run->case_index * d->slots + run->slot];
    if (*seen) {
        size_t c = run->case_index;
        if (line > 0)
            return tally__error_at(TALLY_EMISMATCH, name, line, 1,
                                   "run %zu of case %zu is recorded twice (a journal written by "
                                   "two processes?)",
                                   run->slot + 1, c + 1);
        return tally__error_at(TALLY_EMISMATCH, name, 0, 0,
                               "run %zu of case %zu is already recorded", run->slot + 1, c + 1);
    }
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 32;
        tally__journal_run *grown = tally__reallocarray(d->runs_done, cap, sizeof(*grown));
        if (grown == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        d->runs_done = grown;
        d->cap = cap;
    }
    tally__journal_run copy = *run;
    copy.values = NULL;
    copy.failure = NULL;
    copy.hists = NULL;
    if (run->ok) {
        copy.values = tally__calloc(d->metric_count, sizeof(double));
        if (copy.values == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        memcpy(copy.values, run->values, d->metric_count * sizeof(double));
        int rc = copy_hists(&copy.hists, d, run);
        if (rc != TALLY_OK) {
            tally__free_mem(copy.values);
            return rc;
        }
    } else {
        copy.failure = tally__strdup(run->failure ? run->failure : "failed");
        if (copy.failure == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
    }
    d->runs_done[d->count++] = copy;
    *seen = 1;
    return TALLY_OK;
}

static int keep_resume(tally__journal_data *d, cJSON *note)
{
    if (d->resumes == NULL && (d->resumes = cJSON_CreateArray()) == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    cJSON *copy = cJSON_Duplicate(note, 1);
    if (copy == NULL || !cJSON_AddItemToArray(d->resumes, copy)) {
        cJSON_Delete(copy);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    return TALLY_OK;
}

int tally__journal_note_resume(tally__journal_data *d, const char *line, size_t len,
                               const char *name)
{
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, line, len, name);
    const cJSON *on = cJSON_GetObjectItemCaseSensitive(root, "resumed");
    if (rc == TALLY_OK)
        rc = cJSON_IsObject(on) ? keep_resume(d, (cJSON *)on)
                                : tally__error(TALLY_EINVAL, "not a resume note");
    cJSON_Delete(root);
    return rc;
}

/* Whole counts a double holds exactly (2^53), as native JSON's histograms. */
#define MAX_EXACT_COUNT 9007199254740992.0

/* A histogram metric's value in a run line: {"resolution":R,"values":[...],"counts":[...]}
 * (docs/runners.md), checked as tally_case_histogram_append checks a run. TALLY_EPARSE
 * (the caller names the line) or TALLY_ENOMEM. */
static int parse_hist(tally__journal_hist *h, const cJSON *obj)
{
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(obj, "resolution");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(obj, "values");
    const cJSON *counts = cJSON_GetObjectItemCaseSensitive(obj, "counts");
    if (!cJSON_IsNumber(res) || !(res->valuedouble >= 0) || !isfinite(res->valuedouble) ||
        !cJSON_IsArray(values) || !cJSON_IsArray(counts) || cJSON_GetArraySize(values) < 1 ||
        cJSON_GetArraySize(values) != cJSON_GetArraySize(counts))
        return TALLY_EPARSE;
    size_t n = (size_t)cJSON_GetArraySize(values);
    h->values = tally__reallocarray(NULL, n, sizeof(double));
    h->counts = tally__reallocarray(NULL, n, sizeof(uint64_t));
    if (h->values == NULL || h->counts == NULL)
        return TALLY_ENOMEM;
    h->resolution = res->valuedouble;
    const cJSON *v = values->child, *k = counts->child;
    for (size_t i = 0; i < n; i++, v = v->next, k = k->next) {
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
            (i > 0 && !(v->valuedouble > h->values[i - 1])) || !cJSON_IsNumber(k) ||
            !(k->valuedouble >= 1 && k->valuedouble <= MAX_EXACT_COUNT) ||
            k->valuedouble != floor(k->valuedouble))
            return TALLY_EPARSE;
        h->values[i] = v->valuedouble;
        h->counts[i] = (uint64_t)k->valuedouble;
    }
    h->n = n;
    return TALLY_OK;
}

/* One run line; errors name the journal's line. */
static int parse_run(tally__journal_data *d, const char *s, size_t len, unsigned long lineno,
                     const char *name)
{
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, s, len, name);
    if (rc != TALLY_OK) {
        /* The line's own parse error is at line 1 of the line: move it to the journal's. */
        const tally_error *e = tally_error_last();
        unsigned long col = e->column;
        return tally__error_at(TALLY_EPARSE, name, lineno, col ? col : 1,
                               "not a run record (a torn or foreign line)");
    }
    tally__journal_run run;
    memset(&run, 0, sizeof(run));
    double case_index = -1, slot = -1;
    double *vals = NULL;
    tally__journal_hist *hists = NULL;
    const cJSON *resumed = cJSON_GetObjectItemCaseSensitive(root, "resumed");
    if (cJSON_IsObject(resumed)) {
        rc = keep_resume(d, (cJSON *)resumed);
        cJSON_Delete(root);
        return rc;
    }
    const cJSON *stop = cJSON_GetObjectItemCaseSensitive(root, "stop");
    if (cJSON_IsObject(stop)) {
        rc = parse_stop(d, stop, lineno, name);
        cJSON_Delete(root);
        return rc;
    }
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(root, "ok");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(root, "values");
    const cJSON *failure = cJSON_GetObjectItemCaseSensitive(root, "failure");
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(root, "case_index");
    const cJSON *si = cJSON_GetObjectItemCaseSensitive(root, "slot");
    if (cJSON_IsNumber(ci))
        case_index = ci->valuedouble;
    if (cJSON_IsNumber(si))
        slot = si->valuedouble;
    rc = tally__error_at(TALLY_EPARSE, name, lineno, 1, "not a run record of this sweep");
    if (!cJSON_IsBool(ok) || case_index < 0 || case_index >= (double)d->points || slot < 0 ||
        slot >= (double)d->slots || case_index != floor(case_index) || slot != floor(slot))
        goto done;
    run.case_index = (size_t)case_index;
    run.slot = (size_t)slot;
    run.ok = cJSON_IsTrue(ok);
    if (run.ok) {
        if (!cJSON_IsArray(values) || (size_t)cJSON_GetArraySize(values) != d->metric_count)
            goto done;
        vals = tally__calloc(d->metric_count, sizeof(double));
        if (tally__journal_has_histograms(d))
            hists = tally__calloc(d->metric_count, sizeof(*hists));
        if (vals == NULL || (hists == NULL && tally__journal_has_histograms(d))) {
            rc = tally__error(TALLY_ENOMEM, "out of memory");
            goto done;
        }
        size_t i = 0;
        const cJSON *v;
        cJSON_ArrayForEach(v, values)
        {
            int hrc = TALLY_OK;
            if (d->metrics[i].histogram)
                hrc = parse_hist(&hists[i], v);
            /* cJSON reads 1e999 as infinity: a finished run only ever recorded finite values. */
            else if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
                vals[i] = v->valuedouble;
            else
                hrc = TALLY_EPARSE;
            if (hrc == TALLY_ENOMEM)
                rc = tally__oom();
            if (hrc != TALLY_OK)
                goto done;
            i++;
        }
        run.values = vals;
        run.hists = hists;
    } else {
        run.failure = cJSON_IsString(failure) ? failure->valuestring : (char *)"failed";
    }
    rc = tally__journal_add(d, &run, name, lineno);
done:
    tally__free_mem(vals);
    tally__journal_hists_free(hists, d->metric_count);
    cJSON_Delete(root);
    return rc;
}

int tally__journal_read(tally__journal_data *d, const char *data, size_t len, const char *name)
{
    memset(d, 0, sizeof(*d));
    size_t pos = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    const char *nl = memchr(data + pos, '\n', len - pos);
    if (nl == NULL)
        return tally__error_at(TALLY_EPARSE, name, 1, 1,
                               "the journal header line is incomplete (no run was recorded)");
    cJSON *header = NULL;
    int rc = tally__json_parse(&header, data + pos, (size_t)(nl - (data + pos)), name);
    if (rc != TALLY_OK)
        return rc;
    rc = tally__journal_init(d, header, name);
    if (rc != TALLY_OK)
        return rc;
    pos = (size_t)(nl - data) + 1;
    d->keep = pos;
    d->lines = 1;
    while (pos < len) {
        nl = memchr(data + pos, '\n', len - pos);
        if (nl == NULL) {
            d->torn = 1; /* cut off mid-write by a crash: the run did not finish, drop it */
            break;
        }
        size_t llen = (size_t)(nl - (data + pos));
        rc = parse_run(d, data + pos, llen, d->lines + 1, name);
        if (rc != TALLY_OK)
            return rc;
        d->lines++;
        pos += llen + 1;
        d->keep = pos;
    }
    return TALLY_OK;
}

size_t tally__journal_failed(const tally__journal_data *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += !d->runs_done[i].ok;
    return n;
}

/* ---- building result sets ---- */

static const char *header_string_at(const tally__journal_data *d, const char *key, size_t i)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(d->header, key);
    const cJSON *v = cJSON_GetArrayItem(a, (int)i);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *sweep_name(const tally__journal_data *d)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(d->header, "sweep_name");
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int find_case(tally_case **out, tally_resultset *rs, const tally__journal_data *d,
                     const tally__metric *m, size_t c)
{
    tally_benchmark *b = tally_resultset_benchmark_find(rs, m->benchmark);
    int rc;
    if (b == NULL) {
        rc = tally_resultset_benchmark_add(&b, rs, m->benchmark, m->unit, m->direction);
        if (rc == TALLY_OK)
            rc = tally_benchmark_set_statistic(b, m->statistic);
        if (rc != TALLY_OK)
            return rc;
    }
    const char *name = m->case_name ? m->case_name : header_string_at(d, "cases", c);
    *out = tally_benchmark_case_find(b, name);
    if (*out != NULL)
        return TALLY_OK;
    rc = tally_benchmark_case_add(out, b, name);
    const char *sn = sweep_name(d);
    if (rc == TALLY_OK && sn != NULL && m->case_name == NULL)
        rc = tally_case_meta_set(*out, sn, header_string_at(d, "sweep", c));
    return rc;
}

/* Where failed runs are recorded: the case itself, or (when no run of a sweep value succeeded,
 * so there is no case to hold them: the native format has no empty cases) the result set, under
 * keys carrying the case's name. */
typedef struct failure_target {
    tally_case *c;
    tally_resultset *rs;
    const char *name;
} failure_target;

static int record_failure(const failure_target *t, const tally__journal_run *run, size_t warmup)
{
    tally__buf count_key = TALLY__BUF_INIT, key = TALLY__BUF_INIT, text = TALLY__BUF_INIT;
    if (t->c)
        tally__buf_puts(&count_key, "failed_runs");
    else
        tally__buf_printf(&count_key, "failed_runs.%s", t->name);
    int rc = TALLY_OK;
    if (count_key.failed)
        rc = tally__error(TALLY_ENOMEM, "out of memory");
    const char *count_text = NULL;
    if (rc == TALLY_OK)
        count_text = t->c ? tally_case_meta_get(t->c, count_key.data)
                          : tally_resultset_meta_get(t->rs, count_key.data);
    unsigned long count = count_text ? strtoul(count_text, NULL, 10) + 1 : 1;
    char value[32];
    snprintf(value, sizeof(value), "%lu", count);
    if (t->c)
        tally__buf_printf(&key, "failed_run.%lu", count);
    else
        tally__buf_printf(&key, "failed_run.%s.%lu", t->name, count);
    if (run->slot < warmup)
        tally__buf_printf(&text, "warm-up run %zu: %s", run->slot + 1, run->failure);
    else
        tally__buf_printf(&text, "run %zu: %s", run->slot - warmup + 1, run->failure);
    if (rc == TALLY_OK && (key.failed || text.failed))
        rc = tally__error(TALLY_ENOMEM, "out of memory");
    if (rc == TALLY_OK)
        rc = t->c ? tally_case_meta_set(t->c, count_key.data, value)
                  : tally_resultset_meta_set(t->rs, count_key.data, value);
    if (rc == TALLY_OK)
        rc = t->c ? tally_case_meta_set(t->c, key.data, text.data)
                  : tally_resultset_meta_set(t->rs, key.data, text.data);
    tally__buf_dispose(&count_key);
    tally__buf_dispose(&key);
    tally__buf_dispose(&text);
    return rc;
}

size_t tally__journal_expected(const tally__journal_data *d)
{
    size_t total = 0;
    for (size_t p = 0; p < d->points; p++)
        total += d->stops && d->stops[p].reason ? d->warmup + d->stops[p].runs : d->slots;
    return total;
}

/* An adaptive sweep's stop, in the metadata of each case of the point (docs/runners.md). */
static int describe_stop(tally_case *c, const tally__journal_stop *t)
{
    char num[32];
    snprintf(num, sizeof(num), "%zu", t->look);
    int rc = tally_case_meta_set(c, "adaptive.stop", t->reason);
    if (rc == TALLY_OK)
        rc = tally_case_meta_set(c, "adaptive.looks", num);
    if (rc == TALLY_OK && t->detail && t->detail[0])
        rc = tally_case_meta_set(c, "adaptive.detail", t->detail);
    return rc;
}

/* Result-set metadata: the header's, the command of each configuration when there are
 * several, and the partial note. */
static int describe_set(tally_resultset *rs, const tally__journal_data *d, size_t config,
                        const char *source)
{
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(d->header, "meta");
    const cJSON *kv;
    int rc = TALLY_OK;
    cJSON_ArrayForEach(kv, meta)
    {
        if (cJSON_IsString(kv) && rc == TALLY_OK)
            rc = tally_resultset_meta_set(rs, kv->string, kv->valuestring);
    }
    const cJSON *commands = cJSON_GetObjectItemCaseSensitive(d->header, "command");
    if (rc == TALLY_OK && d->config_count > 1) {
        tally__buf cmd = TALLY__BUF_INIT;
        const cJSON *argv = cJSON_GetArrayItem(commands, (int)config), *a;
        size_t i = 0;
        cJSON_ArrayForEach(a, argv)
        {
            if (cJSON_IsString(a))
                tally__buf_printf(&cmd, "%s%s", i++ ? " " : "", a->valuestring);
        }
        rc = cmd.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                        : tally_resultset_meta_set(rs, "command", cmd.data ? cmd.data : "");
        tally__buf_dispose(&cmd);
    }
    size_t n = 0, failed = 0;
    for (size_t i = 0; i < d->count; i++)
        failed += !d->runs_done[i].ok && d->runs_done[i].case_index / d->sweep_count == config;
    char num[32];
    snprintf(num, sizeof(num), "%zu", failed);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "failed_runs", num);
    cJSON_ArrayForEach(kv, d->resumes)
    {
        tally__buf key = TALLY__BUF_INIT, text = TALLY__BUF_INIT;
        tally__buf_printf(&key, "resumed_on.%zu", ++n);
        const cJSON *f;
        cJSON_ArrayForEach(f, kv)
        {
            if (cJSON_IsString(f))
                tally__buf_printf(&text, "%s%s %s", text.len ? ", " : "", f->string,
                                  f->valuestring);
        }
        if (rc == TALLY_OK)
            rc = key.failed || text.failed || !text.data
                     ? tally__error(TALLY_ENOMEM, "out of memory")
                     : tally_resultset_meta_set(rs, key.data, text.data);
        tally__buf_dispose(&key);
        tally__buf_dispose(&text);
    }
    size_t total = tally__journal_expected(d);
    if (rc == TALLY_OK && d->count < total) {
        tally__buf note = TALLY__BUF_INIT;
        tally__buf_printf(&note, "%zu of %zu runs finished", d->count, total);
        if (source)
            tally__buf_printf(&note, " (interrupted sweep, from %s)", source);
        rc = note.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                         : tally_resultset_meta_set(rs, "partial", note.data);
        tally__buf_dispose(&note);
    }
    return rc;
}

int tally__journal_build(tally_results *into, const tally__journal_data *d, const char *source)
{
    int rc = TALLY_OK;
    tally_resultset **sets = tally__calloc(d->config_count, sizeof(*sets));
    /* A point gets cases only when at least one counted run of it succeeded. */
    unsigned char *has = tally__calloc(d->points, 1);
    if (sets == NULL || has == NULL)
        rc = tally__error(TALLY_ENOMEM, "out of memory");
    for (size_t k = 0; rc == TALLY_OK && k < d->config_count; k++) {
        tally_resultset *rs = NULL;
        rc = tally_resultset_new(&rs, header_string_at(d, "labels", k));
        if (rc == TALLY_OK && (rc = tally_results_add(into, rs)) != TALLY_OK)
            tally_resultset_free(rs);
        if (rc == TALLY_OK)
            rc = describe_set(rs, d, k, source);
        sets[k] = rs;
    }
    for (size_t i = 0; rc == TALLY_OK && i < d->count; i++)
        if (d->runs_done[i].ok && d->runs_done[i].slot >= d->warmup)
            has[d->runs_done[i].case_index] = 1;
    /* Cases in sweep order, each metric's benchmark in metric order. */
    for (size_t p = 0; rc == TALLY_OK && p < d->points; p++)
        for (size_t m = 0; rc == TALLY_OK && has[p] && m < d->metric_count; m++) {
            tally_case *tc;
            rc = find_case(&tc, sets[p / d->sweep_count], d, &d->metrics[m], p % d->sweep_count);
            if (rc == TALLY_OK && d->stops && d->stops[p].reason)
                rc = describe_stop(tc, &d->stops[p]);
        }
    /* Samples in run order (the journal's order). */
    for (size_t i = 0; rc == TALLY_OK && i < d->count; i++) {
        const tally__journal_run *run = &d->runs_done[i];
        tally_resultset *rs = sets[run->case_index / d->sweep_count];
        size_t c = run->case_index % d->sweep_count;
        if (!has[run->case_index]) {
            failure_target t = { NULL, rs, header_string_at(d, "cases", c) };
            if (!run->ok)
                rc = record_failure(&t, run, d->warmup);
            continue;
        }
        for (size_t m = 0; rc == TALLY_OK && m < d->metric_count; m++) {
            tally_case *tc;
            rc = find_case(&tc, rs, d, &d->metrics[m], c);
            if (rc != TALLY_OK)
                break;
            failure_target t = { tc, NULL, NULL };
            if (!run->ok) {
                rc = record_failure(&t, run, d->warmup);
            } else if (run->slot >= d->warmup && d->metrics[m].histogram) {
                const tally__journal_hist *h = &run->hists[m];
                rc = tally_case_histogram_append(tc, h->values, h->counts, h->n, h->resolution);
            } else if (run->slot >= d->warmup) {
                rc = tally_case_append(tc, &run->values[m], 1);
            }
        }
    }
    tally__free_mem(has);
    tally__free_mem(sets);
    return rc;
}

/* ---- the importer ---- */

static int sniff(const char *data, size_t len)
{
    return tally__journal_sniff(data, len) ? 100 : 0;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    (void)opts;
    tally__journal_data d;
    int rc = tally__journal_read(&d, data, len, name);
    if (rc == TALLY_OK)
        rc = tally__journal_build(into, &d, name);
    /* A sweep still running holds the journal's lock (run/journal.c): its result sets say so,
     * in `running` ("process N"), so that `tally run --finish` does not write a result set
     * from a sweep half done, and a summary of it tells it is still growing. */
    long holder = rc == TALLY_OK ? tally__lock_holder_of(name) : 0;
    if (holder != 0) {
        char who[64] = "another machine";
        if (holder > 0)
            snprintf(who, sizeof(who), "process %ld", holder);
        for (size_t i = 0; rc == TALLY_OK && i < tally_results_count(into); i++)
            rc = tally_resultset_meta_set(tally_results_at(into, i), "running", who);
    }
    /* Labels come from the journal; the loader applies a caller's label afterwards. */
    tally__journal_data_free(&d);
    return rc;
}

const tally__importer tally__importer_journal = {
    .kind = TALLY_INPUT_JOURNAL, .name = "journal", .sniff = sniff, .parse = parse,
    .configs = "the labels of its sweep",
};
