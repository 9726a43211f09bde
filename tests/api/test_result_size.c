/*
 * The growable result structs (docs/internals/CODE_STYLE.md, "Result structs"): a caller built
 * against an older, shorter header passes a smaller `size` and gets exactly that prefix filled,
 * not one byte beyond; a caller built against a newer, longer header gets the library's fields
 * and learns from `size` how many bytes were filled; a struct whose size was never set (0), a
 * size too small to hold the size field itself, and a NULL pointer are refused. Each struct sits
 * at the start of a larger buffer filled with a canary byte, so that a write past the caller's
 * size shows.
 */
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tally.h"

#define CANARY 0xA5
#define TAIL 64
/* Room for the largest struct tested and a newer header's TAIL more bytes. */
#define ROOM 512

/* Samples 1..8: n 8, min 1, max 8, AMean 4.5 (36 / 8), median 4.5 (type 7: between the 4th and
 * 5th), by hand. */
static const double x[] = { 3, 1, 4, 8, 5, 2, 7, 6 };
static const double y[] = { 6, 4, 7, 11, 8, 5, 10, 9 }; /* x + 3: AMean 7.5 */

/* A prefix of `type` ending after `field`: the struct of an older header that ended there. */
#define OLD_SIZE(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* The caller's struct of `size` bytes at the start of a buffer of canary bytes. */
typedef struct caller {
    alignas(max_align_t) unsigned char bytes[ROOM];
} caller;

static void *prepare(caller *c, size_t size)
{
    memset(c->bytes, CANARY, sizeof c->bytes);
    memcpy(c->bytes, &size, sizeof size);
    return c->bytes;
}

static size_t size_field(const caller *c)
{
    size_t s;
    memcpy(&s, c->bytes, sizeof s);
    return s;
}

/* Whether bytes [from, ROOM) of the caller's buffer all still hold the canary. */
static int untouched(const caller *c, size_t from)
{
    for (size_t i = from; i < sizeof c->bytes; i++)
        if (c->bytes[i] != CANARY)
            return 0;
    return 1;
}

/* What the entry points fill from; set up once in main(). */
static tally_results *results;
static tally_report *report;
static tally_accumulator *accum;
static tally_noise *noise;
static tally_system_check *syscheck;
static tally_changepoints *changes;
static tally_history *history;

/* One entry point that fills a growable struct. */
typedef struct filler {
    const char *type;  /* the struct's name, as the messages give it */
    size_t full;       /* its sizeof in this header */
    size_t old;        /* the size of an older header's struct (a prefix) */
    int (*fill)(void *out);
    const char *call;  /* for the failure messages */
} filler;

static int fill_summary(void *out)
{
    return tally_summarize(out, x, TALLY__COUNT(x), NULL);
}

static int fill_summary_percentiles(void *out)
{
    double p90 = 0, p = 90;
    int rc = tally_summarize_with_percentiles(out, &p90, x, TALLY__COUNT(x), &p, 1, NULL);
    if (rc == TALLY_OK)
        CHECK_REL(p90, 7.3, 1e-15); /* type 7: the 1 + 0.9 * 7 = 7.3rd value, 7 + 0.3 * (8 - 7) */
    return rc;
}

static int fill_accumulator_moments(void *out)
{
    return tally_accumulator_moments(out, accum, NULL);
}

static int fill_comparison(void *out)
{
    return tally_compare(out, x, TALLY__COUNT(x), y, TALLY__COUNT(y), NULL);
}

static int fill_report_cell(void *out)
{
    return tally_report_cell_at(out, report, 0, 1);
}

static int fill_report_cell_summary(void *out)
{
    return tally_report_cell_summary(out, report, 0, 0);
}

static int fill_report_cell_comparison(void *out)
{
    return tally_report_cell_comparison(out, report, 0, 1);
}

static int fill_report_row(void *out)
{
    return tally_report_row_at(out, report, 0);
}

