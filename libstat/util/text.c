/* Line cursor and strict number parsing for text inputs. Short plain decimals take an exact
 * straight-line path; every other number one pass of the number module (fast_float). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "util/text.h"

void tally__lines_init(tally__lines *l, const char *name, const char *data, size_t len)
{
    l->name = name;
    l->cur = data;
    l->end = data + len;
    l->lineno = 0;
}

int tally__line_too_long(const char *name, unsigned long lineno)
{
    return tally__error_at(TALLY_ELIMIT, name, lineno, 1, "line longer than %u bytes",
                           TALLY__MAX_LINE);
}

int tally__lines_next(tally__lines *l, const char **line, size_t *len)
{
    if (l->cur >= l->end)
        return 0;
    const char *start = l->cur;
    const char *nl = memchr(start, '\n', (size_t)(l->end - start));
    const char *stop = nl ? nl : l->end;
    l->lineno++;
    l->cur = nl ? nl + 1 : l->end;
    size_t n = (size_t)(stop - start);
    if (n > 0 && start[n - 1] == '\r')
        n--;
    if (n > TALLY__MAX_LINE)
        return tally__line_too_long(l->name, l->lineno);
    const char *nul = memchr(start, '\0', n);
    if (nul)
        return tally__error_at(TALLY_EFORMAT, l->name, l->lineno, (unsigned long)(nul - start) + 1,
                               "NUL byte in a text file (is this a binary file?)");
    *line = start;
    *len = n;
    return 1;
}

const char *tally__trim(const char *s, size_t *len)
{
    size_t n = *len;
    while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r')) {
        s++;
        n--;
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    *len = n;
    return s;
}

const char *tally__scan_decimal(double *out, const char *s, const char *end)
{
    const char *stop;
    double v = 0;
    if (tally__number_scan(&v, &stop, s, end, TALLY__NUMBER_TEXT) != TALLY__NUMBER_OK)
        return NULL;
    *out = v;
    return stop;
}

int tally__parse_decimal_fast(double *out, const char *s, size_t len)
{
    double v = 0;
    if (tally__scan_decimal(&v, s, s + len) != s + len)
        return 0;
    *out = v;
    return 1;
}

int tally__parse_double(double *out, const char *s, size_t len)
{
    s = tally__trim(s, &len);
    if (len == 0)
        return TALLY_EPARSE;
    const char *stop;
    double v;
    tally__number_status st = tally__number_scan(&v, &stop, s, s + len, TALLY__NUMBER_TEXT);
    if (st != TALLY__NUMBER_OK)
        return tally__number_code(st);
    if (stop != s + len)
        return TALLY_EPARSE;
    *out = v;
    return TALLY_OK;
}

int tally__parse_double_why(double *out, const char *s, size_t len, const char **problem)
{
    int rc = tally__parse_double(out, s, len);
    *problem = NULL;
    if (rc != TALLY_OK) {
        const char *stop;
        double v;
        s = tally__trim(s, &len);
        tally__number_status st = tally__number_scan(&v, &stop, s, s + len, TALLY__NUMBER_TEXT);
        *problem = tally__number_problem(st == TALLY__NUMBER_OK ? TALLY__NUMBER_SYNTAX : st);
    }
    return rc;
}

/* The longest number text tally__parse_double reads; longer lines go the general way. */
#define NUMBER_MAX TALLY__NUMBER_MAX

const char *tally__number_line_end(const char *line, const char *stop, const char *end)
{
    if (stop == NULL || stop - line > NUMBER_MAX)
        return NULL;
    if (stop == end)
        return end;
    if (*stop == '\n')
        return stop + 1;
    if (*stop == '\r' && end - stop >= 2 && stop[1] == '\n')
        return stop + 2;
    return NULL;
}

/* Where SSE2 is baseline (x86-64), short number lines take the path below. Elsewhere the same
 * checks done with 8-byte words measured slower than the one-line scanner, which they then use. */
#if defined(__SSE2__) && defined(TALLY__SWAR_DIGITS) && defined(TALLY__EXACT_DOUBLE_OPS)
#include <emmintrin.h>
#define SHORT_LINES 1

/* The 16 characters at p as two masks (bit i for p[i]): newlines and non-digits. */
static inline void line_masks16(unsigned *newlines, unsigned *nondigits, const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i nine = _mm_set1_epi8(9);
    /* Digits are the bytes whose distance from '0' is at most 9, unsigned. */
    __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    __m128i digit = _mm_cmpeq_epi8(_mm_max_epu8(d, nine), nine);
    *newlines = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    *nondigits = ~(unsigned)_mm_movemask_epi8(digit) & 0xFFFF;
}

/* A line of nearly every benchmark file, [sign] up to 8 digits [. up to 8 digits] then '\n' or
 * "\r\n", within 16 characters: its end, its shape and its value come from one look at 16
 * characters, without a branch on the digit counts. Needs 18 readable bytes at line. Returns the
 * start of the next line, or NULL for any other line. */
