/* tally_summarize: every descriptive statistic of one sample set in O(n). Moments come from
 * passes over the caller's array; order statistics (median, quartiles, median CI bounds, the
 * BAmean cut) are selected together, then the MAD, by histogram selection, which leaves the
 * samples where they are; only when it does not apply do the selections need a copy (or, for
 * tally_summarize_inplace, the caller's buffer). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "util/internal.h"
#include "stats/stats_internal.h"
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
    if (!m->has_stddev)
        return;
    s->stddev = m->stddev;
    s->sem = m->stddev / sqrt((double)s->n);
    s->defined |= TALLY_SUMMARY_STDDEV;
    if (m->amean != 0) {
        double cv = 100.0 * (m->stddev / m->amean);
        if (isfinite(cv)) {
            s->cv = cv;
            s->defined |= TALLY_SUMMARY_CV;
        }
    }
    double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - confidence) / 2.0, (double)(s->n - 1));
    double half = t * s->sem;
    double low = m->amean - half, high = m->amean + half;
    if (isfinite(t) && isfinite(half) && isfinite(low) && isfinite(high)) {
        s->mean_ci_low = low;
        s->mean_ci_high = high;
        s->defined |= TALLY_SUMMARY_MEAN_CI;
    }
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

#define MAX_EXTRA_CUTS 4
#define OWN_RANKS (11 + MAX_EXTRA_CUTS)

/* The ranks to select (in own[] unless percentiles need more room), and where each group starts
 * among the selected values. */
typedef struct rank_list {
    size_t own[OWN_RANKS], *rank;
    double own_values[OWN_RANKS], *values;
    size_t count;
} rank_list;

static size_t add_percentile(rank_list *l, size_t n, double p, tally_percentile_method method)
{
    size_t at = l->count;
    l->count += tally__percentile_ranks(l->rank + at, n, p, method);
    return at;
}

/* Order statistics and outlier counts, all from one selection of every rank they need (median,
 * quartiles, median CI bounds, BAmean cut) and one of the MAD. x is read, never written, when
 * the histogram selection applies; otherwise the selections work in the scratch (a copy, or x
 * itself for the in-place call) and every later pass reads the samples there. */
