/* The results store's speed (docs/store.md, "Speed"): record N result sets of 100 samples each
 * (4 benchmarks x 1 case x 25 samples, one commit each, one transaction per set as a CI job
 * records them), then fetch the series of one benchmark's case over all the commits (the median
 * of 11 rounds after one untimed), and print the query plan of that fetch. On SQLite each round
 * also runs the bare limit of the fetch, the same samples query stepped with plain sqlite3 calls
 * (bench_store_bare_fetch), and the ratio of the two is printed: both see the same load.
 *   bench_store STORE [N]          STORE: a new SQLite file or a postgresql:// URL; N default 10000
 *   bench_store --fetch STORE      only the fetch and its plan, on a store filled by a first run
 *                                  (profilers: callgrind sees the fetch alone) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

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

/* The timed rounds of the fetch (each side), after one untimed round. */
#define REPS 11

typedef struct times {
    double wall, cpu, server; /* seconds; server: -1 when not measured */
} times;

static times clocks(long long server)
{
    times t = {now(), cpu(), server > 0 ? server_cpu(server) : -1};
    return t;
}

static times since(times t0, long long server)
{
    times t = clocks(server);
    times d = {t.wall - t0.wall, t.cpu - t0.cpu, t0.server >= 0 ? t.server - t0.server : -1};
    return d;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, by_value);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Each clock's own median (on a busy machine the three need not come from one round). */
static times median(const times *t, int n)
{
    double w[REPS], c[REPS], s[REPS];
    for (int i = 0; i < n; i++) {
        w[i] = t[i].wall;
        c[i] = t[i].cpu;
        s[i] = t[i].server;
    }
    times m = {median_of(w, n), median_of(c, n), median_of(s, n)};
    return m;
}

static double best_cpu(const times *t, int n)
{
    double best = t[0].cpu;
    for (int i = 1; i < n; i++)
        best = t[i].cpu < best ? t[i].cpu : best;
    return best;
}

/* The bare limit of a series fetch: the samples query tally_store_select runs (its own SQL
 * text, tally__store_data_sql) stepped with plain sqlite3 calls on a connection of its own, set
 * up as the store's (db_sqlite.c: mapped file, 64 MiB page cache), each row's blob read and its
 * samples copied out. No result set is built: what remains of a fetch's time beyond this is the
 * store's own work (the set and metadata queries, the result sets). */
typedef struct bare {
    sqlite3 *db;
    sqlite3_stmt *stmt;
    double x[64];
} bare;

static void bare_close(bare *b)
{
    if (b == NULL)
        return;
    sqlite3_finalize(b->stmt);
    sqlite3_close(b->db);
    free(b);
}

static bare *bare_open(const char *path, const tally_store_query *q)
{
    tally__db_value params[TALLY__STORE_MAX_PARAMS];
    size_t nparams;
    char *sql = NULL;
    bare *b = calloc(1, sizeof *b);
    if (b == NULL || tally__store_data_sql(&sql, params, &nparams, q) != TALLY_OK) {
        fprintf(stderr, "bench_store: the series query: %s\n", tally_error_last()->message);
        free(b);
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &b->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(b->db, "PRAGMA mmap_size = 268435456; PRAGMA cache_size = -65536",
                          NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(b->db, sql, -1, &b->stmt, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < nparams; i++)
        rc = sqlite3_bind_text(b->stmt, (int)i + 1, params[i].s, (int)params[i].len,
                               SQLITE_TRANSIENT);
    tally_free(sql);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "bench_store: %s: %s\n", path, sqlite3_errmsg(b->db));
        bare_close(b);
        return NULL;
    }
    return b;
}

/* Not inlined: `valgrind --tool=callgrind --toggle-collect=bench_store_bare_fetch` counts it. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
size_t bench_store_bare_fetch(bare *b);

size_t bench_store_bare_fetch(bare *b)
{
    size_t rows = 0;
    while (sqlite3_step(b->stmt) == SQLITE_ROW) {
        const void *blob = sqlite3_column_blob(b->stmt, 7);
        size_t len = (size_t)sqlite3_column_bytes(b->stmt, 7);
        if (blob && len <= sizeof b->x)
            memcpy(b->x, blob, len);
        rows++;
    }
    sqlite3_reset(b->stmt);
    return rows;
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
    /* An option it does not know is not a store to create ("--help" made one). */
    if (argc < 2 || argv[1][0] == '-') {
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
    bare *limit = NULL;
    if (s->ops == &tally__db_sqlite && (limit = bare_open(argv[1], &q)) == NULL)
        return 1;
    /* One untimed round first (the store's page cache and the mapped file warm), then the
     * fetch and the bare loop in turns, so that both see the same load. */
    times fetch[REPS + 1], base[REPS + 1];
    size_t sets = 0, rows = 0;
    for (int rep = 0; rep <= REPS; rep++) {
        tally_results *r = NULL;
        tally_results_new(&r);
        times start = clocks(server);
        if (tally_store_select(r, s, &q) != TALLY_OK)
            return die("select");
        fetch[rep] = since(start, server);
        sets = tally_results_count(r);
        tally_results_free(r);
        if (limit) {
            start = clocks(0);
            rows = bench_store_bare_fetch(limit);
            base[rep] = since(start, 0);
        }
    }
    /* CPU time too: on a shared machine the wall-clock time includes waiting for a core. */
    times f = median(fetch + 1, REPS);
    printf("series: bench2/p50 over %zu commits (25 samples each): %.1f ms wall, %.1f ms CPU",
           sets, f.wall * 1e3, f.cpu * 1e3);
    if (server > 0 && f.server >= 0)
        printf(" + %.1f ms server CPU", f.server * 1e3);
    printf(" (median of %d; best %.1f ms CPU)\n", REPS, best_cpu(fetch + 1, REPS) * 1e3);
    if (limit) {
        times l = median(base + 1, REPS);
        printf("bare limit: the same query stepped, its %zu blobs read (plain sqlite3): %.1f ms "
               "wall, %.1f ms CPU (median of %d; best %.1f ms CPU)\n", rows, l.wall * 1e3,
               l.cpu * 1e3, REPS, best_cpu(base + 1, REPS) * 1e3);
        printf("fetch / bare limit, CPU: %.2f (medians); %.2f (best)\n", f.cpu / l.cpu,
               best_cpu(fetch + 1, REPS) / best_cpu(base + 1, REPS));
        bare_close(limit);
    }
    printf("plan of the series query:\n");
    if (tally__store_explain(s, &q, plan_row, NULL) != TALLY_OK)
        return die("explain");
    tally_store_close(s);
    return 0;
}
