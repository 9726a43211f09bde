/*
 * Change points of a series of points, each holding the runs of one commit (docs/history.md).
 *
 * 1. Spikes: a point far from the median of its neighbours (Hampel filter, half-width the
 *    minimum segment) is an outlier: left out of the levels and tests, reported as such.
 * 2. Candidates: the local maxima of the windowed E-divisive statistic of the point means
 *    (Matteson & James 2014, "A nonparametric approach for multiple change point analysis of
 *    multivariate data", JASA 109(505); windowed as in Fleming et al., ICPE 2023, "Hunter: using
 *    change point detection to hunt for performance regressions"), outliers replaced by their
 *    neighbourhood's median.
 * 3. Significance: each candidate's two neighbouring segments are compared by Welch's t on
 *    their runs. Runs of one commit share a build and a machine, so the standard error of a
 *    level is the larger of the runs' (s^2 / runs) and the points' (cluster-robust: the spread
 *    of the point means, at least the series' noise from neighbouring differences over its
 *    points) estimate. The split was chosen as the best of the (len - 2 m + 1)
 *    splits the merged segment allows, so p is multiplied by that count (Bonferroni): under no
 *    change the chance that any split of the segment passes is at most alpha. The weakest
 *    candidate failing alpha, the minimum change or the minimum segment is removed and its
 *    neighbours retested (a heap), until every one passes; each survivor is then moved to the
 *    least-squares split of its segment pair and the elimination repeated.
 * 4. Drift: Mann-Kendall and the Theil-Sen slope (Sen 1968) over the newest level.
 *
 * Cost: the scan O(n w), the filter O(n m), the elimination O(K log K) for K candidates, the
 * drift O(L^2) for the newest level's L <= 1000 points.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "stats/changepoint_impl.h"
#include "stats/compare_impl.h"
#include "stats/select.h"
#include "stats/stats_internal.h"
#include "util/internal.h"
#include "util/options.h"
#include "util/result.h"

TALLY__OPTIONS_FUNCTIONS(tally_changepoint_options, TALLY_CHANGEPOINT_OPTIONS, sizeof(tally_changepoint_options))

/* The newest level's drift is tested over at most this many points (O(L^2) pairs). */
#define TREND_MAX_POINTS 1000
#define TREND_MIN_POINTS 8
/* Hampel: points beyond this many robust SDs of their neighbourhood are outliers. */
#define HAMPEL_K 5.0

struct tally_changepoints {
    size_t points;
    double *mean;             /* per point */
    unsigned char *outlier;   /* per point */
    size_t *outliers;
    size_t outlier_count;
    tally_changepoint *cps;
    size_t count;
    tally_trend trend;
};

/* ---- the windowed E-divisive statistic ---- */

static size_t lower_bound(const double *s, size_t n, double v)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void sorted_insert(double *s, size_t *n, double v)
{
    size_t at = lower_bound(s, *n, v);
    memmove(s + at + 1, s + at, (*n - at) * sizeof *s);
    s[at] = v;
    (*n)++;
}

static void sorted_remove(double *s, size_t *n, double v)
{
    size_t at = lower_bound(s, *n, v); /* v is present: s[at] == v */
    memmove(s + at, s + at + 1, (*n - at - 1) * sizeof *s);
    (*n)--;
}

/* sum_{i<j} (s_j - s_i) of a sorted array. */
static double within_sum(const double *s, size_t n)
{
    double sum = 0;
    for (size_t j = 0; j < n; j++)
        sum += s[j] * (2.0 * (double)j - (double)n + 1.0);
    return sum;
}

/* sum_{i,j} |l_i - r_j| of two sorted arrays, by one merge walk. */
static double cross_sum(const double *l, size_t a, const double *r, size_t b)
{
    double total = 0, below = 0, sum = 0;
    for (size_t i = 0; i < a; total += l[i++])
        ;
    size_t p = 0;
    for (size_t j = 0; j < b; j++) {
        while (p < a && l[p] <= r[j])
            below += l[p++];
        sum += r[j] * (double)p - below + (total - below) - r[j] * (double)(a - p);
    }
    return sum;
}

