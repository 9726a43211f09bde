/*
 * tally_compare(): one row of a comparison report. Both sides are summarised once with
 * tally_summarize(), then tally__compare_summarized() (which the report calls directly with the
 * summaries it already has) takes the tests' moments from those summaries. Verdict and
 * insufficient-data rules: docs/statistics.md.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/compare_impl.h"
#include "util/result.h"
#include "stats/stats_internal.h"
#include "util/internal.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_compare_options, TALLY_COMPARE_OPTIONS, sizeof(tally_compare_options))

static int check_options(const tally_compare_options *o)
{
    if (!(o->alpha > 0 && o->alpha < 1))
        return tally__error(TALLY_EINVAL, "compare options: alpha %g is not in (0, 1)", o->alpha);
    if ((int)o->test < (int)TALLY_TEST_WELCH || (int)o->test > (int)TALLY_TEST_PRICE_BONETT)
        return tally__error(TALLY_EINVAL, "compare options: unknown test %d", (int)o->test);
    if (o->direction != TALLY_LOWER_IS_BETTER && o->direction != TALLY_HIGHER_IS_BETTER)
        return tally__error(TALLY_EINVAL, "compare options: unknown direction %d",
                            (int)o->direction);
    if ((int)o->statistic < (int)TALLY_STAT_DEFAULT ||
        (int)o->statistic > (int)TALLY_STAT_PERCENTILE)
        return tally__error(TALLY_EINVAL, "compare options: unknown statistic %d",
                            (int)o->statistic);
    if (o->statistic == TALLY_STAT_PERCENTILE && !(o->summary->percentile > 0))
        return tally__error(TALLY_EINVAL, "compare options: a percentile row needs the summary "
                                          "options' percentile in (0, 100)");
    if (!(o->summary->confidence > 0 && o->summary->confidence < 1))
        return tally__error(TALLY_EINVAL, "compare options: confidence %g is not in (0, 1)",
                            o->summary->confidence);
    if (!(o->power > 0 && o->power < 1))
        return tally__error(TALLY_EINVAL, "compare options: power %g is not in (0, 1)", o->power);
    if (!(o->equivalence_pct >= 0 && o->equivalence_pct < 100))
        return tally__error(TALLY_EINVAL, "compare options: equivalence margin %g%% is not in "
                                          "[0, 100)", o->equivalence_pct);
    if (!(o->mde_pct >= 0 && o->mde_pct < 100))
        return tally__error(TALLY_EINVAL, "compare options: --mde %g%% is not in [0, 100)",
                            o->mde_pct);
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

static int sign(double x)
{
    return (x > 0) - (x < 0);
}

/* The scale a t-test uses for a statistic: the one on which the statistic is a mean. */
static tally__scale scale_of(tally_statistic stat)
{
    return stat == TALLY_STAT_HMEAN   ? TALLY__SCALE_RECIPROCAL
           : stat == TALLY_STAT_GMEAN ? TALLY__SCALE_LOG
                                      : TALLY__SCALE_X;
}

/* Moments of one side on a scale from its summary alone, for reports of partitioned samples
 * that hold no samples: x from AMean and SD; 1/x from HMean and the harmonic SD (mean(1/x) =
 * 1/H, SD(1/x) = hstddev / H^2 * sqrt(n / (n - 1))). The log scale has no summary moments:
 * returns 0 then. */
static int summary_moments(tally__test_moments *m, const tally_summary *s, tally__scale scale)
{
    memset(m, 0, sizeof(*m));
    m->n = s->n;
    m->constant = is_constant(s);
    if (scale == TALLY__SCALE_LOG)
        return 0;
    if (scale == TALLY__SCALE_RECIPROCAL) {
        double h = m->constant ? s->min : s->hmean;
        m->mean = 1 / h;
        m->sd = m->constant || s->n < 2 ? 0
                                        : s->hstddev / h / h * sqrt((double)s->n / (double)(s->n - 1));
    } else {
        m->mean = tested_mean(s, 0);
        m->sd = m->constant ? 0 : s->stddev;
    }
    m->centred = m->mean;
    m->pivoted = 0;
    return 1;
}

/* Both sides' moments on a scale around the first baseline sample; from the summaries when the
 * samples are absent. *available is 0 when neither works (the log scale without samples). */
static int scale_moments(tally__test_moments *mb, tally__test_moments *mc, int *available,
                         const double *base, size_t nb, const double *current, size_t nc,
                         const tally_summary *sb, const tally_summary *sc, tally__scale scale)
{
    *available = 1;
    double mul = 1;
    if (scale == TALLY__SCALE_X)
        mul = tally__overflow_scale(fmax(fmax(fabs(sb->min), fabs(sb->max)),
                                         fmax(fabs(sc->min), fabs(sc->max))));
    else if (!(sb->min > 0 && sc->min > 0))
        return tally__error(TALLY_EDOMAIN, "compare: the %s scale needs samples > 0",
                            scale == TALLY__SCALE_LOG ? "log" : "reciprocal");
    if (base == NULL || current == NULL) {
        if (scale == TALLY__SCALE_X) {
            int rc = spread_defined(sb, 0);
            if (rc == TALLY_OK)
                rc = spread_defined(sc, 0);
            if (rc)
                return rc;
        }
        *available = summary_moments(mb, sb, scale) && summary_moments(mc, sc, scale);
        /* Without a shared pivot the centred means are the means themselves. */
        mb->pivoted = mc->pivoted = 0;
        return TALLY_OK;
    }
    if (scale == TALLY__SCALE_X) {
        tally__pivot_moments_x(mb, base, nb, base[0], mul, sb->min, sb->max);
        tally__pivot_moments_x(mc, current, nc, base[0], mul, sc->min, sc->max);
    } else {
        tally__pivot_moments(mb, base, nb, scale, base[0], mul);
        tally__pivot_moments(mc, current, nc, scale, base[0], mul);
    }
    if (!isfinite(mb->mean) || !isfinite(mc->mean) || !isfinite(mb->sd) || !isfinite(mc->sd))
        return tally__error(TALLY_ENUMERIC, "compare: moments on the %s scale are beyond the "
                                            "double range",
                            scale == TALLY__SCALE_X ? "x" : scale == TALLY__SCALE_LOG ? "log"
                                                                                       : "1/x");
    return TALLY_OK;
}

