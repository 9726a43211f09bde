/* Shared parts of the native JSON reader and writer (docs/formats.md). */
#ifndef TALLY_NATIVE_JSON_H
#define TALLY_NATIVE_JSON_H

#define TALLY__NATIVE_FORMAT "tally-results"
/* Major version: a reader refuses files of a higher one; additions that older readers may
 * ignore keep the number. */
#define TALLY__NATIVE_VERSION 1

#endif /* TALLY_NATIVE_JSON_H */
