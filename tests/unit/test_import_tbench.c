/* tbench importer: golden checks on the output of dbench 4.0 tbench against tbench_srv on
 * 127.0.0.1 (two runs concatenated, tests/data/tbench, see its README), bad input, sniffing. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_tbench;

static void test_runs(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "tbench/runs.txt", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "tbench");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "tbench");
    CHECK_STR(tally_benchmark_unit(b), "MB/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_benchmark_case_count(b), 2);
    /* "Throughput 97.0937 MB/sec  1 clients" and "Throughput 442.133 MB/sec  2 clients";
     * the per-second progress lines (468.63 MB/sec ...) are not samples */
    tally_case *c = find_case(r, "tbench", "1-clients");
    CHECK_INT(tally_case_sample_count(c), 1);
    CHECK(tally_case_samples(c)[0] == 97.0937);
    c = find_case(r, "tbench", "2-clients");
    CHECK_INT(tally_case_sample_count(c), 1);
    CHECK(tally_case_samples(c)[0] == 442.133);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "Throughput 442.133", "cut.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(),
              "cut.txt:1:12: expected 'Throughput <MB/s> MB/sec <N> clients' (truncated file?)");
    CHECK_INT(import_text(&r, imp, "Throughput fast MB/sec  2 clients", "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:1:12: expected a throughput, found 'fast'");
    CHECK_INT(import_text(&r, imp, "Throughput 1 MB/sec  two clients", "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:1:22: expected the number of clients, found 'two'");
    CHECK_INT(import_text(&r, imp, "Throughput nan MB/sec  2 clients", "n.txt", NULL),
              TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.txt:1:12: throughput 'nan' is not finite");
    CHECK_INT(import_text(&r, imp, "releasing clients\n   2  cleanup   3 sec\n", "e.txt", NULL),
              TALLY_EFORMAT);
    CHECK_STR(last_message(), "e.txt:2:1: no tbench 'Throughput' lines found in the file");
    CHECK_INT(import_file(&r, imp, "hackbench/runs.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "hackbench/runs.txt:15:1: no tbench 'Throughput' lines found in the file");
    CHECK(r == NULL);
}

/* A number of clients longer than the case name keeps (55 bytes before "-clients") is refused,
 * not cut: cut, two counts that differ past byte 55 were one case. 55 bytes still fit, whole. */
static void test_long_count(void)
{
    tally_results *r;
    char text[160];
    snprintf(text, sizeof text, "Throughput 1 MB/sec  %056d clients\n", 2);
    CHECK(refused_with(imp, text, "long.txt", TALLY_ELIMIT,
                       "long.txt:1:22: a number of clients of 56 bytes: longer than the 55 this "
                       "reader keeps"));
    snprintf(text, sizeof text, "Throughput 1 MB/sec  %055d clients\n", 2);
    CHECK_INT(import_text(&r, imp, text, "fits.txt", NULL), TALLY_OK);
    CHECK_INT(case_sample_count(r, "tbench",
                                "0000000000000000000000000000000000000000000000000000002-clients"),
              1);
    tally_results_free(r);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("tbench/runs.txt", imp, 90));
}

int main(void)
{
    test_runs();
    test_errors();
    test_long_count();
    test_sniff();
    return check_summary();
}
