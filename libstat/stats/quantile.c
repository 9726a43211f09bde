/* The weighted quantile core (quantile.h): percentiles by Hyndman & Fan's definitions 7 and 1
 * and by Harrell & Davis (1982), and the distribution-free order-statistic interval of a
 * percentile, on ascending values with counts. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/quantile.h"
#include "stats/stats_internal.h"
#include "util/internal.h"

/* Counts up to 2^53 keep every rank and cumulative count exact as a double (the Beta and
 * binomial arguments below). */
#define MAX_TOTAL (UINT64_C(1) << 53)

int tally__wsample_init(tally__wsample *s, const double *value, const uint64_t *count,
                        size_t len)
{
    memset(s, 0, sizeof *s);
    if (value == NULL && len > 0)
        return tally__error(TALLY_EINVAL, "quantile: values pointer is NULL");
    uint64_t total = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isfinite(value[i]))
            return tally__error(TALLY_ENONFINITE, "quantile: value %zu is not finite", i);
        if (i > 0 && value[i] < value[i - 1])
            return tally__error(TALLY_EINVAL, "quantile: values are not ascending at index %zu",
                                i);
        uint64_t c = count ? count[i] : 1;
        if (c > MAX_TOTAL - total)
            return tally__error(TALLY_EINVAL, "quantile: the counts sum beyond 2^53 at index %zu",
                                i);
        total += c;
    }
    if (total == 0)
        return tally__error(TALLY_ENODATA, "quantile: no values (every count is 0)");
    if (count) {
        s->cum = tally__reallocarray(NULL, len, sizeof *s->cum);
        if (s->cum == NULL)
            return tally__error(TALLY_ENOMEM, "quantile: out of memory for %zu counts", len);
        uint64_t c = 0;
        for (size_t i = 0; i < len; i++)
            s->cum[i] = c += count[i];
    }
    s->value = value;
    s->count = count;
    s->len = len;
    s->n = total;
    return TALLY_OK;
}

void tally__wsample_free(tally__wsample *s)
{
    tally__free_mem(s->cum);
    s->cum = NULL;
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int tally__wsample_sorted_copy(tally__wsample *s, double **copy, const double *x, size_t n)
{
    memset(s, 0, sizeof *s);
    *copy = NULL;
    int rc = tally__check_samples(x, n);
    if (rc != TALLY_OK)
        return rc;
    double *c = tally__reallocarray(NULL, n, sizeof *c);
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "quantile: out of memory for a copy of %zu samples", n);
    memcpy(c, x, n * sizeof *c);
    qsort(c, n, sizeof *c, ascending);
    rc = tally__wsample_init(s, c, NULL, n);
    if (rc != TALLY_OK) {
        tally__free_mem(c);
        return rc;
    }
    *copy = c;
    return TALLY_OK;
}

/* ---- R types 7 and 1: the ranks and the interpolation, shared with percentile.c ---- */

/* Type 7 position: h = (n - 1) p / 100 on 0-based ranks. p * (n - 1) is exact for integer p and
 * any realistic n, so percentiles that fall on a sample (p = 25 with n = 5) hit it exactly. */
static double linear_position(size_t n, double p)
{
    return p * (double)(n - 1) / 100.0;
}

/* Type 1: the smallest x with at least p % of the samples <= x: rank ceil(n p / 100), >= 1. */
static size_t nearest_rank(size_t n, double p)
{
    double r = ceil(p * (double)n / 100.0);
    if (r < 1)
        return 0;
    if (r > (double)n)
        return n - 1;
    return (size_t)r - 1;
}

size_t tally__percentile_ranks(size_t ranks[2], size_t n, double p, tally_percentile_method method)
{
    if (method == TALLY_PERCENTILE_NEAREST_RANK) {
        ranks[0] = nearest_rank(n, p);
        return 1;
    }
    double h = linear_position(n, p);
    size_t j = (size_t)floor(h);
    if (j >= n - 1) {
        ranks[0] = n - 1;
        return 1;
    }
    ranks[0] = j;
    if (h == (double)j)
        return 1;
    ranks[1] = j + 1;
    return 2;
}

double tally__percentile_from(const double *v, size_t n, double p, tally_percentile_method method)
{
    if (method == TALLY_PERCENTILE_NEAREST_RANK)
        return v[0];
    double h = linear_position(n, p);
    size_t j = (size_t)floor(h);
    if (j >= n - 1)
        return v[0];
    double g = h - (double)j, a = v[0];
    if (g == 0 || a == v[1])
        return a;
    /* R's form: a weighted sum cannot overflow the way a + g (b - a) can near DBL_MAX. */
    return (1 - g) * a + g * v[1];
}

