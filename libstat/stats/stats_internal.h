/* Helpers shared by the descriptive-statistics modules (moments.c, percentile.c, median_ci.c,
 * outliers.c, bamean.c, summary.c). Not exported. */
#ifndef TALLY_STATS_INTERNAL_H
#define TALLY_STATS_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "stats/histselect.h"
#include "tally/accum.h"
#include "tally/stats.h"

/* Compensated running sum: Neumaier's, with the rounding error of each addition taken by
 * Knuth's branch-free TwoSum (exact for any magnitudes, so the same error term Neumaier's
 * comparison picks, without a branch in the loop). */
typedef struct tally__ksum {
    double sum, comp;
} tally__ksum;

static inline void tally__ksum_add(tally__ksum *k, double v)
{
    double t = k->sum + v;
    double bp = t - k->sum;
    k->comp += (k->sum - (t - bp)) + (v - bp);
    k->sum = t;
}

static inline double tally__ksum_value(const tally__ksum *k)
{
    return k->sum + k->comp;
}

/* `other` added to `into`: its leading part by TwoSum, its compensation as it is. */
static inline void tally__ksum_merge(tally__ksum *into, const tally__ksum *other)
{
    tally__ksum_add(into, other->sum);
    into->comp += other->comp;
}

/* Compensated sums in TALLY__LANES independent chains, sample i in chain i % TALLY__LANES (so
 * the result depends on n and the values only, never on alignment): each addition waits for
 * the previous one of its own chain, so the processor overlaps the chains instead of running
 * one addition per latency. The chains are merged at the end (tally__lanes_total) by TwoSum,
 * whose errors are kept exactly like every other one, so the bound stays that of one chain
 * (Ogita, Rump & Oishi 2005, Prop. 4.5): |result - sum| <= eps |sum| + gamma(n)^2 sum |x_i|,
 * eps = 2^-53, gamma(k) = k eps / (1 - k eps); the lanes only shorten the plain sums of the
 * error terms. Struct of arrays, so that the compiler can keep neighbouring lanes in one
 * vector register. */
#define TALLY__LANES 4

/* Runs the statements after `v` (__VA_ARGS__) for each sample v = x[i] of x[0..n), with lane
 * = i % TALLY__LANES. Both loops over the lanes are unrolled (the pragma: at -O2 GCC unrolls
 * only loops whose code does not grow), so that `lane` is a constant in every copy and each
 * lane's state can live in registers: indexed by a variable it would stay in memory, where
 * every addition waits for the store of the one before. The samples past the last whole group
 * take the same lanes behind a test. Clang reads the same pragma. */
#define TALLY__EACH_LANE _Pragma("GCC unroll 4")

/* For a kernel written once and specialised per caller by a constant argument (a scale, a
 * mapping): inlined whatever its size, so the constant folds and no test of it stays inside
 * the loops. */
#define TALLY__SPECIALISED static inline __attribute__((always_inline))
#define TALLY__LANE_SCAN(x, n, lane, v, ...)                                                    \
    do {                                                                                       \
        size_t from_ = 0;                                                                      \
        TALLY__LANE_SCAN_FROM(x, from_, n, lane, v, __VA_ARGS__);                              \
    } while (0)

/* The same for the samples x[at..n), at a multiple of TALLY__LANES: what the vector loop below
 * left over (or all of them where there is none). */
