/* The number display shared by the human formats (libstat/util/si.h, tally__numfmt): the SI
 * prefix of a magnitude, the decimals a spread justifies, locale-independent output. Every
 * expected text is worked out by hand in the comment beside it. */
#include <locale.h>
#include <string.h>

#include "check.h"
#include "util/si.h"

static void check_text(const char *got, const char *want, int line)
{
    if (strcmp(got, want) != 0)
        fprintf(stderr, "  line %d: got '%s', expected '%s'\n", line, got, want);
    check_report(strcmp(got, want) == 0, __FILE__, line, want);
}

/* The number and the unit as a caller prints them: "27.15 µs". */
static void shown(char *out, size_t size, double magnitude, double spread, const char *unit,
                  int precision, double x)
{
    tally__numfmt f;
    tally__numfmt_choose(&f, magnitude, spread, unit, 1, precision);
    size_t n = tally__numfmt_number(out, size, &f, x);
    snprintf(out + n, size - n, "%s%s", f.si.unit[0] ? " " : "", f.si.unit);
}

static void test_sig_decimals(void)
{
    CHECK_INT(tally__numfmt_sig_decimals(27.15, 4), 2);      /* 2 whole digits: 4 - 2 */
    CHECK_INT(tally__numfmt_sig_decimals(0.0002715, 4), 7);  /* 2.715e-4: 0.000 2715 */
    CHECK_INT(tally__numfmt_sig_decimals(1234567, 4), 0);    /* more whole digits than 4 */
    CHECK_INT(tally__numfmt_sig_decimals(-3.5, 4), 3);       /* the sign does not count */
    CHECK_INT(tally__numfmt_sig_decimals(9.9996, 4), 2);     /* rounds to 10.00: 2 whole digits */
    CHECK_INT(tally__numfmt_sig_decimals(99.996, 4), 1);     /* rounds to 100.0 */
    CHECK_INT(tally__numfmt_sig_decimals(0, 4), 0);
    CHECK_INT(tally__numfmt_sig_decimals(1.0 / 0.0, 4), 0);
}

static void test_prefix_and_digits(void)
{
    char t[96];
    /* go test: 27150 ns/op; no spread: 4 significant digits of 27.15 µs/op. */
    shown(t, sizeof t, 27150e-9, 0, "sec/op", -1, 27150e-9);
    check_text(t, "27.15 \xc2\xb5s/op", __LINE__);
    shown(t, sizeof t, 27150, 0, "ns/op", -1, 27150);
    check_text(t, "27.15 \xc2\xb5s/op", __LINE__);
    /* 54000 trans/s: "54.00 k trans/s" (the prefix a word of its own). */
    shown(t, sizeof t, 54000, 0, "trans/s", -1, 54000);
    check_text(t, "54.00 k trans/s", __LINE__);
    /* Bytes take binary prefixes (benchstat's choice): 1.2313e9 B/s / 2^30 = 1.14674 GiB/s,
     * 4 significant digits 1.147. */
    shown(t, sizeof t, 1231300000, 0, "B/s", -1, 1231300000);
    check_text(t, "1.147 GiB/s", __LINE__);
    /* go test's B/op keeps its tail: 2048 B/op = 2048 / 1024 = 2.000 KiB/op. */
    shown(t, sizeof t, 2048, 0, "B/op", -1, 2048);
    check_text(t, "2.000 KiB/op", __LINE__);
    /* hyperfine's `true`: 0.000412 s = 412.0 µs. */
    shown(t, sizeof t, 0.000412, 0, "s", -1, 0.000412);
    check_text(t, "412.0 \xc2\xb5s", __LINE__);
    /* 10 ms = 10.00 ms, not 0.01. */
    shown(t, sizeof t, 0.010, 0, "s", -1, 0.010);
    check_text(t, "10.00 ms", __LINE__);
    /* A plain count stays unprefixed below 1000; a percentage never takes a prefix. */
    shown(t, sizeof t, 0.5, 0, "", -1, 0.5);
    check_text(t, "0.5000", __LINE__);
    shown(t, sizeof t, 2500, 0, "%", -1, 2500);
    check_text(t, "2500 %", __LINE__);
}

