/* The summary of a sample held as a histogram (bucket values ascending with their counts): the
 * fields of tally_summarize(), computed over the counts instead of over one double per request,
 * so that a run of 10^8 requests costs its bucket count. Each field equals what
 * tally_summarize() gives for the samples the histogram stands for (every request at its
 * bucket's value): moments as count-weighted sums, order statistics through the weighted
 * quantile core (quantile.c), outliers by the same rules as outliers.c counted per bucket. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/quantile.h"
#include "stats/stats_internal.h"
#include "util/internal.h"
#include "util/result.h"

#define MAD_FACTOR 0.6745
#define MEAN_AD_FACTOR 0.79788456080286535588 /* sqrt(2 / pi), as outliers.c */

/* Count-weighted moments, two passes (the mean, then the squares about it), as tally__moments
 * holds them for plain samples. */
static void weighted_moments(tally__moments *m, const tally__wsample *s)
{
    double n = (double)s->n, sum = 0, comp = 0;
    memset(m, 0, sizeof *m);
    m->min = s->value[0];
    m->max = s->value[s->len - 1];
    m->positive = m->min > 0;
    /* Compensated (Kahan) sums: 10^8 requests in a few thousand buckets stay exact to ~1 ulp. */
    for (size_t i = 0; i < s->len; i++) {
        double y = (double)s->count[i] * s->value[i] - comp, t = sum + y;
        comp = (t - sum) - y;
        sum = t;
    }
    m->amean = sum / n;
    double ss = 0, inv = 0, logs = 0;
    for (size_t i = 0; i < s->len; i++) {
        double d = s->value[i] - m->amean, k = (double)s->count[i];
        ss += k * d * d;
        if (m->positive) {
            inv += k / s->value[i];
            logs += k * log(s->value[i]);
        }
    }
    if (s->n >= 2) {
        m->stddev = sqrt(ss / (n - 1));
        m->has_stddev = isfinite(m->stddev);
    }
    if (m->positive) {
        m->hmean = n / inv;
        m->gmean = exp(logs / n);
        if (s->n >= 2) {
            double hs = 0;
            for (size_t i = 0; i < s->len; i++) {
                double d = 1.0 / s->value[i] - 1.0 / m->hmean;
                hs += (double)s->count[i] * d * d;
            }
            double h2 = m->hmean * m->hmean;
            m->hstddev = sqrt(hs * h2 * h2 / n);
            m->has_hstddev = isfinite(m->hstddev);
        }
    }
}

/* BAmean-N: the mean of the best count requests, taken bucket by bucket from the best end. */
static double weighted_bamean(const tally__wsample *s, double percent, tally_direction dir)
{
    uint64_t want = (uint64_t)tally__bamean_count((size_t)s->n, percent), got = 0;
    double sum = 0;
    for (size_t j = 0; j < s->len && got < want; j++) {
        size_t i = dir == TALLY_HIGHER_IS_BETTER ? s->len - 1 - j : j;
        uint64_t take = s->count[i] < want - got ? s->count[i] : want - got;
        sum += (double)take * s->value[i];
        got += take;
    }
    return sum / (double)want;
}

/* The requests beyond Tukey's fences on type 7 quartiles. */
static uint64_t weighted_tukey(const tally__wsample *s, double k)
{
    double q1, q3;
    if (tally__wsample_percentile(&q1, s, 25, TALLY_PERCENTILE_LINEAR) != TALLY_OK ||
        tally__wsample_percentile(&q3, s, 75, TALLY_PERCENTILE_LINEAR) != TALLY_OK)
        return 0;
    double low = q1 - k * (q3 - q1), high = q3 + k * (q3 - q1);
    uint64_t out = 0;
    for (size_t i = 0; i < s->len; i++)
        if (s->value[i] < low || s->value[i] > high)
            out += s->count[i];
    return out;
}

/* The requests whose modified z-score exceeds the threshold (outliers.c's rule: the MAD, or the
 * mean absolute deviation scaled by sqrt(2/pi) when the MAD is 0, nothing when both are).
 * The absolute deviations are sorted by merging the buckets below the median (walked down)
 * with those above it (walked up). */