static int fill_gain(void *out)
{
    return tally_report_gain(out, report, 1, NULL);
}

static int fill_gate(void *out)
{
    return tally_report_gate(out, report, 0, TALLY_GATE_POINT);
}

static int fill_pairing(void *out)
{
    return tally_report_pairing(out, report, 1);
}

static int fill_diagnostics(void *out)
{
    return tally_diagnose(out, x, TALLY__COUNT(x), NULL);
}

static int fill_report_cell_diagnostics(void *out)
{
    return tally_report_cell_diagnostics(out, report, 0, 1);
}

static int fill_noise_benchmark(void *out)
{
    return tally_noise_benchmark_at(out, noise, 0);
}

static int fill_check_item(void *out)
{
    return tally_system_check_item_at(out, syscheck, 0);
}

static int fill_changepoint(void *out)
{
    return tally_changepoints_at(out, changes, 0);
}

static int fill_trend(void *out)
{
    return tally_changepoints_trend(out, changes);
}

static int fill_history_series(void *out)
{
    return tally_history_series_at(out, history, 0);
}

static int fill_history_trend(void *out)
{
    return tally_history_series_trend(out, history, 0);
}

/* A summary-only case (tally_case_set_summary), read back. */
static tally_results *summary_holder;
static tally_case *summary_case;

static int fill_case_summary(void *out)
{
    return tally_case_summary_result(out, summary_case);
}

static int fill_format_info(void *out)
{
    return tally_format_info_at(out, 0);
}

#define FILLER(type, old_field, fn) { #type, sizeof(type), OLD_SIZE(type, old_field), fn, #fn }

static const filler fillers[] = {
    FILLER(tally_summary, amean, fill_summary),
    FILLER(tally_summary, amean, fill_summary_percentiles),
    FILLER(tally_summary, amean, fill_accumulator_moments),
    FILLER(tally_comparison, ratio, fill_comparison),
    FILLER(tally_report_cell, value, fill_report_cell),
    FILLER(tally_summary, amean, fill_report_cell_summary),
    FILLER(tally_comparison, pct_imp, fill_report_cell_comparison),
    FILLER(tally_report_row, case_name, fill_report_row),
    FILLER(tally_gain, value, fill_gain),
    FILLER(tally_gate, regressions, fill_gate),
    FILLER(tally_pairing, compared, fill_pairing),
    FILLER(tally_diagnostics, n, fill_diagnostics),
    FILLER(tally_diagnostics, n, fill_report_cell_diagnostics),
    FILLER(tally_noise_benchmark, name, fill_noise_benchmark),
    FILLER(tally_check_item, name, fill_check_item),
    FILLER(tally_changepoint, index, fill_changepoint),
    FILLER(tally_trend, tested, fill_trend),
    FILLER(tally_history_series, benchmark, fill_history_series),
    FILLER(tally_trend, tested, fill_history_trend),
    FILLER(tally_format_info, name, fill_format_info),
    FILLER(tally_case_summary, mean, fill_case_summary),
};

/* What every entry point guarantees, whatever the struct. */
static void growable(const filler *f)
{
    caller c;
    char want[160];

    /* An older header: its prefix filled, `size` kept, nothing written beyond. */
    CHECK(f->old < f->full && f->full + TAIL <= ROOM);
    int rc = f->fill(prepare(&c, f->old));
    if (rc != TALLY_OK)
        fprintf(stderr, "%s (older size): %s\n", f->call, tally_error_last()->message);
    CHECK_INT(rc, TALLY_OK);
    CHECK_INT(size_field(&c), f->old);
    CHECK(untouched(&c, f->old));

    /* A newer header's struct: TAIL more bytes than this library knows, left as they were;
     * `size` says how much was filled. */
    CHECK_INT(f->fill(prepare(&c, f->full + TAIL)), TALLY_OK);
    CHECK_INT(size_field(&c), f->full);
    CHECK(untouched(&c, f->full));

    /* Never set, and too small for the size field itself: refused, nothing written. */
    static const size_t bad[] = { 0, sizeof(size_t) - 1 };
    for (size_t k = 0; k < TALLY__COUNT(bad); k++) {
        CHECK_INT(f->fill(prepare(&c, bad[k])), TALLY_EINVAL);
        snprintf(want, sizeof want, "%s: size %zu, expected sizeof (%s)", f->type, bad[k],
                 f->type);
        CHECK_STR(tally_error_last()->message, want);
        CHECK_INT(size_field(&c), bad[k]);
        CHECK(untouched(&c, sizeof(size_t)));
    }
    CHECK_INT(f->fill(NULL), TALLY_EINVAL);
    snprintf(want, sizeof want, "%s: NULL pointer", f->type);
    CHECK_STR(tally_error_last()->message, want);
}

