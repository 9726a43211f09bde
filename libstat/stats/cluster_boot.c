/* Runs of requests on one common bucket grid and the cluster bootstrap over them
 * (cluster_boot.h; docs/statistics.md, "Histogram runs"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/cluster_boot.h"
#include "stats/stats_internal.h"
#include "util/internal.h"

/* Requests are counted in doubles by the statistics: beyond 2^53 a count is no longer exact. */
#define MAX_REQUESTS 9007199254740992.0

void tally__pooled_free(tally__pooled *p)
{
    tally__free_mem(p->value);
    tally__free_mem(p->cum);
    tally__free_mem(p->counts);
    tally__free_mem(p->sum);
    memset(p, 0, sizeof *p);
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Every distinct bucket value of every run, ascending. */
static int merge_grid(tally__pooled *p, const double *const *values, const size_t *lens,
                      size_t runs)
{
    size_t all = 0;
    for (size_t r = 0; r < runs; r++)
        all += lens[r];
    p->value = tally__reallocarray(NULL, all ? all : 1, sizeof(double));
    if (p->value == NULL)
        return tally__oom();
    size_t k = 0;
    for (size_t r = 0; r < runs; r++) {
        memcpy(p->value + k, values[r], lens[r] * sizeof(double));
        k += lens[r];
    }
    qsort(p->value, all, sizeof(double), ascending);
    size_t len = 0;
    for (size_t i = 0; i < all; i++)
        if (len == 0 || p->value[i] != p->value[len - 1])
            p->value[len++] = p->value[i];
    p->len = len;
    return TALLY_OK;
}

int tally__pooled_init(tally__pooled *p, const double *const *values,
                       const uint64_t *const *counts, const size_t *lens,
                       const double *resolutions, size_t runs)
{
    memset(p, 0, sizeof *p);
    if (runs == 0)
        return tally__error(TALLY_ENODATA, "no histogram runs");
    int rc = merge_grid(p, values, lens, runs);
    if (rc != TALLY_OK)
        return rc;
    size_t len = p->len;
    p->runs = runs;
    p->cum = tally__calloc(runs * len, sizeof(uint64_t));
    p->counts = tally__calloc(len, sizeof(uint64_t));
    p->sum = tally__calloc(3 * runs, sizeof(double));
    if (p->cum == NULL || p->counts == NULL || p->sum == NULL) {
        tally__pooled_free(p);
        return tally__oom();
    }
    p->inv_sum = p->sum + runs;
    p->log_sum = p->sum + 2 * runs;
    p->positive = p->value[0] > 0;
    double total = 0;
    for (size_t r = 0; r < runs; r++) {
        uint64_t *cum = p->cum + r * len;
        size_t g = 0;
        for (size_t i = 0; i < lens[r]; i++) {
            while (p->value[g] != values[r][i])
                g++;
            cum[g] = counts[r][i];
            p->counts[g] += counts[r][i];
            double c = (double)counts[r][i], x = values[r][i];
            p->sum[r] += c * x;
            if (p->positive) {
                p->inv_sum[r] += c / x;
                p->log_sum[r] += c * log(x);
            }
            total += c;
        }
        for (g = 1; g < len; g++)
            cum[g] += cum[g - 1];
        if (resolutions && resolutions[r] > p->resolution)
            p->resolution = resolutions[r];
    }
    if (total > MAX_REQUESTS) {
        tally__pooled_free(p);
        return tally__error(TALLY_ELIMIT, "more than 2^53 requests in the runs");
    }
    p->total = (uint64_t)total;
    return TALLY_OK;
}

static uint64_t weight_of(const uint64_t *weight, size_t r)
{
    return weight ? weight[r] : 1;
}

/* The weighted requests at or below grid bucket g. */
static uint64_t cum_at(const tally__pooled *p, const uint64_t *weight, size_t g)
{
    uint64_t c = 0;
    for (size_t r = 0; r < p->runs; r++)
        c += weight_of(weight, r) * p->cum[r * p->len + g];
    return c;
}

/* The k-th smallest (0-based) weighted request: the first bucket holding more than k. */
static double order_stat(const tally__pooled *p, const uint64_t *weight, uint64_t k)
{
    size_t lo = 0, hi = p->len - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cum_at(p, weight, mid) > k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return p->value[lo];
}

/* Type 7 and type 1 percentiles as quantile.c defines them, on the weighted requests. */
static double ranked_percentile(const tally__pooled *p, const uint64_t *weight, uint64_t n,
                                double percentile, tally_percentile_method method)
{
    double q = percentile / 100.0;
    if (method == TALLY_PERCENTILE_NEAREST_RANK) {
        double k = ceil(q * (double)n);
        return order_stat(p, weight, k < 1 ? 0 : (uint64_t)k - 1);
    }
    double h = (double)(n - 1) * q, fl = floor(h);
    uint64_t k = (uint64_t)fl;
    double lo = order_stat(p, weight, k);
    if (k + 1 >= n || h == fl)
        return lo;
    double hi = order_stat(p, weight, k + 1);
    return lo + (h - fl) * (hi - lo);
}

/* Any statistic of the weighted requests through tally_histogram_summarize on the non-empty
 * buckets of the grid. */
static int summarized_statistic(double *out, const tally__pooled *p, const uint64_t *weight,
                                tally_statistic stat, double percentile,
                                tally_percentile_method method)
{
    double *v = tally__reallocarray(NULL, p->len, sizeof(double));
    uint64_t *c = tally__reallocarray(NULL, p->len, sizeof(uint64_t));
    int rc = v && c ? TALLY_OK : tally__oom();
    size_t len = 0;
    for (size_t g = 0; g < p->len && rc == TALLY_OK; g++) {
        uint64_t here = cum_at(p, weight, g) - (g ? cum_at(p, weight, g - 1) : 0);
        if (here == 0)
            continue;
        v[len] = p->value[g];
        c[len++] = here;
    }
    tally_summary s = { .size = sizeof s };
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.percentile_method = method;
    so.percentile = stat == TALLY_STAT_PERCENTILE ? percentile : 0;
    if (rc == TALLY_OK)
        rc = tally_histogram_summarize(&s, v, c, len, &so);
    if (rc == TALLY_OK)
        rc = tally__summary_value(out, &s, stat);
    tally__free_mem(v);
    tally__free_mem(c);
    return rc;
}

int tally__pooled_statistic(double *out, const tally__pooled *p, const uint64_t *weight,
                            tally_statistic stat, double percentile,
                            tally_percentile_method method)
{
    uint64_t n = 0;
    double sum = 0, inv = 0, logs = 0;
    for (size_t r = 0; r < p->runs; r++) {
        uint64_t w = weight_of(weight, r);
        n += w * p->cum[r * p->len + p->len - 1];
        sum += (double)w * p->sum[r];
        inv += (double)w * p->inv_sum[r];
        logs += (double)w * p->log_sum[r];
    }
    if (n == 0)
        return tally__error(TALLY_EDOMAIN, "no requests");
    switch (stat) {
    case TALLY_STAT_DEFAULT:
    case TALLY_STAT_AMEAN:
        *out = sum / (double)n;
        return TALLY_OK;
    case TALLY_STAT_HMEAN:
    case TALLY_STAT_GMEAN:
        if (!p->positive)
            return tally__error(TALLY_EDOMAIN, "%s needs values > 0",
                                stat == TALLY_STAT_HMEAN ? "HMean" : "GMean");
        *out = stat == TALLY_STAT_HMEAN ? (double)n / inv : exp(logs / (double)n);
        return TALLY_OK;
    case TALLY_STAT_MEDIAN:
        *out = ranked_percentile(p, weight, n, 50, TALLY_PERCENTILE_LINEAR);
        return TALLY_OK;
    case TALLY_STAT_PERCENTILE:
        if (method != TALLY_PERCENTILE_HARRELL_DAVIS) {
            *out = ranked_percentile(p, weight, n, percentile, method);
            return TALLY_OK;
        }
        break;
    default:
        break;
    }
    return summarized_statistic(out, p, weight, stat, percentile, method);
}

/* SplitMix64 (Steele, Lea and Flood 2014): a seeded stream of its own per call, so that a
 * report's intervals do not depend on anything but their seed. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A uniform index in [0, n): the modulo's bias, below n / 2^64, is nil for run counts. */
static size_t draw(uint64_t *state, size_t n)
{
    return (size_t)(splitmix64(state) % n);
}

int tally__cluster_log_se(double *se, const tally__pooled *p, tally_statistic stat,
                          double percentile, tally_percentile_method method, size_t resamples,
                          uint64_t seed)
{
    if (p->runs < 2 || resamples < 2)
        return tally__error(TALLY_EDOMAIN, "a cluster bootstrap needs 2 runs and 2 resamples");
    uint64_t *w = tally__calloc(p->runs, sizeof(uint64_t));
    if (w == NULL)
        return tally__oom();
    uint64_t state = seed;
    double mean = 0, m2 = 0;
    int rc = TALLY_OK;
    for (size_t b = 0; b < resamples && rc == TALLY_OK; b++) {
        memset(w, 0, p->runs * sizeof(uint64_t));
        for (size_t k = 0; k < p->runs; k++)
            w[draw(&state, p->runs)]++;
        double x;
        rc = tally__pooled_statistic(&x, p, w, stat, percentile, method);
        if (rc == TALLY_OK && !(x > 0))
            rc = tally__error(TALLY_EDOMAIN, "a resample's statistic is not > 0: no log scale");
        if (rc != TALLY_OK)
            break;
        /* Welford's update: the log statistics of a tight tail differ in late digits only. */
        double d = log(x) - mean;
        mean += d / (double)(b + 1);
        m2 += d * (log(x) - mean);
    }
    tally__free_mem(w);
    if (rc != TALLY_OK)
        return rc;
    double runs = (double)p->runs;
    *se = sqrt(m2 / (double)(resamples - 1) * runs / (runs - 1));
    return TALLY_OK;
}
