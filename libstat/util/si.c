/* SI prefixes for human-readable numbers (see si.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/count.h"
#include "util/si.h"

typedef struct prefix {
    const char *name;
    double factor;
} prefix;

/* Engineering prefixes, smallest first. */
static const prefix prefixes[] = {
    {"p", 1e-12}, {"n", 1e-9}, {"\xc2\xb5", 1e-6}, {"m", 1e-3}, {"", 1},
    {"k", 1e3},   {"M", 1e6},  {"G", 1e9},         {"T", 1e12}, {"P", 1e15},
};
#define PREFIX_COUNT TALLY__COUNT(prefixes)
#define UNIT_INDEX 4 /* prefixes[UNIT_INDEX] is "" */

/* Units written with their prefix in one word: the time units the workloads and importers use,
 * and bytes, bits and hertz with any prefix letter. */
typedef struct base_unit {
    const char *spelling; /* as it appears in input */
    double base;          /* its size in the base unit */
    const char *base_name;/* the base unit's symbol */
    int lowest;           /* index of the smallest prefix shown */
    int highest;          /* index of the largest prefix shown */
} base_unit;

static const base_unit time_units[] = {
    {"s", 1, "s", 1, UNIT_INDEX},      {"sec", 1, "s", 1, UNIT_INDEX},
    {"secs", 1, "s", 1, UNIT_INDEX},   {"seconds", 1, "s", 1, UNIT_INDEX},
    {"ms", 1e-3, "s", 1, UNIT_INDEX},  {"msec", 1e-3, "s", 1, UNIT_INDEX},
    {"us", 1e-6, "s", 1, UNIT_INDEX},  {"usec", 1e-6, "s", 1, UNIT_INDEX},
    {"\xc2\xb5s", 1e-6, "s", 1, UNIT_INDEX}, {"ns", 1e-9, "s", 1, UNIT_INDEX},
    {"nsec", 1e-9, "s", 1, UNIT_INDEX},
};

/* Binary prefixes for bytes (IEC 80000-13), as benchstat shows B/op and B/s: 1.15 GiB, not
 * 1.23 GB. */
static const prefix binary_prefixes[] = {
    {"", 1}, {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0}, {"Pi", 1125899906842624.0},
};

/* Words a prefix joins without a space, as people write them: kops/s, Mreq/s, GFLOPS, kIOPS.
 * Any other word keeps the prefix apart ("54 k trans/s"). */
static const char *const count_words[] = {
    "op", "ops", "iops", "IOPS", "req", "reqs", "flop", "flops", "FLOP", "FLOPS",
    "msg", "msgs", "pkt", "pkts", "txn", "txns",
};

typedef enum unit_kind { UNIT_OTHER, UNIT_BYTES, UNIT_BITS, UNIT_HERTZ, UNIT_COUNT } unit_kind;

/* A unit read as [prefix] word [tail]: "MB/s" is 10^6 times the base "B" with the tail "/s";
 * "KiB" 1024 times "B"; "Mbit/s" 10^6 times "bit"; "kops/s" 10^3 times "ops". */
typedef struct parsed_unit {
    unit_kind kind;
    double base;      /* the size of one unit in its base word */
    const char *word; /* the base word as written ("B", "bytes", "bit", "Hz", "ops") */
    size_t word_len;
    const char *tail; /* what follows the word: "", "/s", "/op" */
} parsed_unit;

static size_t word_length(const char *s)
{
    size_t n = 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z'))
        n++;
    return n;
}

static int word_is(const char *w, size_t n, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(list[i]) == n && strncmp(w, list[i], n) == 0)
            return 1;
    return 0;
}

/* The kind of a bare word (no prefix): bytes, bits, hertz, a count word, or none. */
static unit_kind word_kind(const char *w, size_t n)
{
    static const char *const bytes[] = {"B", "byte", "bytes", "Byte", "Bytes"};
    static const char *const bits[] = {"b", "bit", "bits", "bps"};
    if (word_is(w, n, bytes, TALLY__COUNT(bytes)))
        return UNIT_BYTES;
    if (word_is(w, n, bits, TALLY__COUNT(bits)))
        return UNIT_BITS;
    if (n == 2 && strncmp(w, "Hz", 2) == 0)
        return UNIT_HERTZ;
    if (word_is(w, n, count_words, TALLY__COUNT(count_words)))
        return UNIT_COUNT;
    return UNIT_OTHER;
}

