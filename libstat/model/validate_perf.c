/* perf stat -r N -v output recomputed from its runs (docs/importers.md, "perf stat"). perf
 * prints the counter with "%.2f" (msec) or as a whole count and the variance column with
 * "%.2f": a figure agrees when tally's value rounds to the printed text. The variance column is
 * 100 x the standard error of the mean (sample SD / sqrt(n)) over the printed counter (perf's
 * rel_stddev_stats). perf 6.1 prints the last run's count with -r in -x, and -j output rather
 * than the mean: both are accepted, the note says which. */
#include <math.h>
#include <string.h>

#include "model/validate_perf.h"
#include "util/internal.h"
#include "util/text.h"

/* 1 when x rounds to the printed text's value at its decimals. */
static int prints_as(double x, const char *text, double reported)
{
    const char *dot = strchr(text, '.');
    size_t decimals = dot ? strlen(dot + 1) : 0;
    double half = 0.5 * pow(10, -(double)decimals);
    return fabs(x - reported) <= half * (1 + 1e-9) + 1e-12 * fabs(reported);
}

/* The sample mean and the sample and population SDs of x[0..n), two passes. */
static void moments(double *mean, double *sd, double *pop, const double *x, size_t n)
{
    double s = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    *mean = s / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
    *pop = sqrt(ss / (double)n);
}

void tally__validate_perf(tally__perf_check *out, const tally_case *c, int variance,
                          const char *text, double reported)
{
    const double *x = tally_case_samples(c);
    size_t n = tally_case_sample_count(c);
    out->recomputed = NAN;
    out->agreed = 0;
    out->note = "";
    if (n == 0) {
        out->note = "the case has no runs";
        return;
    }
    double mean, sd, pop;
    moments(&mean, &sd, &pop, x, n);
    /* The divisor of the variance column: the counter perf printed, unrounded. */
    const char *counter = tally_case_meta_get(c, "reported.perf_counter");
    double printed = NAN;
    if (counter && tally__parse_double(&printed, counter, strlen(counter)) != TALLY_OK)
        printed = NAN;
    int last = counter && !isnan(printed) && !prints_as(mean, counter, printed) &&
               prints_as(x[n - 1], counter, printed);
    if (!variance) {
        if (prints_as(mean, text, reported)) {
            out->recomputed = mean;
            out->agreed = 1;
            out->note = "the mean of the runs, rounded as perf prints it";
        } else if (prints_as(x[n - 1], text, reported)) {
            out->recomputed = x[n - 1];
            out->agreed = 1;
            out->note = "the last run's count, as perf 6.1 prints it with -r in -x, and -j "
                        "output (not the mean)";
        } else {
            out->recomputed = mean;
            out->note = "neither the mean nor the last run of the runs, rounded as perf prints "
                        "it";
        }
        return;
    }
    if (n < 2) {
        out->note = "the variance column needs at least 2 runs";
        return;
    }
    double divisor = last ? x[n - 1] : mean;
    double sample = 100 * sd / sqrt((double)n) / divisor;
    double population = 100 * pop / sqrt((double)n) / divisor;
    out->recomputed = sample;
    if (prints_as(sample, text, reported)) {
        out->agreed = 1;
        out->note = "100 x the standard error of the mean (sample SD, n - 1) over the printed "
                    "counter, rounded as perf prints it";
    } else if (prints_as(population, text, reported)) {
        out->note = "population SD instead of sample SD: the column is 100 x the standard "
                    "error from the SD with n, not n - 1, over the printed counter";
    } else {
        out->note = "not 100 x the standard error of the mean over the printed counter";
    }
}
