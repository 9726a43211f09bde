/* Numbers in JSON inputs: RFC 8259's grammar and tally's limits in every JSON reader (native,
 * hyperfine, pyperf, Google Benchmark), each refusal with its JSON path; valid numbers of any
 * form read to their correctly rounded value. Expected values are the literals themselves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"

static int load(const char *text, tally_input_kind kind, tally_results **out)
{
    tally_results_new(out);
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.kind = kind;
    return tally_load_buffer(*out, text, strlen(text), "r.json", &o);
}

static void expect_refused(const char *text, tally_input_kind kind, int code, const char *message)
{
    tally_results *r;
    CHECK_INT(load(text, kind, &r), code);
    CHECK_STR(tally_error_last()->message, message);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
}

#define NATIVE(samples)                                                                      \
    "{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": \"x\", "     \
    "\"benchmarks\": [{\"name\": \"b\", \"cases\": [{\"name\": \"c\", \"samples\": " samples \
    "}]}]}]}"

#define SAMPLE1 "r.json: $.results[0].benchmarks[0].cases[0].samples[1]: "

static void test_native(void)
{
    expect_refused(NATIVE("[1, 5., 2]"), TALLY_INPUT_NATIVE_JSON, TALLY_EPARSE,
                   SAMPLE1 "'5.' is not a JSON number (JSON wants digits on both sides of a point "
                           "and no leading zeros)");
    expect_refused(NATIVE("[1, 01.5, 2]"), TALLY_INPUT_NATIVE_JSON, TALLY_EPARSE,
                   SAMPLE1 "'01.5' is not a JSON number (JSON wants digits on both sides of a "
                           "point and no leading zeros)");
    expect_refused(NATIVE("[1, 1e-400, 2]"), TALLY_INPUT_NATIVE_JSON, TALLY_ENONFINITE,
                   SAMPLE1 "number out of range (below 4.9e-324, it would read as 0), found '1e-400'");
    expect_refused(NATIVE("[1, -1e309]"), TALLY_INPUT_NATIVE_JSON, TALLY_ENONFINITE,
                   SAMPLE1 "number out of range (beyond 1.8e308), found '-1e309'");
    /* Longer than 1024 characters, as in plain and CSV files. */
    static char text[1400], digits[1100];
    memset(digits, '0', 1030);
    digits[1] = '.';
    digits[1030] = '\0';
    snprintf(text, sizeof text, NATIVE("[1, %s]"), digits);
    expect_refused(text, TALLY_INPUT_NATIVE_JSON, TALLY_EPARSE,
                   SAMPLE1 "number longer than 1024 characters, found "
                           "'0.00000000000000000000000000000000000000...'");
    /* A number elsewhere in the document: the path names it. */
    expect_refused("{\"format\": \"tally-results\", \"version\": 1.0e-400, \"results\": []}",
                   TALLY_INPUT_NATIVE_JSON, TALLY_ENONFINITE,
                   "r.json: $.version: number out of range (below 4.9e-324, it would read as 0), "
                   "found '1.0e-400'");
    /* Every valid form, read exactly: 17 digits, exponents, -0, 0e-400 (an exact zero). */
    tally_results *r;
    CHECK_INT(load(NATIVE("[0.005981193679999999, 1.2345678901234567e-05, -0, 0e-400, 1E+2, "
                          "4.9e-324, 1.7976931348623157e308]"),
                   TALLY_INPUT_NATIVE_JSON, &r),
              TALLY_OK);
    const tally_case *c = tally_benchmark_case_at(
        tally_resultset_benchmark_at(tally_results_at(r, 0), 0), 0);
    static const double want[] = { 0.005981193679999999, 1.2345678901234567e-05, -0.0, 0.0,
                                   100.0, 4.9e-324, 1.7976931348623157e308 };
    CHECK_INT(tally_case_sample_count(c), 7);
    for (size_t i = 0; i < 7 && i < tally_case_sample_count(c); i++)
        CHECK(memcmp(&tally_case_samples(c)[i], &want[i], sizeof(double)) == 0);
    tally_results_free(r);
}

static void test_importers(void)
{
    expect_refused("{\"results\": [{\"command\": \"a\", \"mean\": 01.5, \"times\": [1, 2]}]}",
                   TALLY_INPUT_HYPERFINE, TALLY_EPARSE,
                   "r.json: $.results[0].mean: '01.5' is not a JSON number (JSON wants digits on "
                   "both sides of a point and no leading zeros)");
    expect_refused("{\"results\": [{\"command\": \"a\", \"times\": [1, 2, 3.]}]}",
                   TALLY_INPUT_HYPERFINE, TALLY_EPARSE,
                   "r.json: $.results[0].times[2]: '3.' is not a JSON number (JSON wants digits "
                   "on both sides of a point and no leading zeros)");
    expect_refused("{\"benchmarks\": [{\"name\": \"a\", \"run_type\": \"iteration\", "
                   "\"real_time\": 1e-400, \"cpu_time\": 1, \"time_unit\": \"ns\"}]}",
                   TALLY_INPUT_GBENCH, TALLY_ENONFINITE,
                   "r.json: $.benchmarks[0].real_time: number out of range (below 4.9e-324, it "
                   "would read as 0), found '1e-400'");
}

int main(void)
{
    test_native();
    test_importers();
    return check_summary();
}
