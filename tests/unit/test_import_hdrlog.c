/* The HdrHistogram log importer (formats/import_hdrlog.c) and its decoder (formats/hdr_decode.c),
 * on logs written by the encoder below: written from HdrHistogram's documented encoding (the
 * payload cookie and header, fixed-width big-endian counts for V0 and V1, ZigZag LEB128 counts
 * with negative runs of zeros for V2, zlib, a compressed wrapper cookie and length, base64), not
 * from the decoder. Expected bucket values are hand-computed from HdrHistogram's bucket layout
 * (AbstractHistogram: sub-bucket count 2^ceil(log2(2 * 10^digits)), index i of bucket
 * (i >> half_magnitude) - 1, reported at its highest equivalent value). */
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "../check.h"
#include "formats/hdr_decode.h"
#include "import_helpers.h"

/* ---- the encoder ---- */

typedef struct bytes {
    unsigned char d[1 << 16];
    size_t n;
} bytes;

static void put32(bytes *b, uint32_t v)
{
    for (int i = 3; i >= 0; i--)
        b->d[b->n++] = (unsigned char)(v >> (8 * i));
}

static void put64(bytes *b, uint64_t v)
{
    put32(b, (uint32_t)(v >> 32));
    put32(b, (uint32_t)v);
}

static void put_zigzag(bytes *b, int64_t v)
{
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    for (int i = 0; i < 8; i++) {
        if (u < 0x80) {
            b->d[b->n++] = (unsigned char)u;
            return;
        }
        b->d[b->n++] = (unsigned char)(u & 0x7f) | 0x80;
        u >>= 7;
    }
    b->d[b->n++] = (unsigned char)u; /* the 9th byte holds 8 bits */
}

/* counts[0..len) by index, encoded as `version` (0, 1 or 2), word size 8 (V0) or 4 (V1). */
static void encode_payload(bytes *p, int version, uint32_t digits, uint64_t lowest, double ratio,
                           const uint64_t *counts, size_t len)
{
    p->n = 0;
    if (version == 0) {
        put32(p, 0x1c849308u | (8u << 4));
        put32(p, digits);
        put64(p, lowest);
        put64(p, UINT64_C(3600000000));
        uint64_t total = 0;
        for (size_t i = 0; i < len; i++)
            total += counts[i];
        put64(p, total);
        for (size_t i = 0; i < len; i++)
            put64(p, counts[i]);
        return;
    }
    bytes body = { .n = 0 };
    for (size_t i = 0; i < len;) {
        if (version == 1) {
            put32(&body, (uint32_t)counts[i++]);
            continue;
        }
        size_t j = i;
        while (j < len && counts[j] == 0)
            j++;
        if (j - i > 1) {
            put_zigzag(&body, -(int64_t)(j - i));
            i = j;
        } else {
            put_zigzag(&body, (int64_t)counts[i++]);
        }
    }
    put32(p, version == 1 ? 0x1c849301u | (4u << 4) : 0x1c849303u | 0x10u);
    put32(p, (uint32_t)body.n);
    put32(p, 0); /* normalizing index offset */
    put32(p, digits);
    put64(p, lowest);
    put64(p, UINT64_C(3600000000));
    uint64_t bits;
    memcpy(&bits, &ratio, sizeof bits);
    put64(p, bits);
    memcpy(p->d + p->n, body.d, body.n);
    p->n += body.n;
}

static void base64(char *out, const unsigned char *in, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = abc[v >> 18 & 63];
        out[o++] = abc[v >> 12 & 63];
        out[o++] = i + 1 < n ? abc[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? abc[v & 63] : '=';
    }
    out[o] = '\0';
}

