/* Run-order and shape checks of one configuration's samples (include/tally/diagnose.h;
 * docs/statistics.md, "Diagnostics"). Every check is a rank test or the dip, so none depends on
 * the samples' scale or assumes normal data: benchmark times are skewed and heavy-tailed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/diag_internal.h"
#include "stats/select.h"
#include "stats/stats_internal.h"
#include "util/internal.h"
#include "util/options.h"
#include "util/names.h"
#include "util/result.h"

#include <gsl/gsl_cdf.h>

typedef struct indexed {
    double value;
    size_t index;
} indexed;

static int by_value_then_index(const void *l, const void *r)
{
    const indexed *a = l, *b = r;
    if (a->value < b->value)
        return -1;
    if (a->value > b->value)
        return 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Two-sided normal p-value of z. */
static double normal_p(double z)
{
    return 2.0 * gsl_cdf_ugaussian_Q(fabs(z));
}

/* ---- Mann-Kendall ---- */

/* Counts the pairs i < j (in x's order) with x_i > x_j while merge-sorting x[lo, hi) into
 * ascending order; equal values are not inversions (the merge takes the left one first). */
static double count_inversions(double *x, double *tmp, size_t lo, size_t hi)
{
    if (hi - lo < 2)
        return 0;
    size_t mid = lo + (hi - lo) / 2;
    double inv = count_inversions(x, tmp, lo, mid) + count_inversions(x, tmp, mid, hi);
    size_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (x[j] < x[i]) {
            inv += (double)(mid - i);
            tmp[k++] = x[j++];
        } else {
            tmp[k++] = x[i++];
        }
    }
    while (i < mid)
        tmp[k++] = x[i++];
    while (j < hi)
        tmp[k++] = x[j++];
    memcpy(x + lo, tmp + lo, (hi - lo) * sizeof *x);
    return inv;
}

int tally__kendall_s(double *s, double *tie_term, double *tied, const double *x, size_t n)
{
    double *work = tally__reallocarray(NULL, 2 * (n ? n : 1), sizeof *work);
    if (work == NULL)
        return tally__error(TALLY_ENOMEM, "trend test: out of memory for %zu samples", n);
    memcpy(work, x, n * sizeof *x);
    double discordant = count_inversions(work, work + n, 0, n);
    /* work is now sorted: runs of equal values are the ties. */
    double tied_pairs = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && work[j] == work[i])
            j++;
        double t = (double)(j - i);
        tied_pairs += t * (t - 1) / 2;
        ties += t * (t - 1) * (2 * t + 5);
        i = j;
    }
    tally__free_mem(work);
    double pairs = (double)n * (double)(n - 1) / 2;
    double concordant = pairs - discordant - tied_pairs;
    *s = concordant - discordant;
    *tie_term = ties;
    *tied = tied_pairs;
    return TALLY_OK;
}

static int check_trend(tally_diagnostics *d, const double *x, size_t n)
{
    double s, tie_term, tied;
    int rc = tally__kendall_s(&s, &tie_term, &tied, x, n);
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

/* ---- ranks ---- */

/* Mid-ranks (1-based) of x in run order, Mann-Whitney's tie term (the sum of t^3 - t over the
 * runs of t equal values, in ascending order of value) and x sorted, from one sort. */
static int midranks(double *rank, double *tie_term, double *sorted, const double *x, size_t n)
{
    indexed *v = tally__reallocarray(NULL, n, sizeof *v);
    if (v == NULL)
        return tally__error(TALLY_ENOMEM, "diagnostics: out of memory for %zu samples", n);
    for (size_t i = 0; i < n; i++)
        v[i] = (indexed){ x[i], i };
    qsort(v, n, sizeof *v, by_value_then_index);
    double ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && v[j].value == v[i].value)
            j++;
        double r = (double)(i + j + 1) / 2.0;
        double t = (double)(j - i);
        for (size_t k = i; k < j; k++) {
            rank[v[k].index] = r;
            sorted[k] = v[k].value;
        }
        ties += t * t * t - t;
        i = j;
    }
    *tie_term = ties;
    tally__free_mem(v);
    return TALLY_OK;
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

