/* The loader: kind names, detection, labels, specs, all-or-nothing merging, and one error test
 * per class of bad input, each with its exact message. Expected values are written by hand from
 * the inputs shown next to them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/testing.h"
#include "formats/importer.h"
#include "model/units.h"
#include "util/internal.h"
#include "tally.h"

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_kind_names(void)
{
    static const char *const names[] = {
        "auto",   "json",      "csv",    "tsv",      "plain",   "hyperfine", "gbench",
        "pyperf", "gotest", "hackbench", "stream", "schbench", "netperf", "tbench",
    };
    for (int k = 0; k <= TALLY_INPUT_TBENCH; k++) {
        tally_input_kind back = TALLY_INPUT_AUTO;
        CHECK_STR(tally_input_kind_name((tally_input_kind)k), names[k]);
        CHECK_INT(tally_input_kind_from_name(&back, names[k]), TALLY_OK);
        CHECK_INT(back, k);
    }
    tally_input_kind kind = TALLY_INPUT_AUTO;
    CHECK_INT(tally_input_kind_from_name(&kind, "NATIVE"), TALLY_OK);
    CHECK_INT(kind, TALLY_INPUT_NATIVE_JSON);
    CHECK_INT(tally_input_kind_from_name(&kind, "Csv"), TALLY_OK);
    CHECK_INT(kind, TALLY_INPUT_CSV);
    CHECK_INT(tally_input_kind_from_name(&kind, "xml"), TALLY_EINVAL);
    /* The names in the registry's order (formats/importer_list.h), "auto" first: the rows of
     * today's registry written out, then any row added since. */
    char expected[2048] = "unknown input format 'xml' (auto";
    for (size_t i = 0; i < tally__importer_count; i++)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), ", %s",
                 tally__importers[i]->name);
    snprintf(expected + strlen(expected), sizeof expected - strlen(expected), ")");
    CHECK_STR(tally_error_last()->message, expected);
    /* The unambiguous native JSON first, the most permissive plain numbers last. */
    CHECK(starts_with(expected, "unknown input format 'xml' (auto, json, hyperfine, "));
    CHECK(strcmp(expected + strlen(expected) - 8, ", plain)") == 0);
    /* Every kind numbered from 1 without a gap (tally/io.h), one per row. */
    for (size_t k = 1; k <= tally__importer_count; k++)
        CHECK(tally_input_kind_name((tally_input_kind)k) != NULL);
    CHECK(tally_input_kind_name((tally_input_kind)(tally__importer_count + 1)) == NULL);
    CHECK(tally_input_kind_name((tally_input_kind)-1) == NULL);
    /* Every registry row uses the public name of its kind, each kind has one row, and a row's
     * name selects it. */
    for (size_t i = 0; i < tally__importer_count; i++) {
        const tally__importer *imp = tally__importers[i];
        tally_input_kind k = tally__importer_kind(imp);
        CHECK(k != TALLY_INPUT_AUTO);
        CHECK_STR(imp->name, tally_input_kind_name(k));
        CHECK(tally__importer_for(k) == imp);
        CHECK_INT(tally_input_kind_from_name(&kind, imp->name), TALLY_OK);
        CHECK_INT(kind, k);
        for (size_t j = 0; j < i; j++)
            CHECK(k != tally__importer_kind(tally__importers[j]));
    }
    CHECK(tally__importer_for(TALLY_INPUT_AUTO) == NULL);

    /* Rows without a constant are numbered after the largest constant of the table, in table
     * order, whatever order the constants come in: {1, -, 2, -} -> 1, 3, 2, 4 and
     * {14, -, 16} -> 14, 17, 16 (counted by hand). */
    static const tally__importer c1 = {.kind = (tally_input_kind)1},
                                 c2 = {.kind = (tally_input_kind)2},
                                 c14 = {.kind = (tally_input_kind)14},
                                 c16 = {.kind = (tally_input_kind)16}, none = {.name = "new"};
    const tally__importer *const mixed[] = {&c1, &none, &c2, &none};
    const int mixed_kinds[] = {1, 3, 2, 4};
    for (size_t i = 0; i < TALLY__COUNT(mixed); i++)
        CHECK_INT(tally__registry_kind(mixed, TALLY__COUNT(mixed), i), mixed_kinds[i]);
    const tally__importer *const gap[] = {&c14, &none, &c16};
    const int gap_kinds[] = {14, 17, 16};
    for (size_t i = 0; i < TALLY__COUNT(gap); i++)
        CHECK_INT(tally__registry_kind(gap, TALLY__COUNT(gap), i), gap_kinds[i]);
}

