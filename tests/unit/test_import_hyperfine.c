/* hyperfine importer: golden checks on files written by hyperfine 1.15.0 (tests/data/hyperfine,
 * see its README), one test per class of bad input, sniffing. Expected values are read off the
 * JSON files by eye. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_hyperfine;

static double meta_number(const tally_case *c, const char *key)
{
    const char *v = c ? tally_case_meta_get(c, key) : NULL;
    return v ? strtod(v, NULL) : -1;
}

/* Case `casename` of benchmark `bench` in the configuration labelled `label`. */
static tally_case *case_in(const tally_results *r, const char *label, const char *bench,
                           const char *casename)
{
    tally_resultset *rs = tally_results_find(r, label);
    tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    return b ? tally_benchmark_case_find(b, casename) : NULL;
}

static void test_basic(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "hyperfine/basic.json", NULL), TALLY_OK);
    if (!r)
        return;
    /* `hyperfine 'sleep 0.01' 'true'`: two commands, two configurations of one case each. */
    CHECK_INT(tally_results_count(r), 2);
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "sleep 0.01");
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "true");
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "hyperfine");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "hyperfine");
    CHECK(b != NULL);
    CHECK_STR(tally_benchmark_unit(b), "s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_case_count(b), 1);
    CHECK_INT(tally_results_note_count(r), 1);
    CHECK_STR(tally_results_note_at(r, 0),
              "hyperfine/basic.json: 2 configurations by command: 'sleep 0.01', 'true'");
    tally_case *c = case_in(r, "sleep 0.01", "hyperfine", "all");
    CHECK_INT(tally_case_sample_count(c), 5);
    /* "times": [0.014450323040000001, ..., 0.014482895039999999] */
    CHECK(tally_case_samples(c)[0] == 0.014450323040000001);
    CHECK(tally_case_samples(c)[4] == 0.014482895039999999);
    CHECK(meta_number(c, "reported.mean") == 0.01447991904);
    CHECK(meta_number(c, "reported.stddev") == 0.0006057606079067047);
    CHECK(meta_number(c, "reported.median") == 0.014450323040000001);
    CHECK(meta_number(c, "reported.min") == 0.013986192040000001);
    CHECK(meta_number(c, "reported.max") == 0.015477572040000002);
    CHECK(meta_number(c, "user") == 0.00306684);
    CHECK(meta_number(c, "system") == 0.00148606);
    CHECK_STR(tally_case_meta_get(c, "exit_codes"), "0,0,0,0,0");
    CHECK_STR(tally_case_meta_get(c, "command"), "sleep 0.01");
    /* "true" runs so fast that hyperfine measured 0.0: zero is a valid sample. */
    c = case_in(r, "true", "hyperfine", "all");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK(tally_case_samples(c)[0] == 0.0009640570400000002);
    CHECK(tally_case_samples(c)[4] == 0.0);
    tally_results_free(r);
}

static void test_parameters(void)
{
    tally_results *r;
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.label = "tip";
    opts.benchmark = "sleep";
    CHECK_INT(import_file(&r, imp, "hyperfine/scan.json", &opts), TALLY_OK);
    if (!r)
        return;
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "tip");
    tally_case *c = find_case(r, "sleep", "delay=1");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK(tally_case_samples(c)[0] == 0.005591121899999999);
    CHECK(tally_case_samples(c)[4] == 0.0057635388999999985);
    CHECK_STR(tally_case_meta_get(c, "command"), "sleep 0.001");
    CHECK(find_case(r, "sleep", "delay=3") != NULL);
    tally_results_free(r);

    /* Two -L lists: both values name the case, in the file's order. */
    CHECK_INT(import_file(&r, imp, "hyperfine/list.json", NULL), TALLY_OK);
    if (!r)
        return;
    c = find_case(r, "hyperfine", "mode=a,n=1");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[2] == 0.005002692400000001);
    CHECK_STR(tally_case_meta_get(c, "command"), "sleep 0.001 # a");
    CHECK(find_case(r, "hyperfine", "mode=b,n=2") != NULL);
    CHECK_INT(tally_benchmark_case_count(tally_resultset_benchmark_at(tally_results_at(r, 0), 0)), 4);
    tally_results_free(r);

    /* The same values scanned for two commands: two configurations, labelled by the commands
     * with the value put back ("a 1" with n=1 -> "a {n}"), the values their cases. */
    static const char two[] =
        "{\"results\": [{\"command\": \"a 1\", \"times\": [1], \"parameters\": "
        "{\"n\": \"1\"}}, {\"command\": \"b 1\", \"times\": [2], "
        "\"parameters\": {\"n\": 1}}]}";
    CHECK_INT(import_text(&r, imp, two, "two.json", NULL), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    CHECK(case_in(r, "a {n}", "hyperfine", "n=1") != NULL);
    CHECK(case_in(r, "b {n}", "hyperfine", "n=1") != NULL);
    tally_results_free(r);
    /* --config-key none: one configuration, the command tells the cases apart. */
    tally_load_options none = TALLY_LOAD_OPTIONS_INIT;
    none.label = "two";
    none.config_key = "none";
    CHECK_INT(import_text(&r, imp, two, "two.json", &none), TALLY_OK);
    CHECK_INT(tally_results_count(r), 1);
    CHECK(find_case(r, "hyperfine", "n=1") != NULL);
    CHECK(find_case(r, "hyperfine", "n=1 (b 1)") != NULL);
    CHECK_INT(tally_results_note_count(r), 0);
    tally_results_free(r);
}

