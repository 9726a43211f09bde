/* The number module (util/number.h) against independent references:
 * - Python's repr (CPython's dtoa.c) on 10^6 random doubles (number_repr_expected.py, run by the
 *   number_expected fixture): tally reads each repr string back to the same bits, and prints
 *   each double with the same significant digits and decimal exponent as repr, in a string that
 *   glibc's strtod reads back to the same bits;
 * - the hard cases of number_hard_cases.py (subnormals, the smallest and largest doubles,
 *   halfway cases written out exactly and nudged in their 800th digit, leading zeros, -0,
 *   out-of-range and malformed numbers), answered by CPython's float() and the documented
 *   grammar, and checked against glibc's strtod where it reads the number;
 * - glibc's strtod in the C locale on TALLY_NUMBER_RANDOM random doubles printed by %.17g, in
 *   the shortest form and by %.Nf (0 to 24 decimals): bit-identical results. The default, 10^6,
 *   keeps the test short; the benchmark harness (bench/run.py) runs it with 10^7.
 * Every text is also read with readable bytes beyond it (the scanner's straight-line paths need
 * them), which must change nothing, and the repr strings as lines of a plain file through the
 * bulk line reader. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"
#include "util/internal.h"
#include "util/text.h"

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

static double of_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* A decimal string as sign, significant digits (no leading or trailing zeros) and the decimal
 * exponent of the first of them: "0.00125" and "1.25e-3" both give (0, "125", -3). */
typedef struct decimal {
    int negative;
    char digits[800];
    int exponent;
} decimal;

static int normalise(decimal *d, const char *s)
{
    memset(d, 0, sizeof(*d));
    d->negative = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    size_t n = 0;
    int point = -1, before = 0; /* digits before the point, leading zeros included */
    for (; (*s >= '0' && *s <= '9') || *s == '.'; s++) {
        if (*s == '.') {
            point = before;
            continue;
        }
        before++;
        if (n < sizeof(d->digits) - 1)
            d->digits[n++] = *s;
    }
    if (point < 0)
        point = before;
    int e = 0;
    if (*s == 'e' || *s == 'E')
        e = atoi(s + 1);
    size_t lead = 0;
    while (lead < n && d->digits[lead] == '0')
        lead++;
    memmove(d->digits, d->digits + lead, n - lead + 1);
    n -= lead;
    while (n > 0 && d->digits[n - 1] == '0')
        d->digits[--n] = '\0';
    d->exponent = n ? point - (int)lead - 1 + e : 0;
    return (int)n;
}

/* The scanner on text[0..n) followed by 64 newlines, so that its straight-line paths, which
 * need readable bytes beyond the number (tally__number_scan_long), take it, against the scanner
 * on the text alone, which cannot use them: the same status, stop and bits, in both grammars.
 * Returns 0 on a disagreement. */
static int same_when_padded(const char *text, size_t n)
{
    static char padded[4096 + 64];
    if (n > 4096)
        return 1;
    memcpy(padded, text, n);
    memset(padded + n, '\n', 64);
    for (int grammar = TALLY__NUMBER_TEXT; grammar <= TALLY__NUMBER_JSON; grammar++) {
        double a = NAN, b = NAN;
        const char *sa = NULL, *sb = NULL;
        tally__number_status st_a = tally__number_scan(&a, &sa, text, text + n, grammar);
        tally__number_status st_b = tally__number_scan(&b, &sb, padded, padded + n + 64, grammar);
        if (st_a != st_b || sa - text != sb - padded ||
            (st_a == TALLY__NUMBER_OK && bits_of(a) != bits_of(b))) {
            fprintf(stderr, "  '%.60s' (%zu chars, grammar %d): status %d/%d, stop %td/%td\n", text,
                    n, grammar, (int)st_a, (int)st_b, sa - text, sb - padded);
            return 0;
        }
    }
    /* The entry for JSON arrays (tally__number_scan_json), with 0 to 64 readable bytes beyond
     * the number as in an array (commas), on both sides of what its long path needs: the same
     * status, stop and bits as the JSON scanner on the text alone. */
    static const size_t pads[] = { 0, 1, 2, 19, 20, 31, 32, TALLY__NUMBER_LONG_READ - 1,
                                   TALLY__NUMBER_LONG_READ, 64 };
    double a = NAN;
    const char *sa = NULL;
    tally__number_status st_a = tally__number_scan(&a, &sa, text, text + n, TALLY__NUMBER_JSON);
    for (size_t i = 0; i < TALLY__COUNT(pads); i++) {
        memcpy(padded, text, n);
        memset(padded + n, ',', pads[i]);
        double b = NAN;
        const char *sb = NULL;
        tally__number_status st_b = tally__number_scan_json(&b, &sb, padded, padded + n + pads[i]);
        if (st_a != st_b || sa - text != sb - padded ||
            (st_a == TALLY__NUMBER_OK && bits_of(a) != bits_of(b))) {
            fprintf(stderr, "  '%.60s' (%zu chars, JSON array entry, %zu bytes after): status "
                    "%d/%d, stop %td/%td\n", text, n, pads[i], (int)st_a, (int)st_b, sa - text,
                    sb - padded);
            return 0;
        }
    }
    return 1;
}

