/* The SQLite back end: one file, write-ahead log (readers never wait for a writer), writers
 * queue on the file lock for busy_timeout_ms, every transaction that writes takes the write lock
 * at BEGIN (IMMEDIATE) so that two writers never deadlock upgrading a read lock. Prepared
 * statements are kept per SQL text: a record runs the same few inserts thousands of times. */
#include "store/store_internal.h"

#include <sqlite3.h>
#include <string.h>
#include <time.h>

#include "util/count.h"
#include "util/internal.h"

typedef struct cached {
    char *sql;
    sqlite3_stmt *stmt;
} cached;

struct tally__db {
    sqlite3 *db;
    char *path;
    cached cache[16];
    size_t next; /* the slot the next new statement replaces */
    int timeout_ms;
    struct timespec wait_start; /* when the current wait for a lock began */
};

/* SQLite's own busy handler sleeps up to 100 ms between looks at the lock; with several
 * writers taking turns in a few milliseconds each, most of that is idle. This one looks every
 * 0.2 to 1.2 ms (spread so that waiting writers do not look together) until timeout_ms. */
static int busy_wait(void *ctx, int count)
{
    tally__db *d = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (count == 0)
        d->wait_start = now;
    double waited = (double)(now.tv_sec - d->wait_start.tv_sec) * 1e3 +
                    (double)(now.tv_nsec - d->wait_start.tv_nsec) / 1e6;
    if (waited >= d->timeout_ms)
        return 0;
    struct timespec ts = {0, 200000L + (long)((now.tv_nsec / 1000 + count * 7919L) % 1000) * 1000L};
    nanosleep(&ts, NULL);
    return 1;
}

static int is_busy(int code)
{
    int primary = code & 0xff;
    return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

static int fail(tally__db *d, int code, const char *what)
{
    if (is_busy(code))
        return tally__error(TALLY_EBUSY, "%s: %s: %s", d->path, what, sqlite3_errmsg(d->db));
    if ((code & 0xff) == SQLITE_NOMEM)
        return tally__oom();
    if ((code & 0xff) == SQLITE_NOTADB)
        return tally__error(TALLY_EFORMAT, "%s: not an SQLite database (a store is an SQLite "
                                           "file or a postgresql:// URL)", d->path);
    return tally__error(TALLY_EIO, "%s: %s: %s", d->path, what, sqlite3_errmsg(d->db));
}

static int prepare(sqlite3_stmt **out, tally__db *d, const char *sql)
{
    for (size_t i = 0; i < TALLY__COUNT(d->cache); i++)
        if (d->cache[i].sql && strcmp(d->cache[i].sql, sql) == 0) {
            *out = d->cache[i].stmt;
            return TALLY_OK;
        }
    sqlite3_stmt *stmt;
    int rc = sqlite3_prepare_v2(d->db, sql, -1, &stmt, NULL);
    if (rc != SQLITE_OK)
        return fail(d, rc, "prepare");
    char *copy = tally__strdup(sql);
    if (copy == NULL) {
        sqlite3_finalize(stmt);
        return tally__oom();
    }
    cached *slot = &d->cache[d->next];
    d->next = (d->next + 1) % TALLY__COUNT(d->cache);
    sqlite3_finalize(slot->stmt);
    tally__free_mem(slot->sql);
    slot->sql = copy;
    slot->stmt = stmt;
    *out = stmt;
    return TALLY_OK;
}

static int bind(tally__db *d, sqlite3_stmt *stmt, const tally__db_value *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int at = (int)i + 1, rc;
        switch (p[i].type) {
        case TALLY__DB_INT:
            rc = sqlite3_bind_int64(stmt, at, p[i].i);
            break;
        case TALLY__DB_TEXT:
            rc = sqlite3_bind_text(stmt, at, p[i].s, (int)p[i].len, SQLITE_STATIC);
            break;
        case TALLY__DB_BLOB:
            rc = sqlite3_bind_blob(stmt, at, p[i].s, (int)p[i].len, SQLITE_STATIC);
            break;
        default:
            rc = sqlite3_bind_null(stmt, at);
            break;
        }
        if (rc != SQLITE_OK)
            return fail(d, rc, "bind");
    }
    return TALLY_OK;
}

