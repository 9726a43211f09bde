/* Run-order and shape checks of one configuration's samples (include/tally/diagnose.h;
 * docs/statistics.md, "Diagnostics"). Every check is a rank test or the dip, so none depends on
 * the samples' scale or assumes normal data: benchmark times are skewed and heavy-tailed. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/diag_internal.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"
#include "util/internal.h"
#include "util/options.h"
#include "util/names.h"
#include "util/result.h"

#include <gsl/gsl_cdf.h>

/* Two-sided normal p-value of z. */
static double normal_p(double z)
{
    return 2.0 * gsl_cdf_ugaussian_Q(fabs(z));
}

/* ---- one sort for every check ---- */

/* An unsigned key ordered as the doubles are (-0 and +0 share the key of +0, as they compare
 * equal), for a radix sort. */
static uint64_t order_key(double v)
{
    uint64_t b;
    v += 0.0; /* -0 -> +0 */
    memcpy(&b, &v, sizeof b);
    return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

typedef struct keyed {
    uint64_t key;
    size_t index;
} keyed;

/* Sorts a[0..n) by key, equal keys kept in their order: an LSD radix sort (stable), 8 bits a
 * pass, skipping the passes whose digit is the same in every key (the sign and exponent bytes of
 * samples of one scale); b is scratch room for n, count room for 8 x 256. */
static void radix_sort(keyed *a, keyed *b, size_t n, size_t (*count)[256])
{
    memset(count, 0, 8 * sizeof *count);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 8; d++)
            count[d][(a[i].key >> (8 * d)) & 255]++;
    keyed *from = a, *to = b;
    for (int d = 0; d < 8; d++) {
        if (count[d][(a[0].key >> (8 * d)) & 255] == n)
            continue; /* one digit value: this pass would not move anything */
        size_t at = 0;
        for (int v = 0; v < 256; v++) {
            size_t c = count[d][v];
            count[d][v] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[d][(from[i].key >> (8 * d)) & 255]++] = from[i];
        keyed *t = from;
        from = to;
        to = t;
    }
    if (from != a)
        memcpy(a, from, n * sizeof *a);
}

/* Buckets of at most this many keys are put in order by insertion, larger ones by radix. */
#define INSERTION_MAX 32

/* The run indices of x[0..n) in ascending order of value, equal values in run order (one order
 * whatever the method: by value, then index). One stable pass distributes the keys into about
 * n buckets (a power of two, at most 2^16) by their leading bits above the smallest key, so the
 * buckets follow the order of the keys, and each bucket is then sorted on its own, stably: by
 * insertion when it is small, as it is for samples spread over their range, else by the radix
 * sort (ties, clusters). Two passes over samples of one scale instead of the radix sort's
 * seven. */
