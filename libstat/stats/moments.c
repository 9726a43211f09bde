/* Means and standard deviations in two passes over the samples: the extremes and every sum
 * first, then both SDs. Sums are compensated (Neumaier) and the variance is two-pass with the
 * correction term of NIST/GSL, which keeps NumAcc4-style data (nine constant leading digits)
 * exact to the last bits. Inputs near DBL_MAX are scaled by a power of two first, so no
 * intermediate sum overflows. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "stats/stats_internal.h"
#include "stats/moments_impl.h"


/* Finite check by one comparison per sample, which vectorises: v - v is 0 for every finite v
 * and NaN for NaN and the infinities. Only a failing input is scanned again, for its message. */
static int all_finite(const double *x, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= !(x[i] - x[i] == 0);
    return !bad;
}

int tally__check_samples(const double *x, size_t n)
{
    if (n == 0)
        return tally__error(TALLY_ENODATA, "no samples");
    if (!x)
        return tally__error(TALLY_EINVAL, "samples pointer is NULL");
    if (all_finite(x, n))
        return TALLY_OK;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            return tally__error(TALLY_ENONFINITE, "sample %zu is NaN", i + 1);
        if (isinf(x[i]))
            return tally__error(TALLY_ENONFINITE, "sample %zu is %sinfinite", i + 1,
                                x[i] < 0 ? "negative " : "");
    }
    return TALLY_OK;
}

/* The extremes in TALLY__LANES chains (a comparison waits for the previous one of its lane
 * only), each lane starting from x[0]. */
typedef struct extremes {
    double lo[TALLY__LANES], hi[TALLY__LANES];
} extremes;

static void extremes_init(extremes *m, double first)
{
    for (size_t j = 0; j < TALLY__LANES; j++)
        m->lo[j] = m->hi[j] = first;
}

static inline void extremes_add(extremes *m, size_t lane, double v)
{
    m->lo[lane] = v < m->lo[lane] ? v : m->lo[lane];
    m->hi[lane] = v > m->hi[lane] ? v : m->hi[lane];
}

/* The lanes' extremes merged. One chain keeps the first sample that reaches an extreme; among
 * equal doubles only 0 and -0 differ, so a zero extreme is looked up again (one short scan), and
 * the result is the one chain's in every case. */
static void extremes_total(double *min, double *max, const extremes *m, const double *x)
{
    double lo = m->lo[0], hi = m->hi[0];
    for (size_t j = 1; j < TALLY__LANES; j++) {
        lo = m->lo[j] < lo ? m->lo[j] : lo;
        hi = m->hi[j] > hi ? m->hi[j] : hi;
    }
    if (lo == 0) {
        size_t i = 0;
        while (x[i] != 0)
            i++;
        lo = x[i];
    }
    if (hi == 0) {
        size_t i = 0;
        while (x[i] != 0)
            i++;
        hi = x[i];
    }
    *min = lo;
    *max = hi;
}

int tally__sample_range(double *min, double *max, const double *x, size_t n)
{
    if (n == 0 || !x)
        return tally__check_samples(x, n);
    extremes m;
    extremes_init(&m, x[0]);
    int bad = 0;
    TALLY__LANE_SCAN(x, n, j, v, bad |= !(v - v == 0), extremes_add(&m, j, v));
    if (bad)
        return tally__check_samples(x, n);
    extremes_total(min, max, &m, x);
    return TALLY_OK;
}

double tally__overflow_scale(double maxabs)
{
    int e;
    /* Below 2^1000 even a sum of 2^20 samples or a difference of two samples stays finite. */
    if (!(maxabs > 0x1p1000))
        return 1.0;
    frexp(maxabs, &e);
    return ldexp(1.0, -e);
}

/* The mean of the mapped values of x, scaled and clamped like the first pass below (separate
 * loops: only the rare callers need it, outliers.c when the MAD is 0). */
