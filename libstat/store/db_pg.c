/* The PostgreSQL back end (libpq): a connection URI; the password comes from the URI, the
 * environment (PGPASSWORD, PGSERVICE) or ~/.pgpass as libpq reads them, and is blanked out of
 * every message. Values are sent as parameters of PQexecParams (text, bytea in binary); rows
 * come back as text. Transactions run at READ COMMITTED; a serialization failure or a deadlock
 * (SQLSTATE 40001, 40P01) is TALLY_EBUSY, which the store retries. A schema change takes a
 * transaction-scoped advisory lock so that concurrent first opens create the tables once. */
#include "store/store_internal.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/count.h"
#include "util/internal.h"

/* pg_type OIDs (catalog/pg_type.h, stable since PostgreSQL 7). */
enum { OID_BYTEA = 17, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23 };

/* The key of the advisory lock of schema changes: "tally" in ASCII. */
#define SCHEMA_LOCK "SELECT pg_advisory_xact_lock(499714321273)"

struct tally__db {
    PGconn *conn;
    char where[512];
};

static void quiet(void *arg, const char *message)
{
    /* libpq prints notices and warnings on stderr by default; the library never prints. */
    (void)arg;
    (void)message;
}

/* The server's or libpq's message, one line, without the password in use. */
static void message_of(char *buf, size_t cap, tally__db *d, const PGresult *res)
{
    const char *m = res ? PQresultErrorMessage(res) : "";
    if (m == NULL || m[0] == '\0')
        m = PQerrorMessage(d->conn);
    snprintf(buf, cap, "%s", m ? m : "");
    size_t len = strlen(buf);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        buf[--len] = '\0';
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = ' ';
    const char *pass = PQpass(d->conn);
    size_t plen = pass ? strlen(pass) : 0;
    for (char *p; plen > 0 && (p = strstr(buf, pass)) != NULL;) {
        memmove(p + 3, p + plen, strlen(p + plen) + 1);
        memcpy(p, "***", 3);
        if (plen < 3)
            break; /* "***" would contain a short password again */
    }
}

static int fail(tally__db *d, const PGresult *res, const char *what)
{
    char msg[1024];
    message_of(msg, sizeof msg, d, res);
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (state && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0))
        return tally__error(TALLY_EBUSY, "%s: %s: %s", d->where, what, msg);
    return tally__error(TALLY_EIO, "%s: %s: %s", d->where, what, msg);
}

/* `?` placeholders numbered $1, $2, ... (the SQL of this module has no `?` elsewhere). */
static char *numbered(const char *sql)
{
    tally__buf b = TALLY__BUF_INIT;
    int n = 0;
    for (const char *p = sql; *p; p++) {
        if (*p == '?')
            tally__buf_printf(&b, "$%d", ++n);
        else
            tally__buf_append(&b, p, 1);
    }
    char *out = NULL;
    size_t len;
    if (tally__buf_detach(&out, &len, &b) != TALLY_OK)
        return NULL;
    return out;
}

