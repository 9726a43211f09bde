/* The contract of tally_load_buffer() checked on arbitrary input. */
#include <stdio.h>

#include "fuzz_support.h"

/* An accepted list serialises to native JSON and reads back to the same model. */
static void check_round_trip(const tally_results *loaded)
{
    char *json = NULL;
    size_t len = 0;
    int rc = tally_results_to_json(&json, &len, loaded);
    FUZZ_CHECK(rc == TALLY_OK, "tally_results_to_json of accepted input");
    FUZZ_CHECK(json != NULL && len > 0, "native JSON is not empty");

    tally_results *again = NULL;
    FUZZ_CHECK(tally_results_new(&again) == TALLY_OK, "tally_results_new");
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_NATIVE_JSON;
    /* The loader stamps each result set with the `source_file` metadata it was read from; with
     * the same name the stamp is the same, so the model must come back identical. */
    rc = tally_load_buffer(again, json, len, FUZZ_INPUT_NAME, &opts);
    if (rc != TALLY_OK)
        fprintf(stderr, "native JSON that did not read back:\n%s\n", json);
    FUZZ_CHECK(rc == TALLY_OK, "reading back the native JSON writer's output");

    char why[512];
    int same = fuzz_results_equal(loaded, again, why, sizeof(why));
    if (!same)
        fprintf(stderr, "native JSON that changed the model:\n%s\n", json);
    FUZZ_CHECK(same, why);
    tally_results_free(again);
    tally_free(json);
}

tally_results *fuzz_load_checked(tally_input_kind kind, const uint8_t *data, size_t size)
{
    tally_results *into = fuzz_sentinel_new();
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = kind;
    tally_error_clear();
    int rc = tally_load_buffer(into, (const char *)data, size, FUZZ_INPUT_NAME, &opts);
    if (rc != TALLY_OK) {
        fuzz_check_error(rc, "tally_load_buffer rejected the input");
        tally_results *reference = fuzz_sentinel_new();
        char why[512];
        int same = fuzz_results_equal(into, reference, why, sizeof(why));
        FUZZ_CHECK(same, why);
        tally_results_free(reference);
        tally_results_free(into);
        return NULL;
    }
    /* All or nothing: the sentinel is untouched and first; what was added comes after it. */
    tally_results *reference = fuzz_sentinel_new();
    char why[512];
    FUZZ_CHECK(tally_results_count(into) >= 1 &&
                   fuzz_resultsets_equal(tally_results_at(into, 0), tally_results_at(reference, 0),
                                         why, sizeof(why)),
               "the sentinel result set is unchanged and first");
    tally_results_free(reference);
    check_round_trip(into);
    fuzz_check_summaries(into);
    return into;
}
