/*
 * The tally side of the benchmark harness (bench/run.py drives it). It generates the data every
 * contender reads, and times tally's own work inside the process, so process start-up is
 * excluded where the comparison asks for it. Public API only.
 *
 *   bench_tally gen-doubles PATH N SEED     N float64 values (raw, native endian)
 *   bench_tally gen-plain PATH N SEED       the same values, one per line
 *   bench_tally gen-csv PATH MB             long-form CSV of about MB megabytes
 *   bench_tally gen-json PATH MB            native JSON of about MB megabytes
 *   bench_tally summary PATH                time the full summary of the doubles in PATH
 *   bench_tally tests PATH_A PATH_B         time Welch's t-test and Mann-Whitney U
 *   bench_tally ingest PATH                 time loading a result file
 *
 * Timed commands print `name seconds` lines, then `maxrss_kb N` (peak resident memory).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tally.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int die(const char *what)
{
    const tally_error *e = tally_error_last();
    fprintf(stderr, "bench_tally: %s: %s\n", what, e->code ? e->message : strerror(errno));
    return 2;
}

static void print_maxrss(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("maxrss_kb %ld\n", ru.ru_maxrss);
}

/* xorshift64*: a small, fast generator; the same seed gives the same data everywhere. */
static uint64_t rng_state;

static double uniform01(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

/* Benchmark-like values: positive, right-skewed (log-normal around 100). */
static double sample_value(void)
{
    double u1 = uniform01(), u2 = uniform01();
    if (u1 < 1e-300)
        u1 = 1e-300;
    double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    return 100.0 * exp(0.1 * z);
}

static double *generate(size_t n, uint64_t seed)
{
    rng_state = seed ? seed : 88172645463325252ULL;
    double *x = malloc(n * sizeof(double));
    if (x)
        for (size_t i = 0; i < n; i++)
            x[i] = sample_value();
    return x;
}

static double *read_doubles(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    *n = (size_t)bytes / sizeof(double);
    double *x = malloc(*n * sizeof(double) + 1);
    if (x && fread(x, sizeof(double), *n, f) != *n) {
        free(x);
        x = NULL;
    }
    fclose(f);
    return x;
}

static int gen_doubles(const char *path, size_t n, uint64_t seed, int text)
{
    double *x = generate(n, seed);
    FILE *f = fopen(path, text ? "w" : "wb");
    if (x == NULL || f == NULL)
        return die(path);
    if (text) {
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%.17g\n", x[i]);
    } else {
        fwrite(x, sizeof(double), n, f);
    }
    free(x);
    return fclose(f) == 0 ? 0 : die(path);
}

/* Two configurations, 100 cases each, values in %.17g: about 60 bytes a line. */
static int gen_csv(const char *path, double megabytes)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return die(path);
    rng_state = 42;
    fputs("benchmark,case,config,value,unit,better\n", f);
    double target = megabytes * 1e6;
    long written = 0;
    for (size_t i = 0; written < target; i++) {
        int n = fprintf(f, "bench,case-%zu,%s,%.17g,s,lower\n", i % 100, (i / 100) % 2 ? "new" : "base",
                        sample_value());
        written += n;
    }
    return fclose(f) == 0 ? 0 : die(path);
}

static int gen_json(const char *path, double megabytes)
{
    /* About 20 bytes a sample in the native format: build the result sets through the API and
     * let the library's writer produce the file, so the schema is the real one. */
    size_t per_case = (size_t)(megabytes * 1e6 / 20.0 / 200.0) + 1;
    tally_results *r = NULL;
    if (tally_results_new(&r) != TALLY_OK)
        return die("results");
    rng_state = 43;
    double *buf = malloc(per_case * sizeof(double));
    const char *labels[2] = {"base", "new"};
    for (int c = 0; c < 2; c++) {
        tally_resultset *rs = NULL;
        tally_benchmark *b = NULL;
        if (tally_resultset_new(&rs, labels[c]) != TALLY_OK ||
            tally_resultset_benchmark_add(&b, rs, "bench", "s", TALLY_LOWER_IS_BETTER) != TALLY_OK)
            return die("resultset");
        for (int k = 0; k < 100; k++) {
            char name[32];
            snprintf(name, sizeof(name), "case-%d", k);
            tally_case *cs = NULL;
            for (size_t i = 0; i < per_case; i++)
                buf[i] = sample_value();
            if (tally_benchmark_case_add(&cs, b, name) != TALLY_OK ||
                tally_case_append(cs, buf, per_case) != TALLY_OK)
                return die("case");
        }
        if (tally_results_add(r, rs) != TALLY_OK)
            return die("add");
    }
    free(buf);
    int rc = tally_results_save(r, path);
    tally_results_free(r);
    return rc == TALLY_OK ? 0 : die(path);
}

