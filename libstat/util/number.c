/* Number conversion (number.h): the grammar and its limits here, the correctly rounded
 * conversion in fast_float and the shortest digits in Dragonbox (number_cxx.cc). Nothing here
 * reads the process's locale. */
#include <math.h>
#include <string.h>

#include "util/internal.h"
#include "util/json_util.h"
#include "util/number.h"
#include "util/text.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static const char *digits_end(const char *p, const char *end, int *nonzero)
{
    int nz = 0;
    for (; p < end && is_digit(*p); p++)
        nz |= *p != '0';
    *nonzero |= nz;
    return p;
}

/* nan, inf or infinity (any case) at p: where the word ends, or NULL. */
static const char *nonfinite_word(const char *p, const char *end)
{
    static const char *const words[] = { "infinity", "inf", "nan" };
    for (size_t w = 0; w < TALLY__COUNT(words); w++) {
        size_t n = strlen(words[w]), i = 0;
        while (i < n && p + i < end && (p[i] | 0x20) == words[w][i])
            i++;
        if (i == n)
            return p + n;
    }
    return NULL;
}

/* The grammar character by character: it finds exactly where a refused number ends and why. */
static tally__number_status scan_careful(double *out, const char **stop, const char *s,
                                         const char *end, int grammar)
{
    const char *p = s;
    int json = grammar == TALLY__NUMBER_JSON;
    int negative = 0;
    if (p < end && (*p == '-' || (*p == '+' && !json)))
        negative = *p++ == '-';
    const char *digits = p;
    int nonzero = 0;
    p = digits_end(p, end, &nonzero);
    size_t whole = (size_t)(p - digits), fraction = 0;
    *stop = p;
    if (json && (whole == 0 || (whole > 1 && *digits == '0')))
        return TALLY__NUMBER_SYNTAX; /* JSON wants digits first, and no leading zero */
    if (p < end && *p == '.') {
        const char *f = p + 1;
        const char *q = digits_end(f, end, &nonzero);
        fraction = (size_t)(q - f);
        if (json && fraction == 0) {
            *stop = q;
            return TALLY__NUMBER_SYNTAX; /* "5." */
        }
        if (whole + fraction > 0)
            p = q;
    }
    if (whole + fraction == 0) {
        const char *w = json ? NULL : nonfinite_word(digits, end);
        *stop = w ? w : s;
        return w ? TALLY__NUMBER_NONFINITE : TALLY__NUMBER_SYNTAX;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        if (q < end && is_digit(*q)) {
            int ignored = 0;
            p = digits_end(q, end, &ignored);
        } else if (json) {
            *stop = q;
            return TALLY__NUMBER_SYNTAX;
        }
        /* TEXT: "1e" is the number 1 followed by "e", which the caller refuses. */
    }
    *stop = p;
    if (p - s > TALLY__NUMBER_MAX)
        return TALLY__NUMBER_TOO_LONG;
    double v = nonzero ? tally__number_from_chars(digits, (size_t)(p - digits)) : 0.0;
    if (isinf(v))
        return TALLY__NUMBER_OVERFLOW;
    if (nonzero && v == 0.0)
        return TALLY__NUMBER_UNDERFLOW;
    *out = negative ? -v : v;
    return TALLY__NUMBER_OK;
}

#if defined(TALLY__SWAR_DIGITS) && defined(TALLY__EXACT_DOUBLE_OPS)
/* Readable bytes the straight-line scans below need at s: scan_short looks at 20, scan_long at
 * 1 + 32 and reads 24 from its first significant digit (among the first 1 + 31). */
#define SHORT_READ 20
#define LONG_READ TALLY__NUMBER_LONG_READ

/* The shape of nearly every number in benchmark files, [sign] up to 7 digits [. up to 7 digits]
 * without exponent, in straight-line code: the positions of the point and of the end come from
 * one look at 16 characters, the value from two 8-digit conversions and Clinger's exact
 * division. Needs SHORT_READ readable bytes at s. Returns NULL for any other shape, which the
 * general scan then reads (*longer set when only the digit counts were beyond it or an
 * exponent follows, the shapes of scan_long); the caller checks JSON's stricter rules. */
