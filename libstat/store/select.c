/* tally_store_select: the sets a query names, rebuilt as result sets (docs/store.md). Three
 * queries share one WHERE clause built from fixed fragments, the values bound: the sets, their
 * benchmarks and cases with the samples, and the metadata of both. */
#include "store/store_internal.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/results_append.h"
#include "util/count.h"
#include "util/internal.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_store_query, TALLY_STORE_QUERY, sizeof(tally_store_query))

typedef struct sel_set {
    long long id;
    char *label, *commit, *time, *recorded;
    tally_resultset *rs;
    int has_data;   /* a benchmark passed the globs */
    int dup_label;  /* another set of the selection has this label */
    int dup_commit; /* ... and the same 12 first characters of the commit, or no commit */
} sel_set;

typedef struct selection {
    tally_store_query q;
    tally__buf where; /* " WHERE ..." over result_set r (b: benchmark, c: case_result) */
    tally__db_value params[16];
    size_t nparams;
    sel_set *sets;
    size_t count, cap;
    struct by_id {
        long long id;
        size_t at;
    } *by_id; /* the sets' positions, sorted by id */
    int rc;
} selection;

static int has_glob(const char *s)
{
    return s && strpbrk(s, "*?[\\") != NULL;
}

static void cond(selection *sel, const char *sql, tally__db_value v)
{
    tally__buf_puts(&sel->where, sel->where.len == 0 ? " WHERE " : " AND ");
    tally__buf_puts(&sel->where, sql);
    if (v.type != TALLY__DB_NULL)
        sel->params[sel->nparams++] = v;
}

static void build_where(selection *sel)
{
    const tally_store_query *q = &sel->q;
    if (q->branch)
        cond(sel, "r.branch = ?", tally__db_text(q->branch));
    if (q->machine)
        cond(sel, "r.machine = ?", tally__db_text(q->machine));
    if (q->label)
        cond(sel, "r.label = ?", tally__db_text(q->label));
    if (q->commit && strlen(q->commit) >= 4) {
        /* An abbreviated commit names the commits it begins. */
        cond(sel, "substr(r.commit_id, 1, ?)", tally__db_int((long long)strlen(q->commit)));
        tally__buf_puts(&sel->where, " = ?");
        sel->params[sel->nparams++] = tally__db_text(q->commit);
    } else if (q->commit) {
        cond(sel, "r.commit_id = ?", tally__db_text(q->commit));
    }
    if (q->since)
        cond(sel, "r.time >= ?", tally__db_text(q->since));
    if (q->until)
        cond(sel, "r.time < ?", tally__db_text(q->until));
    if (q->id)
        cond(sel, "r.id = ?", tally__db_int(q->id));
    if (q->limit) {
        /* The newest `limit` of the sets the other conditions select. */
        tally__buf w = sel->where;
        const char *rest = w.len ? w.data : "";
        tally__buf limited = TALLY__BUF_INIT;
        tally__buf_printf(&limited, " WHERE r.id IN (SELECT id FROM (SELECT r.id FROM result_set r"
                                    "%s ORDER BY r.time DESC, r.id DESC LIMIT ?) newest)",
                          rest);
        tally__buf_dispose(&sel->where);
        sel->where = limited;
        sel->params[sel->nparams++] = tally__db_int((long long)q->limit);
    }
}

static int set_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    selection *sel = ctx;
    if (ncols != 5 || cols[0].type != TALLY__DB_INT || cols[1].type != TALLY__DB_TEXT ||
        cols[3].type != TALLY__DB_TEXT || cols[4].type != TALLY__DB_TEXT)
        return tally__error(TALLY_EFORMAT, "store: a result_set row of an unexpected shape");
    if (sel->count == sel->cap) {
        size_t cap = sel->cap ? sel->cap * 2 : 64;
        sel_set *grown = tally__reallocarray(sel->sets, cap, sizeof *grown);
        if (grown == NULL)
            return tally__oom();
        sel->sets = grown;
        sel->cap = cap;
    }
    sel_set *s = &sel->sets[sel->count];
    memset(s, 0, sizeof *s);
    s->id = cols[0].i;
    s->label = tally__strdup(cols[1].s);
    s->commit = cols[2].type == TALLY__DB_TEXT ? tally__strdup(cols[2].s) : NULL;
    s->time = tally__strdup(cols[3].s);
    s->recorded = tally__strdup(cols[4].s);
    sel->count++;
    if (s->label == NULL || s->time == NULL || s->recorded == NULL ||
        (cols[2].type == TALLY__DB_TEXT && s->commit == NULL))
        return tally__oom();
    return TALLY_OK;
}

