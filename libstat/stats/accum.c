/* Mergeable moments. A chunk is summarised like one call of tally_summarize() (moments.c's
 * passes: extremes, compensated sums of x and 1/x, the significand product, corrected two-pass
 * second moments), then merged: compensated sums by TwoSum of their leading parts, products by
 * multiplying significands and adding exponents, second moments by the pairwise update of Chan,
 * Golub & LeVeque (1979): M2 = M2a + M2b + d^2 na nb / n, d the difference of the two means,
 * each taken in double-double from its compensated sum so that d keeps full precision even when
 * the mean is 1e9 and the spread 0.1 (NumAcc4). Every term is non-negative, so each merge adds
 * a few roundings of M2 itself: the bound in docs/statistics.md.
 * Huge samples (> 2^1000) are kept scaled by a power of two, as moments.c scales them; tiny
 * positive ones (< 2^-900) have their reciprocals scaled likewise; second moments carry their
 * own binary exponent, so no square overflows or underflows. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "stats/moments_impl.h"
#include "util/result.h"
#include "stats/stats_internal.h"
#include "stats/wire.h"

/* A second moment: v * 4^e (v >= 0). */
typedef struct moment2 {
    double v;
    int e;
} moment2;

struct tally_accumulator {
    uint64_t n;
    double min, max;
    int kx;           /* sums of x hold x * 2^-kx */
    tally__ksum sx;
    moment2 m2x;      /* of x * 2^-kx */
    int positive;     /* every sample > 0: the reciprocal and product parts are valid */
    int kt;           /* sums of reciprocals hold 2^kt / x */
    tally__ksum sr;
    moment2 m2r;      /* of 2^kt / x */
    double gp;        /* product of the samples = gp * 2^ge, gp in [0.5, 1) */
    int64_t ge;
};

int tally_accumulator_new(tally_accumulator **out)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "accumulator output pointer is NULL");
    *out = tally__calloc(1, sizeof **out);
    if (*out == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory for an accumulator");
    return TALLY_OK;
}

void tally_accumulator_free(tally_accumulator *a)
{
    tally__free_mem(a);
}

size_t tally_accumulator_count(const tally_accumulator *a)
{
    return a ? (size_t)a->n : 0;
}

/* ---- pieces of the merge ---- */

static tally__ksum ksum_scaled(tally__ksum k, int shift)
{
    k.sum = ldexp(k.sum, shift);
    k.comp = ldexp(k.comp, shift);
    return k;
}

static moment2 moment2_add(moment2 a, moment2 b)
{
    if (a.v == 0)
        return b;
    if (b.v == 0)
        return a;
    int e = a.e > b.e ? a.e : b.e;
    moment2 r = { ldexp(a.v, 2 * (a.e - e)) + ldexp(b.v, 2 * (b.e - e)), e };
    return r;
}

/* The mean sum / n in double-double: hi + lo. */
static void mean_dd(double *hi, double *lo, tally__ksum k, uint64_t n)
{
    double dn = (double)n, s = tally__ksum_value(&k);
    *hi = s / dn;
    *lo = (fma(-*hi, dn, k.sum) + k.comp) / dn;
}

/* d^2 na nb / n as a moment2, d the difference of the means of two sums. */
static moment2 between(tally__ksum a, uint64_t na, tally__ksum b, uint64_t nb)
{
    double ah, al, bh, bl;
    mean_dd(&ah, &al, a, na);
    mean_dd(&bh, &bl, b, nb);
    double d = (bh - ah) + (bl - al);
    moment2 r = { 0.0, 0 };
    if (d == 0 || !isfinite(d))
        return r;
    frexp(d, &r.e);
    double u = ldexp(d, -r.e);
    r.v = u * u * ((double)na * ((double)nb / (double)(na + nb)));
    return r;
}

static void merge(tally_accumulator *a, const tally_accumulator *b)
{
    if (b->n == 0)
        return;
    if (a->n == 0) {
        *a = *b;
        return;
    }
    tally_accumulator o = *b;
    /* A common scale for x: the larger; for reciprocals: the smaller. */
    if (o.kx != a->kx) {
        tally_accumulator *low = o.kx < a->kx ? &o : a;
        int k = o.kx < a->kx ? a->kx : o.kx, shift = low->kx - k;
        low->sx = ksum_scaled(low->sx, shift);
        low->m2x.e += shift;
        low->kx = k;
    }
    int positive = a->positive && o.positive;
    if (positive && o.kt != a->kt) {
        tally_accumulator *high = o.kt > a->kt ? &o : a;
        int k = o.kt > a->kt ? a->kt : o.kt, shift = k - high->kt;
        high->sr = ksum_scaled(high->sr, shift);
        high->m2r.e += shift;
        high->kt = k;
    }
    a->m2x = moment2_add(moment2_add(a->m2x, o.m2x), between(a->sx, a->n, o.sx, o.n));
    if (positive) {
        a->m2r = moment2_add(moment2_add(a->m2r, o.m2r), between(a->sr, a->n, o.sr, o.n));
        tally__product pa = { a->gp, a->ge }, po = { o.gp, o.ge };
        tally__product_merge(&pa, &po);
        a->gp = pa.p;
        a->ge = pa.e;
        tally__ksum_merge(&a->sr, &o.sr);
    } else {
        a->positive = 0;
        a->kt = 0;
        a->sr.sum = a->sr.comp = a->m2r.v = a->gp = 0.0;
        a->m2r.e = 0;
        a->ge = 0;
    }
    tally__ksum_merge(&a->sx, &o.sx);
    a->min = o.min < a->min ? o.min : a->min;
    a->max = o.max > a->max ? o.max : a->max;
    a->n += o.n;
}

