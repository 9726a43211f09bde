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

/* How the numbers of one cell, row or column are shown: the SI prefix of their unit and the
 * decimals their spread justifies. One helper for every human format (text styles, Markdown,
 * HTML, XLSX number formats), so a value reads the same everywhere. */
typedef struct tally__numfmt {
    tally__si si; /* shown number = value / si.factor, followed by si.unit */
    int decimals; /* digits after the decimal point (0..17) */
    int sci;      /* > 0: scientific notation with this many significant digits instead (values
                   * too small for 17 decimals, down to the smallest double); 0: decimals */
} tally__numfmt;

/* Significant digits of a value whose spread is unknown (benchstat's choice). */
#define TALLY__NUMFMT_DIGITS 4

/* Choose how to show values of about `magnitude` (the largest |value| of what is shown
 * together) with an uncertainty `spread` (a confidence interval's half-width or a standard
 * deviation; 0, negative or NaN when unknown) in `unit` (NULL or "" for a plain number):
 * - the prefix: with `prefixed` 1 the one tally__si_choose picks for `magnitude`, else none
 *   (factor 1, the unit as given);
 * - the decimals: with `precision` >= 0 exactly that many (at most 17); else the decimals
 *   that show the spread with 2 significant digits, kept between 3 and 7 significant digits of
 *   the magnitude; without a spread, TALLY__NUMFMT_DIGITS significant digits. Values below 1
 *   in the shown unit count their leading zeros as decimals (0.0002715 keeps 4 digits). */
void tally__numfmt_choose(tally__numfmt *f, double magnitude, double spread, const char *unit,
                          int prefixed, int precision);

/* The decimals that give `x` (|x| in the shown unit) `digits` significant digits: 4 for 27.15,
 * 7 for 0.0002715 (digits 4), 0 for 1234567; 0 for a zero or non-finite x. At most 17. */
int tally__numfmt_sig_decimals(double x, int digits);

/* The same without the bound of 17: 21 for 1.234e-18 (digits 4), 327 for 2.2e-308. */
int tally__numfmt_sig_decimals_raw(double x, int digits);

/* x with `decimals` decimals ("%.*f", a point whatever the locale), or, with decimals < 0, in
 * scientific notation with -decimals significant digits ("1.234e-18"): how the seed layouts
 * print values too small for 17 decimals. NUL-terminates `out`; returns the length. */
size_t tally__format_fixed(char *out, size_t size, int decimals, double x);

/* x as `f` shows it, without the unit: x / factor with f->decimals decimals, '.' as the
 * separator whatever the locale, "nan", "inf" or "-inf" when not finite, and never "-0.00"
 * (a negative value that rounds to zero prints as zero). Always NUL-terminates `out`
 * (size >= 1); returns the length written. */
size_t tally__numfmt_number(char *out, size_t size, const tally__numfmt *f, double x);

/* x with `digits` significant digits (1..17) and its prefixed unit, e.g. "27.15 ms",
 * "54.00 k trans/s", "0.5" (no unit). Always NUL-terminates `out` (size >= 1). */
void tally__si_format(char *out, size_t size, double x, int digits, const char *unit);

#endif /* TALLY_SI_H */