int tally__edivisive_scan(double *q, const double *c, size_t n, size_t m, size_t w)
{
    for (size_t t = 0; t <= n; t++)
        q[t] = 0;
    double *l = tally__malloc(2 * w * sizeof *l);
    if (l == NULL)
        return tally__oom();
    double *r = l + w;
    size_t a = 0, b = 0;
    for (size_t i = m > w ? m - w : 0; i < m; i++)
        sorted_insert(l, &a, c[i]);
    for (size_t i = m; i < n && i < m + w; i++)
        sorted_insert(r, &b, c[i]);
    for (size_t t = m; t + m <= n; t++) {
        double da = (double)a, db = (double)b;
        double e = 2 * cross_sum(l, a, r, b) / (da * db) - within_sum(l, a) / (da * (da - 1) / 2) -
                   within_sum(r, b) / (db * (db - 1) / 2);
        q[t] = da * db / (da + db) * e;
        /* Slide: c[t] moves from after to before, c[t - w] leaves, c[t + w] enters. */
        if (t >= w)
            sorted_remove(l, &a, c[t - w]);
        sorted_insert(l, &a, c[t]);
        sorted_remove(r, &b, c[t]);
        if (t + w < n)
            sorted_insert(r, &b, c[t + w]);
    }
    tally__free_mem(l);
    return TALLY_OK;
}

/* ---- spikes ---- */

int tally__hampel(unsigned char *out, double *repl, double *noise, int *relative,
                  const double *c, size_t n, size_t h)
{
    double *win = tally__malloc((n > 2 * h + 1 ? n : 2 * h + 1) * sizeof *win);
    if (win == NULL)
        return tally__oom();
    /* The series' own noise from neighbouring differences, which steps and spikes barely move:
     * median |c[i+1] - c[i]| is 0.6745 sqrt(2) sigma for normal noise. A floor under the
     * local scale, which is 0 when most of a short window holds one value (discrete data). */
    /* Benchmark results of one sign are noisy in proportion to their level (a CV), so the
     * differences are taken relative to the pair's mean, and the scale at a point is that
     * times its level: right on a history whose level moves by a large factor. */
    int rel = n > 0;
    for (size_t i = 0; i < n; i++)
        rel &= c[i] > 0 || (c[i] < 0 && c[0] < 0);
    rel &= n == 0 || !(c[0] > 0 && c[n - 1] < 0);
    double global = 0;
    if (n >= 2) {
        for (size_t i = 0; i + 1 < n; i++)
            win[i] = fabs(c[i + 1] - c[i]) / (rel ? (fabs(c[i + 1]) + fabs(c[i])) / 2 : 1);
        tally__select(win, n - 1, (n - 1) / 2);
        global = 1.4826 * win[(n - 1) / 2] / sqrt(2.0);
    }
    *noise = global;
    *relative = rel;
    for (size_t i = 0; i < n; i++) {
        size_t lo = i > h ? i - h : 0, hi = i + h + 1 < n ? i + h + 1 : n, k = hi - lo;
        memcpy(win, c + lo, k * sizeof *win);
        tally__select(win, k, k / 2);
        double med = win[k / 2];
        if (k % 2 == 0) {
            tally__select(win, k / 2, k / 2 - 1);
            med = (med + win[k / 2 - 1]) / 2;
        }
        for (size_t j = 0; j < k; j++)
            win[j] = fabs(c[lo + j] - med);
        tally__select(win, k, k / 2);
        double mad = win[k / 2];
        if (k % 2 == 0) {
            tally__select(win, k / 2, k / 2 - 1);
            mad = (mad + win[k / 2 - 1]) / 2;
        }
        double scale = fmax(fmax(1.4826 * mad, rel ? global * fabs(med) : global),
                            1e-9 * fabs(med));
        out[i] = fabs(c[i] - med) > HAMPEL_K * scale;
        repl[i] = out[i] ? med : c[i];
    }
    tally__free_mem(win);
    return TALLY_OK;
}

/* ---- segments: prefix sums of the runs around a reference value ---- */

typedef struct prefix {
    long double runs, r1, r2; /* runs, sum (x - ref), sum (x - ref)^2 */
    long double w2, w2c, w2cc; /* sum k^2, sum k^2 (c - ref), sum k^2 (c - ref)^2 over points */
    size_t points;             /* points that are not outliers */
} prefix;

/* The variance of a level's mean is at least the series' noise (the Hampel filter's estimate
 * from neighbouring differences, of one point's mean) over its points: a short level whose few
 * points happen to agree closely would otherwise get a tiny standard error and a huge t. */
typedef struct segment {
    double mean, centred; /* mean of the runs; mean - ref */
    double var;           /* variance of that mean */
    double df;            /* degrees of freedom of var */
    size_t runs, points;
    int ok;               /* at least 2 points and 2 runs */
} segment;