/* ---- one chunk ---- */

static moment2 chunk_moment2(const tally__spread *sp, size_t n)
{
    moment2 r = { 0.0, 0 };
    if (sp->zero)
        return r;
    r.v = tally__spread_m2(sp, n);
    r.e = sp->e;
    return r;
}

static int chunk(tally_accumulator *c, const double *x, size_t n)
{
    tally__moment_parts p;
    int rc = tally__moment_parts_compute(&p, x, n);
    if (rc != TALLY_OK)
        return rc;
    memset(c, 0, sizeof *c);
    c->n = n;
    c->min = p.min;
    c->max = p.max;
    c->kx = p.kx;
    c->sx = p.sx;
    c->m2x = chunk_moment2(&p.a, n);
    c->positive = p.positive;
    if (c->positive) {
        c->kt = p.kt;
        c->sr = p.sr;
        c->m2r = chunk_moment2(&p.h, n);
        int64_t e;
        c->gp = tally__split_positive(p.logs.p, &e);
        c->ge = p.logs.e + e;
    }
    return TALLY_OK;
}

int tally_accumulator_add(tally_accumulator *a, const double *x, size_t n)
{
    tally_accumulator c;
    if (a == NULL || (x == NULL && n > 0))
        return tally__error(TALLY_EINVAL, "accumulator or samples pointer is NULL");
    if (n == 0)
        return TALLY_OK;
    int rc = chunk(&c, x, n);
    if (rc != TALLY_OK)
        return rc;
    merge(a, &c);
    return TALLY_OK;
}

int tally_accumulator_merge(tally_accumulator *into, const tally_accumulator *other)
{
    if (into == NULL || other == NULL || into == other)
        return tally__error(TALLY_EINVAL, "accumulator merge: NULL or identical arguments");
    merge(into, other);
    return TALLY_OK;
}

/* ---- results ---- */

int tally__accumulator_moments(tally__moments *m, const tally_accumulator *a)
{
    if (a->n == 0)
        return tally__error(TALLY_ENODATA, "no samples");
    size_t n = (size_t)a->n;
    double s = ldexp(1.0, -a->kx);
    memset(m, 0, sizeof *m);
    m->min = a->min;
    m->max = a->max;
    double mean_s = tally__clamp(tally__ksum_value(&a->sx) / (double)n, a->min * s, a->max * s);
    m->amean = tally__clamp(mean_s / s, a->min, a->max);
    m->positive = a->positive;
    int constant = a->min == a->max;
    double h_over_t = 0.0;
    if (a->positive) {
        double t = ldexp(1.0, a->kt);
        h_over_t = (double)n / tally__ksum_value(&a->sr);
        m->hmean = tally__clamp(h_over_t * t, a->min, a->max);
        tally__product p = { a->gp, a->ge };
        m->gmean = tally__clamp(exp(tally__product_mean_log(&p, n)), a->min, a->max);
    }
    if (n < 2)
        return TALLY_OK;
    double sd = constant ? 0.0 : ldexp(sqrt(a->m2x.v / (double)(n - 1)), a->m2x.e + a->kx);
    if (isfinite(sd)) {
        m->stddev = sd;
        m->has_stddev = 1;
    }
    if (a->positive) {
        double hsd = constant ? 0.0
                              : m->hmean * h_over_t * ldexp(sqrt(a->m2r.v / (double)n), a->m2r.e);
        if (isfinite(hsd)) {
            m->hstddev = hsd;
            m->has_hstddev = 1;
        }
    }
    return TALLY_OK;
}

int tally_accumulator_moments(tally_summary *out, const tally_accumulator *a,
                              const tally_summary_options *opts)
{
    tally_summary_options options;
    const tally_summary_options *o = &options;
    tally__moments m;
    size_t size;
    tally_summary s;
    int rc = tally__result_begin(&size, out, "tally_summary", &s, sizeof s);
    if (rc)
        return rc;
    if (a == NULL)
        return tally__error(TALLY_EINVAL, "accumulator pointer is NULL");
    rc = tally__read_summary_options(&options, opts);
    if (rc == TALLY_OK)
        rc = tally__accumulator_moments(&m, a);
    if (rc == TALLY_OK) {
        tally__ensure_init();
        tally__summary_from_moments(&s, &m, (size_t)a->n, o->confidence);
    }
    tally__result_put(out, size, &s, sizeof s);
    return rc;
}

