/* Distribution-free confidence interval of the median from order statistics: the percentile
 * interval of quantile.c at p = 50. The number of samples below the population median is
 * Binomial(n, 1/2), so [x_(k), x_(n-k+1)] (1-based) covers the median with probability
 * 1 - 2 P(B <= k - 1), whatever the distribution; the equal-tailed pair is this symmetric one.
 * This is the interval benchstat reports. */
#include <math.h>

#include "util/internal.h"
#include "stats/quantile.h"
#include "stats/stats_internal.h"

int tally__median_ci_ranks(size_t *lo, size_t *hi, double *level, size_t n, double confidence)
{
    uint64_t l, h;
    if (!tally__percentile_ci_ranks(&l, &h, level, n, 50, confidence))
        return 0;
    *lo = (size_t)l;
    *hi = (size_t)h;
    return 1;
}

size_t tally__median_ci_min_n(double confidence)
{
    /* The widest interval [x_(1), x_(n)] covers with 1 - 2^(1-n). */
    size_t n = 2;
    while (n < 1100 && 1.0 - ldexp(1.0, 1 - (int)n) < confidence)
        n++;
    return n;
}
