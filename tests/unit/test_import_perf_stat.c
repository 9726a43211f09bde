/* perf stat importer: files written by perf stat (linux-perf 6.1; tests/data/perf-stat, see its
 * README), expected samples the files' own numbers (each -v run line's count in ns / 1e6 for
 * task-clock in ms; each interval's printed value), located errors, sniffing. */
#include <math.h>

#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_perf_stat;

/* stat_r4_v.csv: "task-clock: 3737069 ..." and three more runs; page-faults 281 281 285 280; the
 * printed counter and variance column kept as reported.perf_*. */
static void test_runs(void)
{
    static const double clock[] = { 3.737069, 4.054091, 4.023368, 4.215167 };
    static const double faults[] = { 281, 281, 285, 280 };
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "perf-stat/stat_r4_v.csv", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "task-clock", "all");
    CHECK_INT(tally_case_sample_count(c), 4);
    for (size_t i = 0; c && i < 4; i++)
        CHECK_ABS(tally_case_samples(c)[i], clock[i], 1e-12);
    CHECK_STR(tally_case_meta_get(c, "reported.perf_counter"), "4.22");
    CHECK_STR(tally_case_meta_get(c, "reported.perf_variance"), "2.36");
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(rs, "task-clock")), "ms");
    c = find_case(r, "page-faults", "all");
    CHECK_INT(tally_case_sample_count(c), 4);
    for (size_t i = 0; c && i < 4; i++)
        CHECK(tally_case_samples(c)[i] == faults[i]);
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "perf stat");
    tally_results_free(r);
}

/* The same command with -j (its own four runs: "task-clock: 4660941 ..." first). */
static void test_json(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "perf-stat/stat_r4_v.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "task-clock", "all");
    CHECK_INT(tally_case_sample_count(c), 4);
    CHECK(c && fabs(tally_case_samples(c)[0] - 4.660941) < 1e-12);
    tally_results_free(r);
}

/* stat_interval.csv: -I 100, each interval a sample; task-clock 0.78 and 0.04 (its two
 * <not counted> intervals dropped), cycles <not supported> left out; two notes say so. */
static void test_intervals(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "perf-stat/stat_interval.csv", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "task-clock", "all");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(c && tally_case_samples(c)[0] == 0.78 && tally_case_samples(c)[1] == 0.04);
    CHECK(tally_resultset_benchmark_find(tally_results_at(r, 0), "cycles") == NULL);
    CHECK_INT(tally_results_note_count(r), 2);
    CHECK_STR(tally_results_note_at(r, 0), "perf-stat/stat_interval.csv: perf stat events "
                                           "<not supported>, left out: 'cycles'");
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "perf-stat/stat_r5_no_runs.csv", NULL), TALLY_ENODATA);
    CHECK_STR(last_message(),
              "perf-stat/stat_r5_no_runs.csv:3:1: the perf stat -r summary of 'task-clock' comes "
              "without its runs: the file does not say how many runs it summarises, and perf 6.1 "
              "prints the last run's count there, not the mean (record with perf stat -r N -v, "
              "which writes each run's count)");
    /* "x" is the value at column 1. */
    CHECK(import_text(&r, imp, "x,msec,task-clock,,1,100.00,,\n", "b.csv", NULL) != TALLY_OK);
    CHECK(strncmp(last_message(), "b.csv:1:", 8) == 0);
    CHECK(r == NULL);
}

/* Texts longer than the reader once kept come through whole: a start date of 132 bytes whose
 * "\xc3\xa9" (e acute) sat across the 127 bytes kept, a printed counter and a variance of 70
 * bytes (63 were kept), and a -j variance printed with "%.2f" in 44 bytes (31 were kept). */
#define Z22 "0000000000000000000000"
#define COUNTER "281." Z22 Z22 Z22
#define VARIANCE "0.40" Z22 Z22 Z22
#define DATE "Wed Dec  2 09:16:49 2026 " Z22 Z22 Z22 Z22 "aaaaaaaaaaaaa\xc3\xa9 end"
static void test_long_texts(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp,
                          "# started on " DATE "\n\n[ perf stat: executing run #1 ... ]\n"
                          "page-faults: 281 1 1\n" COUNTER ",,page-faults," VARIANCE
                          "%,1,100.00,,\n",
                          "long.csv", NULL),
              TALLY_OK);
    if (!r)
        return;
    CHECK_INT(strlen(DATE), 132);
    CHECK_STR(tally_resultset_meta_get(tally_results_at(r, 0), "perf_started"), DATE);
    CHECK_INT(strlen(COUNTER), 70);
    CHECK_STR(case_meta(r, "page-faults", "all", "reported.perf_counter"), COUNTER);
    CHECK_STR(case_meta(r, "page-faults", "all", "reported.perf_variance"), VARIANCE);
    tally_results_free(r);
    CHECK_INT(import_text(&r, imp,
                          "[ perf stat: executing run #1 ... ]\npage-faults: 281 1 1\n"
                          "{\"counter-value\" : \"281\", \"unit\" : \"\", \"event\" : "
                          "\"page-faults\", \"variance\" : 1e40}\n",
                          "long.json", NULL),
              TALLY_OK);
    CHECK_STR(case_meta(r, "page-faults", "all", "reported.perf_variance"),
              "10000000000000000303786028427003666890752.00");
    tally_results_free(r);
}
#undef DATE
#undef VARIANCE
#undef COUNTER
#undef Z22

static void test_sniff(void)
{
    CHECK(sniffs_as("perf-stat/stat_r4_v.csv", imp, 90));
    CHECK(sniffs_as("perf-stat/stat_r4_v.json", imp, 90));
    CHECK(sniffs_as("perf-stat/stat_no_header.csv", imp, 80));
}

int main(void)
{
    test_runs();
    test_json();
    test_intervals();
    test_errors();
    test_long_texts();
    test_sniff();
    return check_summary();
}
