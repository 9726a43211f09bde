/*
 * tally_compare(): one row of a comparison report. Both sides are summarised once with
 * tally_summarize(), then tally__compare_summarized() (which the report calls directly with the
 * summaries it already has) takes the tests' moments from those summaries. Verdict and
 * insufficient-data rules: docs/statistics.md.
 */
#include <math.h>
#include <string.h>

#include "stats/compare_impl.h"
#include "util/internal.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_compare_options, TALLY_COMPARE_OPTIONS, sizeof(tally_compare_options))

static int check_options(const tally_compare_options *o)
{
    if (!(o->alpha > 0 && o->alpha < 1))
        return tally__error(TALLY_EINVAL, "compare options: alpha %g is not in (0, 1)", o->alpha);
    if ((int)o->test < (int)TALLY_TEST_WELCH || (int)o->test > (int)TALLY_TEST_NONE)
        return tally__error(TALLY_EINVAL, "compare options: unknown test %d", (int)o->test);
    if (o->direction != TALLY_LOWER_IS_BETTER && o->direction != TALLY_HIGHER_IS_BETTER)
        return tally__error(TALLY_EINVAL, "compare options: unknown direction %d",
                            (int)o->direction);
    if ((int)o->statistic < (int)TALLY_STAT_DEFAULT || (int)o->statistic > (int)TALLY_STAT_BAMEAN)
        return tally__error(TALLY_EINVAL, "compare options: unknown statistic %d",
                            (int)o->statistic);
    return TALLY_OK;
}

/* A constant sample has exactly its value as every mean and exactly 0 as spread, whatever the
 * rounding of the summary's sums; two equal constant samples must never look different. */
static int is_constant(const tally_summary *s)
{
    return s->min == s->max;
}

static double tested_mean(const tally_summary *s, int harmonic)
{
    if (is_constant(s))
        return s->min;
    return harmonic ? s->hmean : s->amean;
}

static double tested_sd(const tally_summary *s, int harmonic)
{
    if (is_constant(s))
        return 0;
    return harmonic ? s->hstddev : s->stddev;
}

/* The summary leaves stddev (hstddev) undefined when it exceeds the double range (samples near
 * +-DBL_MAX); a t-test cannot run on that. Called with n >= 2, and for the harmonic SD only when
 * HMean is defined (tally_summary_value has checked). */
static int spread_defined(const tally_summary *s, int harmonic)
{
    unsigned int flag = harmonic ? TALLY_SUMMARY_HSTDDEV : TALLY_SUMMARY_STDDEV;
    if (is_constant(s) || (s->defined & flag))
        return TALLY_OK;
    return tally__error(TALLY_ENUMERIC, "compare: the %s standard deviation of %zu samples is "
                                        "beyond the double range",
                        harmonic ? "harmonic" : "sample", s->n);
}

static tally__test_moments moments(const tally_summary *s)
{
    tally__test_moments m;
    m.n = s->n;
    m.constant = is_constant(s);
    m.mean = tested_mean(s, 0);
    m.sd = m.constant ? 0 : s->stddev;
    return m;
}

static int sign(double x)
{
    return (x > 0) - (x < 0);
}

/* Runs the test; returns 1 in *insufficient when the sample sizes cannot reach alpha. `shift`
 * receives the sign of (new - base) as the test sees it, for the verdict's fallback. */
static int run_test(tally_comparison *r, int *insufficient, int *shift, const double *base,
                    size_t nb, const double *current, size_t nc, const tally_compare_options *o,
                    tally_statistic stat)
{
    *insufficient = 0;
    *shift = 0;
    switch (o->test) {
    case TALLY_TEST_WELCH:
    case TALLY_TEST_STUDENT: {
        if (nb < 2 || nc < 2) {
            *insufficient = 1;
            return TALLY_OK;
        }
        int rc = spread_defined(&r->base, 0);
        if (rc == TALLY_OK)
            rc = spread_defined(&r->current, 0);
        if (rc)
            return rc;
        tally__test_moments mb = moments(&r->base), mc = moments(&r->current);
        tally__ttest t;
        rc = o->test == TALLY_TEST_WELCH ? tally__welch_moments(&t, &mb, &mc)
                                             : tally__student_moments(&t, &mb, &mc);
        if (rc)
            return rc;
        r->statistic = t.t;
        r->df = t.df;
        r->p_value = t.p;
        r->zero_variance = t.zero_variance;
        *shift = sign(mc.mean - mb.mean);
        return TALLY_OK;
    }
    case TALLY_TEST_MMTESTS_CI: {
        if (nb < 2 || nc < 2) {
            *insufficient = 1;
            return TALLY_OK;
        }
        int harmonic = stat == TALLY_STAT_HMEAN;
        int rc = spread_defined(&r->base, harmonic);
        if (rc == TALLY_OK)
            rc = spread_defined(&r->current, harmonic);
        if (rc)
            return rc;
        double mean_b = tested_mean(&r->base, harmonic);
        double mean_c = tested_mean(&r->current, harmonic);
        double sd_b = tested_sd(&r->base, harmonic), sd_c = tested_sd(&r->current, harmonic);
        rc = tally_mmtests_test(&r->statistic, &r->df, &r->p_value, mean_b, sd_b, nb, mean_c,
                                    sd_c, nc);
        if (rc)
            return rc;
        r->zero_variance = sd_b == 0 && sd_c == 0;
        *shift = sign(mean_c - mean_b);
        return TALLY_OK;
    }
    case TALLY_TEST_MANN_WHITNEY: {
        if (tally__mann_whitney_min_p(nb, nc) >= o->alpha) {
            *insufficient = 1;
            return TALLY_OK;
        }
        int rc = tally_mann_whitney(&r->statistic, &r->p_value, &r->exact, base, nb, current, nc);
        if (rc)
            return rc;
        /* U of the baseline above nb*nc/2: the baseline tends to be larger, the new set smaller. */
        *shift = sign((double)nb * (double)nc / 2 - r->statistic);
        return TALLY_OK;
    }
    case TALLY_TEST_NONE:
        return TALLY_OK;
    }
    return tally__error(TALLY_EINVAL, "compare: unknown test %d", (int)o->test);
}

