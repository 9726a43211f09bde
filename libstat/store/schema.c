/* The store's schema: each version's statements, applied in order inside one exclusive
 * transaction when a store is opened (docs/store.md lists the tables). A version, once
 * released, never changes; a change is a new version whose statements migrate the previous. */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/count.h"
#include "util/internal.h"

/* %1$s is the back end's auto-numbered primary key, %2$s its type of raw bytes. */
static const char *const v1[] = {
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE result_set (id %1$s, content_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL, "
    "commit_id TEXT, branch TEXT, machine TEXT, time TEXT NOT NULL, recorded TEXT NOT NULL)",
    "CREATE TABLE set_meta (set_id BIGINT NOT NULL REFERENCES result_set (id) ON DELETE CASCADE, "
    "position INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, "
    "PRIMARY KEY (set_id, position))",
    "CREATE TABLE benchmark (id %1$s, set_id BIGINT NOT NULL REFERENCES result_set (id) "
    "ON DELETE CASCADE, position INTEGER NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL, "
    "direction TEXT NOT NULL, statistic TEXT)",
    "CREATE TABLE case_result (id %1$s, benchmark_id BIGINT NOT NULL REFERENCES benchmark (id) "
    "ON DELETE CASCADE, position INTEGER NOT NULL, name TEXT NOT NULL, n INTEGER NOT NULL, "
    "samples %2$s NOT NULL)",
    "CREATE TABLE case_meta (case_id BIGINT NOT NULL REFERENCES case_result (id) "
    "ON DELETE CASCADE, position INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, "
    "PRIMARY KEY (case_id, position))",
    /* The series of one benchmark and case over commits: benchmark by name, then its case. */
    "CREATE INDEX benchmark_series ON benchmark (name, set_id)",
    "CREATE INDEX case_series ON case_result (benchmark_id, name)",
    "CREATE INDEX result_set_time ON result_set (time, id)",
    "CREATE INDEX result_set_commit ON result_set (commit_id)",
};

/* Version 2: "the latest result of a branch on a machine" without a scan, and a set's
 * benchmarks by their set (v1 could reach them only through a benchmark's name). */
static const char *const v2[] = {
    "CREATE INDEX result_set_latest ON result_set (branch, machine, time, id)",
    "CREATE INDEX benchmark_set ON benchmark (set_id, position)",
};

/* Version 3, for the speed of a series over thousands of commits: a set's metadata also as one
 * value of its row (result_set.meta, the pairs as NUL-terminated texts: tally__store_meta_put),
 * read with the set instead of by a scan of set_meta (which stays: the same pairs as rows, for
 * SQL); sets recorded before are filled in from set_meta (fill_meta). */
static const char *const v3[] = {
    "ALTER TABLE result_set ADD COLUMN meta %2$s",
    /* The series index also holds what the series reads of a benchmark, so that the fetch
     * reads no benchmark row (a covering index: one table lookup less per commit). */
    "DROP INDEX benchmark_series",
    "CREATE INDEX benchmark_series ON benchmark (name, set_id, id, unit, direction, statistic)",
};

/* fill_meta's reading: the blocks of the sets, one after another in `blocks`, and where each
 * set's begins. */
typedef struct meta_fill {
    tally__buf blocks;
    struct filled {
        long long id;
        size_t at, len;
    } *sets;
    size_t count, cap;
} meta_fill;

static int fill_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    meta_fill *f = ctx;
    if (ncols != 3 || cols[0].type != TALLY__DB_INT || cols[1].type != TALLY__DB_TEXT ||
        cols[2].type != TALLY__DB_TEXT)
        return tally__error(TALLY_EFORMAT, "store: a set_meta row of an unexpected shape");
    if (f->count == 0 || f->sets[f->count - 1].id != cols[0].i) {
        if (f->count == f->cap) {
            size_t cap = f->cap ? f->cap * 2 : 64;
            struct filled *grown = tally__reallocarray(f->sets, cap, sizeof *grown);
            if (grown == NULL)
                return tally__oom();
            f->sets = grown;
            f->cap = cap;
        }
        f->sets[f->count++] = (struct filled){cols[0].i, f->blocks.len, 0};
    }
    tally__store_meta_put(&f->blocks, cols[1].s, cols[2].s);
    f->sets[f->count - 1].len = f->blocks.len - f->sets[f->count - 1].at;
    return f->blocks.failed ? tally__oom() : TALLY_OK;
}

