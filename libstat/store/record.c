/* tally_store_record: each result set of a list, keyed by the SHA-256 of its native JSON, in
 * one transaction (docs/store.md). */
#include "store/store_internal.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "formats/native_json.h"
#include "util/internal.h"
#include "util/sha256.h"

void tally__store_pack(unsigned char *out, const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &x[i], sizeof u);
        for (int b = 0; b < 8; b++)
            out[8 * i + (size_t)b] = (unsigned char)(u >> (8 * b));
    }
}

void tally__store_unpack(double *out, const unsigned char *in, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* The stored order is the host's: a series of thousands of cases is one copy each. */
    memcpy(out, in, n * sizeof *out);
#else
    for (size_t i = 0; i < n; i++) {
        uint64_t u = 0;
        for (int b = 0; b < 8; b++)
            u |= (uint64_t)in[8 * i + (size_t)b] << (8 * b);
        memcpy(&out[i], &u, sizeof u);
    }
#endif
}

/* Whether `s` is an ISO 8601 UTC time as tally writes it: YYYY-MM-DDTHH:MM:SS, optional
 * fraction, Z. Such texts sort as the times they name, which the time filters rely on. */
static int is_utc_time(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    if (s == NULL)
        return 0;
    for (size_t i = 0; i < sizeof shape - 1; i++)
        if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
            return 0;
    const char *p = s + sizeof shape - 1;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return p[0] == 'Z' && p[1] == '\0';
}

/* source_file says where a copy came from and store.* where a selection found it, not what
 * a set holds: the same set recorded from two paths, or exported and recorded again, is one. */
const char *const tally__store_unkeyed[] = {"source_file", TALLY__STORE_META_PREFIX, NULL};

typedef struct record_ctx {
    const tally_results *results;
    char (*hashes)[65];
    const char *now;
    size_t added;
} record_ctx;

static int id_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    if (ncols >= 1 && cols[0].type == TALLY__DB_INT)
        *(long long *)ctx = cols[0].i;
    return 0;
}

/* One metadata row: its owner's id, its position, the pair (case_meta, set_meta). */
static int insert_pair(tally_store *s, const char *sql, long long owner, size_t position,
                       const char *key, const char *value)
{
    tally__db_value m[] = {tally__db_int(owner), tally__db_int((long long)position),
                           tally__db_text(key), tally__db_text(value)};
    return s->ops->exec(s->db, sql, m, 4);
}

static int insert_id(long long *id, tally_store *s, const char *sql, const tally__db_value *p,
                     size_t n)
{
    *id = 0;
    return s->ops->query(s->db, sql, p, n, id_row, id);
}

static int record_case(tally_store *s, long long bench_id, size_t pos, const tally_case *c)
{
    size_t n = tally_case_sample_count(c);
    unsigned char *blob = tally__malloc(n * 8 + 1);
    if (blob == NULL)
        return tally__oom();
    tally__store_pack(blob, tally_case_samples(c), n);
    tally__db_value p[] = {tally__db_int(bench_id), tally__db_int((long long)pos),
                           tally__db_text(tally_case_name(c)), tally__db_int((long long)n),
                           tally__db_blob(blob, n * 8)};
    long long id;
    int rc = insert_id(&id, s,
                       "INSERT INTO case_result (benchmark_id, position, name, n, samples) "
                       "VALUES (?, ?, ?, ?, ?) RETURNING id",
                       p, 5);
    tally__free_mem(blob);
    for (size_t i = 0; rc == TALLY_OK && i < tally_case_meta_count(c); i++) {
        const char *key, *value;
        tally_case_meta_at(&key, &value, c, i);
        rc = insert_pair(s, "INSERT INTO case_meta (case_id, position, key, value) "
                            "VALUES (?, ?, ?, ?)",
                         id, i, key, value);
    }
    return rc;
}

