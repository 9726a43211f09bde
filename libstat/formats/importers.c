/* The registry of input formats: the rows of importer_list.h, in its detection-priority order,
 * and the kinds and names callers select them by. */
#include "formats/import_util.h"
#include "formats/importer.h"
#include "util/count.h"
#include "util/names.h"

#define TALLY__IMPORTER(name) &tally__importer_##name,
const tally__importer *const tally__importers[] = {
#include "formats/importer_list.h"
};
#undef TALLY__IMPORTER

const size_t tally__importer_count = TALLY__COUNT(tally__importers);

tally_input_kind tally__registry_kind(const tally__importer *const *rows, size_t count,
                                      size_t row)
{
    int next = TALLY_INPUT_AUTO;
    for (size_t i = 0; i < count; i++)
        if ((int)rows[i]->kind > next)
            next = (int)rows[i]->kind;
    tally_input_kind kind = TALLY_INPUT_AUTO;
    for (size_t i = 0; i <= row && i < count; i++) {
        kind = rows[i]->kind;
        if (kind == TALLY_INPUT_AUTO)
            kind = (tally_input_kind)++next;
    }
    return kind;
}

static tally_input_kind row_kind(size_t row)
{
    return tally__registry_kind(tally__importers, tally__importer_count, row);
}

tally_input_kind tally__importer_kind(const tally__importer *imp)
{
    for (size_t i = 0; i < tally__importer_count; i++)
        if (tally__importers[i] == imp)
            return row_kind(i);
    return TALLY_INPUT_AUTO;
}

const tally__importer *tally__importer_for(tally_input_kind kind)
{
    for (size_t i = 0; kind != TALLY_INPUT_AUTO && i < tally__importer_count; i++)
        if (row_kind(i) == kind)
            return tally__importers[i];
    return NULL;
}

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
        *value = (int)row_kind(i - 1);
        return tally__importers[i - 1]->name;
    }
    *value = TALLY_INPUT_NATIVE_JSON;
    return "native";
}

TALLY__NAME_FUNCTIONS_ROWS(tally_input_kind, NULL, tally__importer_count + 2, kind_row, "input format")
