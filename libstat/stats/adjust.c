/*
 * Multiple-comparison adjustment of p-values, as R's p.adjust():
 *   Holm, S. (1979), "A simple sequentially rejective multiple test procedure", Scand. J.
 *     Statist. 6, 65-70: sorted ascending, p_(i) * (m - i + 1), running maximum, capped at 1.
 *   Benjamini, Y. & Hochberg, Y. (1995), "Controlling the false discovery rate", J. R. Statist.
 *     Soc. B 57, 289-300: sorted descending, p_(i) * m / i, running minimum, capped at 1.
 * Results go back to the input order.
 */
#include <math.h>
#include <stdlib.h>

#include "util/internal.h"

typedef struct indexed {
    double p;
    size_t index;
} indexed;

/* Ascending p; equal p-values keep their input order, so the result does not depend on the
 * sort's stability (the running max/min make equal inputs equal outputs anyway). */
static int ascending(const void *l, const void *r)
{
    const indexed *x = l, *y = r;
    if (x->p != y->p)
        return (x->p > y->p) - (x->p < y->p);
    return (x->index > y->index) - (x->index < y->index);
}

static void holm(double *out, const indexed *s, size_t m)
{
    double running = 0;
    for (size_t i = 0; i < m; i++) {
        double v = fmin(1.0, (double)(m - i) * s[i].p);
        running = fmax(running, v);
        out[s[i].index] = running;
    }
}

static void benjamini_hochberg(double *out, const indexed *s, size_t m)
{
    double running = 1;
    for (size_t i = m; i-- > 0;) {
        double v = fmin(1.0, (double)m / (double)(i + 1) * s[i].p);
        running = fmin(running, v);
        out[s[i].index] = running;
    }
}

int tally_adjust_pvalues(double *out, const double *p, size_t count, tally_adjust method)
{
    if ((out == NULL || p == NULL) && count)
        return tally__error(TALLY_EINVAL, "p-value adjustment: NULL argument");
    if (method != TALLY_ADJUST_NONE && method != TALLY_ADJUST_HOLM && method != TALLY_ADJUST_BH)
        return tally__error(TALLY_EINVAL, "p-value adjustment: unknown method %d", (int)method);
    for (size_t i = 0; i < count; i++)
        if (!(p[i] >= 0 && p[i] <= 1))
            return tally__error(TALLY_EINVAL, "p-value adjustment: p-value %zu is %g, not in "
                                              "[0, 1]", i, p[i]);
    if (count == 0)
        return TALLY_OK;
    if (method == TALLY_ADJUST_NONE) {
        for (size_t i = 0; i < count; i++)
            out[i] = p[i];
        return TALLY_OK;
    }
    indexed *s = tally__reallocarray(NULL, count, sizeof(*s));
    if (s == NULL)
        return tally__error(TALLY_ENOMEM, "p-value adjustment: out of memory for %zu values",
                            count);
    for (size_t i = 0; i < count; i++)
        s[i] = (indexed){ p[i], i };
    qsort(s, count, sizeof(*s), ascending);
    if (method == TALLY_ADJUST_HOLM)
        holm(out, s, count);
    else
        benjamini_hochberg(out, s, count);
    tally__free_mem(s);
    return TALLY_OK;
}