static inline __attribute__((always_inline)) const char *short_number_line(double *out,
                                                                          const char *line)
{
    unsigned newlines, nondigits;
    line_masks16(&newlines, &nondigits, line);
    unsigned len = (unsigned)__builtin_ctz(newlines | 0x10000);
    if (len - 1 >= 15) /* empty, or no newline among the 16 characters */
        return NULL;
    const char *nl = line + len;
    len -= line[len - 1] == '\r';
    int negative = line[0] == '-';
    unsigned sign = negative | (line[0] == '+');
    const char *q = line + sign;
    unsigned chars = len - sign;
    unsigned stops = (nondigits >> sign) & ((1u << chars) - 1);
    /* A branch that files of whole numbers (6675) always take one way, and decimals (6.675717)
     * the other: 1 to 8 digits and nothing else, exact in a double as they are. */
    if (stops == 0 && chars - 1 < 8) {
        double x = (double)(int64_t)tally__digits8_value(tally__load8(q), chars);
        *out = negative ? -x : x;
        return nl + 1;
    }
    unsigned k = (unsigned)__builtin_ctz(stops | 1u << chars); /* digits before the point */
    unsigned point = k < chars;
    unsigned fraction = chars - k - point;
    /* One point at most, nothing else; 1..15 digits, so w below 10^15 < 2^53 is exact. */
    unsigned bad = (stops & (stops - 1)) | (point & (q[k] != '.')) | (k > 8) | (fraction > 8) |
                   (k + fraction - 1 >= 15);
    if (bad)
        return NULL;
    /* Here the point is at q[k] (a line of digits alone took the branch above or is bad): up
     * to 8 digits around it (6.675717) take one conversion. */
    uint64_t w;
    if (k + fraction <= 8) {
        w = tally__digits_around_point(q, k, fraction);
    } else {
        w = tally__digits8_value(tally__load8(q), k) * tally__pow10_u64[fraction] +
            tally__digits8_value(tally__load8(q + k + 1), fraction);
    }
    double x = (double)(int64_t)w / tally__exact_pow10[fraction]; /* Clinger: one rounding */
    *out = negative ? -x : x;
    return nl + 1;
}
#endif /* __SSE2__ && TALLY__SWAR_DIGITS && TALLY__EXACT_DOUBLE_OPS */

/* One line of just a number at *at, through the short-line path where the target has it, else
 * the scanner: 1 with *out set and *at at the next line, or 0 for any other line. */
static inline int number_line(double *out, const char **at, const char *end, int simd)
{
    const char *p = *at, *next = NULL, *stop = NULL;
    double v;
#ifdef SHORT_LINES
    if (simd && end - p >= 18) {
        next = short_number_line(out, p);
        /* The short-line shape covers the scanner's short path: the rest goes straight to its
         * long path (repr's 17 digits), else to the whole number module. */
        if (next == NULL && end - p >= TALLY__NUMBER_LONG_READ)
            stop = tally__number_scan_long(&v, p);
        if (next == NULL && stop == NULL &&
            tally__number_scan(&v, &stop, p, end, TALLY__NUMBER_TEXT) != TALLY__NUMBER_OK)
            return 0;
    }
#else
    (void)simd;
#endif
    if (next == NULL) {
        if (stop == NULL)
            stop = tally__scan_decimal(&v, p, end);
        next = tally__number_line_end(p, stop, end);
        if (next == NULL)
            return 0;
        *out = v;
    }
    *at = next;
    return 1;
}

#ifdef SHORT_LINES
/* The lines far enough from the end for both straight-line paths, while one of them takes
 * them: the short path, or runs of lines on the scanner's long path (repr's 17 digits, %.7e),
 * which stay there as long as it takes them. Stops before the first line neither takes. */
static inline size_t straight_lines(double *out, size_t room, const char **at, const char *end)
{
    const char *p = *at;
    size_t n = 0;
    while (n < room && end - p >= TALLY__NUMBER_LONG_READ) {
        const char *next = short_number_line(&out[n], p);
        if (next != NULL) {
            n++;
            p = next;
            continue;
        }
        size_t got = tally__number_long_lines(&out[n], room - n, &p, end);
        if (got == 0)
            break;
        n += got;
    }
    *at = p;
    return n;
}
#endif

static inline size_t number_lines(double *out, size_t room, const char **at, const char *end,
                                  int simd)
{
    const char *p = *at;
    size_t n = 0;
    while (n < room && p < end) {
#ifdef SHORT_LINES
        if (simd) {
            n += straight_lines(&out[n], room - n, &p, end);
            if (n == room || p == end)
                break;
        }
#endif
        if (!number_line(&out[n], &p, end, simd))
            break;
        n++;
    }
    *at = p;
    return n;
}

size_t tally__number_lines(double *out, size_t room, const char **at, const char *end)
{
    return number_lines(out, room, at, end, 1);
}

size_t tally__number_lines_portable(double *out, size_t room, const char **at, const char *end)
{
    return number_lines(out, room, at, end, 0);
}
