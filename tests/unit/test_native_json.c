/* Native JSON: reading a complete file, writing, round trips bit for bit, schema errors with
 * their JSON paths. Expected values are read off tests/data/json/example.json by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/internal.h"
#include "formats/native_json.h"
#include "tally.h"

static const tally_case *case_of(const tally_results *r, const char *label, const char *bench,
                                 const char *name)
{
    const tally_resultset *rs = tally_results_find(r, label);
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    return b ? tally_benchmark_case_find(b, name) : NULL;
}

static void test_read_example(void)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/json/example.json", NULL), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    const tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "5.14.0-rc3-vanilla");
    CHECK_STR(tally_resultset_meta_get(rs, "host"), "marvin2");
    /* Numbers and booleans in metadata are kept as text. */
    CHECK_STR(tally_resultset_meta_get(rs, "cpus"), "48");
    CHECK_STR(tally_resultset_meta_get(rs, "smt"), "true");
    CHECK_STR(tally_resultset_meta_get(rs, "source_file"), TALLY_TEST_DATA "/json/example.json");
    CHECK_INT(tally_resultset_benchmark_count(rs), 2);
    const tally_benchmark *hb = tally_resultset_benchmark_at(rs, 0);
    CHECK_STR(tally_benchmark_unit(hb), "s");
    CHECK_INT(tally_benchmark_direction(hb), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_statistic(hb), TALLY_STAT_AMEAN);
    /* "stream" gives no better and no statistic: MB/s is a rate, the statistic the default. */
    const tally_benchmark *st = tally_resultset_benchmark_at(rs, 1);
    CHECK_INT(tally_benchmark_direction(st), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_benchmark_statistic(st), TALLY_STAT_DEFAULT);
    const tally_case *c = case_of(r, "5.14.0-rc3-vanilla", "hackbench-process-pipes", "4");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[0] == 1.0121 && tally_case_samples(c)[2] == 1.0003);
    CHECK_STR(tally_case_meta_get(c, "failed_runs"), "0");
    c = case_of(r, "5.14.0-rc3-vanilla", "stream", "Triad");
    CHECK(tally_case_samples(c)[2] == 10000.0);
    /* The unknown member "future_member" is ignored. */
    c = case_of(r, "5.14.0-rc3-alwayswake-v1r1", "hackbench-process-pipes", "1");
    CHECK(c && tally_case_samples(c)[1] == 0.5498);
    tally_results_free(r);
}

/* Every metadata entry of x but source_file (which names the file read) is in y. */
static int same_metadata(const tally_resultset *x, const tally_resultset *y)
{
    for (size_t m = 0; m < tally_resultset_meta_count(x); m++) {
        const char *key, *value;
        tally_resultset_meta_at(&key, &value, x, m);
        const char *other = tally_resultset_meta_get(y, key);
        if (strcmp(key, "source_file") != 0 && (other == NULL || strcmp(value, other) != 0))
            return 0;
    }
    return 1;
}

/* Two lists hold the same labels, metadata, benchmarks, cases and bit-identical samples. */
static int same_results(const tally_results *a, const tally_results *b)
{
    if (tally_results_count(a) != tally_results_count(b))
        return 0;
    for (size_t i = 0; i < tally_results_count(a); i++) {
        const tally_resultset *x = tally_results_at(a, i), *y = tally_results_at(b, i);
        if (strcmp(tally_resultset_label(x), tally_resultset_label(y)) != 0 ||
            tally_resultset_benchmark_count(x) != tally_resultset_benchmark_count(y))
            return 0;
        if (!same_metadata(x, y) || !same_metadata(y, x))
            return 0;
        for (size_t j = 0; j < tally_resultset_benchmark_count(x); j++) {
            const tally_benchmark *p = tally_resultset_benchmark_at(x, j);
            const tally_benchmark *q = tally_resultset_benchmark_at(y, j);
            if (strcmp(tally_benchmark_name(p), tally_benchmark_name(q)) != 0 ||
                strcmp(tally_benchmark_unit(p), tally_benchmark_unit(q)) != 0 ||
                tally_benchmark_direction(p) != tally_benchmark_direction(q) ||
                tally_benchmark_statistic(p) != tally_benchmark_statistic(q) ||
                tally_benchmark_case_count(p) != tally_benchmark_case_count(q))
                return 0;
            for (size_t k = 0; k < tally_benchmark_case_count(p); k++) {
                const tally_case *c = tally_benchmark_case_at(p, k);
                const tally_case *d = tally_benchmark_case_at(q, k);
                size_t n = tally_case_sample_count(c);
                if (strcmp(tally_case_name(c), tally_case_name(d)) != 0 ||
                    n != tally_case_sample_count(d) ||
                    memcmp(tally_case_samples(c), tally_case_samples(d), n * sizeof(double)) != 0 ||
                    tally_case_meta_count(c) != tally_case_meta_count(d))
                    return 0;
                for (size_t m = 0; m < tally_case_meta_count(c); m++) {
                    const char *k1, *v1, *k2, *v2;
                    tally_case_meta_at(&k1, &v1, c, m);
                    tally_case_meta_at(&k2, &v2, d, m);
                    if (strcmp(k1, k2) != 0 || strcmp(v1, v2) != 0)
                        return 0;
                }
            }
        }
    }
    return 1;
}

