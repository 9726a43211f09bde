/* The contract of tally_load_buffer() checked on arbitrary input. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "formats/importer.h"
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

tally_input_kind fuzz_kind(const char *name)
{
    tally_input_kind kind = TALLY_INPUT_AUTO;
    FUZZ_CHECK(tally_input_kind_from_name(&kind, name) == TALLY_OK, "a registered format name");
    return kind;
}

tally_results *fuzz_load_checked(tally_input_kind kind, const uint8_t *data, size_t size)
{
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = kind;
    /* Formats of summaries without their run count (hyperfine CSV) are read as of 3 runs. */
    const tally__importer *imp = tally__importer_for(kind);
    if (imp && (imp->flags & TALLY__IMPORT_TAKES_RUNS))
        opts.runs = 3;
    return fuzz_load_checked_with(&opts, data, size);
}

tally_results *fuzz_load_checked_with(const tally_load_options *opts, const uint8_t *data,
                                      size_t size)
{
    tally_results *into = fuzz_sentinel_new();
    tally_error_clear();
    int rc = tally_load_buffer(into, (const char *)data, size, FUZZ_INPUT_NAME, opts);
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

/* One load as `kind` of the file at path, or of data[0..size) under its name. */
static int load_one(tally_results **out, char *message, size_t room, tally_input_kind kind,
                    const char *path, const uint8_t *data, size_t size, size_t first,
                    size_t piece)
{
    FUZZ_CHECK(tally_results_new(out) == TALLY_OK, "tally_results_new");
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = kind;
    const tally__importer *imp = tally__importer_for(kind);
    if (imp && (imp->flags & TALLY__IMPORT_TAKES_RUNS))
        opts.runs = 3;
    int rc = data ? tally_load_buffer(*out, (const char *)data, size, path, &opts)
                  : tally__load_file_pieces(*out, path, &opts, first, piece);
    snprintf(message, room, "%s", rc == TALLY_OK ? "" : tally_error_last()->message);
    return rc;
}

void fuzz_check_pieces(tally_input_kind kind, const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/tally-%s-fuzz-%ld.txt", tally_input_kind_name(kind),
             (long)getpid());
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "a temporary file for the input");
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "writing the input");
    /* Reads of 1 to 64 bytes: every boundary a real 256 KiB read could fall on, at small scale. */
    size_t first = 1 + (size * 7 + (size ? data[0] : 0)) % 64;
    size_t piece = 1 + (size * 13 + (size ? data[size - 1] : 0)) % 64;
    tally_results *whole = NULL, *pieces = NULL;
    char m1[1200], m2[1200];
    int rc1 = load_one(&whole, m1, sizeof(m1), kind, path, data, size, 0, 0);
    int rc2 = load_one(&pieces, m2, sizeof(m2), kind, path, NULL, 0, first, piece);
    unlink(path);
    if (rc1 != rc2 || strcmp(m1, m2) != 0)
        fprintf(stderr, "whole: %d '%s'\npieces of %zu then %zu: %d '%s'\n", rc1, m1, first, piece,
                rc2, m2);
    FUZZ_CHECK(rc1 == rc2 && strcmp(m1, m2) == 0, "the same outcome read whole and in pieces");
    char why[512];
    FUZZ_CHECK(fuzz_results_equal(whole, pieces, why, sizeof(why)), why);
    tally_results_free(whole);
    tally_results_free(pieces);
}
