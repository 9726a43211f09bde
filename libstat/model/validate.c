/* Recomputing a harness's own summary (case metadata reported.*) from the raw samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "model/validate_bdn.h"
#include "model/validate_perf.h"
#include "util/internal.h"
#include "util/options.h"
#include "util/text.h"

typedef struct entry {
    char *resultset;
    char *benchmark;
    char *casename;
    const char *statistic; /* static */
    const char *note;      /* static */
    double reported;
    double recomputed;
    double rel_diff;
    int agreed;
} entry;

struct tally_validation {
    entry *items;
    size_t count;
    size_t cap;
    size_t disagreements;
    double tolerance;
};

typedef enum which {
    MEAN, MEDIAN, STDDEV, MIN, MAX, CV, Q1_HINGE, Q3_HINGE, IQR_HINGE, ERROR_T999, MAD_1_4826,
    PERF_COUNTER, PERF_VARIANCE, MDAPE, SLOPE, SLOPE_OTHER_ITERS
} which;

/* The rows a statistic describes: the case's samples, or BenchmarkDotNet's Result rows rebuilt
 * from them by its own rule (validate_bdn.c). */
typedef enum rows { SAMPLES = 0, BDN_RESULT = 1 } rows;

/* Which side of an interval a key holds: the recomputed point must lie inside. */
typedef enum side { POINT = 0, LOWER = -1, UPPER = 1 } side;

/* The statistics understood, with what the harnesses mean by them (see tally/validate.h and
 * docs/importers.md, "Validation of a harness's own summary"). */
static const struct known {
    const char *key;
    const char *name;
    which stat;
    side bound;
    const char *note;
    rows rows;
} known[] = {
    {"reported.mean", "mean", MEAN, POINT, "arithmetic mean", SAMPLES},
    {"reported.median", "median", MEDIAN, POINT, "median, mean of the middle two when n is even",
     SAMPLES},
    {"reported.stddev", "stddev", STDDEV, POINT, "sample standard deviation (n - 1)", SAMPLES},
    {"reported.min", "min", MIN, POINT, "", SAMPLES},
    {"reported.max", "max", MAX, POINT, "", SAMPLES},
    {"reported.cv", "cv", CV, POINT,
     "cv as a fraction stddev/mean (Google Benchmark); tally's CV percentage divided by 100",
     SAMPLES},
    {"reported.q1", "q1", Q1_HINGE, POINT,
     "first quartile as pytest-benchmark computes it (median of the lower half for even n, "
     "weighted hinges for odd n)", SAMPLES},
    {"reported.q3", "q3", Q3_HINGE, POINT,
     "third quartile as pytest-benchmark computes it (median of the upper half for even n, "
     "weighted hinges for odd n)", SAMPLES},
    {"reported.iqr", "iqr", IQR_HINGE, POINT, "q3 - q1, pytest-benchmark's quartiles", SAMPLES},
    {"reported.score_error", "score_error", ERROR_T999, POINT,
     "JMH's scoreError: half-width of the 99.9 % Student-t interval of the mean, "
     "t(0.9995, n - 1) stddev / sqrt(n)", SAMPLES},
    {"reported.median_abs_dev", "median_abs_dev", MAD_1_4826, POINT,
     "criterion's median absolute deviation from the median, times 1.4826", SAMPLES},
    {"reported.mean.lower", "mean lower bound", MEAN, LOWER,
     "a bootstrap interval, not recomputable: the recomputed mean must lie inside", SAMPLES},
    {"reported.mean.upper", "mean upper bound", MEAN, UPPER,
     "a bootstrap interval, not recomputable: the recomputed mean must lie inside", SAMPLES},
    {"reported.median.lower", "median lower bound", MEDIAN, LOWER,
     "a bootstrap interval, not recomputable: the recomputed median must lie inside", SAMPLES},
    {"reported.median.upper", "median upper bound", MEDIAN, UPPER,
     "a bootstrap interval, not recomputable: the recomputed median must lie inside", SAMPLES},
    {"reported.stddev.lower", "stddev lower bound", STDDEV, LOWER,
     "a bootstrap interval, not recomputable: the recomputed stddev must lie inside", SAMPLES},
    {"reported.stddev.upper", "stddev upper bound", STDDEV, UPPER,
     "a bootstrap interval, not recomputable: the recomputed stddev must lie inside", SAMPLES},
    {"reported.median_abs_dev.lower", "median_abs_dev lower bound", MAD_1_4826, LOWER,
     "a bootstrap interval, not recomputable: the recomputed value must lie inside", SAMPLES},
    {"reported.median_abs_dev.upper", "median_abs_dev upper bound", MAD_1_4826, UPPER,
     "a bootstrap interval, not recomputable: the recomputed value must lie inside", SAMPLES},
    /* perf stat -r N -v (validate_perf.c). */
    {"reported.perf_counter", "perf counter", PERF_COUNTER, POINT, "", SAMPLES},
    {"reported.perf_variance", "perf variance", PERF_VARIANCE, POINT, "", SAMPLES},
    {"reported.median_abs_pct_error", "median_abs_pct_error", MDAPE, POINT,
     "nanobench's medianAbsolutePercentError: median of |x - median| / x, a fraction", SAMPLES},
    {"reported.slope", "slope", SLOPE, POINT,
     "criterion's slope: least-squares slope through the origin of times on iters, "
     "sum(i^2 x_i) / sum(i^2) for its linear sampling iters = d, 2d, ..., nd", SAMPLES},
    {"reported.slope_other_iters", "slope", SLOPE_OTHER_ITERS, POINT, "", SAMPLES},
    {"reported.slope.lower", "slope lower bound", SLOPE, LOWER,
     "a bootstrap interval, not recomputable: the recomputed slope must lie inside", SAMPLES},
    {"reported.slope.upper", "slope upper bound", SLOPE, UPPER,
     "a bootstrap interval, not recomputable: the recomputed slope must lie inside", SAMPLES},
    /* BenchmarkDotNet's Statistics, of its Result rows (validate_bdn.c). */
    {"reported.bdn_mean", "mean of result rows", MEAN, POINT, TALLY__BDN_RULE, BDN_RESULT},
    {"reported.bdn_median", "median of result rows", MEDIAN, POINT, TALLY__BDN_RULE,
     BDN_RESULT},
    {"reported.bdn_stddev", "stddev of result rows", STDDEV, POINT,
     TALLY__BDN_RULE "; sample SD (n - 1)", BDN_RESULT},
    {"reported.bdn_min", "min of result rows", MIN, POINT, TALLY__BDN_RULE, BDN_RESULT},
    {"reported.bdn_max", "max of result rows", MAX, POINT, TALLY__BDN_RULE, BDN_RESULT},
};