static const char *scan_short(double *out, int *longer, const char *s)
{
    int negative = *s == '-';
    const char *p = s + (negative || *s == '+');
    uint64_t a = tally__load8(p);
    unsigned stops = tally__nondigit_bits(a) | tally__nondigit_bits(tally__load8(p + 8)) << 8;
    unsigned k = (unsigned)__builtin_ctz(stops | 0x10000); /* digits before the point */
    *longer = 1;
    if (k >= 8)
        return NULL;
    unsigned fraction = 0;
    const char *stop = p + k;
    if ((char)(a >> (8 * k)) == '.') {
        fraction = (unsigned)__builtin_ctz((stops >> (k + 1)) | 0x10000);
        if (fraction >= 8)
            return NULL;
        stop += 1 + fraction;
    }
    *longer = 0;
    if (k + fraction == 0)
        return NULL;
    if (*stop == 'e' || *stop == 'E') {
        *longer = 1; /* an exponent: the shape of scan_long */
        return NULL;
    }
    uint64_t w = k ? tally__digits8_value(a, k) : 0;
    if (fraction)
        w = w * tally__pow10_u64[fraction] + tally__digits8_value(tally__load8(p + k + 1), fraction);
    /* w has at most 14 digits, below 2^53: exact, like 10^fraction. */
    double x = (double)w / tally__exact_pow10[fraction];
    *out = negative ? -x : x;
    return stop;
}

/* Powers of ten up to the 19 digits a uint64_t holds whatever they are. */
static const uint64_t pow10_19[20] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u,
    UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
    UINT64_C(10000000000000), UINT64_C(100000000000000), UINT64_C(1000000000000000),
    UINT64_C(10000000000000000), UINT64_C(100000000000000000),
    UINT64_C(1000000000000000000), UINT64_C(10000000000000000000)
};

/* The 32 characters at p as two masks (bit i for p[i]): non-digits, and characters other than
 * '0'. */
#ifdef __SSE2__
#include <emmintrin.h>
static inline void masks32(uint64_t *nondigits, uint64_t *nonzeros, const char *p)
{
    __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    /* Digits are the bytes whose distance from '0' is at most 9, unsigned. */
    __m128i dlo = _mm_sub_epi8(lo, zero), dhi = _mm_sub_epi8(hi, zero);
    unsigned digits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(dlo, nine), nine)) |
                      (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(dhi, nine), nine))
                          << 16;
    unsigned zeros = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, zero)) |
                     (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, zero)) << 16;
    *nondigits = (uint64_t)~digits & 0xFFFFFFFFu;
    *nonzeros = (uint64_t)~zeros & 0xFFFFFFFFu;
}
#else
static inline void masks32(uint64_t *nondigits, uint64_t *nonzeros, const char *p)
{
    uint64_t nd = 0, nz = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t v = tally__load8(p + 8 * i), x = v ^ TALLY__BYTES('0');
        /* Bit 7 of each byte set where x is not zero (no carry crosses a byte), then gathered
         * into one byte as in tally__nondigit_bits. */
        uint64_t flags = (((x & TALLY__BYTES(0x7F)) + TALLY__BYTES(0x7F)) | x) & TALLY__BYTES(0x80);
        nd |= (uint64_t)tally__nondigit_bits(v) << (8 * i);
        nz |= (((flags >> 7) * UINT64_C(0x0102040810204080)) >> 56) << (8 * i);
    }
    *nondigits = nd;
    *nonzeros = nz;
}
#endif

/* The value of the n (at most 19) digits at p, reading 24 bytes. Without a branch on n: the
 * digit counts of repr's output vary from line to line. */
static inline uint64_t digits19_value(const char *p, unsigned n)
{
    unsigned n0 = n < 8 ? n : 8, n1 = n < 8 ? 0 : n < 16 ? n - 8 : 8, n2 = n < 16 ? 0 : n - 16;
    uint64_t v = tally__digits8_value(tally__load8(p), n0);
    v = v * pow10_19[n1] + tally__digits8_value(tally__load8(p + 8), n1);
    return v * pow10_19[n2] + tally__digits8_value(tally__load8(p + 16), n2);
}

