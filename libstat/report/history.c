/* A history (tally/history.h): the result sets as points in order, the (benchmark, case) series
 * across them with their runs, and each series' change points (stats/changepoint.c). */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/history_internal.h"
#include "util/name_index.h"
#include "util/number.h"
#include "util/options.h"
#include "util/result.h"

TALLY__OPTIONS_FUNCTIONS(tally_history_options, TALLY_HISTORY_OPTIONS, sizeof(tally_history_options))

/* ---- the order of the points ---- */

typedef struct order_key {
    size_t given;   /* index in the results */
    double number;  /* order_by as a number, or the commit's position */
    const char *text;
} order_key;

static int by_number(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return (x->given > y->given) - (x->given < y->given);
}

static int by_text(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->given > y->given) - (x->given < y->given);
}

static const char *commit_of(const tally_resultset *rs)
{
    const char *c = tally_resultset_meta_get(rs, "commit");
    return c && *c ? c : tally_resultset_label(rs);
}

static int is_hex(const char *s)
{
    for (; *s; s++)
        if (!strchr("0123456789abcdefABCDEF", *s))
            return 0;
    return 1;
}

/* The position of `commit` in the commit order: the entry equal to it, else the one entry it
 * abbreviates (4 hex digits at least, as git's shortest). */
static int commit_position(size_t *pos, const char *commit, const tally_history_options *o,
                           const char *label)
{
    size_t len = strlen(commit), found = (size_t)-1;
    for (size_t i = 0; i < o->commit_order_count; i++)
        if (strcmp(o->commit_order[i], commit) == 0) {
            *pos = i;
            return TALLY_OK;
        }
    if (len >= 4 && is_hex(commit)) {
        for (size_t i = 0; i < o->commit_order_count; i++) {
            if (strncasecmp(o->commit_order[i], commit, len) != 0)
                continue;
            if (found != (size_t)-1)
                return tally__error(TALLY_EINVAL, "history: commit '%s' of '%s' abbreviates "
                                                  "both %s and %s; give more digits", commit,
                                    label, o->commit_order[found], o->commit_order[i]);
            found = i;
        }
    }
    if (found == (size_t)-1)
        return tally__error(TALLY_EINVAL, "history: commit '%s' of '%s' is not among the %zu "
                                          "commits of the given order (another branch, or a "
                                          "commit metadata key missing?)",
                            commit, label, o->commit_order_count);
    *pos = found;
    return TALLY_OK;
}

static int order_points(size_t *order, const tally_results *r, const tally_history_options *o)
{
    size_t n = tally_results_count(r);
    order_key *keys = tally__calloc(n, sizeof *keys);
    if (keys == NULL)
        return tally__oom();
    int numeric = 1, rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < n; i++) {
        const tally_resultset *rs = tally_results_at(r, i);
        keys[i].given = i;
        keys[i].number = (double)i;
        if (o->commit_order) {
            size_t pos = 0;
            rc = commit_position(&pos, commit_of(rs), o, tally_resultset_label(rs));
            keys[i].number = (double)pos;
            for (size_t j = 0; rc == TALLY_OK && j < i; j++)
                if (keys[j].number == keys[i].number)
                    rc = tally__error(TALLY_EINVAL, "history: '%s' and '%s' are both commit "
                                                    "%s; merge their runs into one result set "
                                                    "(tally merge --label)",
                                      tally_resultset_label(tally_results_at(r, j)),
                                      tally_resultset_label(rs), o->commit_order[pos]);
        } else if (o->order_by) {
            const char *v = tally_resultset_meta_get(rs, o->order_by);
            if (v == NULL)
                rc = tally__error(TALLY_EINVAL, "history: '%s' has no metadata '%s' to order "
                                                "by (tally run/import/merge --meta %s=VALUE)",
                                  tally_resultset_label(rs), o->order_by, o->order_by);
            keys[i].text = v;
            const char *stop = NULL;
            if (v != NULL && (tally__number_scan(&keys[i].number, &stop, v, v + strlen(v),
                                                 TALLY__NUMBER_TEXT) != TALLY__NUMBER_OK ||
                              *stop != '\0'))
                numeric = 0;
        }
    }
    if (rc == TALLY_OK) {
        if (o->commit_order || (o->order_by && numeric))
            qsort(keys, n, sizeof *keys, by_number);
        else if (o->order_by)
            qsort(keys, n, sizeof *keys, by_text);
        for (size_t i = 0; i < n; i++)
            order[i] = keys[i].given;
    }
    tally__free_mem(keys);
    return rc;
}