/* The base64 text of a compressed histogram. */
static void encode(char *out, int version, uint32_t digits, uint64_t lowest, double ratio,
                   const uint64_t *counts, size_t len)
{
    static bytes p, w;
    encode_payload(&p, version, digits, lowest, ratio, counts, len);
    uLongf zlen = sizeof w.d - 8;
    w.n = 0;
    put32(&w, version == 0 ? 0x1c849309u | (8u << 4)
              : version == 1 ? 0x1c849302u | (4u << 4)
                             : 0x1c849304u | 0x10u);
    int zrc = compress(w.d + 8, &zlen, p.d, p.n);
    CHECK_INT(zrc, Z_OK);
    put32(&w, (uint32_t)zlen);
    w.n += zlen;
    base64(out, w.d, w.n);
}

/* ---- checks ---- */

static void check_hist(const tally_case *c, size_t run, const double *values,
                       const uint64_t *counts, size_t n, double resolution)
{
    const double *v;
    const uint64_t *k;
    size_t got;
    double res;
    CHECK_INT(tally_case_histogram_at(&v, &k, &got, &res, c, run), TALLY_OK);
    CHECK_INT(got, n);
    for (size_t i = 0; i < n && i < got; i++) {
        CHECK_REL(v[i], values[i], 0);
        CHECK_INT(k[i], counts[i]);
    }
    CHECK_REL(res, resolution, 0);
}

static char line_text[4][2048];

/* Two significant digits: 256 sub-buckets, half count 128 (half magnitude 7). By hand:
 * index 3 -> value 3 (width 1); index 100 -> 100; index 300 -> bucket (300 >> 7) - 1 = 1,
 * sub-bucket (300 & 127) + 128 = 172, lowest 172 << 1 = 344, width 2, highest 345; index 400 ->
 * bucket 2, sub-bucket 16 + 128 = 144, lowest 576, width 4, highest 579. */
static uint64_t two_digit_counts[401];
static const double two_digit_values[] = { 3, 100, 345, 579 };
static const uint64_t two_digit_k[] = { 5, 2, 1, 2 };

static void fill_two_digit(void)
{
    memset(two_digit_counts, 0, sizeof two_digit_counts);
    two_digit_counts[3] = 5;
    two_digit_counts[100] = 2;
    two_digit_counts[300] = 1;
    two_digit_counts[400] = 2;
}

static tally_results *load_log(const char *text, const tally_load_options *opts)
{
    tally_results *r = NULL;
    int rc = import_text(&r, &tally__importer_hdrlog, text, "t.hlog", opts);
    if (rc != TALLY_OK)
        fprintf(stderr, "  load: %s\n", last_message());
    return r;
}

static void test_each_encoding(void)
{
    fill_two_digit();
    for (int version = 0; version <= 2; version++) {
        encode(line_text[0], version, 2, 1, 1.0, two_digit_counts, 401);
        char log[12000];
        snprintf(log, sizeof log,
                 "#[Histogram log format version 1.3]\n"
                 "#[StartTime: 1000.000 (seconds since epoch), Thu Jan 01 00:16:40 UTC 1970]\n"
                 "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                 "\"Interval_Compressed_Histogram\"\n"
                 "0.000,1.000,0.579,%s\n",
                 line_text[0]);
        tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
        tally_results *r = load_log(log, &o);
        CHECK(r != NULL);
        if (r == NULL)
            continue;
        tally_case *c = find_case(r, "latency", "all");
        CHECK(c != NULL);
        CHECK_INT(tally_case_histogram_count(c), 1);
        CHECK_INT(tally_case_sample_count(c), 0);
        /* total 5 + 2 + 1 + 2 = 10 and max 579 (HdrHistogram's max: the highest equivalent value
         * of the last non-empty bucket) are the last value and the sum of the counts */
        check_hist(c, 0, two_digit_values, two_digit_k, 4, 3);
        tally_results_free(r);
    }
}

/* A lowest discernible value of 1000: unit magnitude floor(log2(1000)) = 9; one digit: 32
 * sub-buckets, half count 16. Index 5 -> sub-bucket 5 of bucket 0, lowest 5 << 9 = 2560, width
 * 512, highest 3071; index 40 -> bucket (40 >> 4) - 1 = 1, sub-bucket 8 + 16 = 24, lowest
 * 24 << 10 = 24576, width 1024, highest 25599. With a conversion ratio of 0.5 (a
 * DoubleHistogram) the values halve: 1535.5 and 12799.5, resolution 1023 * 0.5 = 511.5. */