/* The lines of text[0..len) through tally__number_lines: each line's value must be want[i]
 * (the bits of strtod), and all lines taken. Returns the number of disagreements. */
static unsigned long lines_disagree(const char *text, size_t len, const double *want, size_t count)
{
    static double got[4096];
    const char *at = text;
    size_t n = tally__number_lines(got, count, &at, text + len);
    unsigned long bad = n != count || at != text + len;
    for (size_t i = 0; i < n && i < count; i++)
        bad += bits_of(got[i]) != bits_of(want[i]);
    return bad;
}

/* The elements of a JSON array body text[0..len) ("a, b, c, ..." and a last element that the bulk
 * loop leaves) through tally__number_json_elements: each element it takes must have the bits of
 * want[i]; an element it leaves is stepped over (its comma) and the loop called again, as the
 * array reader does. Returns the number of disagreements. */
static unsigned long elements_disagree(const char *text, size_t len, const double *want,
                                       size_t count)
{
    static double got[4096];
    unsigned long bad = 0;
    const char *p = text, *end = text + len;
    size_t i = 0;
    while (i < count) {
        const char *at = p;
        size_t n = tally__number_json_elements(got, count - i, &at, end);
        for (size_t j = 0; j < n; j++)
            bad += bits_of(got[j]) != bits_of(want[i + j]);
        i += n;
        if (n == 0) {
            const char *comma = memchr(p, ',', (size_t)(end - p));
            if (comma == NULL)
                break;
            at = comma + 1;
            while (*at == ' ')
                at++;
            i++;
        }
        p = at;
    }
    return bad;
}