/* ---- the series: benchmarks by name, then cases by name ---- */

typedef struct hbench {
    const char *name;       /* the first series' copy */
    size_t *series;         /* series id per case */
    const char **cases;     /* case name per case (the series' copies) */
    size_t count, cap;
    tally__name_index index;
} hbench;

typedef struct builder {
    tally_history *h;
    const char *filter;
    size_t series_cap;
    hbench *benches;
    size_t bench_count, bench_cap;
    tally__name_index index;
    size_t *cap_values, *cap_points; /* per series */
} builder;

static const char *bench_name(const void *owner, size_t i)
{
    return ((const hbench *)owner)[i].name;
}

static const char *case_name_of(const void *owner, size_t i)
{
    return ((const hbench *)owner)->cases[i];
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return TALLY_OK;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void *q = tally__reallocarray(*p, c, elem);
    if (q == NULL)
        return tally__oom();
    *p = q;
    *cap = c;
    return TALLY_OK;
}

static int new_series(size_t *id, builder *bd, hbench *hb, const tally_benchmark *b,
                      const tally_case *c)
{
    tally_history *h = bd->h;
    size_t old_cap = bd->series_cap;
    if (grow((void **)&h->series, &bd->series_cap, h->series_count + 1, sizeof *h->series))
        return TALLY_ENOMEM;
    if (bd->series_cap != old_cap) {
        size_t *v = tally__reallocarray(bd->cap_values, bd->series_cap, sizeof *v);
        if (v == NULL)
            return tally__oom();
        bd->cap_values = v;
        size_t *p = tally__reallocarray(bd->cap_points, bd->series_cap, sizeof *p);
        if (p == NULL)
            return tally__oom();
        bd->cap_points = p;
    }
    tally__hseries *s = &h->series[h->series_count];
    memset(s, 0, sizeof *s);
    bd->cap_values[h->series_count] = bd->cap_points[h->series_count] = 0;
    h->series_count++; /* freed with the history from here on */
    s->benchmark = tally__strdup(tally_benchmark_name(b));
    s->case_name = tally__strdup(tally_case_name(c));
    s->unit = tally__strdup(tally_benchmark_unit(b));
    s->direction = tally_benchmark_direction(b);
    s->offsets = tally__malloc(sizeof *s->offsets);
    if (!s->benchmark || !s->case_name || !s->unit || !s->offsets)
        return tally__oom();
    s->offsets[0] = 0;
    size_t cap = hb->cap;
    if (grow((void **)&hb->series, &cap, hb->count + 1, sizeof *hb->series))
        return TALLY_ENOMEM;
    cap = hb->cap;
    if (grow((void **)&hb->cases, &cap, hb->count + 1, sizeof *hb->cases))
        return TALLY_ENOMEM;
    hb->cap = cap;
    hb->series[hb->count] = h->series_count - 1;
    hb->cases[hb->count++] = s->case_name;
    if (hb->name == NULL)
        hb->name = s->benchmark;
    if (tally__name_index_added(&hb->index, hb, case_name_of, hb->count))
        return TALLY_ENOMEM;
    *id = h->series_count - 1;
    return TALLY_OK;
}

static int find_bench(hbench **out, builder *bd, const char *name)
{
    size_t i = tally__name_index_find(&bd->index, bd->benches, bench_name, bd->bench_count, name);
    if (i != (size_t)-1) {
        *out = &bd->benches[i];
        return TALLY_OK;
    }
    if (grow((void **)&bd->benches, &bd->bench_cap, bd->bench_count + 1, sizeof *bd->benches))
        return TALLY_ENOMEM;
    hbench *hb = &bd->benches[bd->bench_count];
    memset(hb, 0, sizeof *hb);
    hb->name = name; /* the caller's until the first series copies it */
    bd->bench_count++;
    if (tally__name_index_added(&bd->index, bd->benches, bench_name, bd->bench_count))
        return TALLY_ENOMEM;
    *out = hb;
    return TALLY_OK;
}

