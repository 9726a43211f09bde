/* Google Benchmark importer: golden checks on files written by libbenchmark 1.7.1
 * (tests/data/gbench, see its README), one test per class of bad input, sniffing. Expected
 * values are read off the JSON files. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_gbench;

static double meta_number(const tally_case *c, const char *key)
{
    const char *v = c ? tally_case_meta_get(c, key) : NULL;
    return v ? strtod(v, NULL) : -1;
}

static void test_repetitions(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "gbench/repetitions.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "repetitions");
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "gbench");
    /* context, kept as result-set metadata */
    CHECK_STR(tally_resultset_meta_get(rs, "host_name"), "vm");
    CHECK_STR(tally_resultset_meta_get(rs, "num_cpus"), "2");
    CHECK_STR(tally_resultset_meta_get(rs, "cpu_scaling_enabled"), "false");
    CHECK_STR(tally_resultset_meta_get(rs, "load_avg"), "2.56543,2.03516,1.09766");
    CHECK_STR(tally_resultset_meta_get(rs, "date"), "2026-11-29T21:09:59+00:00");
    CHECK(tally_resultset_meta_get(rs, "caches") == NULL);
    /* one benchmark per family, in its time unit */
    CHECK_INT(tally_resultset_benchmark_count(rs), 2);
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "BM_StringCopy");
    CHECK_STR(tally_benchmark_unit(b), "ns");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_case_count(b), 4);
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(rs, "BM_VectorPush")), "us");

    /* rows 0-2: BM_StringCopy/8 iterations; aggregates 3-6 are not samples */
    tally_case *c = find_case(r, "BM_StringCopy", "BM_StringCopy/8/real_time");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[0] == 6.020644564158016);
    CHECK(tally_case_samples(c)[2] == 4.177878196489728);
    CHECK(meta_number(c, "reported.mean") == 4.397043934854129);
    CHECK(meta_number(c, "reported.median") == 4.177878196489727);
    CHECK(meta_number(c, "reported.stddev") == 1.5258686029991233);
    CHECK(meta_number(c, "reported.cv") == 0.34702145932725226);
    c = find_case(r, "BM_StringCopy", "BM_StringCopy/8/cpu_time");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[0] == 3.7824654045862554);
    CHECK(tally_case_samples(c)[2] == 3.0282172146006103);
    CHECK(meta_number(c, "reported.mean") == 3.26780233559812);
    c = find_case(r, "BM_StringCopy", "BM_StringCopy/512/real_time");
    CHECK(tally_case_samples(c)[1] == 13.972905094523654);
    c = find_case(r, "BM_VectorPush", "BM_VectorPush/cpu_time");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[2] == 0.1224110363498826);
    CHECK(meta_number(c, "reported.cv") == 0.02344799653520053);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    /* a failed benchmark (SkipWithError) is reported, naming its row */
    CHECK_INT(import_file(&r, imp, "gbench/error.json", NULL), TALLY_ERUN);
    CHECK_STR(last_message(), "gbench/error.json: $.benchmarks[0]: benchmark \"BM_Fails\" "
                              "reported an error: resource unavailable (error_occurred)");
    CHECK_INT(import_file(&r, imp, "gbench/with_error.json", NULL), TALLY_ERUN);
    CHECK_STR(last_message(), "gbench/with_error.json: $.benchmarks[21]: benchmark \"BM_Fails\" "
                              "reported an error: resource unavailable (error_occurred)");
    /* aggregates only: no samples */
    CHECK_INT(import_file(&r, imp, "gbench/aggregates_only.json", NULL), TALLY_ENODATA);
    CHECK_STR(last_message(),
              "gbench/aggregates_only.json: $.benchmarks: no iteration rows, only aggregates (run "
              "without --benchmark_report_aggregates_only to keep the samples)");
    /* truncated: line 2 holds 16 characters, so the end of input is line 2, column 17 */
    CHECK_INT(import_text(&r, imp, "{\"context\": {},\n\"benchmarks\": [{", "cut.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.json:2:17: unexpected end of JSON input (truncated file?)");
    /* wrong types */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"a\", \"run_type\": \"iteration\", "
                          "\"real_time\": \"1\", \"cpu_time\": 1}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.benchmarks[0].real_time: expected a number, found a string");
    CHECK_INT(import_text(&r, imp, "{\"benchmarks\": {}}", "t.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.benchmarks: expected an array, found an object");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 1, "
                          "\"time_unit\": \"min\"}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(),
              "t.json: $.benchmarks[0].time_unit: expected \"ns\", \"us\", \"ms\" or \"s\", found \"min\"");
    /* mixed units within one family */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"BM_a/1\", \"real_time\": 1, \"cpu_time\": 1, "
                          "\"time_unit\": \"ns\"}, {\"name\": \"BM_a/2\", \"real_time\": 1, "
                          "\"cpu_time\": 1, \"time_unit\": \"us\"}]}",
                          "u.json", NULL),
              TALLY_EMISMATCH);
    CHECK_STR(last_message(), "u.json: $.benchmarks[1].time_unit: time_unit \"us\" differs from "
                              "\"ns\" of earlier rows of BM_a");
    /* empty sample list */
    CHECK_INT(import_text(&r, imp, "{\"context\": {}, \"benchmarks\": []}", "e.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "e.json: $.benchmarks: no benchmark rows");
    /* non-finite */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": -1e400}]}",
                          "n.json", NULL),
              TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.json: $.benchmarks[0].cpu_time: number out of range (beyond 1.8e308), found '-1e400'");
    /* wrong kind of file */
    CHECK_INT(import_file(&r, imp, "hyperfine/basic.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "hyperfine/basic.json: $: missing member \"benchmarks\" (an array)");
    CHECK(r == NULL);
}

static void test_old_files(void)
{
    /* Files before v1.5 have neither run_name nor run_type; aggregates carry aggregate_name. */
    tally_results *r;
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"BM_a\", \"real_time\": 2, \"cpu_time\": 1},"
                          "{\"name\": \"BM_a\", \"real_time\": 4, \"cpu_time\": 3},"
                          "{\"name\": \"BM_a_mean\", \"run_name\": \"BM_a\", \"aggregate_name\": "
                          "\"mean\", \"real_time\": 3, \"cpu_time\": 2}]}",
                          "old.json", NULL),
              TALLY_OK);
    tally_case *c = find_case(r, "BM_a", "BM_a/real_time");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK_STR(tally_case_meta_get(c, "reported.mean"), "3");
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(tally_results_at(r, 0), "BM_a")),
              "ns");
    tally_results_free(r);
}

