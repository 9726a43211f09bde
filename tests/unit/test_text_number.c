/* tally__parse_double and its exact fast path: on hundreds of thousands of generated strings the
 * result is the C library's strtod result bit for bit, or the same error class; and every double
 * written by tally__number_format reads back as itself. The independent reference throughout is
 * glibc's strtod (correctly rounded). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/internal.h"
#include "tally.h"
#include "util/text.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next_u64(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}

static unsigned below(unsigned n)
{
    return (unsigned)(next_u64() % n);
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* What tally__parse_double must answer for a string of [0-9.+-eE] only: strtod's value when it
 * reads the whole string to a finite number, an error otherwise. Out of range is refused both
 * ways: overflow (strtod: inf) and underflow (strtod: ERANGE and 0 from a non-zero decimal, as
 * for 1e-400), as docs/formats.md says. */
static int reference(double *out, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return TALLY_EPARSE;
    if (!isfinite(v) || (errno == ERANGE && (fabs(v) > 1.0 || v == 0.0)))
        return TALLY_ENONFINITE;
    if (strlen(s) > TALLY__NUMBER_MAX)
        return TALLY_EPARSE;
    *out = v;
    return TALLY_OK;
}

static unsigned long compared, fast_hits, mismatches, scan_mismatches;

/* Characters that can follow a number in a file and never continue one. */
static const char stoppers[] = { '\n', '\r', ' ', '\t', '#', ',', ']', '\0' };

/* The scanner on s followed by a stopper and more text (so that its 8-byte loads and its
 * straight-line path for short numbers run, as they do inside a file): it must end exactly
 * where s ends when the fast path takes s whole, with the same bits; elsewhere it may read a
 * prefix, which must then be strtod's value of that prefix. */
static void check_scan(const char *s, size_t len, int fast_ok, double fast)
{
    char buf[128];
    if (len + 32 > sizeof buf)
        return;
    memcpy(buf, s, len);
    buf[len] = stoppers[compared % sizeof stoppers];
    memset(buf + len + 1, compared % 3 ? '7' : 'e', 31);
    double v = 0;
    const char *stop = tally__scan_decimal(&v, buf, buf + len + 32);
    int ok;
    if (fast_ok) {
        ok = stop == buf + len && same_bits(v, fast);
    } else if (stop == NULL || stop == buf + len) {
        ok = stop == NULL;
    } else {
        char prefix[128];
        memcpy(prefix, buf, (size_t)(stop - buf));
        prefix[stop - buf] = '\0';
        double want = 0;
        ok = stop > buf && reference(&want, prefix) == TALLY_OK && same_bits(v, want);
    }
    if (!ok && scan_mismatches++ < 10)
        fprintf(stderr, "scan mismatch on '%s': stopped at %td\n", s, stop ? stop - buf : -1);
}

/* One string: the full parser agrees with strtod; the fast path, when it answers, too. */
static void check_string(const char *s)
{
    size_t len = strlen(s);
    double want = 0, got = 0, fast = 0;
    int want_rc = reference(&want, s);
    int got_rc = tally__parse_double(&got, s, len);
    int ok = (want_rc == TALLY_OK) ? (got_rc == TALLY_OK && same_bits(got, want))
                                   : (got_rc != TALLY_OK);
    if (tally__parse_decimal_fast(&fast, s, len)) {
        fast_hits++;
        ok = ok && want_rc == TALLY_OK && same_bits(fast, want);
        check_scan(s, len, 1, fast);
    } else {
        check_scan(s, len, 0, 0);
    }
    compared++;
    if (!ok && mismatches++ < 10)
        fprintf(stderr, "mismatch on '%s': strtod rc %d %.17g, tally rc %d %.17g\n", s, want_rc,
                want, got_rc, got);
}

static double random_double(void)
{
    for (;;) {
        uint64_t bits = next_u64();
        double d;
        memcpy(&d, &bits, sizeof d);
        if (isfinite(d))
            return d;
    }
}

