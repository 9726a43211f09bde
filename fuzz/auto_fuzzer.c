/*
 * Format detection: tally_load_buffer() with TALLY_INPUT_AUTO.
 * Invariants: those of fuzz_load_checked (docs/fuzzing.md), and detection is consistent: when
 * tally_detect_kind() names a kind, loading with that kind gives the same answer (same code, same
 * model) as loading with AUTO; when it names none, AUTO refuses the input with the same code
 * (TALLY_EFORMAT, or TALLY_EPARSE for UTF-16 text).
 */
#include "formats/importer.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tally_input_kind kind = TALLY_INPUT_AUTO;
    int rc = tally_detect_kind(&kind, (const char *)data, size);
    if (rc != TALLY_OK)
        fuzz_check_error(rc, "tally_detect_kind found no format");
    /* AUTO loads with the options the detected kind is loaded with below (a format of summaries
     * without their run count, hyperfine CSV, as of 3 runs), so that the two answers compare. */
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    const tally__importer *imp = rc == TALLY_OK ? tally__importer_for(kind) : NULL;
    if (imp && (imp->flags & TALLY__IMPORT_TAKES_RUNS))
        opts.runs = 3;
    tally_results *by_auto = fuzz_load_checked_with(&opts, data, size);
    int auto_rc = by_auto ? TALLY_OK : tally_error_last()->code;
    if (rc != TALLY_OK) {
        FUZZ_CHECK(rc == TALLY_EFORMAT || rc == TALLY_EPARSE,
                   "no detected format is TALLY_EFORMAT (TALLY_EPARSE: UTF-16 text)");
        FUZZ_CHECK(auto_rc == rc, "AUTO refuses what detection does not recognise, alike");
        tally_results_free(by_auto);
        return 0;
    }
    FUZZ_CHECK(kind != TALLY_INPUT_AUTO && tally_input_kind_name(kind) != NULL,
               "detection names a concrete kind");
    tally_results *by_kind = fuzz_load_checked(kind, data, size);
    int kind_rc = by_kind ? TALLY_OK : tally_error_last()->code;
    FUZZ_CHECK(auto_rc == kind_rc, "AUTO and the detected kind agree");
    if (by_auto != NULL) {
        char why[512];
        int same = fuzz_results_equal(by_auto, by_kind, why, sizeof(why));
        FUZZ_CHECK(same, why);
    }
    tally_results_free(by_auto);
    tally_results_free(by_kind);
    return 0;
}
