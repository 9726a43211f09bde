/*
 * The tally side of the benchmark harness (bench/run.py drives it). It generates the data every
 * contender reads, and times tally's own work inside the process, so process start-up is
 * excluded where the comparison asks for it. Public API only.
 *
 *   bench_tally gen-doubles PATH N SEED     N float64 values (raw, native endian)
 *   bench_tally gen-plain PATH N SEED       the same values, one per line
 *   bench_tally gen-csv PATH MB             long-form CSV of about MB megabytes
 *   bench_tally gen-json PATH MB            native JSON of about MB megabytes
 *   bench_tally gen-cases PATH N            long-form CSV of N distinct cases, 3 runs each
 *   bench_tally summary PATH                time the full summary (and p90, p99) of the doubles
 *   bench_tally tests PATH_A PATH_B         time Welch's t-test and Mann-Whitney U
 *   bench_tally ingest PATH                 time loading a result file
 *   bench_tally write-json PATH             time writing the JSON report (every sample) of a file
 *   bench_tally run CMD [ARGS...]           run CMD (absolute path) end to end, output discarded
 *   bench_tally html CASES CONFIGS RUNS [OUT]
 *                                           time rendering the HTML report (plots of every case)
 *                                           of generated results; OUT keeps the file
 *
 * Values look like benchmark results: positive, right-skewed, printed with 6 decimals (as timing
 * tools print them), so the text files hold 9 or 10 significant digits per number.
 *
 * Timed commands print `name WALL CPU` lines (seconds of wall-clock and of CPU time of this
 * process), then `maxrss_kb N` (peak resident memory, getrusage).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tally.h"

typedef struct stamp {
    double wall, cpu;
} stamp;

static double seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static stamp now(void)
{
    stamp s = { seconds(CLOCK_MONOTONIC), seconds(CLOCK_PROCESS_CPUTIME_ID) };
    return s;
}

/* One timed line: `name WALL CPU`. */
static void report(const char *name, stamp t0, stamp t1)
{
    printf("%s %.9f %.9f\n", name, t1.wall - t0.wall, t1.cpu - t0.cpu);
}

static int die(const char *what)
{
    const tally_error *e = tally_error_last();
    fprintf(stderr, "bench_tally: %s: %s\n", what, e->code ? e->message : strerror(errno));
    return 2;
}

/* Peak resident memory of this program image: VmHWM belongs to the address space exec created,
 * while getrusage's ru_maxrss also keeps the peak of the process image before exec (the
 * driver's, when the driver spawned this one). */
static void print_maxrss(void)
{
    long kb = -1;
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    if (kb < 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        kb = ru.ru_maxrss;
    }
    printf("maxrss_kb %ld\n", kb);
}

/* Run a command to its end and report what it cost as a whole: `run WALL CPU` (CPU = user +
 * system of the child) and `maxrss_kb N` from wait4. This small program is the parent, so the
 * child's peak carries only this image's few MiB from before its exec, not the driver's. */
