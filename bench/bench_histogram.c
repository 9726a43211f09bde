/*
 * A run of 10^8 requests held as a histogram (docs/performance.md, "Histogram runs"): its p99
 * with the order-statistic interval, through tally_histogram_summarize (the whole summary with
 * the p99 fields) and through tally_percentile_interval alone, side by side with a bare loop
 * that reads every bucket once (the least any summary of the buckets costs).
 *
 *   bench_histogram [--quick] [--check]
 *
 * The histogram: latencies of a log-normal distribution (median 200 us, sigma 0.6) in
 * HdrHistogram's buckets of 3 significant digits from 1 us to 10 s (unit width up to 2048 us,
 * then 1024 buckets per doubling), each bucket's count its expected share of the requests,
 * rounded, the mode's bucket taking the rounding remainder so that they add up to exactly
 * 10^8. Prints `what buckets requests seconds` lines (CPU time of this process, median of 21
 * calls), the ratio to the bare loop and the peak resident set; --check exits 1 when the p99
 * with its interval takes 50 ms or more or the process 20 MB or more. --quick: 10^6 requests,
 * 3 calls (the ctest smoke run). Public API only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tally.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *t, size_t n)
{
    qsort(t, n, sizeof *t, by_value);
    return t[n / 2];
}

static double lognormal_cdf(double x)
{
    return x <= 0 ? 0 : 0.5 * erfc(-(log(x) - log(200.0)) / (0.6 * sqrt(2.0)));
}

/* The buckets [low, low + width) of HdrHistogram with 3 digits (2048 sub-buckets), reported at
 * their highest equivalent value low + width - 1, up to 10^7 us. */
static size_t build(double *values, uint64_t *counts, size_t cap, uint64_t total)
{
    size_t n = 0, mode = 0;
    uint64_t sum = 0;
    for (uint64_t low = 1, width = 1; low < 10000000 && n < cap; low += width) {
        if (low >= 2048 && (low & (low - 1)) == 0)
            width = low / 1024;
        double share = lognormal_cdf((double)(low + width) - 0.5) - lognormal_cdf((double)low - 0.5);
        uint64_t k = (uint64_t)llround(share * (double)total);
        if (k == 0)
            continue;
        values[n] = (double)(low + width - 1);
        counts[n] = k;
        if (k > counts[mode])
            mode = n;
        sum += k;
        n++;
    }
    if (sum > total)
        counts[mode] -= sum - total;
    else
        counts[mode] += total - sum;
    return n;
}

int main(int argc, char **argv)
{
    int quick = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--check") == 0)
            check = 1;
        else {
            fprintf(stderr, "usage: bench_histogram [--quick] [--check]\n");
            return 2;
        }
    }
    const uint64_t total = quick ? 1000000 : 100000000;
    const size_t reps = quick ? 3 : 21, cap = 1 << 16;
    double *values = malloc(cap * sizeof *values), t[21], sink = 0;
    uint64_t *counts = malloc(cap * sizeof *counts);
    if (values == NULL || counts == NULL)
        return 1;
    size_t n = build(values, counts, cap, total);

    /* The bare loop: every bucket read once, as any summary must. */
    for (size_t r = 0; r < reps; r++) {
        double start = cpu_seconds(), s = 0;
        uint64_t k = 0;
        for (size_t i = 0; i < n; i++) {
            s += (double)counts[i] * values[i];
            k += counts[i];
        }
        sink += s / (double)k;
        t[r] = cpu_seconds() - start;
    }
    double bare = median_of(t, reps);

    double low = 0, high = 0, level = 0;
    double p = 99;
    for (size_t r = 0; r < reps; r++) {
        double start = cpu_seconds();
        if (tally_percentile_interval(&low, &high, &level, values, counts, n, p, 0.95) != TALLY_OK) {
            fprintf(stderr, "bench_histogram: %s\n", tally_error_last()->message);
            return 1;
        }
        t[r] = cpu_seconds() - start;
    }
    double interval = median_of(t, reps);

    tally_summary s = { .size = sizeof s };
    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    o.percentile = p;
    for (size_t r = 0; r < reps; r++) {
        double start = cpu_seconds();
        if (tally_histogram_summarize(&s, values, counts, n, &o) != TALLY_OK) {
            fprintf(stderr, "bench_histogram: %s\n", tally_error_last()->message);
            return 1;
        }
        t[r] = cpu_seconds() - start;
    }
    double summary = median_of(t, reps);

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rss_mb = (double)ru.ru_maxrss / 1024.0;
    printf("bare_loop %zu %llu %.6f\n", n, (unsigned long long)total, bare);
    printf("p99_interval %zu %llu %.6f\n", n, (unsigned long long)total, interval);
    printf("histogram_summary_p99 %zu %llu %.6f\n", n, (unsigned long long)total, summary);
    printf("ratio_interval_to_bare %.1f\n", bare > 0 ? interval / bare : 0);
    printf("ratio_summary_to_bare %.1f\n", bare > 0 ? summary / bare : 0);
    printf("p99 %.0f interval [%.0f, %.0f] level %.4f (us); mean %.3f (bare loop %.3f)\n",
           s.percentile_value, s.percentile_ci_low, s.percentile_ci_high, s.percentile_ci_level,
           s.amean, sink / (double)reps);
    printf("peak_rss_mb %.1f\n", rss_mb);
    free(values);
    free(counts);
    if (check && (summary >= 0.050 || rss_mb >= 20.0)) {
        printf("over budget: the p99 with its interval must take < 50 ms and < 20 MB\n");
        return 1;
    }
    return 0;
}
