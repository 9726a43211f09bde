/*
 * The run journal reader (tally__journal_read, and tally__journal_build on what it accepts): the
 * JSON Lines file an interrupted sweep resumes from, also readable as an input. The input is the
 * file's body after a fixed header line; the sweep has 2 metrics, 4 cases and 3 runs per case.
 * Invariants: a refused journal leaves a message; an accepted one holds only runs of this sweep
 * (case and slot in range, each recorded once), each either with 2 finite values or with a
 * failure text, and builds into one result set.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/journal.h"
#include "fuzz_support.h"

#define HEADER                                                                                  \
    "{\"tally_journal\":2,\"workload\":\"fuzz\",\"sweep_name\":\"groups\","                     \
    "\"sweep\":[\"1\",\"2\",\"4\",\"8\"],\"cases\":[\"1-groups\",\"2-groups\",\"4-groups\","    \
    "\"8-groups\"],\"runs\":3,\"warmup\":0,\"interleave\":false,\"params\":[],\"command\":[],"  \
    "\"labels\":[\"fuzz\"],\"metrics\":[{\"benchmark\":\"a\",\"unit\":\"s\",\"better\":"        \
    "\"lower\",\"statistic\":\"amean\"},{\"benchmark\":\"b\",\"case\":\"x\",\"unit\":\"MB/s\","  \
    "\"better\":\"higher\",\"statistic\":\"hmean\"}],\"meta\":{\"host\":\"h\"}}\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t hlen = strlen(HEADER);
    char *text = malloc(hlen + size + 1);
    FUZZ_CHECK(text != NULL, "memory for the journal");
    memcpy(text, HEADER, hlen);
    if (size > 0)
        memcpy(text + hlen, data, size);

    tally__journal_data d;
    tally_error_clear();
    int rc = tally__journal_read(&d, text, hlen + size, "fuzz.journal");
    if (rc != TALLY_OK) {
        fuzz_check_error(rc, "tally__journal_read refused the journal");
    } else {
        for (size_t i = 0; i < d.count; i++) {
            const tally__journal_run *run = &d.runs_done[i];
            FUZZ_CHECK(run->case_index < 4 && run->slot < 3, "a run of this sweep");
            for (size_t k = 0; k < i; k++)
                FUZZ_CHECK(d.runs_done[k].case_index != run->case_index ||
                               d.runs_done[k].slot != run->slot,
                           "each run recorded once");
            if (run->ok)
                FUZZ_CHECK(run->values != NULL && isfinite(run->values[0]) &&
                               isfinite(run->values[1]),
                           "a finished run has finite values");
            else
                FUZZ_CHECK(run->failure != NULL, "a failed run says why");
        }
        tally_results *results = NULL;
        FUZZ_CHECK(tally_results_new(&results) == TALLY_OK, "a result list");
        rc = tally__journal_build(results, &d, "fuzz.journal");
        if (rc != TALLY_OK)
            fuzz_check_error(rc, "tally__journal_build failed");
        else
            FUZZ_CHECK(tally_results_count(results) == 1, "one result set per configuration");
        tally_results_free(results);
    }
    tally__journal_data_free(&d);
    free(text);
    return 0;
}
