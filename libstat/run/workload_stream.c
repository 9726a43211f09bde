/* STREAM-like memory bandwidth (after McCalpin's STREAM, not the official benchmark): Copy c=a,
 * Scale b=s*c, Add c=a+b, Triad a=b+s*c over three arrays of doubles, `ntimes` iterations, the
 * first discarded, the best time per kernel turned into MB/s with 10^6 bytes and STREAM's byte
 * counts (2 arrays for Copy and Scale, 3 for Add and Triad). Threads split the arrays; each
 * kernel is timed between two barriers. The final arrays are checked against the values the
 * same sequence of kernels gives on scalars. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/runner_internal.h"

#define KERNELS 4
#define SCALAR 3.0

static const char *const kernel_names[KERNELS] = { "Copy", "Scale", "Add", "Triad" };
static const double kernel_arrays[KERNELS] = { 2, 2, 3, 3 };
static const char *const keys[] = { "array_size", "threads", "ntimes", NULL };

typedef struct stream_cfg {
    long array_size, threads, ntimes;
} stream_cfg;

/* STREAM's rule: each array at least 4 times the largest cache; 10 million elements when the
 * cache size cannot be read. */
static long default_array_size(void)
{
    size_t llc = tally__llc_bytes();
    long n = 10 * 1000 * 1000;
    if (llc > 0 && (long)(llc / sizeof(double) * 4) > n)
        n = (long)(llc / sizeof(double) * 4);
    return n;
}

static int configure(tally__wl *wl, const tally__params *p)
{
    stream_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    int rc = tally__param_long(&c->array_size, p, "array_size", default_array_size(), 1000,
                               1L << 34);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->threads, p, "threads", 1, 1, 1024);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->ntimes, p, "ntimes", 10, 2, 200); /* 15^ntimes stays finite */
    for (int k = 0; rc == TALLY_OK && k < KERNELS; k++)
        rc = tally__wl_add_metric(wl, "stream", kernel_names[k], "MB/s",
                                  TALLY_HIGHER_IS_BETTER, TALLY_STAT_HMEAN);
    return rc;
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

typedef struct stream_shared {
    const stream_cfg *cfg;
    double *a, *b, *c;
    double *times; /* ntimes x KERNELS */
    pthread_barrier_t barrier;
} stream_shared;

typedef struct stream_thread {
    stream_shared *sh;
    long id, lo, hi;
} stream_thread;

static void *stream_main(void *arg)
{
    stream_thread *t = arg;
    stream_shared *sh = t->sh;
    double *a = sh->a, *b = sh->b, *c = sh->c;
    for (long j = t->lo; j < t->hi; j++) { /* first touch by the thread that uses the pages */
        a[j] = 1.0;
        b[j] = 2.0;
        c[j] = 0.0;
    }
    for (long k = 0; k < sh->cfg->ntimes; k++) {
        for (int kernel = 0; kernel < KERNELS; kernel++) {
            pthread_barrier_wait(&sh->barrier);
            double t0 = t->id == 0 ? tally__now() : 0;
            switch (kernel) {
            case 0:
                for (long j = t->lo; j < t->hi; j++)
                    c[j] = a[j];
                break;
            case 1:
                for (long j = t->lo; j < t->hi; j++)
                    b[j] = SCALAR * c[j];
                break;
            case 2:
                for (long j = t->lo; j < t->hi; j++)
                    c[j] = a[j] + b[j];
                break;
            default:
                for (long j = t->lo; j < t->hi; j++)
                    a[j] = b[j] + SCALAR * c[j];
                break;
            }
            pthread_barrier_wait(&sh->barrier);
            if (t->id == 0)
                sh->times[k * KERNELS + kernel] = tally__now() - t0;
        }
    }
    return NULL;
}

/* Mean absolute error of an array against its expected value, relative to that value. */
static double rel_error(const double *x, long n, double expected)
{
    double sum = 0;
    for (long j = 0; j < n; j++)
        sum += fabs(x[j] - expected);
    return sum / (double)n / fabs(expected);
}

static int body(const tally__wl *wl, const char *sweep_value, double *values,
                tally__hdr_recorder *hists, char *why)
{
    (void)hists; /* no histogram metric */
    (void)sweep_value;
    const stream_cfg *cfg = wl->cfg;
    long n = cfg->array_size, nt = cfg->threads;
    stream_shared sh;
    memset(&sh, 0, sizeof(sh));
    sh.cfg = cfg;
    sh.a = malloc((size_t)n * sizeof(double));
    sh.b = malloc((size_t)n * sizeof(double));
    sh.c = malloc((size_t)n * sizeof(double));
    sh.times = calloc((size_t)cfg->ntimes * KERNELS, sizeof(double));
    stream_thread *th = calloc((size_t)nt, sizeof(*th));
    pthread_t *ids = calloc((size_t)nt, sizeof(*ids));
    if (!sh.a || !sh.b || !sh.c || !sh.times || !th || !ids) {
        snprintf(why, 256, "out of memory for 3 arrays of %ld doubles", n);
        return -1;
    }
    pthread_barrier_init(&sh.barrier, NULL, (unsigned)nt);
    for (long i = 0; i < nt; i++) {
        th[i] = (stream_thread){ &sh, i, n * i / nt, n * (i + 1) / nt };
        if (i > 0) {
            int err = pthread_create(&ids[i], NULL, stream_main, &th[i]);
            if (err != 0) {
                snprintf(why, 256, "pthread_create: %s", strerror(err));
                return -1;
            }
        }
    }
    stream_main(&th[0]);
    for (long i = 1; i < nt; i++)
        pthread_join(ids[i], NULL);

    /* Expected values: the same kernels applied to scalars. */
    double aj = 1.0, bj = 2.0, cj = 0.0;
    for (long k = 0; k < cfg->ntimes; k++) {
        cj = aj;
        bj = SCALAR * cj;
        cj = aj + bj;
        aj = bj + SCALAR * cj;
    }
    const double eps = 1e-13;
    if (rel_error(sh.a, n, aj) > eps || rel_error(sh.b, n, bj) > eps ||
        rel_error(sh.c, n, cj) > eps) {
        snprintf(why, 256, "validation failed: arrays differ from the expected values");
        return -1;
    }
    for (int kernel = 0; kernel < KERNELS; kernel++) {
        double best = INFINITY;
        for (long k = 1; k < cfg->ntimes; k++) /* iteration 0 is discarded, as STREAM does */
            if (sh.times[k * KERNELS + kernel] < best)
                best = sh.times[k * KERNELS + kernel];
        if (!(best > 0)) {
            snprintf(why, 256, "%s took no measurable time; use a larger array_size",
                     kernel_names[kernel]);
            return -1;
        }
        double bytes = kernel_arrays[kernel] * (double)sizeof(double) * (double)n;
        values[kernel] = 1e-6 * bytes / best;
    }
    return 0;
}

const tally__workload tally__workload_stream = {
    TALLY_WORKLOAD_STREAM, "stream", NULL, "1", NULL, keys,
    configure, release, body, NULL, NULL, NULL, NULL,
};
