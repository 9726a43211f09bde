/* pgbench -l importer: logs written by pgbench 15.20 (tests/data/pgbench-log, see its README),
 * expected samples from the files' third column, located errors, sniffing. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_pgbench_log;

static void test_log(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "pgbench-log/log.1005", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "pgbench-transaction", "all");
    /* awk '{s += $3} END {print NR, s}' log.1005 -> 20 64718; the first lines' latencies read
     * by eye. */
    CHECK_INT(tally_case_sample_count(c), 20);
    double sum = 0;
    for (size_t i = 0; c && i < tally_case_sample_count(c); i++)
        sum += tally_case_samples(c)[i];
    CHECK(sum == 64718);
    CHECK(c && tally_case_samples(c)[0] == 15649 && tally_case_samples(c)[1] == 671);
    tally_benchmark *b =
        tally_resultset_benchmark_find(tally_results_at(r, 0), "pgbench-transaction");
    CHECK_STR(tally_benchmark_unit(b), "us");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_results_note_count(r), 0);
    tally_results_free(r);
}

/* 40 lines, 33 of them `skipped` (grep -c skipped): the 7 others are the samples, and a note
 * says what was left out. awk '$3 != "skipped" {print $3}' -> 9254 748 523 585 560 470 600. */
static void test_skipped(void)
{
    static const double want[] = { 9254, 748, 523, 585, 560, 470, 600 };
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "pgbench-log/log_skipped.1228", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "pgbench-transaction", "all");
    CHECK_INT(tally_case_sample_count(c), 7);
    for (size_t i = 0; c && i < 7; i++)
        CHECK(tally_case_samples(c)[i] == want[i]);
    CHECK_INT(tally_results_note_count(r), 1);
    CHECK_STR(tally_results_note_at(r, 0),
              "pgbench-log/log_skipped.1228: 33 pgbench transactions skipped and 0 failed have "
              "no latency: left out of the 7 samples");
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "0 1 15649 0 1796203763\n", "l.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "l.txt:1:1: expected a pgbench -l line 'client_id transaction_no "
                              "time script_no time_epoch time_us [schedule_lag] [retries]' "
                              "(aggregated logs, --aggregate-interval, are not read)");
    /* "x12" starts at column 5 of the second line. */
    CHECK_INT(import_text(&r, imp, "0 1 15649 0 1796203763 282305\n0 2 x12 0 1796203763 282999\n",
                          "l.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(),
              "l.txt:2:5: expected a latency in microseconds, 'skipped' or 'failed', found 'x12'");
    CHECK_INT(import_text(&r, imp, "0 1 skipped 0 1796203763 282305\n", "s.txt", NULL),
              TALLY_EFORMAT);
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("pgbench-log/log.1005", imp, 1));
}

int main(void)
{
    test_log();
    test_skipped();
    test_errors();
    test_sniff();
    return check_summary();
}