static sel_set *find_set(selection *sel, long long id)
{
    size_t lo = 0, hi = sel->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        long long at = sel->by_id[mid].id;
        if (at == id)
            return &sel->sets[sel->by_id[mid].at];
        if (at < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int by_id_cmp(const void *a, const void *b)
{
    long long x = ((const struct by_id *)a)->id, y = ((const struct by_id *)b)->id;
    return (x > y) - (x < y);
}

static int meta_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    selection *sel = ctx;
    if (ncols != 3 || cols[0].type != TALLY__DB_INT || cols[1].type != TALLY__DB_TEXT ||
        cols[2].type != TALLY__DB_TEXT)
        return tally__error(TALLY_EFORMAT, "store: a set_meta row of an unexpected shape");
    sel_set *s = find_set(sel, cols[0].i);
    if (s == NULL)
        return TALLY_OK;
    return tally_resultset_meta_set(s->rs, cols[1].s, cols[2].s);
}

/* The benchmark and case of the current row, found again by name: rows come ordered by set,
 * benchmark position and case position. */
static int data_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    selection *sel = ctx;
    if (ncols != 8 || cols[0].type != TALLY__DB_INT || cols[1].type != TALLY__DB_TEXT ||
        cols[2].type != TALLY__DB_TEXT || cols[3].type != TALLY__DB_TEXT ||
        cols[5].type != TALLY__DB_TEXT || cols[6].type != TALLY__DB_INT ||
        cols[7].type != TALLY__DB_BLOB)
        return tally__error(TALLY_EFORMAT, "store: a benchmark or case row of an unexpected "
                                           "shape");
    const char *bench = cols[1].s, *case_name = cols[5].s;
    if (has_glob(sel->q.benchmark) && fnmatch(sel->q.benchmark, bench, 0) != 0)
        return TALLY_OK;
    if (has_glob(sel->q.case_name) && fnmatch(sel->q.case_name, case_name, 0) != 0)
        return TALLY_OK;
    sel_set *s = find_set(sel, cols[0].i);
    if (s == NULL)
        return TALLY_OK;
    long long n = cols[6].i;
    if (n < 0 || (size_t)n * 8 != cols[7].len)
        return tally__error(TALLY_EFORMAT, "store: set %lld, benchmark '%s', case '%s': %lld "
                                           "samples in %zu bytes", s->id, bench, case_name, n,
                            cols[7].len);
    tally_benchmark *b = tally_resultset_benchmark_find(s->rs, bench);
    int rc = TALLY_OK;
    if (b == NULL) {
        tally_direction dir;
        rc = tally_direction_from_name(&dir, cols[3].s);
        if (rc == TALLY_OK)
            rc = tally_resultset_benchmark_add(&b, s->rs, bench, cols[2].s, dir);
        if (rc == TALLY_OK && cols[4].type == TALLY__DB_TEXT) {
            tally_statistic stat;
            rc = tally_statistic_from_name(&stat, cols[4].s);
            if (rc == TALLY_OK)
                rc = tally_benchmark_set_statistic(b, stat);
        }
        if (rc != TALLY_OK)
            return rc == TALLY_ENOMEM ? rc : tally__error(TALLY_EFORMAT,
                                                          "store: set %lld, benchmark '%s': %s",
                                                          s->id, bench,
                                                          tally_error_last()->message);
    }
    tally_case *c;
    rc = tally_benchmark_case_add(&c, b, case_name);
    if (rc != TALLY_OK)
        return rc;
    double *x = tally__malloc((size_t)n * sizeof *x + 1);
    if (x == NULL)
        return tally__oom();
    tally__store_unpack(x, (const unsigned char *)cols[7].s, (size_t)n);
    rc = tally_case_append(c, x, (size_t)n);
    tally__free_mem(x);
    s->has_data = 1;
    return rc;
}

static int case_meta_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    selection *sel = ctx;
    if (ncols != 5 || cols[0].type != TALLY__DB_INT)
        return tally__error(TALLY_EFORMAT, "store: a case_meta row of an unexpected shape");
    sel_set *s = find_set(sel, cols[0].i);
    tally_benchmark *b = s ? tally_resultset_benchmark_find(s->rs, cols[1].s) : NULL;
    tally_case *c = b ? tally_benchmark_case_find(b, cols[2].s) : NULL;
    return c ? tally_case_meta_set(c, cols[3].s, cols[4].s) : TALLY_OK;
}

