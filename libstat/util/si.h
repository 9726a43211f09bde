/* SI prefixes for human-readable numbers: the prefix that suits a magnitude in a unit
 * ("0.02715 s" -> 27.15 ms, "54000 trans/s" -> 54 k trans/s, "1.2e9 B/s" -> 1.2 GB/s), for axis
 * labels and table cells alike. Units that already carry a prefix (ms, usec, MB/s) are rescaled
 * from their base; units that take none (%) are left alone. Locale-independent. */
#ifndef TALLY_SI_H
#define TALLY_SI_H

#include <stddef.h>

typedef struct tally__si {
    double factor; /* shown value = value / factor */
    char unit[64]; /* unit to print after shown values, e.g. "ms", "k trans/s", "GB/s", "" */
} tally__si;

/* The prefix for values of about `magnitude` (e.g. the largest absolute value of an axis or a
 * column) in `unit` (NULL or "" for a plain count). A zero, negative or non-finite magnitude
 * keeps the unit as it is (factor 1). */
void tally__si_choose(tally__si *out, double magnitude, const char *unit);

/* x with `digits` significant digits (1..17) and its prefixed unit, e.g. "27.15 ms",
 * "54.00 k trans/s", "0.5" (no unit). Always NUL-terminates `out` (size >= 1). */
void tally__si_format(char *out, size_t size, double x, int digits, const char *unit);

#endif /* TALLY_SI_H */
