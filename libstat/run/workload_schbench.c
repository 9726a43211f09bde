/* schbench-style wakeup latency: each message thread owns `workers` worker threads. In rounds,
 * it stamps the time and posts every worker's semaphore; a worker measures the delay from the
 * stamp to the moment it runs (the wakeup latency), burns `cputime` usec of CPU (the request),
 * and reports back; the message thread waits for all of them, sleeps `sleeptime` usec and starts
 * the next round, until `runtime` seconds have passed. Metrics: latency percentiles over every
 * wakeup of the run and requests (completed wakeups) per second; with histogram=1 also every
 * wakeup's latency as the run's histogram (latency_hist.c). */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/runner_internal.h"

static const char *const keys[] = { "runtime", "message_threads", "cputime", "sleeptime",
                                     "histogram", NULL };
static const double pcts[] = { 50, 90, 99, 99.9 };
static const char *const pct_names[] = { "schbench-wakeup-p50", "schbench-wakeup-p90",
                                         "schbench-wakeup-p99", "schbench-wakeup-p99.9" };
#define NPCT 4
/* Latency samples kept per worker; later wakeups still count as requests. */
#define MAX_SAMPLES_PER_WORKER 200000

typedef struct sch_cfg {
    double runtime;
    long message_threads, cputime, sleeptime;
    int histogram; /* keep every wakeup's latency in the histogram metric, the last one */
} sch_cfg;

static int configure(tally__wl *wl, const tally__params *p)
{
    sch_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    int rc = tally__param_double(&c->runtime, p, "runtime", 5.0);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->message_threads, p, "message_threads", 1, 1, 256);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->cputime, p, "cputime", 100, 0, 10000000);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->sleeptime, p, "sleeptime", 1000, 0, 10000000);
    for (int i = 0; rc == TALLY_OK && i < NPCT; i++)
        rc = tally__wl_add_metric(wl, pct_names[i], NULL, "usec", TALLY_LOWER_IS_BETTER,
                                  TALLY_STAT_MEDIAN);
    if (rc == TALLY_OK)
        rc = tally__wl_add_metric(wl, "schbench-rps", NULL, "requests/s", TALLY_HIGHER_IS_BETTER,
                                  TALLY_STAT_AMEAN);
    if (rc == TALLY_OK)
        rc = tally__latency_hist_configure(&c->histogram, wl, p, "schbench-wakeup");
    return rc;
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

typedef struct sch_worker {
    sem_t wake;
    sem_t *done;
    volatile int *stop;
    double stamp; /* written by the message thread before the post */
    long cputime;
    double *lat;
    size_t nlat;
    tally__hdr_recorder *hist; /* this worker's, or NULL without histogram=1 */
    unsigned long requests;
    pthread_t id;
} sch_worker;

typedef struct sch_group {
    sch_worker *w;
    long n;
    sem_t done;
    const sch_cfg *cfg;
    double end;
    volatile int stop;
    pthread_t id;
} sch_group;

static void burn(long usec)
{
    double until = tally__now() + (double)usec * 1e-6;
    while (tally__now() < until)
        ;
}

static void *worker_main(void *arg)
{
    sch_worker *w = arg;
    for (;;) {
        while (sem_wait(&w->wake) != 0 && errno == EINTR)
            ;
        if (*w->stop)
            break;
        double lat = (tally__now() - w->stamp) * 1e6;
        if (w->nlat < MAX_SAMPLES_PER_WORKER)
            w->lat[w->nlat++] = lat;
        if (w->hist != NULL)
            tally__latency_record(w->hist, lat);
        burn(w->cputime);
        w->requests++;
        sem_post(w->done);
    }
    return NULL;
}

static void *message_main(void *arg)
{
    sch_group *g = arg;
    while (tally__now() < g->end) {
        for (long i = 0; i < g->n; i++) {
            g->w[i].stamp = tally__now();
            sem_post(&g->w[i].wake);
        }
        for (long i = 0; i < g->n; i++)
            while (sem_wait(&g->done) != 0 && errno == EINTR)
                ;
        if (g->cfg->sleeptime > 0) {
            struct timespec ts = { g->cfg->sleeptime / 1000000,
                                   (g->cfg->sleeptime % 1000000) * 1000 };
            nanosleep(&ts, NULL);
        }
    }
    g->stop = 1;
    for (long i = 0; i < g->n; i++)
        sem_post(&g->w[i].wake);
    return NULL;
}

