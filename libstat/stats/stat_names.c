/* Names of statistics, directions and percentile methods, as used in files, options and the
 * CLI (the lookup and its case rule: util/names.h). */
#include "stats/stats_internal.h"
#include "util/internal.h"
#include "util/names.h"
#include "util/number.h"

#include <stdio.h>
#include <string.h>

/* In the order messages list them. */
static const tally__name statistics[] = {
    { "amean", TALLY_STAT_AMEAN },   { "hmean", TALLY_STAT_HMEAN }, { "gmean", TALLY_STAT_GMEAN },
    { "median", TALLY_STAT_MEDIAN }, { "min", TALLY_STAT_MIN },     { "max", TALLY_STAT_MAX },
    { "bamean", TALLY_STAT_BAMEAN }, { "default", TALLY_STAT_DEFAULT },
    { "percentile", TALLY_STAT_PERCENTILE },
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
    case TALLY_STAT_PERCENTILE: return "Percentile";
    case TALLY_STAT_DEFAULT: break;
    }
    return "Default";
}

TALLY__NAME_FUNCTIONS(tally_statistic, statistics, "statistic")
TALLY__NAME_FUNCTIONS(tally_direction, directions, "direction")
TALLY__NAME_FUNCTIONS(tally_percentile_method, percentile_methods, "percentile method")

int tally_statistic_parse(tally_statistic *stat, double *percentile, const char *name)
{
    if (!stat || !percentile || !name)
        return tally__error(TALLY_EINVAL, "statistic: NULL pointer");
    if ((name[0] == 'p' || name[0] == 'P') && (name[1] == '.' || (name[1] >= '0' && name[1] <= '9'))) {
        double p;
        const char *stop, *end = name + strlen(name);
        if (tally__number_scan(&p, &stop, name + 1, end, TALLY__NUMBER_TEXT) != TALLY__NUMBER_OK ||
            stop != end || !(p > 0 && p < 100))
            return tally__error(TALLY_EINVAL, "statistic '%s': a percentile is pNN with NN in "
                                              "(0, 100), e.g. p50, p99, p99.9", name);
        *stat = TALLY_STAT_PERCENTILE;
        *percentile = p;
        return TALLY_OK;
    }
    tally_statistic s;
    if (tally_statistic_from_name(&s, name) != TALLY_OK)
        return tally__error(TALLY_EINVAL, "unknown statistic '%s' (amean, hmean, gmean, median, "
                                          "min, max, bamean, default, or pNN: p50, p99, p99.9)",
                            name);
    if (s == TALLY_STAT_PERCENTILE)
        return tally__error(TALLY_EINVAL, "statistic '%s': name the percentile as pNN, e.g. p50, "
                                          "p99, p99.9", name);
    *stat = s;
    *percentile = 0;
    return TALLY_OK;
}

int tally_statistic_label(char *buf, size_t size, tally_statistic stat, double percentile)
{
    if (!buf || size == 0)
        return tally__error(TALLY_EINVAL, "statistic label: NULL buffer or size 0");
    buf[0] = '\0';
    if (stat == TALLY_STAT_PERCENTILE) {
        if (!(percentile > 0 && percentile < 100))
            return tally__error(TALLY_EINVAL, "statistic label: percentile %g is outside (0, 100)",
                                percentile);
        char num[TALLY__NUMBER_BUF];
        tally__number_format(num, percentile);
        snprintf(buf, size, "p%s", num);
        return TALLY_OK;
    }
    const char *n = tally_statistic_name(stat);
    if (!n)
        return tally__error(TALLY_EINVAL, "statistic label: unknown statistic %d", (int)stat);
    snprintf(buf, size, "%s", n);
    return TALLY_OK;
}