static void segment_of(segment *s, const prefix *p, size_t from, size_t to, double ref,
                       double noise, int relative)
{
    const prefix *a = p + from, *b = p + to;
    long double k = b->runs - a->runs, r1 = b->r1 - a->r1;
    s->points = b->points - a->points;
    s->runs = (size_t)k;
    s->ok = s->points >= 2 && s->runs >= 2;
    if (!s->ok)
        return;
    long double d = r1 / k;
    long double ss = (b->r2 - a->r2) - r1 * d;
    long double runs_var = ss > 0 ? ss / (k - 1) / k : 0;
    long double q = (b->w2cc - a->w2cc) - 2 * d * (b->w2c - a->w2c) + d * d * (b->w2 - a->w2);
    long double pts = (long double)s->points;
    long double points_var = q > 0 ? pts / (pts - 1) * q / (k * k) : 0;
    s->centred = (double)d;
    s->mean = ref + s->centred;
    long double floor_sd = relative ? noise * fabs(s->mean) : noise;
    if (points_var < floor_sd * floor_sd / pts)
        points_var = floor_sd * floor_sd / pts;
    if (points_var > runs_var) {
        s->var = (double)points_var;
        s->df = (double)(pts - 1);
    } else {
        s->var = (double)runs_var;
        s->df = (double)(k - 1);
    }
}

static void moments_of(tally__test_moments *m, const segment *s)
{
    m->n = (size_t)s->df + 1;
    m->mean = s->mean;
    m->sd = sqrt(s->var * (double)m->n);
    m->constant = s->var == 0;
    m->centred = s->centred;
    m->pivoted = 1;
}

/* The test of a split at t between the segments [lo, t) and [t, hi). */
typedef struct split_test {
    segment before, after;
    tally__ttest tt;
    double p_adj, magnitude; /* |after / before - 1| in percent */
    int pass;
} split_test;

typedef struct detector {
    const tally_changepoint_options *o;
    const prefix *p;
    double ref;
    size_t n;
    double noise;     /* the series' noise of one point's mean (tally__hampel) */
    int relative;     /* noise is relative to the level */
} detector;

static int test_split(split_test *s, const detector *d, size_t lo, size_t t, size_t hi)
{
    size_t m = d->o->min_segment;
    s->pass = 0;
    s->p_adj = 1;
    s->magnitude = 0;
    if (t - lo < m || hi - t < m)
        return TALLY_OK;
    segment_of(&s->before, d->p, lo, t, d->ref, d->noise, d->relative);
    segment_of(&s->after, d->p, t, hi, d->ref, d->noise, d->relative);
    if (!s->before.ok || !s->after.ok)
        return TALLY_OK;
    tally__test_moments ma, mb;
    moments_of(&ma, &s->after);
    moments_of(&mb, &s->before);
    int rc = tally__welch_moments(&s->tt, &ma, &mb);
    if (rc)
        return rc;
    double splits = (double)(hi - lo - 2 * m + 1);
    s->p_adj = fmin(1.0, s->tt.p * splits);
    double diff = s->after.centred - s->before.centred, base = fabs(s->before.mean);
    s->magnitude = base > 0 ? 100 * fabs(diff) / base : (diff != 0 ? INFINITY : 0);
    s->pass = s->p_adj <= d->o->alpha && s->magnitude >= d->o->min_change_pct;
    return TALLY_OK;
}

/* ---- backward elimination over a linked list of candidates, weakest first (a heap) ---- */

typedef struct heap_entry {
    double p_adj, magnitude;
    size_t id;
    unsigned stamp;
} heap_entry;

/* Whether x should be removed before y: failing first, then the larger p, the smaller change,
 * the later point. */
static int weaker(const heap_entry *x, const heap_entry *y, const size_t *pos)
{
    if (x->p_adj != y->p_adj)
        return x->p_adj > y->p_adj;
    if (x->magnitude != y->magnitude)
        return x->magnitude < y->magnitude;
    return pos[x->id] > pos[y->id];
}

typedef struct heap {
    heap_entry *e;
    size_t n, cap;
} heap;

static int heap_push(heap *h, heap_entry v, const size_t *pos)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        heap_entry *grown = tally__reallocarray(h->e, cap, sizeof *grown);
        if (grown == NULL)
            return tally__oom();
        h->e = grown;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && weaker(&v, &h->e[(i - 1) / 2], pos)) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = v;
    return TALLY_OK;
}

static heap_entry heap_pop(heap *h, const size_t *pos)
{
    heap_entry top = h->e[0], last = h->e[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && weaker(&h->e[c + 1], &h->e[c], pos))
            c++;
        if (!weaker(&h->e[c], &last, pos))
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n > 0)
        h->e[i] = last;
    return top;
}