/* result_set.meta of every set recorded before version 3, from its set_meta rows. */
static int fill_meta(tally_store *s)
{
    meta_fill f = {TALLY__BUF_INIT, NULL, 0, 0};
    int rc = s->ops->query(s->db, "SELECT set_id, key, value FROM set_meta "
                                  "ORDER BY set_id, position", NULL, 0, fill_row, &f);
    for (size_t i = 0; rc == TALLY_OK && i < f.count; i++) {
        tally__db_value p[] = {tally__db_blob(f.blocks.data + f.sets[i].at, f.sets[i].len),
                               tally__db_int(f.sets[i].id)};
        rc = s->ops->exec(s->db, "UPDATE result_set SET meta = ? WHERE id = ?", p, 2);
    }
    tally__buf_dispose(&f.blocks);
    tally__free_mem(f.sets);
    return rc;
}

static const struct {
    const char *const *sql;
    size_t count;
    int (*fill)(tally_store *s); /* after the statements: data the new version derives */
} versions[] = {
    {v1, TALLY__COUNT(v1), NULL},
    {v2, TALLY__COUNT(v2), NULL},
    {v3, TALLY__COUNT(v3), fill_meta},
};

int tally__store_schema_current(void)
{
    return (int)TALLY__COUNT(versions);
}

static int version_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    if (ncols == 1 && cols[0].type == TALLY__DB_INT)
        *(int *)ctx = (int)cols[0].i;
    return 0;
}

/* The stored version: 0 for an empty database; -1 for a database holding other tables
 * (with a table named result_set) or a schema_version without a row. */
static int read_version(int *out, tally_store *s)
{
    int has = 0;
    *out = 0;
    int rc = s->ops->has_table(&has, s->db, "schema_version");
    if (rc != TALLY_OK)
        return rc;
    if (!has) {
        rc = s->ops->has_table(&has, s->db, "result_set");
        if (rc == TALLY_OK && has)
            *out = -1;
        return rc;
    }
    *out = -1;
    return s->ops->query(s->db, "SELECT MAX(version) FROM schema_version", NULL, 0, version_row,
                         out);
}

typedef struct migration {
    int target;
} migration;

static int migrate_body(tally_store *s, void *ctx)
{
    int target = ((migration *)ctx)->target;
    int have;
    int rc = read_version(&have, s);
    if (rc != TALLY_OK)
        return rc;
    if (have < 0)
        return tally__error(TALLY_EFORMAT,
                            "%s: not a tally store (it has a table result_set but no "
                            "schema_version)", s->where);
    if (have > tally__store_schema_current())
        return tally__error(TALLY_EFORMAT,
                            "%s: the store has schema version %d, newer than this tally %s "
                            "reads (up to %d): use a newer tally",
                            s->where, have, tally_version(), tally__store_schema_current());
    for (int v = have + 1; v <= target; v++) {
        for (size_t i = 0; i < versions[v - 1].count && rc == TALLY_OK; i++) {
            char sql[1024];
            int n = snprintf(sql, sizeof sql, versions[v - 1].sql[i], s->ops->id_column,
                             s->ops->blob_type);
            if (n < 0 || (size_t)n >= sizeof sql)
                return tally__error(TALLY_ELIMIT, "store schema: a statement is too long");
            rc = s->ops->exec(s->db, sql, NULL, 0);
        }
        if (rc == TALLY_OK && versions[v - 1].fill)
            rc = versions[v - 1].fill(s);
        if (rc != TALLY_OK)
            return rc;
    }
    if (target > have) {
        tally__db_value p = tally__db_int(target);
        rc = s->ops->exec(s->db, "DELETE FROM schema_version", NULL, 0);
        if (rc == TALLY_OK)
            rc = s->ops->exec(s->db, "INSERT INTO schema_version (version) VALUES (?)", &p, 1);
    }
    s->schema_version = target > have ? target : have;
    return rc;
}

int tally__store_migrate(tally_store *s, int target)
{
    /* Most opens find the store current: a plain read, without the exclusive lock that a
     * migration takes (and that would make concurrent writers queue at open). */
    int have;
    int rc = read_version(&have, s);
    if (rc != TALLY_OK && rc != TALLY_EBUSY)
        return rc;
    if (rc == TALLY_OK && have >= target && have <= tally__store_schema_current()) {
        s->schema_version = have;
        return TALLY_OK;
    }
    migration m = {target};
    return tally__store_transaction(s, 1, migrate_body, &m);
}
