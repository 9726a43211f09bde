/* BAmean-N as mmtests reports it: the samples are ordered best first (ascending when lower is
 * better, descending when higher is better), the first floor(n * N / 100) of them (at least one)
 * are kept and averaged: those better than the cut (the count-th best, found by selection) and
 * enough copies of the cut itself. */
#include <math.h>
#include <string.h>

#include "util/internal.h"
#include "stats/select.h"
#include "stats/stats_internal.h"

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
 * to [best sample, cut]. Lower is better: the samples below the cut; higher is better: those
 * above it, the ones whose negation is below the negated cut. Branch-free: a sample that is not
 * better adds an exact 0. Three cuts share a pass, in three independent sums (a cut not asked
 * for is -inf, which nothing is below). */
#define CUTS_PER_PASS 3
#define BLOCK 256

/* ncuts (1 to 3) is a constant in each copy (scan_three): a summary asks for one cut, and the
 * sums and counts of cuts nobody asked for would cost as much as the one that was. */
TALLY__SPECIALISED void scan_cuts(size_t *better_out, tally__ksum *sums, const double *x,
                                  size_t n, const double *cuts, size_t ncuts, double s,
                                  tally_direction direction)
{
    double sign = direction == TALLY_HIGHER_IS_BETTER ? -1.0 : 1.0;
    double key0 = sign * cuts[0], key1 = ncuts > 1 ? sign * cuts[1] : -INFINITY,
           key2 = ncuts > 2 ? sign * cuts[2] : -INFINITY;
    size_t better[CUTS_PER_PASS] = { 0, 0, 0 };
    tally__ksum k0 = { 0.0, 0.0 }, k1 = { 0.0, 0.0 }, k2 = { 0.0, 0.0 };
    /* Blocks of BLOCK samples are summed plainly (three independent chains, no compensation
     * in the inner loop) and each block's sums then enter the compensated totals: the error is
     * that of BLOCK plain additions, about 1e-13 relative at worst, far below what BAmean is
     * shown with, for a third of the work. */
    for (size_t at = 0; at < n; at += BLOCK) {
        size_t end = n - at < BLOCK ? n : at + BLOCK;
        double b0 = 0.0, b1 = 0.0, b2 = 0.0;
        for (size_t i = at; i < end; i++) {
            double v = x[i], key = sign * v, vs = v * s;
            int in0 = key < key0;
            better[0] += (size_t)in0;
            b0 += vs * (double)in0;
            if (ncuts > 1) {
                int in1 = key < key1;
                better[1] += (size_t)in1;
                b1 += vs * (double)in1;
            }
            if (ncuts > 2) {
                int in2 = key < key2;
                better[2] += (size_t)in2;
                b2 += vs * (double)in2;
            }
        }
        tally__ksum_add(&k0, b0);
        tally__ksum_add(&k1, b1);
        tally__ksum_add(&k2, b2);
    }
    tally__ksum all[CUTS_PER_PASS] = { k0, k1, k2 };
    for (size_t j = 0; j < ncuts; j++) {
        better_out[j] = better[j];
        sums[j] = all[j];
    }
}

#if TALLY__V2D
/* scan_cuts with the cuts in the lanes of two vectors (cuts 0 and 1, cut 2 and none): each lane
 * sums its cut's samples in the same order as scan_cuts' chain, so the sums are bit for bit its
 * own. A sample that is not better adds +0.0 where scan_cuts adds v * s * 0.0, which may be
 * -0.0: the same sum either way, since a block's sum starts at +0.0 and no addition of finite
 * values that do not both are -0.0 gives -0.0. The counts subtract the comparison's all-ones
 * mask (-1). Half the instructions of the scalar chains, no int-to-double conversion. */
