/* The registry of input formats, in detection-priority order: formats with an unambiguous
 * signature first, the permissive ones (CSV, plain numbers) last. One row per importer. */
#include "formats/import_util.h"
#include "formats/importer.h"
#include "util/count.h"

extern const tally__importer tally__importer_native_json;
extern const tally__importer tally__importer_csv;
extern const tally__importer tally__importer_tsv;
extern const tally__importer tally__importer_journal;

const tally__importer *const tally__importers[] = {
    &tally__importer_native_json,
    &tally__importer_hyperfine,
    &tally__importer_gbench,
    &tally__importer_pyperf,
    &tally__importer_gotest,
    &tally__importer_hackbench,
    &tally__importer_stream,
    &tally__importer_schbench,
    &tally__importer_netperf,
    &tally__importer_tbench,
    &tally__importer_journal,
    &tally__importer_csv,
    &tally__importer_tsv,
    &tally__importer_plain,
};

const size_t tally__importer_count = TALLY__COUNT(tally__importers);