/* ---- Price & Bonett (2002): the log ratio of medians ---- */

typedef struct median_side {
    double log_median; /* log of the sample median */
    double se;         /* standard error of log_median */
} median_side;

/*
 * SE of the log median from the distribution-free interval of the median the summary already
 * holds, [Y_(k), Y_(n-k+1)] with its exact binomial coverage L (tally__median_ci_ranks):
 * SE = (log Y_(n-k+1) - log Y_(k)) / (2 z), z = Phi^-1((1 + L) / 2). This is Price & Bonett's
 * (2002) construction; they fix k = round(n/2 - sqrt(n)), tally takes the k of the interval at
 * the report's confidence (the same k at 95 % for most n, e.g. 19), so that a report of
 * partitioned samples, which has these order statistics but no samples, gets the same test.
 * A percentile row takes the same construction from its percentile's equal-tailed interval
 * (tally__percentile_ci_ranks): the SE of the log percentile (docs/statistics.md, "Percentile
 * rows"). Returns 0 when the summary has no such interval (too few samples for the level).
 */
static int median_side_of(median_side *m, const tally_summary *s, tally_statistic stat)
{
    int pct = stat == TALLY_STAT_PERCENTILE;
    unsigned int flag = pct ? TALLY_SUMMARY_PERCENTILE_CI : TALLY_SUMMARY_MEDIAN_CI;
    double lo = pct ? s->percentile_ci_low : s->median_ci_low;
    double hi = pct ? s->percentile_ci_high : s->median_ci_high;
    double level = pct ? s->percentile_ci_level : s->median_ci_level;
    double centre = pct ? s->percentile_value : s->median;
    if (!(s->defined & flag) || !(lo > 0) || !(centre > 0))
        return 0;
    double z = gsl_cdf_ugaussian_Qinv((1 - level) / 2);
    m->log_median = log(centre);
    m->se = log(hi / lo) / (2 * z);
    return isfinite(m->se) && m->se >= 0;
}

/* ---- the change model: what the interval, the MDE and the runs needed are computed from ---- */

typedef enum model_kind { MODEL_NONE, MODEL_FIELLER, MODEL_FIELLER_RECIPROCAL, MODEL_LOG_T,
                          MODEL_LOG_Z, MODEL_HODGES_LEHMANN } model_kind;

typedef struct change_model {
    model_kind kind;
    /* Fieller: means ma (base), mc (new) of the scale, the variances va, vc of those means,
     * d = mc / ma - 1 from the centred means, the ratio's df. */
    double ma, mc, va, vc, d;
    /* log kinds: the log ratio D of the shown statistics and its standard error. */
    double D;
    double se, df;   /* of log(ratio) (delta method for Fieller kinds); df infinite for z */
    double vb1, vc1; /* variance of one run on the log-ratio scale, per side */
    /* Hodges-Lehmann: both sides' values (logs for the ratio when `logs`, else the samples and
     * the baseline's statistic that turns a shift into a ratio), and the test's exactness. */
    const double *hb, *hc;
    size_t nb, nc;
    int logs, exact;
    double base_value;
} change_model;

/* Welch-Satterthwaite df of a sum of two variances of means, from the shares (no overflow). */
static double welch_df(double va, size_t na, double vc, size_t nc)
{
    double tot = va + vc;
    if (!(tot > 0))
        return (double)(na + nc - 2);
    double ra = va / tot, rc = vc / tot;
    return 1.0 / (ra * ra / (double)(na - 1) + rc * rc / (double)(nc - 1));
}

static void fieller_model(change_model *m, const tally__test_moments *a,
                          const tally__test_moments *c, model_kind kind)
{
    double na = (double)a->n, nc = (double)c->n;
    m->kind = kind;
    m->ma = a->mean;
    m->mc = c->mean;
    m->va = (a->sd / sqrt(na)) * (a->sd / sqrt(na));
    m->vc = (c->sd / sqrt(nc)) * (c->sd / sqrt(nc));
    m->d = (c->centred - a->centred) / a->mean;
    double r = m->mc / m->ma;
    /* df of mc - rho ma at rho = the estimate */
    m->df = welch_df(m->vc, c->n, r * r * m->va, a->n);
    double la = m->va / (m->ma * m->ma), lc = m->vc / (m->mc * m->mc);
    m->se = sqrt(la + lc);
    m->vb1 = la * na;
    m->vc1 = lc * nc;
    if (kind == MODEL_FIELLER_RECIPROCAL)
        m->D = -log1p(m->d);
    else
        m->D = log1p(m->d);
}