static int add_case(builder *bd, size_t point, const tally_benchmark *b, const tally_case *c,
                    const char *label)
{
    tally_history *h = bd->h;
    if (bd->filter) {
        tally__buf name = TALLY__BUF_INIT;
        tally__buf_printf(&name, "%s/%s", tally_benchmark_name(b), tally_case_name(c));
        int keep = !name.failed && fnmatch(bd->filter, name.data, 0) == 0;
        int failed = name.failed;
        tally__buf_dispose(&name);
        if (failed)
            return tally__oom();
        if (!keep)
            return TALLY_OK;
    }
    hbench *hb;
    int rc = find_bench(&hb, bd, tally_benchmark_name(b));
    if (rc)
        return rc;
    size_t k = tally__name_index_find(&hb->index, hb, case_name_of, hb->count, tally_case_name(c));
    size_t id = 0;
    if (k == (size_t)-1) {
        rc = new_series(&id, bd, hb, b, c);
        if (rc)
            return rc;
        hb->name = h->series[hb->series[0]].benchmark;
    } else {
        id = hb->series[k];
    }
    tally__hseries *s = &h->series[id];
    if (strcmp(s->unit, tally_benchmark_unit(b)) != 0 || s->direction != tally_benchmark_direction(b))
        return tally__error(TALLY_EMISMATCH, "history: benchmark '%s' is in %s (%s is better) "
                                             "at '%s' but in %s (%s) earlier",
                            s->benchmark, tally_benchmark_unit(b),
                            tally_direction_name(tally_benchmark_direction(b)), label, s->unit,
                            tally_direction_name(s->direction));
    if (tally_case_is_summary_only(c))
        return tally__error(TALLY_EINVAL, "history: case '%s' of benchmark '%s' at '%s' is known "
                                          "by a summary only (n, mean, SD): a series needs its "
                                          "runs", tally_case_name(c), s->benchmark, label);
    size_t runs = tally_case_sample_count(c);
    if (runs == 0)
        return TALLY_OK;
    size_t total = s->offsets[s->n];
    if (grow((void **)&s->values, &bd->cap_values[id], total + runs, sizeof *s->values))
        return TALLY_ENOMEM;
    size_t cap = bd->cap_points[id];
    if (grow((void **)&s->point, &cap, s->n + 1, sizeof *s->point))
        return TALLY_ENOMEM;
    if (cap != bd->cap_points[id]) {
        size_t *o = tally__reallocarray(s->offsets, cap + 1, sizeof *o);
        if (o == NULL)
            return tally__oom();
        s->offsets = o;
        bd->cap_points[id] = cap;
    }
    memcpy(s->values + total, tally_case_samples(c), runs * sizeof *s->values);
    s->point[s->n++] = point;
    s->offsets[s->n] = total + runs;
    return TALLY_OK;
}

static void free_series(tally__hseries *s)
{
    tally__free_mem(s->benchmark);
    tally__free_mem(s->case_name);
    tally__free_mem(s->unit);
    tally__free_mem(s->point);
    tally__free_mem(s->offsets);
    tally__free_mem(s->values);
    tally__free_mem(s->mean);
    tally__free_mem(s->outlier);
    tally__free_mem(s->cps);
}

void tally_history_free(tally_history *h)
{
    if (h == NULL)
        return;
    for (size_t i = 0; i < h->point_count; i++) {
        tally__free_mem(h->labels[i]);
        tally__free_mem(h->commits[i]);
    }
    tally__free_mem(h->labels);
    tally__free_mem(h->commits);
    for (size_t i = 0; i < h->series_count; i++)
        free_series(&h->series[i]);
    tally__free_mem(h->series);
    tally__free_mem(h->changes);
    tally__free_mem(h->order_by);
    tally__free_mem(h);
}

/* ---- change points of each series ---- */

