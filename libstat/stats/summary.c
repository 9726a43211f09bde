/* tally_summarize: every descriptive statistic of one sample set in O(n). Moments come from
 * passes over the caller's array; order statistics (median, quartiles, median CI bounds, the
 * BAmean cut) are selected together by histogram selection, which leaves the samples where they
 * are, and the MAD is bracketed from that histogram and taken in the sweep that sums BAmean;
 * only when they do not apply do the selections need a copy (or, for tally_summarize_inplace,
 * the caller's buffer). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "util/internal.h"
#include "stats/stats_internal.h"
#include "util/result.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_summary_options, TALLY_SUMMARY_OPTIONS, sizeof(tally_summary_options))

static int check_options(const tally_summary_options *o)
{
    if (o->direction != TALLY_LOWER_IS_BETTER && o->direction != TALLY_HIGHER_IS_BETTER)
        return tally__error(TALLY_EINVAL, "unknown direction %d", (int)o->direction);
    if (o->percentile_method != TALLY_PERCENTILE_LINEAR &&
        o->percentile_method != TALLY_PERCENTILE_NEAREST_RANK)
        return tally__error(TALLY_EINVAL, "unknown percentile method %d",
                            (int)o->percentile_method);
    if (!(o->confidence > 0 && o->confidence < 1))
        return tally__error(TALLY_EINVAL, "confidence %g must lie in (0, 1)", o->confidence);
    if (!(o->bamean_percent > 0 && o->bamean_percent <= 100))
        return tally__error(TALLY_EINVAL, "BAmean percentage %g must lie in (0, 100]",
                            o->bamean_percent);
    return tally__check_outlier_options(o->mad_threshold, o->tukey_k);
}

/* The sample SD of n >= 2 samples and what follows from it with the mean: sem, CV, mean CI. */
static void put_stddev(tally_summary *s, double amean, double stddev, double confidence)
{
    s->stddev = stddev;
    s->sem = stddev / sqrt((double)s->n);
    s->defined |= TALLY_SUMMARY_STDDEV;
    if (amean != 0) {
        double cv = 100.0 * (stddev / amean);
        if (isfinite(cv)) {
            s->cv = cv;
            s->defined |= TALLY_SUMMARY_CV;
        }
    }
    double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - confidence) / 2.0, (double)(s->n - 1));
    double half = t * s->sem;
    double low = amean - half, high = amean + half;
    if (isfinite(t) && isfinite(half) && isfinite(low) && isfinite(high)) {
        s->mean_ci_low = low;
        s->mean_ci_high = high;
        s->defined |= TALLY_SUMMARY_MEAN_CI;
    }
}

/* Spread-derived fields: stddev, sem, CV, mean CI, harmonic SD and CV. */
static void fill_spread(tally_summary *s, const tally__moments *m, double confidence)
{
    if (m->positive) {
        s->hmean = m->hmean;
        s->gmean = m->gmean;
        s->defined |= TALLY_SUMMARY_HMEAN | TALLY_SUMMARY_GMEAN;
        if (m->has_hstddev) {
            double hcv = 100.0 * (m->hstddev / m->hmean);
            if (isfinite(hcv)) {
                s->hstddev = m->hstddev;
                s->hcv = hcv;
                s->defined |= TALLY_SUMMARY_HSTDDEV;
            }
        }
    }
    if (m->has_stddev)
        put_stddev(s, m->amean, m->stddev, confidence);
}

void tally__summary_from_stats(tally_summary *s, size_t n, double mean, double sd,
                               double confidence)
{
    size_t size = s->size;
    memset(s, 0, sizeof *s);
    s->size = size;
    s->n = n;
    s->amean = mean;
    s->min = s->max = s->median = s->bamean = NAN;
    s->hmean = s->gmean = s->hstddev = s->hcv = NAN;
    s->median_ci_low = s->median_ci_high = s->median_ci_level = NAN;
    s->defined = TALLY_SUMMARY_REPORTED;
    if (n >= 2 && isfinite(sd))
        put_stddev(s, mean, sd, confidence);
}

/* What a caller asks for beyond the summary, selected with the summary's own ranks: the
 * report's extra BAmean cuts, tally_summarize_with_percentiles' percentiles. */
typedef struct extra_cuts {
    const double *percents;
    double *out;
    size_t count;
    const double *p;
    double *pct;
    size_t pct_count;
} extra_cuts;