/* The rows are read by the importer's own scanner unless something in them is for the tree
 * path to judge (an escape, a nested value, a repeated key, a refused row): both paths give the
 * same result set, and the tree path's messages. Expected values are the literals below. */
static void test_row_paths(void)
{
    /* Rows alternate between two run names (the last row's cases are reused only for the same
     * name), with an aggregate and a BigO-like row without times. */
    static const char plain[] =
        "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 1.5, \"cpu_time\": 1, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a/2\", \"run_type\": \"iteration\", \"real_time\": 2.5, \"cpu_time\": 2, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 3.5, \"cpu_time\": 3, \"time_unit\": \"us\", \"label\": null, \"ok\": false},\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 4.5, \"cpu_time\": 4, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a/1_mean\", \"run_name\": \"BM_a/1\", \"run_type\": \"aggregate\", \"aggregate_name\": \"mean\", \"real_time\": 3.1666666666666665, \"cpu_time\": 2.6666666666666665, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a_BigO\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\", \"aggregate_name\": \"BigO\", \"cpu_coefficient\": 1e-3}\n"
        "]}";
    /* The same rows, each variant sending the text down the tree path: an escaped slash in a
     * name ("BM_a\/2" is "BM_a/2"), a nested counter, a tab inside a string's neighbour. */
    static const char *const variants[] = {
        "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 1.5, \"cpu_time\": 1, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a\\/2\", \"run_type\": \"iteration\", \"real_time\": 2.5, \"cpu_time\": 2, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 3.5, \"cpu_time\": 3, \"time_unit\": \"us\", \"label\": null, \"ok\": false},\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 4.5, \"cpu_time\": 4, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a/1_mean\", \"run_name\": \"BM_a/1\", \"run_type\": \"aggregate\", \"aggregate_name\": \"mean\", \"real_time\": 3.1666666666666665, \"cpu_time\": 2.6666666666666665, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a_BigO\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\", \"aggregate_name\": \"BigO\", \"cpu_coefficient\": 1e-3}\n"
        "]}",
        "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 1.5, \"cpu_time\": 1, \"time_unit\": \"us\", \"counters\": {\"x\": [1, 2]}},\n"
        " {\"name\": \"BM_a/2\", \"run_type\": \"iteration\", \"real_time\": 2.5, \"cpu_time\": 2, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 3.5, \"cpu_time\": 3, \"time_unit\": \"us\", \"label\": null, \"ok\": false},\n"
        " {\"name\": \"BM_a/1\", \"run_type\": \"iteration\", \"real_time\": 4.5, \"cpu_time\": 4, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a/1_mean\", \"run_name\": \"BM_a/1\", \"run_type\": \"aggregate\", \"aggregate_name\": \"mean\", \"real_time\": 3.1666666666666665, \"cpu_time\": 2.6666666666666665, \"time_unit\": \"us\"},\n"
        " {\"name\": \"BM_a_BigO\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\", \"aggregate_name\": \"BigO\", \"cpu_coefficient\": 1e-3}\n"
        "]}",
    };
    const char *texts[3] = {plain, variants[0], variants[1]};
    for (int v = 0; v < 3; v++) {
        tally_results *r;
        CHECK_INT(import_text(&r, imp, texts[v], "rows.json", NULL), TALLY_OK);
        if (!r)
            continue;
        CHECK_STR(tally_resultset_meta_get(tally_results_at(r, 0), "host_name"), "h");
        tally_benchmark *b = tally_resultset_benchmark_find(tally_results_at(r, 0), "BM_a");
        CHECK_STR(tally_benchmark_unit(b), "us");
        CHECK_INT(tally_benchmark_case_count(b), 4);
        tally_case *c = find_case(r, "BM_a", "BM_a/1/real_time");
        CHECK_INT(tally_case_sample_count(c), 3);
        if (tally_case_sample_count(c) == 3) {
            CHECK(tally_case_samples(c)[0] == 1.5);
            CHECK(tally_case_samples(c)[1] == 3.5);
            CHECK(tally_case_samples(c)[2] == 4.5);
        }
        CHECK_STR(tally_case_meta_get(c, "reported.mean"), "3.1666666666666665");
        c = find_case(r, "BM_a", "BM_a/1/cpu_time");
        CHECK_INT(tally_case_sample_count(c), 3);
        CHECK_STR(tally_case_meta_get(c, "reported.mean"), "2.6666666666666665");
        c = find_case(r, "BM_a", "BM_a/2/cpu_time");
        CHECK_INT(tally_case_sample_count(c), 1);
        CHECK(tally_case_sample_count(c) == 1 && tally_case_samples(c)[0] == 2);
        tally_results_free(r);
    }
    /* Rows the scanner leaves to the tree path, with the tree path's messages (the same with
     * the tree path alone: the importer before the scanner passed these checks too). */
    static const struct {
        const char *text, *name;
        int code;
        const char *message;
    } refused[] = {
        {"{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 1, \"real_time\": 2}]}",
         "d.json", TALLY_EPARSE,
         "d.json: $.benchmarks[0].real_time: duplicate key \"real_time\" in one object: keep one "
         "of them"},
        {"{\"benchmarks\": [{\"name\": \"a\", \"run_type\": \"aggregate\", \"real_time\": 1, "
         "\"cpu_time\": 1}]}",
         "a.json", TALLY_EPARSE, "a.json: $.benchmarks[0]: aggregate row without \"aggregate_name\""},
        {"{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 01}]}", "z.json",
         TALLY_EPARSE,
         "z.json: $.benchmarks[0].cpu_time: '01' is not a JSON number (JSON wants digits on both "
         "sides of a point and no leading zeros)"},
        {"{\"benchmarks\": [{\"real_time\": 1, \"cpu_time\": 1}]}", "m.json", TALLY_EPARSE,
         "m.json: $.benchmarks[0]: missing member \"name\" (a string)"},
        /* Bad text after the rows: the position is in the whole text (line 2, where cJSON stops
         * at column 4). */
        {"{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 1}],\n  x}", "x.json",
         TALLY_EPARSE, "x.json:2:4: invalid JSON near '}'"},
        /* Invalid UTF-8 inside a row's string (the byte 0xff at column 28). */
        {"{\"benchmarks\": [{\"name\": \"a\xff\", \"real_time\": 1, \"cpu_time\": 1}]}", "u8.json",
         TALLY_EPARSE, NULL},
    };
    for (size_t i = 0; i < TALLY__COUNT(refused); i++) {
        tally_results *r;
        CHECK_INT(import_text(&r, imp, refused[i].text, refused[i].name, NULL), refused[i].code);
        if (refused[i].message)
            CHECK_STR(last_message(), refused[i].message);
        else
            CHECK(strstr(last_message(), "UTF-8") != NULL);
    }
}

