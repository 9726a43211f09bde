/* Opening and closing a store and its options (store_internal.h); the transaction loop is in
 * transaction.c, the locations in url.c. */
#include "store/store_internal.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_store_options, TALLY_STORE_OPTIONS, sizeof(tally_store_options))

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
    if (tally__store_is_pg_url(url)) {
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