static void test_direction_rule(void)
{
    CHECK_INT(tally__direction_for_unit("s"), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit("usec"), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit(""), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit(NULL), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit("MB/s"), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit("ops/sec"), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit("Ops"), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit("transactions"), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit("requests per second"), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally__direction_for_unit("ns/op"), TALLY_LOWER_IS_BETTER);
}

static void test_detection(void)
{
    static const char native[] = "{\"format\": \"tally-results\", \"version\": 1, \"results\": []}";
    static const char csv[] = "config,benchmark,case,value\nx,b,c,1\n";
    static const char tsv[] = "benchmark\tcase\tconfig\tvalue\n";
    tally_input_kind kind;
    CHECK_INT(tally_detect_kind(&kind, native, sizeof(native) - 1), TALLY_OK);
    CHECK_INT(kind, TALLY_INPUT_NATIVE_JSON);
    CHECK_INT(tally_detect_kind(&kind, csv, sizeof(csv) - 1), TALLY_OK);
    CHECK_INT(kind, TALLY_INPUT_CSV);
    CHECK_INT(tally_detect_kind(&kind, tsv, sizeof(tsv) - 1), TALLY_OK);
    CHECK_INT(kind, TALLY_INPUT_TSV);
    CHECK_INT(tally_detect_kind(&kind, "3\n4\n", 4), TALLY_OK);
    CHECK_INT(kind, TALLY_INPUT_PLAIN);
    /* Another tool's JSON is not native JSON. */
    static const char other[] = "{\"results\": [{\"command\": \"sleep 1\", \"times\": [1.0]}]}";
    kind = TALLY_INPUT_AUTO;
    tally_detect_kind(&kind, other, sizeof(other) - 1);
    CHECK(kind != TALLY_INPUT_NATIVE_JSON);
    CHECK_INT(tally_detect_kind(&kind, "hello world\n", 12), TALLY_EFORMAT);
    CHECK_INT(tally_detect_kind(&kind, "", 0), TALLY_EFORMAT);
    CHECK_INT(tally_detect_kind(NULL, "", 0), TALLY_EINVAL);
    /* UTF-16 text (a big-endian byte-order mark, then bytes no text holds: a fuzz input) is
     * refused as loading refuses it, naming the encoding, not as an unknown format. */
    static const char utf16[] = "\xFE\xFF\xFF\xF9: linux\ngoarch: amd64\n";
    CHECK_INT(tally_detect_kind(&kind, utf16, sizeof(utf16) - 1), TALLY_EPARSE);
    CHECK(strstr(tally_error_last()->message, "UTF-16BE text: tally reads UTF-8") != NULL);
    tally_results *r = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_load_buffer(r, utf16, sizeof(utf16) - 1, "u16", NULL), TALLY_EPARSE);
    tally_results_free(r);
}