/* printf forms of doubles of every magnitude and of benchmark-like magnitudes. */
static void test_printed_doubles(void)
{
    char s[96];
    for (int i = 0; i < 20000; i++) {
        double any = random_double();
        double near = ldexp((double)(next_u64() >> 11), -(int)below(60)) * (below(2) ? 1 : -1);
        for (int prec = 1; prec <= 17; prec += 2) {
            snprintf(s, sizeof s, "%.*g", prec, any);
            check_string(s);
            snprintf(s, sizeof s, "%.*g", prec, near);
            check_string(s);
            snprintf(s, sizeof s, "%.*e", prec, near);
            check_string(s);
        }
        for (int prec = 0; prec <= 12; prec += 3) {
            if (snprintf(s, sizeof s, "%.*f", prec, near) < 64)
                check_string(s);
        }
    }
}

/* Decimal strings built digit by digit: signs, leading zeros, a point anywhere or nowhere,
 * 0..25 digits, exponents of every sign and width, including the fast path's borders (2^53,
 * 10^22, 19 digits). */
static void test_generated_decimals(void)
{
    char s[128];
    for (int i = 0; i < 200000; i++) {
        size_t n = 0;
        unsigned sign = below(4);
        if (sign == 1)
            s[n++] = '-';
        else if (sign == 2)
            s[n++] = '+';
        unsigned zeros = below(4) == 0 ? below(4) : 0;
        for (unsigned k = 0; k < zeros; k++)
            s[n++] = '0';
        unsigned digits = below(26), point = below(digits + 2);
        for (unsigned k = 0; k < digits; k++) {
            if (k == point)
                s[n++] = '.';
            s[n++] = (char)('0' + below(10));
        }
        if (point == digits && below(2))
            s[n++] = '.';
        if (below(3) == 0) {
            s[n++] = below(2) ? 'e' : 'E';
            unsigned es = below(3);
            if (es == 1)
                s[n++] = '-';
            else if (es == 2)
                s[n++] = '+';
            n += (size_t)snprintf(s + n, sizeof s - n, "%u",
                                  below(4) == 0 ? below(400) : below(30));
        }
        s[n] = '\0';
        if (n <= 64)
            check_string(s);
    }
}

/* Borders and known hard cases, each written out. */
static void test_hard_cases(void)
{
    static const char *const cases[] = {
        "0", "-0", "+0", "0.0", "-0.0", "00", "0e0", "0e-999", "-0e999", "0.", ".0", ".", "-",
        "+", "e5", ".e5", "1e", "1e+", "1e-", "1ee5", "1.2.3", "--1", "+-1", "1-", "1e5.5",
        "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "-9007199254740993", "900719925474099.3", "9007199254740993e-16",
        "1e22", "1e23", "1e-22", "1e-23", "9999999999999999999", "99999999999999999999",
        "1234567890123456789e-22", "0.1", "0.2", "0.3", "0.7", "1.1", "2.675", "100.123456",
        "3.141592653589793", "2.718281828459045", "1.7976931348623157e308", "1.7976931348623159e308",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "1e400", "123e-2",
        "0.000000000000000000001", "0.0000000000000000000001", "4503599627370496.5",
        "4503599627370497.5", "1.00000000000000011102230246251565404236316680908203125",
        "0.30000000000000004", "123456.7890123", "5e-324", "1E10", "1e+10", "1e+0010",
    };
    for (size_t i = 0; i < TALLY__COUNT(cases); i++)
        check_string(cases[i]);
}

/* tally__number_format output reads back as the same double, through the fast path or not. */
static void test_round_trip(void)
{
    char s[32];
    unsigned long bad = 0;
    for (int i = 0; i < 100000; i++) {
        double x = i % 2 ? random_double() : round(exp((double)(next_u64() >> 11) * 0x1p-50) * 1e6) / 1e6;
        double back = 0;
        tally__number_format(s, x);
        if (tally__parse_double(&back, s, strlen(s)) != TALLY_OK || !same_bits(back, x)) {
            if (bad++ < 5)
                fprintf(stderr, "round trip of %.17g gave '%s' -> %.17g\n", x, s, back);
        }
    }
    CHECK_INT(bad, 0);
}

