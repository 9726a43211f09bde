/* The importer interface: one per tally_input_kind. load.c reads the file, picks the importer
 * (given, or the highest sniff score), parses into a fresh list, and only then merges into the
 * caller's list, so a failed load changes nothing. */
#ifndef TALLY_IMPORTER_H
#define TALLY_IMPORTER_H

#include <stddef.h>

#include "tally.h"

typedef struct tally__importer {
    tally_input_kind kind;
    const char *name; /* as in tally_input_kind_name(): "csv", "hyperfine", ... */
    /* How sure (0 = not this kind, 100 = certain) that data[0..len) is of this kind, from its
     * first bytes. Must be cheap and never fail. */
    int (*sniff)(const char *data, size_t len);
    /* Parse the whole input into `into` (fresh and empty). Errors are recorded with the file
     * name `name` and a line:col or JSON path. */
    int (*parse)(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts);
} tally__importer;

/* The registry (importers.c): every importer, in detection-priority order. */
extern const tally__importer *const tally__importers[];
extern const size_t tally__importer_count;

#endif /* TALLY_IMPORTER_H */