#define MAX_EXTRA_CUTS TALLY__MAX_EXTRA_CUTS
#define OWN_RANKS TALLY__OWN_RANKS

/* The ranks to select (in own[] unless percentiles need more room). */
typedef struct rank_list {
    size_t own[OWN_RANKS], *rank;
    double own_values[OWN_RANKS], *values;
} rank_list;

static size_t add_percentile(tally__order_plan *p, size_t *rank, double q,
                             tally_percentile_method method)
{
    size_t at = p->count;
    p->count += tally__percentile_ranks(rank + at, p->n, q, method);
    return at;
}

void tally__order_plan_make(tally__order_plan *p, size_t *rank, size_t n,
                            const tally_summary_options *o, const double *extra_percents,
                            size_t extra_count, const double *pct, size_t pct_count)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    p->best = tally__bamean_count(n, o->bamean_percent);
    p->has_ci = tally__median_ci_ranks(&p->ci_lo, &p->ci_hi, &p->ci_level, n, o->confidence);
    p->at_median = add_percentile(p, rank, 50, o->percentile_method);
    p->at_median7 = add_percentile(p, rank, 50, TALLY_PERCENTILE_LINEAR);
    p->at_q1 = add_percentile(p, rank, 25, TALLY_PERCENTILE_LINEAR);
    p->at_q3 = add_percentile(p, rank, 75, TALLY_PERCENTILE_LINEAR);
    p->at_cut = p->count;
    rank[p->count++] = tally__bamean_rank(n, p->best, o->direction);
    p->at_ci = p->count;
    if (p->has_ci) {
        rank[p->count++] = p->ci_lo;
        rank[p->count++] = p->ci_hi;
    }
    p->at_extra = p->count;
    for (size_t k = 0; k < extra_count; k++)
        rank[p->count++] = tally__bamean_rank(n, tally__bamean_count(n, extra_percents[k]),
                                              o->direction);
    p->at_pct = p->count;
    for (size_t k = 0; k < pct_count; k++)
        add_percentile(p, rank, pct[k], o->percentile_method);
}

void tally__order_plan_finish(tally__order_values *out, tally_summary *s,
                              const tally__order_plan *p, const double *v,
                              const tally_summary_options *o, const double *extra_percents,
                              size_t extra_count, const double *pct, size_t pct_count,
                              double *pct_out)
{
    size_t n = p->n;
    s->median = tally__percentile_from(v + p->at_median, n, 50, o->percentile_method);
    for (size_t k = 0, at = p->at_pct; k < pct_count; k++) {
        pct_out[k] = tally__percentile_from(v + at, n, pct[k], o->percentile_method);
        size_t ranks[2];
        at += tally__percentile_ranks(ranks, n, pct[k], o->percentile_method);
    }
    out->q1 = tally__percentile_from(v + p->at_q1, n, 25, TALLY_PERCENTILE_LINEAR);
    out->q3 = tally__percentile_from(v + p->at_q3, n, 75, TALLY_PERCENTILE_LINEAR);
    /* Outliers are judged against the type 7 median whatever the reported median's method. */
    out->median7 = tally__percentile_from(v + p->at_median7, n, 50, TALLY_PERCENTILE_LINEAR);
    out->ncuts = 1 + extra_count;
    out->counts[0] = p->best;
    out->cuts[0] = v[p->at_cut];
    for (size_t k = 0; k < extra_count; k++) {
        out->counts[1 + k] = tally__bamean_count(n, extra_percents[k]);
        out->cuts[1 + k] = v[p->at_extra + k];
    }
    if (p->has_ci) {
        s->median_ci_low = v[p->at_ci];
        s->median_ci_high = v[p->at_ci + 1];
        s->median_ci_level = p->ci_level;
        s->defined |= TALLY_SUMMARY_MEDIAN_CI;
    }
}

/* The passes that need the selected values but nothing else (the BAmean sums, the Tukey
 * count, the MAD pass when it is on) in one sweep of blocks: each block is read from memory
 * once and then again from the cache, instead of every pass streaming the whole array. The
 * BAmean sums of the blocks are compensated sums merged by TwoSum. Returns the Tukey count. */
#define SWEEP_BLOCK 16384 /* 128 KiB of samples, a multiple of the BAmean scan's blocks */

