/*
 * fio --write_hist_log latency histogram logs,
 * loaded by tally_load_buffer() with the kind given explicitly.
 * Invariants (fuzz_load_checked, docs/fuzzing.md): an accepted input round-trips through the
 * native JSON writer and reader to the same model and its summaries are finite; a rejected one
 * leaves a message and the destination list unchanged.
 */
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tally_results_free(fuzz_load_checked(fuzz_kind("fio-hist"), data, size));
    return 0;
}