static tally_verdict verdict_of(const tally_comparison *r, int shift, tally_direction direction)
{
    if (!r->significant)
        return TALLY_VERDICT_NO_CHANGE;
    /* The sign of the shown pct-imp decides, so that a starred -18.95 % is never called an
     * improvement; the test's own direction only when pct-imp is 0 or undefined. */
    int better = 0;
    if (r->ratio_defined && r->pct_imp != 0)
        better = sign(r->pct_imp);
    else
        better = direction == TALLY_LOWER_IS_BETTER ? -shift : shift;
    if (better > 0)
        return TALLY_VERDICT_IMPROVEMENT;
    if (better < 0)
        return TALLY_VERDICT_REGRESSION;
    return TALLY_VERDICT_NO_CHANGE;
}

/* Everything after the two summaries; report.c calls it with the summaries it has already made. */
/* The options (read into *o, any supported version) and the sample counts, as both entry points
 * check them. */
static int check_call(tally_compare_options *o, const tally_compare_options *given, size_t nb,
                      size_t nc)
{
    int rc = tally__options_read(o, given, &tally_compare_options_kind);
    if (rc == TALLY_OK)
        rc = check_options(o);
    if (rc)
        return rc;
    if (nb == 0 || nc == 0)
        return tally__error(TALLY_ENODATA, "compare: an empty side (%zu baseline and %zu new "
                                           "samples)", nb, nc);
    return TALLY_OK;
}

int tally__compare_summarized(tally_comparison *out, const tally_summary *base_summary,
                              const double *base, size_t nb,
                              const tally_summary *current_summary, const double *current,
                              size_t nc, const tally_compare_options *opts)
{
    if (out == NULL || base_summary == NULL || current_summary == NULL)
        return tally__error(TALLY_EINVAL, "compare: NULL argument");
    tally_compare_options options;
    const tally_compare_options *o = &options;
    int rc = check_call(&options, opts, nb, nc);
    if (rc)
        return rc;
    /* Only Mann-Whitney reads the samples: the other tests run on the summaries alone (a report
     * of partitioned samples has no samples on the client). */
    int need_samples = o->test == TALLY_TEST_MANN_WHITNEY;
    if (need_samples && ((base == NULL && nb) || (current == NULL && nc)))
        return tally__error(TALLY_EINVAL, "compare: NULL argument");
    if (base_summary->n != nb || current_summary->n != nc)
        return tally__error(TALLY_EINVAL, "compare: summaries of %zu and %zu samples given for "
                                          "%zu and %zu samples", base_summary->n,
                            current_summary->n, nb, nc);

    tally_comparison r;
    memset(&r, 0, sizeof(r));
    r.base = *base_summary;
    r.current = *current_summary;

    tally_statistic stat = o->statistic == TALLY_STAT_DEFAULT ? TALLY_STAT_AMEAN : o->statistic;
    rc = tally_summary_value(&r.base_value, &r.base, stat);
    if (rc == TALLY_OK)
        rc = tally_summary_value(&r.new_value, &r.current, stat);
    if (rc)
        return rc;

    /* A zero baseline (or a quotient that overflows) has no ratio: flagged, not an error, so
     * that one all-zero row does not sink a whole report. */
    if (r.base_value != 0 && isfinite(r.new_value / r.base_value)) {
        r.ratio = r.new_value / r.base_value;
        rc = tally_pct_imp(&r.pct_imp, r.base_value, r.new_value, o->direction);
        if (rc)
            return rc;
        r.ratio_defined = 1;
    }

    r.test = o->test;
    r.p_value = 1;
    int insufficient, shift;
    rc = run_test(&r, &insufficient, &shift, base, nb, current, nc, o, stat);
    if (rc)
        return rc;
    if (insufficient) {
        r.verdict = TALLY_VERDICT_INSUFFICIENT;
    } else {
        r.significant = o->test != TALLY_TEST_NONE && r.p_value < o->alpha;
        r.verdict = verdict_of(&r, shift, o->direction);
    }
    *out = r;
    return TALLY_OK;
}

int tally_compare(tally_comparison *out, const double *base, size_t nb, const double *current,
                  size_t nc, const tally_compare_options *opts)
{
    if (out == NULL || (base == NULL && nb) || (current == NULL && nc))
        return tally__error(TALLY_EINVAL, "compare: NULL argument");
    tally_compare_options options;
    const tally_compare_options *o = &options;
    /* Checked before summarising so that a bad option is reported as such, not as a summary
     * error; tally__compare_summarized checks again for its other callers. */
    int rc = check_call(&options, opts, nb, nc);
    if (rc)
        return rc;

    tally_summary sb, sc;
    tally_summary_options so = o->summary;
    so.direction = o->direction;
    rc = tally_summarize(&sb, base, nb, &so);
    if (rc == TALLY_OK)
        rc = tally_summarize(&sc, current, nc, &so);
    if (rc)
        return rc;
    return tally__compare_summarized(out, &sb, base, nb, &sc, current, nc, o);
}