static size_t cut_sweep(double *bameans, const tally__outlier_rule *rule, tally__mad_pass *mad,
                        const double *x, size_t n, const tally__order_values *ov, double min,
                        double max, tally_direction direction)
{
    size_t better[1 + MAX_EXTRA_CUTS] = { 0 }, tukey = 0;
    tally__ksum sums[1 + MAX_EXTRA_CUTS] = { { 0.0, 0.0 } };
    for (size_t at = 0; at < n; at += SWEEP_BLOCK) {
        size_t len = n - at < SWEEP_BLOCK ? n - at : SWEEP_BLOCK, b[1 + MAX_EXTRA_CUTS];
        tally__ksum k[1 + MAX_EXTRA_CUTS];
        tally__bamean_scan(b, k, x + at, len, ov->cuts, ov->ncuts, rule->scale, direction);
        for (size_t j = 0; j < ov->ncuts; j++) {
            better[j] += b[j];
            tally__ksum_merge(&sums[j], &k[j]);
        }
        tukey += tally__mad_pass_add(mad, x + at, len);
    }
    tally__bamean_finish(bameans, ov->counts, ov->cuts, better, sums, ov->ncuts, rule->scale,
                         min, max, direction);
    return tukey;
}

/* Order statistics and outlier counts, all from one selection of every rank they need (median,
 * quartiles, median CI bounds, BAmean cut) and the MAD pass in the sweep after it (or, when that
 * does not answer, one selection of the MAD and a count). x is read, never written, when
 * the histogram selection applies; otherwise the selections work in the scratch (a copy, or x
 * itself for the in-place call) and every later pass reads the samples there. */
static int fill_order_statistics(tally_summary *s, const double *x, tally__scratch *scratch,
                                 const tally_summary_options *o, const extra_cuts *extra,
                                 rank_list *list)
{
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    size_t n = s->n;
    double *v = list->values, *mapped, *devs;
    tally__order_plan plan;
    tally__order_values ov;
    tally__order_plan_make(&plan, list->rank, n, o, extra->percents, extra->count, extra->p,
                           extra->pct_count);
    int rc = tally__order_stats(v, x, n, list->rank, plan.count, &identity, s->min, s->max,
                                scratch, &mapped);
    if (rc != TALLY_OK)
        return rc;
    const double *data = mapped ? mapped : x;
    double maxabs = fmax(fabs(s->min), fabs(s->max));

    tally__order_plan_finish(&ov, s, &plan, v, o, extra->percents, extra->count, extra->p,
                             extra->pct_count, extra->pct);
    tally__outlier_rule rule;
    tally__outlier_fences(&rule, maxabs, ov.q1, ov.q3, o->tukey_k);
    double bameans[1 + MAX_EXTRA_CUTS];
    tally__mad_pass mad;
    rc = tally__mad_pass_begin(&mad, mapped ? NULL : &scratch->hist, n, &rule, s->min, s->max,
                               ov.median7, o->mad_threshold);
    if (rc != TALLY_OK)
        return rc;
    s->outliers_tukey = cut_sweep(bameans, &rule, &mad, data, n, &ov, s->min, s->max,
                                  o->direction);
    s->bamean = bameans[0];
    for (size_t k = 0; k < extra->count; k++)
        extra->out[k] = bameans[1 + k];

    int fused = tally__mad_pass_finish(&rule, &s->outliers_mad, &mad);
    tally__mad_pass_free(&mad);
    if (fused)
        return TALLY_OK;
    rc = tally__outlier_mad(&rule, data, n, s->min, s->max, ov.median7, o->mad_threshold,
                            scratch, &devs);
    if (rc != TALLY_OK)
        return rc;
    s->outliers_mad = tally__count_mad_outliers(&rule, data, devs, n);
    return TALLY_OK;
}

/* Everything but the order statistics, from x in its original order (so the sums, hence the
 * last bits of the moments, do not depend on whether the caller's buffer is reused). */
static int summarize_moments(tally_summary *out, const double *x, size_t n,
                             const tally_summary_options *o)
{
    tally__moments m;
    int rc;

    if (!out)
        return tally__error(TALLY_EINVAL, "summary output pointer is NULL");
    memset(out, 0, sizeof *out);
    if ((rc = tally__compute_moments(&m, x, n)) != TALLY_OK)
        return rc;
    tally__ensure_init();

    tally__summary_from_moments(out, &m, n, o->confidence);
    return TALLY_OK;
}