static void test_labels_and_specs(void)
{
    tally_results *r;
    tally_results_new(&r);
    /* label=path as benchstat. */
    CHECK_INT(tally_load_spec(r, "base=" TALLY_TEST_DATA "/plain/tip.txt", NULL), TALLY_OK);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "base");
    /* A file whose name holds '=' is a path when it exists as a whole. */
    const char *odd = TALLY_TEST_TMP "/run=2.txt";
    FILE *f = fopen(odd, "w");
    fputs("7\n8\n", f);
    fclose(f);
    CHECK_INT(tally_load_spec(r, odd, NULL), TALLY_OK);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "run=2");
    CHECK_INT(tally_load_spec(r, "=" TALLY_TEST_DATA "/plain/tip.txt", NULL), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message,
              "input '=" TALLY_TEST_DATA "/plain/tip.txt': expected label=path with both parts");
    CHECK_INT(tally_load_spec(r, "x=", NULL), TALLY_EINVAL);
    CHECK_INT(tally_load_spec(r, "new=/nonexistent/dir/x.txt", NULL), TALLY_EIO);
    CHECK_STR(tally_error_last()->message,
              "/nonexistent/dir/x.txt: cannot open: No such file or directory");
    CHECK_INT(tally_results_count(r), 2);

    /* The stem: no directory, no extension; a dot file keeps its name. */
    CHECK_INT(tally_load_buffer(r, "1\n", 2, "runs/v5.14.0.txt", NULL), TALLY_OK);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 2)), "v5.14.0");
    CHECK_INT(tally_load_buffer(r, "1\n", 2, "dir/.hidden", NULL), TALLY_OK);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 3)), ".hidden");
    tally_results_free(r);

    /* A label renames the only configuration of a CSV file, and is refused for several. */
    tally_results_new(&r);
    static const char one[] = "benchmark,case,config,value\nb,c,x,1\n";
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.label = "renamed";
    CHECK_INT(tally_load_buffer(r, one, sizeof(one) - 1, "one.csv", &opts), TALLY_OK);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "renamed");
    opts.label = "two";
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/csv/two-configs.csv", &opts), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message,
              TALLY_TEST_DATA "/csv/two-configs.csv: a label ('two') was given but the file holds "
                              "2 configurations (the labels of its label column)");
    opts.label = "";
    CHECK_INT(tally_load_buffer(r, one, sizeof(one) - 1, "one.csv", &opts), TALLY_EINVAL);
    opts.label = NULL;
    opts.version = 99;
    CHECK_INT(tally_load_buffer(r, one, sizeof(one) - 1, "one.csv", &opts), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "tally_load_options: version 99, expected 1");
    CHECK_INT(tally_results_count(r), 1);
    tally_results_free(r);
}

static void test_duplicate_labels(void)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_buffer(r, "1\n", 2, "a/tip.txt", NULL), TALLY_OK);
    CHECK_INT(tally_load_buffer(r, "2\n", 2, "b/tip.txt", NULL), TALLY_EEXISTS);
    CHECK_STR(tally_error_last()->message,
              "b/tip.txt: result set label 'tip' is already taken by 'a/tip.txt'");
    /* A CSV whose second configuration clashes adds nothing, not even its first one. */
    static const char csv[] = "benchmark,case,config,value\nb,c,new,1\nb,c,tip,2\n";
    CHECK_INT(tally_load_buffer(r, csv, sizeof(csv) - 1, "more.csv", NULL), TALLY_EEXISTS);
    CHECK_STR(tally_error_last()->message,
              "more.csv: result set label 'tip' is already taken by 'a/tip.txt'");
    CHECK_INT(tally_results_count(r), 1);
    /* A result set built in code has no source file. */
    tally_resultset *rs;
    tally_resultset_new(&rs, "built");
    tally_results_add(r, rs);
    CHECK_INT(tally_load_buffer(r, "2\n", 2, "built.txt", NULL), TALLY_EEXISTS);
    CHECK_STR(tally_error_last()->message,
              "built.txt: result set label 'built' is already taken by a result set loaded earlier");
    tally_results_free(r);
}

static void test_all_or_nothing(void)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/csv/two-configs.csv", NULL), TALLY_OK);
    /* Three good configurations, then a bad value on the last line. */
    static const char csv[] =
        "benchmark,case,config,value\nb,c,x,1\nb,c,y,2\nb,c,z,3\nb,c,z,oops\n";
    CHECK_INT(tally_load_buffer(r, csv, sizeof(csv) - 1, "late.csv", NULL), TALLY_EPARSE);
    CHECK_STR(tally_error_last()->message, "late.csv:5:7: expected a number, found 'oops'");
    CHECK_INT(tally_results_count(r), 2);
    CHECK(tally_results_find(r, "x") == NULL);
    /* The same for native JSON: the second result set is bad. */
    static const char json[] =
        "{\"format\": \"tally-results\", \"version\": 1, \"results\": ["
        "{\"label\": \"p\", \"benchmarks\": []},"
        "{\"label\": \"q\", \"benchmarks\": 3}]}";
    CHECK_INT(tally_load_buffer(r, json, sizeof(json) - 1, "late.json", NULL), TALLY_EPARSE);
    CHECK_STR(tally_error_last()->message,
              "late.json: $.results[1].benchmarks: expected an array, found a number");
    CHECK_INT(tally_results_count(r), 2);
    tally_results_free(r);
}

/* Load `text` with auto-detection (or `kind`) and check code and message. */
static void expect(const char *text, size_t len, const char *name, tally_input_kind kind,
                   int code, const char *message)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = kind;
    CHECK_INT(tally_load_buffer(r, text, len, name, &opts), code);
    CHECK_STR(tally_error_last()->message, message);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
}