static int run_command(char **argv)
{
    fflush(stdout);
    stamp t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        return die("fork");
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return die("wait4");
    double wall = now().wall - t0.wall;
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("run %.9f %.9f\nmaxrss_kb %ld\nexit %d\n", wall, cpu, ru.ru_maxrss, code);
    return code == 0 || code == 1 ? 0 : 2;
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

/* Benchmark-like values: positive, right-skewed (log-normal around 100), rounded to 6 decimals
 * (microseconds of a time in seconds), so "%.6f" prints them exactly as they are stored. */
static double sample_value(void)
{
    double u1 = uniform01(), u2 = uniform01();
    if (u1 < 1e-300)
        u1 = 1e-300;
    double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    return round(100.0 * exp(0.1 * z) * 1e6) / 1e6;
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

/* Read every sample once before the clock starts, as the Python peer does: on some virtual
 * machines the first user-mode access to each page of a freshly read buffer costs microseconds
 * (shadow page tables), and that belongs to reading the data, not to the statistics. */
static void touch(const double *x, size_t n)
{
    volatile double sink = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    sink = sum;
    (void)sink;
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
            fprintf(f, "%.6f\n", x[i]);
    } else {
        fwrite(x, sizeof(double), n, f);
    }
    free(x);
    return fclose(f) == 0 ? 0 : die(path);
}

/* Two configurations of 100 cases each, the runs of a case on consecutive rows (as a harness
 * appends them), about 40 bytes a row. */
static int gen_csv(const char *path, double megabytes)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return die(path);
    rng_state = 42;
    fputs("benchmark,case,config,value,unit,better\n", f);
    const size_t runs = (size_t)(megabytes * 1e6 / 40.0 / 200.0) + 1;
    const char *labels[2] = { "base", "new" };
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 100; k++)
            for (size_t i = 0; i < runs; i++)
                fprintf(f, "bench,case-%d,%s,%.6f,s,lower\n", k, labels[c], sample_value());
    return fclose(f) == 0 ? 0 : die(path);
}

/* N distinct cases over 5 benchmarks, 3 runs each, one configuration: the load is dominated by
 * finding (or creating) the case of each row, which a scan per row made quadratic. */
static int gen_cases(const char *path, long n)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return die(path);
    rng_state = 44;
    fputs("benchmark,case,config,value\n", f);
    for (int run = 0; run < 3; run++)
        for (long i = 0; i < n; i++)
            fprintf(f, "bench-%ld,case-%ld,base,%.6f\n", i % 5, i, sample_value());
    return fclose(f) == 0 ? 0 : die(path);
}

static int gen_json(const char *path, double megabytes)
{
    /* About 12 bytes a sample in the native format: build the result sets through the API and
     * let the library's writer produce the file, so the schema is the real one. */
    size_t per_case = (size_t)(megabytes * 1e6 / 12.0 / 200.0) + 1;
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
    /* The set numpy computes: n, min, max, amean, hmean, gmean, median, p90, p99, stddev, cv,
     * and more (CIs, outliers, BAmean, harmonic SD), in one call that does not copy the samples
     * (histogram selection), so the peak stays near one copy. */
    static const double p[2] = {90.0, 99.0};
    double pct[2];
    tally_summary s = { .size = sizeof s };
    touch(x, n);
    stamp t0 = now();
    if (tally_summarize_with_percentiles(&s, pct, x, n, p, 2, NULL) != TALLY_OK)
        return die("summary");
    stamp t1 = now();
    report("summary", t0, t1);
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
    touch(a, na);
    touch(b, nb);
    stamp t0 = now();
    if (tally_welch_test(&t, &df, &p, a, na, b, nb) != TALLY_OK)
        return die("welch");
    stamp t1 = now();
    if (tally_mann_whitney(&u, &pm, &exact, a, na, b, nb) != TALLY_OK)
        return die("mann-whitney");
    stamp t2 = now();
    report("welch", t0, t1);
    report("mannwhitney", t1, t2);
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
    stamp t0 = now();
    if (tally_load_file(r, path, NULL) != TALLY_OK)
        return die(path);
    stamp t1 = now();
    size_t samples = 0;
    for (size_t i = 0; i < tally_results_count(r); i++) {
        tally_resultset *rs = tally_results_at(r, i);
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            for (size_t k = 0; k < tally_benchmark_case_count(b); k++)
                samples += tally_case_sample_count(tally_benchmark_case_at(b, k));
        }
    }
    report("ingest", t0, t1);
    printf("samples %zu\n", samples);
    tally_results_free(r);
    print_maxrss();
    return 0;
}

/* The HTML report of CASES cases x CONFIGS configurations x RUNS runs: the report is computed
 * first (not timed), then the render with every plot is timed; prints `html WALL CPU` and
 * `bytes N` (the file must stay under 5 MB at 300 x 3 x 100). */
