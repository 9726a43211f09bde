/* JSON path importer: any JSON file read where the load options samples_path, case_path and
 * unit_path say (tests/data/json-path, see its README). Expected samples are the file's own
 * numbers, read by eye; errors name the JSON path at fault or the path's character. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_json_path;

static tally_load_options paths(const char *samples, const char *casepath, const char *unit)
{
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.samples_path = samples;
    o.case_path = casepath;
    o.unit_path = unit;
    return o;
}

static void test_paths(void)
{
    tally_load_options o =
        paths("$.benchmarks[*].stats.data", "$.benchmarks[*].name", "$.benchmarks[*].stats.unit");
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "json-path/pytest_like.json", &o), TALLY_OK);
    if (!r)
        return;
    static const double sort[] = { 0.0012, 0.0013, 0.0011, 0.0012 };
    static const double parse[] = { 0.0051, 0.0049, 0.0050 };
    tally_case *c = find_case(r, "json", "test_sort");
    CHECK_INT(tally_case_sample_count(c), 4);
    for (size_t i = 0; c && i < 4; i++)
        CHECK(tally_case_samples(c)[i] == sort[i]);
    c = find_case(r, "json", "test_parse");
    CHECK_INT(tally_case_sample_count(c), 3);
    for (size_t i = 0; c && i < 3; i++)
        CHECK(tally_case_samples(c)[i] == parse[i]);
    tally_benchmark *b = tally_resultset_benchmark_find(tally_results_at(r, 0), "json");
    CHECK_STR(tally_benchmark_unit(b), "seconds");
    tally_results_free(r);
}

/* Without a case path the cases are numbered; a number is one sample; quoted names and indices. */
static void test_steps(void)
{
    tally_load_options o = paths("$['a b'][*]", NULL, NULL);
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "{\"a b\": [[1, 2], 3]}", "s.json", &o), TALLY_OK);
    if (r) {
        CHECK_INT(tally_case_sample_count(find_case(r, "json", "1")), 2);
        tally_case *c = find_case(r, "json", "2");
        CHECK(c && tally_case_sample_count(c) == 1 && tally_case_samples(c)[0] == 3);
        tally_results_free(r);
    }
    o = paths("$.*", NULL, NULL);
    CHECK_INT(import_text(&r, imp, "{\"x\": [0.5], \"y\": [0.25, 0.75]}", "m.json", &o),
              TALLY_OK);
    if (r) {
        CHECK_INT(tally_case_sample_count(find_case(r, "json", "2")), 2);
        tally_results_free(r);
    }
    o = paths("$.runs[1]", NULL, NULL);
    CHECK_INT(import_text(&r, imp, "{\"runs\": [[9], [4, 5]]}", "i.json", &o), TALLY_OK);
    if (r) {
        tally_case *c = find_case(r, "json", "1");
        CHECK(c && tally_case_sample_count(c) == 2 && tally_case_samples(c)[1] == 5);
        tally_results_free(r);
    }
}

static void test_errors(void)
{
    tally_results *r;
    tally_load_options o = paths("$.benchmarks[*].stats", NULL, NULL);
    CHECK_INT(import_file(&r, imp, "json-path/pytest_like.json", &o), TALLY_EPARSE);
    CHECK_STR(last_message(), "json-path/pytest_like.json: $.benchmarks[0].stats: expected an "
                              "array of numbers or a number, found an object");
    o = paths("$.benchmarks[*].stats.data", "$.benchmarks[*].nme", NULL);
    CHECK(import_file(&r, imp, "json-path/pytest_like.json", &o) != TALLY_OK);
    CHECK_STR(last_message(), "json-path/pytest_like.json: $.benchmarks[0].nme: --case "
                              "'$.benchmarks[*].nme' reaches nothing: nothing at this path");
    /* The '.' after "[*" is character 14 of the path. */
    o = paths("$.benchmarks[*.stats", NULL, NULL);
    CHECK_INT(import_file(&r, imp, "json-path/pytest_like.json", &o), TALLY_EINVAL);
    CHECK_STR(last_message(), "--samples '$.benchmarks[*.stats': expected *, a number or a "
                              "quoted name at character 14 (a path is $ then .name, ['name'], "
                              "[N] or [*] steps)");
    o = paths("$.a", NULL, NULL);
    CHECK_INT(import_text(&r, imp, "{\"a\": [1, \"x\"]}", "n.json", &o), TALLY_EPARSE);
    CHECK_STR(last_message(), "n.json: $.a[1]: expected a number, found a string");
    CHECK(r == NULL);
    /* A unit longer than the reader keeps (127 bytes) is refused, not cut (a cut could split a
     * UTF-8 character): 130 'k's. */
    char text[256];
    snprintf(text, sizeof text, "{\"a\": [1], \"u\": \"%0130d\"}", 0);
    for (char *p = strstr(text, "\"u\": \"") + 6; *p == '0'; p++)
        *p = 'k';
    o = paths("$.a", NULL, "$.u");
    CHECK_INT(import_text(&r, imp, text, "u.json", &o), TALLY_ELIMIT);
    CHECK_STR(last_message(), "u.json: $.u: a unit of 130 bytes: longer than the 127 this "
                              "reader keeps");
    CHECK(r == NULL);
}

int main(void)
{
    test_paths();
    test_steps();
    test_errors();
    return check_summary();
}