/* The fields an older header's prefix holds carry the right values. */
static void older_prefix_values(void)
{
    caller c;
    tally_summary *s = prepare(&c, OLD_SIZE(tally_summary, amean));
    CHECK_INT(tally_summarize(s, x, TALLY__COUNT(x), NULL), TALLY_OK);
    CHECK_INT(s->n, 8);
    CHECK(s->min == 1);
    CHECK(s->max == 8);
    CHECK(s->amean == 4.5);

    tally_comparison *cmp = prepare(&c, OLD_SIZE(tally_comparison, ratio));
    CHECK_INT(fill_comparison(cmp), TALLY_OK);
    CHECK_INT(cmp->base_n, 8);
    CHECK_INT(cmp->new_n, 8);
    CHECK(cmp->base_value == 4.5);
    CHECK(cmp->new_value == 7.5);
    CHECK(cmp->ratio == 7.5 / 4.5);

    tally_report_cell *cell = prepare(&c, OLD_SIZE(tally_report_cell, value));
    CHECK_INT(fill_report_cell(cell), TALLY_OK);
    CHECK_INT(cell->present, 1);
    CHECK(cell->value == 7.5);

    s = prepare(&c, OLD_SIZE(tally_summary, amean));
    CHECK_INT(fill_report_cell_summary(s), TALLY_OK);
    CHECK(s->amean == 4.5);

    cmp = prepare(&c, OLD_SIZE(tally_comparison, pct_imp));
    CHECK_INT(fill_report_cell_comparison(cmp), TALLY_OK);
    /* (1 - 7.5 / 4.5) * 100 = -66.67 % (lower is better), by hand. */
    CHECK_REL(cmp->pct_imp, (1 - 7.5 / 4.5) * 100, 1e-15);

    tally_report_row *row = prepare(&c, OLD_SIZE(tally_report_row, case_name));
    CHECK_INT(fill_report_row(row), TALLY_OK);
    CHECK_STR(row->benchmark, "bench");
    CHECK_STR(row->case_name, "1");

    /* One row, lower is better: the gain is base/new = 4.5 / 7.5 = 0.6, by hand. */
    tally_gain *gain = prepare(&c, OLD_SIZE(tally_gain, value));
    CHECK_INT(fill_gain(gain), TALLY_OK);
    CHECK_REL(gain->value, 0.6, 1e-15);

    /* Welch on x against x + 3: both variances 6 (of 1..8), t = 3 / sqrt(6/8 + 6/8) = 2.449 on
     * 14 df, beyond t(0.975, 14) = 2.145 (R: qt(0.975, 14)): a regression, 66.67 % > 0. */
    tally_gate *gate = prepare(&c, OLD_SIZE(tally_gate, regressions));
    CHECK_INT(fill_gate(gate), TALLY_OK);
    CHECK_INT(gate->regressions, 1);

    /* The one row is in both configurations, by hand. */
    tally_pairing *pairing = prepare(&c, OLD_SIZE(tally_pairing, compared));
    CHECK_INT(fill_pairing(pairing), TALLY_OK);
    CHECK_INT(pairing->compared, 1);

    tally_diagnostics *d = prepare(&c, OLD_SIZE(tally_diagnostics, n));
    CHECK_INT(fill_diagnostics(d), TALLY_OK);
    CHECK_INT(d->n, 8);
    d = prepare(&c, OLD_SIZE(tally_diagnostics, n));
    CHECK_INT(fill_report_cell_diagnostics(d), TALLY_OK);
    CHECK_INT(d->n, 8);

    tally_noise_benchmark *nb = prepare(&c, OLD_SIZE(tally_noise_benchmark, name));
    CHECK_INT(fill_noise_benchmark(nb), TALLY_OK);
    CHECK_STR(nb->name, "bench");

    if (syscheck) {
        tally_check_item *it = prepare(&c, OLD_SIZE(tally_check_item, name));
        CHECK_INT(fill_check_item(it), TALLY_OK);
        CHECK_STR(it->name, "governor"); /* the first finding (test_syscheck.c) */
    }
}

