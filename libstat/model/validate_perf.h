/* perf stat's own figures (import_perf_stat.c keeps them as reported.perf_counter and
 * reported.perf_variance) recomputed from the runs: validate_perf.c, called by validate.c. */
#ifndef TALLY_VALIDATE_PERF_H
#define TALLY_VALIDATE_PERF_H

#include "tally.h"

/* The result of one check: tally's value in perf's definition, whether the reported text is it
 * rounded as perf prints it, and a note (static storage) on the definition or the mismatch. */
typedef struct tally__perf_check {
    double recomputed;
    int agreed;
    const char *note;
} tally__perf_check;

/* Check the printed counter (variance = 0) or the variance column (variance = 1) of case `c`,
 * whose text is `text` (reported: its value), against the case's samples. */
void tally__validate_perf(tally__perf_check *out, const tally_case *c, int variance,
                          const char *text, double reported);

#endif /* TALLY_VALIDATE_PERF_H */