int tally__fieller_interval(double *lo, double *hi, double ma, double va, double mc, double vc,
                            double d, double df, double level)
{
    double q = gsl_cdf_tdist_Qinv((1 - level) / 2, df);
    double g = q * q * va / (ma * ma);
    if (!(g < 1) || !(ma > 0) || !(mc > 0))
        return 0; /* the baseline mean is not significantly away from 0: unbounded */
    double r = mc / ma;
    double h = q / ma * sqrt(vc * (1 - g) + r * r * va);
    *lo = (d + g - h) / (1 - g);
    *hi = (d + g + h) / (1 - g);
    return 1;
}

/* Bounds of (ratio - 1) of the shown statistic at `level`; 0 when the interval is unbounded. */
static int model_interval(double *lo, double *hi, const change_model *m, double level)
{
    double q;
    switch (m->kind) {
    case MODEL_FIELLER:
    case MODEL_FIELLER_RECIPROCAL: {
        double el, eh;
        if (!tally__fieller_interval(&el, &eh, m->ma, m->va, m->mc, m->vc, m->d, m->df, level))
            return 0;
        if (m->kind == MODEL_FIELLER) {
            *lo = el;
            *hi = eh;
            return 1;
        }
        /* HMean ratio = 1 / (ratio of the means of 1/x): decreasing in it. */
        if (!(1 + el > 0))
            return 0;
        *lo = -eh / (1 + eh);
        *hi = -el / (1 + el);
        return 1;
    }
    case MODEL_LOG_T:
    case MODEL_LOG_Z:
        q = m->kind == MODEL_LOG_T ? gsl_cdf_tdist_Qinv((1 - level) / 2, m->df)
                                   : gsl_cdf_ugaussian_Qinv((1 - level) / 2);
        *lo = expm1(m->D - q * m->se);
        *hi = expm1(m->D + q * m->se);
        return 1;
    case MODEL_HODGES_LEHMANN:
    case MODEL_NONE:
        break;
    }
    return 0;
}

static tally_interval_method method_of(model_kind kind)
{
    switch (kind) {
    case MODEL_FIELLER: return TALLY_INTERVAL_FIELLER;
    case MODEL_FIELLER_RECIPROCAL: return TALLY_INTERVAL_FIELLER_RECIPROCAL;
    case MODEL_LOG_T: return TALLY_INTERVAL_LOG_WELCH;
    case MODEL_LOG_Z: return TALLY_INTERVAL_PRICE_BONETT;
    case MODEL_HODGES_LEHMANN: return TALLY_INTERVAL_HODGES_LEHMANN;
    case MODEL_NONE: break;
    }
    return TALLY_INTERVAL_NONE;
}

void tally__pct_bounds(double *plo, double *phi, double lo, double hi, tally_direction dir)
{
    /* + 0.0 turns -0 into +0: a bound of exactly no change prints as 0.00, not -0.00. */
    if (dir == TALLY_HIGHER_IS_BETTER) {
        *plo = 100 * lo + 0.0;
        *phi = 100 * hi + 0.0;
    } else {
        *plo = -100 * hi + 0.0;
        *phi = -100 * lo + 0.0;
    }
}

/* ---- tests ---- */

typedef struct test_outcome {
    int ran;          /* a p-value exists */
    int insufficient; /* the sizes cannot reach alpha */
    int shift;        /* sign of (new - base) of the shown statistic as the test sees it */
} test_outcome;

static int run_t(tally_comparison *r, test_outcome *out, const tally__test_moments *mb,
                 const tally__test_moments *mc, tally_test test, tally__scale scale)
{
    tally__ttest t;
    int rc = test == TALLY_TEST_STUDENT ? tally__student_moments(&t, mb, mc)
                                        : tally__welch_moments(&t, mb, mc);
    if (rc)
        return rc;
    r->test = test;
    r->statistic = t.t;
    r->df = t.df;
    r->p_value = t.p;
    r->zero_variance = t.zero_variance;
    r->min_p = 0;
    out->ran = 1;
    int s = sign(mc->centred - mb->centred);
    out->shift = scale == TALLY__SCALE_RECIPROCAL ? -s : s;
    return TALLY_OK;
}

static int run_price_bonett(tally_comparison *r, test_outcome *out, const median_side *b,
                            const median_side *c)
{
    double se = hypot(b->se, c->se);
    double D = c->log_median - b->log_median;
    r->test = TALLY_TEST_PRICE_BONETT;
    r->min_p = 0;
    out->ran = 1;
    out->shift = sign(D);
    if (!(se > 0) || !isfinite(D / se)) {
        r->statistic = 0;
        r->p_value = D != 0 ? 0.0 : 1.0;
        r->zero_variance = 1;
        return TALLY_OK;
    }
    r->statistic = -D / se; /* base minus new, as the t-tests */
    r->p_value = fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(D / se)));
    return TALLY_OK;
}

typedef struct inputs {
    const double *base, *current;
    const tally_summary *sb, *sc; /* the two sides' summaries */
    size_t nb, nc;
    const tally_compare_options *o;
    tally_statistic stat;
    int positive; /* every sample of both sides > 0 */
    const double *ranks; /* {mid-rank sum of base, tie term} of the pooled sample, or NULL */
    struct scale_cache *cache;
} inputs;

/* The moments of both sides on the statistic's scale: the t-test and the interval model need
 * the same ones, so their passes over the samples run once. An error is returned once too (the
 * comparison stops at it). */
typedef struct scale_cache {
    int done, rc, available;
    tally__test_moments mb, mc;
} scale_cache;