/* Failing calls write no further either (a summary, and diagnostics, are zeroed on failure),
 * and a summary the caller passes in is read only as far as its size. */
static void summary_failures_and_reads(void)
{
    caller c;
    const size_t old_size = OLD_SIZE(tally_summary, amean);
    tally_summary *s = prepare(&c, old_size);
    CHECK_INT(tally_summarize(s, x, 0, NULL), TALLY_ENODATA);
    CHECK_INT(s->n, 0);
    CHECK(untouched(&c, old_size));

    tally_diagnostics *d = prepare(&c, OLD_SIZE(tally_diagnostics, tested));
    static const double bad[] = { 1, NAN, 3 };
    CHECK_INT(tally_diagnose(d, bad, TALLY__COUNT(bad), NULL), TALLY_ENONFINITE);
    CHECK_INT(d->n, 0);
    CHECK_INT(d->tested, 0);
    CHECK(untouched(&c, OLD_SIZE(tally_diagnostics, tested)));

    /* Reading a shorter summary: the statistics it holds, an error for those it lacks. */
    s = prepare(&c, old_size);
    double v = 0;
    CHECK_INT(tally_summarize(s, x, 0, NULL), TALLY_ENODATA);
    CHECK_INT(tally_summary_value(&v, s, TALLY_STAT_AMEAN), TALLY_ENODATA);
    CHECK_INT(tally_summarize(s, x, TALLY__COUNT(x), NULL), TALLY_OK);
    CHECK_INT(tally_summary_value(&v, s, TALLY_STAT_AMEAN), TALLY_OK);
    CHECK(v == 4.5);
    CHECK_INT(tally_summary_value(&v, s, TALLY_STAT_MEDIAN), TALLY_EINVAL);
    char want[64];
    snprintf(want, sizeof want, "tally_summary of size %zu has no median", old_size);
    CHECK_STR(tally_error_last()->message, want);
}

/* The sides' summaries of a comparison, each into its own caller's size. */
static void compare_summaries_sizes(void)
{
    caller cb, cn;
    const size_t summary_old = OLD_SIZE(tally_summary, amean);
    tally_summary *sb = prepare(&cb, summary_old), *sn = prepare(&cn, sizeof(tally_summary));
    CHECK_INT(tally_compare_summaries(sb, sn, x, TALLY__COUNT(x), y, TALLY__COUNT(y), NULL),
              TALLY_OK);
    CHECK(sb->amean == 4.5 && untouched(&cb, summary_old));
    CHECK(sn->amean == 7.5 && sn->median == 7.5);
    CHECK(untouched(&cn, sizeof(tally_summary)));
    sb = prepare(&cb, 0);
    CHECK_INT(tally_compare_summaries(sb, sn, x, TALLY__COUNT(x), y, TALLY__COUNT(y), NULL),
              TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "tally_summary: size 0, expected sizeof (tally_summary)");
}

