/* BAmean-N as mmtests reports it: the samples are ordered best first (ascending when lower is
 * better, descending when higher is better), the first floor(n * N / 100) of them (at least one)
 * are kept and averaged. Selection puts the best ones at one end of the array without sorting. */
#include <math.h>

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
