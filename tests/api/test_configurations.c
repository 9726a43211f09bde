/* Several configurations from one file: the notes loading leaves on the list, the report's
 * baseline option. Expected values: the inputs below are small enough to check by hand. */
#include <string.h>

#include "check.h"
#include "tally.h"

/* Two runs of one benchmark concatenated after note: lines, as benchstat users write them:
 * before 100 and 110 ns/op, after 80 and 90 ns/op. */
static const char notes[] =
    "note: before\nBenchmarkA 1 100 ns/op\nBenchmarkA 1 110 ns/op\n"
    "note: after\nBenchmarkA 1 80 ns/op\nBenchmarkA 1 90 ns/op\n";

static void test_notes(void)
{
    tally_results *r = NULL, *more = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_load_buffer(r, notes, strlen(notes), "n.txt", NULL), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    CHECK_INT(tally_results_note_count(r), 1);
    CHECK_STR(tally_results_note_at(r, 0),
              "n.txt: 2 configurations by the key 'note': 'before', 'after'");
    CHECK(tally_results_note_at(r, 1) == NULL);
    /* Notes move with the result sets; a failed merge moves nothing. */
    CHECK_INT(tally_results_new(&more), TALLY_OK);
    CHECK_INT(tally_results_note_add(more, "a note"), TALLY_OK);
    CHECK_INT(tally_results_merge(r, more), TALLY_OK);
    CHECK_INT(tally_results_note_count(r), 2);
    CHECK_STR(tally_results_note_at(r, 1), "a note");
    CHECK_INT(tally_results_note_count(more), 0);
    CHECK_INT(tally_results_note_add(NULL, "x"), TALLY_EINVAL);
    CHECK_INT(tally_results_note_add(r, NULL), TALLY_EINVAL);
    CHECK_INT(tally_results_note_count(NULL), 0);
    /* A failed load leaves the list as it was, notes too. */
    CHECK_INT(tally_load_buffer(r, notes, strlen(notes), "n.txt", NULL), TALLY_EEXISTS);
    CHECK_INT(tally_results_note_count(r), 2);
    tally_results_free(more);
    tally_results_free(r);
}

static void test_baseline(void)
{
    tally_results *r = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_load_buffer(r, notes, strlen(notes), "n.txt", NULL), TALLY_OK);
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.baseline = "after";
    tally_report *rep = NULL;
    CHECK_INT(tally_report_new(&rep, r, &o), TALLY_OK);
    CHECK_STR(tally_report_config_label(rep, 0), "after");
    CHECK_STR(tally_report_config_label(rep, 1), "before");
    tally_report_cell cell = { .size = sizeof cell };
    CHECK_INT(tally_report_cell_at(&cell, rep, 0, 0), TALLY_OK);
    CHECK_REL(cell.value, 85e-9, 1e-12); /* (80 + 90) / 2 ns */
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_report_cell_comparison(&c, rep, 0, 1), TALLY_OK);
    /* before against after, lower is better: (85 - 105) / 85 = -23.53 % */
    CHECK_REL(c.pct_imp, -2000.0 / 85.0, 1e-9);
    tally_report_free(rep);
    o.baseline = "nope";
    CHECK_INT(tally_report_new(&rep, r, &o), TALLY_ENOTFOUND);
    CHECK_STR(tally_error_last()->message, "baseline 'nope': no configuration of that label (the "
                                           "configurations: 'before', 'after')");
    CHECK(rep == NULL);
    tally_results_free(r);
}

int main(void)
{
    test_notes();
    test_baseline();
    return check_summary();
}