static int body(const tally__wl *wl, const char *sweep_value, double *values,
                tally__hdr_recorder *hists, char *why)
{
    const sch_cfg *c = wl->cfg;
    long workers;
    if (tally__sweep_long(&workers, sweep_value, "workers", 100000) != TALLY_OK) {
        snprintf(why, 256, "%s", tally_error_last()->message);
        return -1;
    }
    long ng = c->message_threads;
    sch_group *groups = calloc((size_t)ng, sizeof(*groups));
    if (groups == NULL) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    /* One recorder per worker: each records its own wakeups, without locks. */
    tally__hdr_recorder *recs = NULL;
    if (c->histogram && ((recs = calloc((size_t)(ng * workers), sizeof(*recs))) == NULL ||
                         tally__latency_recorders_init(recs, (size_t)(ng * workers)) != TALLY_OK)) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    double start = tally__now();
    for (long g = 0; g < ng; g++) {
        sch_group *gr = &groups[g];
        gr->n = workers;
        gr->cfg = c;
        gr->end = start + c->runtime;
        gr->w = calloc((size_t)workers, sizeof(*gr->w));
        if (gr->w == NULL || sem_init(&gr->done, 0, 0) != 0) {
            snprintf(why, 256, "out of memory");
            return -1;
        }
        for (long i = 0; i < workers; i++) {
            sch_worker *w = &gr->w[i];
            w->done = &gr->done;
            w->stop = &gr->stop;
            w->cputime = c->cputime;
            w->hist = recs ? &recs[g * workers + i] : NULL;
            w->lat = malloc(MAX_SAMPLES_PER_WORKER * sizeof(double));
            if (w->lat == NULL || sem_init(&w->wake, 0, 0) != 0) {
                snprintf(why, 256, "out of memory");
                return -1;
            }
            int err = pthread_create(&w->id, NULL, worker_main, w);
            if (err != 0) {
                snprintf(why, 256, "pthread_create: %s", strerror(err));
                return -1;
            }
        }
    }
    for (long g = 0; g < ng; g++) {
        int err = pthread_create(&groups[g].id, NULL, message_main, &groups[g]);
        if (err != 0) {
            snprintf(why, 256, "pthread_create: %s", strerror(err));
            return -1;
        }
    }
    size_t total = 0;
    unsigned long requests = 0;
    for (long g = 0; g < ng; g++) {
        pthread_join(groups[g].id, NULL);
        for (long i = 0; i < workers; i++) {
            pthread_join(groups[g].w[i].id, NULL);
            total += groups[g].w[i].nlat;
            requests += groups[g].w[i].requests;
        }
    }
    double elapsed = tally__now() - start;
    double *all = malloc((total ? total : 1) * sizeof(double));
    if (all == NULL) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    size_t k = 0;
    for (long g = 0; g < ng; g++)
        for (long i = 0; i < workers; i++) {
            memcpy(all + k, groups[g].w[i].lat, groups[g].w[i].nlat * sizeof(double));
            k += groups[g].w[i].nlat;
        }
    if (total == 0 || tally_percentiles(values, all, total, pcts, NPCT,
                                        TALLY_PERCENTILE_LINEAR) != TALLY_OK) {
        snprintf(why, 256, "no wakeups measured; use a longer runtime");
        return -1;
    }
    values[NPCT] = (double)requests / elapsed;
    if (recs != NULL) {
        size_t m = wl->metric_count - 1;
        int rc = tally__latency_recorders_init(&hists[m], 1) == TALLY_OK
                     ? tally__latency_merge(&hists[m], recs, (size_t)(ng * workers), requests, why)
                     : (snprintf(why, 256, "out of memory"), -1);
        free(recs);
        return rc;
    }
    return 0;
}

const tally__workload tally__workload_schbench = {
    TALLY_WORKLOAD_SCHBENCH, "schbench", "workers", "1,2,4,8,16", NULL, keys,
    configure, release, body, NULL, NULL, NULL, NULL,
};