#if defined(__SSE2__) && defined(__x86_64__)
/* The value of the 16 digits at p, the first the most significant: pairs, then groups of four,
 * then of eight, by multiply-adds of 16-bit lanes (SSE2 has no multiply-add of bytes). */
static inline uint64_t digits16_value(const char *p)
{
    __m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p),
                             _mm_set1_epi8('0'));
    /* As 16-bit lanes d holds a + 256 b for the digits a, b of a pair: 10 (a + 256 b) keeps 10 a
     * in its low byte (no carry: 10 a <= 90), b is the high byte of d. */
    __m128i pairs = _mm_add_epi16(_mm_and_si128(_mm_mullo_epi16(d, _mm_set1_epi16(10)),
                                                _mm_set1_epi16(0xFF)),
                                  _mm_srli_epi16(d, 8));
    __m128i fours = _mm_madd_epi16(pairs, _mm_setr_epi16(100, 1, 100, 1, 100, 1, 100, 1));
    __m128i eights = _mm_madd_epi16(_mm_packs_epi32(fours, fours),
                                    _mm_setr_epi16(10000, 1, 10000, 1, 10000, 1, 10000, 1));
    uint64_t both = (uint64_t)_mm_cvtsi128_si64(eights);
    return (both & 0xFFFFFFFFu) * 100000000u + (both >> 32);
}
#define DIGITS16(p) digits16_value(p)
#else
#define DIGITS16(p) (tally__digits8_value(tally__load8(p), 8) * 100000000u + \
                     tally__digits8_value(tally__load8((p) + 8), 8))
#endif

/* The value of the top (0 to 3) digits at from: four characters in one word (within the long
 * path's look), the top ones moved to its high end so that the others leave it, then pairs and
 * the pair of pairs as in tally__digits8_value. No borrow crosses into the digits' bytes: they
 * are the low ones, and '0' or above. */
static inline uint64_t top_digits(const char *from, unsigned top)
{
    uint32_t w;
    memcpy(&w, from, sizeof w);
    uint64_t d = ((uint64_t)(w - UINT32_C(0x30303030)) << (8 * (4 - top))) & 0xFFFFFFFFu;
    d = d * 10 + (d >> 8); /* bytes 0 and 2: the pairs */
    return (d & 0xFF) * 100 + ((d >> 16) & 0xFF);
}

/* The digits of a long decimal as one integer, below 10^19 < 2^64: exact. Leading zeros are
 * skipped, so that the digits of 0.00716... take the one conversion of the fraction's
 * significant digits. k: digits before the point, first: the first significant digit. */
static inline __attribute__((always_inline)) uint64_t long_digits(const char *p, unsigned k,
                                                                  unsigned fraction,
                                                                  unsigned first,
                                                                  unsigned significant)
{
    if (first > k && significant >= 16) {
        /* repr's 0.00xxx of 16 to 19 digits, one run ending at p + k + 1 + fraction: two whole
         * words from its end and the 0 to 3 digits before them. */
        const char *last = p + k + 1 + fraction;
        return top_digits(p + first, significant - 16) * UINT64_C(10000000000000000) +
               DIGITS16(last - 16);
    }
    if (fraction > 0 && k + fraction <= 8) /* a 6-decimal timing, 91.062067: one conversion */
        return tally__digits_around_point(p, k, fraction);
    if (first < k && k - first <= 8 && fraction <= 8) /* %.7e's d.ddddddd: two conversions */
        return tally__digits8_value(tally__load8(p + first), k - first) * pow10_19[fraction] +
               tally__digits8_value(tally__load8(p + k + 1), fraction);
    if (first < k)
        return digits19_value(p + first, k - first) * pow10_19[fraction] +
               digits19_value(p + k + 1, fraction);
    return digits19_value(p + first, significant);
}

