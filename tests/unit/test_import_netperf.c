/* netperf TCP_RR importer. netperf is not packaged in Debian (non-free): tests/data/netperf
 * follows netperf 2.7's documented output: the classic table with banners (classic.txt), the
 * same with -P 0 (p0.txt) and omni output with -- -o THROUGHPUT,THROUGHPUT_UNITS (omni.txt),
 * two runs each. See the README there. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_netperf;

static void check_two(const char *rel, double first, double second)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, rel, NULL), TALLY_OK);
    if (!r)
        return;
    tally_benchmark *b = tally_resultset_benchmark_find(tally_results_at(r, 0), "netperf-tcp_rr");
    CHECK_STR(tally_benchmark_unit(b), "trans/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    tally_case *c = find_case(r, "netperf-tcp_rr", "all");
    CHECK_INT(tally_case_sample_count(c), 2);
    if (tally_case_sample_count(c) == 2) {
        CHECK(tally_case_samples(c)[0] == first);
        CHECK(tally_case_samples(c)[1] == second);
    }
    tally_results_free(r);
}

static void test_forms(void)
{
    check_two("netperf/classic.txt", 35123.45, 34876.12);
    check_two("netperf/p0.txt", 35001.77, 35210.03);
    check_two("netperf/omni.txt", 35123.45, 34990.30);
    /* -k keyval output and the CPU-utilisation table (ten columns, rate sixth) */
    tally_results *r;
    CHECK_INT(import_text(&r, imp,
                          "THROUGHPUT=1234.5\nTHROUGHPUT_UNITS=Trans/s\n"
                          "16384  87380  1  1  10.00  2345.5  5.23  5.20  14.9  14.8\n",
                          "k.txt", NULL),
              TALLY_OK);
    tally_case *c = find_case(r, "netperf-tcp_rr", "all");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(tally_case_samples(c)[0] == 1234.5 && tally_case_samples(c)[1] == 2345.5);
    tally_results_free(r);

    /* a line of more fields than the parser stores (found by fuzzing) is not a result row */
    CHECK_INT(import_text(&r, imp,
                          "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n"
                          "16384  131072 1        1       10.00    35123.45\n",
                          "long.txt", NULL),
              TALLY_OK);
    CHECK_INT(tally_case_sample_count(find_case(r, "netperf-tcp_rr", "all")), 1);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "Throughput,Throughput Units\n", "cut.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.txt:2:1: the file ends after the omni header line (truncated file?)");
    CHECK_INT(import_text(&r, imp, "16384  131072 1        1       10.00\n", "cut.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.txt:1:1: a result row of 5 numbers: expected 6 (or 10 with CPU "
                              "columns), as TCP_RR prints (truncated file?)");
    CHECK_INT(import_text(&r, imp, "THROUGHPUT=fast\n", "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:1:12: expected a transaction rate, found 'fast'");
    CHECK_INT(import_text(&r, imp, "Throughput,Throughput Units\n9384.71,10^6bits/s\n", "s.txt", NULL),
              TALLY_EMISMATCH);
    CHECK_STR(last_message(),
              "s.txt:2:9: throughput in '10^6bits/s', not transactions/s: not a TCP_RR result");
    CHECK_INT(import_text(&r, imp, "16384  131072 1        1       10.00    nan\n", "n.txt", NULL),
              TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.txt:1:41: transaction rate 'nan' is not finite");
    CHECK_INT(import_text(&r, imp,
                          "MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0\n",
                          "e.txt", NULL),
              TALLY_EFORMAT);
    CHECK_STR(last_message(), "e.txt:1:1: no netperf TCP_RR result found in the file");
    CHECK_INT(import_file(&r, imp, "hackbench/runs.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "hackbench/runs.txt:15:1: no netperf TCP_RR result found in the file");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("netperf/classic.txt", imp, 90));
    CHECK(sniff_best("netperf/omni.txt", NULL) == imp);
    /* bare -P 0 rows carry no mark of netperf: load them with an explicit kind */
    CHECK(sniff_best("netperf/p0.txt", NULL) == NULL);
}

int main(void)
{
    test_forms();
    test_errors();
    test_sniff();
    return check_summary();
}
