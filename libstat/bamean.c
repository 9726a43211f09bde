/* BAmean-N as mmtests reports it: the samples are ordered best first (ascending when lower is
 * better, descending when higher is better), the first floor(n * N / 100) of them (at least one)
 * are kept and averaged: those better than the cut (the count-th best, found by selection) and
 * enough copies of the cut itself. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "select.h"
#include "stats_internal.h"

size_t tally__bamean_count(size_t n, double percent)
{
    double c = floor((double)n * percent / 100.0);
    if (c < 1)
        return 1;
    if (c > (double)n)
        return n;
    return (size_t)c;
}

size_t tally__bamean_rank(size_t n, size_t count, tally_direction direction)
{
    return direction == TALLY_HIGHER_IS_BETTER ? n - count : count - 1;
}

double tally__bamean_value(const double *x, size_t n, size_t count, tally_direction direction)
{
    const double *best = direction == TALLY_HIGHER_IS_BETTER ? x + (n - count) : x;
    return tally__mean(best, count);
}

/* The best `count` samples are those strictly better than the cut (the count-th best value) and
 * as many copies of the cut as make up the rest (ties), so one pass over the samples in any
 * order sums them: no sample moves. Compensated and overflow-scaled like tally__mean, clamped
 * to [best sample, cut]. */
double tally__bamean_from_cut(const double *x, size_t n, size_t count, double cut,
                              double maxabs, tally_direction direction)
{
    double s = tally__overflow_scale(maxabs), best = cut;
    size_t better = 0;
    tally__ksum k = { 0.0, 0.0 };
    int higher = direction == TALLY_HIGHER_IS_BETTER;
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        if (higher ? v > cut : v < cut) {
            tally__ksum_add(&k, v * s);
            better++;
            best = (higher ? v > best : v < best) ? v : best;
        }
    }
    double ties = (double)(count - better) * (cut * s);
    tally__ksum_add(&k, ties);
    double mean = tally__ksum_value(&k) / (double)count / s;
    return higher ? tally__clamp(mean, cut, best) : tally__clamp(mean, best, cut);
}

/* Several cuts: every cut's rank comes from one selection, then one pass per cut. */
int tally__bamean_many(double *out, const double *x, size_t n, const double *percents,
                       size_t count, tally_direction direction)
{
    if (count == 0)
        return TALLY_OK;
    if (out == NULL || x == NULL || percents == NULL || n == 0)
        return tally__error(TALLY_EINVAL, "BAmean: NULL argument or no samples");
    for (size_t k = 0; k < count; k++)
        if (!(percents[k] > 0 && percents[k] <= 100))
            return tally__error(TALLY_EINVAL, "BAmean percentage %g must lie in (0, 100]",
                                percents[k]);
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    size_t *ranks = tally__reallocarray(NULL, count, sizeof(size_t));
    double *cuts = tally__reallocarray(NULL, count, sizeof(double)), *mapped, lo, hi;
    tally__scratch scratch;
    int rc;
    if (ranks == NULL || cuts == NULL) {
        tally__free_mem(ranks);
        tally__free_mem(cuts);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    if ((rc = tally__sample_range(&lo, &hi, x, n)) != TALLY_OK) {
        tally__free_mem(ranks);
        tally__free_mem(cuts);
        return rc;
    }
    for (size_t k = 0; k < count; k++)
        ranks[k] = tally__bamean_rank(n, tally__bamean_count(n, percents[k]), direction);
    tally__scratch_init(&scratch, NULL);
    rc = tally__order_stats(cuts, x, n, ranks, count, &identity, lo, hi, &scratch, &mapped);
    for (size_t k = 0; rc == TALLY_OK && k < count; k++)
        out[k] = tally__bamean_from_cut(mapped ? mapped : x, n, tally__bamean_count(n, percents[k]), cuts[k],
                                        fmax(fabs(lo), fabs(hi)), direction);
    tally__scratch_free(&scratch);
    tally__free_mem(ranks);
    tally__free_mem(cuts);
    return rc;
}
