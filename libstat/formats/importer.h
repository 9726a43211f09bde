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
     * name `name` and a line:col or JSON path. `opts` is never NULL and the loader has filled
     * `opts->label` (the caller's, else the file name without directory and extension), so a
     * format holding one configuration labels its result set `opts->label`; the loader renames
     * or refuses the sets of formats that carry their own labels. `opts->benchmark` is the
     * caller's or NULL: a format without benchmark names then uses a fixed name of its own, so
     * that files of different names still align in a comparison. The loader frees `into` on
     * failure. */
    int (*parse)(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts);
} tally__importer;

/* The registry (importers.c): every importer, in detection-priority order (on equal sniff
 * scores the earlier row wins). */
extern const tally__importer *const tally__importers[];
extern const size_t tally__importer_count;

#endif /* TALLY_IMPORTER_H */
