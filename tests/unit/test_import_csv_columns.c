/* CSV with a column mapping (load option `columns`, csv_read.c): tests/data/csv/columns.csv,
 * expected samples read off the file by eye, located errors. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_csv;

static tally_resultset *labelled(const tally_results *r, const char *label)
{
    for (size_t i = 0; i < tally_results_count(r); i++)
        if (strcmp(tally_resultset_label(tally_results_at(r, i)), label) == 0)
            return tally_results_at(r, i);
    return NULL;
}

static const tally_case *case_of(const tally_resultset *rs, const char *name)
{
    tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, "values") : NULL;
    return b ? tally_benchmark_case_find(b, name) : NULL;
}

/* build,name,time_ms,host: gcc sort 12.5 12.7, parse 30.1; clang sort 11.9 12.0, parse 29.5. */
static void test_mapping(void)
{
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.columns = "case=name,value=time_ms,config=build";
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "csv/columns.csv", &o), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 2);
    const tally_case *c = case_of(labelled(r, "gcc"), "sort");
    CHECK(c && tally_case_sample_count(c) == 2 && tally_case_samples(c)[0] == 12.5 &&
          tally_case_samples(c)[1] == 12.7);
    c = case_of(labelled(r, "clang"), "sort");
    CHECK(c && tally_case_sample_count(c) == 2 && tally_case_samples(c)[0] == 11.9 &&
          tally_case_samples(c)[1] == 12.0);
    c = case_of(labelled(r, "gcc"), "parse");
    CHECK(c && tally_case_sample_count(c) == 1 && tally_case_samples(c)[0] == 30.1);
    c = case_of(labelled(r, "clang"), "parse");
    CHECK(c && tally_case_sample_count(c) == 1 && tally_case_samples(c)[0] == 29.5);
    tally_results_free(r);
}

/* Without a config column the file is one configuration holding every row. */
static void test_no_config(void)
{
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.columns = "case=name,value=time_ms";
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "csv/columns.csv", &o), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 1);
    CHECK_INT(tally_case_sample_count(case_of(tally_results_at(r, 0), "sort")), 4);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.columns = "case=name,value=time";
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "csv/columns.csv", &o), TALLY_EFORMAT);
    CHECK_STR(last_message(), "csv/columns.csv:1:1: --columns value=time: no column 'time' in "
                              "the header (its columns: 'build', 'name', 'time_ms', 'host')");
    /* "a", the host of line 2, starts at column 15: "gcc,sort,12.5," is 14 characters. */
    o.columns = "case=name,value=host";
    CHECK_INT(import_file(&r, imp, "csv/columns.csv", &o), TALLY_EPARSE);
    CHECK_STR(last_message(), "csv/columns.csv:2:15: expected a number, found 'a'");
    CHECK(r == NULL);
}

int main(void)
{
    test_mapping();
    test_no_config();
    test_errors();
    return check_summary();
}
