/**
 * @file tally/store.h
 * @brief The results store: result sets kept in SQLite (a file) or PostgreSQL (a server),
 * keyed by commit, branch, machine and time, and selected back into a ::tally_results.
 *
 * Experimental API: declared only when ::TALLY_EXPERIMENTAL_API is defined before including
 * tally.h; it may change between minor releases. The schema is documented in docs/store.md.
 *
 * A ::tally_store is one connection. It is not thread-safe; independent stores may be used from
 * different threads and processes at once (writers wait for each other's transactions).
 */
#ifndef TALLY_STORE_H
#define TALLY_STORE_H

#include "common.h"
#include "resultset.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TALLY_EXPERIMENTAL_API

typedef struct tally_store tally_store; /**< One open store (a connection). */

/** Options of tally_store_open(). Initialise with ::TALLY_STORE_OPTIONS_INIT. */
typedef struct tally_store_options {
    unsigned int version;   /**< ::TALLY_STORE_OPTIONS_VERSION. */
    int busy_timeout_ms;    /**< SQLite: how long a writer waits for another's lock (default 60000). */
    int retries;            /**< Attempts of a transaction that another writer made fail (SQLite busy, PostgreSQL SQLSTATE 40001/40P01), default 50. */
    int create;             /**< Non-zero (default): create a missing SQLite file; 0: a missing file is ::TALLY_ENOTFOUND. */
} tally_store_options;

#define TALLY_STORE_OPTIONS_VERSION 1
#define TALLY_STORE_OPTIONS_INIT { TALLY_STORE_OPTIONS_VERSION, 60000, 50, 1 }

/**
 * Fill `opts` with the defaults of options version `version`.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_STORE_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_store_options_init(tally_store_options *opts, unsigned int version);

/**
 * Open (and create, or migrate to the current schema) a store.
 *
 * `url` is a PostgreSQL connection URI (`postgresql://` or `postgres://`; credentials come from
 * the URI, the environment such as PGPASSWORD and PGSERVICE, or ~/.pgpass, as libpq reads them)
 * or else the path of an SQLite file (`sqlite:` before the path is optional). A store written by
 * a newer tally (a higher schema version) is refused. Messages never show a password.
 *
 * @param out the new store; NULL on failure. Close with tally_store_close().
 * @param url where the store lives.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENOTFOUND, ::TALLY_EIO (cannot connect, a
 *   database error), ::TALLY_EFORMAT (a newer or foreign schema), ::TALLY_EBUSY, ::TALLY_ENOMEM.
 */
TALLY_API int tally_store_open(tally_store **out, const char *url, const tally_store_options *opts);

/** Close a store; NULL is accepted. */
TALLY_API void tally_store_close(tally_store *store);

/**
 * The schema version of an open store (the current one after tally_store_open() migrated it).
 * @param store an open store.
 * @return the version, or 0 for NULL.
 */
TALLY_API int tally_store_schema_version(const tally_store *store);

/** The schema version this library writes (and migrates older stores to). */
TALLY_API int tally_store_schema_current(void);

/**
 * Record every result set of `results` in one transaction: all of them or, on any failure, none.
 *
 * Each set is keyed by its metadata `commit`, `branch` and `machine` (else `host`), and by its
 * time: the first of the metadata `time`, `date` and `store.time` (a store's export) that is an
 * ISO 8601 UTC time (`2026-01-31T12:00:00Z`), else the time of recording. A set whose content
 * (label, metadata other than `source_file` and `store.*`, benchmarks, cases and samples in
 * order) is already stored is skipped: the SHA-256 of its native JSON is the key.
 *
 * @param added number of result sets newly stored (may be NULL).
 * @param store an open store.
 * @param results the sets to record; not changed.
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENODATA (a case without samples), ::TALLY_EIO,
 *   ::TALLY_EBUSY (other writers held the store through every retry), ::TALLY_ENOMEM.
 */
TALLY_API int tally_store_record(size_t *added, tally_store *store, const tally_results *results);

/** What tally_store_select() returns. Initialise with ::TALLY_STORE_QUERY_INIT. */
typedef struct tally_store_query {
    unsigned int version;  /**< ::TALLY_STORE_QUERY_VERSION. */
    const char *branch;    /**< Only sets of this branch; NULL: any. */
    const char *commit;    /**< Only sets of this commit (a prefix of at least 4 characters matches too); NULL: any. */
    const char *machine;   /**< Only sets of this machine; NULL: any. */
    const char *label;     /**< Only sets of this label; NULL: any. */
    const char *benchmark; /**< Only benchmarks matching this glob (fnmatch); NULL: all. */
    const char *case_name; /**< Only cases matching this glob; NULL: all. */
    const char *since;     /**< Only sets of this time or later (ISO 8601, compared as text); NULL: no bound. */
    const char *until;     /**< Only sets before this time; NULL: no bound. */
    long long id;          /**< Only the set of this store id; 0: any. */
    size_t limit;          /**< Only the `limit` newest matching sets; 0: all. `latest` is 1. */
} tally_store_query;

#define TALLY_STORE_QUERY_VERSION 1
#define TALLY_STORE_QUERY_INIT \
    { TALLY_STORE_QUERY_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0 }

/**
 * Fill `query` with the defaults (select everything) of version `version`.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `query` or an unknown version. Thread-safe.
 */
TALLY_API int tally_store_query_init(tally_store_query *query, unsigned int version);

/**
 * Append the selected result sets to `into`, oldest first (by time, then order of recording).
 *
 * Each set carries its stored metadata plus `store.id` (its id in the store), `store.time` (the
 * time it is keyed by) and `store.recorded` (when it was recorded). Metadata keys beginning
 * `store.` are never stored nor part of the content hash, so a selection recorded again is a
 * duplicate. Labels stay as recorded when they are unique within the
 * selection and `into`; otherwise a set is labelled `LABEL@COMMIT` (the first 12 characters of
 * its commit) or, without a commit or when that repeats too, `LABEL#ID`. A set left without
 * benchmarks by the benchmark or case globs is not returned.
 *
 * @param into destination list; unchanged on failure.
 * @param store an open store.
 * @param query the selection, or NULL for everything.
 * @return ::TALLY_OK (also when nothing matched: check the count), ::TALLY_EINVAL, ::TALLY_EIO,
 *   ::TALLY_EFORMAT (a stored value this library cannot read), ::TALLY_ENOMEM.
 */
TALLY_API int tally_store_select(tally_results *into, tally_store *store,
                                 const tally_store_query *query);

/**
 * The distinct names of the benchmarks that tally_store_select() would return for `query`
 * (with at least one case), sorted by byte value: a caller can split a large selection into
 * one selection per benchmark (tally.dask.read does).
 *
 * @param out the names, each ended by a NUL byte, one after the other; NULL when there is none.
 *   Free with tally_free().
 * @param len total bytes of `out` (every name and its NUL).
 * @param store an open store.
 * @param query the selection, or NULL for everything.
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_EIO, ::TALLY_ENOMEM.
 */
TALLY_API int tally_store_benchmark_names(char **out, size_t *len, tally_store *store,
                                          const tally_store_query *query);

#endif /* TALLY_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif

#endif /* TALLY_STORE_H */