/* What a case's samples give beyond its summary: the order statistics of the harnesses'
 * own definitions, from one sorted copy. */
typedef struct figures {
    tally_summary s;
    const double *x; /* the case's samples, run order; NULL for a summary-only case */
    double *sorted;  /* ascending copy, made on first need */
} figures;

static void entry_free(entry *e)
{
    tally__free_mem(e->resultset);
    tally__free_mem(e->benchmark);
    tally__free_mem(e->casename);
}

void tally_validation_free(tally_validation *v)
{
    if (v == NULL)
        return;
    for (size_t i = 0; i < v->count; i++)
        entry_free(&v->items[i]);
    tally__free_mem(v->items);
    tally__free_mem(v);
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) ascending, the mean of the middle two when n is even. */
static double sorted_median(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* pytest-benchmark's quartiles (its stats.py, after en.wikipedia.org/wiki/Quartile "Computing
 * methods"): for even n the medians of the lower and upper halves (method 2); for odd n = 4k + 1
 * q1 = x[k-1]/4 + 3 x[k]/4 and q3 = 3 x[3k]/4 + x[3k+1]/4, for n = 4k + 3 q1 = 3 x[k]/4 +
 * x[k+1]/4 and q3 = x[3k+1]/4 + 3 x[3k+2]/4 (0-based, ascending; method 3). */
static double hinge(const double *v, size_t n, int upper)
{
    if (n == 1)
        return v[0];
    if (n % 2 == 0)
        return upper ? sorted_median(v + n / 2, n / 2) : sorted_median(v, n / 2);
    size_t k = n / 4;
    if (n % 4 == 1)
        return upper ? 0.75 * v[3 * k] + 0.25 * v[3 * k + 1] : 0.25 * v[k - 1] + 0.75 * v[k];
    return upper ? 0.25 * v[3 * k + 1] + 0.75 * v[3 * k + 2] : 0.75 * v[k] + 0.25 * v[k + 1];
}

/* The median of |x - median| over v[0..n) ascending: criterion's median_abs_dev (times 1.4826,
 * its stats/univariate/sample.rs), or, relative, of |x - median| / x: nanobench's
 * medianAbsolutePercentError (its Result::medianAbsolutePercentError, a fraction). */
static int median_dev(double *out, const double *v, size_t n, int relative)
{
    double med = sorted_median(v, n);
    double *dev = tally__reallocarray(NULL, n, sizeof(double));
    if (dev == NULL)
        return tally__oom();
    for (size_t i = 0; i < n; i++)
        dev[i] = relative ? fabs((v[i] - med) / v[i]) : fabs(v[i] - med);
    qsort(dev, n, sizeof(double), ascending);
    *out = relative ? sorted_median(dev, n) : sorted_median(dev, n) * 1.4826;
    tally__free_mem(dev);
    return TALLY_OK;
}

/* criterion's slope (its analysis/mod.rs: Slope::fit, dot(iters, times) / dot(iters, iters))
 * of samples x_i = times_i / iters_i taken with iters_i = i d (its linear sampling; the
 * importer keeps the slope only then): sum(i^2 x_i) / sum(i^2), d cancelling. */
static double slope_linear(const double *x, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double w = (double)(i + 1) * (double)(i + 1);
        num += w * x[i];
        den += w;
    }
    return num / den;
}