static void test_round_trip_files(void)
{
    static const char *const inputs[] = {
        TALLY_TEST_DATA "/json/example.json", TALLY_TEST_DATA "/csv/two-configs.csv",
        TALLY_TEST_DATA "/csv/quoted.csv", TALLY_TEST_DATA "/plain/tip.txt",
    };
    for (size_t i = 0; i < TALLY__COUNT(inputs); i++) {
        tally_results *a, *b;
        tally_results_new(&a);
        tally_results_new(&b);
        CHECK_INT(tally_load_file(a, inputs[i], NULL), TALLY_OK);
        const char *out = TALLY_TEST_TMP "/round-trip.json";
        CHECK_INT(tally_results_save(a, out), TALLY_OK);
        CHECK_INT(tally_load_file(b, out, NULL), TALLY_OK);
        CHECK(same_results(a, b));
        tally_results_free(a);
        tally_results_free(b);
    }
}

/* Doubles that need 17 digits, subnormals, extremes, negative zero, awkward names. */
static void test_round_trip_values(void)
{
    static const double x[] = {
        0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-320, 4.9406564584124654e-324, 1.7976931348623157e308,
        -2.2250738585072014e-308, 123456789012345678.0, -0.0, 0.30000000000000004, 5e-5, 42.0,
    };
    size_t n = TALLY__COUNT(x);
    tally_results *a, *b;
    tally_results_new(&a);
    tally_results_new(&b);
    tally_resultset *rs;
    tally_benchmark *bench;
    tally_case *c;
    tally_resultset_new(&rs, "quote \" backslash \\ tab \t nl \n bell \a utf8 \xc3\xa9");
    tally_resultset_meta_set(rs, "cmd", "hackbench -g 4 \"x\"");
    tally_results_add(a, rs);
    tally_resultset_benchmark_add(&bench, rs, "b/\x01", "MB/s", TALLY_LOWER_IS_BETTER);
    tally_benchmark_set_statistic(bench, TALLY_STAT_HMEAN);
    tally_benchmark_case_add(&c, bench, "p99 \"wakeup\"");
    tally_case_meta_set(c, "reported.mean", "0.5");
    tally_case_append(c, x, n);

    char *text;
    size_t len;
    CHECK_INT(tally_results_to_json(&text, &len, a), TALLY_OK);
    CHECK_INT(strlen(text), len);
    /* Escapes as RFC 8259 writes them (hand-written). */
    CHECK(strstr(text, "\"label\": \"quote \\\" backslash \\\\ tab \\t nl \\n bell \\u0007 utf8 "
                       "\xc3\xa9\"") != NULL);
    CHECK(strstr(text, "\"name\": \"b/\\u0001\"") != NULL);
    /* Explicit direction wins over the unit rule; the statistic is written when set. */
    CHECK(strstr(text, "\"better\": \"lower\"") != NULL);
    CHECK(strstr(text, "\"statistic\": \"hmean\"") != NULL);
    /* The shortest digits that read back exactly, as Python 3.11's repr gives them:
     * /usr/bin/python3 -c 'print(repr(1e-320), repr(5e-324), repr(1.7976931348623157e308))'
     * prints 1e-320 5e-324 1.7976931348623157e+308 (the subnormals used to come out with 15
     * digits, 9.99988867182683e-321 and 4.94065645841247e-324). */
    CHECK(strstr(text, "[0.1, 0.3333333333333333, 0.6666666666666666, 1e-320, "
                       "5e-324, 1.7976931348623157e+308, "
                       "-2.2250738585072014e-308, 1.2345678901234568e+17, -0, "
                       "0.30000000000000004, 5e-05, 42]") != NULL);
    CHECK_INT(tally_load_buffer(b, text, len, "mem.json", NULL), TALLY_OK);
    tally_free(text);
    CHECK(same_results(a, b));
    const tally_case *back = tally_benchmark_case_at(
        tally_resultset_benchmark_at(tally_results_at(b, 0), 0), 0);
    CHECK(memcmp(tally_case_samples(back), x, sizeof(x)) == 0);
    tally_results_free(a);
    tally_results_free(b);
}

