/* hackbench importer: golden checks on the output of rt-tests 2.4 hackbench (five runs
 * concatenated, tests/data/hackbench, see its README), bad input, sniffing. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_hackbench;

static void test_runs(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "hackbench/runs.txt", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "runs");
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "hackbench");
    CHECK_INT(tally_resultset_benchmark_count(rs), 2);
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "hackbench-process-sockets");
    CHECK_STR(tally_benchmark_unit(b), "s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    /* Time: 0.267, 0.259, 0.304 with 2 groups (process mode) */
    tally_case *c = find_case(r, "hackbench-process-sockets", "2-groups");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[0] == 0.267);
    CHECK(tally_case_samples(c)[2] == 0.304);
    /* Time: 0.385, 0.274 with 1 group (threaded mode) */
    c = find_case(r, "hackbench-thread-sockets", "1-groups");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(tally_case_samples(c)[0] == 0.385);
    CHECK(tally_case_samples(c)[1] == 0.274);
    tally_results_free(r);

    /* bare Time: lines, and a benchmark name from the options */
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.benchmark = "hb";
    CHECK_INT(import_text(&r, imp, "Time: 1.5\r\nTime: 2\r\n", "bare.txt", &opts), TALLY_OK);
    CHECK_INT(tally_case_sample_count(find_case(r, "hb", "time")), 2);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "Running in process mode with 1 groups using 40 file\nTime:",
                          "cut.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.txt:2:6: expected a time after 'Time:' (truncated file?)");
    CHECK_INT(import_text(&r, imp, "Time: fast\n", "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:1:7: expected a time, found 'fast'");
    CHECK_INT(import_text(&r, imp, "Running in process mode with many groups\n", "t.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:1:30: expected the number of groups, found 'many'");
    CHECK_INT(import_text(&r, imp, "Time: 0.1\nTime: inf\n", "n.txt", NULL), TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.txt:2:7: time 'inf' is not finite");
    CHECK_INT(import_text(&r, imp,
                          "Running in process mode with 2 groups using 40 file descriptors each "
                          "(== 80 tasks)\n",
                          "e.txt", NULL),
              TALLY_EFORMAT);
    CHECK_STR(last_message(), "e.txt:1:1: no hackbench 'Time:' lines found in the file");
    CHECK_INT(import_file(&r, imp, "tbench/runs.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "tbench/runs.txt:61:1: no hackbench 'Time:' lines found in the file");
    CHECK(r == NULL);
}

/* A number of groups longer than the case name keeps (56 bytes before "-groups") is refused,
 * not cut: cut, two counts that differ past byte 56 were one case. 56 bytes still fit, whole. */
static void test_long_count(void)
{
    tally_results *r;
    char text[200];
    snprintf(text, sizeof text, "Running in process mode with %057d groups\nTime: 0.5\n", 2);
    CHECK(refused_with(imp, text, "long.txt", TALLY_ELIMIT,
                       "long.txt:1:30: a number of groups of 57 bytes: longer than the 56 this "
                       "reader keeps"));
    snprintf(text, sizeof text, "Running in process mode with %056d groups\nTime: 0.5\n", 2);
    CHECK_INT(import_text(&r, imp, text, "fits.txt", NULL), TALLY_OK);
    CHECK_INT(case_sample_count(r, "hackbench-process-sockets",
                                "00000000000000000000000000000000000000000000000000000002-groups"),
              1);
    tally_results_free(r);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("hackbench/runs.txt", imp, 90));
}

int main(void)
{
    test_runs();
    test_errors();
    test_long_count();
    test_sniff();
    return check_summary();
}