void tally__summary_from_moments(tally_summary *out, const tally__moments *m, size_t n,
                                 double confidence)
{
    out->size = sizeof *out;
    out->n = n;
    out->min = m->min;
    out->max = m->max;
    out->amean = m->amean;
    fill_spread(out, m, confidence);
}

int tally__summary_options_read(tally_summary_options *out, const tally_summary_options *given)
{
    return tally__options_read(out, given, &tally_summary_options_kind);
}

int tally__read_summary_options(tally_summary_options *out, const tally_summary_options *given)
{
    int rc = tally__summary_options_read(out, given);
    return rc == TALLY_OK ? check_options(out) : rc;
}

/* inplace: x itself for tally_summarize_inplace (the selections may then reorder it), NULL. */
static int summarize_full(tally_summary *out, const double *x, double *inplace, size_t n,
                     const tally_summary_options *opts, const extra_cuts *extra)
{
    if (!out)
        return tally__error(TALLY_EINVAL, "summary output pointer is NULL");
    tally_summary_options options;
    int rc = tally__read_summary_options(&options, opts);
    if (rc != TALLY_OK) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    const tally_summary_options *o = &options;
    tally__scratch scratch;
    rank_list list;
    rc = summarize_moments(out, x, n, o);
    if (rc != TALLY_OK)
        return rc;
    list.rank = list.own;
    list.values = list.own_values;
    if (extra->pct_count > 0) {
        size_t room = OWN_RANKS + 2 * extra->pct_count;
        list.rank = tally__reallocarray(NULL, room, sizeof *list.rank);
        list.values = tally__reallocarray(NULL, room, sizeof *list.values);
        if (list.rank == NULL || list.values == NULL) {
            tally__free_mem(list.rank);
            tally__free_mem(list.values);
            memset(out, 0, sizeof *out);
            return tally__error(TALLY_ENOMEM, "out of memory for %zu percentiles",
                                extra->pct_count);
        }
    }
    tally__scratch_init(&scratch, inplace);
    rc = fill_order_statistics(out, x, &scratch, o, extra, &list);
    tally__scratch_free(&scratch);
    if (list.rank != list.own) {
        tally__free_mem(list.rank);
        tally__free_mem(list.values);
    }
    if (rc != TALLY_OK)
        memset(out, 0, sizeof *out);
    return rc;
}

/* The library's own summaries are whole structs: size says so. */
static int summarize(tally_summary *out, const double *x, double *inplace, size_t n,
                     const tally_summary_options *opts, const extra_cuts *extra)
{
    int rc = summarize_full(out, x, inplace, n, opts, extra);
    if (out)
        out->size = sizeof *out;
    return rc;
}

/* The public entry points: the caller's struct of any size (util/result.h), zeroed on failure;
 * rc is the outcome of the caller's own argument checks (nothing is computed unless TALLY_OK). */
static int summarize_public(tally_summary *out, const double *x, double *inplace, size_t n,
                            const tally_summary_options *opts, const extra_cuts *extra, int rc)
{
    size_t size;
    tally_summary s;
    int size_rc = tally__result_begin(&size, out, "tally_summary", &s, sizeof s);
    if (size_rc)
        return size_rc;
    if (rc == TALLY_OK)
        rc = summarize(&s, x, inplace, n, opts, extra);
    tally__result_put(out, size, &s, sizeof s);
    return rc;
}

static const extra_cuts no_cuts = { NULL, NULL, 0, NULL, NULL, 0 };

int tally_summarize(tally_summary *out, const double *x, size_t n,
                    const tally_summary_options *opts)
{
    return summarize_public(out, x, NULL, n, opts, &no_cuts, TALLY_OK);
}

int tally_summarize_inplace(tally_summary *out, double *x, size_t n,
                            const tally_summary_options *opts)
{
    return summarize_public(out, x, x, n, opts, &no_cuts, TALLY_OK);
}

int tally_summarize_with_percentiles(tally_summary *out, double *pct, const double *x, size_t n,
                                     const double *p, size_t count,
                                     const tally_summary_options *opts)
{
    extra_cuts extra = { NULL, NULL, 0, p, pct, count };
    int rc = TALLY_OK;
    if (count > 0 && (p == NULL || pct == NULL))
        rc = tally__error(TALLY_EINVAL, "percentile input or output pointer is NULL");
    else if (count > SIZE_MAX / (4 * sizeof(size_t)))
        rc = tally__error(TALLY_ENOMEM, "too many percentiles (%zu)", count);
    for (size_t k = 0; rc == TALLY_OK && k < count; k++)
        if (!(p[k] >= 0 && p[k] <= 100))
            rc = tally__error(TALLY_EINVAL, "percentile %g is outside [0, 100]", p[k]);
    return summarize_public(out, x, NULL, n, opts, &extra, rc);
}

