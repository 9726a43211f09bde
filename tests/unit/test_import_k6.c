/* k6 summary importer: files written by hand from k6's documented summary formats (k6 is not in
 * Debian; tests/data/k6, see its README), expected samples the files' own figures, located
 * errors, sniffing. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_k6;

/* One sample per figure: http_req_duration avg=144.56 ... p(95)=215.95 (ms), http_reqs rate
 * 4.36938/s, data_received rate 31000 B/s; checks, http_req_failed and vus left out. */
static void test_export(void)
{
    static const char *const figures[] = { "avg", "min", "med", "max", "p(90)", "p(95)" };
    static const double want[] = { 144.56, 104.11, 110.47, 1140, 203.54, 215.95 };
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "k6/summary_export.json", NULL), TALLY_OK);
    if (!r)
        return;
    for (size_t i = 0; i < TALLY__COUNT(figures); i++) {
        tally_case *c = find_case(r, "http_req_duration", figures[i]);
        CHECK_INT(tally_case_sample_count(c), 1);
        CHECK(c && tally_case_samples(c)[0] == want[i]);
    }
    tally_resultset *rs = tally_results_at(r, 0);
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "http_req_duration");
    CHECK_STR(tally_benchmark_unit(b), "ms");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    tally_case *c = find_case(r, "http_reqs", "rate");
    CHECK(c && tally_case_samples(c)[0] == 4.36938);
    b = tally_resultset_benchmark_find(rs, "http_reqs");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    c = find_case(r, "data_received", "rate");
    CHECK(c && tally_case_samples(c)[0] == 31000);
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(rs, "data_received")), "B/s");
    CHECK(tally_resultset_benchmark_find(rs, "vus") == NULL);
    CHECK(tally_resultset_benchmark_find(rs, "checks") == NULL);
    CHECK_INT(tally_results_note_count(r), 1);
    CHECK_STR(tally_results_note_at(r, 0),
              "k6/summary_export.json: k6 rate and gauge metrics left out (no direction to "
              "assume): 'checks', 'http_req_failed', 'vus'");
    tally_results_free(r);
}

/* handleSummary()'s data: the same figures nested under "values". */
static void test_nested(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp,
                          "{\"metrics\": {\"http_req_duration\": {\"type\": \"trend\", "
                          "\"contains\": \"time\", \"values\": {\"avg\": 2.5, \"count\": 9, "
                          "\"p(95)\": 4}}}}",
                          "h.json", NULL),
              TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "http_req_duration", "avg");
    CHECK(c && tally_case_samples(c)[0] == 2.5);
    c = find_case(r, "http_req_duration", "p(95)");
    CHECK(c && tally_case_samples(c)[0] == 4);
    CHECK(find_case(r, "http_req_duration", "count") == NULL);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "{\"metrics\": {\"vus\": 5}}", "m.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "m.json: $.metrics.vus: expected a metric object");
    CHECK_INT(import_text(&r, imp,
                          "{\"metrics\": {\"x\": {\"type\": \"trend\", \"values\": [1]}}}",
                          "v.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "v.json: $.metrics.x: expected \"values\" to be an object");
    CHECK_INT(import_text(&r, imp, "{\"metrics\": {\"vus\": {\"value\": 1}}}", "g.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "g.json: $.metrics: no trend or counter metric with figures");
    CHECK_INT(import_text(&r, imp, "[1]", "a.json", NULL), TALLY_EPARSE);
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("k6/summary_export.json", imp, 90));
    CHECK(sniffs_as("k6/handle_summary.json", imp, 60));
}

int main(void)
{
    test_export();
    test_nested();
    test_errors();
    test_sniff();
    return check_summary();
}