static size_t local_to_point(const tally__hseries *s, size_t local, size_t points)
{
    return local < s->n ? s->point[local] : (s->n ? s->point[s->n - 1] + 1 : points);
}

/* The detector's options from a history's. */
static void detector_options(tally_changepoint_options *co, const tally_history_options *o,
                             tally_direction direction)
{
    tally_changepoint_options init = TALLY_CHANGEPOINT_OPTIONS_INIT;
    *co = init;
    co->alpha = o->alpha;
    co->min_segment = o->min_segment;
    co->min_change_pct = o->min_change_pct;
    co->window = o->window;
    co->confidence = o->confidence;
    co->direction = direction;
}

static int detect_series(tally__hseries *s, const tally_history_options *o, size_t points)
{
    tally_changepoint_options co;
    detector_options(&co, o, s->direction);
    tally_changepoints *cp = NULL;
    int rc = tally_changepoints_detect(&cp, s->values, s->offsets, s->n, &co);
    if (rc) {
        /* Name the series: the detector's message knows only indexes. */
        tally__buf msg = TALLY__BUF_INIT;
        tally__buf_printf(&msg, "history: %s/%s: %s", s->benchmark, s->case_name,
                          tally_error_last()->message);
        tally__error(rc, "%s", msg.failed ? "out of memory" : msg.data);
        tally__buf_dispose(&msg);
        return rc;
    }
    s->cp_count = tally_changepoints_count(cp);
    s->mean = tally__malloc((s->n ? s->n : 1) * sizeof *s->mean);
    s->outlier = tally__calloc(s->n ? s->n : 1, 1);
    s->cps = tally__calloc(s->cp_count ? s->cp_count : 1, sizeof *s->cps);
    if (!s->mean || !s->outlier || !s->cps) {
        tally_changepoints_free(cp);
        return tally__oom();
    }
    for (size_t i = 0; i < s->n; i++)
        s->mean[i] = tally_changepoints_point_mean(cp, i);
    s->outlier_count = tally_changepoints_outlier_count(cp);
    for (size_t i = 0; i < s->outlier_count; i++)
        s->outlier[tally_changepoints_outlier_at(cp, i)] = 1;
    for (size_t k = 0; k < s->cp_count; k++) {
        tally_changepoint *c = &s->cps[k];
        c->size = sizeof *c;
        tally_changepoints_at(c, cp, k);
        c->index = local_to_point(s, c->index, points);
        c->before_first = local_to_point(s, c->before_first, points);
        c->after_end = local_to_point(s, c->after_end, points);
    }
    s->trend.size = sizeof s->trend;
    tally_changepoints_trend(&s->trend, cp);
    if (s->trend.tested)
        s->trend.first = local_to_point(s, s->trend.first, points);
    tally_changepoints_free(cp);
    return TALLY_OK;
}

static int by_newest(const void *a, const void *b, const tally_history *h)
{
    const tally__hchange *x = a, *y = b;
    size_t px = h->series[x->series].cps[x->k].index, py = h->series[y->series].cps[y->k].index;
    if (px != py)
        return px > py ? -1 : 1;
    return (x->series > y->series) - (x->series < y->series);
}

/* Insertion into the sorted list, newest first: the lists are short (change points are rare),
 * and this keeps the comparison free of global state. */
static int list_changes(tally_history *h)
{
    size_t total = 0;
    for (size_t i = 0; i < h->series_count; i++)
        total += h->series[i].cp_count;
    h->changes = tally__malloc((total ? total : 1) * sizeof *h->changes);
    if (h->changes == NULL)
        return tally__oom();
    for (size_t i = 0; i < h->series_count; i++)
        for (size_t k = 0; k < h->series[i].cp_count; k++) {
            tally__hchange c = { i, k };
            size_t at = h->change_count;
            while (at > 0 && by_newest(&c, &h->changes[at - 1], h) < 0) {
                h->changes[at] = h->changes[at - 1];
                at--;
            }
            h->changes[at] = c;
            h->change_count++;
        }
    return TALLY_OK;
}

/* ---- building ---- */

