/* Reading a whole report cell in the tests (report tests, API and unit). */
#ifndef TALLY_TEST_CELL_H
#define TALLY_TEST_CELL_H

#include <string.h>

#include "tally.h"

/* A report cell with its summary and comparison, read through the three public accessors
 * (tally_report_cell_at, _summary, _comparison); summary and comparison stay zero where the
 * cell has none. */
typedef struct test_cell {
    int present;
    double value;
    int compared;
    double p_adjusted;
    tally_summary summary;
    tally_comparison comparison;
} test_cell;

static __attribute__((unused)) int test_cell_get(test_cell *out, const tally_report *r, size_t row,
                                     size_t config)
{
    tally_report_cell c = { .size = sizeof c };
    memset(out, 0, sizeof *out);
    out->summary.size = sizeof out->summary;
    out->comparison.size = sizeof out->comparison;
    int rc = tally_report_cell_at(&c, r, row, config);
    if (rc != TALLY_OK)
        return rc;
    out->present = c.present;
    out->value = c.value;
    out->compared = c.compared;
    out->p_adjusted = c.p_adjusted;
    if (c.present && (rc = tally_report_cell_summary(&out->summary, r, row, config)) != TALLY_OK)
        return rc;
    if (c.compared)
        rc = tally_report_cell_comparison(&out->comparison, r, row, config);
    return rc;
}

#endif /* TALLY_TEST_CELL_H */