static int stat_moments(const tally__test_moments **mb, const tally__test_moments **mc,
                        int *available, const inputs *in)
{
    scale_cache *c = in->cache;
    if (!c->done) {
        c->rc = scale_moments(&c->mb, &c->mc, &c->available, in->base, in->nb, in->current,
                              in->nc, in->sb, in->sc, scale_of(in->stat));
        c->done = 1;
    }
    *mb = &c->mb;
    *mc = &c->mc;
    *available = c->available;
    return c->rc;
}

/* Both sides' log medians and SEs; 0 when a side has no interval of its median. */
static int medians_of(median_side *b, median_side *c, const inputs *in)
{
    return median_side_of(b, in->sb, in->stat) && median_side_of(c, in->sc, in->stat);
}

static int run_test(tally_comparison *r, test_outcome *out, const inputs *in, tally_test test)
{
    memset(out, 0, sizeof(*out));
    size_t nb = in->nb, nc = in->nc;
    switch (test) {
    case TALLY_TEST_WELCH:
    case TALLY_TEST_STUDENT: {
        r->test = test;
        if (nb < 2 || nc < 2) {
            out->insufficient = 1;
            return TALLY_OK;
        }
        const tally__test_moments *mb, *mc;
        int available;
        int rc = stat_moments(&mb, &mc, &available, in);
        if (rc)
            return rc;
        if (!available) {
            r->test = TALLY_TEST_NONE; /* no samples on the client: nothing to test with */
            return TALLY_OK;
        }
        return run_t(r, out, mb, mc, test, scale_of(in->stat));
    }
    case TALLY_TEST_PRICE_BONETT: {
        r->test = test;
        if (!in->positive)
            return tally__error(TALLY_EDOMAIN, "compare: the Price-Bonett test of the ratio of "
                                               "%s needs samples > 0",
                                in->stat == TALLY_STAT_PERCENTILE ? "percentiles" : "medians");
        median_side b, c;
        if (!medians_of(&b, &c, in)) {
            out->insufficient = 1; /* no interval of a median at this level: too few samples */
            return TALLY_OK;
        }
        return run_price_bonett(r, out, &b, &c);
    }
    case TALLY_TEST_MMTESTS_CI: {
        r->test = test;
        if (nb < 2 || nc < 2) {
            out->insufficient = 1;
            return TALLY_OK;
        }
        int harmonic = in->stat == TALLY_STAT_HMEAN;
        int rc = spread_defined(in->sb, harmonic);
        if (rc == TALLY_OK)
            rc = spread_defined(in->sc, harmonic);
        if (rc)
            return rc;
        double mean_b = tested_mean(in->sb, harmonic);
        double mean_c = tested_mean(in->sc, harmonic);
        double sd_b = tested_sd(in->sb, harmonic), sd_c = tested_sd(in->sc, harmonic);
        rc = tally_mmtests_test(&r->statistic, &r->df, &r->p_value, mean_b, sd_b, nb, mean_c,
                                sd_c, nc);
        if (rc)
            return rc;
        r->zero_variance = sd_b == 0 && sd_c == 0;
        r->min_p = 0;
        out->ran = 1;
        out->shift = sign(mean_c - mean_b);
        return TALLY_OK;
    }
    case TALLY_TEST_MANN_WHITNEY: {
        r->test = test;
        r->min_p = tally__mann_whitney_min_p(nb, nc);
        /* The test runs whatever the sizes: an insufficient row still reports its real p. */
        out->insufficient = r->min_p >= in->o->alpha;
        int rc = in->ranks ? tally_mann_whitney_from_ranks(&r->statistic, &r->p_value, &r->exact,
                                                           in->ranks[0], in->ranks[1], nb, nc)
                           : tally_mann_whitney(&r->statistic, &r->p_value, &r->exact, in->base,
                                                nb, in->current, nc);
        if (rc)
            return rc;
        out->ran = 1;
        /* U of the baseline above nb*nc/2: the baseline tends to be larger, the new set smaller. */
        out->shift = sign((double)nb * (double)nc / 2 - r->statistic);
        return TALLY_OK;
    }
    case TALLY_TEST_NONE:
    case TALLY_TEST_AUTO:
        r->test = TALLY_TEST_NONE;
        return TALLY_OK;
    case TALLY_TEST_CLUSTER_BOOTSTRAP:
        break; /* runs of histograms only (report/report_hist.c), refused by check_options */
    }
    return tally__error(TALLY_EINVAL, "compare: unknown test %d", (int)test);
}

/* The test ::TALLY_TEST_AUTO runs for a statistic (NONE: not tested). */
static tally_test auto_test(tally_statistic stat)
{
    switch (stat) {
    case TALLY_STAT_AMEAN:
    case TALLY_STAT_HMEAN:
    case TALLY_STAT_GMEAN:
        return TALLY_TEST_WELCH;
    case TALLY_STAT_MEDIAN:
    case TALLY_STAT_PERCENTILE:
        return TALLY_TEST_PRICE_BONETT;
    default:
        return TALLY_TEST_NONE;
    }
}

/* Price and Bonett's model of the log ratio of medians; kind NONE without both medians'
 * intervals or with a sample <= 0. */
static void median_model(change_model *m, const inputs *in)
{
    median_side b, c;
    if (!in->positive || !medians_of(&b, &c, in))
        return;
    m->kind = MODEL_LOG_Z;
    m->D = c.log_median - b.log_median;
    m->se = hypot(b.se, c.se);
    m->df = INFINITY;
    m->vb1 = b.se * b.se * (double)in->nb;
    m->vc1 = c.se * c.se * (double)in->nc;
}