static FILE *open_data(const char *name)
{
    char path[600];
    snprintf(path, sizeof(path), "%s/%s", TALLY_TEST_TMP, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fprintf(stderr, "  cannot open %s (written by the number_expected fixture)\n", path);
    return f;
}

static void test_repr(void)
{
    FILE *f = open_data("number_repr.txt");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    char line[128];
    unsigned long count = 0, read_bad = 0, digits_bad = 0, back_bad = 0, lines_bad = 0;
    /* Blocks of repr lines, as in a plain file, through the bulk line reader. */
    static char block[65536];
    static double block_want[4096];
    size_t block_len = 0, block_count = 0;
    while (fgets(line, sizeof(line), f)) {
        char *space = strchr(line, ' ');
        char *nl = strchr(line, '\n');
        if (space == NULL || nl == NULL)
            continue;
        *nl = '\0';
        const char *repr = space + 1;
        uint64_t want = strtoull(line, NULL, 16);
        double x = of_bits(want);
        count++;
        double v = 0;
        if (tally__parse_double(&v, repr, strlen(repr)) != TALLY_OK || bits_of(v) != want) {
            if (read_bad++ < 5)
                fprintf(stderr, "  reading '%s' gave %016llx\n", repr, (unsigned long long)bits_of(v));
        }
        if (!same_when_padded(repr, strlen(repr)))
            read_bad++;
        size_t rn = strlen(repr);
        if (block_len + rn + 1 > sizeof(block) || block_count == TALLY__COUNT(block_want)) {
            lines_bad += lines_disagree(block, block_len, block_want, block_count);
            block_len = block_count = 0;
        }
        memcpy(block + block_len, repr, rn);
        block_len += rn;
        block[block_len++] = '\n';
        block_want[block_count++] = x;
        char out[TALLY__NUMBER_BUF];
        size_t len = tally__number_format(out, x);
        decimal a, b;
        normalise(&a, out);
        normalise(&b, repr);
        if (len != strlen(out) || a.negative != b.negative || a.exponent != b.exponent ||
            strcmp(a.digits, b.digits) != 0) {
            if (digits_bad++ < 5)
                fprintf(stderr, "  printing %016llx gave '%s', repr '%s'\n",
                        (unsigned long long)want, out, repr);
        }
        if (bits_of(strtod(out, NULL)) != want && back_bad++ < 5)
            fprintf(stderr, "  '%s' reads back differently with strtod\n", out);
    }
    fclose(f);
    lines_bad += lines_disagree(block, block_len, block_want, block_count);
    fprintf(stderr, "%lu doubles compared with Python repr\n", count);
    CHECK_INT(lines_bad, 0);
    CHECK(count >= 1000000);
    CHECK_INT(read_bad, 0);
    CHECK_INT(digits_bad, 0);
    CHECK_INT(back_bad, 0);
}

static void test_hard_cases(void)
{
    FILE *f = open_data("number_hard.txt");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    static char line[4096];
    unsigned long count = 0, bad = 0;
    while (fgets(line, sizeof(line), f)) {
        char *space = strchr(line, ' ');
        char *nl = strchr(line, '\n');
        if (space == NULL || nl == NULL)
            continue;
        *space = *nl = '\0';
        const char *text = space + 1, *expect = line;
        size_t n = strlen(text);
        count++;
        double v = NAN;
        /* The reader trims blanks around a field: the grammar's cases with blanks are checked
         * through the scanner, which must stop before them. */
        const char *stop;
        tally__number_status st = tally__number_scan(&v, &stop, text, text + n,
                                                     TALLY__NUMBER_TEXT);
        if (st == TALLY__NUMBER_OK && stop != text + n)
            st = TALLY__NUMBER_SYNTAX;
        double pv = NAN;
        int rc = tally__parse_double(&pv, text, n);
        int ok;
        if (strcmp(expect, "SYNTAX") == 0)
            ok = st == TALLY__NUMBER_SYNTAX || (text[0] == ' ' || text[n - 1] == ' ');
        else if (strcmp(expect, "LONG") == 0)
            ok = st == TALLY__NUMBER_TOO_LONG && rc == TALLY_EPARSE;
        else if (strcmp(expect, "NONFINITE") == 0)
            ok = st == TALLY__NUMBER_NONFINITE && rc == TALLY_ENONFINITE;
        else if (strcmp(expect, "RANGE") == 0)
            ok = (st == TALLY__NUMBER_OVERFLOW || st == TALLY__NUMBER_UNDERFLOW) &&
                 rc == TALLY_ENONFINITE;
        else {
            uint64_t want = strtoull(expect, NULL, 16);
            errno = 0;
            double ref = strtod(text, NULL); /* glibc agrees with CPython on every case */
            ok = st == TALLY__NUMBER_OK && rc == TALLY_OK && bits_of(v) == want &&
                 bits_of(pv) == want && bits_of(ref) == want;
        }
        ok = ok && same_when_padded(text, n);
        if (!ok) {
            bad++;
            fprintf(stderr, "  '%.60s%s' (%zu chars): expected %s, got status %d rc %d %016llx\n",
                    text, n > 60 ? "..." : "", n, expect, (int)st, rc,
                    (unsigned long long)bits_of(v));
        }
    }
    fclose(f);
    fprintf(stderr, "%lu hard cases\n", count);
    CHECK(count >= 130);
    CHECK_INT(bad, 0);
}

/* The borders of the long path: 19 and 20 significant digits, numbers ending at the 31st and
 * 32nd character of its look and beyond, runs of zeros longer than the look, a point or an
 * exponent right after it, the shapes JSON refuses. Each read with and without bytes beyond, and compared with strtod. */
static void test_long_path_borders(void)
{
    static const char *const texts[] = {
        "1234567890123456789", "12345678901234567890", "0.1234567890123456789",
        "0.12345678901234567890", "-1234567890.123456789", "+0.00000000000000000001234567",
        "1234567890123456789012345678901", "12345678901234567890123456789012",
        "123456789012345678901234567890123", "0000000000000000000000000000000000000000",
        "0.000000000000000000000000000000000000000", "00000000000000000000000000000000.5",
        "0000000000000000000000000000000.5", "1.000000000000000000000000000000",
        "9999999999999999999", "0.9999999999999999999", "18446744073709551615",
        "12345678901234567.", "1234567890123456.e5", "123456789012345678e-3",
        "0.00000000000000000000000000000001", "0.0071656633603720855", "-.0071656633603720855",
        "00.0071656633603720855", "2.2250738585072011e-308", "17976931348623157000000000",
        /* The shapes the JSON array entry takes at once or leaves (a lone 0 and its
         * neighbours, 16 to 20 digits, the refusals of JSON at the long path's shape); the
         * TEXT reading of each is a number strtod agrees with. */
        "0", "-0", "0.0", "0e0", "0.005981193679999999", "-0.005981193679999999",
        "0.0059811936799999", "0.00598119367999999", "0.005981193679999999123",
        "1234567890123456", "12345678901234567", "+0.005981193679999999", "05981193679999999",
        "-05.981193679999999", ".005981193679999999", "5981193679999999.",
        /* Exponents on the long path: %.7e and %.17g shapes, 1 to 3 exponent digits with
         * and without sign and leading zeros, E, a point before the 'e' (JSON refuses it),
         * an exponent ending at the 31st and 32nd character of the look, four digits (the
         * general way), and the double range's ends (the out-of-range ones are in
         * number_hard.txt). */
        "6.6757172e-06", "-6.6757172E+06", "1.2345678901234567e-05", "9.8765432109876543e+300",
        "1e5", "1E5", "1e+5", "1e-5", "1e05", "-1.5e-003", "5.e3", "123.e-2",
        "1234567890123456789e-19", "1234567890123456789e289", "1234567890123456789e-341",
        "0.000000000000000000000001234e-5", "0.0000000000000000000000001234e-5",
        "0.00000000000000000000000001e-5", "1.5e0000", "1.5e0300", "1.5e-0300",
        "1.7976931348623157e308", "2.2250738585072014e-308", "4.9406564584124654e-324",
        "2.4703282292062328e-324", "1e-323", "2.5e-320",
    };
    unsigned long bad = 0;
    for (size_t i = 0; i < TALLY__COUNT(texts); i++) {
        size_t n = strlen(texts[i]);
        double v = 0;
        int rc = tally__parse_double(&v, texts[i], n);
        if (!same_when_padded(texts[i], n) || rc != TALLY_OK ||
            bits_of(v) != bits_of(strtod(texts[i], NULL))) {
            fprintf(stderr, "  '%s': rc %d\n", texts[i], rc);
            bad++;
        }
        /* As lines of a plain file inside a run of repr lines (the bulk reader's long lines),
         * ended by "\n" and by "\r\n", and after a line of its own. */
        char lines[512];
        double want[8];
        size_t len = 0, count = 0;
        static const char *const ends[] = { "\n", "\r\n", "\n", "\n" };
        for (size_t k = 0; k < 4; k++) {
            const char *t = k % 2 ? texts[i] : "0.0071656633603720855";
            size_t tn = strlen(t), en = strlen(ends[k]);
            memcpy(lines + len, t, tn);
            memcpy(lines + len + tn, ends[k], en);
            len += tn + en;
            want[count++] = strtod(t, NULL);
        }
        if (lines_disagree(lines, len, want, count) != 0) {
            fprintf(stderr, "  '%s' as a line\n", texts[i]);
            bad++;
        }
    }
    CHECK_INT(bad, 0);
}

/* The borders of Clinger's fast path on the long path (w * 10^e or w / 10^-e in one rounding
 * when w <= 2^53 and |e| <= 22): w = 2^53 and 2^53 + 1, e = +-22 and +-23, as exponents and as
 * fraction digits, and the shapes that take it (%.7e, repr of 16 digits). Expected bits from
 * CPython's float() (correctly rounded), printed by
 *   /usr/bin/python3 -c 'import struct; t = "9007199254740992e-22";
 *       print(hex(struct.unpack("<Q", struct.pack("<d", float(t)))[0]))'
 * for each text; each also read as a line of a plain file and checked against strtod. */
static void test_clinger_borders(void)
{
    static const struct {
        const char *text;
        uint64_t bits;
    } cases[] = {
        { "9007199254740992e-22", UINT64_C(0x3eae392010175ee6) },
        { "9007199254740993e-22", UINT64_C(0x3eae392010175ee7) },
        { "9007199254740992e22", UINT64_C(0x47d0f0cf064dd592) },
        { "9007199254740993e22", UINT64_C(0x47d0f0cf064dd593) },
        { "9007199254740991e22", UINT64_C(0x47d0f0cf064dd591) },
        { "9007199254740991e23", UINT64_C(0x48052d02c7e14af6) },
        { "9007199254740991e-22", UINT64_C(0x3eae392010175ee5) },
        { "9007199254740991e-23", UINT64_C(0x3e782db34012b251) },
        { "0.0000009007199254740992", UINT64_C(0x3eae392010175ee6) },
        { "0.00000009007199254740992", UINT64_C(0x3e782db34012b251) },
        { "0.0000009007199254740993", UINT64_C(0x3eae392010175ee7) },
        { "1e22", UINT64_C(0x4480f0cf064dd592) },
        { "1e23", UINT64_C(0x44b52d02c7e14af6) },
        { "1e-22", UINT64_C(0x3b5e392010175ee6) },
        { "1e-23", UINT64_C(0x3b282db34012b251) },
        { "-4.9999999999999996e-22", UINT64_C(0xbb82e3b40a0e9b4f) },
        { "6.6757172e-06", UINT64_C(0x3edbffff2bd9673b) },
        { "7.2127593e+22", UINT64_C(0x44ae8c16dc8a44af) },
        { "7.2127593e+23", UINT64_C(0x44e3178e49d66aed) },
        { "0.006945736873433762", UINT64_C(0x3f7c73220b7d01ce) },
        { "0.0071656633603720855", UINT64_C(0x3f7d59be1c975224) },
        { "123456789012345.6e7", UINT64_C(0x4450bb448ec2f605) },
        { "8.98846567431158e307", UINT64_C(0x7fe0000000000000) },
    };
    unsigned long bad = 0;
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        const char *t = cases[i].text;
        size_t n = strlen(t);
        double v = 0, want = of_bits(cases[i].bits);
        int rc = tally__parse_double(&v, t, n);
        /* The line, then more lines of it: far enough from the end for the long path. */
        char lines[8 * 32];
        size_t len = 0;
        for (int k = 0; k < 8; k++) {
            memcpy(lines + len, t, n);
            lines[len + n] = '\n';
            len += n + 1;
        }
        double repeated[8];
        for (int k = 0; k < 8; k++)
            repeated[k] = want;
        if (rc != TALLY_OK || bits_of(v) != cases[i].bits ||
            bits_of(strtod(t, NULL)) != cases[i].bits || !same_when_padded(t, n) ||
            lines_disagree(lines, len, repeated, 8) != 0) {
            fprintf(stderr, "  '%s': rc %d, %016llx\n", t, rc, (unsigned long long)bits_of(v));
            bad++;
        }
    }
    CHECK_INT(bad, 0);
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint64_t next_u64(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}

static void test_random_vs_strtod(void)
{
    const char *env = getenv("TALLY_NUMBER_RANDOM");
    unsigned long n = env ? strtoul(env, NULL, 10) : 1000000UL, bad = 0, lines_bad = 0;
    /* Every text also as a line of a plain file, in blocks through the bulk line reader (every
     * seventh line ended by "\r\n"). */
    static char block[4096 * 64];
    static double block_want[4096];
    size_t block_len = 0, block_count = 0;
    /* And the JSON texts (no '+') as the elements of an array: "a, b, ..., 0" and room after. */
    static char array[4096 * 64 + 128];
    static double array_want[4096];
    size_t array_len = 0, array_count = 0;
    unsigned long elements_bad = 0;
    for (unsigned long i = 0; i < n; i++) {
        double x;
        if (i % 2) {
            x = of_bits(next_u64());
            if (!isfinite(x))
                continue;
        } else {
            /* Benchmark magnitudes: 1e-9 .. 1e9, every bit of the mantissa random. */
            x = ldexp(1.0 + (double)(next_u64() >> 12) / 4503599627370496.0,
                      (int)(next_u64() % 60) - 30);
        }
        char g17[40], shortest[TALLY__NUMBER_BUF], fixed[400];
        snprintf(g17, sizeof(g17), "%.17g", x);
        tally__number_format(shortest, x);
        /* Positional with 0 to 24 decimals: long fractions, leading zeros, more than 19
         * significant digits, more than the 32 characters the long path looks at. */
        snprintf(fixed, sizeof(fixed), i % 3 ? "%.*f" : "%+.*f", (int)(next_u64() % 25), x);
        const char *texts[3] = { g17, shortest, fixed };
        for (int k = 0; k < 3; k++) {
            double v = 0;
            double ref = strtod(texts[k], NULL);
            int rc = tally__parse_double(&v, texts[k], strlen(texts[k]));
            if (!same_when_padded(texts[k], strlen(texts[k])))
                rc = TALLY_EPARSE;
            if (rc != TALLY_OK || bits_of(v) != bits_of(ref) ||
                (k < 2 && bits_of(ref) != bits_of(x))) {
                if (bad++ < 5)
                    fprintf(stderr, "  '%s': rc %d, %016llx, strtod %016llx\n", texts[k], rc,
                            (unsigned long long)bits_of(v), (unsigned long long)bits_of(ref));
            }
            size_t tn = strlen(texts[k]);
            if (block_count == TALLY__COUNT(block_want) || block_len + tn + 2 > sizeof(block)) {
                lines_bad += lines_disagree(block, block_len, block_want, block_count);
                block_len = block_count = 0;
            }
            memcpy(block + block_len, texts[k], tn);
            block_len += tn;
            if (block_count % 7 == 6)
                block[block_len++] = '\r';
            block[block_len++] = '\n';
            block_want[block_count++] = ref;
            if (texts[k][0] == '+')
                continue;
            if (array_count == TALLY__COUNT(array_want) || array_len + tn + 2 > sizeof(block)) {
                memcpy(array + array_len, "0", 1);
                memset(array + array_len + 1, ' ', 100);
                elements_bad += elements_disagree(array, array_len + 101, array_want, array_count);
                array_len = array_count = 0;
            }
            memcpy(array + array_len, texts[k], tn);
            memcpy(array + array_len + tn, array_count % 5 == 4 ? ",\n    " : ", ",
                   array_count % 5 == 4 ? 6 : 2);
            array_len += tn + (array_count % 5 == 4 ? 6 : 2);
            array_want[array_count++] = ref;
        }
    }
    if (block_count > 0)
        lines_bad += lines_disagree(block, block_len, block_want, block_count);
    if (array_count > 0) {
        memcpy(array + array_len, "0", 1);
        memset(array + array_len + 1, ' ', 100);
        elements_bad += elements_disagree(array, array_len + 101, array_want, array_count);
    }
    CHECK_INT(elements_bad, 0);
    fprintf(stderr, "%lu random doubles, %%.17g, shortest and %%.Nf, compared with strtod, as "
                    "texts, as lines and as JSON array elements\n", n);
    CHECK_INT(bad, 0);
    CHECK_INT(lines_bad, 0);
}

int main(void)
{
    test_long_path_borders();
    test_clinger_borders();
    test_hard_cases();
    test_repr();
    test_random_vs_strtod();
    return check_summary();
}
