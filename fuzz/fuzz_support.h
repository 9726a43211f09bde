/*
 * Shared checks of the fuzz targets. A failed invariant prints what broke and traps, so libFuzzer
 * (or the standalone driver under CTest) reports it as a crash and keeps the input. The library
 * itself never aborts: the traps live here only.
 */
#ifndef TALLY_FUZZ_SUPPORT_H
#define TALLY_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "tally.h"
#include "util/count.h"

/* The name fuzz inputs are loaded under (and what the loader records as their `source_file`). */
#define FUZZ_INPUT_NAME "fuzz-input"

/* Stop the run with a message when an invariant does not hold. */
#define FUZZ_CHECK(cond, what)                                                  \
    do {                                                                        \
        if (!(cond))                                                            \
            fuzz_fail(__FILE__, __LINE__, #cond, (what));                       \
    } while (0)

void fuzz_fail(const char *file, int line, const char *cond, const char *what)
    __attribute__((noreturn));

/* A failed call must leave a message that names the same code. */
void fuzz_check_error(int rc, const char *call);

/* Deep equality of two lists: labels, metadata, benchmarks (name, unit, direction, preferred
 * statistic), cases (name, metadata) and bit-identical samples, all in order. Returns 1 when
 * equal; otherwise 0 and a description of the first difference in `why` (may be NULL). */
int fuzz_results_equal(const tally_results *a, const tally_results *b, char *why, size_t why_size);

/* The same for two result sets. */
int fuzz_resultsets_equal(const tally_resultset *a, const tally_resultset *b, char *why,
                          size_t why_size);

/* A list holding one small, known result set, stamped with `source_file` = FUZZ_INPUT_NAME as
 * if it had been loaded too; loads append to it, and a rejected load must leave
 * it exactly as built. */
tally_results *fuzz_sentinel_new(void);

/* Every case of every result set: tally_summarize must succeed on accepted (finite) samples and
 * every field it marks defined must be finite. */
void fuzz_check_summaries(const tally_results *r);

/* Load `data` as `kind` into a list that already holds the sentinel and check the load's
 * contract: an accepted input round-trips through the native JSON writer and reader to the same
 * model and has finite summaries; a rejected one leaves a message and the list unchanged.
 * Returns the list on success (the caller frees it), NULL when the input was rejected. */
tally_results *fuzz_load_checked(tally_input_kind kind, const uint8_t *data, size_t size);

/* The same with the caller's load options (the JSON paths of the generic JSON reader, which
 * a kind alone cannot give). */
tally_results *fuzz_load_checked_with(const tally_load_options *opts, const uint8_t *data,
                                      size_t size);

/* The kind of the input format named `name` in the importer registry ("csv", "fio", ...): how
 * the target of an importer without a constant of its own in tally/io.h names it. */
tally_input_kind fuzz_kind(const char *name);

/* The same bytes as a file read in pieces (sizes chosen from the input) load as `kind` exactly
 * as the whole buffer does: the same code, message and model. */
void fuzz_check_pieces(tally_input_kind kind, const uint8_t *data, size_t size);

#endif /* TALLY_FUZZ_SUPPORT_H */