TALLY__SPECIALISED void scan_cuts_v2(size_t *better_out, tally__ksum *sums, const double *x,
                                     size_t n, const double *cuts, size_t ncuts, double s,
                                     tally_direction direction, int third)
{
    double sign = direction == TALLY_HIGHER_IS_BETTER ? -1.0 : 1.0;
    const tally__v2d key01 = { sign * cuts[0], ncuts > 1 ? sign * cuts[1] : -INFINITY };
    const tally__v2d key2 = { ncuts > 2 ? sign * cuts[2] : -INFINITY, -INFINITY };
    tally__v2i count01 = { 0, 0 }, count2 = { 0, 0 };
    tally__ksum k0 = { 0.0, 0.0 }, k1 = { 0.0, 0.0 }, k2 = { 0.0, 0.0 };
    for (size_t at = 0; at < n; at += BLOCK) {
        size_t end = n - at < BLOCK ? n : at + BLOCK;
        tally__v2d b01 = { 0.0, 0.0 }, b2 = { 0.0, 0.0 };
        for (size_t i = at; i < end; i++) {
            double v = x[i];
            tally__v2d key = tally__v2d_splat(sign * v), vs = tally__v2d_splat(v * s);
            tally__v2i in01 = (tally__v2i)(key < key01);
            count01 -= in01;
            b01 += (tally__v2d)(in01 & (tally__v2i)vs);
            if (third) { /* a constant in each copy */
                tally__v2i in2 = (tally__v2i)(key < key2);
                count2 -= in2;
                b2 += (tally__v2d)(in2 & (tally__v2i)vs);
            }
        }
        tally__ksum_add(&k0, b01[0]);
        tally__ksum_add(&k1, b01[1]);
        tally__ksum_add(&k2, b2[0]);
    }
    size_t better[CUTS_PER_PASS] = { (size_t)count01[0], (size_t)count01[1], (size_t)count2[0] };
    tally__ksum all[CUTS_PER_PASS] = { k0, k1, k2 };
    for (size_t j = 0; j < ncuts; j++) {
        better_out[j] = better[j];
        sums[j] = all[j];
    }
}
#endif

static void scan_three(size_t *better_out, tally__ksum *sums, const double *x, size_t n,
                       const double *cuts, size_t ncuts, double s, tally_direction direction)
{
#if TALLY__V2D
    if (ncuts <= 2)
        scan_cuts_v2(better_out, sums, x, n, cuts, ncuts, s, direction, 0);
    else
        scan_cuts_v2(better_out, sums, x, n, cuts, ncuts, s, direction, 1);
    return;
#endif
    if (ncuts == 1)
        scan_cuts(better_out, sums, x, n, cuts, 1, s, direction);
    else if (ncuts == 2)
        scan_cuts(better_out, sums, x, n, cuts, 2, s, direction);
    else
        scan_cuts(better_out, sums, x, n, cuts, 3, s, direction);
}

void tally__bamean_scan(size_t *better, tally__ksum *sums, const double *x, size_t n,
                        const double *cuts, size_t ncuts, double s, tally_direction direction)
{
    for (size_t at = 0; at < ncuts; at += CUTS_PER_PASS) {
        size_t k = ncuts - at < CUTS_PER_PASS ? ncuts - at : CUTS_PER_PASS;
        scan_three(better + at, sums + at, x, n, cuts + at, k, s, direction);
    }
}

void tally__bamean_finish(double *out, const size_t *counts, const double *cuts,
                          const size_t *better, const tally__ksum *sums, size_t ncuts, double s,
                          double min, double max, tally_direction direction)
{
    for (size_t j = 0; j < ncuts; j++) {
        double cut = cuts[j];
        tally__ksum k = sums[j];
        tally__ksum_add(&k, (double)(counts[j] - better[j]) * (cut * s));
        double mean = tally__ksum_value(&k) / (double)counts[j] / s;
        /* The best sample bounds the mean from the other side (the cut when none is better). */
        if (direction == TALLY_HIGHER_IS_BETTER)
            out[j] = tally__clamp(mean, cut, better[j] ? max : cut);
        else
            out[j] = tally__clamp(mean, better[j] ? min : cut, cut);
    }
}
