/* Geometric mean of per-row ratios, the summary line of a comparison (docs/statistics.md). */
#include <math.h>

#include "util/internal.h"

int tally_geomean_ratio(double *out, const double *ratios, size_t count)
{
    if (out == NULL || (ratios == NULL && count))
        return tally__error(TALLY_EINVAL, "geometric mean of ratios: NULL argument");
    if (count == 0)
        return tally__error(TALLY_ENODATA, "geometric mean of ratios: no paired rows");
    for (size_t i = 0; i < count; i++) {
        if (!isfinite(ratios[i]))
            return tally__error(TALLY_ENONFINITE, "geometric mean of ratios: ratio %zu is not "
                                                  "finite", i);
        if (!(ratios[i] > 0))
            return tally__error(TALLY_EDOMAIN, "geometric mean of ratios: ratio %zu is %g, not "
                                               "positive", i, ratios[i]);
    }
    /* The same definition as GMean of samples, exp(mean(log x)): one implementation. */
    return tally_gmean(out, ratios, count);
}