static int pg_query(tally__db *d, const char *sql, const tally__db_value *params, size_t nparams,
                    tally__db_row_fn row, void *ctx)
{
    if (nparams > 32)
        return tally__error(TALLY_ELIMIT, "store: %zu parameters in one statement", nparams);
    char *text = numbered(sql);
    if (text == NULL)
        return tally__oom();
    Oid types[32];
    const char *values[32];
    int lengths[32], formats[32];
    char ints[32][24];
    for (size_t i = 0; i < nparams; i++) {
        types[i] = 0; /* the server infers the type from the statement */
        lengths[i] = 0;
        formats[i] = 0;
        switch (params[i].type) {
        case TALLY__DB_INT:
            snprintf(ints[i], sizeof ints[i], "%lld", params[i].i);
            values[i] = ints[i];
            break;
        case TALLY__DB_TEXT:
            values[i] = params[i].s;
            break;
        case TALLY__DB_BLOB:
            types[i] = OID_BYTEA;
            values[i] = params[i].len ? params[i].s : "";
            lengths[i] = (int)params[i].len;
            formats[i] = 1;
            break;
        default:
            values[i] = NULL;
            break;
        }
    }
    PGresult *res = PQexecParams(d->conn, text, (int)nparams, types, values, lengths, formats, 0);
    tally__free_mem(text);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    int rc = TALLY_OK;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        rc = fail(d, res, "query");
        PQclear(res);
        return rc;
    }
    int ncols = PQnfields(res);
    if (ncols > 12)
        ncols = 12;
    for (int r = 0; row && rc == TALLY_OK && r < PQntuples(res); r++) {
        tally__db_value cols[12];
        unsigned char *blobs[12] = {NULL};
        for (int c = 0; c < ncols; c++) {
            tally__db_value v = {TALLY__DB_NULL, 0, NULL, 0};
            if (!PQgetisnull(res, r, c)) {
                const char *s = PQgetvalue(res, r, c);
                Oid t = PQftype(res, c);
                if (t == OID_INT8 || t == OID_INT4 || t == OID_INT2) {
                    v.type = TALLY__DB_INT;
                    v.i = strtoll(s, NULL, 10);
                } else if (t == OID_BYTEA) {
                    size_t len = 0;
                    blobs[c] = PQunescapeBytea((const unsigned char *)s, &len);
                    if (blobs[c] == NULL) {
                        rc = tally__oom();
                        break;
                    }
                    v.type = TALLY__DB_BLOB;
                    v.s = (const char *)blobs[c];
                    v.len = len;
                } else {
                    v.type = TALLY__DB_TEXT;
                    v.s = s;
                    v.len = (size_t)PQgetlength(res, r, c);
                }
            }
            cols[c] = v;
        }
        if (rc == TALLY_OK)
            rc = row(ctx, cols, (size_t)ncols);
        for (int c = 0; c < ncols; c++)
            PQfreemem(blobs[c]);
    }
    PQclear(res);
    return rc;
}

static int pg_exec(tally__db *d, const char *sql, const tally__db_value *params, size_t nparams)
{
    return pg_query(d, sql, params, nparams, NULL, NULL);
}

static int pg_begin(tally__db *d, int exclusive)
{
    int rc = pg_exec(d, "BEGIN", NULL, 0);
    if (rc == TALLY_OK && exclusive)
        rc = pg_exec(d, SCHEMA_LOCK, NULL, 0);
    return rc;
}

static int pg_commit(tally__db *d)
{
    return pg_exec(d, "COMMIT", NULL, 0);
}

static void pg_rollback(tally__db *d)
{
    PQclear(PQexec(d->conn, "ROLLBACK"));
}

static int one_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    (void)cols;
    (void)ncols;
    *(int *)ctx = 1;
    return 0;
}

static int pg_has_table(int *out, tally__db *d, const char *table)
{
    *out = 0;
    tally__db_value p = tally__db_text(table);
    return pg_query(d, "SELECT 1 WHERE to_regclass(?) IS NOT NULL", &p, 1, one_row, out);
}

static void pg_close(tally__db *d)
{
    PQfinish(d->conn);
    tally__free_mem(d);
}

static int pg_open(tally__db **out, const char *url, const tally_store_options *opts)
{
    (void)opts;
    *out = NULL;
    tally__db *d = tally__calloc(1, sizeof *d);
    if (d == NULL)
        return tally__oom();
    tally__store_scrub_url(d->where, sizeof d->where, url);
    d->conn = PQconnectdb(url);
    if (d->conn == NULL) {
        tally__free_mem(d);
        return tally__oom();
    }
    if (PQstatus(d->conn) != CONNECTION_OK) {
        char msg[1024];
        message_of(msg, sizeof msg, d, NULL);
        int rc = tally__error(TALLY_EIO, "%s: cannot connect: %s", d->where, msg);
        pg_close(d);
        return rc;
    }
    PQsetNoticeProcessor(d->conn, quiet, NULL);
    *out = d;
    return TALLY_OK;
}

const tally__db_ops tally__db_pg = {
    "postgresql",
    "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    "BYTEA",
    pg_open,
    pg_begin,
    pg_exec,
    pg_query,
    pg_commit,
    pg_rollback,
    pg_has_table,
    pg_close,
};