/* What the parser accepts around the number and what it refuses, classified. */
static void test_blanks_and_errors(void)
{
    double v = 0;
    CHECK_INT(tally__parse_double(&v, " \t12.5\r ", 8), TALLY_OK);
    CHECK(v == 12.5);
    CHECK_INT(tally__parse_double(&v, "12.5x", 4), TALLY_OK); /* only len bytes are read */
    CHECK(v == 12.5);
    CHECK_INT(tally__parse_double(&v, "", 0), TALLY_EPARSE);
    CHECK_INT(tally__parse_double(&v, "nan", 3), TALLY_ENONFINITE);
    CHECK_INT(tally__parse_double(&v, "-inf", 4), TALLY_ENONFINITE);
    CHECK_INT(tally__parse_double(&v, "1e400", 5), TALLY_ENONFINITE);
    CHECK_INT(tally__parse_double(&v, "0x1p3", 5), TALLY_EPARSE);
    CHECK_INT(tally__parse_double(&v, "1,5", 3), TALLY_EPARSE);
    static char long_zeros[1100];
    memset(long_zeros, '0', sizeof long_zeros);
    CHECK_INT(tally__parse_double(&v, long_zeros, 1024), TALLY_OK); /* the longest accepted */
    CHECK(v == 0);
    CHECK_INT(tally__parse_double(&v, long_zeros, 1025), TALLY_EPARSE); /* longer than 1024 */
    CHECK_INT(tally__parse_double(&v, "1e-400", 6), TALLY_ENONFINITE);  /* underflow */
    CHECK_INT(tally__parse_double(&v, "0e-400", 6), TALLY_OK);          /* an exact zero */
    v = 7;
    CHECK_INT(tally__parse_decimal_fast(&v, "1e400", 5), 0);
    CHECK(v == 7); /* untouched when the scanner refuses */
    CHECK_INT(tally__parse_decimal_fast(&v, "1e23", 4), 1);
    CHECK(v == 1e23); /* beyond Clinger's exact range: the compiler's correctly rounded 1e23 */
    CHECK_INT(tally__parse_decimal_fast(&v, "-0", 2), 1);
    CHECK(v == 0 && signbit(v));
}

/* The 8-characters-at-a-time helpers on hand-made words (first character in the low byte). */
static void test_swar_helpers(void)
{
#ifdef TALLY__SWAR_DIGITS
    uint64_t v;
    memcpy(&v, "12345678", 8);
    CHECK_INT(tally__leading_digits8(v), 8);
    CHECK_INT(tally__digits8_value(v, 8), 12345678);
    CHECK_INT(tally__digits8_value(v, 3), 123);
    CHECK_INT(tally__digits8_value(v, 1), 1);
    CHECK_INT(tally__digits8_value(v, 0), 0); /* no digits: every byte shifted out */
    memcpy(&v, "94.65013", 8); /* stops at the point */
    CHECK_INT(tally__leading_digits8(v), 2);
    CHECK_INT(tally__digits8_value(v, 2), 94);
    memcpy(&v, "650135\n9", 8);
    CHECK_INT(tally__leading_digits8(v), 6);
    CHECK_INT(tally__digits8_value(v, 6), 650135);
    memcpy(&v, "0000009/", 8); /* '/' and ':' border the digits (0x2F, 0x3A) */
    CHECK_INT(tally__leading_digits8(v), 7);
    CHECK_INT(tally__digits8_value(v, 7), 9);
    memcpy(&v, ":1234567", 8);
    CHECK_INT(tally__leading_digits8(v), 0);
    memcpy(&v, "99\xff\xfa" "9999", 8); /* bytes >= 0x80 are never digits */
    CHECK_INT(tally__leading_digits8(v), 2);
    CHECK_INT(tally__digits8_value(v, 2), 99);
    memcpy(&v, "9999999\xfb", 8);
    CHECK_INT(tally__leading_digits8(v), 7);
    CHECK_INT(tally__digits8_value(v, 7), 9999999);
    memcpy(&v, "7\xb0\xb9" "00000", 8); /* '0' and '9' with bit 7 set are not digits */
    CHECK_INT(tally__leading_digits8(v), 1);
    memcpy(&v, "5\x00" "345678", 8);
    CHECK_INT(tally__leading_digits8(v), 1);
#endif
    /* The scanner stops at the first character after the number, reading nothing past end. */
    double x = 0;
    const char text[] = "123.25\n-7\n";
    CHECK(tally__scan_decimal(&x, text, text + 10) == text + 6 && x == 123.25);
    CHECK(tally__scan_decimal(&x, text + 7, text + 10) == text + 9 && x == -7);
    CHECK(tally__scan_decimal(&x, text, text + 3) == text + 3 && x == 123);
    CHECK(tally__scan_decimal(&x, "\n", "\n" + 1) == NULL);
}