/* Two aggregate names of 100 bytes that differ in their last byte: cut to the 86 bytes a key
 * of 96 kept after "reported.", they were one key, the second value in place of the first. Both
 * come through whole, on the row scanner's path and on the tree's (the escaped slash sends the
 * text there). */
#define Q30 "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
#define AGGREGATE Q30 Q30 Q30 "qqqqqqqqq"
static void test_long_aggregate(void)
{
    for (int tree = 0; tree < 2; tree++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"benchmarks\": [\n"
                 " {\"name\": \"BM_a%s1\", \"run_type\": \"iteration\", \"real_time\": 1.5, "
                 "\"cpu_time\": 1},\n"
                 " {\"name\": \"BM_a/1_a\", \"run_name\": \"BM_a/1\", \"run_type\": \"aggregate\", "
                 "\"aggregate_name\": \"" AGGREGATE "1\", \"real_time\": 2, \"cpu_time\": 3},\n"
                 " {\"name\": \"BM_a/1_b\", \"run_name\": \"BM_a/1\", \"run_type\": \"aggregate\", "
                 "\"aggregate_name\": \"" AGGREGATE "2\", \"real_time\": 4, \"cpu_time\": 5}\n"
                 "]}",
                 tree ? "\\/" : "/");
        tally_results *r;
        CHECK_INT(import_text(&r, imp, text, "long.json", NULL), TALLY_OK);
        static const char *const real = "BM_a/1/real_time", *const cpu = "BM_a/1/cpu_time";
        CHECK_STR(case_meta(r, "BM_a", real, "reported." AGGREGATE "1"), "2");
        CHECK_STR(case_meta(r, "BM_a", real, "reported." AGGREGATE "2"), "4");
        CHECK_STR(case_meta(r, "BM_a", cpu, "reported." AGGREGATE "1"), "3");
        CHECK_STR(case_meta(r, "BM_a", cpu, "reported." AGGREGATE "2"), "5");
        tally_results_free(r);
    }
}
#undef AGGREGATE
#undef Q30

static void test_sniff(void)
{
    CHECK(sniffs_as("gbench/repetitions.json", imp, 90));
    CHECK(sniff_best("gbench/error.json", NULL) == imp);
    CHECK(sniff_best("gbench/aggregates_only.json", NULL) == imp);
    CHECK_INT(imp->sniff("{\"results\": [{\"command\": \"x\"}]}", 31), 0);
}

int main(void)
{
    test_repetitions();
    test_errors();
    test_old_files();
    test_row_paths();
    test_long_aggregate();
    test_sniff();
    return check_summary();
}