/* Files of hyperfine 1.15.0 (tests/data/hyperfine/README.md) with several commands. */
static void test_configurations(void)
{
    tally_results *r;
    /* -n short 'sleep 0.001' -n long 'sleep 0.003': the names label the configurations. */
    CHECK_INT(import_file(&r, imp, "hyperfine/names.json", NULL), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 2);
    tally_case *c = case_in(r, "long", "hyperfine", "all");
    CHECK_INT(tally_case_sample_count(c), 5);
    /* names.json: "long" "times"[0] and [4], read off the file */
    CHECK(tally_case_samples(c)[0] == 0.005766247);
    CHECK(tally_case_samples(c)[4] == 0.004539676);
    tally_results_free(r);

    /* -L ms 3,5 'sleep 0.00{ms}' 'sleep 0.01{ms}': hyperfine writes a value's results for
     * every command before the next value; 2 commands x 2 values -> 2 configurations x 2 cases,
     * each case its own result's times (no pooling: 5 samples each). */
    CHECK_INT(import_file(&r, imp, "hyperfine/scan2.json", NULL), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 2);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "sleep 0.00{ms}");
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "sleep 0.01{ms}");
    c = case_in(r, "sleep 0.01{ms}", "hyperfine", "ms=5");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK_STR(tally_case_meta_get(c, "command"), "sleep 0.015");
    /* scan2.json: $.results[3].times[0], the result of "sleep 0.015" */
    CHECK(tally_case_samples(c)[0] == 0.023949786);
    CHECK_INT(tally_case_sample_count(case_in(r, "sleep 0.00{ms}", "hyperfine", "ms=3")), 5);
    tally_results_free(r);

    /* A parameter as the key: its values the configurations, the others the cases. */
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.config_key = "mode";
    CHECK_INT(import_file(&r, imp, "hyperfine/list.json", &o), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 2);
    c = case_in(r, "b", "hyperfine", "n=2");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK_STR(tally_case_meta_get(c, "command"), "sleep 0.002 # b");
    CHECK(case_in(r, "a", "hyperfine", "n=1") != NULL);
    CHECK_STR(tally_results_note_at(r, 0),
              "hyperfine/list.json: 2 configurations by the parameter 'mode': 'a', 'b'");
    tally_results_free(r);

    /* Two commands per value of the key would pool: refused. */
    o.config_key = "ms";
    CHECK_INT(import_file(&r, imp, "hyperfine/scan2.json", &o), TALLY_EEXISTS);
    CHECK_STR(last_message(), "hyperfine/scan2.json: $.results[1]: \"sleep 0.013\" is a second "
                              "command of configuration '3', case 'all': with --config-key ms "
                              "the other parameters must tell the commands apart");
    o.config_key = "delay";
    CHECK_INT(import_file(&r, imp, "hyperfine/list.json", &o), TALLY_ENOTFOUND);
    CHECK_STR(last_message(), "hyperfine/list.json: $.results[0]: --config-key delay: the result "
                              "of \"sleep 0.001 # a\" has no parameter 'delay' (a hyperfine "
                              "file's configurations are its commands, one of its parameters, "
                              "or none)");
}

