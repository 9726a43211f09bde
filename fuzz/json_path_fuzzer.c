/*
 * Any JSON file read by the caller's JSON paths (import_json_path.c). The input is three lines,
 * the samples path, the case path and the unit path (an empty line: that path not given), then
 * the JSON document, so the paths' parser and their walk over the document are fuzzed together.
 * Invariants (fuzz_load_checked_with, docs/fuzzing.md): an accepted input round-trips through the
 * native JSON writer and reader to the same model and its summaries are finite; a rejected one
 * leaves a message and the destination list unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next line of data[*at..size) as a new string (NULL when empty), *at moved past it. */
static char *next_line(const uint8_t *data, size_t size, size_t *at)
{
    size_t start = *at, end = start;
    while (end < size && data[end] != '\n')
        end++;
    *at = end < size ? end + 1 : end;
    if (end == start)
        return NULL;
    char *line = malloc(end - start + 1);
    FUZZ_CHECK(line != NULL, "memory for a path");
    memcpy(line, data + start, end - start);
    line[end - start] = '\0';
    return line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0;
    char *samples = next_line(data, size, &at);
    char *casepath = next_line(data, size, &at);
    char *unit = next_line(data, size, &at);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = fuzz_kind("json-path");
    opts.samples_path = samples;
    opts.case_path = casepath;
    opts.unit_path = unit;
    tally_results_free(fuzz_load_checked_with(&opts, data + at, size - at));
    free(samples);
    free(casepath);
    free(unit);
    return 0;
}
