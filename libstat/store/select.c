/* tally_store_select: the sets a query names, rebuilt as result sets (docs/store.md). Two
 * queries share one WHERE clause built from fixed fragments, the values bound: the sets with
 * their metadata (one block per set, result_set.meta), and their benchmarks and cases with the
 * samples. The set query asks for no order: an index walk in that order costs a table lookup
 * per row, where a plain scan reads the rows in storage order, which is already the order
 * wanted when sets were recorded one after another; the rows are put in order here, and a sort
 * runs only when they are not. Their texts go to one arena, not to an allocation each, and a
 * set's metadata reaches its result set as one block (tally__resultset_meta_adopt). */
#include "store/store_internal.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/results_append.h"
#include "util/arena.h"
#include "util/count.h"
#include "util/internal.h"
#include "util/name_index.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_store_query, TALLY_STORE_QUERY, sizeof(tally_store_query))

typedef struct sel_set {
    long long id;
    const char *label, *commit, *time, *recorded; /* in the selection's arena */
    const char *meta; /* the stored pairs (result_set.meta), in the arena; NULL: none */
    size_t meta_len;
    tally_resultset *rs; /* made at the set's first benchmark, or at the end */
    int has_data;   /* a benchmark passed the globs */
    int dup_label;  /* another set of the selection has this label */
    int dup_commit; /* ... and the same 12 first characters of the commit, or no commit */
} sel_set;

typedef struct selection {
    tally_store_query q;
    tally__buf where; /* " WHERE ..." over result_set r (b: benchmark, c: case_result) */
    tally__db_value params[TALLY__STORE_MAX_PARAMS];
    size_t nparams;
    tally__arena text;
    sel_set *sets; /* in the order of (time, id) */
    size_t count, cap;
    struct by_id {
        long long id;
        size_t at;
    } *by_id; /* the sets' positions sorted by id; NULL when the sets are in id order already */
    size_t last; /* the set of the previous row: rows come grouped by set */
    int bench_glob, case_glob; /* the names are globs, matched per row */
    /* The direction text of the previous benchmark row and its value: rows repeat one. */
    char direction_text[16];
    tally_direction direction;
} selection;

static int has_glob(const char *s)
{
    return s && strpbrk(s, "*?[\\") != NULL;
}

/* Room for one more element of `size` bytes in a growable array (doubling, from 64). */
static int grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return TALLY_OK;
    size_t new_cap = *cap ? *cap * 2 : 64;
    void *grown = tally__reallocarray(*items, new_cap, size);
    if (grown == NULL)
        return tally__oom();
    *items = grown;
    *cap = new_cap;
    return TALLY_OK;
}

/* A text column copied to the arena; NULL for SQL NULL. */
static int keep_text(const char **out, selection *sel, const tally__db_value *v)
{
    *out = NULL;
    if (v->type != TALLY__DB_TEXT)
        return TALLY_OK;
    *out = tally__arena_text(&sel->text, v->s, v->len);
    return *out ? TALLY_OK : TALLY_ENOMEM;
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
    if (ncols != 6 || cols[0].type != TALLY__DB_INT || cols[1].type != TALLY__DB_TEXT ||
        cols[3].type != TALLY__DB_TEXT || cols[4].type != TALLY__DB_TEXT ||
        (cols[5].type != TALLY__DB_BLOB && cols[5].type != TALLY__DB_NULL))
        return tally__error(TALLY_EFORMAT, "store: a result_set row of an unexpected shape");
    int rc = grow((void **)&sel->sets, &sel->cap, sel->count, sizeof *sel->sets);
    if (rc != TALLY_OK)
        return rc;
    sel_set *s = &sel->sets[sel->count];
    memset(s, 0, sizeof *s);
    s->id = cols[0].i;
    sel->count++;
    rc = keep_text(&s->label, sel, &cols[1]);
    if (rc == TALLY_OK)
        rc = keep_text(&s->commit, sel, &cols[2]);
    if (rc == TALLY_OK)
        rc = keep_text(&s->time, sel, &cols[3]);
    if (rc == TALLY_OK)
        rc = keep_text(&s->recorded, sel, &cols[4]);
    if (rc == TALLY_OK && cols[5].type == TALLY__DB_BLOB && cols[5].len > 0) {
        s->meta = tally__arena_text(&sel->text, cols[5].s, cols[5].len);
        s->meta_len = cols[5].len;
        rc = s->meta ? TALLY_OK : TALLY_ENOMEM;
    }
    return rc;
}

