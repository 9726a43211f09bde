/* Opening and closing a store, its options, and the transaction loop that every write goes
 * through (store_internal.h). */
#include "store/store_internal.h"

#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/internal.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_store_options, TALLY_STORE_OPTIONS, sizeof(tally_store_options))

tally__db_value tally__db_int(long long i)
{
    tally__db_value v = {TALLY__DB_INT, i, NULL, 0};
    return v;
}

tally__db_value tally__db_text(const char *s)
{
    tally__db_value v = {s ? TALLY__DB_TEXT : TALLY__DB_NULL, 0, s, s ? strlen(s) : 0};
    return v;
}

tally__db_value tally__db_blob(const void *p, size_t len)
{
    tally__db_value v = {TALLY__DB_BLOB, 0, p, len};
    return v;
}

static int is_pg_url(const char *url)
{
    return strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0;
}

void tally__store_scrub_url(char *buf, size_t cap, const char *url)
{
    if (cap == 0)
        return;
    buf[0] = '\0';
    if (url == NULL)
        return;
    size_t out = 0;
    const char *p = url;
    /* userinfo = user[:password]@ right after "scheme://", before the first '/', '?' or '#'. */
    const char *auth = is_pg_url(url) ? strstr(url, "://") + 3 : NULL;
    const char *at = NULL, *colon = NULL;
    if (auth) {
        size_t span = strcspn(auth, "/?#");
        for (const char *q = auth; q < auth + span; q++)
            if (*q == '@')
                at = q;
        if (at)
            colon = memchr(auth, ':', (size_t)(at - auth));
    }
    while (*p && out + 1 < cap) {
        if (colon && p == colon + 1) {
            const char *mask = "***";
            for (; *mask && out + 1 < cap; mask++)
                buf[out++] = *mask;
            p = at;
            continue;
        }
        /* A password given as a query parameter: password=...(&|end). */
        if (auth && p > url && (p[-1] == '?' || p[-1] == '&') && strncmp(p, "password=", 9) == 0) {
            const char *mask = "password=***";
            for (; *mask && out + 1 < cap; mask++)
                buf[out++] = *mask;
            p += strcspn(p, "&#");
            continue;
        }
        buf[out++] = *p++;
    }
    buf[out] = '\0';
}

int tally__store_open_at(tally_store **out, const char *url, const tally_store_options *opts,
                         int version)
{
    if (out)
        *out = NULL;
    if (out == NULL || url == NULL)
        return tally__error(TALLY_EINVAL, "tally_store_open: NULL argument");
    if (url[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_store_open: empty store location");
    tally_store_options o;
    int rc = tally__options_read(&o, opts, &tally_store_options_kind);
    if (rc != TALLY_OK)
        return rc;
    if (o.busy_timeout_ms < 0 || o.retries < 1)
        return tally__error(TALLY_EINVAL,
                            "tally_store_options: busy_timeout_ms %d and retries %d (need >= 0 "
                            "and >= 1)", o.busy_timeout_ms, o.retries);
    tally_store *s = tally__calloc(1, sizeof *s);
    if (s == NULL)
        return tally__oom();
    s->opts = o;
    tally__store_scrub_url(s->where, sizeof s->where, url);
    const char *target = url;
    if (is_pg_url(url)) {
        s->ops = &tally__db_pg;
    } else {
        s->ops = &tally__db_sqlite;
        if (strncmp(url, "sqlite:", 7) == 0)
            target = url + 7;
    }
    rc = s->ops->open(&s->db, target, &s->opts);
    if (rc == TALLY_OK)
        rc = tally__store_migrate(s, version);
    if (rc != TALLY_OK) {
        tally_store_close(s);
        return rc;
    }
    *out = s;
    return TALLY_OK;
}

int tally_store_open(tally_store **out, const char *url, const tally_store_options *opts)
{
    return tally__store_open_at(out, url, opts, tally__store_schema_current());
}

void tally_store_close(tally_store *store)
{
    if (store == NULL)
        return;
    if (store->db)
        store->ops->close(store->db);
    tally__free_mem(store);
}

int tally_store_schema_version(const tally_store *store)
{
    return store ? store->schema_version : 0;
}

int tally_store_schema_current(void)
{
    return tally__store_schema_current();
}

/* A pause before attempt `attempt` (1-based): 2^attempt ms capped at 200 ms, scaled by a
 * factor in [0.5, 1.5) drawn from the clock and the process id, so that writers who failed
 * together do not retry together. */
static void backoff(int attempt)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t x = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15u ^ (uint64_t)getpid() << 17;
    x ^= x >> 29;
    double scale = 0.5 + (double)(x % 1000) / 1000.0;
    long ms = attempt < 8 ? 1L << attempt : 200;
    if (ms > 200)
        ms = 200;
    long ns = (long)(ms * 1e6 * scale);
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&ts, NULL);
}

int tally__store_transaction(tally_store *store, int exclusive,
                             int (*body)(tally_store *store, void *ctx), void *ctx)
{
    int rc = TALLY_EBUSY;
    for (int attempt = 1; attempt <= store->opts.retries; attempt++) {
        if (attempt > 1)
            backoff(attempt);
        rc = store->ops->begin(store->db, exclusive);
        if (rc == TALLY_OK) {
            rc = body(store, ctx);
            if (rc == TALLY_OK)
                rc = store->ops->commit(store->db);
            if (rc != TALLY_OK)
                store->ops->rollback(store->db);
        }
        if (rc != TALLY_EBUSY)
            return rc;
    }
    return tally__error(TALLY_EBUSY, "%s store: other writers kept it busy through %d attempts",
                        store->ops->name, store->opts.retries);
}
