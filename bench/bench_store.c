/* The results store's speed (docs/store.md, "Speed"): record N result sets of 100 samples each
 * (4 benchmarks x 1 case x 25 samples, one commit each, one transaction per set as a CI job
 * records them), then fetch the series of one benchmark's case over all the commits, and print
 * the query plan of that fetch.
 *   bench_store STORE [N]          STORE: a new SQLite file or a postgresql:// URL; N default 10000
 *   bench_store --fetch STORE      only the fetch and its plan, on a store filled by a first run
 *                                  (profilers: callgrind sees the fetch alone) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_internal.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* PostgreSQL: the CPU time of the server process serving this connection, in seconds, from
 * /proc/PID/schedstat (nanoseconds on a CPU; the server runs on this machine, tests/pg_cluster.sh),
 * so that the client's CPU time plus this one is the whole cost of a fetch; -1 when unknown. */
static int pid_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    if (ncols == 1 && cols[0].type == TALLY__DB_INT)
        *(long long *)ctx = cols[0].i;
    return 0;
}

static double server_cpu(long long pid)
{
    char path[64];
    unsigned long long ns = 0;
    snprintf(path, sizeof path, "/proc/%lld/schedstat", pid);
    FILE *f = pid > 0 ? fopen(path, "r") : NULL;
    int ok = f && fscanf(f, "%llu", &ns) == 1;
    if (f)
        fclose(f);
    return ok ? (double)ns / 1e9 : -1;
}

static int die(const char *what)
{
    fprintf(stderr, "bench_store: %s: %s\n", what, tally_error_last()->message);
    return 1;
}

static int plan_row(void *ctx, const tally__db_value *cols, size_t ncols)
{
    (void)ctx;
    /* SQLite: id, parent, notused, detail; PostgreSQL: one text line. */
    const tally__db_value *detail = &cols[ncols - 1];
    if (detail->type == TALLY__DB_TEXT)
        printf("  %s\n", detail->s);
    return 0;
}

int main(int argc, char **argv)
{
    int fetch_only = argc > 1 && strcmp(argv[1], "--fetch") == 0;
    argv += fetch_only;
    argc -= fetch_only;
    if (argc < 2) {
        fputs("usage: bench_store STORE [N] | bench_store --fetch STORE\n", stderr);
        return 2;
    }
    long n = fetch_only ? 0 : argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
    tally_store *s = NULL;
    if (tally_store_open(&s, argv[1], NULL) != TALLY_OK)
        return die("open");
    unsigned long long seed = 31;
    double t0 = now();
    for (long i = 0; i < n; i++) {
        tally_results *r = NULL;
        tally_resultset *rs = NULL;
        char text[64];
        tally_results_new(&r);
        tally_resultset_new(&rs, "ci");
        snprintf(text, sizeof text, "%040lx", (unsigned long)i * 2654435761UL);
        tally_resultset_meta_set(rs, "commit", text);
        tally_resultset_meta_set(rs, "branch", "main");
        tally_resultset_meta_set(rs, "machine", "bench");
        time_t t = 1767225600 + (time_t)i * 600; /* 2026-01-01, a commit every 10 minutes */
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
        tally_resultset_meta_set(rs, "time", text);
        for (int b = 0; b < 4; b++) {
            tally_benchmark *bench;
            tally_case *c;
            char name[16];
            snprintf(name, sizeof name, "bench%d", b);
            tally_resultset_benchmark_add(&bench, rs, name, "s", TALLY_LOWER_IS_BETTER);
            tally_benchmark_case_add(&c, bench, "p50");
            double x[25];
            for (int k = 0; k < 25; k++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                x[k] = 1.0 + (double)(seed >> 11) / 9007199254740992.0;
            }
            tally_case_append(c, x, 25);
        }
        tally_results_add(r, rs);
        size_t added;
        if (tally_store_record(&added, s, r) != TALLY_OK)
            return die("record");
        tally_results_free(r);
    }
    double t1 = now();
    if (!fetch_only)
        printf("record: %ld result sets of 100 samples, one transaction each: %.2f s (%.0f sets/s)\n",
           n, t1 - t0, (double)n / (t1 - t0));

    tally_store_query q = TALLY_STORE_QUERY_INIT;
    q.benchmark = "bench2";
    q.case_name = "p50";
    long long server = 0;
    if (s->ops == &tally__db_pg &&
        s->ops->query(s->db, "SELECT pg_backend_pid()", NULL, 0, pid_row, &server) != TALLY_OK)
        return die("server pid");
    double best = 1e9, best_cpu = 1e9, best_server = 1e9;
    size_t sets = 0;
    for (int rep = 0; rep < 5; rep++) {
        tally_results *r = NULL;
        tally_results_new(&r);
        double a = now(), ac = cpu(), as = server_cpu(server);
        if (tally_store_select(r, s, &q) != TALLY_OK)
            return die("select");
        double b = now() - a, bc = cpu() - ac, bs = server_cpu(server) - as;
        best = b < best ? b : best;
        best_cpu = bc < best_cpu ? bc : best_cpu;
        best_server = bs < best_server ? bs : best_server;
        sets = tally_results_count(r);
        tally_results_free(r);
    }
    /* CPU time too: on a shared machine the wall-clock time includes waiting for a core. */
    printf("series: bench2/p50 over %zu commits (25 samples each): %.1f ms wall, %.1f ms CPU",
           sets, best * 1e3, best_cpu * 1e3);
    if (server > 0 && best_server >= 0)
        printf(" + %.1f ms server CPU", best_server * 1e3);
    printf(" (best of 5)\n");
    printf("plan of the series query:\n");
    if (tally__store_explain(s, &q, plan_row, NULL) != TALLY_OK)
        return die("explain");
    tally_store_close(s);
    return 0;
}
