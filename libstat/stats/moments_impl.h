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
 * monotone in v), so it needs no pass of its own. */
typedef struct tally__spread {
    double centre, u;
    int e, direct, zero;
    tally__ksum squares;
    double deviations;
} tally__spread;

static inline void tally__spread_init(tally__spread *a, double centre, double dev_lo, double dev_hi)
{
    double dmax = fmax(fabs(dev_lo), fabs(dev_hi));
    a->centre = centre;
    a->zero = dmax == 0.0;
    a->e = 0;
    frexp(dmax, &a->e);
    /* Multiplying by 2^-e is exact; outside this range 2^-e itself is not a normal double. */
    a->direct = a->e > -1000 && a->e < 1000;
    a->u = a->direct ? ldexp(1.0, -a->e) : 1.0;
    a->squares.sum = a->squares.comp = 0.0;
    a->deviations = 0.0;
}

static inline void tally__spread_add(tally__spread *a, double v)
{
    double d = v - a->centre;
    d = a->direct ? d * a->u : ldexp(d, -a->e);
    tally__ksum_add(&a->squares, d * d);
    a->deviations += d;
}

static inline double tally__spread_sd(const tally__spread *a, size_t n, double divisor)
{
    if (a->zero)
        return 0.0;
    double v = (tally__ksum_value(&a->squares) - a->deviations * a->deviations / (double)n) /
               divisor;
    return ldexp(sqrt(v > 0 ? v : 0.0), a->e);
}

/* The geometric mean without a log per sample: the product of the samples' significands (each
 * in [0.5, 1)), brought back to [0.5, 1) every 256 factors so it can neither underflow nor
 * overflow, and the sum of their binary exponents; one log at the end. Taking a power of two
 * out is exact, so the only rounding is one per multiplication: log of the product is off by
 * at most n 2^-53, the log of the mean by 2^-53, as good as a compensated sum of logs. */
typedef struct tally__product {
    double p;
    int64_t e;
    unsigned k;
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

static inline void tally__product_add(tally__product *a, double v)
{
    int64_t e;
    a->p *= tally__split_positive(v, &e);
    a->e += e;
    if (++a->k == 256) {
        a->p = tally__split_positive(a->p, &e);
        a->e += e;
        a->k = 0;
    }
}

/* log(product) / n, the exponent sum divided first so that e * ln 2 loses nothing. */
static inline double tally__product_mean_log(const tally__product *a, size_t n)
{
    int64_t e, q = a->e / (int64_t)n;
    double p = tally__split_positive(a->p, &e);
    double r = (double)(a->e - q * (int64_t)n + e);
    return (double)q * LN2 + (r * LN2 + log(p)) / (double)n;
}

#endif /* TALLY_MOMENTS_IMPL_H */