/* The interval model of the shown statistic; kind NONE when the statistic has none or the sizes
 * are too small. */
static int build_model(change_model *m, const inputs *in)
{
    memset(m, 0, sizeof(*m));
    m->kind = MODEL_NONE;
    switch (in->stat) {
    case TALLY_STAT_AMEAN:
    case TALLY_STAT_HMEAN:
    case TALLY_STAT_GMEAN: {
        if (in->nb < 2 || in->nc < 2)
            return TALLY_OK;
        tally__scale scale = scale_of(in->stat);
        const tally__test_moments *mb, *mc;
        int available;
        int rc = stat_moments(&mb, &mc, &available, in);
        if (rc || !available)
            return rc;
        if (scale == TALLY__SCALE_LOG) {
            double ea = mb->sd / sqrt((double)in->nb), ec = mc->sd / sqrt((double)in->nc);
            m->kind = MODEL_LOG_T;
            m->D = mc->centred - mb->centred;
            m->se = hypot(ea, ec);
            m->df = welch_df(ea * ea, in->nb, ec * ec, in->nc);
            m->vb1 = mb->sd * mb->sd;
            m->vc1 = mc->sd * mc->sd;
            return TALLY_OK;
        }
        if (!(mb->mean > 0 && mc->mean > 0))
            return TALLY_OK; /* a ratio of means of mixed signs has no useful interval */
        fieller_model(m, mb, mc, scale == TALLY__SCALE_X ? MODEL_FIELLER
                                                        : MODEL_FIELLER_RECIPROCAL);
        return TALLY_OK;
    }
    case TALLY_STAT_MEDIAN:
    case TALLY_STAT_PERCENTILE:
        median_model(m, in);
        return TALLY_OK;
    default:
        return TALLY_OK;
    }
}

/* The t-tests' interval of the ratio: Fieller's set {rho : |mc - rho ma| <= q sqrt(vc + rho^2
 * va)} on the test's scale with the test's own variances and df (Welch: the unpooled ones and
 * the Welch-Satterthwaite df of the difference, as at rho = 1; Student: the pooled variance and
 * nb + nc - 2), or exp of the t interval of the log difference; so rho = 1 lies outside exactly
 * when the test rejects. */
static int t_interval_model(change_model *m, const inputs *in, tally_test test)
{
    if (in->nb < 2 || in->nc < 2)
        return TALLY_OK;
    const tally__test_moments *mb, *mc;
    int available;
    int rc = stat_moments(&mb, &mc, &available, in);
    if (rc || !available)
        return rc;
    double nb = (double)in->nb, nc = (double)in->nc;
    double vb = (mb->sd / sqrt(nb)) * (mb->sd / sqrt(nb));
    double vc = (mc->sd / sqrt(nc)) * (mc->sd / sqrt(nc));
    double df = welch_df(vb, in->nb, vc, in->nc);
    if (test == TALLY_TEST_STUDENT) {
        df = nb + nc - 2;
        double pooled = hypot(mb->sd * sqrt((nb - 1) / df), mc->sd * sqrt((nc - 1) / df));
        vb = (pooled / sqrt(nb)) * (pooled / sqrt(nb));
        vc = (pooled / sqrt(nc)) * (pooled / sqrt(nc));
    }
    tally__scale scale = scale_of(in->stat);
    if (scale == TALLY__SCALE_LOG) {
        m->kind = MODEL_LOG_T;
        m->D = mc->centred - mb->centred;
        m->se = sqrt(vb + vc);
        m->df = df;
        return TALLY_OK;
    }
    if (!(mb->mean > 0 && mc->mean > 0))
        return TALLY_OK;
    fieller_model(m, mb, mc, scale == TALLY__SCALE_X ? MODEL_FIELLER : MODEL_FIELLER_RECIPROCAL);
    m->va = vb;
    m->vc = vc;
    m->df = df;
    return TALLY_OK;
}

/* mmtests' rule inverted: Fieller with its means and SDs (harmonic on HMean rows) and
 * nb + nc - 2 df. */
static void mmtests_interval_model(change_model *m, const inputs *in)
{
    int harmonic = in->stat == TALLY_STAT_HMEAN;
    if (in->nb < 2 || in->nc < 2 || spread_defined(in->sb, harmonic) ||
        spread_defined(in->sc, harmonic)) {
        tally_error_clear();
        return;
    }
    tally__test_moments mb = { .mean = tested_mean(in->sb, harmonic),
                               .sd = tested_sd(in->sb, harmonic), .n = in->nb },
                        mc = { .mean = tested_mean(in->sc, harmonic),
                               .sd = tested_sd(in->sc, harmonic), .n = in->nc };
    if (!(mb.mean > 0 && mc.mean > 0))
        return;
    mb.centred = mb.mean;
    mc.centred = mc.mean;
    fieller_model(m, &mb, &mc, MODEL_FIELLER);
    m->df = (double)(in->nb + in->nc - 2);
}

/* Mann-Whitney inverted: the Hodges-Lehmann interval of the ratio of locations (of log
 * current - log base) when every sample is positive, else of the shift as a share of the
 * baseline's statistic. The logs go into *owned (freed by the caller). Reports of partitioned
 * samples have no samples: no interval then. */
