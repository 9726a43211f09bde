/* nanobench importer, on tests/data/nanobench/sort.json written from nanobench's
 * templates::json() (the template in nanobench.h), not produced by nanobench (not in Debian).
 * Expected samples by hand: elapsed / batch, e.g. 4.0e-06 / 1000 = 4.0e-09 s per byte. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_nanobench;

static void test_sort(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "nanobench/sort.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "sorting", "std::sort");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(c && tally_case_samples(c)[1] == 2.25e-06);
    tally_benchmark *b = tally_resultset_benchmark_find(tally_results_at(r, 0), "hashing");
    CHECK_STR(tally_benchmark_unit(b), "s/byte");
    c = find_case(r, "hashing", "crc32");
    CHECK(c && tally_case_samples(c)[0] == 4.0e-06 / 1000);
    CHECK_STR(tally_case_meta_get(c, "batch"), "1000");
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"name\": \"a\", \"batch\": 0, "
                                   "\"measurements\": []}]}", "b.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "b.json: $.results[0]: expected a batch > 0, found 0");
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"name\": \"a\", \"measurements\": []}]}",
                          "m.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "m.json: $.results[0].measurements: no measurements");
    CHECK_INT(import_text(&r, imp, "{\"results\": [{\"name\": \"a\", \"measurements\": "
                                   "[{\"iterations\": 1}]}]}", "e.json", NULL),
              TALLY_EPARSE);
    CHECK(r == NULL);
}

int main(void)
{
    test_sort();
    test_errors();
    CHECK(sniffs_as("nanobench/sort.json", imp, 95));
    return check_summary();
}