/* Powers of ten that are exact doubles (5^22 < 2^53). */
static const double exact_pow10_22[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                           1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                           1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* w * 10^exponent correctly rounded, as tally__number_from_decimal. Clinger's fast path first:
 * when w (at most 2^53) and 10^|exponent| (at most 10^22) are exact doubles, the one product or
 * quotient is the correctly rounded value under strict double evaluation (every %.7e number,
 * and the repr numbers of 16 digits below 2^53); Eisel-Lemire for the others. */
static inline int decimal_value(double *out, uint64_t w, int exponent)
{
    if (w > UINT64_C(1) << 53 || exponent < -22 || exponent > 22)
        return tally__number_from_decimal(out, w, exponent);
    double x = (double)(int64_t)w;
    *out = exponent < 0 ? x / exact_pow10_22[-exponent] : x * exact_pow10_22[exponent];
    return 1;
}

/* scan_long's numbers with an exponent, out of its line so that the digits-only numbers of
 * repr keep their straight line: an exponent of 1 to 3 digits ending within the look (%.7e's
 * "e-06", %.17g's "e+300") after the mantissa p..p+end. Anything else (no digits, more, "5.e3"
 * which JSON refuses, a value beyond the double range or below its smallest subnormal, which
 * the general scan reports as an overflow or underflow) returns NULL. */
static __attribute__((noinline)) const char *long_exponent(double *out, const char *p,
                                                           unsigned end, uint64_t nondigits,
                                                           unsigned k, unsigned point,
                                                           unsigned fraction, unsigned first,
                                                           unsigned significant, int negative)
{
    unsigned at = end + 1 + (p[end + 1] == '-' || p[end + 1] == '+');
    unsigned digits = at < 32 ? (unsigned)__builtin_ctzll(nondigits >> at) : 0;
    if ((point && fraction == 0) || digits == 0 || digits > 3 || at + digits >= 32)
        return NULL;
    int e = 0;
    for (unsigned i = 0; i < digits; i++)
        e = e * 10 + (p[at + i] - '0');
    double x;
    if (!decimal_value(&x, long_digits(p, k, fraction, first, significant),
                       (p[end + 1] == '-' ? -e : e) - (int)fraction) ||
        isinf(x) || x == 0.0)
        return NULL;
    *out = negative ? -x : x;
    return p + at + digits;
}

/* The other decimals of real files, [sign] digits [. digits] [e [sign] 1 to 3 digits] with at
 * most 19 significant digits (the 17 of a double's repr), such as 0.0071656633603720855 or
 * 6.6757172e-06: the digits become one exact integer w and the number w * 10^(exponent -
 * fraction), which Clinger's fast path or fast_float's Eisel-Lemire step rounds correctly
 * (decimal_value) without scanning the text a second time. Needs LONG_READ readable bytes at s.
 * Returns NULL for any other shape (more digits, a longer exponent, a zero, a value beyond the
 * double range, the rare value Eisel-Lemire cannot settle), which the general scan then reads;
 * the caller checks JSON's stricter rules. */
static inline __attribute__((always_inline)) const char *scan_long(double *out,
                                                                   const char *s)
{
    int negative = *s == '-';
    const char *p = s + (negative || *s == '+');
    uint64_t nondigits, nonzeros;
    masks32(&nondigits, &nonzeros, p);
    /* Beyond the look: the end of a number too long here, and a significant digit there. */
    nondigits |= UINT64_C(1) << 32;
    nonzeros |= UINT64_C(1) << 32;
    unsigned k = (unsigned)__builtin_ctzll(nondigits), fraction = 0; /* digits before the point */
    if (k >= 32)
        return NULL;
    unsigned end = k; /* where the number ends, from p */
    unsigned point = p[k] == '.';
    if (point) {
        fraction = (unsigned)__builtin_ctzll(nondigits >> (k + 1));
        end = k + 1 + fraction;
    }
    /* The first significant digit: neither a '0' nor the point. */
    unsigned first = (unsigned)__builtin_ctzll(nonzeros & ~(UINT64_C(1) << k));
    unsigned significant = end - first - (point & (first < k));
    if (end >= 32 || first >= end || significant > 19)
        return NULL; /* longer than the look, a zero (the general scan tells 0 from an
                      * underflow), more digits than a uint64_t holds */
    if (p[end] == 'e' || p[end] == 'E')
        return long_exponent(out, p, end, nondigits, k, point, fraction, first, significant,
                             negative);
    double x;
    if (!decimal_value(&x, long_digits(p, k, fraction, first, significant), -(int)fraction))
        return NULL;
    *out = negative ? -x : x;
    return p + end;
}

const char *tally__number_scan_long(double *out, const char *s)
{
    return scan_long(out, s);
}

/* The shape of the number at p that one look at 32 characters gives, for long_line and
 * json_element (scan_long's, with everything beyond the look a non-digit and a significant
 * digit): k digits before the point (or the end), the point or not, the digits after it, the
 * end, the first significant digit, how many there are. */
typedef struct long_shape {
    uint64_t nondigits;
    unsigned k, point, after, end, first, significant;
} long_shape;

static inline __attribute__((always_inline)) void long_shape_of(long_shape *sh, const char *p)
{
    uint64_t nonzeros;
    masks32(&sh->nondigits, &nonzeros, p);
    sh->nondigits |= ~UINT64_C(0) << 32;
    nonzeros |= ~UINT64_C(0) << 32;
    unsigned k = (unsigned)__builtin_ctzll(sh->nondigits);
    sh->k = k;
    sh->point = p[k] == '.';
    sh->after = (unsigned)__builtin_ctzll(sh->nondigits >> (k + 1));
    sh->end = sh->point ? k + 1 + sh->after : k;
    sh->first = (unsigned)__builtin_ctzll(nonzeros & ~(UINT64_C(1) << k));
    sh->significant = sh->end - sh->first - (sh->point & (sh->first < k));
}

/* Whether the shape ends within the look with 1 to 19 significant digits (none: significant is
 * 0, or wraps when the zeros run to the end). */
static inline int long_shape_fits(const long_shape *sh)
{
    return (sh->end < 32) & (sh->significant - 1 <= 18);
}

/* The value of a fitting shape's digits: Clinger's division inline where it applies (as
 * decimal_value), else Eisel-Lemire; 0 when that cannot settle it. */
static inline __attribute__((always_inline)) int long_value(double *out, const char *p,
                                                           const long_shape *sh, int negative)
{
    unsigned fraction = sh->end - sh->k - sh->point;
    uint64_t w = long_digits(p, sh->k, fraction, sh->first, sh->significant);
    double x = (double)(int64_t)w;
    if (w <= UINT64_C(1) << 53 && fraction <= 22)
        x /= exact_pow10_22[fraction];
    else if (!tally__number_from_decimal(&x, w, -(int)fraction))
        return 0;
    *out = negative ? -x : x;
    return 1;
}

/* scan_long for a line of a plain file, p after the line's sign: the number must end the line
 * ("\n" or "\r\n"), and the one character looked at after it also tells the exponent apart,
 * so the commonest line (repr's 0.0071656633603720855, %.17g, a timer's milliseconds: digits, a
 * point, digits, "\n") takes the fewest steps: no sign logic, one look at the line end, the
 * checks merged, Clinger's division inline. Needs LONG_READ readable bytes at the line's start.
 * Returns the start of the next line, or NULL for any other line. It takes exactly the lines
 * scan_long takes followed by a line end, to the same double (the same digits, the same
 * decimal_value), which the line tests and the text fuzzer check against strtod and against
 * tally__parse_double. */
static inline __attribute__((always_inline)) const char *long_line(double *out, const char *p,
                                                                  int negative)
{
    long_shape sh;
    long_shape_of(&sh, p);
    if (!long_shape_fits(&sh))
        return NULL;
    const char *next = p + sh.end + 1;
    if (p[sh.end] != '\n') {
        if (p[sh.end] == '\r' && p[sh.end + 1] == '\n') {
            next++;
        } else if ((p[sh.end] | 0x20) == 'e') {
            const char *stop = long_exponent(out, p, sh.end, sh.nondigits, sh.k, sh.point,
                                             sh.end - sh.k - sh.point, sh.first, sh.significant,
                                             negative);
            if (stop == NULL || (*stop != '\n' && (*stop != '\r' || stop[1] != '\n')))
                return NULL;
            return stop + 1 + (*stop == '\r');
        } else {
            return NULL;
        }
    }
    return long_value(out, p, &sh, negative) ? next : NULL;
}

/* long_line of a line that starts with a sign, out of the loop's line: rare in benchmark data. */
static __attribute__((noinline)) const char *long_line_signed(double *out, const char *s)
{
    return long_line(out, s + 1, *s == '-');
}

size_t tally__number_long_lines(double *out, size_t room, const char **at, const char *end)
{
    const char *p = *at;
    size_t n = 0;
    if (end - p < LONG_READ)
        return 0;
    const char *last = end - LONG_READ; /* the last line start with the look's bytes */
    while (n < room && p <= last) {
        /* out[n] is the caller's spare room until n counts it. */
        const char *next = *p == '-' || *p == '+' ? long_line_signed(&out[n], p)
                                                  : long_line(&out[n], p, 0);
        if (next == NULL) {
            /* scan_long decides the line long_line refused (the same answer: this costs a
             * second look only where a run of long lines ends). */
            const char *stop = scan_long(&out[n], p);
            /* The line must end right after the number ("\n" or "\r\n"); the look
             * guarantees the two bytes read here. */
            if (stop == NULL || (*stop != '\n' && (*stop != '\r' || stop[1] != '\n')))
                break;
            next = stop + 1 + (*stop == '\r');
        }
        n++;
        p = next;
    }
    *at = p;
    return n;
}
#else
const char *tally__number_scan_long(double *out, const char *s)
{
    (void)out;
    (void)s;
    return NULL;
}

size_t tally__number_long_lines(double *out, size_t room, const char **at, const char *end)
{
    (void)out;
    (void)room;
    (void)at;
    (void)end;
    return 0;
}
#endif

#if defined(TALLY__SWAR_DIGITS) && defined(TALLY__EXACT_DOUBLE_OPS)
/* Whether the plain decimal s..q a straight-line scan read (TEXT grammar, no exponent) is also
 * JSON: no '+', digits before the point, none after a leading zero, digits after the point. It
 * reads within the characters the scans looked at. */
static int plain_is_json(const char *s, const char *q)
{
    const char *d = s + (*s == '-');
    return is_digit(*d) && !(d[0] == '0' && is_digit(d[1])) && q[-1] != '.';
}
#endif

/* The one pass for the numbers of real files: fast_float finds the end of the number while it
 * converts it. Anything it does not settle (an error, an underflow, infinity, JSON's stricter
 * rules, a number too long) goes to scan_careful, which decides. */
tally__number_status tally__number_scan(double *out, const char **stop, const char *s,
                                        const char *end, int grammar)
{
    const char *p = s;
    int json = grammar == TALLY__NUMBER_JSON;
#if defined(TALLY__SWAR_DIGITS) && defined(TALLY__EXACT_DOUBLE_OPS)
    if (end - s >= SHORT_READ) {
        double v;
        int longer;
        const char *q = scan_short(&v, &longer, s);
        if (q == NULL && longer && end - s >= LONG_READ)
            q = scan_long(&v, s);
        if (q && (!json || plain_is_json(s, q))) {
            *out = v;
            *stop = q;
            return TALLY__NUMBER_OK;
        }
    }
#endif
    int negative = p < end && *p == '-';
    p += negative || (!json && p < end && *p == '+');
    if (p < end && (is_digit(*p) || (!json && *p == '.' && p + 1 < end && is_digit(p[1]))) &&
        !(json && *p == '0' && p + 1 < end && is_digit(p[1]))) {
        double v;
        const char *q = tally__number_from_chars_prefix(&v, p, end);
        int refused = q == NULL || isinf(v) || q - s > TALLY__NUMBER_MAX;
        /* A zero is exact only when the digits before any exponent are all zeros ("0", "0.00",
         * "0e5"), else it is an underflow. */
        for (const char *d = p; !refused && v == 0.0 && d < q && *d != 'e' && *d != 'E'; d++)
            refused = *d >= '1' && *d <= '9';
        if (!refused && json) {
            /* fast_float takes "5." and "5.e3", and leaves the 'e' of "1e" unread. */
            const char *point = memchr(p, '.', (size_t)(q - p));
            refused = (point && (point + 1 == q || !is_digit(point[1]))) || (q < end && (*q == 'e' || *q == 'E'));
        }
        if (!refused) {
            *out = negative ? -v : v;
            *stop = q;
            return TALLY__NUMBER_OK;
        }
    }
    return scan_careful(out, stop, s, end, grammar);
}

tally__number_status tally__number_scan_json(double *out, const char **stop, const char *s,
                                             const char *end)
{
#if defined(TALLY__SWAR_DIGITS) && defined(TALLY__EXACT_DOUBLE_OPS)
    if (end - s >= LONG_READ) {
        /* A lone 0, the exit codes of a hyperfine file: the one shape scan_long leaves. */
        if (s[0] == '0' && !is_digit(s[1]) && s[1] != '.' && s[1] != 'e' && s[1] != 'E') {
            *out = 0.0;
            *stop = s + 1;
            return TALLY__NUMBER_OK;
        }
        double v;
        const char *q = scan_long(&v, s); /* inline: the call costs as much as the checks */
        if (q && plain_is_json(s, q)) {
            *out = v;
            *stop = q;
            return TALLY__NUMBER_OK;
        }
    }
#endif
    return tally__number_scan(out, stop, s, end, TALLY__NUMBER_JSON);
}

#if defined(TALLY__SWAR_DIGITS) && defined(TALLY__EXACT_DOUBLE_OPS)
/* The white space after a number or a comma of an array: almost always none or one space, so
 * those are tested before the general skip. */
static inline const char *array_ws(const char *p, const char *end)
{
    if (end - p >= 2) {
        if (!tally__json_is_ws(p[0]))
            return p;
        if (!tally__json_is_ws(p[1]))
            return p + 1;
    }
    return tally__json_skip_ws(p, end);
}

/* One element of a JSON number array followed by its comma, as long_line reads a line: one look
 * of 32 characters gives the number's shape (JSON's: digits before any point, no leading zero
 * before more digits, digits after a point), the character after it must be the comma, and the
 * value comes from long_digits and Clinger's division (or Eisel-Lemire). Needs LONG_READ
 * readable bytes at s. Returns the comma, or NULL for any other element (an exponent, white
 * space before the comma, a zero, the last element), which scan_short and scan_long then read:
 * they take every element this takes, to the same double (both round correctly). */
static inline __attribute__((always_inline)) const char *json_element(double *out, const char *s)
{
    int negative = *s == '-';
    const char *p = s + negative;
    long_shape sh;
    long_shape_of(&sh, p);
    if (!long_shape_fits(&sh) || sh.k == 0 || (p[0] == '0' && sh.k > 1) ||
        (sh.point && sh.after == 0) || p[sh.end] != ',')
        return NULL;
    return long_value(out, p, &sh, negative) ? p + sh.end : NULL;
}

size_t tally__number_json_elements(double *out, size_t room, const char **at, const char *end)
{
    const char *p = *at;
    size_t n = 0;
    /* The scans read LONG_READ bytes at p; array_ws and the comma test read before end. */
    while (n < room && end - p >= LONG_READ) {
        /* out[n] is the caller's spare room until n counts it. */
        const char *q = json_element(&out[n], p);
        if (q == NULL) {
            int longer;
            /* The 6-decimal numbers in scan_short's few instructions first; the 17-digit ones
             * fail it within its first look and go to scan_long. */
            q = scan_short(&out[n], &longer, p);
            if (q == NULL && longer)
                q = scan_long(&out[n], p);
            if (q == NULL || !plain_is_json(p, q))
                break;
            q = array_ws(q, end);
            if (q >= end || *q != ',')
                break; /* the last element (or a doubt): the caller's path reads it again */
        }
        n++;
        p = array_ws(q + 1, end);
        if (p >= end)
            break;
    }
    *at = p;
    return n;
}
#else
size_t tally__number_json_elements(double *out, size_t room, const char **at, const char *end)
{
    (void)out, (void)room, (void)at, (void)end;
    return 0; /* tally__number_scan_json reads every element */
}
#endif

const char *tally__number_problem(tally__number_status st)
{
    switch (st) {
    case TALLY__NUMBER_OK: return "a number";
    case TALLY__NUMBER_NONFINITE: return "expected a finite number";
    case TALLY__NUMBER_OVERFLOW: return "number out of range (beyond 1.8e308)";
    case TALLY__NUMBER_UNDERFLOW: return "number out of range (below 4.9e-324, it would read as 0)";
    case TALLY__NUMBER_TOO_LONG: return "number longer than 1024 characters";
    case TALLY__NUMBER_SYNTAX: break;
    }
    return "expected a number";
}

int tally__number_code(tally__number_status st)
{
    switch (st) {
    case TALLY__NUMBER_OK: return TALLY_OK;
    case TALLY__NUMBER_NONFINITE:
    case TALLY__NUMBER_OVERFLOW:
    case TALLY__NUMBER_UNDERFLOW: return TALLY_ENONFINITE;
    case TALLY__NUMBER_TOO_LONG:
    case TALLY__NUMBER_SYNTAX: break;
    }
    return TALLY_EPARSE;
}

/* Two digits at a time for the printer. */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* The decimal digits of d (at most 17), most significant first; returns how many. */
static int write_digits(char *out, unsigned long long d)
{
    char tmp[24];
    int n = 0;
    while (d >= 100) {
        unsigned r = (unsigned)(d % 100);
        d /= 100;
        tmp[n++] = digit_pairs[2 * r + 1];
        tmp[n++] = digit_pairs[2 * r];
    }
    if (d >= 10) {
        tmp[n++] = digit_pairs[2 * d + 1];
        tmp[n++] = digit_pairs[2 * d];
    } else {
        tmp[n++] = (char)('0' + d);
    }
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t tally__number_format(char *out, double x)
{
    char *p = out;
    if (signbit(x))
        *p++ = '-';
    if (x == 0.0) {
        *p++ = '0';
        *p = '\0';
        return (size_t)(p - out);
    }
    unsigned long long d;
    int e;
    tally__number_shortest(x, &d, &e);
    char digits[24];
    int n = write_digits(digits, d);
    int X = e + n - 1; /* x = d.ddd * 10^X */
    int positional_limit = n > 15 ? n : 15;
    if (X >= -4 && X < positional_limit) {
        if (X < 0) {
            memcpy(p, "0.0000", (size_t)(1 - X));
            p += 1 - X;
            memcpy(p, digits, (size_t)n);
            p += n;
        } else if (X + 1 >= n) {
            memcpy(p, digits, (size_t)n);
            p += n;
            memset(p, '0', (size_t)(X + 1 - n));
            p += X + 1 - n;
        } else {
            memcpy(p, digits, (size_t)(X + 1));
            p += X + 1;
            *p++ = '.';
            memcpy(p, digits + X + 1, (size_t)(n - X - 1));
            p += n - X - 1;
        }
    } else {
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)(n - 1));
            p += n - 1;
        }
        *p++ = 'e';
        *p++ = X < 0 ? '-' : '+';
        unsigned a = (unsigned)(X < 0 ? -X : X);
        if (a >= 100)
            *p++ = (char)('0' + a / 100);
        *p++ = digit_pairs[2 * (a % 100)];
        *p++ = digit_pairs[2 * (a % 100) + 1];
    }
    *p = '\0';
    return (size_t)(p - out);
}
