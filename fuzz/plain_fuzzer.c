/*
 * Plain one-number-per-line files,
 * loaded by tally_load_buffer() with the kind given explicitly.
 * Invariants (fuzz_load_checked, docs/fuzzing.md): an accepted input round-trips through the
 * native JSON writer and reader to the same model and its summaries are finite; a rejected one
 * leaves a message and the destination list unchanged. And the same bytes as a file read in
 * pieces (sizes chosen from the input) load exactly as the whole buffer does: the same code,
 * message and model.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "formats/importer.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One load as `kind` of the file at path, or of data[0..size) under its name. */
static int load_one(tally_results **out, char *message, size_t room, const char *path,
                    const uint8_t *data, size_t size, size_t first, size_t piece)
{
    FUZZ_CHECK(tally_results_new(out) == TALLY_OK, "tally_results_new");
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_PLAIN;
    int rc = data ? tally_load_buffer(*out, (const char *)data, size, path, &opts)
                  : tally__load_file_pieces(*out, path, &opts, first, piece);
    snprintf(message, room, "%s", rc == TALLY_OK ? "" : tally_error_last()->message);
    return rc;
}

static void check_pieces(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/tally-plain-fuzz-%ld.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "a temporary file for the input");
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "writing the input");
    /* Reads of 1 to 64 bytes: every boundary a real 256 KiB read could fall on, at small scale. */
    size_t first = 1 + (size * 7 + (size ? data[0] : 0)) % 64;
    size_t piece = 1 + (size * 13 + (size ? data[size - 1] : 0)) % 64;
    tally_results *whole = NULL, *pieces = NULL;
    char m1[1200], m2[1200];
    int rc1 = load_one(&whole, m1, sizeof(m1), path, data, size, 0, 0);
    int rc2 = load_one(&pieces, m2, sizeof(m2), path, NULL, 0, first, piece);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tally_results_free(fuzz_load_checked(TALLY_INPUT_PLAIN, data, size));
    check_pieces(data, size);
    return 0;
}