static void test_writer_refuses_empty_case(void)
{
    tally_results *a;
    tally_results_new(&a);
    tally_resultset *rs;
    tally_benchmark *bench;
    tally_resultset_new(&rs, "x");
    tally_results_add(a, rs);
    tally_resultset_benchmark_add(&bench, rs, "b", "s", TALLY_LOWER_IS_BETTER);
    tally_benchmark_case_add(NULL, bench, "c");
    char *text = (char *)1;
    CHECK_INT(tally_results_to_json(&text, NULL, a), TALLY_ENODATA);
    CHECK(text == NULL);
    CHECK_STR(tally_error_last()->message, "result set 'x', benchmark 'b', case 'c' has no samples");
    /* The save fails before touching the file. */
    const char *out = TALLY_TEST_TMP "/refused.json";
    remove(out);
    CHECK_INT(tally_results_save(a, out), TALLY_ENODATA);
    CHECK(fopen(out, "r") == NULL);
    tally_results_free(a);

    /* An empty list is a valid document and reads back as nothing. */
    tally_results_new(&a);
    CHECK_INT(tally_results_to_json(&text, NULL, a), TALLY_OK);
    CHECK_STR(text, "{\n  \"format\": \"tally-results\",\n  \"version\": 1,\n  \"results\": [\n  ]\n}\n");
    CHECK_INT(tally_load_buffer(a, text, strlen(text), "empty.json", NULL), TALLY_OK);
    CHECK_INT(tally_results_count(a), 0);
    tally_free(text);
    tally_results_free(a);
}

static void expect(const char *text, int code, const char *message)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_NATIVE_JSON;
    CHECK_INT(tally_load_buffer(r, text, strlen(text), "s.json", &opts), code);
    CHECK_STR(tally_error_last()->message, message);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
}

#define HEAD "{\"format\": \"tally-results\", \"version\": 1, \"results\": "
#define ONE_CASE(bench_extra, case_body) \
    HEAD "[{\"label\": \"a\", \"benchmarks\": [{\"name\": \"b\"" bench_extra ", \"cases\": [" case_body "]}]}]}"