static int hl_interval_model(change_model *m, double **owned, const inputs *in, int exact,
                             double base_value)
{
    if (in->base == NULL || in->current == NULL)
        return TALLY_OK;
    m->nb = in->nb;
    m->nc = in->nc;
    m->exact = exact;
    if (in->positive) {
        double *logs = tally__reallocarray(NULL, in->nb + in->nc, sizeof(double));
        if (logs == NULL)
            return tally__oom();
        for (size_t i = 0; i < in->nb; i++)
            logs[i] = log(in->base[i]);
        for (size_t i = 0; i < in->nc; i++)
            logs[in->nb + i] = log(in->current[i]);
        *owned = logs;
        m->hb = logs;
        m->hc = logs + in->nb;
        m->logs = 1;
    } else if (base_value > 0) {
        m->hb = in->base;
        m->hc = in->current;
    } else {
        return TALLY_OK;
    }
    m->base_value = base_value;
    m->kind = MODEL_HODGES_LEHMANN;
    return TALLY_OK;
}

/* The interval of the test that decides the verdict (docs/statistics.md, "One verdict, one
 * interval"): the statistic's own model where the test is the statistic's own, else the
 * inversion of the test that ran, so that the interval excludes "no change" exactly when the
 * test rejects at 1 - confidence. Untested rows keep the statistic's model. */
static int build_interval_model(change_model *m, double **owned, const inputs *in,
                                const tally_comparison *r, const change_model *own)
{
    memset(m, 0, sizeof(*m));
    m->kind = MODEL_NONE;
    switch (r->test) {
    case TALLY_TEST_WELCH:
    case TALLY_TEST_STUDENT:
        return t_interval_model(m, in, r->test);
    case TALLY_TEST_MANN_WHITNEY:
        return hl_interval_model(m, owned, in, r->exact, r->base_value);
    case TALLY_TEST_MMTESTS_CI:
        mmtests_interval_model(m, in);
        return TALLY_OK;
    case TALLY_TEST_PRICE_BONETT:
        median_model(m, in);
        return TALLY_OK;
    default:
        *m = *own;
        return TALLY_OK;
    }
}

/* Bounds of (ratio - 1) at `level` by any model; *bounded 0 when the interval is unbounded. */
static int interval_at(int *bounded, double *lo, double *hi, const change_model *m, double level)
{
    if (m->kind != MODEL_HODGES_LEHMANN) {
        *bounded = model_interval(lo, hi, m, level);
        return TALLY_OK;
    }
    double estimate, l, h;
    int rc = tally__hodges_lehmann(&estimate, &l, &h, m->hb, m->nb, m->hc, m->nc, level,
                                   m->exact);
    if (rc)
        return rc;
    *lo = m->logs ? expm1(l) : l / m->base_value;
    *hi = m->logs ? expm1(h) : h / m->base_value;
    *bounded = isfinite(*lo) && isfinite(*hi);
    return TALLY_OK;
}

/* The interval at `level` into the comparison (the report calls it again at an adjusted level). */
static int put_interval(tally_comparison *r, const change_model *im, double level)
{
    double lo, hi;
    int bounded;
    int rc = interval_at(&bounded, &lo, &hi, im, level);
    if (rc)
        return rc;
    r->interval_defined = bounded;
    r->confidence = level;
    if (bounded) {
        r->ratio_low = 1 + lo;
        r->ratio_high = 1 + hi;
        tally__pct_bounds(&r->pct_low, &r->pct_high, lo, hi, r->direction);
    }
    return TALLY_OK;
}

/* The interval and TOST interval from the interval model `im`, the MDE from the statistic's own
 * model `m`. */
static int fill_interval(tally_comparison *r, const change_model *im, const change_model *m,
                         const tally_compare_options *o)
{
    double lo, hi;
    r->interval = method_of(im->kind);
    if (im->kind != MODEL_NONE) {
        int bounded;
        int rc = put_interval(r, im, o->summary->confidence);
        if (rc == TALLY_OK && o->equivalence_pct > 0)
            rc = interval_at(&bounded, &lo, &hi, im, 1 - 2 * o->alpha);
        if (rc)
            return rc;
        if (o->equivalence_pct > 0 && bounded) {
            r->equivalence_defined = 1;
            tally__pct_bounds(&r->equivalence_low, &r->equivalence_high, lo, hi, o->direction);
            r->equivalent = r->equivalence_low > -o->equivalence_pct &&
                            r->equivalence_high < o->equivalence_pct;
        }
    }
    if (m->kind == MODEL_NONE)
        return TALLY_OK;
    r->log_se = m->se;
    r->log_df = m->df;
    if (m->se > 0 && isfinite(m->se)) {
        double ncp;
        int rc = tally__mde_ncp(&ncp, m->df, o->alpha, o->power);
        /* A noncentral t that does not converge (tiny fractional df) leaves the MDE undefined;
         * it is no reason to fail the comparison. */
        if (rc == TALLY_ENUMERIC) {
            tally_error_clear();
            return TALLY_OK;
        }
        if (rc)
            return rc;
        r->mde_pct = 100 * expm1(ncp * m->se);
        r->mde_defined = isfinite(r->mde_pct);
    }
    return TALLY_OK;
}

/* Per-run variances for the runs needed when a side has a single run: that side is assumed as
 * noisy as the other (there is nothing else to go on). */