static void test_exit_codes(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "hyperfine/exit_codes.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = tally_benchmark_case_at(
        tally_resultset_benchmark_at(tally_results_at(r, 0), 0), 0);
    /* hyperfine -i kept the failing runs: their times are samples, their codes metadata. */
    CHECK_STR(tally_case_meta_get(c, "exit_codes"), "0,3,0,3,0");
    CHECK_INT(tally_case_sample_count(c), 5);
    tally_results_free(r);

    /* A single run: stddev is null and is simply not reported. */
    CHECK_INT(import_text(&r, imp,
                          "{\"results\": [{\"command\": \"x\", \"mean\": 1.5, \"stddev\": null, "
                          "\"times\": [1.5], \"exit_codes\": [null]}]}",
                          "one.json", NULL),
              TALLY_OK);
    c = find_case(r, "hyperfine", "x");
    CHECK(tally_case_meta_get(c, "reported.stddev") == NULL);
    CHECK_STR(tally_case_meta_get(c, "reported.mean"), "1.5");
    CHECK_STR(tally_case_meta_get(c, "exit_codes"), "null");
    tally_results_free(r);

    /* Codes as printf's "%.0f" writes them (C11 7.21.6.1: the sign of -0 kept, 2.5 rounded to
     * even, 1e15 and 1e2 positional; around the one-digit shortcut 9, 10, and 9.5 and 0.5
     * rounded to the even 10 and 0), read from the cut array and, with a null among them, from
     * the tree. */
    static const char *const texts[] = {
        "{\"results\": [{\"command\": \"x\", \"times\": [1.5], \"exit_codes\": "
        "[0, -0, -3, 255, 100000000000000, 1e15, 2.5, 1e2, 9, 10, 9.5, 0.5]}]}",
        "{\"results\": [{\"command\": \"x\", \"times\": [1.5], \"exit_codes\": "
        "[0, -0, -3, 255, 100000000000000, 1e15, 2.5, 1e2, 9, 10, 9.5, 0.5, null]}]}",
    };
    static const char *const want[] = {
        "0,-0,-3,255,100000000000000,1000000000000000,2,100,9,10,10,0",
        "0,-0,-3,255,100000000000000,1000000000000000,2,100,9,10,10,0,null",
    };
    for (size_t i = 0; i < 2; i++) {
        CHECK_INT(import_text(&r, imp, texts[i], "codes.json", NULL), TALLY_OK);
        CHECK_STR(tally_case_meta_get(find_case(r, "hyperfine", "x"), "exit_codes"), want[i]);
        tally_results_free(r);
    }

    /* 3000 codes of 255: more text than one block of the code writer. */
    size_t n = 3000;
    char *many = malloc(n * 5 + 128), *expect = malloc(n * 4 + 1);
    size_t at = (size_t)sprintf(many, "{\"results\": [{\"command\": \"x\", \"times\": [1], "
                                      "\"exit_codes\": [");
    for (size_t i = 0; i < n; i++) {
        at += (size_t)sprintf(many + at, "%s255", i ? ", " : "");
        memcpy(expect + (i ? i * 4 - 1 : 0), ",255" + (i == 0), 4 - (i == 0));
    }
    strcpy(many + at, "]}]}");
    expect[n * 4 - 1] = '\0';
    CHECK_INT(import_text(&r, imp, many, "many.json", NULL), TALLY_OK);
    CHECK_STR(tally_case_meta_get(find_case(r, "hyperfine", "x"), "exit_codes"), expect);
    tally_results_free(r);
    free(many);
    free(expect);
}

static void test_errors(void)
{
    tally_results *r;
    /* truncated after 45 characters: the error points just past the end, line 1, column 46. */
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"command\": \"a\", \"times\": [1.0, ",
                          "cut.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.json:1:46: unexpected end of JSON input (truncated file?)");
    /* wrong types */
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"command\": \"a\", \"times\": [\"1.0\"]}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.results[0].times[0]: expected a number, found a string");
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"command\": 7, \"times\": [1]}]}", "t.json",
                          NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.results[0].command: expected a string, found a number");
    CHECK_INT(import_text(&r, imp,
                          "{\"results\": [{\"command\": \"a\", \"times\": [1], \"mean\": \"1\"}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.results[0].mean: expected a number, found a string");
    /* empty sample lists */
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"command\": \"a\", \"times\": []}]}",
                          "e.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "e.json: $.results[0].times: empty sample list");
    CHECK_INT(import_text(&r, imp, "{\"results\": []}", "e.json", NULL), TALLY_ENODATA);
    CHECK_STR(last_message(), "e.json: $.results: no results (empty list)");
    /* non-finite: 1e999 overflows to infinity */
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"command\": \"a\", \"times\": [1, 1e999]}]}",
                          "n.json", NULL),
              TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.json: $.results[0].times[1]: number out of range (beyond 1.8e308), found '1e999'");
    /* duplicate case */
    CHECK_INT(import_text(&r, imp,
                          "{\"results\": [{\"command\": \"a\", \"times\": [1]}, {\"command\": "
                          "\"a\", \"times\": [2]}]}",
                          "d.json", NULL),
              TALLY_EEXISTS);
    CHECK_STR(last_message(),
              "d.json: $.results[1]: command \"a\" appears twice (name the commands with -n)");
    /* two empty commands: nothing to label their configurations with */
    CHECK_INT(import_text(&r, imp,
                          "{\"results\": [{\"command\": \"\", \"times\": [1]}, {\"command\": "
                          "\"\", \"times\": [2]}]}",
                          "d.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "d.json: $.results[0]: an empty command cannot label a "
                              "configuration (name the commands with -n)");
    /* wrong kind of file */
    CHECK_INT(import_file(&r, imp, "gbench/repetitions.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "gbench/repetitions.json: $: missing member \"results\" (an array)");
    CHECK_INT(import_file(&r, imp, "hackbench/runs.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "hackbench/runs.txt:1:1: invalid JSON near 'Running in proce'");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("hyperfine/basic.json", imp, 90));
    CHECK(sniff_best("hyperfine/scan.json", NULL) == imp);
    CHECK(sniff_best("hyperfine/list.json", NULL) == imp);
    CHECK(sniff_best("hyperfine/exit_codes.json", NULL) == imp);
    CHECK_INT(imp->sniff("{\"benchmarks\": []}", 18), 0);
    CHECK_INT(imp->sniff("Time: 1.0\n", 10), 0);
}

int main(void)
{
    test_basic();
    test_parameters();
    test_configurations();
    test_exit_codes();
    test_errors();
    test_sniff();
    return check_summary();
}
