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

/* The best `count` samples are those strictly better than the cut (the count-th best value) and
 * as many copies of the cut as make up the rest (ties), so one pass over the samples in any
 * order sums them: no sample moves. Compensated and overflow-scaled like tally__mean, clamped
 * to [best sample, cut]. */
double tally__bamean_from_cut(const double *x, size_t n, size_t count, double cut, double min,
                              double max, tally_direction direction)
{
    double s = tally__overflow_scale(fmax(fabs(min), fabs(max)));
    /* Lower is better: the samples below the cut; higher is better: those above it, which are
     * the ones whose negation is below the negated cut. Branch-free: a sample that is not
     * better adds an exact 0, which leaves the compensated sum unchanged. */
    double sign = direction == TALLY_HIGHER_IS_BETTER ? -1.0 : 1.0, key_cut = sign * cut;
    size_t better = 0;
    tally__ksum k = { 0.0, 0.0 };
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        int in = sign * v < key_cut;
        better += (size_t)in;
        tally__ksum_add(&k, v * s * (double)in);
    }
    double ties = (double)(count - better) * (cut * s);
    tally__ksum_add(&k, ties);
    double mean = tally__ksum_value(&k) / (double)count / s;
    /* The best sample bounds the mean from the other side (the cut itself when none is better). */
    if (direction == TALLY_HIGHER_IS_BETTER)
        return tally__clamp(mean, cut, better ? max : cut);
    return tally__clamp(mean, better ? min : cut, cut);
}