/* The order of the selected sets: by time, then by id. */
static int by_time_id(const void *a, const void *b)
{
    const sel_set *x = a, *y = b;
    int c = strcmp(x->time, y->time);
    return c != 0 ? c : (x->id > y->id) - (x->id < y->id);
}

static int by_id_cmp(const void *a, const void *b)
{
    long long x = ((const struct by_id *)a)->id, y = ((const struct by_id *)b)->id;
    return (x > y) - (x < y);
}

/* The sets in time order, and the way back from an id to its set: the positions themselves
 * when the ids ascend with the time (sets recorded in time order), else a table sorted by id. */
static int order_sets(selection *sel)
{
    int in_order = 1, ids_ascend = 1;
    for (size_t i = 1; i < sel->count; i++) {
        in_order = in_order && by_time_id(&sel->sets[i - 1], &sel->sets[i]) < 0;
        ids_ascend = ids_ascend && sel->sets[i - 1].id < sel->sets[i].id;
    }
    if (!in_order) {
        qsort(sel->sets, sel->count, sizeof *sel->sets, by_time_id);
        ids_ascend = 1;
        for (size_t i = 1; i < sel->count && ids_ascend; i++)
            ids_ascend = sel->sets[i - 1].id < sel->sets[i].id;
    }
    if (ids_ascend)
        return TALLY_OK;
    sel->by_id = tally__calloc(sel->count + 1, sizeof *sel->by_id);
    if (sel->by_id == NULL)
        return tally__oom();
    for (size_t i = 0; i < sel->count; i++) {
        sel->by_id[i].id = sel->sets[i].id;
        sel->by_id[i].at = i;
    }
    qsort(sel->by_id, sel->count, sizeof *sel->by_id, by_id_cmp);
    return TALLY_OK;
}

static long long id_at(const selection *sel, size_t i)
{
    return sel->by_id ? sel->by_id[i].id : sel->sets[i].id;
}

/* The position of the set of this id, SIZE_MAX when the selection has none: the set of the
 * previous row or the one after it first (rows come grouped by set, mostly in the sets' order),
 * else a binary search. */
