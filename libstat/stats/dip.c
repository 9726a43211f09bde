/* Hartigan's dip statistic of unimodality (Hartigan & Hartigan 1985, Ann. Statist. 13, 70-84;
 * the computation of P. M. Hartigan 1985, Applied Statistics 34, 320-325, AS 217, with the
 * corrections documented by Maechler's R package diptest since 0.25), and its p-value from a
 * table of the dip's null distribution under the uniform law, the least favourable unimodal
 * distribution (docs/statistics.md, "Diagnostics").
 *
 * The dip is the largest distance between the empirical CDF and the closest unimodal CDF. The
 * algorithm narrows a candidate modal interval [low, high]: outside it the closest unimodal CDF
 * is the greatest convex minorant (left) and least concave majorant (right) of the empirical
 * CDF; each round finds where these two hulls are farthest apart, shrinks the interval to that
 * place and keeps the largest hull-to-CDF distance met outside it. Every step is integer index
 * arithmetic on the sorted sample (distances are counted in units of 1/n and halved at the end),
 * so the result does not depend on the data's scale. */
#include <math.h>
#include <stdlib.h>

#include "stats/diag_internal.h"
#include "stats/dip_table.h"
#include "util/internal.h"

/* Indices of the convex-minorant predecessor (mn) and concave-majorant successor (mj) of every
 * point: mn[j] is the previous vertex of the greatest convex minorant of points 0..j, mj[k] the
 * next vertex of the least concave majorant of points k..n-1. The vertices of the hull so far
 * are kept on a stack (room for n): AS 217 walks the same chain through the links themselves,
 * mn[j - 1], mn[mn[j - 1]], ..., which are the stack's entries from the top, so the same tests
 * pop the same vertices; the stack spares each test the wait on the load of the next link. */
static void hull_links(size_t *mn, size_t *mj, size_t *stack, const double *x, size_t n)
{
    size_t top = 1; /* entries stack[0..top) */
    mn[0] = 0;
    stack[0] = 0;
    for (size_t j = 1; j < n; j++) {
        stack[top++] = j - 1;
        for (;;) {
            size_t a = stack[top - 1];
            /* Keep a when the slope from b to a is below the slope from a to j (convexity). */
            if (a == 0)
                break;
            size_t b = stack[top - 2];
            if ((x[j] - x[a]) * (double)(a - b) < (x[a] - x[b]) * (double)(j - a))
                break;
            top--;
        }
        mn[j] = stack[top - 1];
    }
    top = 1;
    mj[n - 1] = n - 1;
    stack[0] = n - 1;
    for (size_t k = n - 1; k-- > 0;) {
        stack[top++] = k + 1;
        for (;;) {
            size_t a = stack[top - 1];
            /* Both index differences are negative here: the same test as the minorant's,
             * mirrored. */
            if (a == n - 1)
                break;
            size_t b = stack[top - 2];
            if ((x[k] - x[a]) * ((double)a - (double)b) < (x[a] - x[b]) * ((double)k - (double)a))
                break;
            top--;
        }
        mj[k] = stack[top - 1];
    }
}

int tally__dip(double *out, size_t *modal_lo, size_t *modal_hi, const double *x, size_t n)
{
    *out = n ? 0.5 / (double)n : 0;
    if (modal_lo)
        *modal_lo = 0;
    if (modal_hi)
        *modal_hi = n ? n - 1 : 0;
    if (n < 4 || x[0] == x[n - 1])
        return TALLY_OK; /* the minimum 1/(2n): no dip can be seen */

    size_t *mn = tally__reallocarray(NULL, n, sizeof *mn);
    size_t *mj = tally__reallocarray(NULL, n, sizeof *mj);
    size_t *gcm = tally__reallocarray(NULL, n + 1, sizeof *gcm);
    size_t *lcm = tally__reallocarray(NULL, n + 1, sizeof *lcm);
    if (!mn || !mj || !gcm || !lcm) {
        tally__free_mem(mn), tally__free_mem(mj), tally__free_mem(gcm), tally__free_mem(lcm);
        return tally__error(TALLY_ENOMEM, "dip test: out of memory for %zu samples", n);
    }
    hull_links(mn, mj, gcm, x, n); /* gcm: the stack, filled afresh below */

    /* dip counts in units of 1/n; the minimum is 1 (the dip of any sample is >= 1/(2n)). */
    double dip = 1.0;
    size_t low = 0, high = n - 1;
    for (;;) {
        /* Vertices of the convex minorant on [low, high], from high down to low (gcm[1..lg]),
         * and of the concave majorant, from low up to high (lcm[1..ll]). */
        size_t lg = 1, ll = 1;
        gcm[1] = high;
        while (gcm[lg] > low) {
            gcm[lg + 1] = mn[gcm[lg]];
            lg++;
        }
        lcm[1] = low;
        while (lcm[ll] < high) {
            lcm[ll + 1] = mj[lcm[ll]];
            ll++;
        }
        /* The largest distance d between the two hulls, at their vertices; ig and ih are the
         * hull positions where it occurs. */
        size_t ig = lg, ih = ll;
        double d = 0;
        if (lg != 2 || ll != 2) {
            size_t ix = lg - 1, iv = 2;
            do {
                size_t gx = gcm[ix], lv = lcm[iv];
                if (gx > lv) {
                    size_t g1 = gcm[ix + 1];
                    double dx = ((double)lv - (double)g1 + 1) -
                                (x[lv] - x[g1]) * (double)(gx - g1) / (x[gx] - x[g1]);
                    iv++;
                    if (dx >= d) {
                        d = dx;
                        ig = ix + 1;
                        ih = iv - 1;
                    }
                } else {
                    size_t l1 = lcm[iv - 1];
                    double dx = (x[gx] - x[l1]) * (double)(lv - l1) / (x[lv] - x[l1]) -
                                ((double)gx - (double)l1 - 1);
                    ix--;
                    if (dx >= d) {
                        d = dx;
                        ig = ix + 1;
                        ih = iv;
                    }
                }
                if (ix < 1)
                    ix = 1;
                if (iv > ll)
                    iv = ll;
            } while (gcm[ix] != lcm[iv]);
        } else {
            d = 1.0;
        }
        if (d < dip)
            break;
        /* The hull-to-CDF distances outside the new modal interval: left of it against the
         * convex minorant, right of it against the concave majorant. */
        double dip_l = 0, dip_u = 0;
        for (size_t j = ig; j < lg; j++) {
            double t_max = 1;
            size_t jb = gcm[j + 1], je = gcm[j];
            if (je - jb > 1 && x[je] != x[jb]) {
                double c = (double)(je - jb) / (x[je] - x[jb]);
                for (size_t jj = jb; jj <= je; jj++) {
                    double t = (double)(jj - jb + 1) - (x[jj] - x[jb]) * c;
                    if (t > t_max)
                        t_max = t;
                }
            }
            if (t_max > dip_l)
                dip_l = t_max;
        }
        for (size_t j = ih; j < ll; j++) {
            double t_max = 1;
            size_t jb = lcm[j], je = lcm[j + 1];
            if (je - jb > 1 && x[je] != x[jb]) {
                double c = (double)(je - jb) / (x[je] - x[jb]);
                for (size_t jj = jb; jj <= je; jj++) {
                    double t = (x[jj] - x[jb]) * c - (double)(jj - jb - 1);
                    if (t > t_max)
                        t_max = t;
                }
            }
            if (t_max > dip_u)
                dip_u = t_max;
        }
        double dip_new = dip_l > dip_u ? dip_l : dip_u;
        if (dip_new > dip)
            dip = dip_new;
        if (low == gcm[ig] && high == lcm[ih])
            break; /* the interval cannot shrink further */
        low = gcm[ig];
        high = lcm[ih];
    }
    if (modal_lo)
        *modal_lo = low;
    if (modal_hi)
        *modal_hi = high;
    tally__free_mem(mn), tally__free_mem(mj), tally__free_mem(gcm), tally__free_mem(lcm);
    *out = dip / (2.0 * (double)n);
    return TALLY_OK;
}