/* Two configurations of one benchmark, one case: base x, next y. */
static int make_report(void)
{
    tally_resultset *held = NULL;
    tally_benchmark *hb = NULL;
    tally_case_summary cs = { .size = sizeof cs };
    cs.n = 8;
    cs.mean = 4.5;
    cs.sd = 2.5;
    cs.interval_low = cs.interval_high = NAN;
    CHECK_INT(tally_results_new(&summary_holder), TALLY_OK);
    CHECK_INT(tally_resultset_new(&held, "summary"), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&hb, held, "bench", "s", TALLY_LOWER_IS_BETTER),
              TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&summary_case, hb, "1"), TALLY_OK);
    CHECK_INT(tally_case_set_summary(summary_case, &cs), TALLY_OK);
    CHECK_INT(tally_results_add(summary_holder, held), TALLY_OK);
    CHECK_INT(tally_results_new(&results), TALLY_OK);
    const char *labels[] = { "base", "next" };
    const double *samples[] = { x, y };
    for (size_t k = 0; k < 2; k++) {
        tally_resultset *rs = NULL;
        tally_benchmark *b = NULL;
        tally_case *c = NULL;
        CHECK_INT(tally_resultset_new(&rs, labels[k]), TALLY_OK);
        CHECK_INT(tally_resultset_benchmark_add(&b, rs, "bench", "s", TALLY_LOWER_IS_BETTER),
                  TALLY_OK);
        CHECK_INT(tally_benchmark_case_add(&c, b, "1"), TALLY_OK);
        CHECK_INT(tally_case_append(c, samples[k], TALLY__COUNT(x)), TALLY_OK);
        CHECK_INT(tally_results_add(results, rs), TALLY_OK);
    }
    CHECK_INT(tally_report_new(&report, results, NULL), TALLY_OK);
    CHECK_INT(tally_calibrate(&noise, results, NULL), TALLY_OK);
    CHECK_INT(tally_accumulator_new(&accum), TALLY_OK);
    CHECK_INT(tally_accumulator_add(accum, x, TALLY__COUNT(x)), TALLY_OK);
    /* A build without the runner has no system check: its struct is still refused unset. */
    int rc = tally_system_check_run(&syscheck);
    CHECK(rc == TALLY_OK || rc == TALLY_ERUN);
    /* A step of 10 sigma between two levels of 12 points: one change point. */
    double steps[24];
    size_t offsets[25];
    for (size_t i = 0; i < 24; i++) {
        steps[i] = (i < 12 ? 100 : 110) + (double)(i % 3) - 1;
        offsets[i] = i;
    }
    offsets[24] = 24;
    CHECK_INT(tally_changepoints_detect(&changes, steps, offsets, 24, NULL), TALLY_OK);
    CHECK_INT(tally_changepoints_count(changes), 1);
    CHECK_INT(tally_history_new(&history, results, NULL), TALLY_OK);
    return report != NULL && noise != NULL && accum != NULL && changes != NULL &&
           tally_changepoints_count(changes) == 1 && history != NULL;
}

int main(void)
{
    if (make_report()) {
        for (size_t i = 0; i < TALLY__COUNT(fillers); i++)
            if (syscheck || fillers[i].fill != fill_check_item)
                growable(&fillers[i]);
        older_prefix_values();
        summary_failures_and_reads();
        compare_summaries_sizes();
    }
    if (syscheck == NULL) {
        tally_check_item it = { 0 };
        CHECK_INT(tally_system_check_item_at(&it, NULL, 0), TALLY_EINVAL);
        CHECK_STR(tally_error_last()->message,
                  "tally_check_item: size 0, expected sizeof (tally_check_item)");
    }
    tally_system_check_free(syscheck);
    tally_changepoints_free(changes);
    tally_history_free(history);
    tally_accumulator_free(accum);
    tally_noise_free(noise);
    tally_report_free(report);
    tally_results_free(results);
    tally_results_free(summary_holder);
    return check_summary();
}
