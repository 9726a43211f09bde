/* Percentiles by selection. Linear interpolation between closest ranks is Hyndman & Fan's
 * definition 7 (R's default, numpy's "linear"); nearest rank is their definition 1. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "stats/select.h"
#include "stats/stats_internal.h"

/* Type 7 position: h = (n - 1) p / 100 on 0-based ranks. p * (n - 1) is exact for integer p and
 * any realistic n, so percentiles that fall on a sample (p = 25 with n = 5) hit it exactly. */
static double linear_position(size_t n, double p)
{
    return p * (double)(n - 1) / 100.0;
}

/* Type 1: the smallest x with at least p % of the samples <= x: rank ceil(n p / 100), >= 1. */
static size_t nearest_rank(size_t n, double p)
{
    double r = ceil(p * (double)n / 100.0);
    if (r < 1)
        return 0;
    if (r > (double)n)
        return n - 1;
    return (size_t)r - 1;
}

size_t tally__percentile_ranks(size_t ranks[2], size_t n, double p, tally_percentile_method method)
{
    if (method == TALLY_PERCENTILE_NEAREST_RANK) {
        ranks[0] = nearest_rank(n, p);
        return 1;
    }
    double h = linear_position(n, p);
    size_t j = (size_t)floor(h);
    if (j >= n - 1) {
        ranks[0] = n - 1;
        return 1;
    }
    ranks[0] = j;
    if (h == (double)j)
        return 1;
    ranks[1] = j + 1;
    return 2;
}

double tally__percentile_from(const double *v, size_t n, double p, tally_percentile_method method)
{
    if (method == TALLY_PERCENTILE_NEAREST_RANK)
        return v[0];
    double h = linear_position(n, p);
    size_t j = (size_t)floor(h);
    if (j >= n - 1)
        return v[0];
    double g = h - (double)j, a = v[0];
    if (g == 0 || a == v[1])
        return a;
    /* R's form: a weighted sum cannot overflow the way a + g (b - a) can near DBL_MAX. */
    return (1 - g) * a + g * v[1];
}

/* Checks shared by both entry points; recorded. */
static int check_percentile_args(const double *out, const double *x, size_t n, const double *p,
                                 size_t count, tally_percentile_method method, double *lo,
                                 double *hi)
{
    int rc;
    if ((rc = tally__sample_range(lo, hi, x, n)) != TALLY_OK)
        return rc;
    if (count == 0)
        return TALLY_OK;
    if (!out || !p)
        return tally__error(TALLY_EINVAL, "percentile output or input pointer is NULL");
    if (method != TALLY_PERCENTILE_LINEAR && method != TALLY_PERCENTILE_NEAREST_RANK)
        return tally__error(TALLY_EINVAL, "unknown percentile method %d", (int)method);
    for (size_t i = 0; i < count; i++)
        if (!(p[i] >= 0 && p[i] <= 100))
            return tally__error(TALLY_EINVAL, "percentile %g is outside [0, 100]", p[i]);
    if (count > SIZE_MAX / (2 * sizeof(size_t)))
        return tally__error(TALLY_ENOMEM, "too many percentiles (%zu)", count);
    return TALLY_OK;
}

/* The percentiles of x; `inplace` is x itself for the in-place call (which may then reorder
 * it), NULL for the copying one. */
static int percentiles_of(double *out, const double *x, double *inplace, size_t n, const double *p,
                          size_t count, tally_percentile_method method)
{
    double lo, hi, *mapped;
    int rc = check_percentile_args(out, x, n, p, count, method, &lo, &hi);
    if (rc != TALLY_OK || count == 0)
        return rc;
    size_t *ranks = tally__malloc(2 * count * sizeof *ranks), nranks = 0;
    double *values = tally__malloc(2 * count * sizeof *values);
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    tally__scratch scratch;

    if (!ranks || !values) {
        tally__free_mem(ranks);
        tally__free_mem(values);
        return tally__error(TALLY_ENOMEM, "out of memory for %zu percentiles", count);
    }
    for (size_t i = 0; i < count; i++)
        nranks += tally__percentile_ranks(ranks + nranks, n, p[i], method);
    tally__scratch_init(&scratch, inplace);
    rc = tally__order_stats(values, x, n, ranks, nranks, &identity, lo, hi, &scratch, &mapped);
    for (size_t i = 0, k = 0; rc == TALLY_OK && i < count; i++) {
        out[i] = tally__percentile_from(values + k, n, p[i], method);
        k += tally__percentile_ranks(ranks, n, p[i], method);
    }
    tally__scratch_free(&scratch);
    tally__free_mem(ranks);
    tally__free_mem(values);
    return rc;
}

int tally_percentiles(double *out, const double *x, size_t n, const double *p, size_t count,
                      tally_percentile_method method)
{
    return percentiles_of(out, x, NULL, n, p, count, method);
}

int tally_percentiles_inplace(double *out, double *x, size_t n, const double *p, size_t count,
                              tally_percentile_method method)
{
    return percentiles_of(out, x, x, n, p, count, method);
}
