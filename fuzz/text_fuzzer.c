/*
 * The shared text helpers every line-oriented importer uses: the line cursor, the strict number
 * parser and the round-trip number formatter.
 * Invariants: lines partition the input (no newline inside a line, line numbers count up by one,
 * every line lies inside the input); a refused line leaves a located message; an accepted number
 * is finite and its shortest text reads back bit-identical; the bulk line reader of plain files
 * (tally__number_lines, its straight-line paths) takes only lines that are a number alone, each
 * with the bits tally__parse_double gives that line.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "util/internal.h"
#include "util/text.h"

static void check_number(const char *s, size_t len)
{
    double x;
    int rc = tally__parse_double(&x, s, len);
    FUZZ_CHECK(rc == TALLY_OK || rc == TALLY_EPARSE || rc == TALLY_ENONFINITE,
               "tally__parse_double returns a documented code");
    if (rc != TALLY_OK)
        return;
    FUZZ_CHECK(isfinite(x), "an accepted number is finite");
    char text[32];
    tally__number_format(text, x);
    double back = strtod(text, NULL);
    FUZZ_CHECK(memcmp(&back, &x, sizeof(x)) == 0, "tally__number_format round-trips");
    /* The formatter's output is itself acceptable to the parser. */
    double again;
    FUZZ_CHECK(tally__parse_double(&again, text, strlen(text)) == TALLY_OK &&
                   memcmp(&again, &x, sizeof(x)) == 0,
               "the parser reads the formatter's output back");
}

/* The bulk reader against the careful one, line by line: every line it takes, "number\n",
 * "number\r\n" or a last "number", has the value tally__parse_double reads there. A line it
 * declines is skipped (the plain reader sends it the general way). */
static void check_bulk_lines(const char *input, size_t size)
{
    static double out[64];
    const char *p = input, *end = input + size;
    while (p < end) {
        const char *at = p;
        size_t n = tally__number_lines(out, TALLY__COUNT(out), &at, end);
        const char *q = p;
        for (size_t i = 0; i < n; i++) {
            const char *nl = memchr(q, '\n', (size_t)(end - q));
            size_t len = (size_t)((nl ? nl : end) - q);
            size_t text = len - (len > 0 && q[len - 1] == '\r');
            double x;
            FUZZ_CHECK(text > 0 && tally__parse_double(&x, q, text) == TALLY_OK &&
                           memcmp(&x, &out[i], sizeof(x)) == 0,
                       "a line the bulk reader takes has the careful reader's value");
            q = nl ? nl + 1 : end;
        }
        FUZZ_CHECK(q == at, "the bulk reader stops at the start of a line");
        if (n == 0) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            at = nl ? nl + 1 : end;
        }
        p = at;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *input = (const char *)data;
    tally__lines lines;
    tally__lines_init(&lines, "fuzz.txt", input, size);
    const char *line;
    size_t len;
    unsigned long expected = 0;
    int rc;
    while ((rc = tally__lines_next(&lines, &line, &len)) == 1) {
        expected++;
        FUZZ_CHECK(lines.lineno == expected, "line numbers count up by one");
        FUZZ_CHECK(line >= input && line + len <= input + size, "a line lies inside the input");
        FUZZ_CHECK(memchr(line, '\n', len) == NULL, "a line holds no newline");
        FUZZ_CHECK(memchr(line, '\0', len) == NULL, "a line holds no NUL");
        size_t trimmed_len = len;
        const char *trimmed = tally__trim(line, &trimmed_len);
        FUZZ_CHECK(trimmed >= line && trimmed + trimmed_len <= line + len, "trim stays inside");
        check_number(line, len);
    }
    if (rc < 0) {
        fuzz_check_error(rc, "tally__lines_next refused a line");
        FUZZ_CHECK(tally_error_last()->line == expected + 1, "the error names the refused line");
    }
    check_bulk_lines(input, size);
    return 0;
}
