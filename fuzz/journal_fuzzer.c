/*
 * The runner's journal reader (tally__journal_resume): the JSON Lines file an interrupted sweep
 * resumes from. The input is the file's body after a fixed header line; the sweep has 2 metrics,
 * 4 cases and 3 runs per case.
 * Invariants: a refused journal leaves a message; an accepted one holds only runs of this sweep
 * (case and slot in range), each either with 2 finite values or with a failure text.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_support.h"
#include "run/runner_internal.h"

#define HEADER "{\"journal\": \"tally-fuzz\"}"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/tally-fuzz-journal-%ld.jsonl", (long)getpid());
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "temporary journal");
    fputs(HEADER "\n", f);
    fwrite(data, 1, size, f);
    fclose(f);

    tally__journal j;
    tally_error_clear();
    int rc = tally__journal_resume(&j, path, HEADER, 2, 4, 3);
    if (rc != TALLY_OK) {
        fuzz_check_error(rc, "tally__journal_resume refused the journal");
    } else {
        for (size_t i = 0; i < j.count; i++) {
            const tally__journal_run *run = &j.runs[i];
            FUZZ_CHECK(run->case_index < 4 && run->slot < 3, "a run of this sweep");
            if (run->ok)
                FUZZ_CHECK(run->values != NULL && isfinite(run->values[0]) &&
                               isfinite(run->values[1]),
                           "a finished run has finite values");
            else
                FUZZ_CHECK(run->failure != NULL, "a failed run says why");
        }
    }
    tally__journal_close(&j);
    unlink(path);
    return 0;
}