static size_t find_set(selection *sel, long long id)
{
    size_t last = sel->last;
    if (last < sel->count && sel->sets[last].id == id)
        return last;
    if (last + 1 < sel->count && sel->sets[last + 1].id == id)
        return sel->last = last + 1;
    size_t lo = 0, hi = sel->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        long long at = id_at(sel, mid);
        if (at == id)
            return sel->last = sel->by_id ? sel->by_id[mid].at : mid;
        if (at < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

/* The set's result set, made at first need under the stored label (label_sets may rename it). */
static int set_rs(tally_resultset **out, sel_set *s)
{
    if (s->rs == NULL) {
        int rc = tally_resultset_new(&s->rs, s->label);
        if (rc != TALLY_OK)
            return rc;
    }
    *out = s->rs;
    return TALLY_OK;
}

/* The benchmark of the current row, found again by name or added (rows come ordered by set,
 * benchmark position and case position). */
static int row_benchmark(tally_benchmark **out, selection *sel, tally_resultset *rs, long long set,
                         const tally__db_value *cols)
{
    const char *bench = cols[1].s;
    *out = tally_resultset_benchmark_find(rs, bench);
    if (*out != NULL)
        return TALLY_OK;
    int rc = TALLY_OK;
    if (strcmp(cols[3].s, sel->direction_text) != 0) {
        rc = tally_direction_from_name(&sel->direction, cols[3].s);
        sel->direction_text[0] = '\0';
        if (rc == TALLY_OK && cols[3].len < sizeof sel->direction_text)
            memcpy(sel->direction_text, cols[3].s, cols[3].len + 1);
    }
    if (rc == TALLY_OK)
        rc = tally_resultset_benchmark_add(out, rs, bench, cols[2].s, sel->direction);
    if (rc == TALLY_OK && cols[4].type == TALLY__DB_TEXT) {
        tally_statistic stat;
        rc = tally_statistic_from_name(&stat, cols[4].s);
        if (rc == TALLY_OK)
            rc = tally_benchmark_set_statistic(*out, stat);
    }
    if (rc != TALLY_OK)
        return rc == TALLY_ENOMEM ? rc : tally__error(TALLY_EFORMAT,
                                                      "store: set %lld, benchmark '%s': %s",
                                                      set, bench, tally_error_last()->message);
    return TALLY_OK;
}

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
    if (sel->bench_glob && fnmatch(sel->q.benchmark, bench, 0) != 0)
        return TALLY_OK;
    if (sel->case_glob && fnmatch(sel->q.case_name, case_name, 0) != 0)
        return TALLY_OK;
    size_t at = find_set(sel, cols[0].i);
    if (at == SIZE_MAX)
        return TALLY_OK;
    sel_set *s = &sel->sets[at];
    long long n = cols[6].i;
    if (n < 0 || (size_t)n * 8 != cols[7].len)
        return tally__error(TALLY_EFORMAT, "store: set %lld, benchmark '%s', case '%s': %lld "
                                           "samples in %zu bytes", s->id, bench, case_name, n,
                            cols[7].len);
    tally_resultset *rs;
    tally_benchmark *b;
    tally_case *c;
    int rc = set_rs(&rs, s);
    if (rc == TALLY_OK)
        rc = row_benchmark(&b, sel, rs, s->id, cols);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, case_name);
    if (rc == TALLY_OK && n > 0)
        rc = tally__case_reserve(c, (size_t)n);
    if (rc != TALLY_OK)
        return rc;
    s->has_data = 1;
    if (n == 0)
        return TALLY_OK;
    /* Unpacked straight into the case (no copy in between), checked as tally_case_append
     * checks. */
    size_t room;
    double *x = tally__case_spare(c, &room);
    tally__store_unpack(x, (const unsigned char *)cols[7].s, (size_t)n);
    for (long long i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return tally__error(TALLY_ENONFINITE, "store: set %lld, benchmark '%s', case '%s': "
                                                  "sample %lld is not finite", s->id, bench,
                                case_name, i + 1);
    tally__case_commit(c, (size_t)n);
    return TALLY_OK;
}

static int case_meta_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    selection *sel = ctx;
    if (ncols != 5 || cols[0].type != TALLY__DB_INT)
        return tally__error(TALLY_EFORMAT, "store: a case_meta row of an unexpected shape");
    size_t at = find_set(sel, cols[0].i);
    tally_resultset *rs = at == SIZE_MAX ? NULL : sel->sets[at].rs;
    tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, cols[1].s) : NULL;
    tally_case *c = b ? tally_benchmark_case_find(b, cols[2].s) : NULL;
    return c ? tally_case_meta_set(c, cols[3].s, cols[4].s) : TALLY_OK;
}

/* head, the selection's condition, tail. The set query (set_column NULL) takes the WHERE
 * clause over result_set r as it is; the others select by their set column, through the same
 * clause as a subquery, and with no condition at all when the selection has none (a series over
 * every set reads only the benchmark and case tables). */
static int build_sql(tally__buf *sql, const selection *sel, const char *head,
                     const char *set_column, const char *tail)
{
    tally__buf_puts(sql, head);
    if (sel->where.len && set_column)
        tally__buf_printf(sql, " WHERE %s IN (SELECT r.id FROM result_set r%s)", set_column,
                          sel->where.data);
    else if (sel->where.len)
        tally__buf_puts(sql, sel->where.data);
    tally__buf_puts(sql, tail);
    return sql->failed ? tally__oom() : TALLY_OK;
}