int tally__summarize_with_cuts(tally_summary *out, const double *x, size_t n,
                               const tally_summary_options *opts, const double *percents,
                               double *bameans, size_t count)
{
    extra_cuts extra = { percents, bameans, count, NULL, NULL, 0 };
    if (count > MAX_EXTRA_CUTS || (count > 0 && (percents == NULL || bameans == NULL)))
        return tally__error(TALLY_EINVAL, "at most %d extra BAmean cuts", MAX_EXTRA_CUTS);
    for (size_t k = 0; k < count; k++)
        if (!(percents[k] > 0 && percents[k] <= 100))
            return tally__error(TALLY_EINVAL, "BAmean percentage %g must lie in (0, 100]",
                                percents[k]);
    return summarize(out, x, NULL, n, opts, &extra);
}

/* The bytes of a summary that tally_summary_value() reads for stat (n, defined and the field). */
static size_t value_end(tally_statistic stat)
{
#define END(field) (offsetof(tally_summary, field) + sizeof(double))
    switch (stat) {
    case TALLY_STAT_HMEAN:
        return END(hmean);
    case TALLY_STAT_GMEAN:
        return END(gmean);
    case TALLY_STAT_MEDIAN:
        return END(median);
    case TALLY_STAT_MIN:
        return END(min);
    case TALLY_STAT_MAX:
        return END(max);
    case TALLY_STAT_BAMEAN:
        return END(bamean);
    default:
        return END(amean);
    }
#undef END
}

int tally_summary_value(double *out, const tally_summary *given, tally_statistic stat)
{
    size_t size;
    int rc = tally__result_size(&size, given, "tally_summary");
    if (rc)
        return rc;
    /* A caller's shorter summary lacks the field: an error, not a zero read as a value. */
    if (size < value_end(stat))
        return tally__error(TALLY_EINVAL, "tally_summary of size %zu has no %s", size,
                            tally_statistic_name(stat) ? tally_statistic_name(stat) : "such field");
    tally_summary s;
    tally__result_get(&s, sizeof s, given, size);
    return tally__summary_value(out, &s, stat);
}

int tally__summary_value(double *out, const tally_summary *s, tally_statistic stat)
{
    if (!out || !s)
        return tally__error(TALLY_EINVAL, "summary or output pointer is NULL");
    if (s->n == 0)
        return tally__error(TALLY_ENODATA, "the summary holds no samples");
    switch (stat) {
    case TALLY_STAT_DEFAULT:
    case TALLY_STAT_AMEAN:
        *out = s->amean;
        return TALLY_OK;
    case TALLY_STAT_HMEAN:
    case TALLY_STAT_GMEAN:
        if (!(s->defined & (stat == TALLY_STAT_HMEAN ? TALLY_SUMMARY_HMEAN : TALLY_SUMMARY_GMEAN)))
            return tally__error(TALLY_EDOMAIN, "%s is undefined: a sample is <= 0",
                                stat == TALLY_STAT_HMEAN ? "HMean" : "GMean");
        *out = stat == TALLY_STAT_HMEAN ? s->hmean : s->gmean;
        return TALLY_OK;
    case TALLY_STAT_MEDIAN:
    case TALLY_STAT_MIN:
    case TALLY_STAT_MAX:
    case TALLY_STAT_BAMEAN:
        if (s->defined & TALLY_SUMMARY_REPORTED)
            return tally__error(TALLY_EDOMAIN, "%s is undefined: a summary of (n, mean, SD) "
                                               "holds no order statistics",
                                tally__stat_title(stat));
        break;
    default:
        break;
    }
    switch (stat) {
    case TALLY_STAT_MEDIAN:
        *out = s->median;
        return TALLY_OK;
    case TALLY_STAT_MIN:
        *out = s->min;
        return TALLY_OK;
    case TALLY_STAT_MAX:
        *out = s->max;
        return TALLY_OK;
    case TALLY_STAT_BAMEAN:
        *out = s->bamean;
        return TALLY_OK;
    default:
        break;
    }
    return tally__error(TALLY_EINVAL, "unknown statistic %d", (int)stat);
}
