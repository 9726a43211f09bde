/*
 * Multiple-comparison adjustment of p-values, as R's p.adjust():
 *   Holm, S. (1979), "A simple sequentially rejective multiple test procedure", Scand. J.
 *     Statist. 6, 65-70: sorted ascending, p_(i) * (m - i + 1), running maximum, capped at 1.
 *   Benjamini, Y. & Hochberg, Y. (1995), "Controlling the false discovery rate", J. R. Statist.
 *     Soc. B 57, 289-300: sorted descending, p_(i) * m / i, running minimum, capped at 1.
 *   Bonferroni: p * m, capped at 1.
 * Results go back to the input order.
 *
 * tally__adjust_levels gives each test the level its interval must have to agree with the
 * adjusted verdict (docs/statistics.md, "Adjusted intervals"): Bonferroni alpha / m; Holm the
 * level of the step that rejected it, alpha / (m - k + 1), and for the tests it kept the level of
 * the step where it stopped (Strassburger & Bretz 2008 discuss why these are not simultaneous
 * intervals; only the Bonferroni level is); BH the false-coverage-rate level R alpha / m of
 * Benjamini & Yekutieli (2005), R the number of rejections (1 when none).
 */
#include <math.h>
#include <stdlib.h>

#include "stats/compare_impl.h"
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

static void bonferroni(double *out, const indexed *s, size_t m)
{
    for (size_t i = 0; i < m; i++)
        out[s[i].index] = fmin(1.0, (double)m * s[i].p);
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

/* The arguments checked and the p-values sorted (*sorted NULL when count is 0). */
static int sorted_pvalues(indexed **sorted, const double *out, const double *p, size_t count,
                          tally_adjust method)
{
    *sorted = NULL;
    if ((out == NULL || p == NULL) && count)
        return tally__error(TALLY_EINVAL, "p-value adjustment: NULL argument");
    if (method != TALLY_ADJUST_NONE && method != TALLY_ADJUST_HOLM &&
        method != TALLY_ADJUST_BH && method != TALLY_ADJUST_BONFERRONI)
        return tally__error(TALLY_EINVAL, "p-value adjustment: unknown method %d", (int)method);
    for (size_t i = 0; i < count; i++)
        if (!(p[i] >= 0 && p[i] <= 1))
            return tally__error(TALLY_EINVAL, "p-value adjustment: p-value %zu is %g, not in "
                                              "[0, 1]", i, p[i]);
    if (count == 0)
        return TALLY_OK;
    indexed *s = tally__reallocarray(NULL, count, sizeof(*s));
    if (s == NULL)
        return tally__error(TALLY_ENOMEM, "p-value adjustment: out of memory for %zu values",
                            count);
    for (size_t i = 0; i < count; i++)
        s[i] = (indexed){ p[i], i };
    qsort(s, count, sizeof(*s), ascending);
    *sorted = s;
    return TALLY_OK;
}

int tally_adjust_pvalues(double *out, const double *p, size_t count, tally_adjust method)
{
    indexed *s;
    int rc = sorted_pvalues(&s, out, p, count, method);
    if (rc || count == 0)
        return rc;
    if (method == TALLY_ADJUST_HOLM)
        holm(out, s, count);
    else if (method == TALLY_ADJUST_BH)
        benjamini_hochberg(out, s, count);
    else if (method == TALLY_ADJUST_BONFERRONI)
        bonferroni(out, s, count);
    else
        for (size_t i = 0; i < count; i++)
            out[i] = p[i];
    tally__free_mem(s);
    return TALLY_OK;
}

/* The products are the ones tally_adjust_pvalues forms, so that "rejected here" is exactly
 * "adjusted p < alpha" there. */
int tally__adjust_levels(double *levels, const double *p, size_t count, tally_adjust method,
                         double alpha)
{
    indexed *s;
    int rc = sorted_pvalues(&s, levels, p, count, method);
    if (rc || count == 0)
        return rc;
    double m = (double)count;
    if (method == TALLY_ADJUST_HOLM) {
        size_t stop = 0; /* the first step that keeps its hypothesis */
        while (stop < count && (m - (double)stop) * s[stop].p < alpha)
            stop++;
        for (size_t i = 0; i < count; i++)
            levels[s[i].index] = alpha / (m - (double)(i < stop ? i : stop));
    } else if (method == TALLY_ADJUST_BH) {
        size_t rejected = 0;
        for (size_t i = count; i-- > 0;)
            if (m / (double)(i + 1) * s[i].p < alpha) {
                rejected = i + 1;
                break;
            }
        for (size_t i = 0; i < count; i++)
            levels[i] = (double)(rejected ? rejected : 1) * alpha / m;
    } else {
        for (size_t i = 0; i < count; i++)
            levels[i] = method == TALLY_ADJUST_BONFERRONI ? alpha / m : alpha;
    }
    tally__free_mem(s);
    return TALLY_OK;
}
