/*
 * tally_report_cell_spread() and tally_report_cell_interval(): the spread, CV and interval a
 * report's tables show for a cell, which follow the row's statistic (the harmonic SD on HMean
 * rows, the CV relative to the row's own centre, the median's order-statistic interval on
 * Median rows). Expected values by hand, in the comments.
 */
#include <math.h>

#include "check.h"
#include "tally.h"

/* Samples 1, 2, 4: mean 7/3, sample SD sqrt(((4/3)^2 + (1/3)^2 + (5/3)^2) / 2) = sqrt(7/3),
 * median 2; HMean H = 3 / (1 + 1/2 + 1/4) = 12/7, harmonic SD
 * sqrt(sum((1/x - 7/12)^2) * H^4 / n) = sqrt(7/24 * (12/7)^4 / 3). */
static const double x[] = { 1, 2, 4 };

static tally_report *report_of(tally_statistic stat, tally_results **out_results)
{
    tally_results *results = NULL;
    CHECK_INT(tally_results_new(&results), TALLY_OK);
    const char *labels[] = { "base", "new" };
    for (size_t j = 0; j < 2; j++) {
        tally_resultset *rs = NULL;
        tally_benchmark *b = NULL;
        tally_case *c = NULL;
        CHECK_INT(tally_resultset_new(&rs, labels[j]), TALLY_OK);
        CHECK_INT(tally_results_add(results, rs), TALLY_OK);
        CHECK_INT(tally_resultset_benchmark_add(&b, rs, "bench", "s", TALLY_LOWER_IS_BETTER),
                  TALLY_OK);
        CHECK_INT(tally_benchmark_case_add(&c, b, "x"), TALLY_OK);
        CHECK_INT(tally_case_append(c, x, 3), TALLY_OK);
        if (j == 0) { /* a case only the baseline has */
            CHECK_INT(tally_benchmark_case_add(&c, b, "only-base"), TALLY_OK);
            CHECK_INT(tally_case_append(c, x, 3), TALLY_OK);
        }
    }
    tally_report_options opts;
    CHECK_INT(tally_report_options_init(&opts, TALLY_REPORT_OPTIONS_VERSION), TALLY_OK);
    opts.statistic = stat;
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, results, &opts), TALLY_OK);
    *out_results = results;
    return r;
}

int main(void)
{
    tally_results *results = NULL;
    double spread = 0, cv = 0, low = 0, high = 0;

    tally_report *r = report_of(TALLY_STAT_MEDIAN, &results);
    CHECK_INT(tally_report_cell_spread(&spread, &cv, r, 0, 1), TALLY_OK);
    CHECK_REL(spread, sqrt(7.0 / 3.0), 1e-14);
    CHECK_REL(cv, 100 * sqrt(7.0 / 3.0) / 2, 1e-14); /* 76.376..: relative to the median */
    /* Three samples give no 95 % interval of the median (six needed). */
    CHECK_INT(tally_report_cell_interval(&low, &high, r, 0, 0), TALLY_ENODATA);
    /* Row 1 ("only-base") is missing in "new"; either output may be NULL. */
    CHECK_INT(tally_report_cell_spread(NULL, &cv, r, 1, 1), TALLY_ENOTFOUND);
    CHECK_INT(tally_report_cell_spread(&spread, NULL, r, 1, 0), TALLY_OK);
    CHECK_INT(tally_report_cell_interval(&low, &high, r, 1, 1), TALLY_ENOTFOUND);
    CHECK_INT(tally_report_cell_spread(&spread, &cv, r, 2, 0), TALLY_EINVAL);
    CHECK_INT(tally_report_cell_interval(&low, &high, r, 0, 2), TALLY_EINVAL);
    CHECK_INT(tally_report_cell_interval(NULL, &high, r, 0, 0), TALLY_EINVAL);
    tally_report_free(r);
    tally_results_free(results);

    r = report_of(TALLY_STAT_HMEAN, &results);
    const double h = 12.0 / 7.0, hsd = sqrt(7.0 / 24.0 * pow(h, 4) / 3.0); /* 0.916324 */
    CHECK_INT(tally_report_cell_spread(&spread, &cv, r, 0, 0), TALLY_OK);
    CHECK_REL(spread, hsd, 1e-13);
    CHECK_REL(cv, 100 * hsd / h, 1e-13); /* 53.452.. */
    tally_report_free(r);
    tally_results_free(results);

    r = report_of(TALLY_STAT_AMEAN, &results);
    CHECK_INT(tally_report_cell_spread(&spread, &cv, r, 0, 0), TALLY_OK);
    CHECK_REL(cv, 100 * sqrt(7.0 / 3.0) / (7.0 / 3.0), 1e-14); /* 65.465.. */
    /* The mean's interval: 7/3 -+ t(0.975, 2) sqrt(7/3) / sqrt(3). Student's t with 2 degrees
     * of freedom has the closed-form quantile t_p = (2p - 1) / sqrt(2 p (1 - p)), so
     * t(0.975, 2) = 0.95 / sqrt(0.04875) = 4.30265272974946. */
    CHECK_INT(tally_report_cell_interval(&low, &high, r, 0, 0), TALLY_OK);
    const double t = 0.95 / sqrt(2 * 0.975 * 0.025);
    const double half = t * sqrt(7.0 / 3.0) / sqrt(3.0);
    CHECK_REL(low, 7.0 / 3.0 - half, 1e-12);
    CHECK_REL(high, 7.0 / 3.0 + half, 1e-12);
    tally_report_free(r);
    tally_results_free(results);
    return check_summary();
}