typedef struct candidates {
    size_t *pos;      /* split points, ascending */
    size_t count;
    size_t *prev, *next; /* linked list over ids; count = none */
    unsigned *stamp;
    int *alive;
} candidates;

static size_t bound_before(const candidates *c, size_t id)
{
    return c->prev[id] == c->count ? 0 : c->pos[c->prev[id]];
}

static size_t bound_after(const candidates *c, size_t id, size_t n)
{
    return c->next[id] == c->count ? n : c->pos[c->next[id]];
}

static int push_test(heap *h, candidates *c, const detector *d, size_t id)
{
    split_test s;
    int rc = test_split(&s, d, bound_before(c, id), c->pos[id], bound_after(c, id, d->n));
    if (rc)
        return rc;
    /* A candidate that passes goes in with p_adj -1 so that it never outranks a failing one. */
    heap_entry e = { s.pass ? -1.0 : s.p_adj, s.magnitude, id, ++c->stamp[id] };
    if (!s.pass && e.p_adj <= d->o->alpha)
        e.p_adj = 2.0; /* too small a change or too short: removed before any p */
    return heap_push(h, e, c->pos);
}

/* Keep the candidates that pass when their neighbours are the other survivors; c->pos is
 * compacted to them. */
static int eliminate(candidates *c, const detector *d)
{
    size_t k = c->count;
    for (size_t i = 0; i < k; i++) {
        c->prev[i] = i == 0 ? k : i - 1;
        c->next[i] = i + 1 == k ? k : i + 1;
        c->alive[i] = 1;
        c->stamp[i] = 0;
    }
    heap h = { NULL, 0, 0 };
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < k; i++)
        rc = push_test(&h, c, d, i);
    while (rc == TALLY_OK && h.n > 0) {
        heap_entry e = heap_pop(&h, c->pos);
        if (!c->alive[e.id] || e.stamp != c->stamp[e.id])
            continue;
        if (e.p_adj < 0)
            break; /* the weakest passes: all do */
        c->alive[e.id] = 0;
        size_t pv = c->prev[e.id], nx = c->next[e.id];
        if (pv != k)
            c->next[pv] = nx;
        if (nx != k)
            c->prev[nx] = pv;
        if (pv != k)
            rc = push_test(&h, c, d, pv);
        if (rc == TALLY_OK && nx != k)
            rc = push_test(&h, c, d, nx);
    }
    tally__free_mem(h.e);
    size_t kept = 0;
    for (size_t i = 0; i < k; i++)
        if (c->alive[i])
            c->pos[kept++] = c->pos[i];
    c->count = kept;
    return rc;
}

/* Move each change point to the least-squares split of its neighbours' span within
 * min_segment of where it is: the largest between-levels sum of squares of the runs,
 * Ka Kb / (Ka + Kb) (mean_a - mean_b)^2 (the location estimate of a single change; |t| would
 * favour a short level whose few points happen to agree). Sets *moved when any moved. */
static int refine(candidates *c, const detector *d, int *moved)
{
    size_t m = d->o->min_segment;
    *moved = 0;
    for (size_t i = 0; i < c->count; i++) {
        size_t lo = i ? c->pos[i - 1] : 0, hi = i + 1 < c->count ? c->pos[i + 1] : d->n;
        size_t t0 = c->pos[i];
        size_t from = t0 > lo + m + m ? t0 - m : lo + m, to = t0 + m + m < hi ? t0 + m : hi - m;
        size_t best = t0;
        double best_ss = -1;
        for (size_t t = from; t <= to; t++) {
            segment a, b;
            segment_of(&a, d->p, lo, t, d->ref, d->noise, d->relative);
            segment_of(&b, d->p, t, hi, d->ref, d->noise, d->relative);
            if (!a.ok || !b.ok)
                continue;
            double ka = (double)a.runs, kb = (double)b.runs, diff = a.centred - b.centred;
            double ss = ka * kb / (ka + kb) * diff * diff;
            if (ss > best_ss || (ss == best_ss && (t > t0 ? t - t0 : t0 - t) <
                                                      (best > t0 ? best - t0 : t0 - best))) {
                best_ss = ss;
                best = t;
            }
        }
        if (best != t0) {
            c->pos[i] = best;
            *moved = 1;
        }
    }
    return TALLY_OK;
}

