/* Shared parts of the native JSON reader and writer (docs/formats.md). */
#ifndef TALLY_NATIVE_JSON_H
#define TALLY_NATIVE_JSON_H

#define TALLY__NATIVE_FORMAT "tally-results"
/* Major version: a reader refuses files of a higher one; additions that older readers may
 * ignore keep the number. */
#define TALLY__NATIVE_VERSION 1

#include <stddef.h>

#include "tally.h"

/* One result set as it appears inside a native file's "results" array, without the metadata
 * keys of the NULL-ended list `skip_meta` (NULL: none left out; an entry ending in '.'
 * names every key it begins): the store's content key is
 * the SHA-256 of this text (native_json_write.c). Free *out with tally_free. */
int tally__resultset_json(char **out, size_t *len, const tally_resultset *rs,
                          const char *const *skip_meta);

#endif /* TALLY_NATIVE_JSON_H */
