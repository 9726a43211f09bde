/* BenchmarkDotNet's Result rows rebuilt from the actual workload iterations (its
 * Engines/RunResults.cs, GetWorkloadResultMeasurements): each iteration less the median of the
 * overhead iterations, at least 0, leaving out the outliers of the actual iterations by the
 * job's OutlierMode. The default, RemoveUpper, drops the ones above Tukey's upper fence Q3 + 1.5
 * IQR; its quartile estimator changed between releases (simple quantiles, then Harrell-Davis in
 * Perfolizer), so the fence is not recomputed: the file's own Result rows say how many were
 * dropped, and upper outliers are the largest values. Its Statistics (Mean, Median,
 * StandardDeviation with n - 1, Min, Max) are of these rows, per operation. */
#include <math.h>
#include <string.h>

#include "model/validate_bdn.h"
#include "stats/quantile.h"
#include "util/internal.h"
#include "util/text.h"

/* Case metadata `key` as a finite number into *v; 0 when absent or not one. */
static int meta_number(double *v, const tally_case *c, const char *key)
{
    const char *text = tally_case_meta_get(c, key);
    return text && tally__parse_double(v, text, strlen(text)) == TALLY_OK && isfinite(*v);
}

int tally__bdn_result_rows(double **out, size_t *n, const char **why_not, const tally_case *c)
{
    *out = NULL;
    *n = 0;
    size_t count = tally_case_sample_count(c);
    double overhead, dropped;
    if (count == 0) {
        *why_not = "the case has no samples";
        return TALLY_OK;
    }
    if (!meta_number(&overhead, c, TALLY__BDN_OVERHEAD) ||
        !meta_number(&dropped, c, TALLY__BDN_OUTLIERS)) {
        *why_not = "the case lacks " TALLY__BDN_OVERHEAD " or " TALLY__BDN_OUTLIERS
                   " (BenchmarkDotNet's overhead and Result rows)";
        return TALLY_OK;
    }
    if (!(dropped >= 0) || dropped >= (double)count || dropped != floor(dropped)) {
        *why_not = "the file's Result rows do not fit its actual iterations (more of them, or "
                   "every actual iteration left out)";
        return TALLY_OK;
    }
    double *x = NULL;
    tally__wsample sorted;
    int rc = tally__wsample_sorted_copy(&sorted, &x, tally_case_samples(c), count);
    if (rc != TALLY_OK)
        return rc;
    tally__wsample_free(&sorted);
    *n = count - (size_t)dropped;
    for (size_t i = 0; i < *n; i++)
        x[i] = fmax(0.0, x[i] - overhead);
    *out = x;
    return TALLY_OK;
}
