/* Weak definitions of the statistic and direction names declared in tally/stats.h, so that the
 * input layer links and is tested on its own. libstat/stat_names.c holds the strong definitions,
 * which take precedence at link time; this file goes away once both are on the main branch. */
#include <strings.h>

#include "internal.h"

static const char *const statistic_words[] = {
    "default", "amean", "hmean", "gmean", "median", "min", "max", "bamean",
};

#define WORD_COUNT (sizeof(statistic_words) / sizeof(statistic_words[0]))

__attribute__((weak)) const char *tally_statistic_name(tally_statistic stat)
{
    return (unsigned)stat < WORD_COUNT ? statistic_words[stat] : NULL;
}

__attribute__((weak)) int tally_statistic_from_name(tally_statistic *out, const char *name)
{
    for (size_t i = 0; out && name && i < WORD_COUNT; i++) {
        if (strcasecmp(name, statistic_words[i]) == 0) {
            *out = (tally_statistic)i;
            return TALLY_OK;
        }
    }
    return tally__error(TALLY_EINVAL, "unknown statistic \"%s\"", name ? name : "(null)");
}

__attribute__((weak)) const char *tally_direction_name(tally_direction direction)
{
    return direction == TALLY_LOWER_IS_BETTER    ? "lower"
           : direction == TALLY_HIGHER_IS_BETTER ? "higher"
                                                 : NULL;
}

__attribute__((weak)) int tally_direction_from_name(tally_direction *out, const char *name)
{
    if (out && name && (strcasecmp(name, "lower") == 0 || strcasecmp(name, "lower_is_better") == 0)) {
        *out = TALLY_LOWER_IS_BETTER;
        return TALLY_OK;
    }
    if (out && name && (strcasecmp(name, "higher") == 0 || strcasecmp(name, "higher_is_better") == 0)) {
        *out = TALLY_HIGHER_IS_BETTER;
        return TALLY_OK;
    }
    return tally__error(TALLY_EINVAL, "unknown direction \"%s\"", name ? name : "(null)");
}
