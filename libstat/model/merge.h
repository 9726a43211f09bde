/* What merging result sets shares with the runner (merge.c). */
#ifndef TALLY_MODEL_MERGE_H
#define TALLY_MODEL_MERGE_H

#include <stddef.h>

/* The result-set metadata keys that say where runs were recorded: runs recorded under
 * different values are pooled neither by `tally merge` (without --force) nor by `tally run
 * --resume` (run/journal.c). tally_run_env_key_at() hands them out. */
#define TALLY__RUN_ENV_KEY_COUNT 3
extern const char *const tally__run_env_keys[TALLY__RUN_ENV_KEY_COUNT];

#endif /* TALLY_MODEL_MERGE_H */