#define EXPECT(text, name, kind, code, message) \
    expect(text, sizeof(text) - 1, name, kind, code, message)
#define NATIVE_HEAD "{\"format\": \"tally-results\", \"version\": 1, \"results\": "

static void test_bad_input_classes(void)
{
    /* Truncated files. NATIVE_HEAD is 53 bytes, the JSON text 75: the end is column 76. */
    EXPECT(NATIVE_HEAD "[{\"label\": \"a\", \"bench", "t.json", TALLY_INPUT_AUTO, TALLY_EPARSE,
           "t.json:1:76: unexpected end of JSON input (truncated file?)");
    EXPECT("benchmark,case,config,value\nb,c,x,1\n\"b,c", "t.csv", TALLY_INPUT_AUTO, TALLY_EPARSE,
           "t.csv:3:1: quoted field never closed (truncated file?)");
    /* Wrong types. */
    EXPECT(NATIVE_HEAD "[{\"label\": \"a\", \"benchmarks\": [{\"name\": \"b\", \"cases\": "
                       "[{\"name\": \"c\", \"samples\": [1, \"2\"]}]}]}]}",
           "w.json", TALLY_INPUT_AUTO, TALLY_EPARSE,
           "w.json: $.results[0].benchmarks[0].cases[0].samples[1]: expected a number, found a "
           "string");
    /* Empty sample lists. */
    EXPECT(NATIVE_HEAD "[{\"label\": \"a\", \"benchmarks\": [{\"name\": \"b\", \"cases\": "
                       "[{\"name\": \"c\", \"samples\": []}]}]}]}",
           "e.json", TALLY_INPUT_AUTO, TALLY_ENODATA,
           "e.json: $.results[0].benchmarks[0].cases[0].samples: expected at least one sample");
    EXPECT("benchmark,case,config,value\n", "e.csv", TALLY_INPUT_AUTO, TALLY_ENODATA,
           "e.csv: no data rows after the header");
    /* Non-finite values. */
    EXPECT("1\n-Infinity\n", "n.txt", TALLY_INPUT_PLAIN, TALLY_ENONFINITE,
           "n.txt:2:1: expected a finite number, found '-Infinity'");
    EXPECT(NATIVE_HEAD "[{\"label\": \"a\", \"benchmarks\": [{\"name\": \"b\", \"cases\": "
                       "[{\"name\": \"c\", \"samples\": [1e999]}]}]}]}",
           "n.json", TALLY_INPUT_AUTO, TALLY_ENONFINITE,
           "n.json: $.results[0].benchmarks[0].cases[0].samples[0]: number out of range (beyond "
           "1.8e308), found '1e999'");
    /* Duplicate labels within one file (across files: test_duplicate_labels). */
    EXPECT(NATIVE_HEAD "[{\"label\": \"a\", \"benchmarks\": []}, {\"label\": \"a\", "
                       "\"benchmarks\": []}]}",
           "d.json", TALLY_INPUT_AUTO, TALLY_EEXISTS,
           "d.json: $.results[1].label: duplicate label 'a'");
    /* Mixed units within a benchmark. */
    EXPECT("benchmark,case,config,value,unit\nb,c,x,1,s\nb,c,x,2,ms\n", "u.csv", TALLY_INPUT_AUTO,
           TALLY_EMISMATCH, "u.csv:3:9: mixed units in benchmark 'b': 'ms' here, 's' in earlier rows");
    /* Files of the wrong kind: auto-detection finds nothing; a forced kind says what it missed. */
    {
        tally_results *r;
        tally_results_new(&r);
        CHECK_INT(tally_load_buffer(r, "hello world\n", 12, "x.txt", NULL), TALLY_EFORMAT);
        CHECK(starts_with(tally_error_last()->message,
                          "x.txt: not a recognised input format (known: json, "));
        CHECK(strstr(tally_error_last()->message, "csv") != NULL);
        tally_results_free(r);
    }
    EXPECT("{\"results\": [{\"command\": \"sleep 1\"}]}", "h.json", TALLY_INPUT_NATIVE_JSON,
           TALLY_EFORMAT, "h.json: $: not a tally results file (no \"format\": \"tally-results\")");
    EXPECT("[1, 2]", "a.json", TALLY_INPUT_NATIVE_JSON, TALLY_EFORMAT,
           "a.json: $: not a tally results file (no \"format\": \"tally-results\")");
    EXPECT("benchmark,case,config,value\nb,c,x,1\n", "c.json", TALLY_INPUT_NATIVE_JSON,
           TALLY_EPARSE, "c.json:1:1: invalid JSON near 'benchmark,case,c'");
    EXPECT("{\"format\": \"tally-results\"}", "j.csv", TALLY_INPUT_CSV, TALLY_EPARSE,
           "j.csv:1:2: quote inside an unquoted field (quote the whole field)");
    EXPECT("1\n2\n", "p.csv", TALLY_INPUT_CSV, TALLY_EFORMAT,
           "p.csv:1:1: no column 'benchmark' in the header (a header needs "
           "benchmark,case,config,value; unit and better are optional)");
    /* Over-long line: see test_plain and test_csv; NUL bytes in every format. */
    EXPECT("benchmark,case,config,value\nb,c,x,1\0\n", "z.csv", TALLY_INPUT_CSV, TALLY_EFORMAT,
           "z.csv:2:8: NUL byte in a text file (is this a binary file?)");
    EXPECT("1\n\0" "2\n", "z.txt", TALLY_INPUT_PLAIN, TALLY_EFORMAT,
           "z.txt:2:1: NUL byte in a text file (is this a binary file?)");
    /* NATIVE_HEAD is 53 bytes: the NUL after '[' is in column 55. */
    EXPECT(NATIVE_HEAD "[\0]}", "z.json", TALLY_INPUT_NATIVE_JSON, TALLY_EFORMAT,
           "z.json:1:55: NUL byte in a JSON file (is this a binary file?)");
}

