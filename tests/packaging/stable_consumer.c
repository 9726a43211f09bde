/* A program of the stable API only: built without TALLY_EXPERIMENTAL_API by check_api_tiers.sh
 * (and by the packaging stage of .ci/test against the installed libtally-dev). */
#include <stdio.h>
#include <string.h>

#include "tally.h"

#if defined(TALLY_RUNNER_H) || defined(TALLY_NOISE_H)
#error "an experimental header was included without TALLY_EXPERIMENTAL_API"
#endif

int main(void)
{
    /* Two samples of two runs each; the mean of {1, 3} is 2 (hand calculation). */
    const double x[] = {1.0, 3.0};
    tally_summary s = {.size = sizeof s};
    if (tally_summarize(&s, x, 2, NULL) != TALLY_OK || s.amean != 2.0) {
        fprintf(stderr, "stable_consumer: tally_summarize gave %g, expected 2\n", s.amean);
        return 1;
    }
    /* The library this program runs with is the one its headers describe. */
    if (strcmp(tally_version(), TALLY_VERSION_STRING) != 0) {
        fprintf(stderr, "stable_consumer: library %s, headers %s\n", tally_version(),
                TALLY_VERSION_STRING);
        return 1;
    }
    printf("libtally %s: mean 2\n", tally_version());
    return 0;
}