/* ---- the drift of the newest level ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int trend_of(tally_trend *tr, const double *mean, const unsigned char *outlier,
                    size_t first, size_t n, const tally_changepoint_options *o)
{
    memset(tr, 0, sizeof *tr);
    tr->size = sizeof *tr;
    if (n - first < TREND_MIN_POINTS)
        return TALLY_OK;
    size_t *idx = tally__malloc((n - first) * sizeof *idx);
    if (idx == NULL)
        return tally__oom();
    size_t L = 0;
    for (size_t i = first; i < n; i++)
        if (!outlier[i])
            idx[L++] = i;
    size_t skip = L > TREND_MAX_POINTS ? L - TREND_MAX_POINTS : 0;
    size_t *use = idx + skip;
    L -= skip;
    if (L < TREND_MIN_POINTS) {
        tally__free_mem(idx);
        return TALLY_OK;
    }
    size_t pairs = L * (L - 1) / 2;
    double *slopes = tally__malloc((pairs + L) * sizeof *slopes);
    if (slopes == NULL) {
        tally__free_mem(idx);
        return tally__oom();
    }
    double *sorted = slopes + pairs;
    long long s = 0;
    size_t k = 0;
    double level = 0;
    for (size_t i = 0; i < L; i++) {
        double xi = mean[use[i]];
        sorted[i] = xi;
        level += xi;
        for (size_t j = i + 1; j < L; j++) {
            double xj = mean[use[j]];
            s += (xj > xi) - (xj < xi);
            slopes[k++] = (xj - xi) / (double)(use[j] - use[i]);
        }
    }
    level /= (double)L;
    /* Var(S) with ties (Kendall 1975): [n(n-1)(2n+5) - sum t(t-1)(2t+5)] / 18. */
    qsort(sorted, L, sizeof *sorted, cmp_double);
    double dl = (double)L, var = dl * (dl - 1) * (2 * dl + 5);
    for (size_t i = 0; i < L;) {
        size_t j = i;
        while (j < L && sorted[j] == sorted[i])
            j++;
        double t = (double)(j - i);
        var -= t * (t - 1) * (2 * t + 5);
        i = j;
    }
    var /= 18;
    double z = 0;
    if (var > 0 && s != 0)
        z = ((double)s - (s > 0 ? 1 : -1)) / sqrt(var);
    double p = var > 0 ? fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(z))) : 1.0;
    /* Sen's slope: the median of the pairwise slopes; its interval the order statistics
     * (N -+ z sqrt(Var S)) / 2 of them (Gilbert 1987, 16.4). */
    size_t ranks[4];
    size_t nr = 0;
    ranks[nr++] = (pairs - 1) / 2;
    ranks[nr++] = pairs / 2;
    double c = gsl_cdf_ugaussian_Qinv((1 - o->confidence) / 2) * sqrt(var);
    double m1 = floor(((double)pairs - c) / 2), m2 = ceil(((double)pairs + c) / 2);
    size_t r1 = m1 < 1 ? 0 : (size_t)m1 - 1, r2 = m2 >= (double)pairs ? pairs - 1 : (size_t)m2;
    ranks[nr++] = r1;
    ranks[nr++] = r2;
    size_t want[4] = { ranks[0], ranks[1], r1, r2 };
    tally__select_ranks(slopes, pairs, ranks, nr);
    double slope = (slopes[want[0]] + slopes[want[1]]) / 2;
    double lo = slopes[want[2]], hi = slopes[want[3]];
    tally__free_mem(slopes);
    double span = (double)(use[L - 1] - use[0]);
    tr->tested = 1;
    tr->first = use[0];
    tr->count = L;
    tally__free_mem(idx);
    double scale = level != 0 ? 100 / fabs(level) : 0;
    if (o->direction == TALLY_LOWER_IS_BETTER) {
        tr->slope_pct = -slope * scale;
        tr->slope_pct_low = -hi * scale;
        tr->slope_pct_high = -lo * scale;
    } else {
        tr->slope_pct = slope * scale;
        tr->slope_pct_low = lo * scale;
        tr->slope_pct_high = hi * scale;
    }
    tr->total_pct = tr->slope_pct * span;
    tr->p_value = p;
    tr->drifting = p < o->alpha && fabs(tr->total_pct) >= o->min_change_pct;
    tr->verdict = !tr->drifting ? TALLY_VERDICT_INCONCLUSIVE
                  : tr->total_pct < 0 ? TALLY_VERDICT_REGRESSION : TALLY_VERDICT_IMPROVEMENT;
    return TALLY_OK;
}

/* ---- the entry point ---- */

