/* The transaction loop every write goes through: begin, the body, commit, and retries with
 * a randomised back-off while other writers keep the store busy (store_internal.h). */
#include "store/store_internal.h"

#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "util/internal.h"

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
