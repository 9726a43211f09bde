/* BAmean-N as mmtests reports it: the samples are ordered best first (ascending when lower is
 * better, descending when higher is better), the first floor(n * N / 100) of them (at least one)
 * are kept and averaged. Selection puts the best ones at one end of the array without sorting. */
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

/* Several cuts from one copy and one multiselect: every cut's rank is selected in the same
 * partitioning, after which the best `count` samples of each cut sit at the same end of the copy
 * as they would after selecting that rank alone (the same multiset, ties included), and
 * tally__bamean_value averages them exactly as the summary does. */
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
    double *work = tally__reallocarray(NULL, n, sizeof(double));
    size_t *ranks = tally__reallocarray(NULL, count, sizeof(size_t));
    if (work == NULL || ranks == NULL) {
        tally__free_mem(work);
        tally__free_mem(ranks);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    memcpy(work, x, n * sizeof(double));
    for (size_t k = 0; k < count; k++)
        ranks[k] = tally__bamean_rank(n, tally__bamean_count(n, percents[k]), direction);
    tally__select_ranks(work, n, ranks, count);
    for (size_t k = 0; k < count; k++)
        out[k] = tally__bamean_value(work, n, tally__bamean_count(n, percents[k]), direction);
    tally__free_mem(work);
    tally__free_mem(ranks);
    return TALLY_OK;
}