static int fill_runs_needed(tally_comparison *r, const inputs *in, const tally_compare_options *o,
                            const change_model *m)
{
    r->runs_target_pct = o->mde_pct > 0 ? o->mde_pct : o->equivalence_pct;
    if (!(r->runs_target_pct > 0))
        return TALLY_OK;
    double vb = m->vb1, vc = m->vc1;
    if (m->kind == MODEL_NONE) {
        /* Too few runs for the model: the spread of whichever side has two or more, as a
         * relative variance (CV^2) on the log scale. */
        const tally_summary *s = in->nb >= 2 ? in->sb : in->nc >= 2 ? in->sc : NULL;
        if (s == NULL || !(s->defined & TALLY_SUMMARY_STDDEV) || !(s->amean > 0))
            return TALLY_OK;
        if (in->stat != TALLY_STAT_AMEAN && in->stat != TALLY_STAT_HMEAN &&
            in->stat != TALLY_STAT_GMEAN && in->stat != TALLY_STAT_MEDIAN)
            return TALLY_OK;
        vb = vc = (s->stddev / s->amean) * (s->stddev / s->amean);
    }
    if (!(vb + vc > 0))
        return TALLY_OK;
    int rc = tally__runs_needed(&r->runs_needed, log1p(r->runs_target_pct / 100), vb, vc,
                                m->kind == MODEL_LOG_Z || in->stat == TALLY_STAT_MEDIAN ||
                                    in->stat == TALLY_STAT_PERCENTILE,
                                o->alpha, o->power);
    /* As for the MDE: no convergence leaves the runs needed unknown (0). */
    if (rc == TALLY_ENUMERIC) {
        r->runs_needed = 0;
        tally_error_clear();
        return TALLY_OK;
    }
    return rc;
}

void tally__comparison_decide(tally_comparison *r, int significant)
{
    if (r->verdict == TALLY_VERDICT_INSUFFICIENT || r->verdict == TALLY_VERDICT_NOT_TESTED)
        return;
    if (r->identical) {
        r->significant = 0;
        r->verdict = TALLY_VERDICT_IDENTICAL;
        return;
    }
    r->significant = significant;
    r->direction_conflict = 0;
    if (significant) {
        /* The sign of the shown pct-imp decides, so that a starred -18.95 % is never called an
         * improvement; the test's own direction only when pct-imp is 0 or undefined. A test
         * significant in the other direction than the shown change cannot judge this row. */
        int better = r->ratio_defined && r->pct_imp != 0 ? sign(r->pct_imp) : 0;
        int test_better = r->direction == TALLY_LOWER_IS_BETTER ? -r->test_shift : r->test_shift;
        if (better == 0)
            better = test_better;
        if (test_better != 0 && better != test_better) {
            r->direction_conflict = 1;
            r->verdict = TALLY_VERDICT_INCONCLUSIVE;
            return;
        }
        r->verdict = better > 0   ? TALLY_VERDICT_IMPROVEMENT
                     : better < 0 ? TALLY_VERDICT_REGRESSION
                                  : TALLY_VERDICT_INCONCLUSIVE;
        return;
    }
    r->verdict = r->equivalent ? TALLY_VERDICT_EQUIVALENT : TALLY_VERDICT_INCONCLUSIVE;
}

/* The options (read into *o, any supported version; the summary options they point to, NULL for
 * the defaults, read into *so at their own version and o->summary pointed at it) and the sample
 * counts, as both entry points check them. */
static int check_call(tally_compare_options *o, tally_summary_options *so,
                      const tally_compare_options *given, size_t nb, size_t nc)
{
    int rc = tally__options_read(o, given, &tally_compare_options_kind);
    if (rc == TALLY_OK)
        rc = tally__summary_options_read(so, o->summary);
    if (rc == TALLY_OK) {
        o->summary = so;
        rc = check_options(o);
    }
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
                              size_t nc, const double *ranks, const tally_compare_options *opts)
{
    if (out == NULL || base_summary == NULL || current_summary == NULL)
        return tally__error(TALLY_EINVAL, "compare: NULL argument");
    tally_compare_options o;
    tally_summary_options so;
    int rc = check_call(&o, &so, opts, nb, nc);
    if (rc)
        return rc;
    /* Only Mann-Whitney needs the samples: the other tests fall back to the summaries when a
     * report of partitioned samples has none on the client (docs/statistics.md). */
    int need_samples = o.test == TALLY_TEST_MANN_WHITNEY && ranks == NULL;
    if (need_samples && ((base == NULL && nb) || (current == NULL && nc)))
        return tally__error(TALLY_EINVAL, "compare: NULL argument");
    if (base_summary->n != nb || current_summary->n != nc)
        return tally__error(TALLY_EINVAL, "compare: summaries of %zu and %zu samples given for "
                                          "%zu and %zu samples", base_summary->n,
                            current_summary->n, nb, nc);

    tally_comparison r;
    memset(&r, 0, sizeof(r));
    r.size = sizeof r;
    r.base_n = nb;
    r.new_n = nc;
    r.p_value = NAN;
    r.min_p = NAN;
    r.confidence = o.summary->confidence;
    r.power = o.power;
    r.equivalence_pct = o.equivalence_pct;
    r.direction = o.direction;

    scale_cache cache = { .done = 0 };
    inputs in = { base, current, base_summary, current_summary, nb, nc, &o,
                  o.statistic == TALLY_STAT_DEFAULT ? TALLY_STAT_AMEAN : o.statistic,
                  base_summary->min > 0 && current_summary->min > 0, ranks, &cache };
    rc = tally__summary_value(&r.base_value, base_summary, in.stat);
    if (rc == TALLY_OK)
        rc = tally__summary_value(&r.new_value, current_summary, in.stat);
    if (rc)
        return rc;

    /* A zero baseline (or a quotient that overflows) has no ratio: flagged, not an error, so
     * that one all-zero row does not sink a whole report. */
    if (r.base_value != 0 && isfinite(r.new_value / r.base_value)) {
        r.ratio = r.new_value / r.base_value;
        rc = tally_pct_imp(&r.pct_imp, r.base_value, r.new_value, o.direction);
        if (rc)
            return rc;
        r.ratio_defined = 1;
    }

    tally_test test = o.test == TALLY_TEST_AUTO ? auto_test(in.stat) : o.test;
    test_outcome t;
    rc = run_test(&r, &t, &in, test);
    if (rc)
        return rc;
    r.p_defined = t.ran;
    r.test_shift = t.shift;
    if (!t.ran)
        r.p_value = NAN;

    change_model m, im;
    double *owned = NULL;
    rc = build_model(&m, &in);
    if (rc == TALLY_OK)
        rc = build_interval_model(&im, &owned, &in, &r, &m);
    if (rc == TALLY_OK && r.ratio_defined)
        rc = fill_interval(&r, &im, &m, &o);
    tally__free_mem(owned);
    if (rc == TALLY_OK)
        rc = fill_runs_needed(&r, &in, &o, &m);
    if (rc)
        return rc;

    r.identical = nb >= 2 && nc >= 2 && is_constant(base_summary) &&
                  is_constant(current_summary) && base_summary->min == current_summary->min;
    /* Two constant, equal sides are identical whatever test there is or is not (an exact unit's
     * rows have none): no change, said as a fact rather than "not tested". */
    if (r.test == TALLY_TEST_NONE && !r.identical)
        r.verdict = TALLY_VERDICT_NOT_TESTED;
    else if (t.insufficient && !r.identical)
        r.verdict = TALLY_VERDICT_INSUFFICIENT;
    else
        tally__comparison_decide(&r, r.p_value < o.alpha);
    *out = r;
    return TALLY_OK;
}