/* ---- bytes ---- */

#define MAGIC "TLYA"
#define VERSION 1
#define ENCODED_SIZE 116 /* the fields below, in order */

static void put_i32(tally__buf *b, int v)
{
    tally__put_u32(b, (uint32_t)(int32_t)v);
}

static int get_i32(tally__wire *w)
{
    return (int)(int32_t)tally__get_u32(w);
}

static int encode(tally__buf *b, const tally_accumulator *a)
{
    tally__buf_append(b, MAGIC, 4);
    tally__put_u32(b, VERSION);
    tally__put_u64(b, a->n);
    tally__put_f64(b, a->min);
    tally__put_f64(b, a->max);
    put_i32(b, a->kx);
    tally__put_f64(b, a->sx.sum);
    tally__put_f64(b, a->sx.comp);
    tally__put_f64(b, a->m2x.v);
    put_i32(b, a->m2x.e);
    tally__put_u32(b, (uint32_t)a->positive);
    put_i32(b, a->kt);
    tally__put_f64(b, a->sr.sum);
    tally__put_f64(b, a->sr.comp);
    tally__put_f64(b, a->m2r.v);
    put_i32(b, a->m2r.e);
    tally__put_f64(b, a->gp);
    tally__put_u64(b, (uint64_t)a->ge);
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}

static int decode(tally_accumulator *a, tally__wire *w)
{
    if (w->left < 8 || memcmp(w->p, MAGIC, 4) != 0)
        return tally__error(TALLY_EFORMAT, "not a tally accumulator");
    w->p += 4;
    w->left -= 4;
    uint32_t version = tally__get_u32(w);
    if (version != VERSION)
        return tally__error(TALLY_EFORMAT, "accumulator version %u, expected %d", version,
                            VERSION);
    memset(a, 0, sizeof *a);
    a->n = tally__get_u64(w);
    a->min = tally__get_f64(w);
    a->max = tally__get_f64(w);
    a->kx = get_i32(w);
    a->sx.sum = tally__get_f64(w);
    a->sx.comp = tally__get_f64(w);
    a->m2x.v = tally__get_f64(w);
    a->m2x.e = get_i32(w);
    a->positive = (int)tally__get_u32(w);
    a->kt = get_i32(w);
    a->sr.sum = tally__get_f64(w);
    a->sr.comp = tally__get_f64(w);
    a->m2r.v = tally__get_f64(w);
    a->m2r.e = get_i32(w);
    a->gp = tally__get_f64(w);
    a->ge = (int64_t)tally__get_u64(w);
    if (w->bad)
        return tally__error(TALLY_EFORMAT, "accumulator truncated");
    int ok = a->n == 0 ||
             (isfinite(a->min) && isfinite(a->max) && a->min <= a->max && a->m2x.v >= 0 &&
              isfinite(a->m2x.v) && isfinite(a->sx.sum) && isfinite(a->sx.comp) &&
              a->kx >= 0 && a->kx <= 1100 && a->kt <= 0 && a->kt >= -1200 &&
              (a->positive == (a->min > 0)) &&
              (!a->positive || (a->m2r.v >= 0 && isfinite(a->m2r.v) && a->sr.sum > 0 &&
                                isfinite(a->sr.sum) && a->gp >= 0.5 && a->gp < 1)));
    if (!ok)
        return tally__error(TALLY_EFORMAT, "inconsistent accumulator contents");
    return TALLY_OK;
}

int tally_accumulator_serialize(unsigned char **out, size_t *len, const tally_accumulator *a)
{
    tally__buf b = TALLY__BUF_INIT;
    if (out == NULL || len == NULL || a == NULL)
        return tally__error(TALLY_EINVAL, "accumulator serialise: NULL argument");
    int rc = encode(&b, a);
    if (rc != TALLY_OK) {
        tally__buf_dispose(&b);
        return rc;
    }
    return tally__wire_finish(out, len, &b);
}

int tally_accumulator_deserialize(tally_accumulator **out, const unsigned char *data, size_t len)
{
    tally_accumulator a;
    if (out == NULL || (data == NULL && len > 0))
        return tally__error(TALLY_EINVAL, "accumulator deserialise: NULL argument");
    *out = NULL;
    tally__wire w = { data, len, 0 };
    int rc = decode(&a, &w);
    if (rc != TALLY_OK)
        return rc;
    if (w.left != 0)
        return tally__error(TALLY_EFORMAT, "accumulator of %zu bytes, expected %d", len,
                            ENCODED_SIZE);
    if ((rc = tally_accumulator_new(out)) != TALLY_OK)
        return rc;
    **out = a;
    return TALLY_OK;
}