/* head, the selection's condition, tail. The set query (set_column NULL) takes the WHERE
 * clause over result_set r as it is; the others select by their set column, through the same
 * clause as a subquery, and with no condition at all when the selection has none (a series over
 * every set reads only the benchmark and case tables). */
static int run(selection *sel, tally_store *st, const char *head, const char *set_column,
               const char *tail, tally__db_row_fn fn, void *ctx)
{
    tally__buf sql = TALLY__BUF_INIT;
    tally__buf_puts(&sql, head);
    if (sel->where.len && set_column)
        tally__buf_printf(&sql, " WHERE %s IN (SELECT r.id FROM result_set r%s)", set_column,
                          sel->where.data);
    else if (sel->where.len)
        tally__buf_puts(&sql, sel->where.data);
    tally__buf_puts(&sql, tail);
    if (sql.failed) {
        tally__buf_dispose(&sql);
        return tally__oom();
    }
    int rc = st->ops->query(st->db, sql.data, sel->params, sel->nparams, fn, ctx);
    tally__buf_dispose(&sql);
    return rc;
}

/* The data query's own conditions on benchmark and case names: equality in SQL (so the series
 * indexes serve it); globs are matched per row in data_row. */
static void data_conditions(tally__buf *tail, tally__db_value *params, size_t *n,
                            const tally_store_query *q, int where_empty)
{
    int first = where_empty;
    if (q->benchmark && !has_glob(q->benchmark)) {
        tally__buf_puts(tail, first ? " WHERE b.name = ?" : " AND b.name = ?");
        params[(*n)++] = tally__db_text(q->benchmark);
        first = 0;
    }
    if (q->case_name && !has_glob(q->case_name)) {
        tally__buf_puts(tail, first ? " WHERE c.name = ?" : " AND c.name = ?");
        params[(*n)++] = tally__db_text(q->case_name);
    }
}

static int load_data(selection *sel, tally_store *st, const char *head, const char *order,
                     tally__db_row_fn fn, void *ctx)
{
    tally__buf tail = TALLY__BUF_INIT;
    size_t saved = sel->nparams;
    data_conditions(&tail, sel->params, &sel->nparams, &sel->q, sel->where.len == 0);
    tally__buf_puts(&tail, order);
    int rc = tail.failed ? tally__oom() : run(sel, st, head, "b.set_id", tail.data, fn, ctx);
    tally__buf_dispose(&tail);
    sel->nparams = saved;
    return rc;
}

/* Order of sets by label, then by the first 12 characters of the commit (none first). */
static int by_label_commit(const void *a, const void *b)
{
    const sel_set *x = *(const sel_set *const *)a, *y = *(const sel_set *const *)b;
    int c = strcmp(x->label, y->label);
    if (c != 0)
        return c;
    if (x->commit == NULL || y->commit == NULL)
        return (x->commit != NULL) - (y->commit != NULL);
    return strncmp(x->commit, y->commit, 12);
}

/* Mark the sets whose label another set of the selection shares (`dup_label`), and those that
 * share the first 12 characters of the commit too, or lack one (`dup_commit`): sorted once, so
 * that a series of thousands of sets of one label costs n log n, not n^2. */
static int find_repeats(selection *sel, sel_set **order, size_t n)
{
    qsort(order, n, sizeof *order, by_label_commit);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(order[j]->label, order[i]->label) == 0)
            j++;
        for (size_t k = i; k < j && j - i > 1; k++) {
            order[k]->dup_label = 1;
            int same = order[k]->commit == NULL ||
                       (k > i && by_label_commit(&order[k - 1], &order[k]) == 0) ||
                       (k + 1 < j && by_label_commit(&order[k], &order[k + 1]) == 0);
            order[k]->dup_commit = same;
        }
        i = j;
    }
    (void)sel;
    return TALLY_OK;
}

/* LABEL, else LABEL@COMMIT (12 characters), else LABEL#ID; a label taken in `into` counts as
 * shared. The sets with data move to `into` in one step, all or nothing. */
