/* Recomputing a harness's own summary (case metadata reported.*) from the raw samples. */
#include <math.h>
#include <string.h>

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

typedef enum which { MEAN, MEDIAN, STDDEV, MIN, MAX, CV, PERF_COUNTER, PERF_VARIANCE } which;

/* The statistics understood, with what the harnesses mean by them (see tally/validate.h). */
static const struct known {
    const char *key;
    const char *name;
    which stat;
    const char *note;
} known[] = {
    {"reported.mean", "mean", MEAN, "arithmetic mean"},
    {"reported.median", "median", MEDIAN, "median, mean of the middle two when n is even"},
    {"reported.stddev", "stddev", STDDEV, "sample standard deviation (n - 1)"},
    {"reported.min", "min", MIN, ""},
    {"reported.max", "max", MAX, ""},
    {"reported.cv", "cv", CV,
     "cv as a fraction stddev/mean (Google Benchmark); tally's CV percentage divided by 100"},
    /* perf stat -r N -v (validate_perf.c). */
    {"reported.perf_counter", "perf counter", PERF_COUNTER, ""},
    {"reported.perf_variance", "perf variance", PERF_VARIANCE, ""},
};

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

/* Recomputed value in the reported statistic's definition; NaN with a note when undefined. */
static double recompute(const tally_summary *s, which stat, const char **note)
{
    switch (stat) {
    case MEAN:
        return s->amean;
    case MEDIAN:
        return s->median;
    case MIN:
        return s->min;
    case MAX:
        return s->max;
    case STDDEV:
        if (s->defined & TALLY_SUMMARY_STDDEV)
            return s->stddev;
        *note = "stddev needs at least 2 samples";
        return NAN;
    case CV:
        if (s->defined & TALLY_SUMMARY_CV)
            return s->cv / 100.0;
        *note = s->n < 2 ? "cv needs at least 2 samples" : "cv is undefined for a mean of 0";
        return NAN;
    case PERF_COUNTER:
    case PERF_VARIANCE:
        break; /* add_entry: validate_perf.c */
    }
    return NAN;
}

static int add_entry(tally_validation *v, const tally_resultset *rs, const tally_benchmark *b,
                     const tally_case *c, const struct known *k, const char *text,
                     const tally_summary *s, int summarized)
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
        e.recomputed = recompute(s, k->stat, &e.note);
    } else {
        e.recomputed = NAN;
        e.note = "the case has no samples";
    }
    if (isnan(e.reported) || isnan(e.recomputed)) {
        e.rel_diff = NAN;
        e.agreed = 0;
    } else {
        double diff = fabs(e.reported - e.recomputed);
        e.rel_diff = e.recomputed != 0 ? diff / fabs(e.recomputed) : diff;
        e.agreed = e.rel_diff <= v->tolerance;
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

static int validate_case(tally_validation *v, const tally_resultset *rs, const tally_benchmark *b,
                         const tally_case *c)
{
    tally_summary s = { .size = sizeof s };
    int summarized = 0, rc;
    for (size_t m = 0; m < tally_case_meta_count(c); m++) {
        const char *key, *text;
        tally_case_meta_at(&key, &text, c, m);
        const struct known *k = NULL;
        for (size_t j = 0; j < TALLY__COUNT(known); j++)
            if (strcmp(key, known[j].key) == 0)
                k = &known[j];
        if (k == NULL)
            continue;
        if (!summarized && tally_case_sample_count(c) > 0) {
            tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
            so.direction = tally_benchmark_direction(b);
            rc = tally_summarize(&s, tally_case_samples(c), tally_case_sample_count(c), &so);
            if (rc != TALLY_OK)
                return rc;
            summarized = 1;
        }
        rc = add_entry(v, rs, b, c, k, text, &s, summarized);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
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
