/* The registry of input formats, in detection-priority order: formats with an unambiguous
 * signature first, the permissive ones (CSV, plain numbers) last. One row per importer. */
#include "formats/import_util.h"
#include "formats/importer.h"
#include "util/count.h"
#include "util/names.h"

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
    &tally__importer_pytest,
    &tally__importer_jmh,
    &tally__importer_criterion,
    &tally__importer_criterion_csv,
    &tally__importer_nanobench,
    &tally__importer_benchmarkdotnet,
    &tally__importer_catch2,
    &tally__importer_journal,
    &tally__importer_csv,
    &tally__importer_tsv,
    &tally__importer_plain,
};

const size_t tally__importer_count = TALLY__COUNT(tally__importers);

/* The names of the input kinds: "auto", then the registry's rows, then "native" (another name
 * for "json"). */
static const char *kind_row(const void *table, size_t i, int *value)
{
    (void)table;
    if (i == 0) {
        *value = TALLY_INPUT_AUTO;
        return "auto";
    }
    if (i <= tally__importer_count) {
        *value = (int)tally__importers[i - 1]->kind;
        return tally__importers[i - 1]->name;
    }
    *value = TALLY_INPUT_NATIVE_JSON;
    return "native";
}

TALLY__NAME_FUNCTIONS_ROWS(tally_input_kind, NULL, tally__importer_count + 2, kind_row, "input format")