static int run(selection *sel, tally_store *st, const char *head, const char *set_column,
               const char *tail, tally__db_row_fn fn, void *ctx)
{
    tally__buf sql = TALLY__BUF_INIT;
    int rc = build_sql(&sql, sel, head, set_column, tail);
    if (rc == TALLY_OK)
        rc = st->ops->query(st->db, sql.data, sel->params, sel->nparams, fn, ctx);
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

/* The SQL of a query over benchmarks and cases (head) with the selection's conditions and the
 * order given, into sql; its values are sel->params up to sel->nparams. */
static int data_sql(tally__buf *sql, selection *sel, const char *head, const char *order)
{
    tally__buf tail = TALLY__BUF_INIT;
    data_conditions(&tail, sel->params, &sel->nparams, &sel->q, sel->where.len == 0);
    tally__buf_puts(&tail, order);
    int rc = tail.failed ? tally__oom() : build_sql(sql, sel, head, "b.set_id", tail.data);
    tally__buf_dispose(&tail);
    return rc;
}

static int load_data(selection *sel, tally_store *st, const char *head, const char *order,
                     tally__db_row_fn fn, void *ctx)
{
    tally__buf sql = TALLY__BUF_INIT;
    size_t saved = sel->nparams;
    int rc = data_sql(&sql, sel, head, order);
    if (rc == TALLY_OK)
        rc = st->ops->query(st->db, sql.data, sel->params, sel->nparams, fn, ctx);
    tally__buf_dispose(&sql);
    sel->nparams = saved;
    return rc;
}

/* The decimal digits of v at the end of buf (cap at least 21), NUL-terminated: a set id,
 * written for each of thousands of sets without the cost of a formatted print. */
static const char *decimal(char *buf, size_t cap, long long v)
{
    char *p = buf + cap - 1;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    *p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *--p = '-';
    return p;
}

/* The sets seen so far of each distinct key (a label, or a label and a commit), found by a hash
 * index: marking the sets that share one is then O(n), where a sort by label and commit cost
 * n log n comparisons (a tenth of a series fetch of 10,000 sets of one label). */
typedef struct key_groups {
    tally__name_index ix;
    struct key_group {
        const char *key; /* the key of the group */
        sel_set *first;  /* its first set */
    } *groups;
    size_t count, cap;
} key_groups;

static const char *group_key(const void *owner, size_t i)
{
    return ((const key_groups *)owner)->groups[i].key;
}

/* The group of `key` in *at, and its first set in *first; a key not seen before starts a group
 * whose first set is s (*first NULL). `key` must outlive the groups. */
static int key_group(size_t *at, sel_set **first, key_groups *g, const char *key, sel_set *s)
{
    *at = tally__name_index_find(&g->ix, g, group_key, g->count, key);
    if (*at != (size_t)-1) {
        *first = g->groups[*at].first;
        return TALLY_OK;
    }
    int rc = grow((void **)&g->groups, &g->cap, g->count, sizeof *g->groups);
    if (rc != TALLY_OK)
        return rc;
    g->groups[g->count] = (struct key_group){key, s};
    rc = tally__name_index_added(&g->ix, g, group_key, g->count + 1);
    if (rc != TALLY_OK)
        return rc;
    *at = g->count++;
    *first = NULL;
    return TALLY_OK;
}

static void key_groups_free(key_groups *g)
{
    tally__name_index_free(&g->ix);
    tally__free_mem(g->groups);
}

/* Mark the sets whose label another set of the selection shares (`dup_label`), and of those the
 * ones that share the first 12 characters of the commit too, or lack one (`dup_commit`). */
static int find_repeats(selection *sel, sel_set **order, size_t n)
{
    key_groups labels = {TALLY__NAME_INDEX_INIT, NULL, 0, 0};
    key_groups commits = {TALLY__NAME_INDEX_INIT, NULL, 0, 0};
    size_t *group = tally__calloc(n + 1, sizeof *group);
    int rc = group ? TALLY_OK : tally__oom();
    for (size_t i = 0; rc == TALLY_OK && i < n; i++) {
        sel_set *first;
        rc = key_group(&group[i], &first, &labels, order[i]->label, order[i]);
        if (rc == TALLY_OK && first != NULL)
            first->dup_label = order[i]->dup_label = 1;
    }
    /* A commit is told apart within its label's group: "GROUP:COMMIT12" (the digits end at the
     * colon, so no two groups' keys meet). */
    for (size_t i = 0; rc == TALLY_OK && i < n; i++) {
        sel_set *s = order[i], *first;
        if (!s->dup_label)
            continue;
        if (s->commit == NULL) {
            s->dup_commit = 1;
            continue;
        }
        char digits[24], key[24 + 1 + 12];
        const char *g = decimal(digits, sizeof digits, (long long)group[i]);
        size_t glen = strlen(g), clen = strnlen(s->commit, 12);
        memcpy(key, g, glen);
        key[glen] = ':';
        memcpy(key + glen + 1, s->commit, clen);
        const char *kept = tally__arena_text(&sel->text, key, glen + 1 + clen);
        size_t at;
        rc = kept ? key_group(&at, &first, &commits, kept, s) : TALLY_ENOMEM;
        if (rc == TALLY_OK && first != NULL)
            first->dup_commit = s->dup_commit = 1;
    }
    key_groups_free(&labels);
    key_groups_free(&commits);
    tally__free_mem(group);
    return rc;
}

/* LABEL + sep + the first n bytes of suffix, into name (emptied first; one buffer for every
 * set of a selection). */
static int compose(tally__buf *name, const char *label, char sep, const char *suffix, size_t n)
{
    name->len = 0;
    tally__buf_puts(name, label);
    tally__buf_append(name, &sep, 1);
    tally__buf_append(name, suffix, n);
    return name->failed ? tally__oom() : TALLY_OK;
}

/* A set's label when another set shares its own: LABEL@COMMIT (12 characters), else
 * LABEL#ID; the one taken in `into` too gives an error. */
static int relabel(tally__buf *name, sel_set *s, const tally_results *into)
{
    char id[24];
    if (s->commit && !s->dup_commit) {
        int rc = compose(name, s->label, '@', s->commit, strnlen(s->commit, 12));
        if (rc != TALLY_OK)
            return rc;
        if (tally_results_find(into, name->data) == NULL)
            return tally_resultset_set_label(s->rs, name->data);
    }
    const char *digits = decimal(id, sizeof id, s->id);
    int rc = compose(name, s->label, '#', digits, strlen(digits));
    if (rc != TALLY_OK)
        return rc;
    if (tally_results_find(into, name->data) != NULL)
        return tally__error(TALLY_EEXISTS, "store: set %lld: the labels '%s', '%s@...' and '%s' "
                                           "are all taken", s->id, s->label, s->label,
                            name->data);
    return tally_resultset_set_label(s->rs, name->data);
}

/* Append the n bytes at s to p, and return the end. */
static char *put(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* The set's stored metadata and the store's own keys (store.id, store.time, store.recorded),
 * given to its result set as one block: written straight into a buffer of the right size, for
 * each of thousands of sets. */
static int give_meta(tally__buf *block, sel_set *s, tally_resultset *rs)
{
    static const char id_key[] = TALLY__STORE_META_PREFIX "id";
    static const char time_key[] = TALLY__STORE_META_PREFIX "time";
    static const char recorded_key[] = TALLY__STORE_META_PREFIX "recorded";
    char digits[24];
    const char *id = decimal(digits, sizeof digits, s->id);
    size_t id_len = strlen(id) + 1, time_len = strlen(s->time) + 1;
    size_t recorded_len = strlen(s->recorded) + 1;
    size_t len = s->meta_len + sizeof id_key + id_len + sizeof time_key + time_len +
                 sizeof recorded_key + recorded_len;
    block->len = 0;
    if (tally__buf_reserve(block, len) != TALLY_OK)
        return tally__oom();
    char *p = put(block->data, s->meta, s->meta_len);
    p = put(p, id_key, sizeof id_key);
    p = put(p, id, id_len);
    p = put(p, time_key, sizeof time_key);
    p = put(p, s->time, time_len);
    p = put(p, recorded_key, sizeof recorded_key);
    put(p, s->recorded, recorded_len);
    int rc = tally__resultset_meta_adopt(rs, block->data, len);
    if (rc == TALLY_EINVAL)
        return tally__error(TALLY_EFORMAT, "store: set %lld: its metadata (result_set.meta) is "
                                           "not a list of key/value texts", s->id);
    return rc;
}

/* LABEL, else LABEL@COMMIT (12 characters), else LABEL#ID; a label taken in `into` counts as
 * shared. The sets with data move to `into` in one step, all or nothing. */
static int label_sets(selection *sel, tally_results *into)
{
    sel_set **order = tally__calloc(sel->count + 1, sizeof *order);
    tally_resultset **keep = tally__calloc(sel->count + 1, sizeof *keep);
    int rc = order && keep ? TALLY_OK : tally__oom();
    int filtered = sel->q.benchmark || sel->q.case_name;
    tally__buf name = TALLY__BUF_INIT, block = TALLY__BUF_INIT;
    size_t n = 0;
    for (size_t i = 0; rc == TALLY_OK && i < sel->count; i++)
        if (!filtered || sel->sets[i].has_data)
            order[n++] = &sel->sets[i];
    if (rc == TALLY_OK)
        rc = find_repeats(sel, order, n);
    /* Back in time order. */
    n = 0;
    for (size_t i = 0; rc == TALLY_OK && i < sel->count; i++) {
        sel_set *s = &sel->sets[i];
        if (filtered && !s->has_data)
            continue;
        tally_resultset *rs;
        rc = set_rs(&rs, s);
        if (rc == TALLY_OK && (s->dup_label || tally_results_find(into, s->label) != NULL))
            rc = relabel(&name, s, into);
        if (rc == TALLY_OK)
            rc = give_meta(&block, s, rs);
        if (rc == TALLY_OK)
            keep[n++] = rs;
    }
    if (rc == TALLY_OK)
        rc = tally__results_append_unique(into, keep, n);
    if (rc == TALLY_OK)
        for (size_t i = 0; i < sel->count; i++)
            if (!filtered || sel->sets[i].has_data)
                sel->sets[i].rs = NULL; /* owned by `into` now */
    tally__free_mem(order);
    tally__free_mem(keep);
    tally__buf_dispose(&name);
    tally__buf_dispose(&block);
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
    sel->bench_glob = has_glob(sel->q.benchmark);
    sel->case_glob = has_glob(sel->q.case_name);
    build_where(sel);
    if (sel->where.failed)
        return tally__oom();
    int rc = run(sel, st,
                 "SELECT r.id, r.label, r.commit_id, r.time, r.recorded, r.meta FROM result_set r",
                 NULL, "", set_row, sel);
    if (rc == TALLY_OK)
        rc = order_sets(sel);
    if (rc != TALLY_OK || sel->count == 0)
        return rc;
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

int tally__store_data_sql(char **sql, tally__db_value *params, size_t *nparams,
                          const tally_store_query *query)
{
    *sql = NULL;
    *nparams = 0;
    selection sel;
    memset(&sel, 0, sizeof sel);
    int rc = tally__options_read(&sel.q, query, &tally_store_query_kind);
    if (rc != TALLY_OK)
        return rc;
    build_where(&sel);
    tally__buf text = TALLY__BUF_INIT;
    rc = sel.where.failed ? tally__oom() : data_sql(&text, &sel, data_head, series_order(&sel.q));
    tally__buf_dispose(&sel.where);
    if (rc != TALLY_OK) {
        tally__buf_dispose(&text);
        return rc;
    }
    memcpy(params, sel.params, sel.nparams * sizeof *params);
    *nparams = sel.nparams;
    size_t len;
    return tally__buf_detach(sql, &len, &text);
}

int tally__store_explain(tally_store *store, const tally_store_query *query,
                         tally__db_row_fn row, void *ctx)
{
    tally__db_value params[TALLY__STORE_MAX_PARAMS];
    size_t nparams;
    char *sql = NULL;
    int rc = tally__store_data_sql(&sql, params, &nparams, query);
    tally__buf text = TALLY__BUF_INIT;
    if (rc == TALLY_OK) {
        tally__buf_puts(&text, store->ops == &tally__db_sqlite ? "EXPLAIN QUERY PLAN "
                                                                : "EXPLAIN ");
        tally__buf_puts(&text, sql);
        rc = text.failed ? tally__oom()
                         : store->ops->query(store->db, text.data, params, nparams, row, ctx);
    }
    tally_free(sql);
    tally__buf_dispose(&text);
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
    /* Only the tests of the migrations open a store at an older version. */
    if (store->schema_version < 3)
        return tally__error(TALLY_EINVAL, "tally_store_select: the store was opened at schema "
                                          "version %d; selecting needs version 3",
                            store->schema_version);
    rc = select_all(&sel, store, into);
    for (size_t i = 0; i < sel.count; i++)
        tally_resultset_free(sel.sets[i].rs);
    tally__free_mem(sel.sets);
    tally__free_mem(sel.by_id);
    tally__arena_dispose(&sel.text);
    tally__buf_dispose(&sel.where);
    return rc;
}