static int copy_points(tally_history *h, const tally_results *r, const size_t *order)
{
    for (size_t i = 0; i < h->point_count; i++) {
        const tally_resultset *rs = tally_results_at(r, order[i]);
        h->labels[i] = tally__strdup(tally_resultset_label(rs));
        h->commits[i] = tally__strdup(commit_of(rs));
        if (!h->labels[i] || !h->commits[i])
            return tally__oom();
    }
    return TALLY_OK;
}

static int collect(tally_history *h, const tally_results *r, const size_t *order,
                   const char *filter)
{
    builder bd = { h, filter, 0, NULL, 0, 0, TALLY__NAME_INDEX_INIT, NULL, NULL };
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < h->point_count; i++) {
        const tally_resultset *rs = tally_results_at(r, order[i]);
        for (size_t j = 0; rc == TALLY_OK && j < tally_resultset_benchmark_count(rs); j++) {
            const tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            for (size_t k = 0; rc == TALLY_OK && k < tally_benchmark_case_count(b); k++)
                rc = add_case(&bd, i, b, tally_benchmark_case_at(b, k), h->labels[i]);
        }
    }
    for (size_t i = 0; i < bd.bench_count; i++) {
        tally__free_mem(bd.benches[i].series);
        tally__free_mem(bd.benches[i].cases);
        tally__name_index_free(&bd.benches[i].index);
    }
    tally__free_mem(bd.benches);
    tally__name_index_free(&bd.index);
    tally__free_mem(bd.cap_values);
    tally__free_mem(bd.cap_points);
    return rc;
}

static int check_options(const tally_history_options *o)
{
    if (o->commit_order == NULL && o->commit_order_count > 0)
        return tally__error(TALLY_EINVAL, "history: commit_order is NULL with %zu commits",
                            o->commit_order_count);
    for (size_t i = 0; o->commit_order && i < o->commit_order_count; i++)
        if (o->commit_order[i] == NULL)
            return tally__error(TALLY_EINVAL, "history: commit_order[%zu] is NULL", i);
    /* The detector's own checks, before anything is built. */
    tally_changepoint_options co;
    detector_options(&co, o, TALLY_LOWER_IS_BETTER);
    size_t offsets[1] = { 0 };
    tally_changepoints *cp = NULL;
    int rc = tally_changepoints_detect(&cp, NULL, offsets, 0, &co);
    tally_changepoints_free(cp);
    return rc;
}

int tally_history_new(tally_history **out, const tally_results *r,
                      const tally_history_options *opts)
{
    if (out == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_history_new: NULL argument");
    *out = NULL;
    tally_history_options o;
    int rc = tally__options_read(&o, opts, &tally_history_options_kind);
    if (rc == TALLY_OK)
        rc = check_options(&o);
    if (rc)
        return rc;
    size_t n = tally_results_count(r);
    if (n == 0)
        return tally__error(TALLY_ENODATA, "history: no result sets");
    tally_history *h = tally__calloc(1, sizeof *h);
    size_t *order = tally__malloc(n * sizeof *order);
    if (h == NULL || order == NULL) {
        tally__free_mem(h);
        tally__free_mem(order);
        return tally__oom();
    }
    h->opts = o;
    h->opts.order_by = h->opts.filter = NULL;
    h->opts.commit_order = NULL;
    h->git_order = o.commit_order != NULL;
    h->labels = tally__calloc(n, sizeof *h->labels);
    h->commits = tally__calloc(n, sizeof *h->commits);
    h->order_by = o.order_by ? tally__strdup(o.order_by) : NULL;
    rc = h->labels && h->commits && (o.order_by == NULL || h->order_by) ? TALLY_OK : tally__oom();
    if (rc == TALLY_OK)
        h->point_count = n;
    if (rc == TALLY_OK)
        rc = order_points(order, r, &o);
    if (rc == TALLY_OK)
        rc = copy_points(h, r, order);
    if (rc == TALLY_OK)
        rc = collect(h, r, order, o.filter);
    tally__free_mem(order);
    if (rc == TALLY_OK && h->series_count == 0)
        rc = tally__error(TALLY_ENODATA, o.filter ? "history: no series matches --filter '%s'"
                                                  : "history: the result sets hold no samples%s",
                          o.filter ? o.filter : "");
    for (size_t i = 0; rc == TALLY_OK && i < h->series_count; i++)
        rc = detect_series(&h->series[i], &o, n);
    if (rc == TALLY_OK)
        rc = list_changes(h);
    if (rc) {
        tally_history_free(h);
        return rc;
    }
    *out = h;
    return TALLY_OK;
}

/* ---- accessors ---- */

size_t tally_history_point_count(const tally_history *h)
{
    return h ? h->point_count : 0;
}

const char *tally_history_point_label(const tally_history *h, size_t i)
{
    return h && i < h->point_count ? h->labels[i] : NULL;
}

const char *tally_history_point_commit(const tally_history *h, size_t i)
{
    return h && i < h->point_count ? h->commits[i] : NULL;
}

size_t tally_history_series_count(const tally_history *h)
{
    return h ? h->series_count : 0;
}

static int series_index(const tally_history *h, size_t i)
{
    if (h == NULL || i >= h->series_count)
        return tally__error(TALLY_EINVAL, "history: no series %zu (%zu)", i,
                            h ? h->series_count : 0);
    return TALLY_OK;
}

int tally_history_series_at(tally_history_series *out, const tally_history *h, size_t i)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_history_series");
    if (rc == TALLY_OK)
        rc = series_index(h, i);
    if (rc)
        return rc;
    const tally__hseries *s = &h->series[i];
    tally_history_series v = { sizeof v, s->benchmark, s->case_name, s->unit, s->direction,
                               s->n, s->cp_count, s->outlier_count, s->trend.drifting };
    tally__result_put(out, size, &v, sizeof v);
    return TALLY_OK;
}