static void test_schema_errors(void)
{
    expect("{\"format\": \"tally-results\", \"version\": 2, \"results\": []}", TALLY_EFORMAT,
           "s.json: $.version: version 2 is newer than this tally reads (1): upgrade tally");
    expect("{\"format\": \"tally-results\", \"version\": 1.5, \"results\": []}", TALLY_EPARSE,
           "s.json: $.version: expected a whole number >= 1");
    expect("{\"format\": \"tally-results\", \"version\": \"1\", \"results\": []}", TALLY_EPARSE,
           "s.json: $.version: expected a number, found a string");
    expect("{\"format\": \"tally-results\", \"results\": []}", TALLY_EPARSE,
           "s.json: $: missing member \"version\" (a number)");
    expect("{\"format\": \"tally-result\", \"version\": 1, \"results\": []}", TALLY_EFORMAT,
           "s.json: $.format: expected \"tally-results\", found \"tally-result\"");
    expect("{\"format\": \"tally-results\", \"version\": 1}", TALLY_EPARSE,
           "s.json: $: missing member \"results\" (an array)");
    expect(HEAD "[7]}", TALLY_EPARSE, "s.json: $.results[0]: expected an object, found a number");
    expect(HEAD "[{\"benchmarks\": []}]}", TALLY_EPARSE,
           "s.json: $.results[0]: missing member \"label\" (a string)");
    expect(HEAD "[{\"label\": \"\", \"benchmarks\": []}]}", TALLY_EPARSE,
           "s.json: $.results[0].label: expected a non-empty string");
    expect(HEAD "[{\"label\": \"a\", \"metadata\": {\"host\": [1]}, \"benchmarks\": []}]}",
           TALLY_EPARSE,
           "s.json: $.results[0].metadata.host: expected a string, number or boolean, found an "
           "array");
    expect(HEAD "[{\"label\": \"a\", \"metadata\": {\"cpu model\": null}, \"benchmarks\": []}]}",
           TALLY_EPARSE,
           "s.json: $.results[0].metadata[\"cpu model\"]: expected a string, number or boolean, "
           "found null");
    expect(HEAD "[{\"label\": \"a\", \"metadata\": [], \"benchmarks\": []}]}", TALLY_EPARSE,
           "s.json: $.results[0].metadata: expected an object, found an array");
    expect(ONE_CASE(", \"unit\": 5", ""), TALLY_EPARSE,
           "s.json: $.results[0].benchmarks[0].unit: expected a string, found a number");
    expect(ONE_CASE(", \"better\": \"up\"", ""), TALLY_EPARSE,
           "s.json: $.results[0].benchmarks[0].better: expected \"lower\" or \"higher\", found \"up\"");
    expect(ONE_CASE(", \"statistic\": \"mode\"", ""), TALLY_EPARSE,
           "s.json: $.results[0].benchmarks[0].statistic: expected amean, hmean, gmean, median, "
           "min, max, bamean or default, found \"mode\"");
    expect(HEAD "[{\"label\": \"a\", \"benchmarks\": [{\"name\": \"b\", \"cases\": []}, "
                "{\"name\": \"b\", \"cases\": []}]}]}",
           TALLY_EEXISTS, "s.json: $.results[0].benchmarks[1].name: duplicate benchmark name 'b'");
    expect(ONE_CASE("", "{\"name\": \"c\", \"samples\": [1]}, {\"name\": \"c\", \"samples\": [2]}"),
           TALLY_EEXISTS,
           "s.json: $.results[0].benchmarks[0].cases[1].name: duplicate case name 'c'");
    expect(ONE_CASE("", "{\"name\": \"c\"}"), TALLY_EPARSE,
           "s.json: $.results[0].benchmarks[0].cases[0]: missing member \"samples\" (an array)");
    expect(ONE_CASE("", "{\"name\": \"c\", \"samples\": 1}"), TALLY_EPARSE,
           "s.json: $.results[0].benchmarks[0].cases[0].samples: expected an array, found a number");
    expect(ONE_CASE("", "{\"name\": \"c\", \"samples\": [1, 2, null]}"), TALLY_EPARSE,
           "s.json: $.results[0].benchmarks[0].cases[0].samples[2]: expected a number, found null");
    expect(ONE_CASE("", "{\"name\": \"c\", \"samples\": [1, -1e400]}"), TALLY_ENONFINITE,
           "s.json: $.results[0].benchmarks[0].cases[0].samples[1]: number out of range (beyond "
           "1.8e308), found '-1e400'");
    expect(ONE_CASE("", "{\"name\": \"c\", \"samples\": [NaN]}"), TALLY_EPARSE,
           "s.json:1:135: invalid JSON near 'NaN]}]}]}]}'");
    expect(ONE_CASE("", "{\"name\": \"c\", \"metadata\": {\"k\": {}}, \"samples\": [1]}"), TALLY_EPARSE,
           "s.json: $.results[0].benchmarks[0].cases[0].metadata.k: expected a string, number or "
           "boolean, found an object");
    expect(HEAD "[]} trailing", TALLY_EPARSE, "s.json:1:58: unexpected data after the JSON document");
}

