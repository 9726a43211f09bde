/* hyperfine --export-csv importer: exports written by hyperfine 1.15.0
 * (tests/data/hyperfine-csv, see its README), expected summaries the file's own numbers, located
 * errors, sniffing. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_hyperfine_csv;

/* export.csv, with --runs 5: two commands, each a configuration with a summary-only case. */
static void test_export(void)
{
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.runs = 5;
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "hyperfine-csv/export.csv", &o), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 2);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "sleep 0.01");
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "sleep 0.02");
    tally_benchmark *b = tally_resultset_benchmark_at(tally_results_at(r, 1), 0);
    CHECK_STR(tally_benchmark_unit(b), "s");
    tally_case *c = tally_benchmark_case_at(b, 0);
    CHECK(tally_case_is_summary_only(c));
    tally_case_summary s = { .size = sizeof s };
    CHECK_INT(tally_case_summary_result(&s, c), TALLY_OK);
    /* "sleep 0.02,0.0265395602,0.0030978048935071272,0.026463591,...": the row as written */
    CHECK_INT(s.n, 5);
    CHECK(s.mean == 0.0265395602);
    CHECK(s.sd == 0.0030978048935071272);
    CHECK_STR(tally_case_meta_get(c, "hyperfine.median"), "0.026463591");
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "hyperfine-csv/export.csv", NULL), TALLY_EINVAL);
    CHECK_STR(last_message(), "hyperfine-csv/export.csv:1:1: a hyperfine CSV export holds each "
                              "command's mean and SD but not how many runs they summarise: give "
                              "them (--runs N, hyperfine's --runs), or export the runs with "
                              "--export-json");
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.runs = 3;
    /* "fast" is field 2, column 5. */
    CHECK_INT(import_text(&r, imp,
                          "command,mean,stddev,median,user,system,min,max\n"
                          "a b,fast,0.1,1,0,0,1,1\n",
                          "h.csv", &o),
              TALLY_EPARSE);
    CHECK(strncmp(last_message(), "h.csv:2:5: mean (seconds): ", 27) == 0);
    CHECK_INT(import_text(&r, imp,
                          "command,mean,stddev,median,user,system,min,max\n"
                          "a b,1,0.1\n",
                          "h.csv", &o),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "h.csv:2:1: expected 8 fields as the header has, found 3");
    CHECK_INT(import_text(&r, imp,
                          "command,mean,stddev,median,user,system,min,max,extra\n",
                          "h.csv", &o),
              TALLY_EPARSE);
    /* "command,mean,stddev,median,user,system,min,max," is 47 characters: "extra" at 48. */
    CHECK_STR(last_message(), "h.csv:1:48: expected a column parameter_NAME after the fixed "
                              "columns");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("hyperfine-csv/export.csv", imp, 90));
    CHECK(sniffs_as("hyperfine-csv/scan_export.csv", imp, 90));
}

int main(void)
{
    test_export();
    test_errors();
    test_sniff();
    return check_summary();
}