static int record_benchmark(tally_store *s, long long set_id, size_t pos,
                            const tally_benchmark *b)
{
    tally_statistic stat = tally_benchmark_statistic(b);
    tally__db_value p[] = {
        tally__db_int(set_id), tally__db_int((long long)pos), tally__db_text(tally_benchmark_name(b)),
        tally__db_text(tally_benchmark_unit(b)),
        tally__db_text(tally_direction_name(tally_benchmark_direction(b))),
        tally__db_text(stat == TALLY_STAT_DEFAULT ? NULL : tally_statistic_name(stat))};
    long long id;
    int rc = insert_id(&id, s,
                       "INSERT INTO benchmark (set_id, position, name, unit, direction, "
                       "statistic) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                       p, 6);
    for (size_t i = 0; rc == TALLY_OK && i < tally_benchmark_case_count(b); i++)
        rc = record_case(s, id, i, tally_benchmark_case_at(b, i));
    return rc;
}

void tally__store_meta_put(tally__buf *block, const char *key, const char *value)
{
    tally__buf_append(block, key, strlen(key) + 1);
    tally__buf_append(block, value, strlen(value) + 1);
}

static int is_store_key(const char *key)
{
    return strncmp(key, TALLY__STORE_META_PREFIX, strlen(TALLY__STORE_META_PREFIX)) == 0;
}

/* The set's metadata but the store's own keys, as rows of set_meta. */
static int record_meta_rows(tally_store *s, long long id, const tally_resultset *rs)
{
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < tally_resultset_meta_count(rs); i++) {
        const char *key, *value;
        tally_resultset_meta_at(&key, &value, rs, i);
        if (!is_store_key(key))
            rc = insert_pair(s, "INSERT INTO set_meta (set_id, position, key, value) "
                                "VALUES (?, ?, ?, ?)",
                             id, i, key, value);
    }
    return rc;
}

/* The same pairs as the block of result_set.meta (schema version 3); NULL when none. */
static int meta_block(tally__buf *block, tally__db_value *out, const tally_resultset *rs)
{
    for (size_t i = 0; i < tally_resultset_meta_count(rs); i++) {
        const char *key, *value;
        tally_resultset_meta_at(&key, &value, rs, i);
        if (!is_store_key(key))
            tally__store_meta_put(block, key, value);
    }
    if (block->failed)
        return tally__oom();
    *out = block->len ? tally__db_blob(block->data, block->len) : tally__db_text(NULL);
    return TALLY_OK;
}

static int record_set(size_t *added, tally_store *s, const tally_resultset *rs, const char *hash,
                      const char *now)
{
    const char *machine = tally_resultset_meta_get(rs, "machine");
    if (machine == NULL)
        machine = tally_resultset_meta_get(rs, "host");
    const char *when = tally_resultset_meta_get(rs, "time");
    if (!is_utc_time(when))
        when = tally_resultset_meta_get(rs, "date");
    if (!is_utc_time(when)) /* an export of a store: the time it was keyed by there */
        when = tally_resultset_meta_get(rs, TALLY__STORE_META_PREFIX "time");
    if (!is_utc_time(when))
        when = now;
    tally__buf block = TALLY__BUF_INIT;
    tally__db_value p[] = {tally__db_text(hash),
                           tally__db_text(tally_resultset_label(rs)),
                           tally__db_text(tally_resultset_meta_get(rs, "commit")),
                           tally__db_text(tally_resultset_meta_get(rs, "branch")),
                           tally__db_text(machine),
                           tally__db_text(when),
                           tally__db_text(now),
                           tally__db_text(NULL)};
    int rc = meta_block(&block, &p[7], rs);
    long long id = 0;
    /* A set already stored (by this or a concurrent writer) returns no row: nothing to do.
     * A store opened at an older version (tests of the migrations) has no meta column. */
    if (rc == TALLY_OK)
        rc = insert_id(&id, s,
                       s->schema_version >= 3
                           ? "INSERT INTO result_set (content_hash, label, commit_id, branch, "
                             "machine, time, recorded, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                             "ON CONFLICT (content_hash) DO NOTHING RETURNING id"
                           : "INSERT INTO result_set (content_hash, label, commit_id, branch, "
                             "machine, time, recorded) VALUES (?, ?, ?, ?, ?, ?, ?) "
                             "ON CONFLICT (content_hash) DO NOTHING RETURNING id",
                       p, s->schema_version >= 3 ? 8 : 7);
    tally__buf_dispose(&block);
    if (rc != TALLY_OK || id == 0)
        return rc;
    rc = record_meta_rows(s, id, rs);
    for (size_t i = 0; rc == TALLY_OK && i < tally_resultset_benchmark_count(rs); i++)
        rc = record_benchmark(s, id, i, tally_resultset_benchmark_at(rs, i));
    if (rc == TALLY_OK)
        (*added)++;
    return rc;
}