static int label_sets(selection *sel, tally_results *into)
{
    sel_set **order = tally__calloc(sel->count + 1, sizeof *order);
    tally_resultset **keep = tally__calloc(sel->count + 1, sizeof *keep);
    int rc = order && keep ? TALLY_OK : tally__oom();
    size_t n = 0;
    for (size_t i = 0; rc == TALLY_OK && i < sel->count; i++)
        if (!(sel->q.benchmark || sel->q.case_name) || sel->sets[i].has_data)
            order[n++] = &sel->sets[i];
    if (rc == TALLY_OK)
        rc = find_repeats(sel, order, n);
    /* Back in time order. */
    n = 0;
    for (size_t i = 0; rc == TALLY_OK && i < sel->count; i++) {
        sel_set *s = &sel->sets[i];
        if ((sel->q.benchmark || sel->q.case_name) && !s->has_data)
            continue;
        char name[512];
        int taken = s->dup_label || tally_results_find(into, s->label) != NULL;
        if (taken && s->commit && !s->dup_commit) {
            snprintf(name, sizeof name, "%s@%.12s", s->label, s->commit);
            taken = tally_results_find(into, name) != NULL;
            if (!taken)
                rc = tally_resultset_set_label(s->rs, name);
        }
        if (taken && rc == TALLY_OK) {
            snprintf(name, sizeof name, "%s#%lld", s->label, s->id);
            if (tally_results_find(into, name) != NULL)
                rc = tally__error(TALLY_EEXISTS, "store: set %lld: the labels '%s', '%s@...' "
                                                 "and '%s' are all taken", s->id, s->label,
                                  s->label, name);
            else
                rc = tally_resultset_set_label(s->rs, name);
        }
        char id[24];
        snprintf(id, sizeof id, "%lld", s->id);
        if (rc == TALLY_OK)
            rc = tally_resultset_meta_set(s->rs, TALLY__STORE_META_PREFIX "id", id);
        if (rc == TALLY_OK)
            rc = tally_resultset_meta_set(s->rs, TALLY__STORE_META_PREFIX "time", s->time);
        if (rc == TALLY_OK)
            rc = tally_resultset_meta_set(s->rs, TALLY__STORE_META_PREFIX "recorded", s->recorded);
        if (rc == TALLY_OK)
            keep[n++] = s->rs;
    }
    if (rc == TALLY_OK)
        rc = tally__results_append_unique(into, keep, n);
    if (rc == TALLY_OK)
        for (size_t i = 0; i < sel->count; i++)
            if (!(sel->q.benchmark || sel->q.case_name) || sel->sets[i].has_data)
                sel->sets[i].rs = NULL; /* owned by `into` now */
    tally__free_mem(order);
    tally__free_mem(keep);
    return rc;
}

/* The query of the benchmarks and cases with their samples (the one the series indexes
 * serve), before its WHERE clause. */
static const char data_head[] = "SELECT b.set_id, b.name, b.unit, b.direction, b.statistic, "
                                "c.name, c.n, c.samples FROM benchmark b JOIN case_result c ON "
                                "c.benchmark_id = b.id";
static const char data_order[] = " ORDER BY b.set_id, b.position, c.position";

static int any_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    (void)cols;
    (void)ncols;
    *(int *)ctx = 1;
    return 0;
}

/* One benchmark and one case by exact name: a set has at most one row, and the order of the
 * set ids is the order of the series index (benchmark_series), so no sort is needed. */
static const char *series_order(const tally_store_query *q)
{
    int exact = q->benchmark && !has_glob(q->benchmark) && q->case_name && !has_glob(q->case_name);
    return exact ? " ORDER BY b.set_id" : data_order;
}

static int select_all(selection *sel, tally_store *st, tally_results *into)
{
    build_where(sel);
    if (sel->where.failed)
        return tally__oom();
    int rc = run(sel, st, "SELECT r.id, r.label, r.commit_id, r.time, r.recorded FROM result_set r",
                 NULL, " ORDER BY r.time, r.id", set_row, sel);
    if (rc != TALLY_OK)
        return rc;
    sel->by_id = tally__calloc(sel->count + 1, sizeof *sel->by_id);
    if (sel->by_id == NULL)
        return tally__oom();
    for (size_t i = 0; i < sel->count; i++) {
        sel->by_id[i].id = sel->sets[i].id;
        sel->by_id[i].at = i;
        rc = tally_resultset_new(&sel->sets[i].rs, sel->sets[i].label);
        if (rc != TALLY_OK)
            return rc;
    }
    qsort(sel->by_id, sel->count, sizeof *sel->by_id, by_id_cmp);
    if (sel->count == 0)
        return TALLY_OK;
    rc = run(sel, st, "SELECT m.set_id, m.key, m.value FROM set_meta m", "m.set_id",
             " ORDER BY m.set_id, m.position", meta_row, sel);
    if (rc == TALLY_OK)
        rc = load_data(sel, st, data_head, series_order(&sel->q), data_row, sel);
    /* Case metadata is rare (harness summaries): one look saves the join when there is none. */
    int any_case_meta = 0;
    if (rc == TALLY_OK)
        rc = st->ops->query(st->db, "SELECT 1 FROM case_meta LIMIT 1", NULL, 0, any_row,
                            &any_case_meta);
    if (rc == TALLY_OK && any_case_meta)
        rc = load_data(sel, st,
                       "SELECT b.set_id, b.name, c.name, m.key, m.value FROM benchmark b "
                       "JOIN case_result c ON c.benchmark_id = b.id "
                       "JOIN case_meta m ON m.case_id = c.id",
                       " ORDER BY m.case_id, m.position", case_meta_row, sel);
    if (rc == TALLY_OK)
        rc = label_sets(sel, into);
    return rc;
}