static int check_input(const double *values, const size_t *offsets, size_t points)
{
    if (offsets == NULL || (values == NULL && points > 0))
        return tally__error(TALLY_EINVAL, "changepoints: NULL values or offsets");
    if (offsets[0] != 0)
        return tally__error(TALLY_EINVAL, "changepoints: offsets[0] is %zu, expected 0",
                            offsets[0]);
    for (size_t i = 0; i < points; i++) {
        if (offsets[i + 1] <= offsets[i])
            return tally__error(TALLY_EINVAL, "changepoints: point %zu holds no run (offsets "
                                              "%zu, %zu)", i, offsets[i], offsets[i + 1]);
        for (size_t j = offsets[i]; j < offsets[i + 1]; j++)
            if (!isfinite(values[j]))
                return tally__error(TALLY_ENONFINITE, "changepoints: point %zu, run %zu is %g",
                                    i, j - offsets[i] + 1, values[j]);
    }
    return TALLY_OK;
}

static int check_options(const tally_changepoint_options *o)
{
    if (!(o->alpha > 0 && o->alpha < 1) || !(o->confidence > 0 && o->confidence < 1))
        return tally__error(TALLY_EINVAL, "changepoints: alpha %g and confidence %g must lie "
                                          "between 0 and 1", o->alpha, o->confidence);
    if (o->min_segment < 2 || o->window < o->min_segment)
        return tally__error(TALLY_EINVAL, "changepoints: min_segment %zu must be at least 2 "
                                          "and window %zu at least min_segment",
                            o->min_segment, o->window);
    if (!(o->min_change_pct >= 0) || !isfinite(o->min_change_pct))
        return tally__error(TALLY_EINVAL, "changepoints: min_change_pct %g must be >= 0",
                            o->min_change_pct);
    if (o->direction != TALLY_LOWER_IS_BETTER && o->direction != TALLY_HIGHER_IS_BETTER)
        return tally__error(TALLY_EINVAL, "changepoints: unknown direction %d", (int)o->direction);
    return TALLY_OK;
}

void tally_changepoints_free(tally_changepoints *cp)
{
    if (cp == NULL)
        return;
    tally__free_mem(cp->mean);
    tally__free_mem(cp->outlier);
    tally__free_mem(cp->outliers);
    tally__free_mem(cp->cps);
    tally__free_mem(cp);
}

/* Point means, outliers and the prefix sums. */
static int prepare(tally_changepoints *cp, prefix *p, double *repl, const double *values,
                   const size_t *offsets, size_t n, size_t m, double *ref, double *noise,
                   int *relative)
{
    for (size_t i = 0; i < n; i++)
        cp->mean[i] = tally__mean(values + offsets[i], offsets[i + 1] - offsets[i]);
    int rc = tally__hampel(cp->outlier, repl, noise, relative, cp->mean, n, m);
    if (rc)
        return rc;
    *ref = n ? repl[0] : 0;
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < n; i++) {
        p[i + 1] = p[i];
        if (cp->outlier[i]) {
            cp->outlier_count++;
            continue;
        }
        long double k = (long double)(offsets[i + 1] - offsets[i]), c = 0;
        for (size_t j = offsets[i]; j < offsets[i + 1]; j++) {
            long double x = (long double)values[j] - *ref;
            p[i + 1].r1 += x;
            p[i + 1].r2 += x * x;
            c += x;
        }
        c /= k;
        p[i + 1].runs += k;
        p[i + 1].w2 += k * k;
        p[i + 1].w2c += k * k * c;
        p[i + 1].w2cc += k * k * c * c;
        p[i + 1].points++;
    }
    if (cp->outlier_count) {
        cp->outliers = tally__malloc(cp->outlier_count * sizeof *cp->outliers);
        if (cp->outliers == NULL)
            return tally__oom();
        for (size_t i = 0, k = 0; i < n; i++)
            if (cp->outlier[i])
                cp->outliers[k++] = i;
    }
    return TALLY_OK;
}

/* The local maxima of the scan of centred[lo, hi) (windows cut at the segment's ends), strictly
 * above every split within min_segment - 1 before, at least as high as those after: at most
 * one per min_segment points, appended to out[*count]. q has room for hi - lo + 1 values. */
static int segment_peaks(size_t *out, size_t *count, double *q, const double *centred,
                         size_t lo, size_t hi, const tally_changepoint_options *o)
{
    size_t m = o->min_segment, n = hi - lo;
    if (n < 2 * m)
        return TALLY_OK;
    int rc = tally__edivisive_scan(q, centred + lo, n, m, o->window);
    for (size_t t = m; rc == TALLY_OK && t + m <= n; t++) {
        if (!(q[t] > 0))
            continue;
        int peak = 1;
        for (size_t u = t - m + 1; peak && u < t + m && u + m <= n; u++)
            if (u >= m && u != t && (u < t ? q[u] >= q[t] : q[u] > q[t]))
                peak = 0;
        if (peak)
            out[(*count)++] = lo + t;
    }
    return rc;
}

