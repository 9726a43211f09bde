/*
 * Format detection: tally_load_buffer() with TALLY_INPUT_AUTO.
 * Invariants: those of fuzz_load_checked (docs/fuzzing.md), and detection is consistent: when
 * tally_detect_kind() names a kind, loading with that kind gives the same answer (same code, same
 * model) as loading with AUTO; when it names none, AUTO refuses the input with TALLY_EFORMAT.
 */
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tally_results *by_auto = fuzz_load_checked(TALLY_INPUT_AUTO, data, size);
    int auto_rc = by_auto ? TALLY_OK : tally_error_last()->code;

    tally_input_kind kind = TALLY_INPUT_AUTO;
    int rc = tally_detect_kind(&kind, (const char *)data, size);
    if (rc != TALLY_OK) {
        fuzz_check_error(rc, "tally_detect_kind found no format");
        FUZZ_CHECK(rc == TALLY_EFORMAT, "no detected format is TALLY_EFORMAT");
        FUZZ_CHECK(auto_rc == TALLY_EFORMAT, "AUTO refuses what detection does not recognise");
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