static int time_html(size_t cases, size_t configs, size_t runs, const char *out)
{
    tally_results *res = NULL;
    if (tally_results_new(&res) != TALLY_OK)
        return die("results");
    rng_state = 7;
    for (size_t j = 0; j < configs; j++) {
        char label[32], name[32];
        snprintf(label, sizeof(label), "config-%zu", j);
        tally_resultset *rs = NULL;
        tally_benchmark *b = NULL;
        if (tally_resultset_new(&rs, label) != TALLY_OK ||
            tally_resultset_benchmark_add(&b, rs, "bench", "s", TALLY_LOWER_IS_BETTER) != TALLY_OK ||
            tally_results_add(res, rs) != TALLY_OK)
            return die("build");
        double *x = malloc(runs * sizeof(double));
        if (x == NULL)
            return die("malloc");
        for (size_t c = 0; c < cases; c++) {
            tally_case *tc = NULL;
            snprintf(name, sizeof(name), "%zu", c + 1);
            for (size_t i = 0; i < runs; i++)
                x[i] = sample_value() * 1e-3 * (1.0 + 0.01 * (double)j);
            if (tally_benchmark_case_add(&tc, b, name) != TALLY_OK ||
                tally_case_append(tc, x, runs) != TALLY_OK)
                return die("case");
        }
        free(x);
    }
    tally_report *r = NULL;
    if (tally_report_new(&r, res, NULL) != TALLY_OK)
        return die("report");
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_HTML;
    char *html = NULL;
    size_t len = 0;
    stamp t0 = now();
    if (tally_report_render(&html, &len, r, &o) != TALLY_OK)
        return die("render");
    stamp t1 = now();
    report("html", t0, t1);
    printf("bytes %zu\n", len);
    if (out) {
        FILE *f = fopen(out, "wb");
        if (f == NULL || fwrite(html, 1, len, f) != len || fclose(f) != 0)
            return die(out);
    }
    tally_free(html);
    tally_report_free(r);
    tally_results_free(res);
    print_maxrss();
    return 0;
}

/* The JSON report (every sample written, summaries only) of FILE: loading and the report's
 * statistics are not timed, the render is; prints `write WALL CPU` and `bytes N`. */
static int time_write_json(const char *path)
{
    tally_results *res = NULL;
    if (tally_results_new(&res) != TALLY_OK || tally_load_file(res, path, NULL) != TALLY_OK)
        return die(path);
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    ro.summaries_only = 1;
    tally_report *r = NULL;
    if (tally_report_new(&r, res, &ro) != TALLY_OK)
        return die("report");
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_JSON;
    char *text = NULL;
    size_t len = 0;
    stamp t0 = now();
    if (tally_report_render(&text, &len, r, &o) != TALLY_OK)
        return die("render");
    stamp t1 = now();
    report("write", t0, t1);
    printf("bytes %zu\n", len);
    tally_free(text);
    tally_report_free(r);
    tally_results_free(res);
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
    if (argc >= 4 && strcmp(argv[1], "gen-cases") == 0)
        return gen_cases(argv[2], atol(argv[3]));
    if (argc >= 4 && strcmp(argv[1], "gen-json") == 0)
        return gen_json(argv[2], atof(argv[3]));
    if (argc >= 3 && strcmp(argv[1], "summary") == 0)
        return time_summary(argv[2]);
    if (argc >= 4 && strcmp(argv[1], "tests") == 0)
        return time_tests(argv[2], argv[3]);
    if (argc >= 3 && strcmp(argv[1], "ingest") == 0)
        return time_ingest(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "write-json") == 0)
        return time_write_json(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "run") == 0)
        return run_command(argv + 2);
    if (argc >= 5 && strcmp(argv[1], "html") == 0)
        return time_html(strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10),
                         strtoull(argv[4], NULL, 10), argc >= 6 ? argv[5] : NULL);
    fprintf(stderr, "usage: see the comment at the top of bench/bench_tally.c\n");
    return 2;
}
