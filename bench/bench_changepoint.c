/*
 * Speed of the change-point detector (tally_changepoints_detect, docs/history.md "Speed"),
 * side by side with a naive E-divisive of our own for scale: the statistic of Matteson & James
 * (2014) over the whole series for every split, each computed pair by pair (O(n^2) per split,
 * O(n^3) for one search of the best split, before any recursion or permutation test).
 *
 *   bench_changepoint [--quick]
 *
 * Prints one line per measurement: `what n series seconds` (CPU time of this process), and for
 * the scaling series the cost per n log2(n) window. The series: noise CV 1 % around 100 with a
 * step of 5 % every 250 points, up and down in turn. --quick runs small sizes only (the ctest smoke run).
 * Public API only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tally.h"

static uint64_t rng_state = 0x5EED0F7A11EULL;

static double uniform01(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((double)((rng_state * 2685821657736338717ULL) >> 11) + 0.5) * 0x1.0p-53;
}

static double gauss(void)
{
    double u = uniform01(), v = uniform01();
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void series(double *v, size_t *off, size_t n, size_t runs)
{
    double level = 100;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && i % 250 == 0)
            level *= i % 500 ? 1.05 : 1 / 1.05;
        off[i] = i * runs;
        for (size_t r = 0; r < runs; r++)
            v[i * runs + r] = level * (1 + 0.01 * gauss());
    }
    off[n] = n * runs;
}

/* The naive E-divisive search for the best single split, every pair summed for every split. */
static size_t naive_best_split(const double *c, size_t n, size_t m)
{
    size_t best = 0;
    double best_q = -INFINITY;
    for (size_t t = m; t + m <= n; t++) {
        double a = (double)t, b = (double)(n - t), cross = 0, wl = 0, wr = 0;
        for (size_t i = 0; i < t; i++)
            for (size_t j = t; j < n; j++)
                cross += fabs(c[i] - c[j]);
        for (size_t i = 0; i < t; i++)
            for (size_t k = i + 1; k < t; k++)
                wl += fabs(c[i] - c[k]);
        for (size_t j = t; j < n; j++)
            for (size_t k = j + 1; k < n; k++)
                wr += fabs(c[j] - c[k]);
        double q = a * b / (a + b) * (2 * cross / (a * b) - wl / (a * (a - 1) / 2) -
                                      wr / (b * (b - 1) / 2));
        if (q > best_q) {
            best_q = q;
            best = t;
        }
    }
    return best;
}

static double time_detect(const double *v, const size_t *off, size_t n, size_t reps,
                          size_t *found)
{
    double best = INFINITY;
    for (size_t r = 0; r < reps; r++) {
        tally_changepoints *cp = NULL;
        double t0 = cpu_seconds();
        if (tally_changepoints_detect(&cp, v, off, n, NULL) != TALLY_OK) {
            fprintf(stderr, "bench_changepoint: %s\n", tally_error_last()->message);
            exit(2);
        }
        double t = cpu_seconds() - t0;
        *found = tally_changepoints_count(cp);
        tally_changepoints_free(cp);
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    static const size_t sizes[] = { 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000 };
    static const size_t naive_sizes[] = { 125, 250, 500, 1000 };
    size_t max_n = quick ? 2000 : 100000, window = 30;
    double *v = malloc(max_n * 5 * sizeof *v);
    size_t *off = malloc((max_n + 1) * sizeof *off);
    if (v == NULL || off == NULL)
        return 2;
    printf("# what n series cpu_seconds [per n log2(n) window, ns] [change points]\n");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= max_n; k++) {
        size_t n = sizes[k], found = 0;
        series(v, off, n, 1);
        double t = time_detect(v, off, n, 3, &found);
        printf("tally_one_series %zu 1 %.4f %.2f %zu\n", n, t,
               1e9 * t / ((double)n * log2((double)n) * (double)window), found);
    }
    for (size_t k = 0; k < sizeof naive_sizes / sizeof naive_sizes[0]; k++) {
        size_t n = naive_sizes[k], found = 0;
        if (quick && n > 250)
            break;
        series(v, off, n, 1);
        double t0 = cpu_seconds();
        size_t at = naive_best_split(v, n, 3);
        double naive = cpu_seconds() - t0;
        double t = time_detect(v, off, n, 3, &found);
        printf("naive_edivisive_one_split %zu 1 %.4f (best split %zu)\n", n, naive, at);
        printf("tally_whole_segmentation %zu 1 %.4f %zu\n", n, t, found);
    }
    size_t many = quick ? 50 : 1000, points = 500;
    for (size_t runs = 1; runs <= 5; runs += 4) {
        double total = 0;
        size_t found = 0, all = 0;
        for (size_t s = 0; s < many; s++) {
            series(v, off, points, runs);
            total += time_detect(v, off, points, 1, &found);
            all += found;
        }
        printf("tally_many_series %zu %zu %.4f (%zu runs per point, %zu change points)\n", points,
               many, total, runs, all);
    }
    free(v);
    free(off);
    return 0;
}