static int weighted_mad(uint64_t *out, const tally__wsample *s, double median, double threshold)
{
    *out = 0;
    double *dev = tally__reallocarray(NULL, s->len, sizeof *dev);
    uint64_t *cnt = tally__reallocarray(NULL, s->len, sizeof *cnt);
    if (dev == NULL || cnt == NULL) {
        tally__free_mem(dev);
        tally__free_mem(cnt);
        return tally__oom();
    }
    size_t up = 0;
    while (up < s->len && s->value[up] < median)
        up++;
    size_t down = up, m = 0;
    double meanad = 0;
    while (down > 0 || up < s->len) {
        double dd = down > 0 ? median - s->value[down - 1] : INFINITY;
        double du = up < s->len ? s->value[up] - median : INFINITY;
        size_t i = dd <= du ? --down : up++;
        double d = dd <= du ? dd : du;
        if (m > 0 && dev[m - 1] == d) {
            cnt[m - 1] += s->count[i];
        } else {
            dev[m] = d;
            cnt[m++] = s->count[i];
        }
        meanad += (double)s->count[i] * d;
    }
    meanad /= (double)s->n;
    tally__wsample ds;
    double mad = 0;
    int rc = tally__wsample_init(&ds, dev, cnt, m);
    if (rc == TALLY_OK)
        rc = tally__wsample_percentile(&mad, &ds, 50, TALLY_PERCENTILE_LINEAR);
    tally__wsample_free(&ds);
    if (rc == TALLY_OK) {
        double per_unit = mad > 0 ? MAD_FACTOR / mad : meanad > 0 ? MEAN_AD_FACTOR / meanad : 0;
        for (size_t i = 0; per_unit > 0 && i < m; i++)
            if (dev[i] * per_unit > threshold)
                *out += cnt[i];
    }
    tally__free_mem(dev);
    tally__free_mem(cnt);
    return rc;
}

static int summarize(tally_summary *out, const tally__wsample *s, const tally_summary_options *o)
{
    tally__moments m;
    weighted_moments(&m, s);
    if (s->n > SIZE_MAX)
        return tally__error(TALLY_ELIMIT, "a histogram of more than SIZE_MAX requests");
    tally__summary_from_moments(out, &m, (size_t)s->n, o->confidence);
    int rc = tally__wsample_percentile(&out->median, s, 50, o->percentile_method ==
                                       TALLY_PERCENTILE_NEAREST_RANK ? TALLY_PERCENTILE_NEAREST_RANK
                                                                     : TALLY_PERCENTILE_LINEAR);
    if (rc != TALLY_OK)
        return rc;
    if (tally__wsample_percentile_ci(&out->median_ci_low, &out->median_ci_high,
                                     &out->median_ci_level, s, 50, o->confidence))
        out->defined |= TALLY_SUMMARY_MEDIAN_CI;
    out->bamean = weighted_bamean(s, o->bamean_percent, o->direction);
    uint64_t tukey = weighted_tukey(s, o->tukey_k), mad = 0;
    if ((rc = weighted_mad(&mad, s, out->median, o->mad_threshold)) != TALLY_OK)
        return rc;
    out->outliers_tukey = (size_t)tukey;
    out->outliers_mad = (size_t)mad;
    if (o->percentile > 0) {
        out->percentile = o->percentile;
        rc = tally__wsample_percentile(&out->percentile_value, s, o->percentile,
                                       o->percentile_method);
        if (rc == TALLY_OK)
            out->defined |= TALLY_SUMMARY_PERCENTILE;
        if (rc == TALLY_OK &&
            tally__wsample_percentile_ci(&out->percentile_ci_low, &out->percentile_ci_high,
                                         &out->percentile_ci_level, s, o->percentile,
                                         o->confidence))
            out->defined |= TALLY_SUMMARY_PERCENTILE_CI;
    }
    return rc;
}

int tally_histogram_summarize(tally_summary *out, const double *values, const uint64_t *counts,
                              size_t len, const tally_summary_options *opts)
{
    size_t size;
    tally_summary mine;
    int rc = tally__result_begin(&size, out, "tally_summary", &mine, sizeof mine);
    if (rc != TALLY_OK)
        return rc;
    tally_summary_options o;
    if ((rc = tally__read_summary_options(&o, opts)) != TALLY_OK)
        return rc;
    if (len == 0)
        return tally__error(TALLY_ENODATA, "a histogram needs at least one bucket");
    if (values == NULL || counts == NULL)
        return tally__error(TALLY_EINVAL, "tally_histogram_summarize: NULL values or counts");
    /* As a case's histogram runs: an empty bucket is left out, so min and max are the ends. */
    for (size_t i = 0; i < len; i++)
        if (counts[i] == 0)
            return tally__error(TALLY_EINVAL, "histogram bucket %zu: count 0 (leave empty "
                                "buckets out)", i + 1);
    tally__wsample s;
    if ((rc = tally__wsample_init(&s, values, counts, len)) != TALLY_OK)
        return rc;
    tally__ensure_init();
    rc = summarize(&mine, &s, &o);
    tally__wsample_free(&s);
    if (rc == TALLY_OK)
        tally__result_put(out, size, &mine, sizeof mine);
    return rc;
}
