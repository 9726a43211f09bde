/* Ratio and percent improvement of a new value over a baseline (docs/statistics.md). */
#include <math.h>

#include "util/internal.h"

int tally_pct_imp(double *out, double base, double current, tally_direction direction)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "pct-imp: NULL output");
    if (direction != TALLY_LOWER_IS_BETTER && direction != TALLY_HIGHER_IS_BETTER)
        return tally__error(TALLY_EINVAL, "pct-imp: unknown direction %d", (int)direction);
    if (!isfinite(base) || !isfinite(current))
        return tally__error(TALLY_ENONFINITE, "pct-imp: base %g or new value %g is not finite",
                            base, current);
    if (base == 0)
        return tally__error(TALLY_EDOMAIN, "pct-imp: the baseline value is 0, so no ratio exists");
    double ratio = current / base;
    if (!isfinite(ratio))
        return tally__error(TALLY_ENONFINITE, "pct-imp: %g / %g overflows", current, base);
    /* Positive means better either way: a smaller time or a larger rate. */
    *out = direction == TALLY_LOWER_IS_BETTER ? (1 - ratio) * 100 : (ratio - 1) * 100;
    return TALLY_OK;
}