/* Values before index j (the cumulative count of the buckets 0..j-1). */
static uint64_t below(const tally__wsample *s, size_t j)
{
    return j == 0 ? 0 : s->cum ? s->cum[j - 1] : (uint64_t)j;
}

/* The bucket holding 0-based rank k: the first j with cum[j] > k. */
static size_t bucket_of(const tally__wsample *s, uint64_t k)
{
    if (!s->cum)
        return (size_t)k;
    size_t lo = 0, hi = s->len - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->cum[mid] > k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

double tally__wsample_at(const tally__wsample *s, uint64_t k)
{
    return s->value[bucket_of(s, k)];
}

/* ---- Harrell-Davis ---- */

/* The Harrell-Davis weight of the order statistics 1..m (1-based) is I_{m/n}(a, b), a = p (n +
 * 1), b = (1 - p) (n + 1). Left of the Beta mean p it is taken as I, right of it as 1 minus the
 * complement I_{1-x}(b, a), so that far-tail weights come out as small numbers, never as the
 * difference of two numbers near 1. */
typedef struct hd_beta {
    double a, b, n;
    int failed;
} hd_beta;

/* P(Beta(a, b) <= x) (upper = 0) or P(Beta(a, b) > x) (upper = 1). */
static double hd_tail(hd_beta *h, double x, int upper)
{
    if (x <= 0)
        return upper ? 1.0 : 0.0;
    if (x >= 1)
        return upper ? 0.0 : 1.0;
    /* The cdf functions, unlike gsl_sf_beta_inc, switch to an asymptotic form for the large a
     * and b of big histograms (10^6 values and more). */
    double t = upper ? gsl_cdf_beta_Q(x, h->a, h->b) : gsl_cdf_beta_P(x, h->a, h->b);
    if (!isfinite(t)) {
        h->failed = 1;
        return 0;
    }
    return t;
}

/* Weights below this are left out: the window where they exceed it is found by bisection, so a
 * sample of 10^6 values costs some 10^4 Beta evaluations instead of 10^6; the estimate moves by
 * at most 2 * 2^-100 * max |x| (far below a double's resolution of the estimate). */
#define HD_NEGLIGIBLE 0x1p-100

/* The first bucket j whose upper edge's lower tail exceeds HD_NEGLIGIBLE (left) or the last
 * whose lower edge's upper tail does (right): both tails are monotone in the edge. */
static size_t hd_window_edge(hd_beta *h, const tally__wsample *s, int right)
{
    size_t lo = 0, hi = s->len - 1;
    while (lo < hi) {
        size_t mid = right ? lo + (hi - lo + 1) / 2 : lo + (hi - lo) / 2;
        if (!right) {
            if (hd_tail(h, (double)below(s, mid + 1) / h->n, 0) > HD_NEGLIGIBLE)
                hi = mid;
            else
                lo = mid + 1;
        } else {
            if (hd_tail(h, (double)below(s, mid) / h->n, 1) > HD_NEGLIGIBLE)
                lo = mid;
            else
                hi = mid - 1;
        }
    }
    return lo;
}

static int harrell_davis(double *out, const tally__wsample *s, double q)
{
    if (q == 0 || q == 1) {
        /* a or b is 0: the Beta weights put everything on the smallest or largest value */
        *out = tally__wsample_at(s, q == 0 ? 0 : s->n - 1);
        return TALLY_OK;
    }
    tally__ensure_init();
    hd_beta h = { q * ((double)s->n + 1), (1 - q) * ((double)s->n + 1), (double)s->n, 0 };
    size_t first = hd_window_edge(&h, s, 0), last = hd_window_edge(&h, s, 1);
    double mean = h.a / (h.a + h.b); /* where the weights switch from I to 1 - Q */
    double scale = tally__overflow_scale(fmax(fabs(s->value[0]), fabs(s->value[s->len - 1])));
    tally__ksum sum = { 0.0, 0.0 };
    for (size_t j = first; j <= last && j < s->len; j++) {
        double x0 = (double)below(s, j) / h.n, x1 = (double)below(s, j + 1) / h.n, w;
        if (x1 <= mean)
            w = hd_tail(&h, x1, 0) - hd_tail(&h, x0, 0);
        else if (x0 >= mean)
            w = hd_tail(&h, x0, 1) - hd_tail(&h, x1, 1);
        else
            w = 1 - hd_tail(&h, x0, 0) - hd_tail(&h, x1, 1);
        if (w > 0)
            tally__ksum_add(&sum, w * (s->value[j] * scale));
    }
    if (h.failed)
        return tally__error(TALLY_ENUMERIC, "quantile: the incomplete Beta function failed for "
                                            "the Harrell-Davis weights of %.17g values", h.n);
    /* The weights sum to 1: the estimate lies within the values, whatever the rounding. */
    *out = tally__clamp(tally__ksum_value(&sum) / scale, s->value[0], s->value[s->len - 1]);
    return TALLY_OK;
}

int tally__wsample_percentile(double *out, const tally__wsample *s, double p,
                              tally_percentile_method method)
{
    if (!(p >= 0 && p <= 100))
        return tally__error(TALLY_EINVAL, "percentile %g is outside [0, 100]", p);
    if (method == TALLY_PERCENTILE_HARRELL_DAVIS)
        return harrell_davis(out, s, p / 100);
    if (method != TALLY_PERCENTILE_LINEAR && method != TALLY_PERCENTILE_NEAREST_RANK)
        return tally__error(TALLY_EINVAL, "unknown percentile method %d", (int)method);
    /* The ranks of percentile.c (type 7 or type 1), looked up in the cumulative counts. */
    size_t ranks[2], count = tally__percentile_ranks(ranks, (size_t)s->n, p, method);
    double v[2];
    for (size_t i = 0; i < count; i++)
        v[i] = tally__wsample_at(s, ranks[i]);
    *out = tally__percentile_from(v, (size_t)s->n, p, method);
    return TALLY_OK;
}

/* ---- the order-statistic interval ---- */

/* Under Binomial(n, q), the number of values below the population quantile: P(B <= l - 1), the
 * probability that x_(l) (1-based) lies above the quantile, and P(B >= u), that x_(u) lies
 * below it. Both through the Beta function, which takes any n (gsl_cdf_binomial_P stops at
 * 2^32 trials). */
static double low_tail(uint64_t l, double n, double q)
{
    return gsl_cdf_beta_Q(q, (double)l, n - (double)l + 1);
}

static double high_tail(uint64_t u, double n, double q)
{
    return gsl_cdf_beta_P(q, (double)u, n - (double)u + 1);
}

int tally__percentile_ci_ranks(uint64_t *lo, uint64_t *hi, double *level, uint64_t n, double p,
                               double confidence)
{
    tally__ensure_init();
    if (n < 2 || n > MAX_TOTAL || !(p > 0 && p < 100) || !(confidence > 0 && confidence < 1))
        return 0;
    double q = p / 100, dn = (double)n, half = (1 - confidence) / 2;
    double tl = low_tail(1, dn, q), th = high_tail(n, dn, q);
    if (!(tl <= half) || !(th <= half))
        return 0; /* even x_(1) or x_(n) cannot bound the percentile at this level */
    /* The lower tail grows with l: the largest l still within half. */
    uint64_t l = 1, u = n, a = 1, b = n;
    while (a < b) {
        uint64_t mid = a + (b - a + 1) / 2;
        double t = low_tail(mid, dn, q);
        if (isfinite(t) && t <= half)
            a = mid;
        else
            b = mid - 1;
    }
    l = a;
    tl = low_tail(l, dn, q);
    /* The upper tail falls as u grows: the smallest u still within half. */
    a = 1;
    b = n;
    while (a < b) {
        uint64_t mid = a + (b - a) / 2;
        double t = high_tail(mid, dn, q);
        if (isfinite(t) && t <= half)
            b = mid;
        else
            a = mid + 1;
    }
    u = a;
    th = high_tail(u, dn, q);
    *lo = l - 1;
    *hi = u - 1;
    *level = 1 - tl - th;
    return 1;
}

int tally__wsample_percentile_ci(double *lo, double *hi, double *level, const tally__wsample *s,
                                 double p, double confidence)
{
    uint64_t rl, rh;
    if (!tally__percentile_ci_ranks(&rl, &rh, level, s->n, p, confidence))
        return 0;
    *lo = tally__wsample_at(s, rl);
    *hi = tally__wsample_at(s, rh);
    return 1;
}

uint64_t tally__percentile_ci_min_n(double p, double confidence)
{
    /* The widest pair [x_(1), x_(n)] needs (1 - q)^n and q^n both within (1 - conf) / 2. */
    if (!(p > 0 && p < 100) || !(confidence > 0 && confidence < 1))
        return 0;
    double q = p / 100, half = (1 - confidence) / 2;
    double worst = fmax(q, 1 - q);
    double n = ceil(log(half) / log(worst));
    if (!(n <= 4294967296.0))
        return 0;
    uint64_t k = n < 2 ? 2 : (uint64_t)n;
    /* The logarithms may round across an integer: step to the exact boundary. */
    while (k > 2 && pow(worst, (double)(k - 1)) <= half)
        k--;
    while (pow(worst, (double)k) > half)
        k++;
    return k;
}