static int sort_order(size_t *order, const double *x, size_t n)
{
    unsigned bits = 1;
    while (bits < 16 && (size_t)1 << bits < n)
        bits++;
    size_t buckets = (size_t)1 << bits;
    keyed *a = tally__reallocarray(NULL, 2 * n, sizeof *a);
    /* The buckets' bounds, then the radix sort's digit counts. */
    size_t *start = tally__calloc(buckets + 1 + 8 * 256, sizeof *start);
    if (a == NULL || start == NULL) {
        tally__free_mem(a);
        tally__free_mem(start);
        return tally__error(TALLY_ENOMEM, "diagnostics: out of memory for %zu samples", n);
    }
    size_t (*count)[256] = (size_t(*)[256])(start + buckets + 1);
    keyed *b = a + n;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = order_key(x[i]);
        a[i] = (keyed){ k, i };
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    unsigned width = 0; /* significant bits of hi - lo */
    while (width < 64 && (hi - lo) >> width)
        width++;
    unsigned shift = width > bits ? width - bits : 0;
    for (size_t i = 0; i < n; i++)
        start[((a[i].key - lo) >> shift) + 1]++;
    for (size_t v = 0; v < buckets; v++)
        start[v + 1] += start[v];
    for (size_t i = 0; i < n; i++)
        b[start[(a[i].key - lo) >> shift]++] = a[i];
    /* start[v] is now where bucket v ends; a is free, the radix sort's scratch room. The large
     * buckets are sorted first, then one insertion pass over all of them puts the small ones in
     * order: no key moves past the start of its bucket, as every key of a bucket is below those
     * of the next one, so the pass costs n plus the pairs out of order within small buckets. */
    for (size_t v = 0, from = 0; v < buckets; from = start[v++])
        if (start[v] - from > INSERTION_MAX)
            radix_sort(b + from, a, start[v] - from, count);
    for (size_t i = 1; i < n; i++) {
        keyed t = b[i];
        size_t j = i;
        for (; j > 0 && b[j - 1].key > t.key; j--)
            b[j] = b[j - 1];
        b[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = b[i].index;
    tally__free_mem(start);
    tally__free_mem(a);
    return TALLY_OK;
}

/* What the checks need from the sorted samples. */
typedef struct ranked_runs {
    double *rank;      /* mid-ranks (1-based) in run order */
    double *sorted;    /* the samples in ascending order */
    size_t *order;     /* run index of each sorted position */
    size_t *pos;       /* sorted position of each run, in run order */
    double tie_term;   /* Mann-Whitney's: sum of t^3 - t over the groups of t equal values */
    double kendall_ties; /* Mann-Kendall's: sum of t (t - 1) (2t + 5) */
    double tied_pairs; /* sum of t (t - 1) / 2 */
} ranked_runs;

static void ranked_free(ranked_runs *r)
{
    tally__free_mem(r->rank);
    tally__free_mem(r->order);
    memset(r, 0, sizeof *r);
}

/* Sorts once and derives the ranks, the sorted samples and the tie terms, walking the groups of
 * equal values in ascending order. */
static int rank_runs(ranked_runs *r, const double *x, size_t n)
{
    memset(r, 0, sizeof *r);
    r->rank = tally__reallocarray(NULL, 2 * n, sizeof *r->rank);
    r->order = tally__reallocarray(NULL, 2 * n, sizeof *r->order);
    if (r->rank == NULL || r->order == NULL) {
        ranked_free(r);
        return tally__error(TALLY_ENOMEM, "diagnostics: out of memory for %zu samples", n);
    }
    r->sorted = r->rank + n;
    r->pos = r->order + n;
    int rc = sort_order(r->order, x, n);
    if (rc != TALLY_OK) {
        ranked_free(r);
        return rc;
    }
    const size_t *o = r->order;
    double *sorted = r->sorted;
    for (size_t k = 0; k < n; k++)
        sorted[k] = x[o[k]];
    double ties = 0, kendall = 0, pairs = 0;
    for (size_t i = 0; i < n;) {
        if (i + 1 == n || sorted[i + 1] != sorted[i]) {
            /* A value of its own (t = 1, the usual case): rank i + 1, and the tie terms would
             * add exact zeros to sums of non-negative terms, which leaves them as they are. */
            r->rank[o[i]] = (double)(i + 1);
            r->pos[o[i]] = i;
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < n && sorted[j] == sorted[i])
            j++;
        double mid = (double)(i + j + 1) / 2.0;
        double t = (double)(j - i);
        for (size_t k = i; k < j; k++) {
            r->rank[o[k]] = mid;
            r->pos[o[k]] = k;
        }
        ties += t * t * t - t;
        pairs += t * (t - 1) / 2;
        kendall += t * (t - 1) * (2 * t + 5);
        i = j;
    }
    r->tie_term = ties;
    r->kendall_ties = kendall;
    r->tied_pairs = pairs;
    return TALLY_OK;
}

/* ---- Mann-Kendall ---- */

/* Bits counted in parallel (SWAR): in pairs, nibbles and bytes, then the eight byte counts summed
 * by the multiplication into the top byte (each at most 8, their sum at most 64). */
unsigned tally__popcount64(uint64_t w)
{
    w -= (w >> 1) & UINT64_C(0x5555555555555555);
    w = (w & UINT64_C(0x3333333333333333)) + ((w >> 2) & UINT64_C(0x3333333333333333));
    w = (w + (w >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((w * UINT64_C(0x0101010101010101)) >> 56);
}

/* The pairs i < j (in run order) with x_i > x_j: the inversions of the runs' sorted positions,
 * as equal values sit in run order in the sort and so are no inversions. The positions met so
 * far are bits of a set, one 64-bit word per 64 positions, and a Fenwick tree counts the set
 * bits of each word: the earlier runs below a position are the tree's count of the words before
 * its own plus the bits below it in its word (O(n log(n / 64)), the set and the tree small
 * enough to stay in the first-level cache for 1e5 runs; Knight 1966 counts the same pairs by
 * merge sort). */
static int count_discordant(double *out, const size_t *pos, size_t n)
{
    size_t words = n / 64 + 1;
    uint64_t *set = tally__calloc(words, sizeof *set);
    size_t *tree = tally__calloc(words + 1, sizeof *tree);
    if (set == NULL || tree == NULL) {
        tally__free_mem(set);
        tally__free_mem(tree);
        return tally__error(TALLY_ENOMEM, "trend test: out of memory for %zu samples", n);
    }
    uint64_t inv = 0;
    for (size_t j = 0; j < n; j++) {
        size_t w = pos[j] / 64;
        uint64_t bit = UINT64_C(1) << (pos[j] % 64);
        size_t below = tally__popcount64(set[w] & (bit - 1));
        for (size_t g = w; g > 0; g &= g - 1)
            below += tree[g];
        inv += j - below;
        set[w] |= bit;
        for (size_t g = w + 1; g <= words; g += g & (~g + 1))
            tree[g]++;
    }
    tally__free_mem(set);
    tally__free_mem(tree);
    *out = (double)inv;
    return TALLY_OK;
}

static int kendall_from_ranked(double *s, const ranked_runs *r, size_t n)
{
    double discordant = 0;
    int rc = count_discordant(&discordant, r->pos, n);
    if (rc != TALLY_OK)
        return rc;
    double pairs = (double)n * (double)(n - 1) / 2;
    double concordant = pairs - discordant - r->tied_pairs;
    *s = concordant - discordant;
    return TALLY_OK;
}

int tally__kendall_s(double *s, double *tie_term, double *tied, const double *x, size_t n)
{
    if (n == 0) {
        *s = *tie_term = *tied = 0;
        return TALLY_OK;
    }
    ranked_runs r;
    int rc = rank_runs(&r, x, n);
    if (rc != TALLY_OK)
        return rc;
    rc = kendall_from_ranked(s, &r, n);
    *tie_term = r.kendall_ties;
    *tied = r.tied_pairs;
    ranked_free(&r);
    return rc;
}

static int check_trend(tally_diagnostics *d, const ranked_runs *r, size_t n)
{
    double s, tie_term = r->kendall_ties, tied = r->tied_pairs;
    int rc = kendall_from_ranked(&s, r, n);
    if (rc != TALLY_OK)
        return rc;
    double nd = (double)n;
    double var = (nd * (nd - 1) * (2 * nd + 5) - tie_term) / 18.0;
    double pairs = nd * (nd - 1) / 2;
    /* tau-b: run indices never tie, so only the values' tied pairs shrink the denominator. */
    d->trend_tau = pairs > tied ? s / sqrt(pairs * (pairs - tied)) : 0;
    if (var <= 0) {
        d->trend_p = 1; /* every run equal: no trend can be seen */
        return TALLY_OK;
    }
    /* Continuity correction: S moves in steps of 2. */
    double z = s > 0 ? (s - 1) / sqrt(var) : s < 0 ? (s + 1) / sqrt(var) : 0;
    d->trend_p = normal_p(z);
    return TALLY_OK;
}

/* Least-squares slope of x on the run index, per run, relative to the mean. */
static double relative_slope(const double *x, size_t n)
{
    double mean = tally__mean(x, n);
    double tbar = (double)(n - 1) / 2, sxy = 0, stt = 0;
    for (size_t i = 0; i < n; i++) {
        double t = (double)i - tbar;
        sxy += t * (x[i] - mean);
        stt += t * t;
    }
    return mean != 0 && stt > 0 ? sxy / stt / fabs(mean) : 0;
}

/* Bartels' rank von Neumann ratio RVN = sum (R_i - R_{i+1})^2 / sum (R_i - Rbar)^2; under
 * independence E = 2 and Var = 4 (n-2)(5n^2-2n-9) / (5 n (n+1) (n-1)^2) (Bartels 1982). */
static void check_autocorr(tally_diagnostics *d, const double *rank, size_t n)
{
    double nd = (double)n, rbar = (nd + 1) / 2, num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        den += (rank[i] - rbar) * (rank[i] - rbar);
        if (i + 1 < n)
            num += (rank[i] - rank[i + 1]) * (rank[i] - rank[i + 1]);
    }
    if (!(den > 0)) {
        d->autocorr_p = 1;
        return;
    }
    double rvn = num / den;
    double var = 4 * (nd - 2) * (5 * nd * nd - 2 * nd - 9) / (5 * nd * (nd + 1) * (nd - 1) * (nd - 1));
    d->autocorr_r1 = 1 - rvn / 2;
    d->autocorr_p = normal_p((rvn - 2) / sqrt(var));
}

/* Pettitt: U_t = 2 sum_{i<=t} R_i - t (n + 1), K = max |U_t|, p ~ 2 exp(-6 K^2 / (n^3 + n^2)). */
static void check_step(tally_diagnostics *d, const double *rank, size_t n)
{
    double nd = (double)n, cum = 0, k_max = 0;
    size_t at = 0;
    for (size_t t = 1; t < n; t++) {
        cum += rank[t - 1];
        double u = fabs(2 * cum - (double)t * (nd + 1));
        if (u > k_max) {
            k_max = u;
            at = t;
        }
    }
    double p = 2 * exp(-6 * k_max * k_max / (nd * nd * nd + nd * nd));
    d->step_p = p > 1 ? 1 : p;
    d->step_at = at;
}

/* median(runs at..n-1) / median(runs 0..at-1) - 1 (after / before when `late_first` is 0,
 * the reverse otherwise), both medians read off the sorted order: the positions of each side's
 * middle ranks are found in one walk (0 < at < n). */
static double relative_shift(const ranked_runs *r, size_t at, size_t n, int late_first)
{
    size_t m[2] = { at, n - at }, seen[2] = { 0, 0 };
    double lo[2] = { 0, 0 }, hi[2] = { 0, 0 };
    for (size_t k = 0; k < n; k++) {
        int side = r->order[k] >= at;
        size_t c = seen[side]++;
        /* The middle ranks of m values: (m - 1) / 2 and m / 2 (one rank when m is odd). */
        if (c == (m[side] - 1) / 2)
            lo[side] = r->sorted[k];
        if (c == m[side] / 2)
            hi[side] = r->sorted[k];
    }
    double med[2];
    for (int side = 0; side < 2; side++)
        med[side] = m[side] % 2 ? hi[side] : (lo[side] + hi[side]) / 2;
    double before = med[late_first ? 1 : 0], after = med[late_first ? 0 : 1];
    return before != 0 ? after / before - 1 : 0;
}

/* The first k runs against the rest for k = 1..K, K = min(10, n / 3): the smallest Mann-Whitney
 * p times K (Bonferroni), so the scan's false-alarm rate stays at most alpha. Every split pools
 * the same samples, so the ranks are computed once and each k adds one rank to the first group:
 * the same p-values as tally_mann_whitney on each split (half-integer rank sums are exact). */
static int check_warmup(tally_diagnostics *d, const double *rank, double tie_term, size_t n)
{
    size_t kmax = n / 3 < 10 ? n / 3 : 10;
    double p_of[10];
    int rc = tally__mann_whitney_splits(p_of, rank, tie_term, n, kmax);
    if (rc != TALLY_OK)
        return rc;
    double best = 2;
    size_t best_k = 0;
    for (size_t k = 1; k <= kmax; k++) {
        if (p_of[k - 1] < best) {
            best = p_of[k - 1];
            best_k = k;
        }
    }
    double p = best * (double)kmax;
    d->warmup_p = p > 1 ? 1 : p;
    d->warmup_runs = best_k;
    return TALLY_OK;
}

TALLY__OPTIONS_FUNCTIONS(tally_diagnose_options, TALLY_DIAGNOSE_OPTIONS, sizeof(tally_diagnose_options))

/* The checks into the library's own, zeroed struct `out`. */
static int diagnose(tally_diagnostics *out, const double *x, size_t n,
                    const tally_diagnose_options *opts)
{
    tally_diagnose_options options;
    int rc = tally__options_read(&options, opts, &tally_diagnose_options_kind);
    if (rc != TALLY_OK)
        return rc;
    opts = &options;
    if (!(opts->alpha > 0 && opts->alpha < 0.5))
        return tally__error(TALLY_EINVAL, "tally_diagnose: alpha %g is outside (0, 0.5)",
                            opts->alpha);
    if (opts->checks & ~(unsigned)TALLY_DIAG_ALL)
        return tally__error(TALLY_EINVAL, "tally_diagnose: unknown check bits 0x%x",
                            opts->checks & ~(unsigned)TALLY_DIAG_ALL);
    rc = tally__check_samples(x, n);
    if (rc != TALLY_OK)
        return rc;
    tally__ensure_init();
    out->n = n;
    if (n < TALLY_DIAGNOSE_MIN_RUNS || opts->checks == 0)
        return TALLY_OK;

    ranked_runs r;
    rc = rank_runs(&r, x, n);
    if (rc != TALLY_OK)
        return rc;
    unsigned want = opts->checks;
    if (want & TALLY_DIAG_TREND) {
        rc = check_trend(out, &r, n);
        out->trend_slope = relative_slope(x, n);
        out->tested |= TALLY_DIAG_TREND;
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_AUTOCORR)) {
        check_autocorr(out, r.rank, n);
        out->tested |= TALLY_DIAG_AUTOCORR;
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_STEP)) {
        check_step(out, r.rank, n);
        /* No step is found (at 0) only when every run ties: no shift. */
        out->step_shift = out->step_at > 0 ? relative_shift(&r, out->step_at, n, 0) : 0;
        out->tested |= TALLY_DIAG_STEP;
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_WARMUP)) {
        rc = check_warmup(out, r.rank, r.tie_term, n);
        if (rc == TALLY_OK) {
            out->warmup_shift = relative_shift(&r, out->warmup_runs, n, 1);
            out->tested |= TALLY_DIAG_WARMUP;
        }
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_MULTIMODAL)) {
        rc = tally__dip(&out->dip, NULL, NULL, r.sorted, n);
        if (rc == TALLY_OK) {
            out->dip_p = tally__dip_pvalue(out->dip, n);
            out->tested |= TALLY_DIAG_MULTIMODAL;
        }
    }
    ranked_free(&r);
    if (rc != TALLY_OK)
        return rc;
    double alpha = opts->alpha;
    if ((out->tested & TALLY_DIAG_TREND) && out->trend_p < alpha)
        out->flagged |= TALLY_DIAG_TREND;
    if ((out->tested & TALLY_DIAG_AUTOCORR) && out->autocorr_p < alpha)
        out->flagged |= TALLY_DIAG_AUTOCORR;
    if ((out->tested & TALLY_DIAG_WARMUP) && out->warmup_p < alpha)
        out->flagged |= TALLY_DIAG_WARMUP;
    if ((out->tested & TALLY_DIAG_STEP) && out->step_p < alpha)
        out->flagged |= TALLY_DIAG_STEP;
    if ((out->tested & TALLY_DIAG_MULTIMODAL) && out->dip_p < alpha)
        out->flagged |= TALLY_DIAG_MULTIMODAL;
    return TALLY_OK;
}

int tally_diagnose(tally_diagnostics *out, const double *x, size_t n,
                   const tally_diagnose_options *opts)
{
    size_t size;
    tally_diagnostics d;
    int rc = tally__result_begin(&size, out, "tally_diagnostics", &d, sizeof d);
    if (rc)
        return rc;
    rc = diagnose(&d, x, n, opts);
    /* A failed call leaves the caller's struct zeroed, the partial figures dropped. */
    if (rc != TALLY_OK)
        memset(&d, 0, sizeof d);
    tally__result_put(out, size, &d, sizeof d);
    return rc;
}

static const tally__name check_names[] = {
    { "trend", TALLY_DIAG_TREND },   { "autocorrelation", TALLY_DIAG_AUTOCORR },
    { "warm-up", TALLY_DIAG_WARMUP }, { "step", TALLY_DIAG_STEP },
    { "multimodal", TALLY_DIAG_MULTIMODAL }, { "outliers", TALLY_DIAG_OUTLIERS },
};

const char *tally_diag_check_name(tally_diag_check check)
{
    return tally__name_of(check_names, TALLY__COUNT(check_names), tally__name_array_row,
                          (int)check);
}
