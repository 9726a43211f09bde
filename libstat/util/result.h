/* Growable result structs (docs/internals/CODE_STYLE.md, "Result structs"): a public struct that
 * the caller allocates and the library fills (tally_summary, tally_comparison,
 * tally_report_cell, tally_report_row, tally_gain, tally_gate, tally_diagnostics,
 * tally_noise_benchmark, tally_check_item) starts with `size_t size`, which the caller sets to the sizeof of the
 * struct it was compiled with. The library writes min(caller's size, its own) bytes and leaves
 * `size` holding that count, so a caller built against an older, shorter header gets the prefix
 * it knows and nothing beyond it, and a caller built against a newer header learns which of its
 * fields this library filled (as Linux's sched_getattr does). A struct the caller passes in is
 * read the same way: the bytes it has, zeros for the fields it lacks. */
#ifndef TALLY_RESULT_H
#define TALLY_RESULT_H

#include <stddef.h>

/* The caller's struct size from `given->size`, in *size; TALLY_EINVAL recorded as
 * "TYPE: NULL pointer", or "TYPE: size S, expected sizeof (TYPE)" when the size cannot even hold
 * the size field (0: the caller did not set it). */
int tally__result_size(size_t *size, const void *given, const char *type);

/* tally__result_size(), and the library's own struct `full` (full_size bytes, which the entry
 * point fills and then hands to tally__result_put) zeroed: the start of an entry point that
 * builds its result before copying it out. */
int tally__result_begin(size_t *size, const void *given, const char *type, void *full,
                        size_t full_size);

/* Copy the library's `full` struct (full_size bytes, its size field ignored) into the caller's
 * `given` of `size` bytes (from tally__result_size): min(size, full_size) bytes, then the size
 * field set to that count. */
void tally__result_put(void *given, size_t size, const void *full, size_t full_size);

/* The caller's struct `given` (already checked with tally__result_size) as a full one in `full`:
 * its bytes, zeros for the fields it lacks, the size field set to full_size. */
void tally__result_get(void *full, size_t full_size, const void *given, size_t size);

#endif /* TALLY_RESULT_H */
