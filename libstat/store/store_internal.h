/* The store module's private interface: the back-end vtable every database implements and the
 * store handle built on it.
 *
 *   store.c       tally_store_open/close, the options, the transaction loop with retries
 *   schema.c      the schema versions and their migrations (tally__store_migrate)
 *   record.c      tally_store_record: content hash, one transaction for a whole list
 *   select.c      tally_store_select: the query, the rebuilt result sets, their labels
 *   db_sqlite.c   the SQLite back end (tally__db_sqlite)
 *   db_pg.c       the PostgreSQL back end (tally__db_pg), libpq
 *
 * SQL is written once with `?` placeholders; the PostgreSQL back end numbers them ($1, $2, ...).
 * Every value reaches the database as a bound parameter, never inside the SQL text. */
#ifndef TALLY_STORE_INTERNAL_H
#define TALLY_STORE_INTERNAL_H

#include <stddef.h>

/* The library is built with TALLY_EXPERIMENTAL_API defined (CMakeLists.txt). */
#include "tally.h"
#include "util/internal.h" /* tally__buf */

/* A bound parameter or a column of a result row. */
typedef enum tally__db_type {
    TALLY__DB_NULL = 0,
    TALLY__DB_INT = 1,
    TALLY__DB_TEXT = 2,
    TALLY__DB_BLOB = 3
} tally__db_type;

typedef struct tally__db_value {
    tally__db_type type;
    long long i;       /* TALLY__DB_INT */
    const char *s;     /* TALLY__DB_TEXT (NUL-terminated) and TALLY__DB_BLOB */
    size_t len;        /* TALLY__DB_BLOB: bytes; TALLY__DB_TEXT: strlen */
} tally__db_value;

/* Constructors for parameter arrays. */
/* db_value.c: */
tally__db_value tally__db_int(long long i);
tally__db_value tally__db_text(const char *s); /* NULL gives TALLY__DB_NULL */
tally__db_value tally__db_blob(const void *p, size_t len);

/* Called once per result row; the values live until the callback returns. A non-zero return
 * stops the query and is returned by it. */
typedef int (*tally__db_row_fn)(void *ctx, const tally__db_value *cols, size_t ncols);

typedef struct tally__db tally__db; /* a back end's connection */

/* Return codes of the operations: TALLY_OK; TALLY_EBUSY when another writer made the
 * transaction fail and it may be run again (SQLite busy or locked after the timeout,
 * PostgreSQL SQLSTATE 40001 and 40P01); any other code is final. The message is set. */
typedef struct tally__db_ops {
    const char *name;      /* "sqlite", "postgresql": in messages */
    const char *id_column; /* DDL of an auto-numbered primary key column */
    const char *blob_type; /* DDL type of raw bytes */
    int (*open)(tally__db **out, const char *target, const tally_store_options *opts);
    /* exclusive: the transaction will change the schema; it waits for every other one. */
    int (*begin)(tally__db *db, int exclusive);
    int (*exec)(tally__db *db, const char *sql, const tally__db_value *params, size_t nparams);
    int (*query)(tally__db *db, const char *sql, const tally__db_value *params, size_t nparams,
                 tally__db_row_fn row, void *ctx);
    int (*commit)(tally__db *db);
    void (*rollback)(tally__db *db);
    /* Whether a table of this name exists (outside or inside a transaction). */
    int (*has_table)(int *out, tally__db *db, const char *table);
    void (*close)(tally__db *db);
} tally__db_ops;

extern const tally__db_ops tally__db_sqlite;
extern const tally__db_ops tally__db_pg;

struct tally_store {
    const tally__db_ops *ops;
    tally__db *db;
    tally_store_options opts;
    int schema_version;
    char where[512]; /* the location for messages, password scrubbed */
};

/* Run `body(store, ctx)` inside one transaction, committing when it returns TALLY_OK and
 * rolling back otherwise; a TALLY_EBUSY from any step rolls back and runs it all again, up to
 * opts.retries attempts, with a growing randomised pause between them (transaction.c). */
int tally__store_transaction(tally_store *store, int exclusive,
                             int (*body)(tally_store *store, void *ctx), void *ctx);

/* Bring the store to `target` (tally__store_schema_current, or an older version for tests),
 * refusing a newer one (schema.c). */
int tally__store_migrate(tally_store *store, int target);
int tally__store_schema_current(void);

/* Open a store and migrate it only up to `version` (tests of the migrations). */
int tally__store_open_at(tally_store **out, const char *url, const tally_store_options *opts,
                         int version);

/* The most values a selection binds (select.c). */
#define TALLY__STORE_MAX_PARAMS 16

/* The SQL text of the samples query tally_store_select runs for `query`, `?` for each value,
 * into *sql (free with tally_free), and its values into params (TALLY__STORE_MAX_PARAMS of
 * room; they point into the query's strings) (select.c; bench/ steps it with plain SQLite
 * calls, the bare cost of a series). */
int tally__store_data_sql(char **sql, tally__db_value *params, size_t *nparams,
                          const tally_store_query *query);

/* The back end's plan of the samples query tally_store_select runs for `query` (SQLite:
 * EXPLAIN QUERY PLAN rows, PostgreSQL: EXPLAIN lines), row by row (select.c; bench/). */
int tally__store_explain(tally_store *store, const tally_store_query *query,
                         tally__db_row_fn row, void *ctx);

/* Whether `url` names a PostgreSQL database (postgresql:// or postgres://) (url.c). */
int tally__store_is_pg_url(const char *url);
/* `url` with any password replaced by "***", into buf (always NUL-terminated) (url.c). */
void tally__store_scrub_url(char *buf, size_t cap, const char *url);

/* The metadata a selected set carries from the store: store.id, store.time (the key time),
 * store.recorded (when it was recorded). Keys of this prefix are never stored or hashed. */
#define TALLY__STORE_META_PREFIX "store."
/* The metadata keys the content hash leaves out (record.c), NULL-ended. */
extern const char *const tally__store_unkeyed[];

/* A metadata pair appended to a set's block as result_set.meta holds it (schema version 3):
 * the key, NUL, the value, NUL (record.c). */
void tally__store_meta_put(tally__buf *block, const char *key, const char *value);

/* The samples as stored: IEEE 754 binary64, little-endian, in run order (record.c). */
void tally__store_pack(unsigned char *out, const double *x, size_t n);
void tally__store_unpack(double *out, const unsigned char *in, size_t n);

#endif /* TALLY_STORE_INTERNAL_H */