int tally_history_series_change_at(tally_changepoint *out, const tally_history *h,
                                   size_t series, size_t k)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_changepoint");
    if (rc == TALLY_OK)
        rc = series_index(h, series);
    if (rc)
        return rc;
    if (k >= h->series[series].cp_count)
        return tally__error(TALLY_EINVAL, "history: series %zu has no change point %zu (%zu)",
                            series, k, h->series[series].cp_count);
    tally__result_put(out, size, &h->series[series].cps[k], sizeof(tally_changepoint));
    return TALLY_OK;
}

int tally_history_series_trend(tally_trend *out, const tally_history *h, size_t series)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_trend");
    if (rc == TALLY_OK)
        rc = series_index(h, series);
    if (rc)
        return rc;
    tally__result_put(out, size, &h->series[series].trend, sizeof(tally_trend));
    return TALLY_OK;
}

size_t tally_history_change_count(const tally_history *h)
{
    return h ? h->change_count : 0;
}

int tally_history_change_at(size_t *series, size_t *k, const tally_history *h, size_t i)
{
    if (series == NULL || k == NULL || h == NULL || i >= h->change_count)
        return tally__error(TALLY_EINVAL, "history: no change point %zu (%zu)", i,
                            h ? h->change_count : 0);
    *series = h->changes[i].series;
    *k = h->changes[i].k;
    return TALLY_OK;
}

size_t tally__history_recent_start(const tally_history *h, size_t recent)
{
    if (recent == 0)
        recent = h->opts.recent;
    return recent == 0 || recent >= h->point_count ? 0 : h->point_count - recent;
}

int tally_history_gate(size_t *count, double *worst_pct, const tally_history *h, double pct,
                       size_t recent)
{
    if (count == NULL || h == NULL || !(pct >= 0))
        return tally__error(TALLY_EINVAL, "tally_history_gate: NULL argument or pct %g < 0", pct);
    size_t start = tally__history_recent_start(h, recent), n = 0;
    double worst = 0;
    for (size_t i = 0; i < h->change_count; i++) {
        const tally_changepoint *c = &h->series[h->changes[i].series].cps[h->changes[i].k];
        if (c->index < start || c->verdict != TALLY_VERDICT_REGRESSION || !(-c->pct_imp > pct))
            continue;
        n++;
        if (c->pct_imp < worst)
            worst = c->pct_imp;
    }
    *count = n;
    if (worst_pct)
        *worst_pct = worst;
    return TALLY_OK;
}