/* One random line for test_number_lines: mostly "%.Nf" numbers of benchmark magnitudes (the
 * short-line shape, at its borders of 8 + 8 digits and 16 characters too), else other number
 * forms, blanks, comments, "\r\n", a NUL byte or junk. */
static size_t random_line(char *s, size_t room)
{
    static const char *const others[] = { "", "# c", " 12.5", "12.5 ", "1e5", "-0", "+7.",
                                          ".5", "-.25", "1.2.3", "12\r\r", "x", "5#", "1,5",
                                          "12345678.12345678", "123456789.5", "1.123456789",
                                          "-9999999.9999999", "00000000.00000001", "-",
                                          "." };
    unsigned kind = below(10);
    int n;
    if (kind < 6) {
        double x = ldexp((double)(next_u64() >> 11), -(int)below(60)) * (below(4) ? 1 : -1);
        n = snprintf(s, room, below(4) ? "%.*f" : "%+.*f", (int)below(10), x);
    } else if (kind < 8) {
        n = snprintf(s, room, "%s", others[below(TALLY__COUNT(others))]);
    } else if (kind < 9) {
        n = snprintf(s, room, "%.*g", 1 + (int)below(17), random_double());
    } else {
        n = snprintf(s, room, "%u.%u", below(100000000), below(100000000));
    }
    if (n < 0 || (size_t)n >= room)
        return 0;
    if (below(50) == 0 && n > 1)
        s[below((unsigned)n)] = '\0'; /* a NUL byte somewhere in the line */
    return (size_t)n;
}

/* tally__number_lines (SSE2 where the target has it) and tally__number_lines_portable read the
 * same lines as the one-line scanner (tally__scan_decimal, else tally__number_scan, then
 * tally__number_line_end, checked against strtod above), with the same bits and the same stop; lines they take are strtod's
 * value of the line. Texts end at every distance from the end, with and without a last newline. */
