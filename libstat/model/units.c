/* The direction a unit implies (units.h). */
#include <string.h>

#include "model/units.h"
#include "util/internal.h"

static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether s[0..n) equals `word` (lower case) without ASCII case. */
static int same_ci(const char *s, const char *word, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ascii_lower(s[i]) != word[i])
            return 0;
    return 1;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle), len = strlen(hay);
    for (size_t i = 0; i + n <= len; i++)
        if (same_ci(hay + i, needle, n))
            return 1;
    return 0;
}

tally_direction tally__direction_for_unit(const char *unit)
{
    /* Rates improve upwards; everything else (times, latencies, sizes, counts of misses) is
     * taken as a cost. The words are those benchmarks print for throughput. */
    static const char *const rate_words[] = {
        "ops", "iops", "tps", "qps", "rps", "fps", "bps", "kbps", "mbps", "gbps",
        "transactions", "trans", "requests", "operations",
    };
    if (unit == NULL)
        return TALLY_LOWER_IS_BETTER;
    if (contains_ci(unit, "/s") || contains_ci(unit, "per sec"))
        return TALLY_HIGHER_IS_BETTER;
    size_t len = strlen(unit);
    for (size_t i = 0; i < TALLY__COUNT(rate_words); i++)
        if (strlen(rate_words[i]) == len && same_ci(unit, rate_words[i], len))
            return TALLY_HIGHER_IS_BETTER;
    return TALLY_LOWER_IS_BETTER;
}
