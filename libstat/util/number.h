/* Number conversion for every reader and writer (docs/formats.md, "Numbers"): one grammar, one
 * length limit, correctly rounded parsing and shortest round-trip printing, independent of the
 * process's locale. */
#ifndef TALLY_NUMBER_H
#define TALLY_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* Longest number text any reader accepts, in characters (sign and exponent included): room for
 * the up to 767 significant digits an exact decimal of a double can need, leading zeros and an
 * exponent. */
#define TALLY__NUMBER_MAX 1024

/* Room for any number tally__number_format writes, with its NUL. */
#define TALLY__NUMBER_BUF 32

/* Grammars. TEXT (plain, CSV/TSV, importers of text output, the runner's child protocol):
 * [+-] digits [. [digits]] or [+-] . digits, then an optional exponent [eE] [+-] digits.
 * JSON (RFC 8259): [-] (0 | [1-9] digits) [. digits] [[eE] [+-] digits]. Neither has hex,
 * nan, inf, or digit separators. */
enum { TALLY__NUMBER_TEXT = 0, TALLY__NUMBER_JSON = 1 };

/* Why a number was refused. */
typedef enum tally__number_status {
    TALLY__NUMBER_OK = 0,
    TALLY__NUMBER_SYNTAX = 1,    /* no number of the grammar at the start */
    TALLY__NUMBER_NONFINITE = 2, /* nan or inf spelled out (TEXT only) */
    TALLY__NUMBER_OVERFLOW = 3,  /* beyond the largest double (1e309) */
    TALLY__NUMBER_UNDERFLOW = 4, /* not zero, but below half the smallest subnormal (1e-400) */
    TALLY__NUMBER_TOO_LONG = 5   /* more than TALLY__NUMBER_MAX characters */
} tally__number_status;

/* Scan the longest number of `grammar` at s (reading nothing at or past `end`): on success
 * *out is the correctly rounded double, *stop the first character after the number, and the
 * result TALLY__NUMBER_OK. On failure *out is untouched and *stop is where the number's
 * characters end (for messages). The caller checks what follows the number. */
tally__number_status tally__number_scan(double *out, const char **stop, const char *s,
                                        const char *end, int grammar);

/* Readable bytes tally__number_scan_long needs at s. */
#define TALLY__NUMBER_LONG_READ 56

/* The straight-line part of tally__number_scan for the long plain decimals of real files
 * ([sign] digits [. digits] [e [sign] 1 to 3 digits], 1 to 19 significant digits, ending within
 * 32 characters after the sign, such as Python's repr of a double or %.7e): its end with *out
 * set, or NULL
 * for any other number, which tally__number_scan then reads. TEXT grammar; reads
 * TALLY__NUMBER_LONG_READ bytes at s whatever the number, so the caller checks that they are
 * there. On targets without the straight-line scans it always returns NULL. */
const char *tally__number_scan_long(double *out, const char *s);

/* Lines that hold just a number of tally__number_scan_long's shape, many at a time, the bulk
 * path of plain files of repr or %.7e numbers (util/text.c): from *at, while
 * TALLY__NUMBER_LONG_READ bytes are left, each line "number\n" or "number\r\n" that
 * tally__number_scan_long takes, with its value, into out[0..room). Stops at the first other
 * line or when out is full; returns how many it stored, *at then the start of the next line.
 * On targets without the straight-line scans it stores none. */
size_t tally__number_long_lines(double *out, size_t room, const char **at, const char *end);

/* tally__number_scan with the JSON grammar for the elements of big number arrays, whose
 * numbers are mostly long (a hyperfine time, 0.005981193679999999): tally__number_scan_long
 * first, so that such a number does not pay for the failed look of the short numbers first.
 * Same results, *stop and refusals as tally__number_scan(out, stop, s, end,
 * TALLY__NUMBER_JSON). */
tally__number_status tally__number_scan_json(double *out, const char **stop, const char *s,
                                             const char *end);

/* The bulk path of big JSON number arrays (util/json_split.c): from *at, the start of an
 * element, while TALLY__NUMBER_LONG_READ bytes are left, each element that is a number of the
 * shapes the straight-line scans take (JSON's grammar) followed by optional white space, a
 * comma and optional white space, with its value, into out[0..room). Stops at the first other
 * element (a number of another shape, the last one, anything that is not a number) or when out
 * is full; returns how many it stored, *at then the start of the element it did not take, for
 * tally__number_scan_json. On targets without the straight-line scans it stores none. */
size_t tally__number_json_elements(double *out, size_t room, const char **at, const char *end);

/* The message part for a refusal: "expected a number", "expected a finite number",
 * "number out of range (beyond 1.8e308)", ... */
const char *tally__number_problem(tally__number_status st);

/* The library's tally_error code for a refusal: TALLY_EPARSE for syntax and length,
 * TALLY_ENONFINITE for nan, inf and out-of-range values. */
int tally__number_code(tally__number_status st);

/* Shortest decimal text that reads back as exactly `x` (finite), written to out (room for
 * TALLY__NUMBER_BUF bytes) with its NUL; returns its length. The digits are the shortest that
 * round-trip, nearest to x (Dragonbox, as Python's repr); the layout is printf's %g with as
 * many digits, at least 15: positional when the decimal exponent X satisfies -4 <= X < max(15,
 * digits), else d.ddde[+-]XX. "-0" keeps its sign. */
size_t tally__number_format(char *out, double x);

/* ---- the C++ parts (number_cxx.cc), behind plain C entry points ---- */

/* fast_float's from_chars on s[0..len), which the caller has checked to be a decimal of the
 * TEXT grammar without a leading '+'. Returns the correctly rounded value (inf on overflow, 0 on
 * underflow). */
double tally__number_from_chars(const char *s, size_t len);

/* fast_float's from_chars on the longest decimal at s (before end), which the caller has
 * checked to start with a digit or a point: its end with *out set (inf on overflow, 0 on
 * underflow), or NULL when there is none. It reads the TEXT grammar without sign; JSON's extra
 * rules are the caller's to check. */
const char *tally__number_from_chars_prefix(double *out, const char *s, const char *end);

/* w * 10^exponent correctly rounded by fast_float's Eisel-Lemire step, for an exact w of at
 * most 19 digits: 1 with *out set, or 0 in the rare cases that step leaves undecided (the
 * caller then converts the text). The number module's fast path for long decimals. */
int tally__number_from_decimal(double *out, uint64_t w, int exponent);

/* Dragonbox's shortest decimal of a finite, non-zero |x|: x = digits * 10^exponent, digits
 * without trailing zeros. */
void tally__number_shortest(double x, unsigned long long *digits, int *exponent);

#endif /* TALLY_NUMBER_H */