int tally__store_explain(tally_store *store, const tally_store_query *query,
                         tally__db_row_fn row, void *ctx)
{
    selection sel;
    memset(&sel, 0, sizeof sel);
    int rc = tally__options_read(&sel.q, query, &tally_store_query_kind);
    if (rc != TALLY_OK)
        return rc;
    build_where(&sel);
    char head[sizeof data_head + 32];
    snprintf(head, sizeof head, "%s%s",
             store->ops == &tally__db_sqlite ? "EXPLAIN QUERY PLAN " : "EXPLAIN ", data_head);
    rc = sel.where.failed ? tally__oom()
                          : load_data(&sel, store, head, series_order(&sel.q), row, ctx);
    tally__buf_dispose(&sel.where);
    return rc;
}

typedef struct names_ctx {
    const tally_store_query *q;
    tally__buf out;
} names_ctx;

static int name_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    names_ctx *n = ctx;
    if (ncols != 1 || cols[0].type != TALLY__DB_TEXT)
        return tally__error(TALLY_EFORMAT, "store: a benchmark name of an unexpected shape");
    if (has_glob(n->q->benchmark) && fnmatch(n->q->benchmark, cols[0].s, 0) != 0)
        return TALLY_OK;
    tally__buf_append(&n->out, cols[0].s, cols[0].len + 1);
    return n->out.failed ? tally__oom() : TALLY_OK;
}

int tally_store_benchmark_names(char **out, size_t *len, tally_store *store,
                                const tally_store_query *query)
{
    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (out == NULL || len == NULL || store == NULL)
        return tally__error(TALLY_EINVAL, "tally_store_benchmark_names: NULL argument");
    selection sel;
    memset(&sel, 0, sizeof sel);
    int rc = tally__options_read(&sel.q, query, &tally_store_query_kind);
    if (rc != TALLY_OK)
        return rc;
    build_where(&sel);
    names_ctx n = {&sel.q, TALLY__BUF_INIT};
    rc = sel.where.failed ? tally__oom()
                          : load_data(&sel, store,
                                      "SELECT DISTINCT b.name FROM benchmark b "
                                      "JOIN case_result c ON c.benchmark_id = b.id",
                                      " ORDER BY b.name", name_row, &n);
    tally__buf_dispose(&sel.where);
    if (rc != TALLY_OK) {
        tally__buf_dispose(&n.out);
        return rc;
    }
    if (n.out.len == 0) {
        tally__buf_dispose(&n.out);
        return TALLY_OK;
    }
    return tally__buf_detach(out, len, &n.out);
}

int tally_store_select(tally_results *into, tally_store *store, const tally_store_query *query)
{
    if (into == NULL || store == NULL)
        return tally__error(TALLY_EINVAL, "tally_store_select: NULL argument");
    selection sel;
    memset(&sel, 0, sizeof sel);
    int rc = tally__options_read(&sel.q, query, &tally_store_query_kind);
    if (rc != TALLY_OK)
        return rc;
    rc = select_all(&sel, store, into);
    for (size_t i = 0; i < sel.count; i++) {
        tally__free_mem(sel.sets[i].label);
        tally__free_mem(sel.sets[i].commit);
        tally__free_mem(sel.sets[i].time);
        tally__free_mem(sel.sets[i].recorded);
        tally_resultset_free(sel.sets[i].rs);
    }
    tally__free_mem(sel.sets);
    tally__free_mem(sel.by_id);
    tally__buf_dispose(&sel.where);
    return rc;
}