/* The cut-out path and cJSON's path give the same result sets. */
static void test_split_equivalence(void)
{
    /* A repeated "samples" key: refused with its path (cJSON alone would keep the first). */
    static const char dup[] = HEAD "[{\"label\": \"a\", \"benchmarks\": [{\"name\": \"b\", "
                              "\"cases\": [{\"name\": \"c\", \"samples\": [2], \"samples\": [3, 4]}]}]}]}";
    /* An escaped key is decoded by cJSON: "sampl\u0065s" is "samples". */
    static const char escaped[] = HEAD "[{\"label\": \"a\", \"benchmarks\": [{\"name\": \"b\", "
                                  "\"cases\": [{\"name\": \"c\", \"sampl\\u0065s\": [5, 6]}]}]}]}";
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_buffer(r, dup, sizeof(dup) - 1, "dup.json", NULL), TALLY_EPARSE);
    CHECK_STR(tally_error_last()->message,
              "dup.json: $.results[0].benchmarks[0].cases[0].samples: duplicate key \"samples\" "
              "in one object: keep one of them");
    const tally_case *c = NULL;
    tally_results_free(r);
    tally_results_new(&r);
    CHECK_INT(tally_load_buffer(r, escaped, sizeof(escaped) - 1, "esc.json", NULL), TALLY_OK);
    c = case_of(r, "a", "b", "c");
    CHECK(c && tally_case_sample_count(c) == 2 && tally_case_samples(c)[1] == 6.0);
    tally_results_free(r);
}

/* Long samples arrays, read many numbers at a time: mixed separators and number forms, and a
 * non-finite number deep inside keeps its exact index. */
static void test_long_spans(void)
{
    /* Sample i (0-based) is i + 0.25 written four ways in turn: "i.25", "i.250000000000000000"
     * (too many digits for the straight-line path), "i25e-2", "-(-i.25)" as "i.25" after a
     * newline and tab; 300 samples summing to 300 * 299 / 2 + 300 * 0.25 = 44925 (exact). */
    size_t n = 300, cap = 64 * n + 512, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, "%s",
                            ONE_CASE("", "{\"name\": \"c\", \"samples\": ["));
    len -= strlen("]}]}]}"); /* ONE_CASE's closing brackets: the samples array stays open */
    for (size_t i = 0; i < n; i++) {
        const char *sep = i == 0 ? "" : i % 4 == 3 ? ",\n\t" : i % 5 == 0 ? " ,  " : ", ";
        if (i % 4 == 1)
            len += (size_t)snprintf(text + len, cap - len, "%s%zu.250000000000000000", sep, i);
        else if (i % 4 == 2)
            len += (size_t)snprintf(text + len, cap - len, "%s%zu25e-2", sep, i);
        else
            len += (size_t)snprintf(text + len, cap - len, "%s%zu.25", sep, i);
    }
    size_t body = len;
    len += (size_t)snprintf(text + len, cap - len, "]}]}]}]}");
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_buffer(r, text, len, "long.json", NULL), TALLY_OK);
    const tally_case *c = case_of(r, "a", "b", "c");
    CHECK(c != NULL);
    if (c) {
        CHECK_INT(tally_case_sample_count(c), n);
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += tally_case_samples(c)[i];
        CHECK(sum == 44925.0);
        CHECK(tally_case_samples(c)[299] == 299.25);
    }
    tally_results_free(r);
    /* Sample 200 overflows: the message names index 200. */
    char *bad = strstr(text, " 200.25");
    CHECK(bad != NULL && bad < text + body);
    if (bad) {
        memcpy(bad, " 2e999 ", 7);
        tally_results_new(&r);
        CHECK_INT(tally_load_buffer(r, text, len, "long.json", NULL), TALLY_ENONFINITE);
        CHECK_STR(tally_error_last()->message,
                  "long.json: $.results[0].benchmarks[0].cases[0].samples[200]: "
                  "number out of range (beyond 1.8e308), found '2e999'");
        tally_results_free(r);
    }
    free(text);
}

int main(void)
{
    test_long_spans();
    test_split_equivalence();
    test_read_example();
    test_round_trip_files();
    test_round_trip_values();
    test_writer_refuses_empty_case();
    test_schema_errors();
    return check_summary();
}