static int sq_query(tally__db *d, const char *sql, const tally__db_value *params, size_t nparams,
                    tally__db_row_fn row, void *ctx)
{
    sqlite3_stmt *stmt = NULL;
    int rc = prepare(&stmt, d, sql);
    if (rc != TALLY_OK)
        return rc;
    rc = bind(d, stmt, params, nparams);
    int step = SQLITE_DONE;
    while (rc == TALLY_OK && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
        tally__db_value cols[12];
        int n = sqlite3_column_count(stmt);
        if (n > (int)TALLY__COUNT(cols))
            n = (int)TALLY__COUNT(cols);
        for (int i = 0; i < n; i++) {
            tally__db_value v = {TALLY__DB_NULL, 0, NULL, 0};
            /* Each sqlite3_column_* call locks and checks the statement again; a series reads
             * hundreds of thousands of columns, so each is taken once as a value and read
             * through the sqlite3_value_* calls, which do neither. The value is unprotected,
             * which is safe here: a connection serves one thread at a time (NOMUTEX, store.h). */
            sqlite3_value *col = sqlite3_column_value(stmt, i);
            switch (sqlite3_value_type(col)) {
            case SQLITE_INTEGER:
                v.type = TALLY__DB_INT;
                v.i = sqlite3_value_int64(col);
                break;
            case SQLITE_TEXT:
                v.type = TALLY__DB_TEXT;
                v.s = (const char *)sqlite3_value_text(col);
                v.len = (size_t)sqlite3_value_bytes(col);
                break;
            case SQLITE_BLOB:
                v.type = TALLY__DB_BLOB;
                v.s = sqlite3_value_blob(col);
                v.len = (size_t)sqlite3_value_bytes(col);
                if (v.s == NULL)
                    v.s = "";
                break;
            default:
                break;
            }
            cols[i] = v;
        }
        if (row)
            rc = row(ctx, cols, (size_t)n);
    }
    if (rc == TALLY_OK && step != SQLITE_DONE)
        rc = fail(d, step, "query");
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc;
}

static int sq_exec(tally__db *d, const char *sql, const tally__db_value *params, size_t nparams)
{
    return sq_query(d, sql, params, nparams, NULL, NULL);
}

static int sq_begin(tally__db *d, int exclusive)
{
    return sq_exec(d, exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE", NULL, 0);
}

static int sq_commit(tally__db *d)
{
    return sq_exec(d, "COMMIT", NULL, 0);
}

static void sq_rollback(tally__db *d)
{
    if (!sqlite3_get_autocommit(d->db))
        sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
}

static int one_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    (void)cols;
    (void)ncols;
    *(int *)ctx = 1;
    return 0;
}

static int sq_has_table(int *out, tally__db *d, const char *table)
{
    *out = 0;
    tally__db_value p = tally__db_text(table);
    return sq_query(d, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", &p, 1,
                    one_row, out);
}

static void sq_close(tally__db *d)
{
    for (size_t i = 0; i < TALLY__COUNT(d->cache); i++) {
        sqlite3_finalize(d->cache[i].stmt);
        tally__free_mem(d->cache[i].sql);
    }
    sqlite3_close(d->db);
    tally__free_mem(d->path);
    tally__free_mem(d);
}

static int sq_open(tally__db **out, const char *path, const tally_store_options *opts)
{
    *out = NULL;
    tally__db *d = tally__calloc(1, sizeof *d);
    if (d == NULL || (d->path = tally__strdup(path)) == NULL) {
        tally__free_mem(d);
        return tally__oom();
    }
    /* NOMUTEX: a store is used by one thread at a time (store.h), so SQLite's own locking of
     * every call is cost without use. */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (opts->create ? SQLITE_OPEN_CREATE : 0);
    int rc = sqlite3_open_v2(path, &d->db, flags, NULL);
    if (rc != SQLITE_OK) {
        int code = (rc & 0xff) == SQLITE_CANTOPEN && !opts->create ? TALLY_ENOTFOUND : TALLY_EIO;
        rc = tally__error(code, "%s: cannot open the store: %s", path,
                          d->db ? sqlite3_errmsg(d->db) : sqlite3_errstr(rc));
        sq_close(d);
        return rc;
    }
    sqlite3_extended_result_codes(d->db, 1);
    d->timeout_ms = opts->busy_timeout_ms;
    sqlite3_busy_handler(d->db, busy_wait, d);
    /* WAL: one writer and any number of readers at once, and a write survives the writer's
     * death; synchronous=NORMAL keeps it across a killed process (only power loss can take the
     * last transactions, never leave a partial one). */
    rc = sq_exec(d, "PRAGMA journal_mode = WAL", NULL, 0);
    if (rc == TALLY_OK)
        rc = sq_exec(d, "PRAGMA synchronous = NORMAL", NULL, 0);
    if (rc == TALLY_OK)
        rc = sq_exec(d, "PRAGMA foreign_keys = ON", NULL, 0);
    /* A series of thousands of commits reads megabytes: mapped instead of copied by read(2),
     * and held in a cache of 64 MiB (the default 2 MiB would read it again each time). */
    if (rc == TALLY_OK)
        rc = sq_exec(d, "PRAGMA mmap_size = 268435456", NULL, 0);
    if (rc == TALLY_OK)
        rc = sq_exec(d, "PRAGMA cache_size = -65536", NULL, 0);
    if (rc != TALLY_OK) {
        sq_close(d);
        return rc;
    }
    *out = d;
    return TALLY_OK;
}

const tally__db_ops tally__db_sqlite = {
    "sqlite",
    "INTEGER PRIMARY KEY",
    "BLOB",
    sq_open,
    sq_begin,
    sq_exec,
    sq_query,
    sq_commit,
    sq_rollback,
    sq_has_table,
    sq_close,
};