static int fill_order_statistics(tally_summary *s, const double *x, tally__scratch *scratch,
                                 const tally_summary_options *o, const extra_cuts *extra,
                                 rank_list *list)
{
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    size_t n = s->n, ci_lo = 0, ci_hi = 0;
    double ci_level = 0, *v = list->values, *mapped, *devs;
    rank_list *l = list;
    size_t best = tally__bamean_count(n, o->bamean_percent);
    int has_ci = tally__median_ci_ranks(&ci_lo, &ci_hi, &ci_level, n, o->confidence);

    size_t at_median = add_percentile(l, n, 50, o->percentile_method);
    size_t at_median7 = add_percentile(l, n, 50, TALLY_PERCENTILE_LINEAR);
    size_t at_q1 = add_percentile(l, n, 25, TALLY_PERCENTILE_LINEAR);
    size_t at_q3 = add_percentile(l, n, 75, TALLY_PERCENTILE_LINEAR);
    size_t at_cut = l->count;
    l->rank[l->count++] = tally__bamean_rank(n, best, o->direction);
    size_t at_ci = l->count;
    if (has_ci) {
        l->rank[l->count++] = ci_lo;
        l->rank[l->count++] = ci_hi;
    }
    size_t at_extra = l->count;
    for (size_t k = 0; k < extra->count; k++)
        l->rank[l->count++] = tally__bamean_rank(n, tally__bamean_count(n, extra->percents[k]),
                                               o->direction);
    size_t at_pct = l->count;
    for (size_t k = 0; k < extra->pct_count; k++)
        add_percentile(l, n, extra->p[k], o->percentile_method);
    int rc = tally__order_stats(v, x, n, l->rank, l->count, &identity, s->min, s->max, scratch,
                                &mapped);
    if (rc != TALLY_OK)
        return rc;
    const double *data = mapped ? mapped : x;
    double maxabs = fmax(fabs(s->min), fabs(s->max));

    s->median = tally__percentile_from(v + at_median, n, 50, o->percentile_method);
    for (size_t k = 0, at = at_pct; k < extra->pct_count; k++) {
        extra->pct[k] = tally__percentile_from(v + at, n, extra->p[k], o->percentile_method);
        size_t ranks[2];
        at += tally__percentile_ranks(ranks, n, extra->p[k], o->percentile_method);
    }
    double q1 = tally__percentile_from(v + at_q1, n, 25, TALLY_PERCENTILE_LINEAR);
    double q3 = tally__percentile_from(v + at_q3, n, 75, TALLY_PERCENTILE_LINEAR);
    size_t counts[1 + MAX_EXTRA_CUTS];
    double cuts[1 + MAX_EXTRA_CUTS], bameans[1 + MAX_EXTRA_CUTS];
    counts[0] = best;
    cuts[0] = v[at_cut];
    for (size_t k = 0; k < extra->count; k++) {
        counts[1 + k] = tally__bamean_count(n, extra->percents[k]);
        cuts[1 + k] = v[at_extra + k];
    }
    tally__bamean_from_cuts(bameans, data, n, counts, cuts, 1 + extra->count, s->min, s->max,
                            o->direction);
    s->bamean = bameans[0];
    for (size_t k = 0; k < extra->count; k++)
        extra->out[k] = bameans[1 + k];
    if (has_ci) {
        s->median_ci_low = v[at_ci];
        s->median_ci_high = v[at_ci + 1];
        s->median_ci_level = ci_level;
        s->defined |= TALLY_SUMMARY_MEDIAN_CI;
    }

    /* Outliers are judged against the type 7 median whatever the reported median's method. */
    double median7 = tally__percentile_from(v + at_median7, n, 50, TALLY_PERCENTILE_LINEAR);
    tally__outlier_rule rule;
    tally__outlier_fences(&rule, maxabs, q1, q3, o->tukey_k);
    s->outliers_tukey = tally__count_tukey_outliers(&rule, data, n);
    rc = tally__outlier_mad(&rule, data, n, s->min, s->max, median7, o->mad_threshold, scratch,
                            &devs);
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
    if ((rc = check_options(o)) != TALLY_OK)
        return rc;
    if ((rc = tally__compute_moments(&m, x, n)) != TALLY_OK)
        return rc;
    tally__ensure_init();

    out->n = n;
    out->min = m.min;
    out->max = m.max;
    out->amean = m.amean;
    fill_spread(out, &m, o->confidence);
    return TALLY_OK;
}

/* inplace: x itself for tally_summarize_inplace (the selections may then reorder it), NULL. */
static int summarize(tally_summary *out, const double *x, double *inplace, size_t n,
                     const tally_summary_options *opts, const extra_cuts *extra)
{
    if (!out)
        return tally__error(TALLY_EINVAL, "summary output pointer is NULL");
    tally_summary_options options;
    int rc = tally__options_read(&options, opts, &tally_summary_options_kind);
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
    list.count = 0;
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

static const extra_cuts no_cuts = { NULL, NULL, 0, NULL, NULL, 0 };

int tally_summarize(tally_summary *out, const double *x, size_t n,
                    const tally_summary_options *opts)
{
    return summarize(out, x, NULL, n, opts, &no_cuts);
}

int tally_summarize_inplace(tally_summary *out, double *x, size_t n,
                            const tally_summary_options *opts)
{
    return summarize(out, x, x, n, opts, &no_cuts);
}

int tally_summarize_with_percentiles(tally_summary *out, double *pct, const double *x, size_t n,
                                     const double *p, size_t count,
                                     const tally_summary_options *opts)
{
    extra_cuts extra = { NULL, NULL, 0, p, pct, count };
    if (count > 0 && (p == NULL || pct == NULL)) {
        if (out)
            memset(out, 0, sizeof *out);
        return tally__error(TALLY_EINVAL, "percentile input or output pointer is NULL");
    }
    if (count > SIZE_MAX / (4 * sizeof(size_t)))
        return tally__error(TALLY_ENOMEM, "too many percentiles (%zu)", count);
    for (size_t k = 0; k < count; k++)
        if (!(p[k] >= 0 && p[k] <= 100)) {
            if (out)
                memset(out, 0, sizeof *out);
            return tally__error(TALLY_EINVAL, "percentile %g is outside [0, 100]", p[k]);
        }
    return summarize(out, x, NULL, n, opts, &extra);
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

int tally_summary_value(double *out, const tally_summary *s, tally_statistic stat)
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
    }
    return tally__error(TALLY_EINVAL, "unknown statistic %d", (int)stat);
}