static void test_number_lines(void)
{
    enum { TEXT = 4096, LINES = 400 };
    static char text[TEXT];
    static double want[LINES], got[LINES], got_portable[LINES];
    unsigned long bad = 0, taken = 0;
    for (int round = 0; round < 3000; round++) {
        size_t len = 0;
        /* Texts of one shape, which the bulk path must take whole: "%.6f"-like lines (the
         * short-line path), then runs of the scanner's long path, "%.7e" and the shortest
         * repr of benchmark magnitudes, also with "\r\n". */
        int clean = round % 3 == 0, shape = (round / 3) % 3;
        while (len < TEXT - 200) {
            double x = ldexp((double)(next_u64() >> 11), -(int)below(70)) * (below(4) ? 1 : -1);
            size_t n = !clean ? random_line(text + len, 64)
                       : shape == 0 ? (size_t)snprintf(text + len, 64, "%.*f", (int)below(9),
                                                       (double)(next_u64() >> 40) / 1000.0)
                       : shape == 1 ? (size_t)snprintf(text + len, 64, "%.7e", x)
                                    : tally__number_format(text + len, x);
            len += n;
            if ((!clean || shape > 0) && below(8) == 0)
                text[len++] = '\r';
            text[len++] = '\n';
        }
        int cut = below(2);
        if (cut)
            len -= below(40); /* cut anywhere, also mid-number or without a last newline */
        const char *end = text + len, *p = text;
        size_t nw = 0;
        while (nw < LINES && p < end) {
            const char *next = tally__number_line_end(p, tally__scan_decimal(&want[nw], p, end), end);
            if (next == NULL) {
                /* Lines the exact fast path declines go to the number module in the loop. */
                const char *stop;
                if (tally__number_scan(&want[nw], &stop, p, end, TALLY__NUMBER_TEXT) !=
                        TALLY__NUMBER_OK ||
                    (next = tally__number_line_end(p, stop, end)) == NULL)
                    break;
            }
            nw++;
            p = next;
        }
        size_t room = below(4) == 0 ? 1 + below(LINES) : LINES;
        if (nw > room)
            nw = room;
        const char *want_at = text;
        for (size_t i = 0; i < nw; i++) {
            const char *nl = memchr(want_at, '\n', (size_t)(end - want_at));
            want_at = nl ? nl + 1 : end;
        }
        const char *at = text, *at_portable = text;
        size_t ng = tally__number_lines(got, room, &at, end);
        size_t np = tally__number_lines_portable(got_portable, room, &at_portable, end);
        int ok = ng == nw && np == nw && at == want_at && at_portable == want_at;
        for (size_t i = 0; ok && i < nw; i++)
            ok = same_bits(got[i], want[i]) && same_bits(got_portable[i], want[i]);
        /* A cut "%.6f" is a number still; a cut "%.7e" or "\r\n" need not be. */
        if (clean && (shape == 0 || !cut) && !(at == end || ng == room))
            ok = 0;
        /* Each line taken, independently: strtod's value. */
        const char *line = text;
        for (size_t i = 0; ok && i < ng; i++) {
            const char *stop = memchr(line, '\n', (size_t)(end - line));
            size_t n = (size_t)((stop ? stop : end) - line);
            char one[80];
            memcpy(one, line, n);
            one[n - (n > 0 && one[n - 1] == '\r')] = '\0';
            double ref = 0;
            ok = reference(&ref, one) == TALLY_OK && same_bits(ref, got[i]);
            line = stop ? stop + 1 : end;
        }
        taken += ng;
        if (!ok && bad++ < 5)
            fprintf(stderr, "number_lines round %d: %zu/%zu/%zu lines, stop %td/%td/%td\n", round,
                    nw, ng, np, want_at - text, at - text, at_portable - text);
    }
    CHECK_INT(bad, 0);
    CHECK(taken > 100000); /* the test reached deep into the texts */
}

/* Where a line holding just a number ends, from where its number stopped. */
static void test_number_line_end(void)
{
    const char text[] = "12.5\n3\r\n4 #\n5\r6";
    const char *end = text + sizeof text - 1; /* 15 bytes, no newline at the end */
    CHECK(tally__number_line_end(text, text + 4, end) == text + 5);     /* "12.5\n" */
    CHECK(tally__number_line_end(text + 5, text + 6, end) == text + 8); /* "3\r\n" */
    CHECK(tally__number_line_end(text + 8, text + 9, end) == NULL);     /* "4 #": more */
    CHECK(tally__number_line_end(text + 12, text + 13, end) == NULL);   /* "5\r6": more */
    CHECK(tally__number_line_end(text + 14, end, end) == end);          /* last line "6" */
    CHECK(tally__number_line_end(text, NULL, end) == NULL);             /* no number */
    char zeros[80];
    memset(zeros, '0', sizeof zeros);
    CHECK(tally__number_line_end(zeros, zeros + 65, zeros + 80) == NULL); /* over 64 chars */
}

int main(void)
{
    test_number_line_end();
    test_printed_doubles();
    test_generated_decimals();
    test_hard_cases();
    test_round_trip();
    test_blanks_and_errors();
    test_swar_helpers();
    test_number_lines();
    fprintf(stderr, "%lu strings compared with strtod, %lu through the fast path\n", compared,
            fast_hits);
    CHECK_INT(mismatches, 0);
    CHECK_INT(scan_mismatches, 0);
    /* The fast path must have carried a good share, or the test proves nothing about it. */
    CHECK(fast_hits > compared / 4);
    return check_summary();
}