/* Recomputed value in the reported statistic's definition into *out; NaN with a note when
 * undefined. Fails only for lack of memory. */
static int recompute(double *out, figures *f, which stat, const char **note)
{
    const tally_summary *s = &f->s;
    *out = NAN;
    if (f->x == NULL && stat != MEAN && stat != STDDEV && stat != ERROR_T999 &&
        stat != PERF_COUNTER && stat != PERF_VARIANCE) {
        *note = "a summary-only case: only its mean and standard deviation are known";
        return TALLY_OK;
    }
    if (stat == Q1_HINGE || stat == Q3_HINGE || stat == IQR_HINGE || stat == MAD_1_4826 ||
        stat == MDAPE) {
        if (f->sorted == NULL) {
            f->sorted = tally__reallocarray(NULL, s->n, sizeof(double));
            if (f->sorted == NULL)
                return tally__oom();
            memcpy(f->sorted, f->x, s->n * sizeof(double));
            qsort(f->sorted, s->n, sizeof(double), ascending);
        }
    }
    switch (stat) {
    case MEAN:
        *out = s->amean;
        break;
    case MEDIAN:
        *out = s->median;
        break;
    case MIN:
        *out = s->min;
        break;
    case MAX:
        *out = s->max;
        break;
    case STDDEV:
        if (s->defined & TALLY_SUMMARY_STDDEV)
            *out = s->stddev;
        else
            *note = "stddev needs at least 2 samples";
        break;
    case CV:
        if (s->defined & TALLY_SUMMARY_CV)
            *out = s->cv / 100.0;
        else
            *note = s->n < 2 ? "cv needs at least 2 samples" : "cv is undefined for a mean of 0";
        break;
    case Q1_HINGE:
        *out = hinge(f->sorted, s->n, 0);
        break;
    case Q3_HINGE:
        *out = hinge(f->sorted, s->n, 1);
        break;
    case IQR_HINGE:
        *out = hinge(f->sorted, s->n, 1) - hinge(f->sorted, s->n, 0);
        break;
    case ERROR_T999:
        /* JMH leaves it undefined (NaN) for n <= 2 (its Statistics.getMeanErrorAt). */
        if (s->n > 2)
            *out = gsl_cdf_tdist_Pinv(0.9995, (double)(s->n - 1)) * s->stddev /
                   sqrt((double)s->n);
        else
            *note = "JMH's score error needs at least 3 samples";
        break;
    case MAD_1_4826:
        return median_dev(out, f->sorted, s->n, 0);
    case MDAPE:
        return median_dev(out, f->sorted, s->n, 1);
    case SLOPE:
        *out = slope_linear(f->x, s->n);
        break;
    case SLOPE_OTHER_ITERS:
        *note = "criterion's slope over iters other than d, 2d, ..., nd: the per-iteration "
                "samples alone do not give it";
        break;
    case PERF_COUNTER:
    case PERF_VARIANCE:
        break; /* add_entry: validate_perf.c */
    }
    return TALLY_OK;
}

/* Whether reported and recomputed agree, into e->rel_diff and e->agreed: within the tolerance
 * for a point; for an interval bound, the recomputed point on the inner side of it (rel_diff
 * the relative distance by which it lies outside, 0 inside). */
static void judge(entry *e, side bound, double tolerance)
{
    if (isnan(e->reported) || isnan(e->recomputed)) {
        e->rel_diff = NAN;
        e->agreed = 0;
        return;
    }
    double diff = bound == POINT   ? fabs(e->reported - e->recomputed)
                  : bound == LOWER ? fmax(0.0, e->reported - e->recomputed)
                                   : fmax(0.0, e->recomputed - e->reported);
    e->rel_diff = e->recomputed != 0 ? diff / fabs(e->recomputed) : diff;
    e->agreed = e->rel_diff <= tolerance;
}