static void test_spread(void)
{
    char t[96];
    /* 0.38 s with a half-width of 4 ms: 380.0 ms, the spread 4.0 ms with 2 significant digits
     * needs 1 decimal. */
    shown(t, sizeof t, 0.380, 0.004, "s", -1, 0.380);
    check_text(t, "380.0 ms", __LINE__);
    /* 27.15 us +- 0.031 us: 2 significant digits of the spread are 0.031, 3 decimals:
     * 27.150 (5 significant digits, within 3..7). */
    shown(t, sizeof t, 27.15e-6, 0.0312e-6, "s", -1, 27.15e-6);
    check_text(t, "27.150 \xc2\xb5s", __LINE__);
    /* A spread wider than the value: 2 digits of 250 would be 0 decimals, but the value keeps
     * 3 significant digits. 1.5 MB/s = 1.5e6 / 2^20 = 1.4305 MiB/s: 1.43 (decimals 2). */
    shown(t, sizeof t, 1.5, 250, "MB/s", -1, 1.5);
    check_text(t, "1.43 MiB/s", __LINE__);
    /* A tiny spread does not earn more than 7 significant digits: 450.4 MB/s = 450.4e6 / 2^20
     * = 429.534912 MiB/s, 429.5349 (4 decimals) for a spread of 1e-9. */
    shown(t, sizeof t, 450.4, 1e-9, "MB/s", -1, 450.4);
    check_text(t, "429.5349 MiB/s", __LINE__);
    /* An unknown spread (NaN, 0, negative) gives the 4 significant digits: 429.5. */
    shown(t, sizeof t, 450.4, 0.0 / 0.0, "MB/s", -1, 450.4);
    check_text(t, "429.5 MiB/s", __LINE__);
}

static void test_precision_and_edges(void)
{
    char t[96];
    tally__numfmt f;
    /* --precision 2 fixes the decimals; the prefix still follows the magnitude. */
    shown(t, sizeof t, 0.02715, 0.001, "s", 2, 0.02715);
    check_text(t, "27.15 ms", __LINE__);
    /* Without a prefix, precision 4 is the seed layouts' %.4f. */
    tally__numfmt_choose(&f, 0.38, 0, "s", 0, 4);
    CHECK_INT((long long)tally__numfmt_number(t, sizeof t, &f, 0.38), 6);
    check_text(t, "0.3800", __LINE__);
    check_text(f.si.unit, "s", __LINE__);
    CHECK_REL(f.si.factor, 1, 0);
    /* A negative value that rounds to zero prints without a sign. */
    tally__numfmt_choose(&f, 1, 0, "", 0, 2);
    tally__numfmt_number(t, sizeof t, &f, -0.004);
    check_text(t, "0.00", __LINE__);
    tally__numfmt_number(t, sizeof t, &f, -0.006);
    check_text(t, "-0.01", __LINE__);
    tally__numfmt_number(t, sizeof t, &f, 0.0 / 0.0);
    check_text(t, "nan", __LINE__);
    tally__numfmt_number(t, sizeof t, &f, -1.0 / 0.0);
    check_text(t, "-inf", __LINE__);
    /* A short buffer is cut and terminated. */
    tally__numfmt_number(t, 4, &f, 12345.678);
    check_text(t, "123", __LINE__);
    /* Precision beyond 17 is capped. */
    tally__numfmt_choose(&f, 1, 0, "", 0, 40);
    CHECK_INT(f.decimals, 17);
}

static void test_locale(void)
{
    /* A decimal comma locale: the point stays. Skipped when the locale is not installed. */
    const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    const char *got = NULL;
    for (size_t i = 0; i < TALLY__COUNT(names) && got == NULL; i++)
        got = setlocale(LC_NUMERIC, names[i]);
    char t[96];
    shown(t, sizeof t, 0.02715, 0, "s", -1, 0.02715);
    check_text(t, "27.15 ms", __LINE__);
    setlocale(LC_NUMERIC, "C");
}

/* Prefixes compose with the unit they join (issue: "k Mbit/s", "G a-bytes"): each expected
 * text is the value divided by the prefix, worked out by hand. */
