/* Names of statistics and directions, as used in files, options and the CLI. */
#include <stddef.h>

#include "stats/stats_internal.h"
#include "util/internal.h"

static const char *const statistic_names[] = {
    [TALLY_STAT_DEFAULT] = "default", [TALLY_STAT_AMEAN] = "amean",
    [TALLY_STAT_HMEAN] = "hmean",     [TALLY_STAT_GMEAN] = "gmean",
    [TALLY_STAT_MEDIAN] = "median",   [TALLY_STAT_MIN] = "min",
    [TALLY_STAT_MAX] = "max",         [TALLY_STAT_BAMEAN] = "bamean",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ASCII case-insensitive equality, independent of the locale. */
static int same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        char ca = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char cb = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (ca != cb)
            return 0;
        if (ca == '\0')
            return 1;
    }
}

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

const char *tally_statistic_name(tally_statistic stat)
{
    if ((unsigned)stat >= COUNT(statistic_names))
        return NULL;
    return statistic_names[stat];
}

int tally_statistic_from_name(tally_statistic *out, const char *name)
{
    if (!out || !name)
        return tally__error(TALLY_EINVAL, "statistic name or output pointer is NULL");
    for (size_t i = 0; i < COUNT(statistic_names); i++) {
        if (same_name(name, statistic_names[i])) {
            *out = (tally_statistic)i;
            return TALLY_OK;
        }
    }
    return tally__error(TALLY_EINVAL,
                        "unknown statistic \"%s\" (expected amean, hmean, gmean, median, min, "
                        "max, bamean or default)",
                        name);
}

const char *tally_direction_name(tally_direction direction)
{
    switch (direction) {
    case TALLY_LOWER_IS_BETTER:
        return "lower";
    case TALLY_HIGHER_IS_BETTER:
        return "higher";
    }
    return NULL;
}

int tally_direction_from_name(tally_direction *out, const char *name)
{
    if (!out || !name)
        return tally__error(TALLY_EINVAL, "direction name or output pointer is NULL");
    if (same_name(name, "lower") || same_name(name, "lower_is_better")) {
        *out = TALLY_LOWER_IS_BETTER;
        return TALLY_OK;
    }
    if (same_name(name, "higher") || same_name(name, "higher_is_better")) {
        *out = TALLY_HIGHER_IS_BETTER;
        return TALLY_OK;
    }
    return tally__error(TALLY_EINVAL,
                        "unknown direction \"%s\" (expected lower or higher)", name);
}

const char *tally_percentile_method_name(tally_percentile_method method)
{
    switch (method) {
    case TALLY_PERCENTILE_LINEAR:
        return "linear";
    case TALLY_PERCENTILE_NEAREST_RANK:
        return "nearest-rank";
    }
    return NULL;
}

int tally_percentile_method_from_name(tally_percentile_method *out, const char *name)
{
    if (!out || !name)
        return tally__error(TALLY_EINVAL, "percentile method name or output pointer is NULL");
    if (same_name(name, "linear")) {
        *out = TALLY_PERCENTILE_LINEAR;
        return TALLY_OK;
    }
    if (same_name(name, "nearest-rank")) {
        *out = TALLY_PERCENTILE_NEAREST_RANK;
        return TALLY_OK;
    }
    return tally__error(TALLY_EINVAL,
                        "unknown percentile method \"%s\" (expected linear or nearest-rank)", name);
}