/* Median of x[0..n) (n >= 1) by sorting a copy in scratch. */
static double median_of(double *scratch, const double *x, size_t n)
{
    memcpy(scratch, x, n * sizeof *x);
    size_t ranks[2] = { n / 2, n % 2 ? n / 2 : n / 2 - 1 };
    tally__select_ranks(scratch, n, ranks, n % 2 ? 1 : 2);
    return n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

static double relative_shift(double *scratch, const double *before, size_t nb, const double *after,
                             size_t na)
{
    double mb = median_of(scratch, before, nb), ma = median_of(scratch, after, na);
    return mb != 0 ? ma / mb - 1 : 0;
}

/* The first k runs against the rest for k = 1..K, K = min(10, n / 3): the smallest Mann-Whitney
 * p times K (Bonferroni), so the scan's false-alarm rate stays at most alpha. Every split pools
 * the same samples, so the ranks are computed once and each k adds one rank to the first group:
 * the same p-values as tally_mann_whitney on each split (half-integer rank sums are exact). */
static int check_warmup(tally_diagnostics *d, const double *rank, double tie_term, size_t n)
{
    size_t kmax = n / 3 < 10 ? n / 3 : 10;
    double best = 2, rank_sum = 0;
    size_t best_k = 0;
    for (size_t k = 1; k <= kmax; k++) {
        double u, p;
        rank_sum += rank[k - 1];
        int rc = tally_mann_whitney_from_ranks(&u, &p, NULL, rank_sum, tie_term, k, n - k);
        if (rc != TALLY_OK)
            return rc;
        if (p < best) {
            best = p;
            best_k = k;
        }
    }
    double p = best * (double)kmax;
    d->warmup_p = p > 1 ? 1 : p;
    d->warmup_runs = best_k;
    return TALLY_OK;
}

TALLY__OPTIONS_FUNCTIONS(tally_diagnose_options, TALLY_DIAGNOSE_OPTIONS,
                         sizeof(tally_diagnose_options))

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

    double *rank = tally__reallocarray(NULL, 3 * n, sizeof *rank);
    if (rank == NULL)
        return tally__error(TALLY_ENOMEM, "diagnostics: out of memory for %zu samples", n);
    double *scratch = rank + n, *sorted = rank + 2 * n;
    unsigned want = opts->checks;
    double tie_term = 0;
    rc = midranks(rank, &tie_term, sorted, x, n);
    if (rc == TALLY_OK && (want & TALLY_DIAG_TREND)) {
        rc = check_trend(out, x, n);
        out->trend_slope = relative_slope(x, n);
        out->tested |= TALLY_DIAG_TREND;
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_AUTOCORR)) {
        check_autocorr(out, rank, n);
        out->tested |= TALLY_DIAG_AUTOCORR;
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_STEP)) {
        check_step(out, rank, n);
        out->step_shift = relative_shift(scratch, x, out->step_at, x + out->step_at,
                                         n - out->step_at);
        out->tested |= TALLY_DIAG_STEP;
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_WARMUP)) {
        rc = check_warmup(out, rank, tie_term, n);
        if (rc == TALLY_OK) {
            out->warmup_shift = relative_shift(scratch, x + out->warmup_runs,
                                               n - out->warmup_runs, x, out->warmup_runs);
            out->tested |= TALLY_DIAG_WARMUP;
        }
    }
    if (rc == TALLY_OK && (want & TALLY_DIAG_MULTIMODAL)) {
        rc = tally__dip(&out->dip, NULL, NULL, sorted, n);
        if (rc == TALLY_OK) {
            out->dip_p = tally__dip_pvalue(out->dip, n);
            out->tested |= TALLY_DIAG_MULTIMODAL;
        }
    }
    tally__free_mem(rank);
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
    int rc = tally__result_size(&size, out, "tally_diagnostics");
    if (rc)
        return rc;
    tally_diagnostics d;
    memset(&d, 0, sizeof d);
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