/* Both sides summarised as tally_compare() does (the options already read into *o). */
static int summarize_sides(tally_summary *sb, tally_summary *sc, const double *base, size_t nb,
                           const double *current, size_t nc, const tally_compare_options *o)
{
    tally_summary_options so = *o->summary;
    so.direction = o->direction;
    int rc = tally__summarize_with_cuts(sb, base, nb, &so, NULL, NULL, 0);
    if (rc == TALLY_OK)
        rc = tally__summarize_with_cuts(sc, current, nc, &so, NULL, NULL, 0);
    return rc;
}

/* The start of both public entry points: the arguments and options read into *o, checked
 * before summarising so that a bad option is reported as such, not as a summary error
 * (tally__compare_summarized checks again for its other callers); then both sides summarised. */
static int public_sides(tally_compare_options *o, tally_summary_options *so, tally_summary *sb,
                        tally_summary *sc, const tally_compare_options *opts, const double *base,
                        size_t nb, const double *current, size_t nc)
{
    if ((base == NULL && nb) || (current == NULL && nc))
        return tally__error(TALLY_EINVAL, "compare: NULL argument");
    int rc = check_call(o, so, opts, nb, nc);
    return rc ? rc : summarize_sides(sb, sc, base, nb, current, nc, o);
}

int tally_compare(tally_comparison *out, const double *base, size_t nb, const double *current,
                  size_t nc, const tally_compare_options *opts)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_comparison");
    if (rc)
        return rc;
    tally_compare_options o;
    tally_summary_options so;
    tally_summary sb, sc;
    tally_comparison r;
    rc = public_sides(&o, &so, &sb, &sc, opts, base, nb, current, nc);
    if (rc == TALLY_OK)
        rc = tally__compare_summarized(&r, &sb, base, nb, &sc, current, nc, NULL, &o);
    if (rc == TALLY_OK)
        tally__result_put(out, size, &r, sizeof r);
    return rc;
}

int tally_compare_summaries(tally_summary *base_out, tally_summary *new_out, const double *base,
                            size_t nb, const double *current, size_t nc,
                            const tally_compare_options *opts)
{
    size_t base_size, new_size;
    int rc = tally__result_size(&base_size, base_out, "tally_summary");
    if (rc == TALLY_OK)
        rc = tally__result_size(&new_size, new_out, "tally_summary");
    if (rc)
        return rc;
    tally_compare_options o;
    tally_summary_options so;
    tally_summary sb, sc;
    rc = public_sides(&o, &so, &sb, &sc, opts, base, nb, current, nc);
    if (rc == TALLY_OK) {
        tally__result_put(base_out, base_size, &sb, sizeof sb);
        tally__result_put(new_out, new_size, &sc, sizeof sc);
    }
    return rc;
}

int tally_noncentral_t_cdf(double *out, double t, double df, double ncp)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "noncentral t: NULL output");
    return tally__nct_cdf(out, t, df, ncp);
}

int tally_t_test_runs_needed(size_t *out, double effect, double sd, double alpha, double power)
{
    if (out == NULL || !(effect > 0) || !(sd > 0) || !isfinite(effect / sd) ||
        !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
        return tally__error(TALLY_EINVAL, "runs needed: effect and sd must be > 0, alpha and "
                                          "power in (0, 1)");
    return tally__runs_needed(out, effect, sd * sd, sd * sd, 0, alpha, power);
}
