/*
 * Google Benchmark --benchmark_format=json files,
 * loaded by tally_load_buffer() with the kind given explicitly.
 * Invariants (fuzz_load_checked, docs/fuzzing.md): an accepted input round-trips through the
 * native JSON writer and reader to the same model and its summaries are finite; a rejected one
 * leaves a message and the destination list unchanged. And the importer's row scanner agrees
 * with its cJSON path: the same code, the same message on a refusal, the same result set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/import_util.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse_with(tally_results **out, int tree, const char *text, size_t len,
                      char *message, size_t message_size)
{
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.label = "fuzz";
    *out = NULL;
    int rc = tally_results_new(out);
    if (rc != TALLY_OK)
        return rc;
    rc = tree ? tally__gbench_parse_tree(*out, text, len, "fuzz.json", &opts)
              : tally__importer_gbench.parse(*out, text, len, "fuzz.json", &opts);
    message[0] = '\0';
    if (rc != TALLY_OK) {
        fuzz_check_error(rc, tree ? "the cJSON path" : "the row scanner");
        snprintf(message, message_size, "%s", tally_error_last()->message);
    }
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tally_results_free(fuzz_load_checked(TALLY_INPUT_GBENCH, data, size));

    /* The importers read NUL-terminated text of the loader's buffer. */
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char fast_message[512], tree_message[512], why[256];
    tally_results *fast, *tree;
    int fast_rc = parse_with(&fast, 0, text, size, fast_message, sizeof fast_message);
    int tree_rc = parse_with(&tree, 1, text, size, tree_message, sizeof tree_message);
    if (fast_rc != TALLY_ENOMEM && tree_rc != TALLY_ENOMEM) {
        FUZZ_CHECK(fast_rc == tree_rc, "the same code from the row scanner and the cJSON path");
        if (fast_rc != TALLY_OK && fast_rc == tree_rc)
            FUZZ_CHECK(strcmp(fast_message, tree_message) == 0, "the same message");
        if (fast_rc == TALLY_OK && tree_rc == TALLY_OK)
            FUZZ_CHECK(fuzz_results_equal(fast, tree, why, sizeof why), why);
    }
    tally_results_free(fast);
    tally_results_free(tree);
    free(text);
    return 0;
}
