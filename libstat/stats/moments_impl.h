/* The building blocks of the moments shared by moments.c (one pass over an array) and accum.c
 * (accumulators merged across chunks): the corrected two-pass spread and the product behind the
 * geometric mean. Internal to the statistics module. */
#ifndef TALLY_MOMENTS_IMPL_H
#define TALLY_MOMENTS_IMPL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats/stats_internal.h"

/* One corrected two-pass SD being accumulated: sqrt((sum d_i^2 - (sum d_i)^2 / n) / divisor)
 * over d_i = v_i - centre, the correction term cancelling the rounding error of `centre` (NIST;
 * GSL's gsl_stats_variance). The deviations are scaled by 2^-e, e the exponent of the largest
 * one, before squaring, so that squares of deviations near 1e200 do not overflow and those near
 * 1e-200 do not underflow. The largest deviation is that of an extreme sample (v - centre is
 * monotone in v), so it needs no pass of its own. The sums run in TALLY__LANES chains (see
 * tally__ksum_lanes): the caller adds sample i to lane i % TALLY__LANES. */
typedef struct tally__spread {
    double centre, u, u2;
    int e, zero;
    tally__ksum_lanes squares;
    double deviations[TALLY__LANES];
} tally__spread;

static inline void tally__spread_init(tally__spread *a, double centre, double dev_lo, double dev_hi)
{
    double dmax = fmax(fabs(dev_lo), fabs(dev_hi));
    a->centre = centre;
    a->zero = dmax == 0.0;
    a->e = 0;
    frexp(dmax, &a->e);
    /* 2^-e in two factors, each a normal double, so that the scaling is two exact
     * multiplications (no branch in the loop): one factor unless 2^-e would overflow (tiny
     * deviations; magnitudes then only grow, so the two steps round nothing). A large e gives
     * 2^-e down to 2^-1024, exact even when subnormal: one multiplication rounds as ldexp. */
    a->u2 = a->e < -1000 ? 0x1p500 : 1.0;
    a->u = ldexp(1.0, a->e < -1000 ? -a->e - 500 : -a->e);
    for (size_t j = 0; j < TALLY__LANES; j++) {
        a->squares.sum[j] = a->squares.comp[j] = 0.0;
        a->deviations[j] = 0.0;
    }
}

static inline void tally__spread_add(tally__spread *a, size_t lane, double v)
{
    double d = (v - a->centre) * a->u * a->u2;
    tally__lanes_add(&a->squares, lane, d * d);
    a->deviations[lane] += d;
}

#if TALLY__V2D
/* A tally__spread's lanes as vectors (tally__v2_add), for the loops that add whole groups. */
typedef struct tally__spread_v2 {
    tally__v2d centre, u, u2;
    tally__ksum_v2 squares;
    tally__v2d deviations[2];
} tally__spread_v2;

static inline tally__spread_v2 tally__spread_v2_from(const tally__spread *a)
{
    tally__spread_v2 w = { tally__v2d_splat(a->centre), tally__v2d_splat(a->u),
                           tally__v2d_splat(a->u2), tally__v2_from_lanes(&a->squares),
                           { tally__v2d_load(a->deviations), tally__v2d_load(a->deviations + 2) } };
    return w;
}

static inline void tally__spread_v2_to(tally__spread *a, const tally__spread_v2 *w)
{
    tally__v2_to_lanes(&a->squares, &w->squares);
    tally__v2d_store(a->deviations, w->deviations[0]);
    tally__v2d_store(a->deviations + 2, w->deviations[1]);
}

static inline void tally__spread_v2_add(tally__spread_v2 *w, size_t h, tally__v2d v)
{
    tally__v2d d = (v - w->centre) * w->u * w->u2;
    tally__v2_add(&w->squares, h, d * d);
    w->deviations[h] += d;
}
#endif

/* The scaled sum of squared deviations minus the correction term: the variance times divisor,
 * times 4^-e. */
static inline double tally__spread_m2(const tally__spread *a, size_t n)
{
    tally__ksum squares = tally__lanes_total(&a->squares);
    double deviations = 0.0;
    for (size_t j = 0; j < TALLY__LANES; j++)
        deviations += a->deviations[j];
    double v = tally__ksum_value(&squares) - deviations * deviations / (double)n;
    return v > 0 ? v : 0.0;
}

static inline double tally__spread_sd(const tally__spread *a, size_t n, double divisor)
{
    if (a->zero)
        return 0.0;
    return ldexp(sqrt(tally__spread_m2(a, n) / divisor), a->e);
}

/* The geometric mean without a log per sample: the product of the samples' significands (each
 * in [0.5, 1)), brought back to [0.5, 1) every 256 factors so it can neither underflow nor
 * overflow, and the sum of their binary exponents; one log at the end. Taking a power of two
 * out is exact, so the only rounding is one per multiplication: log of the product is off by
 * at most (n + 4) 2^-53 (moments.c multiplies in four chains, merged at the end), the log of
 * the mean by about 2^-53, as good as a compensated sum of logs. */
typedef struct tally__product {
    double p;
    int64_t e;
} tally__product;

#define SIGNIFICAND_BITS UINT64_C(0x000fffffffffffff)
#define HALF_EXPONENT UINT64_C(0x3fe0000000000000) /* the exponent field of [0.5, 1) */
#define LN2 0.693147180559945309417232121458176568

/* v = significand * 2^exponent with the significand in [0.5, 1), for finite v > 0. */
static inline double tally__split_positive(double v, int64_t *exponent)
{
    uint64_t bits;
    int64_t shift = 0;
    memcpy(&bits, &v, sizeof bits);
    if ((bits >> 52) == 0) { /* subnormal: make it normal first */
        v *= 0x1p64;
        shift = 64;
        memcpy(&bits, &v, sizeof bits);
    }
    *exponent = (int64_t)(bits >> 52) - 1022 - shift;
    bits = (bits & SIGNIFICAND_BITS) | HALF_EXPONENT;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* a * b, both kept as significand and exponent. */
static inline void tally__product_merge(tally__product *a, const tally__product *b)
{
    int64_t e;
    a->p = tally__split_positive(a->p * b->p, &e);
    a->e += b->e + e;
}

/* log(product) / n, the exponent sum divided first so that e * ln 2 loses nothing. */
static inline double tally__product_mean_log(const tally__product *a, size_t n)
{
    int64_t e, q = a->e / (int64_t)n;
    double p = tally__split_positive(a->p, &e);
    double r = (double)(a->e - q * (int64_t)n + e);
    return (double)q * LN2 + (r * LN2 + log(p)) / (double)n;
}

/* What moments.c's two passes over one array give, for tally__compute_moments and for one
 * chunk of an accumulator. Samples beyond 2^1000 in magnitude are summed as x * 2^-kx (kx > 0
 * only then); reciprocals of positive samples as 2^kt / x (kt < 0 only when the smallest
 * sample is below 2^-900). */
typedef struct tally__moment_parts {
    double min, max;
    int kx, kt;
    int positive;              /* every sample > 0: sr, mean_r, logs and h are valid */
    tally__ksum sx, sr;        /* of x * 2^-kx and 2^kt / x */
    double mean_s, mean_r;     /* their means, clamped to the samples' range */
    tally__product logs;       /* of the samples */
    tally__spread a, h;        /* around mean_s and mean_r */
} tally__moment_parts;

/* The parts of n >= 1 samples in two passes (one more when a scale applies); errors as
 * tally__compute_moments. */
int tally__moment_parts_compute(tally__moment_parts *p, const double *x, size_t n);

#endif /* TALLY_MOMENTS_IMPL_H */
