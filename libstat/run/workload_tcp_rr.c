/* netperf TCP_RR-style request/response over loopback: `clients` client threads, each connected
 * to its own server thread over TCP on 127.0.0.1 (an ephemeral port, never another address),
 * exchange a 1-byte request and a 1-byte response (TCP_NODELAY) back to back for `runtime`
 * seconds. The server end is the accepted connection whose peer is the client's own address and
 * port; a connection from any other process that reaches the port first is closed. Metrics: transactions per second over all pairs, and transaction latency
 * percentiles; with histogram=1 also every transaction's latency as the run's histogram
 * (latency_hist.c). */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "run/runner_internal.h"

static const char *const keys[] = { "runtime", "histogram", NULL };
static const double pcts[] = { 50, 90, 99 };
static const char *const pct_names[] = { "tcp_rr-latency-p50", "tcp_rr-latency-p90",
                                         "tcp_rr-latency-p99" };
#define NPCT 3
#define MAX_SAMPLES_PER_CLIENT 500000

typedef struct rr_cfg {
    double runtime;
    int histogram; /* keep every transaction's latency in the histogram metric, the last one */
} rr_cfg;

static int configure(tally__wl *wl, const tally__params *p)
{
    rr_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    int rc = tally__param_double(&c->runtime, p, "runtime", 5.0);
    if (rc == TALLY_OK)
        rc = tally__wl_add_metric(wl, "tcp_rr", NULL, "trans/s", TALLY_HIGHER_IS_BETTER,
                                  TALLY_STAT_AMEAN);
    for (int i = 0; rc == TALLY_OK && i < NPCT; i++)
        rc = tally__wl_add_metric(wl, pct_names[i], NULL, "usec", TALLY_LOWER_IS_BETTER,
                                  TALLY_STAT_AMEAN);
    if (rc == TALLY_OK)
        rc = tally__latency_hist_configure(&c->histogram, wl, p, "tcp_rr-latency");
    return rc;
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

typedef struct rr_pair {
    int client_fd, server_fd;
    double runtime; /* seconds, counted by each client from the start barrier */
    pthread_barrier_t *start;
    double *lat;
    size_t nlat;
    tally__hdr_recorder *hist; /* this client's, or NULL without histogram=1 */
    unsigned long transactions;
    int failed;
    pthread_t client, server;
} rr_pair;

static int xfer(int fd, char *byte, int send_it)
{
    for (;;) {
        ssize_t n = send_it ? write(fd, byte, 1) : read(fd, byte, 1);
        if (n == 1)
            return 0;
        if (n < 0 && errno == EINTR)
            continue;
        return -1;
    }
}

static void *server_main(void *arg)
{
    rr_pair *p = arg;
    char byte;
    while (xfer(p->server_fd, &byte, 0) == 0)
        if (xfer(p->server_fd, &byte, 1) != 0)
            break;
    return NULL;
}

static void *client_main(void *arg)
{
    rr_pair *p = arg;
    char byte = 'x';
    pthread_barrier_wait(p->start);
    /* The window opens when this client starts, not when the threads were made: on a loaded
     * machine a thread may start late, and a window already closed would measure nothing.
     * At least one transaction, however late. */
    double end = tally__now() + p->runtime;
    for (int first = 1;; first = 0) {
        double t0 = tally__now();
        if (!first && t0 >= end)
            break;
        if (xfer(p->client_fd, &byte, 1) != 0 || xfer(p->client_fd, &byte, 0) != 0) {
            p->failed = 1;
            break;
        }
        double lat = (tally__now() - t0) * 1e6;
        if (p->nlat < MAX_SAMPLES_PER_CLIENT)
            p->lat[p->nlat++] = lat;
        if (p->hist != NULL)
            tally__latency_record(p->hist, lat);
        p->transactions++;
    }
    shutdown(p->client_fd, SHUT_WR); /* the server sees end of file and exits */
    return NULL;
}

/* The same TCP endpoint (address and port), IPv4. */
static int same_endpoint(const struct sockaddr_in *a, const struct sockaddr_in *b)
{
    return a->sin_family == b->sin_family && a->sin_port == b->sin_port &&
           a->sin_addr.s_addr == b->sin_addr.s_addr;
}

int tally__accept_own(int lfd, int client_fd, unsigned *strangers)
{
    struct sockaddr_in mine;
    socklen_t len = sizeof(mine);
    if (getsockname(client_fd, (struct sockaddr *)&mine, &len) != 0)
        return -1;
    for (unsigned tries = 0; tries <= TALLY__ACCEPT_STRANGERS_MAX; tries++) {
        struct sockaddr_in peer;
        socklen_t plen = sizeof(peer);
        int fd = accept(lfd, (struct sockaddr *)&peer, &plen);
        if (fd < 0 && errno == EINTR)
            continue;
        if (fd < 0)
            return -1;
        if (plen == sizeof(peer) && same_endpoint(&peer, &mine))
            return fd;
        close(fd); /* another process connected to our port: not a client of this run */
        (*strangers)++;
    }
    errno = ECONNREFUSED;
    return -1;
}

static int fail(char *why, const char *what)
{
    snprintf(why, 256, "%s: %s", what, strerror(errno));
    return -1;
}

static int body(const tally__wl *wl, const char *sweep_value, double *values,
                tally__hdr_recorder *hists, char *why)
{
    const rr_cfg *c = wl->cfg;
    long clients;
    if (tally__sweep_long(&clients, sweep_value, "clients", 10000) != TALLY_OK) {
        snprintf(why, 256, "%s", tally_error_last()->message);
        return -1;
    }
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    if (lfd < 0)
        return fail(why, "socket");
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t alen = sizeof(addr);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
        listen(lfd, (int)(clients < 128 ? 128 : clients)) != 0 ||
        getsockname(lfd, (struct sockaddr *)&addr, &alen) != 0)
        return fail(why, "listening on 127.0.0.1");
    rr_pair *pairs = calloc((size_t)clients, sizeof(*pairs));
    pthread_barrier_t start;
    if (pairs == NULL) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    /* One recorder per client: each records its own transactions, without locks. */
    tally__hdr_recorder *recs = NULL;
    if (c->histogram && ((recs = calloc((size_t)clients, sizeof(*recs))) == NULL ||
                         tally__latency_recorders_init(recs, (size_t)clients) != TALLY_OK)) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    pthread_barrier_init(&start, NULL, (unsigned)clients + 1);
    int one = 1;
    unsigned strangers = 0;
    for (long i = 0; i < clients; i++) {
        rr_pair *p = &pairs[i];
        p->start = &start;
        p->hist = recs ? &recs[i] : NULL;
        p->lat = malloc(MAX_SAMPLES_PER_CLIENT * sizeof(double));
        if (p->lat == NULL) {
            snprintf(why, 256, "out of memory");
            return -1;
        }
        p->client_fd = socket(AF_INET, SOCK_STREAM, 0);
        if (p->client_fd < 0 ||
            connect(p->client_fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
            return fail(why, "connect to 127.0.0.1");
        /* The server end is the connection whose peer is this client: anything else that
         * reached the port first (another program) is closed, not measured. */
        p->server_fd = tally__accept_own(lfd, p->client_fd, &strangers);
        if (p->server_fd < 0 && errno == ECONNREFUSED) {
            snprintf(why, 256, "more than %d connections from other processes reached the run's "
                     "port on 127.0.0.1 before its own client; find what connects to local "
                     "ports (ss -tn) and stop it", TALLY__ACCEPT_STRANGERS_MAX);
            return -1;
        }
        if (p->server_fd < 0)
            return fail(why, "accept");
        setsockopt(p->client_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        setsockopt(p->server_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        if (pthread_create(&p->server, NULL, server_main, p) != 0 ||
            pthread_create(&p->client, NULL, client_main, p) != 0) {
            snprintf(why, 256, "pthread_create failed");
            return -1;
        }
    }
    for (long i = 0; i < clients; i++)
        pairs[i].runtime = c->runtime;
    pthread_barrier_wait(&start);
    double t0 = tally__now();
    size_t total = 0;
    unsigned long transactions = 0;
    int failed = 0;
    for (long i = 0; i < clients; i++) {
        pthread_join(pairs[i].client, NULL);
        pthread_join(pairs[i].server, NULL);
        total += pairs[i].nlat;
        transactions += pairs[i].transactions;
        failed |= pairs[i].failed;
    }
    double elapsed = tally__now() - t0;
    if (failed) {
        snprintf(why, 256, "a connection failed mid-run");
        return -1;
    }
    double *all = malloc((total ? total : 1) * sizeof(double));
    if (all == NULL) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    size_t k = 0;
    for (long i = 0; i < clients; i++) {
        memcpy(all + k, pairs[i].lat, pairs[i].nlat * sizeof(double));
        k += pairs[i].nlat;
    }
    values[0] = (double)transactions / elapsed;
    if (total == 0 ||
        tally_percentiles(values + 1, all, total, pcts, NPCT, TALLY_PERCENTILE_LINEAR) != TALLY_OK) {
        snprintf(why, 256, "no transactions measured; use a longer runtime");
        return -1;
    }
    if (recs != NULL) {
        size_t m = wl->metric_count - 1;
        int rc = tally__latency_recorders_init(&hists[m], 1) == TALLY_OK
                     ? tally__latency_merge(&hists[m], recs, (size_t)clients, transactions, why)
                     : (snprintf(why, 256, "out of memory"), -1);
        free(recs);
        return rc;
    }
    return 0;
}

const tally__workload tally__workload_tcp_rr = {
    TALLY_WORKLOAD_TCP_RR, "tcp_rr", "clients", "1,2,4,8,16", NULL, keys,
    configure, release, body, NULL, NULL, NULL, NULL,
};
