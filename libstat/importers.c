/* The registry of input formats, in detection-priority order: formats with an unambiguous
 * signature first, the permissive ones (CSV, plain numbers) last. One row per importer. */
#include "importer.h"

extern const tally__importer tally__importer_native_json;
extern const tally__importer tally__importer_csv;
extern const tally__importer tally__importer_tsv;
extern const tally__importer tally__importer_plain;

const tally__importer *const tally__importers[] = {
    &tally__importer_native_json,
    &tally__importer_csv,
    &tally__importer_tsv,
    &tally__importer_plain,
};

const size_t tally__importer_count = sizeof(tally__importers) / sizeof(tally__importers[0]);
