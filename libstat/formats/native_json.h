/* Shared parts of the native JSON reader and writer (docs/formats.md). */
#ifndef TALLY_NATIVE_JSON_H
#define TALLY_NATIVE_JSON_H

#include <stddef.h>

#include "util/number.h"

#define TALLY__NATIVE_FORMAT "tally-results"
/* Major version: a reader refuses files of a higher one; additions that older readers may
 * ignore keep the number. */
#define TALLY__NATIVE_VERSION 1

/* One samples array cut out of a native JSON text: its contents (between the brackets) and how
 * many numbers they hold. */
typedef struct tally__json_span {
    size_t offset;
    size_t len;
    size_t count;
} tally__json_span;

/* A native JSON text whose $.results[*].benchmarks[*].cases[*].samples arrays are replaced by
 * empty arrays, so that cJSON builds a tree of the small rest only; the samples are then read
 * from the original text, span after span in document order. */
typedef struct tally__json_split {
    char *skeleton; /* NULL when nothing was cut out: parse the original text */
    size_t skeleton_len;
    tally__json_span *spans;
    size_t count;
} tally__json_split;

/* Cut the samples arrays out of data[0..len). Any doubt (a samples array that is empty or holds
 * anything but plain JSON numbers, escaped or repeated structural keys, nesting beyond cJSON's
 * limit) leaves `out->skeleton` NULL, and the caller parses the original text, which gives the
 * exact error message. Returns TALLY_OK or TALLY_ENOMEM. */
int tally__json_split_text(tally__json_split *out, const char *data, size_t len);

void tally__json_split_free(tally__json_split *s);

/* Read the numbers of a span (validated by the split) into out[0..span->count). Returns the
 * index of the first number refused (out of range, too long: *why says which), or span->count
 * when all are read. */
size_t tally__json_span_read(double *out, const char *data, const tally__json_span *span,
                             tally__number_status *why);

#endif /* TALLY_NATIVE_JSON_H */