/* Candidates: the peaks of every segment between the change points held in c (none at first:
 * the whole series), merged with those change points, ascending. Each segment is scanned with
 * its windows cut at its ends, as binary segmentation would: where two steps of one sign lie
 * within a window of each other, the first shows as a shoulder of the whole series' scan, not
 * a peak, but as a peak of its own segment once the second is found. *added: new ones. */
static int find_candidates(candidates *c, size_t *scratch, double *q, const double *centred,
                           size_t n, const tally_changepoint_options *o, size_t *added)
{
    size_t k = 0, lo = 0;
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i <= c->count; i++) {
        size_t hi = i < c->count ? c->pos[i] : n, before = k;
        rc = segment_peaks(scratch, &k, q, centred, lo, hi, o);
        *added += k - before;
        if (i < c->count)
            scratch[k++] = c->pos[i];
        lo = hi;
    }
    memcpy(c->pos, scratch, k * sizeof *scratch);
    c->count = k;
    return rc;
}

static void fill_changepoint(tally_changepoint *cp, const split_test *s, size_t lo, size_t t,
                             size_t hi, const tally_changepoint_options *o)
{
    memset(cp, 0, sizeof *cp);
    cp->size = sizeof *cp;
    cp->index = t;
    cp->before_first = lo;
    cp->after_end = hi;
    cp->before = s->before.mean;
    cp->after = s->after.mean;
    cp->before_runs = s->before.runs;
    cp->after_runs = s->after.runs;
    double qb = gsl_cdf_tdist_Qinv((1 - o->confidence) / 2, s->before.df);
    double qa = gsl_cdf_tdist_Qinv((1 - o->confidence) / 2, s->after.df);
    cp->before_low = cp->before - qb * sqrt(s->before.var);
    cp->before_high = cp->before + qb * sqrt(s->before.var);
    cp->after_low = cp->after - qa * sqrt(s->after.var);
    cp->after_high = cp->after + qa * sqrt(s->after.var);
    double d = (s->after.centred - s->before.centred) / s->before.mean;
    cp->pct_imp = o->direction == TALLY_LOWER_IS_BETTER ? -100 * d : 100 * d;
    double lo_r, hi_r;
    cp->pct_imp_low = cp->pct_imp_high = NAN;
    if (tally__fieller_interval(&lo_r, &hi_r, s->before.mean, s->before.var, s->after.mean,
                                s->after.var, d, s->tt.df, o->confidence))
        tally__pct_bounds(&cp->pct_imp_low, &cp->pct_imp_high, lo_r, hi_r, o->direction);
    cp->t = s->tt.t;
    cp->df = s->tt.df;
    cp->p_raw = s->tt.p;
    cp->p_value = s->p_adj;
    cp->verdict = cp->pct_imp < 0 ? TALLY_VERDICT_REGRESSION : TALLY_VERDICT_IMPROVEMENT;
}

