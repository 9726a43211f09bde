/* Names of statistics, directions and percentile methods, as used in files, options and the
 * CLI (the lookup and its case rule: util/names.h). */
#include "stats/stats_internal.h"
#include "util/internal.h"
#include "util/names.h"

/* In the order messages list them. */
static const tally__name statistics[] = {
    { "amean", TALLY_STAT_AMEAN },   { "hmean", TALLY_STAT_HMEAN }, { "gmean", TALLY_STAT_GMEAN },
    { "median", TALLY_STAT_MEDIAN }, { "min", TALLY_STAT_MIN },     { "max", TALLY_STAT_MAX },
    { "bamean", TALLY_STAT_BAMEAN }, { "default", TALLY_STAT_DEFAULT },
};

static const tally__name directions[] = {
    { "lower", TALLY_LOWER_IS_BETTER },
    { "higher", TALLY_HIGHER_IS_BETTER },
    { "lower_is_better", TALLY_LOWER_IS_BETTER },
    { "higher_is_better", TALLY_HIGHER_IS_BETTER },
};

static const tally__name percentile_methods[] = {
    { "linear", TALLY_PERCENTILE_LINEAR },
    { "nearest-rank", TALLY_PERCENTILE_NEAREST_RANK },
    { "harrell-davis", TALLY_PERCENTILE_HARRELL_DAVIS },
    { "type7", TALLY_PERCENTILE_LINEAR },
    { "nearest", TALLY_PERCENTILE_NEAREST_RANK },
    { "type1", TALLY_PERCENTILE_NEAREST_RANK },
    { "hd", TALLY_PERCENTILE_HARRELL_DAVIS },
};

const char *tally__stat_title(tally_statistic stat)
{
    switch (stat) {
    case TALLY_STAT_AMEAN: return "AMean";
    case TALLY_STAT_HMEAN: return "HMean";
    case TALLY_STAT_GMEAN: return "GMean";
    case TALLY_STAT_MEDIAN: return "Median";
    case TALLY_STAT_MIN: return "Min";
    case TALLY_STAT_MAX: return "Max";
    case TALLY_STAT_BAMEAN: return "BAMean";
    case TALLY_STAT_DEFAULT: break;
    }
    return "Default";
}

TALLY__NAME_FUNCTIONS(tally_statistic, statistics, "statistic")
TALLY__NAME_FUNCTIONS(tally_direction, directions, "direction")
TALLY__NAME_FUNCTIONS(tally_percentile_method, percentile_methods, "percentile method")