static int record_body(tally_store *s, void *ctx)
{
    record_ctx *c = ctx;
    c->added = 0; /* a retried transaction starts over */
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < tally_results_count(c->results); i++)
        rc = record_set(&c->added, s, tally_results_at(c->results, i), c->hashes[i], c->now);
    return rc;
}

/* Every case has samples (the native format cannot hold one without); the content keys. */
static int prepare(char (*hashes)[65], const tally_results *r)
{
    for (size_t i = 0; i < tally_results_count(r); i++) {
        const tally_resultset *rs = tally_results_at(r, i);
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            const tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            for (size_t k = 0; k < tally_benchmark_case_count(b); k++) {
                /* The store's schema holds single values per case; a histogram run would be
                 * dropped, so it is refused whole instead. */
                if (tally_case_histogram_count(tally_benchmark_case_at(b, k)) > 0)
                    return tally__error(TALLY_EMISMATCH,
                                        "result set '%s', benchmark '%s', case '%s' holds "
                                        "histogram runs, which the store does not hold: "
                                        "nothing recorded",
                                        tally_resultset_label(rs), tally_benchmark_name(b),
                                        tally_case_name(tally_benchmark_case_at(b, k)));
                if (tally_case_is_summary_only(tally_benchmark_case_at(b, k)))
                    return tally__error(TALLY_EINVAL,
                                        "result set '%s', benchmark '%s', case '%s' is known by "
                                        "a summary only (n, mean, SD): the store keeps runs, "
                                        "nothing recorded",
                                        tally_resultset_label(rs), tally_benchmark_name(b),
                                        tally_case_name(tally_benchmark_case_at(b, k)));
                if (tally_case_sample_count(tally_benchmark_case_at(b, k)) == 0)
                    return tally__error(TALLY_ENODATA,
                                        "result set '%s', benchmark '%s', case '%s' has no "
                                        "samples: nothing recorded",
                                        tally_resultset_label(rs), tally_benchmark_name(b),
                                        tally_case_name(tally_benchmark_case_at(b, k)));
            }
        }
        char *json;
        size_t len;
        int rc = tally__resultset_json(&json, &len, rs, tally__store_unkeyed);
        if (rc != TALLY_OK)
            return rc;
        tally__sha256_hex(hashes[i], json, len);
        tally_free(json);
    }
    return TALLY_OK;
}

int tally_store_record(size_t *added, tally_store *store, const tally_results *results)
{
    if (added)
        *added = 0;
    if (store == NULL || results == NULL)
        return tally__error(TALLY_EINVAL, "tally_store_record: NULL argument");
    size_t n = tally_results_count(results);
    char (*hashes)[65] = tally__calloc(n ? n : 1, sizeof *hashes);
    if (hashes == NULL)
        return tally__oom();
    int rc = prepare(hashes, results);
    char now[32] = "";
    time_t t = time(NULL);
    struct tm tm;
    if (rc == TALLY_OK &&
        (gmtime_r(&t, &tm) == NULL || strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0))
        rc = tally__error(TALLY_ERROR, "tally_store_record: cannot read the clock");
    record_ctx ctx = {results, hashes, now, 0};
    if (rc == TALLY_OK)
        rc = tally__store_transaction(store, 0, record_body, &ctx);
    tally__free_mem(hashes);
    if (rc == TALLY_OK && added)
        *added = ctx.added;
    return rc;
}