static int detect(tally_changepoints *cp, const double *values, const size_t *offsets,
                  size_t n, const tally_changepoint_options *o)
{
    size_t m = o->min_segment;
    prefix *p = tally__calloc(n + 1, sizeof *p);
    double *repl = tally__malloc((n ? n : 1) * sizeof *repl);
    size_t slots = n / m + 1;
    candidates c = { tally__malloc(slots * sizeof(size_t)), 0, tally__malloc(slots * sizeof(size_t)),
                     tally__malloc(slots * sizeof(size_t)), tally__malloc(slots * sizeof(unsigned)),
                     tally__malloc(slots * sizeof(int)) };
    size_t *scratch = tally__malloc(slots * sizeof *scratch);
    double *q = tally__malloc((2 * n + 1) * sizeof *q), *centred = q ? q + n + 1 : NULL;
    int rc = p && repl && c.pos && c.prev && c.next && c.stamp && c.alive && scratch && q
                 ? TALLY_OK : tally__oom();
    double ref = 0, noise = 0;
    int relative = 0;
    if (rc == TALLY_OK)
        rc = prepare(cp, p, repl, values, offsets, n, m, &ref, &noise, &relative);
    for (size_t i = 0; rc == TALLY_OK && i < n; i++)
        centred[i] = repl[i] - ref;
    detector d = { o, p, ref, n, noise, relative };
    /* Rounds of: candidates (the change points so far and the peaks of each segment between
     * them), elimination, refinement (a point moves only to a better split, but its neighbours'
     * tests change, so it is eliminated again). Bounded, so a pathological series cannot loop;
     * a round that adds no candidate ends it. */
    for (int round = 0; rc == TALLY_OK && round < 8; round++) {
        size_t added = 0;
        rc = find_candidates(&c, scratch, q, centred, n, o, &added);
        if (rc != TALLY_OK || (round > 0 && added == 0))
            break;
        rc = eliminate(&c, &d);
        for (int r = 0, moved = 1; rc == TALLY_OK && moved && r < 4; r++) {
            rc = refine(&c, &d, &moved);
            if (rc == TALLY_OK && moved)
                rc = eliminate(&c, &d);
        }
    }
    if (rc == TALLY_OK && c.count) {
        cp->cps = tally__malloc(c.count * sizeof *cp->cps);
        if (cp->cps == NULL)
            rc = tally__oom();
    }
    for (size_t i = 0; rc == TALLY_OK && i < c.count; i++) {
        size_t lo = i ? c.pos[i - 1] : 0, hi = i + 1 < c.count ? c.pos[i + 1] : n;
        split_test s;
        rc = test_split(&s, &d, lo, c.pos[i], hi);
        if (rc == TALLY_OK)
            fill_changepoint(&cp->cps[cp->count++], &s, lo, c.pos[i], hi, o);
    }
    if (rc == TALLY_OK)
        rc = trend_of(&cp->trend, cp->mean, cp->outlier, c.count ? c.pos[c.count - 1] : 0, n, o);
    tally__free_mem(p);
    tally__free_mem(repl);
    tally__free_mem(c.pos);
    tally__free_mem(c.prev);
    tally__free_mem(c.next);
    tally__free_mem(c.stamp);
    tally__free_mem(c.alive);
    tally__free_mem(scratch);
    tally__free_mem(q);
    return rc;
}

int tally_changepoints_detect(tally_changepoints **out, const double *values,
                              const size_t *offsets, size_t points,
                              const tally_changepoint_options *opts)
{
    tally__ensure_init();
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "changepoints: NULL output");
    *out = NULL;
    tally_changepoint_options o;
    int rc = tally__options_read(&o, opts, &tally_changepoint_options_kind);
    if (rc == TALLY_OK)
        rc = check_options(&o);
    if (rc == TALLY_OK)
        rc = check_input(values, offsets, points);
    if (rc)
        return rc;
    tally_changepoints *cp = tally__calloc(1, sizeof *cp);
    if (cp == NULL)
        return tally__oom();
    cp->points = points;
    cp->mean = tally__malloc((points ? points : 1) * sizeof *cp->mean);
    cp->outlier = tally__calloc(points ? points : 1, 1);
    rc = cp->mean && cp->outlier ? detect(cp, values, offsets, points, &o) : tally__oom();
    if (rc) {
        tally_changepoints_free(cp);
        return rc;
    }
    *out = cp;
    return TALLY_OK;
}

size_t tally_changepoints_count(const tally_changepoints *cp)
{
    return cp ? cp->count : 0;
}

int tally_changepoints_at(tally_changepoint *out, const tally_changepoints *cp, size_t i)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_changepoint");
    if (rc)
        return rc;
    if (cp == NULL || i >= cp->count)
        return tally__error(TALLY_EINVAL, "changepoints: no change point %zu (%zu)", i,
                            cp ? cp->count : 0);
    tally__result_put(out, size, &cp->cps[i], sizeof cp->cps[i]);
    return TALLY_OK;
}

int tally_changepoints_trend(tally_trend *out, const tally_changepoints *cp)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_trend");
    if (rc)
        return rc;
    if (cp == NULL)
        return tally__error(TALLY_EINVAL, "changepoints: NULL result");
    tally__result_put(out, size, &cp->trend, sizeof cp->trend);
    return TALLY_OK;
}

size_t tally_changepoints_outlier_count(const tally_changepoints *cp)
{
    return cp ? cp->outlier_count : 0;
}

size_t tally_changepoints_outlier_at(const tally_changepoints *cp, size_t i)
{
    return cp && i < cp->outlier_count ? cp->outliers[i] : (size_t)-1;
}

double tally_changepoints_point_mean(const tally_changepoints *cp, size_t i)
{
    return cp && i < cp->points ? cp->mean[i] : NAN;
}
