/* Helpers for line-oriented text inputs: a line cursor that knows line numbers and a strict
 * number parser. Used by every text importer, so error positions are reported the same way. */
#ifndef TALLY_TEXT_H
#define TALLY_TEXT_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Longest accepted line; a longer one is an error (TALLY_ELIMIT), not a silent cut. */
#define TALLY__MAX_LINE (1u << 20)

typedef struct tally__lines {
    const char *name;     /* file name for messages */
    const char *cur;      /* start of the next line */
    const char *end;      /* end of input */
    unsigned long lineno; /* number of the line last returned (1-based) */
} tally__lines;

void tally__lines_init(tally__lines *l, const char *name, const char *data, size_t len);

/* Next line without its "\n" or "\r\n". Returns 1 with a line, 0 at the end of input, or a
 * negative error (line too long, NUL byte) already recorded with its position. */
int tally__lines_next(tally__lines *l, const char **line, size_t *len);

/* The error of a line longer than TALLY__MAX_LINE, at name:lineno:1 (TALLY_ELIMIT). */
int tally__line_too_long(const char *name, unsigned long lineno);

/* Parse all of s[0..len) as a finite double (leading/trailing blanks allowed). Returns TALLY_OK,
 * TALLY_EPARSE (not a number, or longer than TALLY__NUMBER_MAX) or TALLY_ENONFINITE (nan, inf,
 * overflow, underflow); records nothing, so the
 * caller can report the position it knows. */
int tally__parse_double(double *out, const char *s, size_t len);

/* The same, and on failure *problem = the message part saying why ("expected a number",
 * "number out of range (...)", ...: tally__number_problem), for messages that quote the text. */
int tally__parse_double_why(double *out, const char *s, size_t len, const char **problem);

/* The scanner below on all of s[0..len) (no blanks): 1 with *out set when s is one number of
 * the TEXT grammar within range, else 0 with *out untouched (the caller's general path then
 * reports the error). */
int tally__parse_decimal_fast(double *out, const char *s, size_t len);

/* Parses the longest number of the TEXT grammar at s (before `end`) and returns the first
 * character after it with *out set, or NULL (with *out untouched) when there is none or it is
 * refused (out of range, too long). Short plain decimals, the shape of nearly every benchmark
 * file, take a straight-line exact path; the rest one pass of the number module. Reads nothing
 * at or past `end`. */
const char *tally__scan_decimal(double *out, const char *s, const char *end);

/* Where a line that holds just a number ends, given where the number scanned from its start
 * stopped (NULL: no number): the start of the next line (or `end` for a last line without
 * newline), or NULL when the line holds more than the number, or the number is longer than
 * tally__parse_double accepts. */
const char *tally__number_line_end(const char *line, const char *stop, const char *end);

/* Clinger's exact conversion (w / 10^k, both exact doubles: one rounding) is only exact under
 * strict double evaluation (FLT_EVAL_METHOD 0; x87's extended precision would round twice). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define TALLY__EXACT_DOUBLE_OPS 1
#endif

/* Exact powers of ten for the short number paths (at most 8 fraction digits). */
static const double tally__exact_pow10[9] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8 };
static const uint64_t tally__pow10_u64[9] = { 1,      10,      100,      1000,     10000,
                                              100000, 1000000, 10000000, 100000000 };

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define TALLY__SWAR_DIGITS 1
static inline uint64_t tally__load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Eight characters at a time, as one little-endian word (first character in the low byte).
 * Inline: they sit in the innermost loops of the number readers. */
#define TALLY__BYTES(b) (UINT64_C(0x0101010101010101) * (b))

/* Bit 7 of each byte of v set where the character is not a digit. With bit 7 forced on,
 * subtracting '0' leaves it on exactly for bytes >= '0'; with bit 7 cleared, adding 0x46 turns it
 * on exactly for bytes >= ':'; bytes >= 0x80 are never digits. Neither step can borrow or carry
 * into the next byte, so every byte is judged alone. */
static inline uint64_t tally__nondigit_flags(uint64_t v)
{
    uint64_t at_least_0 = (v | TALLY__BYTES(0x80)) - TALLY__BYTES('0');
    uint64_t above_9 = (v & TALLY__BYTES(0x7F)) + TALLY__BYTES(0x80 - ':');
    return (~at_least_0 | above_9 | v) & TALLY__BYTES(0x80);
}

/* How many of the 8 characters are digits before the first non-digit (0..8). */
static inline size_t tally__leading_digits8(uint64_t v)
{
    uint64_t flag = tally__nondigit_flags(v);
    return flag ? (size_t)__builtin_ctzll(flag) / 8 : 8;
}

/* Bit i set when the i-th character of v is not a digit: the flags gathered into one byte by a
 * multiplication in which every partial product lands on its own bit, so nothing carries. */
static inline unsigned tally__nondigit_bits(uint64_t v)
{
    return (unsigned)(((tally__nondigit_flags(v) >> 7) * UINT64_C(0x0102040810204080)) >> 56);
}

/* The value of the first k (0..8) digits. Shifting the digits to the top leaves k digits behind
 * 8 - k leading zeros (the borrows of the subtraction only reach the non-digit bytes shifted
 * out; two half shifts so that k = 0 shifts everything out without a 64-bit shift); then three
 * multiply-adds join neighbours: bytes become pairs (10 a + b), 16-bit lanes quadruples
 * (100 ab + cd), and the two 32-bit halves the result. */
static inline uint64_t tally__digits8_value(uint64_t v, size_t k)
{
    unsigned half = (unsigned)(4 * (8 - k));
    uint64_t d = (v - TALLY__BYTES('0')) << half << half;
    d = d * 10 + (d >> 8);
    d = (d & UINT64_C(0x00FF00FF00FF00FF)) * 100 + ((d >> 16) & UINT64_C(0x00FF00FF00FF00FF));
    d &= UINT64_C(0x0000FFFF0000FFFF);
    return (d & 0xFFFF) * 10000 + (d >> 32);
}

/* The value of k digits, a point at p[k], then fraction digits (k + fraction <= 8): the k
 * digits before the point and those after it moved down a byte make one word without the
 * point, one conversion instead of two (leading zeros add nothing). Reads p[0..8]. */
static inline uint64_t tally__digits_around_point(const char *p, unsigned k, unsigned fraction)
{
    uint64_t before = ~(~UINT64_C(0) << (4 * k) << (4 * k)); /* the low k bytes */
    return tally__digits8_value((tally__load8(p) & before) | (tally__load8(p + 1) & ~before),
                                k + fraction);
}
#endif

/* Lines that hold just a number, many at a time: from *at, reads each line "number\n" (or
 * "number\r\n", or a last line without newline) that tally__scan_decimal and
 * tally__number_line_end accept, with the same value, into out[0..room). Stops at the first other
 * line (blank, comment, blanks, another number form, an error: the caller's general path reads
 * it) or when out is full. Returns how many it stored; *at is then the start of the next line. */
size_t tally__number_lines(double *out, size_t room, const char **at, const char *end);

/* The same through the one-line scanner only: the code path of targets without SSE2, built
 * everywhere so that the tests run it. */
size_t tally__number_lines_portable(double *out, size_t room, const char **at, const char *end);

/* Trim blanks (space, tab, \r) from both ends of s[0..*len); returns the new start. */
const char *tally__trim(const char *s, size_t *len);

#endif /* TALLY_TEXT_H */