/* Whether `unit` is [prefix] word [/tail] of a kind that takes prefixes in one word. */
static int parse_unit(parsed_unit *u, const char *unit)
{
    static const char letters[] = "kKMGTP";
    static const double factors[] = {1e3, 1e3, 1e6, 1e9, 1e12, 1e15};
    size_t n = word_length(unit);
    const char *tail = unit + n;
    /* Only a tail of "/something" keeps the word whole: B/s, B/op (go test), kB/sec. */
    if (n == 0 || (*tail != '\0' && !(tail[0] == '/' && tail[1] != '\0')))
        return 0;
    u->base = 1;
    u->word = unit;
    u->word_len = n;
    u->tail = tail;
    u->kind = word_kind(unit, n);
    if (u->kind != UNIT_OTHER)
        return 1;
    const char *hit = n > 1 ? strchr(letters, unit[0]) : NULL;
    if (hit == NULL)
        return 0;
    /* A binary prefix: KiB, MiB, GiB. */
    if (n > 2 && unit[1] == 'i' && word_kind(unit + 2, n - 2) == UNIT_BYTES && hit != letters) {
        u->base = binary_prefixes[hit - letters].factor;
        u->word = unit + 2;
        u->word_len = n - 2;
        u->kind = UNIT_BYTES;
        return 1;
    }
    u->kind = word_kind(unit + 1, n - 1);
    if (u->kind == UNIT_OTHER)
        return 0;
    u->base = factors[hit - letters];
    u->word = unit + 1;
    u->word_len = n - 1;
    return 1;
}

/* A unit whose head (before any '/') has a part, split at '-', that counts bytes ("a-bytes",
 * "bytes-allocated"): benchstat's rule for binary prefixes. The prefix then stands apart. */
static int counts_bytes(const char *unit)
{
    const char *end = strchr(unit, '/');
    if (end == NULL)
        end = unit + strlen(unit);
    for (const char *p = unit; p < end;) {
        const char *dash = memchr(p, '-', (size_t)(end - p));
        const char *stop = dash ? dash : end;
        if (word_length(p) == (size_t)(stop - p) && word_kind(p, (size_t)(stop - p)) == UNIT_BYTES)
            return 1;
        p = stop + 1;
    }
    return 0;
}

/* The largest binary prefix not above `magnitude` (bytes). */
static size_t pick_binary(double magnitude)
{
    size_t k = 0;
    for (size_t i = 0; i < TALLY__COUNT(binary_prefixes); i++)
        if (magnitude >= binary_prefixes[i].factor * (1 - 1e-12))
            k = i;
    return k;
}

/* The largest prefix in [lowest, highest] not above `magnitude` (the lowest when all are). */
static int pick(double magnitude, int lowest, int highest)
{
    int k = lowest;
    for (int i = lowest; i <= highest; i++)
        if (magnitude >= prefixes[i].factor * (1 - 1e-12))
            k = i;
    return k;
}

void tally__si_choose(tally__si *out, double magnitude, const char *unit)
{
    if (unit == NULL)
        unit = "";
    out->factor = 1;
    snprintf(out->unit, sizeof(out->unit), "%s", unit);
    if (!(magnitude > 0) || !isfinite(magnitude) || strcmp(unit, "%") == 0)
        return;
    /* A time per something keeps its tail: sec/op and ns/op (go test) become µs/op. */
    const char *slash = strchr(unit, '/');
    size_t head = slash && slash[1] != '\0' ? (size_t)(slash - unit) : strlen(unit);
    for (size_t i = 0; i < TALLY__COUNT(time_units); i++) {
        const base_unit *t = &time_units[i];
        if (strlen(t->spelling) != head || strncmp(unit, t->spelling, head) != 0)
            continue;
        int k = pick(magnitude * t->base, t->lowest, t->highest);
        out->factor = prefixes[k].factor / t->base;
        snprintf(out->unit, sizeof(out->unit), "%s%s%s", prefixes[k].name, t->base_name,
                 unit + head);
        return;
    }
    parsed_unit u;
    if (parse_unit(&u, unit)) {
        if (u.kind == UNIT_BYTES) {
            size_t k = pick_binary(magnitude * u.base);
            out->factor = binary_prefixes[k].factor / u.base;
            /* "bytes" with a prefix reads as "GiB"; alone it stays as written. */
            int symbol = k > 0 || u.base != 1;
            snprintf(out->unit, sizeof(out->unit), "%s%.*s%s", binary_prefixes[k].name,
                     symbol ? 1 : (int)u.word_len, symbol ? "B" : u.word, u.tail);
            return;
        }
        int k = pick(magnitude * u.base, UNIT_INDEX, (int)PREFIX_COUNT - 1);
        out->factor = prefixes[k].factor / u.base;
        snprintf(out->unit, sizeof(out->unit), "%s%.*s%s", prefixes[k].name, (int)u.word_len,
                 u.word, u.tail);
        return;
    }
    if (counts_bytes(unit)) {
        size_t k = pick_binary(magnitude);
        out->factor = binary_prefixes[k].factor;
        if (k > 0)
            snprintf(out->unit, sizeof(out->unit), "%s %s", binary_prefixes[k].name, unit);
        return;
    }
    /* Any other unit (trans/s, a plain count): the prefix as a word of its own, only
     * upwards (a count of 0.5 stays 0.5, not 500 m). */
    int k = pick(magnitude, UNIT_INDEX, (int)PREFIX_COUNT - 1);
    out->factor = prefixes[k].factor;
    if (k != UNIT_INDEX)
        snprintf(out->unit, sizeof(out->unit), "%s%s%s", prefixes[k].name, unit[0] ? " " : "",
                 unit);
}

