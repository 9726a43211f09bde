/* pgbench importer: the output of pgbench 15.20 (tests/data/pgbench, see its README), hand-read
 * expected samples, located errors, sniffing. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_pgbench;

/* progress.txt (pgbench -c 2 -j 1 -T 4 -P 1): the four progress lines are the samples, the
 * closing figures case metadata; the numbers are read off the file by eye. */
static void test_progress(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "pgbench/progress.txt", NULL), TALLY_OK);
    if (!r)
        return;
    CHECK_STR(tally_resultset_meta_get(tally_results_at(r, 0), "harness"), "pgbench");
    static const double tps[] = { 673.0, 771.8, 811.2, 603.0 };
    static const double lat[] = { 2.881, 2.590, 2.468, 3.310 };
    tally_case *c = find_case(r, "pgbench-tps", "2-clients");
    CHECK_INT(tally_case_sample_count(c), 4);
    for (size_t i = 0; c && i < 4; i++)
        CHECK(tally_case_samples(c)[i] == tps[i]);
    CHECK_STR(tally_case_meta_get(c, "pgbench.tps"), "718.006607");
    tally_benchmark *b = tally_resultset_benchmark_find(tally_results_at(r, 0), "pgbench-tps");
    CHECK_STR(tally_benchmark_unit(b), "transactions/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    c = find_case(r, "pgbench-latency", "2-clients");
    CHECK_INT(tally_case_sample_count(c), 4);
    for (size_t i = 0; c && i < 4; i++)
        CHECK(tally_case_samples(c)[i] == lat[i]);
    CHECK_STR(tally_case_meta_get(c, "pgbench.latency_average"), "2.781");
    CHECK_STR(tally_case_meta_get(c, "pgbench.latency_stddev"), "3.242");
    b = tally_resultset_benchmark_find(tally_results_at(r, 0), "pgbench-latency");
    CHECK_STR(tally_benchmark_unit(b), "ms");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    tally_results_free(r);
}

/* select_3runs.txt: three runs without -P, each run's tps and latency average one sample (read
 * off the file by eye). */
static void test_runs(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "pgbench/select_3runs.txt", NULL), TALLY_OK);
    if (!r)
        return;
    static const double tps[] = { 3098.987496, 3303.867403, 3065.241502 };
    static const double lat[] = { 0.323, 0.303, 0.326 };
    tally_case *c = find_case(r, "pgbench-tps", "1-clients");
    CHECK_INT(tally_case_sample_count(c), 3);
    for (size_t i = 0; c && i < 3; i++)
        CHECK(tally_case_samples(c)[i] == tps[i]);
    c = find_case(r, "pgbench-latency", "1-clients");
    CHECK_INT(tally_case_sample_count(c), 3);
    for (size_t i = 0; c && i < 3; i++)
        CHECK(tally_case_samples(c)[i] == lat[i]);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    /* "abc" starts at column 18 of the progress line. */
    CHECK_INT(import_text(&r, imp,
                          "pgbench (15.20)\n"
                          "progress: 1.0 s, abc tps, lat 2.881 ms stddev 3.418, 0 failed\n",
                          "p.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "p.txt:2:18: expected the tps, found 'abc'");
    CHECK_INT(import_text(&r, imp, "pgbench (15.20)\nprogress: 1.0 s, 673.0\n", "p.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "p.txt:2:1: expected 'progress: T s, X tps, lat Y ms ...'");
    /* "fast" starts at column 7. */
    CHECK_INT(import_text(&r, imp, "pgbench (15.20)\ntps = fast (without initial connection time)\n",
                          "t.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:2:7: expected the tps, found 'fast'");
    CHECK_INT(import_text(&r, imp, "pgbench (15.20)\nstarting vacuum...end.\n", "e.txt", NULL),
              TALLY_EFORMAT);
    CHECK_STR(last_message(), "e.txt:2:1: no pgbench results (progress lines or a run's 'tps = ') "
                              "found in the file");
    CHECK(r == NULL);
}

/* Names longer than the reader once kept: a number of clients past the case name's 23 bytes
 * (before "-clients") is refused, not cut; the caller's benchmark name (120 bytes here, 95 were
 * kept) comes through whole. */
static void test_long_names(void)
{
    tally_results *r;
    char text[200];
    snprintf(text, sizeof text, "pgbench (15.20)\nnumber of clients: %024d\n", 2);
    CHECK(refused_with(imp, text, "long.txt", TALLY_ELIMIT,
                       "long.txt:2:20: a number of clients of 24 bytes: longer than the 23 this "
                       "reader keeps"));
    snprintf(text, sizeof text,
             "pgbench (15.20)\nnumber of clients: %023d\n"
             "latency average = 1.5 ms\ntps = 5.0 (without initial connection time)\n", 2);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.benchmark = "pgbench-select-only-scale-100-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
    CHECK_INT(import_text(&r, imp, text, "fits.txt", &opts), TALLY_OK);
    CHECK_INT(case_sample_count(r, opts.benchmark, "00000000000000000000002-clients"), 1);
    CHECK_INT(case_sample_count(r, "pgbench-latency", "00000000000000000000002-clients"), 1);
    tally_results_free(r);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("pgbench/progress.txt", imp, 90));
    CHECK(sniffs_as("pgbench/select_3runs.txt", imp, 90));
}

int main(void)
{
    test_progress();
    test_runs();
    test_errors();
    test_long_names();
    test_sniff();
    return check_summary();
}