#define TALLY__LANE_SCAN_FROM(x, at, n, lane, v, ...)                                           \
    do {                                                                                       \
        size_t at_ = (at), n_ = (n);                                                           \
        for (; n_ - at_ >= TALLY__LANES; at_ += TALLY__LANES) {                                \
            TALLY__EACH_LANE                                                                   \
            for (size_t lane = 0; lane < TALLY__LANES; lane++) {                               \
                double v = (x)[at_ + lane];                                                    \
                __VA_ARGS__;                                                                   \
            }                                                                                  \
        }                                                                                      \
        TALLY__EACH_LANE                                                                       \
        for (size_t lane = 0; lane < TALLY__LANES; lane++) {                                   \
            if (at_ + lane < n_) {                                                             \
                double v = (x)[at_ + lane];                                                    \
                __VA_ARGS__;                                                                   \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* The same lanes as two vectors of two doubles (GCC's and Clang's vector extension): lanes 0, 1
 * in vector 0 and lanes 2, 3 in vector 1, every element computed by the same IEEE operations in
 * the same order as its scalar lane, so the results are bit for bit those of the scalar loops
 * (no -ffast-math, and without an FMA target nothing is contracted). Scalar code keeps lane j's
 * state in a double each, and spills out of the 16 registers; as vectors it needs half of them
 * and half the instructions. Elsewhere TALLY__V2D is 0 and the scalar loops do all the work. */
#if defined(__GNUC__) && !defined(TALLY_NO_VECTORS)
#define TALLY__V2D 1
#ifdef __SSE2__
#include <emmintrin.h>
#endif
typedef double tally__v2d __attribute__((vector_size(16)));
typedef long long tally__v2i __attribute__((vector_size(16)));

static inline tally__v2d tally__v2d_load(const double *p)
{
    tally__v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void tally__v2d_store(double *p, tally__v2d v)
{
    memcpy(p, &v, sizeof v);
}

static inline tally__v2d tally__v2d_splat(double a)
{
    return (tally__v2d){ a, a };
}

/* Per element `c ? a : b` for a comparison mask c (C has no vector ?:). */
static inline tally__v2d tally__v2d_select(tally__v2i c, tally__v2d a, tally__v2d b)
{
    return (tally__v2d)((c & (tally__v2i)a) | (~c & (tally__v2i)b));
}

/* v < lo ? v : lo and v > hi ? v : hi per element, as the scalar lanes take them: SSE2's minpd
 * and maxpd are defined as exactly that (the second operand on equality or NaN), one
 * instruction where GCC makes the select four. */
static inline tally__v2d tally__v2d_min(tally__v2d v, tally__v2d lo)
{
#ifdef __SSE2__
    return (tally__v2d)_mm_min_pd((__m128d)v, (__m128d)lo);
#else
    return tally__v2d_select((tally__v2i)(v < lo), v, lo);
#endif
}

static inline tally__v2d tally__v2d_max(tally__v2d v, tally__v2d hi)
{
#ifdef __SSE2__
    return (tally__v2d)_mm_max_pd((__m128d)v, (__m128d)hi);
#else
    return tally__v2d_select((tally__v2i)(v > hi), v, hi);
#endif
}

/* Runs the statements after `v` for the vectors v = x[at + 2h], x[at + 2h + 1] (h = 0, 1; a
 * constant in each unrolled copy) of every whole group of TALLY__LANES samples from at, which
 * is left at the first sample past them, for TALLY__LANE_SCAN_FROM. */
#define TALLY__V2_GROUPS(x, at, n, h, v, ...)                                                   \
    for (; (n) - (at) >= TALLY__LANES; (at) += TALLY__LANES) {                                 \
        _Pragma("GCC unroll 2")                                                                \
        for (size_t h = 0; h < 2; h++) {                                                       \
            tally__v2d v = tally__v2d_load((x) + (at) + 2 * h);                                \
            __VA_ARGS__;                                                                       \
        }                                                                                      \
    }

/* A tally__ksum_lanes as two vectors of sums and two of compensations. */
typedef struct tally__ksum_v2 {
    tally__v2d sum[2], comp[2];
} tally__ksum_v2;

static inline void tally__v2_add(tally__ksum_v2 *k, size_t h, tally__v2d v)
{
    tally__v2d s = k->sum[h], t = s + v;
    tally__v2d bp = t - s;
    k->comp[h] += (s - (t - bp)) + (v - bp);
    k->sum[h] = t;
}
#else
#define TALLY__V2D 0
#endif

typedef struct tally__ksum_lanes {
    double sum[TALLY__LANES], comp[TALLY__LANES];
} tally__ksum_lanes;

#define TALLY__KSUM_LANES_INIT { { 0.0, 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0, 0.0 } }

static inline void tally__lanes_add(tally__ksum_lanes *k, size_t lane, double v)
{
    double s = k->sum[lane], t = s + v;
    double bp = t - s;
    k->comp[lane] += (s - (t - bp)) + (v - bp);
    k->sum[lane] = t;
}

#if TALLY__V2D
static inline tally__ksum_v2 tally__v2_from_lanes(const tally__ksum_lanes *k)
{
    tally__ksum_v2 w;
    for (size_t h = 0; h < 2; h++) {
        w.sum[h] = tally__v2d_load(k->sum + 2 * h);
        w.comp[h] = tally__v2d_load(k->comp + 2 * h);
    }
    return w;
}

static inline void tally__v2_to_lanes(tally__ksum_lanes *k, const tally__ksum_v2 *w)
{
    for (size_t h = 0; h < 2; h++) {
        tally__v2d_store(k->sum + 2 * h, w->sum[h]);
        tally__v2d_store(k->comp + 2 * h, w->comp[h]);
    }
}
#endif

static inline tally__ksum tally__lanes_total(const tally__ksum_lanes *k)
{
    tally__ksum total = { k->sum[0], k->comp[0] };
    for (size_t j = 1; j < TALLY__LANES; j++) {
        tally__ksum lane = { k->sum[j], k->comp[j] };
        tally__ksum_merge(&total, &lane);
    }
    return total;
}

static inline double tally__clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Display name of a statistic in the text layouts: "AMean", "HMean", "Median", ... (stat_names.c). */
const char *tally__stat_title(tally_statistic stat);

/* TALLY_EINVAL if x is NULL while n > 0, TALLY_ENODATA if n == 0, TALLY_ENONFINITE naming the
 * first NaN or infinite sample; the error is recorded. */
int tally__check_samples(const double *x, size_t n);

/* tally__check_samples and the extremes of x in one pass. */
int tally__sample_range(double *min, double *max, const double *x, size_t n);

/* A power of two s such that |v| * s < 1 for every |v| <= maxabs when maxabs is so large that
 * sums or differences could overflow, else 1. Scaling by a power of two is exact, so results are
 * unchanged for ordinary data. */
double tally__overflow_scale(double maxabs);

/* Mean of x[0..n) (n >= 1, finite), without overflow for any finite input, clamped to
 * [min, max] so rounding never moves it outside the data. */
double tally__mean(const double *x, size_t n);

/* The same over the mapped values of x (see histselect.h). */
double tally__mapped_mean(const double *x, size_t n, const tally__value_map *map);

/* Moments of one sample set. Pointers may be NULL when a value is not wanted. */
typedef struct tally__moments {
    double min, max, amean;
    double stddev;      /* valid when has_stddev */
    int has_stddev;     /* n >= 2 and the result is finite */
    double hmean, hstddev, gmean;
    int positive;       /* every sample > 0: hmean and gmean valid */
    int has_hstddev;    /* positive, n >= 2 and the result is finite */
} tally__moments;

/* Compute the moments of n >= 1 samples in two passes; TALLY_ENONFINITE (recorded, naming the
 * first bad sample), TALLY_ENODATA or TALLY_EINVAL as tally__check_samples. */
int tally__compute_moments(tally__moments *m, const double *x, size_t n);

/* The moment fields of a summary (n, min, max, the means, SDs, CVs, sem, mean CI and their flags)
 * from moments of n samples; `out` must be zeroed. Order statistics are left alone. */
void tally__summary_from_moments(tally_summary *out, const tally__moments *m, size_t n,
                                 double confidence);

/* The moments an accumulator (accum.c) holds, as tally__compute_moments gives them for one array;
 * TALLY_ENODATA (recorded) when it is empty. */
int tally__accumulator_moments(tally__moments *m, const tally_accumulator *a);

/* A completed partition summary's summary, its options and its extra BAmeans (borrowed; *count
 * receives their number, *percents their percentages); NULL when it is not complete. */
const tally_summary *tally__partition_summary_parts(const tally_partition_summary *p,
                                                    const tally_summary_options **so,
                                                    const double **percents,
                                                    const double **bameans, size_t *count);

/* The 0-based ranks (1 or 2) of the order statistics that percentile p (0..100) needs; returns
 * how many were written. */
size_t tally__percentile_ranks(size_t ranks[2], size_t n, double p, tally_percentile_method method);

/* Percentile p from v[], the order statistics at the ranks tally__percentile_ranks() gave (one
 * or two). */
double tally__percentile_from(const double *v, size_t n, double p, tally_percentile_method method);


/* Order statistics bounding the distribution-free CI of the median: 0-based ranks lo <= hi and
 * the achieved level. Returns 0 when n is too small to reach `confidence` (then nothing is
 * written), 1 otherwise. */
int tally__median_ci_ranks(size_t *lo, size_t *hi, double *level, size_t n, double confidence);

/* The smallest n whose order statistics give a distribution-free interval of the median at
 * `confidence` (in (0, 1)): 1 - 2 / 2^n >= confidence. */
size_t tally__median_ci_min_n(double confidence);

/* The number of best samples BAmean-N averages: floor(n * percent / 100), at least 1. */
size_t tally__bamean_count(size_t n, double percent);

/* The rank to select so that the best `count` samples sit at one end of the array. */
size_t tally__bamean_rank(size_t n, size_t count, tally_direction direction);


/* tally_summarize, plus BAmean-percents[k] into bameans[k] for k < count (at most 4), their cuts
 * selected with the summary's own ranks: the report's extra cuts. TALLY_EINVAL for more cuts or
 * a percentage outside (0, 100]; otherwise as tally_summarize. */
/* The summary of a summary-only case: n, AMean = mean, and with n >= 2 and a finite sd the SD,
 * sem, CV and the Student-t CI of the mean at `confidence`; TALLY_SUMMARY_REPORTED set, the
 * order statistics and other means NAN. s->size is kept. */
void tally__summary_from_stats(tally_summary *s, size_t n, double mean, double sd,
                               double confidence);

/* tally_summary_value() on one of the library's own (whole) summaries. */
int tally__summary_value(double *out, const tally_summary *s, tally_statistic stat);

int tally__summarize_with_cuts(tally_summary *out, const double *x, size_t n,
                               const tally_summary_options *opts, const double *percents,
                               double *bameans, size_t count);

/* The caller's summary options (NULL: the defaults; any supported version) into *out, checked:
 * TALLY_EINVAL (recorded) for options tally_summarize() refuses. */
int tally__read_summary_options(tally_summary_options *out, const tally_summary_options *given);
/* The same read without the check (a caller that checks some fields with messages of its own). */
int tally__summary_options_read(tally_summary_options *out, const tally_summary_options *given);

/* The order statistics a summary selects: where each one's ranks sit in the rank list. */
#define TALLY__MAX_EXTRA_CUTS 4
#define TALLY__OWN_RANKS (11 + TALLY__MAX_EXTRA_CUTS) /* ranks without extra percentiles */
typedef struct tally__order_plan {
    size_t n, best, ci_lo, ci_hi, count;
    double ci_level;
    int has_ci;
    size_t at_median, at_median7, at_q1, at_q3, at_cut, at_ci, at_extra, at_pct;
} tally__order_plan;

/* What the selected values give before the passes that need them (BAmean sums, outliers). */
typedef struct tally__order_values {
    double q1, q3, median7;
    size_t ncuts, counts[1 + TALLY__MAX_EXTRA_CUTS];
    double cuts[1 + TALLY__MAX_EXTRA_CUTS];
} tally__order_values;

/* The ranks of n samples' summary into rank[] (room for TALLY__OWN_RANKS + 2 * pct_count):
 * median, type 7 median and quartiles, BAmean cut, median CI bounds, extra_count extra BAmean
 * cuts (<= TALLY__MAX_EXTRA_CUTS), pct_count percentiles; p->count is their number. */
void tally__order_plan_make(tally__order_plan *p, size_t *rank, size_t n,
                            const tally_summary_options *o, const double *extra_percents,
                            size_t extra_count, const double *pct, size_t pct_count);

/* From v[] (the values at the plan's ranks): the summary's median and median CI, the
 * percentiles into pct_out, and the quartiles, type 7 median and cuts into *out. */
void tally__order_plan_finish(tally__order_values *out, tally_summary *s,
                              const tally__order_plan *p, const double *v,
                              const tally_summary_options *o, const double *extra_percents,
                              size_t extra_count, const double *pct, size_t pct_count,
                              double *pct_out);

/* BAmean in two steps, for samples spread over partitions (or over a summary's blocks): per
 * part, how many samples are better than each cut and their compensated sum scaled by s
 * (s = tally__overflow_scale of the largest |sample| of all parts); then, from the totals, the
 * means. */
void tally__bamean_scan(size_t *better, tally__ksum *sums, const double *x, size_t n,
                        const double *cuts, size_t ncuts, double s, tally_direction direction);
void tally__bamean_finish(double *out, const size_t *counts, const double *cuts,
                          const size_t *better, const tally__ksum *sums, size_t ncuts, double s,
                          double min, double max, tally_direction direction);

/* Outlier rules once median and quartiles are known. */
typedef struct tally__outlier_rule {
    double scale;           /* overflow scale applied to samples before comparing */
    double median;          /* scaled */
    double spread;          /* scaled MAD, or the mean absolute deviation when MAD is 0 */
    double factor;          /* 0.6745 with MAD, sqrt(2/pi) with the mean absolute deviation */
    double score_per_unit;  /* factor / spread: a deviation's score is one multiplication */
    double threshold;       /* modified z-score cut-off */
    double low_fence, high_fence; /* scaled Tukey fences */
} tally__outlier_rule;

/* The rules in two steps: the fences (sets the scale; call first), then the MAD part, the median
 * of the scaled absolute deviations |x_i * scale - median| of the n samples x (min and max their
 * extremes), by tally__order_stats with `scratch`: *devs is then NULL (x untouched) or the
 * deviations, written to the scratch and reordered. */
void tally__outlier_fences(tally__outlier_rule *r, double maxabs, double q1, double q3,
                           double tukey_k);
int tally__outlier_mad(tally__outlier_rule *r, const double *x, size_t n, double min,
                       double max, double median, double mad_threshold, tally__scratch *scratch,
                       double **devs);
/* How many samples the MAD rule flags: from devs when tally__outlier_mad set it, else from x. */
/* The MAD part of the rule from the MAD of the scaled deviations from med_s (the scaled type 7
 * median) and, used only when mad is 0, their mean absolute deviation. */
void tally__outlier_set_mad(tally__outlier_rule *r, double med_s, double mad, double mean_ad,
                            double mad_threshold);
size_t tally__count_mad_outliers(const tally__outlier_rule *r, const double *x, const double *devs,
                                 size_t n);
int tally__is_mad_outlier(const tally__outlier_rule *r, double v);
/* The same test on a deviation written by tally__outlier_mad. */
int tally__is_mad_deviation(const tally__outlier_rule *r, double dev);
int tally__is_tukey_outlier(const tally__outlier_rule *r, double v);
/* How many of x[0..n) lie outside the Tukey fences. */
size_t tally__count_tukey_outliers(const tally__outlier_rule *r, const double *x, size_t n);

/* The MAD and the MAD rule's count in one pass over the samples, fused with other passes:
 * begin (after tally__outlier_fences, with the histogram the median's selection kept), add
 * every sample once in blocks of any size (nothing when begin declined), finish. finish returns 1 with the rule's MAD part set
 * and *count what tally__outlier_mad and tally__count_mad_outliers would give, or 0 when they
 * must run instead (no histogram, the bracket missed, MAD 0); free in every case. begin
 * returns TALLY_OK, or TALLY_ENOMEM (message set) when its allocation fails. */
typedef struct tally__mad_pass {
    int on;
    const tally__value_hist *hist;
    size_t n, ranks[2], nranks, cap, below, above, nmad, ntail;
    double scale, median, threshold, d_lo, d_hi, t_lo, t_hi, low_fence, high_fence;
    double *mad, *tail; /* copies of the deviations in [d_lo, d_hi] and [t_lo, t_hi] */
} tally__mad_pass;

int tally__mad_pass_begin(tally__mad_pass *p, const tally__value_hist *hist, size_t n,
                          const tally__outlier_rule *r, double min, double max, double median,
                          double mad_threshold);
/* Also returns how many of x[0..len) lie outside the Tukey fences (the same test as
 * tally__count_tukey_outliers, on the same scaled samples), whether or not begin declined. */
size_t tally__mad_pass_add(tally__mad_pass *p, const double *x, size_t len);
int tally__mad_pass_finish(tally__outlier_rule *r, size_t *count, tally__mad_pass *p);
void tally__mad_pass_free(tally__mad_pass *p);

/* TALLY_EINVAL unless mad_threshold > 0 and tukey_k >= 0 (both finite); recorded. */
int tally__check_outlier_options(double mad_threshold, double tukey_k);

#endif /* TALLY_STATS_INTERNAL_H */