/* A reported standard deviation (or a figure proportional to it, JMH's error) that misses the
 * sample SD but matches the population SD (divided by n) is named as that mistake rather than
 * as a wrong number. */
static const char *population_sd_note(const entry *e, const tally_summary *s, which stat,
                                      double tolerance)
{
    if (s->n < 2 || isnan(e->reported) || isnan(e->recomputed))
        return NULL;
    double pop = e->recomputed * sqrt((double)(s->n - 1) / (double)s->n);
    double diff = fabs(e->reported - pop);
    if ((pop != 0 ? diff / pop : diff) > tolerance)
        return NULL;
    return stat == STDDEV
               ? "the population SD (divided by n) instead of the sample SD (n - 1)"
               : "computed from the population SD (divided by n) instead of the sample SD "
                 "(n - 1)";
}

static int add_entry(tally_validation *v, const tally_resultset *rs, const tally_benchmark *b,
                     const tally_case *c, const struct known *k, const char *text,
                     figures *f, int summarized, const char *why_not)
{
    if (v->count == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        entry *grown = tally__reallocarray(v->items, cap, sizeof(entry));
        if (grown == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        v->items = grown;
        v->cap = cap;
    }
    entry e;
    memset(&e, 0, sizeof e);
    e.statistic = k->name;
    e.note = k->note;
    e.resultset = tally__strdup(tally_resultset_label(rs));
    e.benchmark = tally__strdup(tally_benchmark_name(b));
    e.casename = tally__strdup(tally_case_name(c));
    if (!e.resultset || !e.benchmark || !e.casename) {
        entry_free(&e);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    if (tally__parse_double(&e.reported, text, strlen(text)) != TALLY_OK) {
        e.reported = NAN;
        e.note = "the reported value is not a finite number";
    }
    if (summarized) {
        int rc = recompute(&e.recomputed, f, k->stat, &e.note);
        if (rc != TALLY_OK) {
            entry_free(&e);
            return rc;
        }
    } else {
        e.recomputed = NAN;
        e.note = why_not;
    }
    if (summarized && f->x == NULL && k->bound != POINT)
        e.note = "a summary-only case: the harness's own mean must lie inside its own interval";
    judge(&e, k->bound, v->tolerance);
    if (!e.agreed && (k->stat == STDDEV || k->stat == ERROR_T999) && k->bound == POINT) {
        const char *pop = population_sd_note(&e, &f->s, k->stat, v->tolerance);
        if (pop)
            e.note = pop;
    }
    /* perf prints its figures rounded: they agree when tally's value rounds to them. */
    if ((k->stat == PERF_COUNTER || k->stat == PERF_VARIANCE) && !isnan(e.reported)) {
        tally__perf_check pc;
        tally__validate_perf(&pc, c, k->stat == PERF_VARIANCE, text, e.reported);
        e.recomputed = pc.recomputed;
        e.note = pc.note;
        e.agreed = pc.agreed;
        double diff = fabs(e.reported - e.recomputed);
        e.rel_diff = isnan(diff) ? NAN : e.recomputed != 0 ? diff / fabs(e.recomputed) : diff;
    }
    if (!e.agreed)
        v->disagreements++;
    v->items[v->count++] = e;
    return TALLY_OK;
}

/* The case's samples summarised into f, as the harness's own n, mean and SD for a
 * summary-only case; 0 when the case has neither. */
static int summarize_case(figures *f, int *summarized, const tally_benchmark *b,
                          const tally_case *c)
{
    *summarized = 0;
    if (tally_case_is_summary_only(c)) {
        /* The harness's own n, mean and SD: what its other figures (an interval) must agree
         * with. */
        tally_case_summary cs = { .size = sizeof cs };
        int rc = tally_case_summary_result(&cs, c);
        if (rc != TALLY_OK)
            return rc;
        f->s.n = cs.n;
        f->s.amean = cs.mean;
        f->s.stddev = cs.sd;
        if (!isnan(cs.sd))
            f->s.defined |= TALLY_SUMMARY_STDDEV;
        *summarized = 1;
    } else if (tally_case_sample_count(c) > 0) {
        tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
        so.direction = tally_benchmark_direction(b);
        f->x = tally_case_samples(c);
        int rc = tally_summarize(&f->s, f->x, tally_case_sample_count(c), &so);
        if (rc != TALLY_OK)
            return rc;
        *summarized = 1;
    }
    return TALLY_OK;
}

/* BenchmarkDotNet's Result rows rebuilt from the case into g (g->x owned: freed by the
 * caller); *summarized 0 with *why_not saying why when they cannot be. */
static int summarize_bdn(figures *g, int *summarized, const char **why_not,
                         const tally_benchmark *b, const tally_case *c)
{
    double *x = NULL;
    size_t n = 0;
    *summarized = 0;
    int rc = tally__bdn_result_rows(&x, &n, why_not, c);
    if (rc != TALLY_OK || x == NULL)
        return rc;
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.direction = tally_benchmark_direction(b);
    g->x = x;
    rc = tally_summarize(&g->s, x, n, &so);
    *summarized = rc == TALLY_OK;
    return rc;
}

static int validate_case(tally_validation *v, const tally_resultset *rs, const tally_benchmark *b,
                         const tally_case *c)
{
    figures f, g;
    memset(&f, 0, sizeof f);
    memset(&g, 0, sizeof g);
    f.s.size = g.s.size = sizeof f.s;
    int summarized = 0, bdn_summarized = 0, rc = TALLY_OK;
    int f_done = 0, g_done = 0;
    const char *bdn_why = "";
    for (size_t m = 0; rc == TALLY_OK && m < tally_case_meta_count(c); m++) {
        const char *key, *text;
        tally_case_meta_at(&key, &text, c, m);
        const struct known *k = NULL;
        for (size_t j = 0; j < TALLY__COUNT(known); j++)
            if (strcmp(key, known[j].key) == 0)
                k = &known[j];
        if (k == NULL)
            continue;
        if (k->rows == BDN_RESULT) {
            if (!g_done && (rc = summarize_bdn(&g, &bdn_summarized, &bdn_why, b, c)) != TALLY_OK)
                break;
            g_done = 1;
            rc = add_entry(v, rs, b, c, k, text, &g, bdn_summarized, bdn_why);
            continue;
        }
        if (!f_done && (rc = summarize_case(&f, &summarized, b, c)) != TALLY_OK)
            break;
        f_done = 1;
        rc = add_entry(v, rs, b, c, k, text, &f, summarized, "the case has no samples");
    }
    tally__free_mem(f.sorted);
    tally__free_mem(g.sorted);
    tally__free_mem((double *)g.x);
    return rc;
}

TALLY__OPTIONS_FUNCTIONS(tally_validate_options, TALLY_VALIDATE_OPTIONS, sizeof(tally_validate_options))

int tally_validate(tally_validation **out, const tally_results *r,
                   const tally_validate_options *opts)
{
    if (out == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_validate: NULL argument");
    *out = NULL;
    tally_validate_options options;
    int rc = tally__options_read(&options, opts, &tally_validate_options_kind);
    if (rc != TALLY_OK)
        return rc;
    opts = &options;
    if (!isfinite(opts->tolerance) || opts->tolerance < 0)
        return tally__error(TALLY_EINVAL, "tally_validate: the tolerance must be finite and >= 0");
    tally_validation *v = tally__calloc(1, sizeof *v);
    if (v == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    v->tolerance = opts->tolerance;
    for (size_t i = 0; rc == TALLY_OK && i < tally_results_count(r); i++) {
        const tally_resultset *rs = tally_results_at(r, i);
        for (size_t j = 0; rc == TALLY_OK && j < tally_resultset_benchmark_count(rs); j++) {
            const tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            for (size_t k = 0; rc == TALLY_OK && k < tally_benchmark_case_count(b); k++)
                rc = validate_case(v, rs, b, tally_benchmark_case_at(b, k));
        }
    }
    if (rc != TALLY_OK) {
        tally_validation_free(v);
        return rc;
    }
    *out = v;
    return TALLY_OK;
}

size_t tally_validation_count(const tally_validation *v)
{
    return v ? v->count : 0;
}

size_t tally_validation_disagreements(const tally_validation *v)
{
    return v ? v->disagreements : 0;
}

double tally_validation_tolerance(const tally_validation *v)
{
    return v ? v->tolerance : 0;
}

static const entry *at(const tally_validation *v, size_t i)
{
    return v && i < v->count ? &v->items[i] : NULL;
}

const char *tally_validation_resultset(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->resultset : NULL;
}

const char *tally_validation_benchmark(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->benchmark : NULL;
}

const char *tally_validation_case(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->casename : NULL;
}

const char *tally_validation_statistic(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->statistic : NULL;
}

double tally_validation_reported(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->reported : NAN;
}

double tally_validation_recomputed(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->recomputed : NAN;
}

double tally_validation_rel_diff(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->rel_diff : NAN;
}

int tally_validation_agreed(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->agreed : 0;
}

const char *tally_validation_note(const tally_validation *v, size_t i)
{
    const entry *e = at(v, i);
    return e ? e->note : NULL;
}