static void test_prefix_composition(void)
{
    char t[96];
    /* iperf3: 9400 Mbit/s = 9.4e9 bit/s = 9.400 Gbit/s, not "9.400 k Mbit/s". */
    shown(t, sizeof t, 9400, 0, "Mbit/s", -1, 9400);
    check_text(t, "9.400 Gbit/s", __LINE__);
    /* 940 Mbit/s stays in Mbit/s: 940.0 (4 significant digits). */
    shown(t, sizeof t, 940, 0, "Mbit/s", -1, 940);
    check_text(t, "940.0 Mbit/s", __LINE__);
    /* Mbps keeps its spelling: 12500 Mbps = 12.50 Gbps. */
    shown(t, sizeof t, 12500, 0, "Mbps", -1, 12500);
    check_text(t, "12.50 Gbps", __LINE__);
    /* A count word joins its prefix: 54000 ops/s = 54.00 kops/s; 2.5e6 req/s = 2.500 Mreq/s;
     * an already prefixed one is rescaled: 3200 kops/s = 3.200 Mops/s. */
    shown(t, sizeof t, 54000, 0, "ops/s", -1, 54000);
    check_text(t, "54.00 kops/s", __LINE__);
    shown(t, sizeof t, 2.5e6, 0, "req/s", -1, 2.5e6);
    check_text(t, "2.500 Mreq/s", __LINE__);
    shown(t, sizeof t, 3200, 0, "kops/s", -1, 3200);
    check_text(t, "3.200 Mops/s", __LINE__);
    /* Hertz: 2.4e9 Hz = 2.400 GHz; 2400 MHz = 2.400 GHz. */
    shown(t, sizeof t, 2.4e9, 0, "Hz", -1, 2.4e9);
    check_text(t, "2.400 GHz", __LINE__);
    shown(t, sizeof t, 2400, 0, "MHz", -1, 2400);
    check_text(t, "2.400 GHz", __LINE__);
    /* Bytes, binary: 1234567890 bytes / 2^30 = 1.14978 GiB -> 1.150 GiB (the word "bytes"
     * becomes the symbol B once prefixed); 512 bytes stay "bytes". */
    shown(t, sizeof t, 1234567890, 0, "bytes", -1, 1234567890);
    check_text(t, "1.150 GiB", __LINE__);
    shown(t, sizeof t, 512, 0, "bytes", -1, 512);
    check_text(t, "512.0 bytes", __LINE__);
    /* go test's MB/s is 10^6 B/s: 320033788 B/s / 2^20 = 305.208 MiB/s -> 305.2 MiB/s, the
     * same whether the file said B/s or MB/s (320.033788 MB/s). */
    shown(t, sizeof t, 320033788, 0, "B/s", -1, 320033788);
    check_text(t, "305.2 MiB/s", __LINE__);
    shown(t, sizeof t, 320.033788, 0, "MB/s", -1, 320.033788);
    check_text(t, "305.2 MiB/s", __LINE__);
    /* An input already in a binary prefix: 5 TiB = 5 * 2^40 B = 5.000 TiB. */
    shown(t, sizeof t, 5, 0, "TiB", -1, 5);
    check_text(t, "5.000 TiB", __LINE__);
    /* 2048 KiB = 2^21 B = 2.000 MiB. */
    shown(t, sizeof t, 2048, 0, "KiB", -1, 2048);
    check_text(t, "2.000 MiB", __LINE__);
    /* A compound byte unit (benchstat: a part "bytes" before the '/') takes a binary prefix
     * as a word of its own: 1234567890 a-bytes = 1.150 Gi a-bytes, never "G a-bytes". */
    shown(t, sizeof t, 1234567890, 0, "a-bytes", -1, 1234567890);
    check_text(t, "1.150 Gi a-bytes", __LINE__);
    shown(t, sizeof t, 3072, 0, "bytes-allocated/op", -1, 3072);
    check_text(t, "3.000 Ki bytes-allocated/op", __LINE__); /* 3072 / 1024 */
    /* Any other word keeps a separate SI prefix: 54000 trans/s = 54.00 k trans/s; a word that
     * merely starts with a prefix letter is not read as prefixed: 5000 Mangos = 5.000 k Mangos. */
    shown(t, sizeof t, 54000, 0, "trans/s", -1, 54000);
    check_text(t, "54.00 k trans/s", __LINE__);
    shown(t, sizeof t, 5000, 0, "Mangos", -1, 5000);
    check_text(t, "5.000 k Mangos", __LINE__);
    /* Bits and counts are only prefixed upwards: 0.5 ops stays 0.5000 ops. */
    shown(t, sizeof t, 0.5, 0, "ops", -1, 0.5);
    check_text(t, "0.5000 ops", __LINE__);
}

int main(void)
{
    test_sig_decimals();
    test_prefix_and_digits();
    test_spread();
    test_precision_and_edges();
    test_prefix_composition();
    test_locale();
    return check_summary();
}