double tally__mapped_mean(const double *x, size_t n, const tally__value_map *map)
{
    double lo = tally__map_value(map, x[0]), hi = lo;
    for (size_t i = 1; i < n; i++) {
        double v = tally__map_value(map, x[i]);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    double s = tally__overflow_scale(fmax(fabs(lo), fabs(hi)));
    tally__ksum k = { 0.0, 0.0 };
    for (size_t i = 0; i < n; i++)
        tally__ksum_add(&k, tally__map_value(map, x[i]) * s);
    return tally__clamp(tally__ksum_value(&k) / (double)n / s, lo, hi);
}

double tally__mean(const double *x, size_t n)
{
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    return tally__mapped_mean(x, n, &identity);
}

/* The product of the samples in TALLY__LANES chains, as tally__ksum_lanes: a multiplication
 * waits for the previous one of its lane only. */
typedef struct product_lanes {
    double p[TALLY__LANES];
    int64_t e[TALLY__LANES];
} product_lanes;

static void product_normalize(product_lanes *a)
{
    for (size_t j = 0; j < TALLY__LANES; j++) {
        int64_t e;
        a->p[j] = tally__split_positive(a->p[j], &e);
        a->e[j] += e;
    }
}

static tally__product product_total(const product_lanes *a)
{
    tally__product total = { 1.0, 0 };
    for (size_t j = 0; j < TALLY__LANES; j++) {
        tally__product lane = { a->p[j], a->e[j] };
        tally__product_merge(&total, &lane);
    }
    return total;
}

/* The first pass multiplies the samples themselves, ROUNDS to a lane between two
 * normalisations. A lane starts in [0.5, 1), so as long as every sample lies in
 * [2^-120, 2^120] no partial product leaves [2^-1000, 2^1000]: multiplying by v rounds
 * exactly as multiplying by its significand (the power of two commutes with rounding), so the
 * result is the significand product of tally__product. Samples beyond that range have their
 * product taken again, significand by significand (product_split). */
#define ROUNDS 8
#define RANGE_LOW 0x1p-120
#define RANGE_HIGH 0x1p120

/* Every sample split into significand and exponent first: no range limit. */
static tally__product product_split(const double *x, size_t n)
{
    product_lanes a = { { 1.0, 1.0, 1.0, 1.0 }, { 0, 0, 0, 0 } };
    for (size_t at = 0; at < n; at += 256 * TALLY__LANES) {
        size_t len = n - at < 256 * TALLY__LANES ? n - at : 256 * TALLY__LANES;
        TALLY__LANE_SCAN(x + at, len, j, v, int64_t e; a.p[j] *= tally__split_positive(v, &e);
                         a.e[j] += e);
        product_normalize(&a);
    }
    return product_total(&a);
}

/* The first pass: the extremes, the compensated sums of x and 1/x and the product behind the
 * geometric mean. The last two are used only when every sample turns out positive, and only
 * then are they what they say; the loop does not look (no branch, no select). A NaN or an
 * infinity makes the sum of x non-finite, and so does a sum beyond the double range: that is
 * told apart afterwards. */
typedef struct sums {
    double min, max;
    tally__ksum x, recip;
    tally__product logs;
} sums;

typedef struct first_lanes {
    extremes m;
    tally__ksum_lanes x, recip;
    product_lanes logs;
} first_lanes;

static void first_pass(sums *f, const double *x, size_t n)
{
    first_lanes a = { .x = TALLY__KSUM_LANES_INIT, .recip = TALLY__KSUM_LANES_INIT,
                      .logs = { { 1.0, 1.0, 1.0, 1.0 }, { 0, 0, 0, 0 } } };
    extremes_init(&a.m, x[0]);
    for (size_t at = 0; at < n; at += ROUNDS * TALLY__LANES) {
        size_t len = n - at < ROUNDS * TALLY__LANES ? n - at : ROUNDS * TALLY__LANES, from = 0;
#if TALLY__V2D
        /* The lanes in vectors for the block's whole groups (all of it but in the last one),
         * back in `a` for the rest and the normalisation. */
        tally__v2d lo[2] = { tally__v2d_load(a.m.lo), tally__v2d_load(a.m.lo + 2) };
        tally__v2d hi[2] = { tally__v2d_load(a.m.hi), tally__v2d_load(a.m.hi + 2) };
        tally__v2d prod[2] = { tally__v2d_load(a.logs.p), tally__v2d_load(a.logs.p + 2) };
        tally__ksum_v2 sx = tally__v2_from_lanes(&a.x), sr = tally__v2_from_lanes(&a.recip);
        const tally__v2d one = tally__v2d_splat(1.0);
        TALLY__V2_GROUPS(x + at, from, len, h, v, lo[h] = tally__v2d_min(v, lo[h]);
                         hi[h] = tally__v2d_max(v, hi[h]); tally__v2_add(&sx, h, v);
                         tally__v2_add(&sr, h, one / v); prod[h] *= v);
        for (size_t h = 0; h < 2; h++) {
            tally__v2d_store(a.m.lo + 2 * h, lo[h]);
            tally__v2d_store(a.m.hi + 2 * h, hi[h]);
            tally__v2d_store(a.logs.p + 2 * h, prod[h]);
        }
        tally__v2_to_lanes(&a.x, &sx);
        tally__v2_to_lanes(&a.recip, &sr);
#endif
        TALLY__LANE_SCAN_FROM(x + at, from, len, j, v, extremes_add(&a.m, j, v),
                              tally__lanes_add(&a.x, j, v),
                              tally__lanes_add(&a.recip, j, 1.0 / v), a.logs.p[j] *= v);
        product_normalize(&a.logs);
    }
    extremes_total(&f->min, &f->max, &a.m, x);
    f->x = tally__lanes_total(&a.x);
    f->recip = tally__lanes_total(&a.recip);
    f->logs = product_total(&a.logs);
}

/* sum(x_i * scale), compensated, in lanes. */
static tally__ksum scaled_sum(const double *x, size_t n, double scale)
{
    tally__ksum_lanes k = TALLY__KSUM_LANES_INIT;
    TALLY__LANE_SCAN(x, n, j, v, tally__lanes_add(&k, j, v * scale));
    return tally__lanes_total(&k);
}

/* sum(t / x_i): the reciprocals scaled by a power of two t near the smallest sample lie in
 * (0, 1], so neither 1/x of a subnormal nor the sum can overflow. Scaling by a power of two
 * commutes with rounding, so for t = 1 this is the first pass's sum. */
static tally__ksum reciprocal_sum(const double *x, size_t n, double t)
{
    tally__ksum_lanes k = TALLY__KSUM_LANES_INIT;
    TALLY__LANE_SCAN(x, n, j, v, tally__lanes_add(&k, j, t / v));
    return tally__lanes_total(&k);
}

int tally__moment_parts_compute(tally__moment_parts *p, const double *x, size_t n)
{
    sums f;
    int rc;

    if (n == 0 || !x)
        return tally__check_samples(x, n);
    first_pass(&f, x, n);
    double maxabs = fmax(fabs(f.min), fabs(f.max)), s = tally__overflow_scale(maxabs);
    p->kx = 0;
    if (s != 1.0)
        frexp(maxabs, &p->kx);
    if (!isfinite(f.x.sum) || !isfinite(f.x.comp)) {
        if ((rc = tally__check_samples(x, n)) != TALLY_OK)
            return rc;
        /* Finite samples whose sum overflowed (more than 2^23 of them near 2^1000): scaled. */
        p->kx = p->kx > 1000 ? p->kx : 1000;
        s = ldexp(1.0, -p->kx);
    }
    p->min = f.min;
    p->max = f.max;
    p->sx = s == 1.0 ? f.x : scaled_sum(x, n, s);
    /* Clamping keeps identical samples exact: their mean is the value, their deviations 0. */
    p->mean_s = tally__clamp(tally__ksum_value(&p->sx) / (double)n, f.min * s, f.max * s);

    p->positive = f.min > 0;
    p->kt = 0;
    double t = 1.0;
    p->mean_r = 0.0;
    if (p->positive) {
        p->sr = f.recip;
        if (f.min < 0x1p-900) {
            int e;
            frexp(f.min, &e);
            p->kt = e - 1;
            t = ldexp(1.0, p->kt);
            p->sr = reciprocal_sum(x, n, t);
        }
        p->logs = f.min >= RANGE_LOW && f.max <= RANGE_HIGH ? f.logs : product_split(x, n);
        p->mean_r = tally__clamp(tally__ksum_value(&p->sr) / (double)n, t / f.max, t / f.min);
    }

    /* The second pass: the SD of x and, for positive samples, the population SD of t / x (in
     * local copies: p might alias x as far as the compiler knows, which would keep the lanes
     * in memory). */
    tally__spread a, h;
    size_t at = 0;
    tally__spread_init(&a, p->mean_s, f.min * s - p->mean_s, f.max * s - p->mean_s);
    if (p->positive) {
        tally__spread_init(&h, p->mean_r, t / f.min - p->mean_r, t / f.max - p->mean_r);
#if TALLY__V2D
        tally__spread_v2 va = tally__spread_v2_from(&a), vh = tally__spread_v2_from(&h);
        const tally__v2d sv = tally__v2d_splat(s), tv = tally__v2d_splat(t);
        TALLY__V2_GROUPS(x, at, n, k, v, tally__spread_v2_add(&va, k, v * sv);
                         tally__spread_v2_add(&vh, k, tv / v));
        tally__spread_v2_to(&a, &va);
        tally__spread_v2_to(&h, &vh);
#endif
        TALLY__LANE_SCAN_FROM(x, at, n, j, v, tally__spread_add(&a, j, v * s),
                              tally__spread_add(&h, j, t / v));
        p->h = h;
    } else {
#if TALLY__V2D
        tally__spread_v2 va = tally__spread_v2_from(&a);
        const tally__v2d sv = tally__v2d_splat(s);
        TALLY__V2_GROUPS(x, at, n, k, v, tally__spread_v2_add(&va, k, v * sv));
        tally__spread_v2_to(&a, &va);
#endif
        TALLY__LANE_SCAN_FROM(x, at, n, j, v, tally__spread_add(&a, j, v * s));
    }
    p->a = a;
    return TALLY_OK;
}

int tally__compute_moments(tally__moments *m, const double *x, size_t n)
{
    tally__moment_parts p;
    int rc = tally__moment_parts_compute(&p, x, n);
    if (rc != TALLY_OK)
        return rc;
    m->min = p.min;
    m->max = p.max;
    double s = ldexp(1.0, -p.kx);
    m->amean = tally__clamp(p.mean_s / s, p.min, p.max);
    m->positive = p.positive;
    m->hmean = m->gmean = m->hstddev = m->stddev = 0.0;
    m->has_hstddev = m->has_stddev = 0;
    double h_over_t = 0.0;
    if (p.positive) {
        h_over_t = (double)n / tally__ksum_value(&p.sr);
        m->hmean = tally__clamp(ldexp(h_over_t, p.kt), p.min, p.max);
        m->gmean = tally__clamp(exp(tally__product_mean_log(&p.logs, n)), p.min, p.max);
    }
    if (n < 2)
        return TALLY_OK;
    double sd = tally__spread_sd(&p.a, n, (double)(n - 1)) / s;
    if (isfinite(sd)) {
        m->stddev = sd;
        m->has_stddev = 1;
    }
    if (p.positive) {
        /* mmtests: sqrt(sum((1/x - 1/H)^2) * H^4 / n) = H^2 * (population SD of 1/x). With the
         * scaled reciprocals r = t/x this is H * (H/t) * (population SD of r). */
        double hsd = m->hmean * h_over_t * tally__spread_sd(&p.h, n, (double)n);
        if (isfinite(hsd)) {
            m->hstddev = hsd;
            m->has_hstddev = 1;
        }
    }
    return TALLY_OK;
}

int tally_amean(double *out, const double *x, size_t n)
{
    int rc;
    if (!out)
        return tally__error(TALLY_EINVAL, "output pointer is NULL");
    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    *out = tally__mean(x, n);
    return TALLY_OK;
}

static int positive_mean(double *out, const double *x, size_t n, int geometric)
{
    int rc;
    tally__moments m;
    if (!out)
        return tally__error(TALLY_EINVAL, "output pointer is NULL");
    if ((rc = tally__compute_moments(&m, x, n)) != TALLY_OK)
        return rc;
    if (!m.positive) {
        size_t i = 0;
        while (x[i] > 0)
            i++;
        return tally__error(TALLY_EDOMAIN, "%s mean needs samples > 0; sample %zu is %g",
                            geometric ? "geometric" : "harmonic", i + 1, x[i]);
    }
    *out = geometric ? m.gmean : m.hmean;
    return TALLY_OK;
}

int tally_hmean(double *out, const double *x, size_t n)
{
    return positive_mean(out, x, n, 0);
}

int tally_gmean(double *out, const double *x, size_t n)
{
    return positive_mean(out, x, n, 1);
}

int tally_stddev(double *out, const double *x, size_t n)
{
    int rc;
    tally__moments m;
    if (!out)
        return tally__error(TALLY_EINVAL, "output pointer is NULL");
    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    if (n < 2)
        return tally__error(TALLY_ENODATA, "standard deviation needs at least 2 samples, got %zu",
                            n);
    if ((rc = tally__compute_moments(&m, x, n)) != TALLY_OK)
        return rc;
    if (!m.has_stddev)
        return tally__error(TALLY_ENUMERIC, "standard deviation exceeds the double range");
    *out = m.stddev;
    return TALLY_OK;
}
