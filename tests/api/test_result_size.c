/*
 * The growable result structs (docs/internals/CODE_STYLE.md, "Result structs"): a caller built
 * against an older, shorter header passes a smaller `size` and gets exactly that prefix filled,
 * not one byte beyond; a caller built against a newer, longer header gets the library's fields
 * and learns from `size` how many bytes were filled; a struct whose size was never set is
 * refused. Each struct sits in a larger buffer filled with a canary byte, so that a write past
 * the caller's size shows.
 */
#include <stddef.h>
#include <string.h>

#include "check.h"
#include "tally.h"

#define CANARY 0xA5
#define TAIL 64

/* Samples 1..8: n 8, min 1, max 8, AMean 4.5 (36 / 8), median 4.5 (type 7: between the 4th and
 * 5th), by hand. */
static const double x[] = { 3, 1, 4, 8, 5, 2, 7, 6 };
static const double y[] = { 6, 4, 7, 11, 8, 5, 10, 9 }; /* x + 3: AMean 7.5 */

/* Whether bytes [from, to) of p all hold the canary. */
static int untouched(const void *p, size_t from, size_t to)
{
    const unsigned char *b = p;
    for (size_t i = from; i < to; i++)
        if (b[i] != CANARY)
            return 0;
    return 1;
}

static void summary_older_caller(void)
{
    struct {
        tally_summary s;
        unsigned char tail[TAIL];
    } buf;
    /* An older header whose tally_summary ended after amean. */
    const size_t old_size = offsetof(tally_summary, amean) + sizeof(double);
    memset(&buf, CANARY, sizeof buf);
    buf.s.size = old_size;
    CHECK_INT(tally_summarize(&buf.s, x, TALLY__COUNT(x), NULL), TALLY_OK);
    CHECK_INT(buf.s.size, old_size);
    CHECK_INT(buf.s.n, 8);
    CHECK(buf.s.min == 1);
    CHECK(buf.s.max == 8);
    CHECK(buf.s.amean == 4.5);
    CHECK(untouched(&buf, old_size, sizeof buf));

    /* The same for every entry point that fills a summary. */
    memset(&buf, CANARY, sizeof buf);
    buf.s.size = old_size;
    double p90 = 0, p = 90;
    CHECK_INT(tally_summarize_with_percentiles(&buf.s, &p90, x, TALLY__COUNT(x), &p, 1, NULL),
              TALLY_OK);
    CHECK(buf.s.amean == 4.5 && untouched(&buf, old_size, sizeof buf));
    CHECK_REL(p90, 7.3, 1e-15); /* type 7: 1 + 0.9 * 7 = 7.3rd value, 7 + 0.3 * (8 - 7) */

    tally_accumulator *a = NULL;
    CHECK_INT(tally_accumulator_new(&a), TALLY_OK);
    CHECK_INT(tally_accumulator_add(a, x, TALLY__COUNT(x)), TALLY_OK);
    memset(&buf, CANARY, sizeof buf);
    buf.s.size = old_size;
    CHECK_INT(tally_accumulator_moments(&buf.s, a, NULL), TALLY_OK);
    CHECK(buf.s.amean == 4.5 && untouched(&buf, old_size, sizeof buf));
    tally_accumulator_free(a);

    /* Failing calls write no further either (a summary is zeroed on failure). */
    memset(&buf, CANARY, sizeof buf);
    buf.s.size = old_size;
    CHECK_INT(tally_summarize(&buf.s, x, 0, NULL), TALLY_ENODATA);
    CHECK_INT(buf.s.n, 0);
    CHECK(untouched(&buf, old_size, sizeof buf));

    /* Reading a shorter summary: the statistics it holds, an error for those it lacks. */
    double v = 0;
    CHECK_INT(tally_summary_value(&v, &buf.s, TALLY_STAT_AMEAN), TALLY_ENODATA);
    CHECK_INT(tally_summarize(&buf.s, x, TALLY__COUNT(x), NULL), TALLY_OK);
    CHECK_INT(tally_summary_value(&v, &buf.s, TALLY_STAT_AMEAN), TALLY_OK);
    CHECK(v == 4.5);
    CHECK_INT(tally_summary_value(&v, &buf.s, TALLY_STAT_MEDIAN), TALLY_EINVAL);
    char want[64];
    snprintf(want, sizeof want, "tally_summary of size %zu has no median", old_size);
    CHECK_STR(tally_error_last()->message, want);
}

static void summary_newer_caller(void)
{
    struct {
        tally_summary s;
        unsigned char tail[TAIL];
    } buf;
    /* A newer header's struct: 16 more bytes than this library knows. */
    memset(&buf, CANARY, sizeof buf);
    buf.s.size = sizeof(tally_summary) + 16;
    CHECK_INT(tally_summarize(&buf.s, x, TALLY__COUNT(x), NULL), TALLY_OK);
    CHECK_INT(buf.s.size, sizeof(tally_summary));
    CHECK(buf.s.median == 4.5);
    CHECK(untouched(&buf, sizeof(tally_summary), sizeof buf));
}