/* The row of quantiles for n: linear interpolation in 1/sqrt(n) between the table's rows; past
 * the last row, toward a limit row extrapolated linearly in 1/sqrt(n) from the last two (the
 * quantiles of sqrt(n) D_n still grow slowly with n, so holding the last row would make the test
 * a little too eager; the extrapolated limit lies above the simulated values of larger n). */
static void quantiles_for(double q[TALLY__DIP_LEVEL_COUNT], size_t n)
{
    const size_t rows = TALLY__COUNT(tally__dip_table);
    const tally__dip_row *lo = &tally__dip_table[0], *hi = lo;
    double w = 0;
    if (n <= lo->n) {
        hi = lo;
    } else if (n >= tally__dip_table[rows - 1].n) {
        const tally__dip_row *a = &tally__dip_table[rows - 2], *b = &tally__dip_table[rows - 1];
        double ua = 1 / sqrt((double)a->n), ub = 1 / sqrt((double)b->n), u = 1 / sqrt((double)n);
        for (size_t l = 0; l < TALLY__DIP_LEVEL_COUNT; l++) {
            double limit = b->q[l] + (b->q[l] - a->q[l]) * ub / (ua - ub);
            q[l] = limit + (b->q[l] - limit) * u / ub;
        }
        return;
    } else {
        size_t i = 1;
        while (tally__dip_table[i].n < n)
            i++;
        lo = &tally__dip_table[i - 1];
        hi = &tally__dip_table[i];
        double ul = 1 / sqrt((double)lo->n), uh = 1 / sqrt((double)hi->n), u = 1 / sqrt((double)n);
        w = (ul - u) / (ul - uh);
    }
    for (size_t l = 0; l < TALLY__DIP_LEVEL_COUNT; l++)
        q[l] = lo->q[l] + w * (hi->q[l] - lo->q[l]);
}

double tally__dip_pvalue(double dip, size_t n)
{
    static const double levels[] = TALLY__DIP_LEVELS;
    if (n < 4)
        return 1;
    double q[TALLY__DIP_LEVEL_COUNT];
    quantiles_for(q, n);
    double v = sqrt((double)n) * dip;
    /* Below the median: linear between the smallest possible dip (1/(2n), p = 1) and the median. */
    if (v <= q[0]) {
        double vmin = 0.5 / sqrt((double)n);
        if (v <= vmin || q[0] <= vmin)
            return 1;
        return 1 - 0.5 * (v - vmin) / (q[0] - vmin);
    }
    /* Between tabulated levels: linear in log p. */
    for (size_t l = 1; l < TALLY__DIP_LEVEL_COUNT; l++) {
        if (v <= q[l]) {
            double t = (v - q[l - 1]) / (q[l] - q[l - 1]);
            return exp(log(levels[l - 1]) + t * (log(levels[l]) - log(levels[l - 1])));
        }
    }
    /* Beyond the last level: the same log-linear decay as between the last two levels. */
    const size_t last = TALLY__DIP_LEVEL_COUNT - 1;
    double rate = (log(levels[last - 1]) - log(levels[last])) / (q[last] - q[last - 1]);
    return levels[last] * exp(-rate * (v - q[last]));
}