static void test_unit_and_ratio(void)
{
    uint64_t counts[41] = { 0 };
    counts[5] = 7;
    counts[40] = 1;
    encode(line_text[0], 2, 1, 1000, 0.5, counts, 41);
    char log[12000];
    snprintf(log, sizeof log, "0.5,1.0,12.8,%s\n", line_text[0]);
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    tally_results *r = load_log(log, &o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    static const double v[] = { 1535.5, 12799.5 };
    static const uint64_t k[] = { 7, 1 };
    check_hist(find_case(r, "latency", "all"), 0, v, k, 2, 511.5);
    tally_results_free(r);
}

/* Tags become cases; intervals pool into one run per tag (counts of one bucket add up), or are
 * runs of their own; the time range keeps intervals by their start since StartTime. */
static void test_tags_runs_and_range(void)
{
    uint64_t a[6] = { 0, 1, 0, 0, 0, 2 }, b[6] = { 0, 3, 0, 0, 4, 0 };
    encode(line_text[0], 2, 3, 1, 1.0, a, 6);
    encode(line_text[1], 2, 3, 1, 1.0, b, 6);
    char log[12000];
    /* Timestamps relative to StartTime (more than a year before it): offsets 0, 1, 2, 3 s. */
    snprintf(log, sizeof log,
             "#[Histogram log format version 1.2]\n"
             "#[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 08:24:39 PDT 2015]\n"
             "0.000,1.000,0.005,%s\n"
             "Tag=reads,1.000,1.000,0.004,%s\n"
             "2.000,1.000,0.004,%s\n"
             "Tag=reads,3.000,1.000,0.005,%s\n",
             line_text[0], line_text[1], line_text[1], line_text[0]);
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    tally_results *r = load_log(log, &o);
    CHECK(r != NULL);
    if (r) {
        /* untagged: a + b = {1: 4, 4: 4, 5: 2} by hand */
        static const double v[] = { 1, 4, 5 };
        static const uint64_t k[] = { 4, 4, 2 };
        tally_case *all = find_case(r, "latency", "all");
        CHECK_INT(tally_case_histogram_count(all), 1);
        check_hist(all, 0, v, k, 3, 0);
        CHECK_INT(tally_case_histogram_count(find_case(r, "latency", "reads")), 1);
        CHECK_INT(tally_results_note_count(r), 1);
        CHECK_STR(tally_results_note_at(r, 0), "t.hlog: HdrHistogram log: 4 of 4 intervals, "
                                               "pooled into one run per tag; bucket values exact "
                                               "to within 0");
        tally_results_free(r);
    }
    o.interval_runs = 1;
    o.time_range_given = 1;
    o.time_start = 1;
    o.time_end = 3; /* keeps the intervals starting at 1 and 2 s: one of each tag */
    r = load_log(log, &o);
    CHECK(r != NULL);
    if (r) {
        static const double v[] = { 1, 4 };
        static const uint64_t k[] = { 3, 4 };
        tally_case *all = find_case(r, "latency", "all");
        CHECK_INT(tally_case_histogram_count(all), 1);
        check_hist(all, 0, v, k, 2, 0);
        check_hist(find_case(r, "latency", "reads"), 0, v, k, 2, 0);
        CHECK_STR(tally_results_note_at(r, 0), "t.hlog: HdrHistogram log: 2 of 4 intervals start "
                                               "within the time range, each a run; bucket values "
                                               "exact to within 0");
        tally_results_free(r);
    }
    o.time_start = 10;
    o.time_end = 20; /* after the last interval: nothing kept is an error, not an empty run */
    CHECK_INT(import_text(&r, &tally__importer_hdrlog, log, "t.hlog", &o), TALLY_ENODATA);
    CHECK_STR(last_message(), "t.hlog: none of the 4 intervals starts within the time range 10 "
                              "to 20 s after the log's start");
    o.time_range_given = 0;
    r = load_log(log, &o);
    CHECK(r != NULL);
    if (r) {
        CHECK_INT(tally_case_histogram_count(find_case(r, "latency", "all")), 2);
        tally_results_free(r);
    }
}

/* BaseTime: timestamps relative to it; absolute timestamps without it. */
static void test_base_time(void)
{
    uint64_t a[3] = { 0, 0, 1 };
    encode(line_text[0], 2, 3, 1, 1.0, a, 3);
    char log[12000];
    snprintf(log, sizeof log,
             "#[StartTime: 100.000 (seconds since epoch)]\n"
             "#[BaseTime: 90.000 (seconds since epoch)]\n"
             "12.000,1.000,0.002,%s\n" /* 90 + 12 = 102: 2 s after StartTime */
             "25.000,1.000,0.002,%s\n", /* 115: 15 s after */
             line_text[0], line_text[0]);
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.time_range_given = 1;
    o.time_start = 0;
    o.time_end = 10;
    tally_results *r = load_log(log, &o);
    CHECK(r != NULL);
    if (r) {
        CHECK_STR(tally_results_note_at(r, 0), "t.hlog: HdrHistogram log: 1 of 2 intervals start "
                                               "within the time range, pooled into one run per "
                                               "tag; bucket values exact to within 0");
        tally_results_free(r);
    }
}

static void expect_error(const char *log, int code, const char *message)
{
    tally_results *r = NULL;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(import_text(&r, &tally__importer_hdrlog, log, "t.hlog", &o), code);
    CHECK_STR(last_message(), message);
    CHECK(r == NULL);
}

static void test_errors(void)
{
    /* "0.0,1.0,1.0," is 12 characters: the histogram starts at column 13, '@' is at 18 */
    expect_error("0.0,1.0,1.0,HISTF@==\n", TALLY_EPARSE,
                 "t.hlog:1:18: HdrHistogram histogram: '@' is not a base64 character");
    expect_error("0.0,1.0,1.0,QUJD\n", TALLY_EPARSE,
                 "t.hlog:1:13: HdrHistogram histogram: shorter than its 8-byte compressed header");
    /* "AAAAAAAAAAAA" decodes to 9 zero bytes: cookie 0 */
    expect_error("0.0,1.0,1.0,AAAAAAAAAAAA\n", TALLY_EPARSE,
                 "t.hlog:1:13: HdrHistogram histogram: unknown compressed-histogram cookie");
    expect_error("0.0,x,1.0,AAAA\n", TALLY_EPARSE,
                 "t.hlog:1:5: expected the interval's length (a number >= 0), found 'x'");
    expect_error("0.0,1.0,1.0\n", TALLY_EPARSE, "t.hlog:1:12: expected the encoded histogram");
    expect_error("#[Histogram log format version 1.3]\n", TALLY_EFORMAT,
                 "t.hlog:1:1: no HdrHistogram interval lines found in the file");
    /* A cut zlib stream: the wrapper of a real histogram with its last 8 base64 characters (6
     * bytes of the stream) replaced by padding-free zeros: the stream's checksum fails. */
    uint64_t a[3] = { 0, 0, 1 };
    encode(line_text[0], 2, 3, 1, 1.0, a, 3);
    size_t n = strlen(line_text[0]);
    memcpy(line_text[0] + n - 8, "AAAAAAAA", 8);
    char log[12000];
    snprintf(log, sizeof log, "0.0,1.0,1.0,%s\n", line_text[0]);
    expect_error(log, TALLY_EPARSE,
                 "t.hlog:1:13: HdrHistogram histogram: the zlib stream is damaged or cut short");
}

int main(void)
{
    test_each_encoding();
    test_unit_and_ratio();
    test_tags_runs_and_range();
    test_base_time();
    test_errors();
    return check_summary();
}