static void size_not_set(void)
{
    tally_summary s;
    memset(&s, 0, sizeof s);
    CHECK_INT(tally_summarize(&s, x, TALLY__COUNT(x), NULL), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message,
              "tally_summary: size 0, expected sizeof (tally_summary)");
    CHECK_INT(s.n, 0);
    tally_comparison c;
    memset(&c, 0, sizeof c);
    CHECK_INT(tally_compare(&c, x, TALLY__COUNT(x), y, TALLY__COUNT(y), NULL), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message,
              "tally_comparison: size 0, expected sizeof (tally_comparison)");
    CHECK_INT(tally_summarize(NULL, x, TALLY__COUNT(x), NULL), TALLY_EINVAL);
}

static void comparison_older_caller(void)
{
    struct {
        tally_comparison c;
        unsigned char tail[TAIL];
    } buf;
    const size_t old_size = offsetof(tally_comparison, ratio) + sizeof(double);
    memset(&buf, CANARY, sizeof buf);
    buf.c.size = old_size;
    CHECK_INT(tally_compare(&buf.c, x, TALLY__COUNT(x), y, TALLY__COUNT(y), NULL), TALLY_OK);
    CHECK_INT(buf.c.size, old_size);
    CHECK_INT(buf.c.base_n, 8);
    CHECK_INT(buf.c.new_n, 8);
    CHECK(buf.c.base_value == 4.5);
    CHECK(buf.c.new_value == 7.5);
    CHECK(buf.c.ratio == 7.5 / 4.5);
    CHECK(untouched(&buf, old_size, sizeof buf));

    /* The sides' summaries, each into its own caller's size. */
    struct {
        tally_summary s;
        unsigned char tail[TAIL];
    } sb, sn;
    const size_t summary_old = offsetof(tally_summary, amean) + sizeof(double);
    memset(&sb, CANARY, sizeof sb);
    memset(&sn, CANARY, sizeof sn);
    sb.s.size = summary_old;
    sn.s.size = sizeof(tally_summary);
    CHECK_INT(tally_compare_summaries(&sb.s, &sn.s, x, TALLY__COUNT(x), y, TALLY__COUNT(y), NULL),
              TALLY_OK);
    CHECK(sb.s.amean == 4.5 && untouched(&sb, summary_old, sizeof sb));
    CHECK(sn.s.amean == 7.5 && sn.s.median == 7.5);
    CHECK(untouched(&sn, sizeof(tally_summary), sizeof sn));
}

static void report_cell_older_caller(void)
{
    tally_results *results = NULL;
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
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, results, NULL), TALLY_OK);
    if (r == NULL) {
        tally_results_free(results);
        return;
    }

    struct {
        tally_report_cell cell;
        unsigned char tail[TAIL];
    } buf;
    const size_t old_size = offsetof(tally_report_cell, value) + sizeof(double);
    memset(&buf, CANARY, sizeof buf);
    buf.cell.size = old_size;
    CHECK_INT(tally_report_cell_at(&buf.cell, r, 0, 1), TALLY_OK);
    CHECK_INT(buf.cell.size, old_size);
    CHECK_INT(buf.cell.present, 1);
    CHECK(buf.cell.value == 7.5);
    CHECK(untouched(&buf, old_size, sizeof buf));

    struct {
        tally_summary s;
        unsigned char tail[TAIL];
    } sbuf;
    const size_t summary_old = offsetof(tally_summary, amean) + sizeof(double);
    memset(&sbuf, CANARY, sizeof sbuf);
    sbuf.s.size = summary_old;
    CHECK_INT(tally_report_cell_summary(&sbuf.s, r, 0, 0), TALLY_OK);
    CHECK(sbuf.s.amean == 4.5 && untouched(&sbuf, summary_old, sizeof sbuf));

    struct {
        tally_comparison c;
        unsigned char tail[TAIL];
    } cbuf;
    const size_t comparison_old = offsetof(tally_comparison, pct_imp) + sizeof(double);
    memset(&cbuf, CANARY, sizeof cbuf);
    cbuf.c.size = comparison_old;
    CHECK_INT(tally_report_cell_comparison(&cbuf.c, r, 0, 1), TALLY_OK);
    /* (1 - 7.5 / 4.5) * 100 = -66.67 % (lower is better), by hand. */
    CHECK_REL(cbuf.c.pct_imp, (1 - 7.5 / 4.5) * 100, 1e-15);
    CHECK(untouched(&cbuf, comparison_old, sizeof cbuf));
    /* The baseline's own cell has no comparison. */
    CHECK_INT(tally_report_cell_comparison(&cbuf.c, r, 0, 0), TALLY_ENOTFOUND);

    tally_report_free(r);
    tally_results_free(results);
}

int main(void)
{
    summary_older_caller();
    summary_newer_caller();
    size_not_set();
    comparison_older_caller();
    report_cell_older_caller();
    return check_summary();
}
