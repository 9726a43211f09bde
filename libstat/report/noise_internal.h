/* Noise profiles, shared by noise.c (accessors, the report's margins), calibrate.c (the A/A
 * calibration) and noise_file.c (the JSON file format). */
#ifndef TALLY_NOISE_INTERNAL_H
#define TALLY_NOISE_INTERNAL_H

#include "report/report_internal.h"

struct tally_noise {
    tally_noise_benchmark *b; /* each name owned */
    size_t count;
};

/* Append a copy of b (its name copied); noise.c. */
int tally__noise_add(tally_noise *noise, const tally_noise_benchmark *b);
/* The benchmark of that name, or NULL; noise.c. */
const tally_noise_benchmark *tally__noise_find(const tally_noise *noise, const char *benchmark);

#endif /* TALLY_NOISE_INTERNAL_H */