static int time_summary(const char *path)
{
    size_t n = 0;
    double *x = read_doubles(path, &n);
    if (x == NULL)
        return die(path);
    /* The same set numpy computes: n, min, max, amean, hmean, gmean, median, p90, p99, stddev,
     * cv. tally_summarize gives all but p90/p99 (and more: CIs, outliers, BAmean). */
    static const double p[2] = {90.0, 99.0};
    double pct[2];
    tally_summary s;
    double t0 = now();
    if (tally_summarize(&s, x, n, NULL) != TALLY_OK || tally_percentiles(pct, x, n, p, 2,
                                                                         TALLY_PERCENTILE_LINEAR) != TALLY_OK)
        return die("summary");
    double t1 = now();
    printf("summary %.9f\n", t1 - t0);
    printf("check %.17g %.17g %.17g %.17g\n", s.amean, s.median, pct[0], pct[1]);
    free(x);
    print_maxrss();
    return 0;
}

static int time_tests(const char *path_a, const char *path_b)
{
    size_t na = 0, nb = 0;
    double *a = read_doubles(path_a, &na), *b = read_doubles(path_b, &nb);
    if (a == NULL || b == NULL)
        return die("read");
    double t, df, p, u, pm;
    int exact;
    double t0 = now();
    if (tally_welch_test(&t, &df, &p, a, na, b, nb) != TALLY_OK)
        return die("welch");
    double t1 = now();
    if (tally_mann_whitney(&u, &pm, &exact, a, na, b, nb) != TALLY_OK)
        return die("mann-whitney");
    double t2 = now();
    printf("welch %.9f\nmannwhitney %.9f\n", t1 - t0, t2 - t1);
    printf("check %.17g %.17g %.17g %.17g\n", t, p, u, pm);
    free(a);
    free(b);
    print_maxrss();
    return 0;
}

static int time_ingest(const char *path)
{
    tally_results *r = NULL;
    if (tally_results_new(&r) != TALLY_OK)
        return die("results");
    double t0 = now();
    if (tally_load_file(r, path, NULL) != TALLY_OK)
        return die(path);
    double t1 = now();
    size_t samples = 0;
    for (size_t i = 0; i < tally_results_count(r); i++) {
        tally_resultset *rs = tally_results_at(r, i);
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            for (size_t k = 0; k < tally_benchmark_case_count(b); k++)
                samples += tally_case_sample_count(tally_benchmark_case_at(b, k));
        }
    }
    printf("ingest %.9f\nsamples %zu\n", t1 - t0, samples);
    tally_results_free(r);
    print_maxrss();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "gen-doubles") == 0)
        return gen_doubles(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10), 0);
    if (argc >= 5 && strcmp(argv[1], "gen-plain") == 0)
        return gen_doubles(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10), 1);
    if (argc >= 4 && strcmp(argv[1], "gen-csv") == 0)
        return gen_csv(argv[2], atof(argv[3]));
    if (argc >= 4 && strcmp(argv[1], "gen-json") == 0)
        return gen_json(argv[2], atof(argv[3]));
    if (argc >= 3 && strcmp(argv[1], "summary") == 0)
        return time_summary(argv[2]);
    if (argc >= 4 && strcmp(argv[1], "tests") == 0)
        return time_tests(argv[2], argv[3]);
    if (argc >= 3 && strcmp(argv[1], "ingest") == 0)
        return time_ingest(argv[2]);
    fprintf(stderr, "usage: see the comment at the top of bench/bench_tally.c\n");
    return 2;
}