int tally__numfmt_sig_decimals_raw(double x, int digits)
{
    x = fabs(x);
    if (!(x > 0) || !isfinite(x))
        return 0;
    /* The position of the leading digit, from the printed value so 9.9996 (which rounds to
     * 10.00) counts as two whole digits. */
    int lead = (int)floor(log10(x));
    int decimals = digits - 1 - lead;
    if (decimals > 0) {
        char probe[64];
        snprintf(probe, sizeof(probe), "%.*e", digits - 1, x);
        const char *e = strchr(probe, 'e');
        if (e)
            decimals = digits - 1 - atoi(e + 1);
    }
    return decimals < 0 ? 0 : decimals;
}

int tally__numfmt_sig_decimals(double x, int digits)
{
    int decimals = tally__numfmt_sig_decimals_raw(x, digits);
    return decimals > 17 ? 17 : decimals;
}

/* The point as the separator, whatever LC_NUMERIC says. */
static void point(char *out)
{
    for (char *p = out; *p; p++)
        if (*p == ',')
            *p = '.';
}

size_t tally__format_fixed(char *out, size_t size, int decimals, double x)
{
    if (size == 0)
        return 0;
    int n = decimals < 0 ? snprintf(out, size, "%.*e", -decimals - 1, x)
                         : snprintf(out, size, "%.*f", decimals, x);
    point(out);
    if (n < 0)
        n = 0;
    return (size_t)n < size ? (size_t)n : size - 1;
}

void tally__numfmt_choose(tally__numfmt *f, double magnitude, double spread, const char *unit,
                          int prefixed, int precision)
{
    magnitude = fabs(magnitude);
    if (prefixed) {
        tally__si_choose(&f->si, magnitude, unit);
    } else {
        f->si.factor = 1;
        snprintf(f->si.unit, sizeof(f->si.unit), "%s", unit ? unit : "");
    }
    f->sci = 0;
    if (precision >= 0) {
        f->decimals = precision > 17 ? 17 : precision;
        return;
    }
    double m = isfinite(magnitude) ? magnitude / f->si.factor : 0;
    int decimals = tally__numfmt_sig_decimals_raw(m, TALLY__NUMFMT_DIGITS);
    if (spread > 0 && isfinite(spread)) {
        /* Two significant digits of the spread, but never fewer than 3 or more than 7 of the
         * value: a spread wider than the value does not make it an integer, and a tiny one
         * does not earn it 12 digits. */
        int by_spread = tally__numfmt_sig_decimals_raw(spread / f->si.factor, 2);
        int lo = m > 0 ? tally__numfmt_sig_decimals_raw(m, 3) : 0;
        int hi = m > 0 ? tally__numfmt_sig_decimals_raw(m, 7) : 17;
        decimals = by_spread < lo ? lo : by_spread > hi ? hi : by_spread;
    }
    /* Beyond 17 decimals (values below about 1e-13 in the shown unit) fixed notation would
     * print zeros: scientific notation with the significant digits those decimals meant. */
    f->sci = 0;
    if (decimals > 17 && m > 0) {
        int lead = decimals - tally__numfmt_sig_decimals_raw(m, 1);
        f->sci = lead + 1 < 1 ? 1 : lead + 1 > 17 ? 17 : lead + 1;
    }
    f->decimals = decimals > 17 ? 17 : decimals;
}

size_t tally__numfmt_number(char *out, size_t size, const tally__numfmt *f, double x)
{
    if (size == 0)
        return 0;
    int n;
    if (!isfinite(x)) {
        n = snprintf(out, size, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
    } else if (f->sci > 0) {
        return tally__format_fixed(out, size, -f->sci, x / f->si.factor);
    } else {
        double v = x / f->si.factor;
        /* A value that rounds to zero prints as zero: "-0.00" would read as a sign. */
        double unit_last = pow(10, -f->decimals) / 2;
        if (fabs(v) < unit_last)
            v = 0;
        n = snprintf(out, size, "%.*f", f->decimals, v);
        point(out); /* snprintf follows LC_NUMERIC */
    }
    if (n < 0)
        n = 0;
    return (size_t)n < size ? (size_t)n : size - 1;
}

void tally__si_format(char *out, size_t size, double x, int digits, const char *unit)
{
    if (size == 0)
        return;
    if (digits < 1)
        digits = 1;
    if (digits > 17)
        digits = 17;
    if (!isfinite(x)) {
        snprintf(out, size, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
        return;
    }
    tally__numfmt f;
    tally__numfmt_choose(&f, x, 0, unit, 1, 0);
    double v = x / f.si.factor;
    /* Significant digits as decimals: 27.15 (4), 0.5000 (4), 1234 (4). */
    int whole = v != 0 ? (int)floor(log10(fabs(v))) + 1 : 1;
    f.decimals = digits - whole < 0 ? 0 : digits - whole;
    if (f.decimals > 17) /* below about 1e-13 in the unit: scientific notation */
        f.sci = digits;
    char number[64];
    tally__numfmt_number(number, sizeof(number), &f, x);
    snprintf(out, size, "%s%s%s", number, f.si.unit[0] ? " " : "", f.si.unit);
}