static void test_deep_nesting(void)
{
    /* cJSON refuses documents nested deeper than CJSON_NESTING_LIMIT (1000). */
    size_t depth = 1200;
    char *text = malloc(2 * depth + 1);
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    expect(text, 2 * depth, "deep.json", TALLY_INPUT_NATIVE_JSON, TALLY_ELIMIT,
           "deep.json:1:1001: JSON nested deeper than 1000 levels");
    free(text);
}

#ifdef TALLY_FAULT_INJECTION
/* Every allocation of a load, failed in turn: the load reports TALLY_ENOMEM (or succeeds when
 * the failure only cost the native JSON reader its samples shortcut) and `into` is unchanged
 * on failure. Leaks show in sanitizer builds. */
static void test_allocation_failures(void)
{
    static const char *const inputs[] = {
        TALLY_TEST_DATA "/csv/two-configs.csv", TALLY_TEST_DATA "/csv/quoted.csv",
        TALLY_TEST_DATA "/json/example.json", TALLY_TEST_DATA "/plain/tip.txt",
    };
    for (size_t i = 0; i < TALLY__COUNT(inputs); i++) {
        tally_results *r;
        tally_results_new(&r);
        tally_load_buffer(r, "1\n", 2, "first.txt", NULL);
        tally_testing_fail_allocation(0);
        tally_testing_fail_allocation(1000000);
        CHECK_INT(tally_load_file(r, inputs[i], NULL), TALLY_OK);
        unsigned long needed = tally_testing_allocation_count();
        tally_testing_fail_allocation(0);
        size_t loaded = tally_results_count(r) - 1;
        tally_results_free(r);
        for (unsigned long n = 1; n <= needed; n++) {
            tally_results_new(&r);
            tally_load_buffer(r, "1\n", 2, "first.txt", NULL);
            tally_testing_fail_allocation((long)n);
            int rc = tally_load_file(r, inputs[i], NULL);
            tally_testing_fail_allocation(0);
            CHECK(rc == TALLY_OK || rc == TALLY_ENOMEM);
            CHECK_INT(tally_results_count(r), rc == TALLY_OK ? 1 + loaded : 1);
            if (rc == TALLY_ENOMEM)
                CHECK_INT(tally_error_last()->code, TALLY_ENOMEM);
            tally_results_free(r);
        }
    }
}
#endif

int main(void)
{
#ifdef TALLY_FAULT_INJECTION
    test_allocation_failures();
#endif
    test_kind_names();
    test_direction_rule();
    test_detection();
    test_labels_and_specs();
    test_duplicate_labels();
    test_all_or_nothing();
    test_bad_input_classes();
    test_deep_nesting();
    return check_summary();
}
