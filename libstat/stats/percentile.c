/* Percentiles of unsorted samples by selection (the ranks and the interpolation of Hyndman &
 * Fan's definitions 7 and 1 are quantile.c's), and the public entry points of the weighted
 * quantile core. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "stats/quantile.h"
#include "stats/select.h"
#include "stats/stats_internal.h"

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
    if (method != TALLY_PERCENTILE_LINEAR && method != TALLY_PERCENTILE_NEAREST_RANK &&
        method != TALLY_PERCENTILE_HARRELL_DAVIS)
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
    if (method == TALLY_PERCENTILE_HARRELL_DAVIS) {
        /* Every order statistic carries weight: a sorted copy, whatever the caller's call. */
        tally__wsample s;
        double *sorted;
        rc = tally__wsample_sorted_copy(&s, &sorted, x, n);
        for (size_t i = 0; rc == TALLY_OK && i < count; i++)
            rc = tally__wsample_percentile(&out[i], &s, p[i], method);
        tally__wsample_free(&s);
        tally__free_mem(sorted);
        return rc;
    }
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

int tally_weighted_percentiles(double *out, const double *values, const uint64_t *counts,
                               size_t len, const double *p, size_t count,
                               tally_percentile_method method)
{
    tally__wsample s;
    if (count > 0 && (!out || !p))
        return tally__error(TALLY_EINVAL, "percentile output or input pointer is NULL");
    int rc = tally__wsample_init(&s, values, counts, len);
    for (size_t i = 0; rc == TALLY_OK && i < count; i++)
        rc = tally__wsample_percentile(&out[i], &s, p[i], method);
    tally__wsample_free(&s);
    return rc;
}

int tally_percentile_interval(double *low, double *high, double *level, const double *values,
                              const uint64_t *counts, size_t len, double p, double confidence)
{
    tally__wsample s;
    if (!low || !high || !level)
        return tally__error(TALLY_EINVAL, "percentile interval output pointer is NULL");
    if (!(p > 0 && p < 100))
        return tally__error(TALLY_EINVAL, "percentile %g is outside (0, 100)", p);
    if (!(confidence > 0 && confidence < 1))
        return tally__error(TALLY_EINVAL, "confidence %g must lie in (0, 1)", confidence);
    int rc = tally__wsample_init(&s, values, counts, len);
    if (rc == TALLY_OK && !tally__wsample_percentile_ci(low, high, level, &s, p, confidence)) {
        uint64_t need = tally__percentile_ci_min_n(p, confidence);
        rc = tally__error(TALLY_ENODATA, "%llu values cannot bound the %g-th percentile at %g %%: "
                                         "that needs at least %llu",
                          (unsigned long long)s.n, p, 100 * confidence, (unsigned long long)need);
    }
    tally__wsample_free(&s);
    return rc;
}
