/* The number of elements of an array (not of a pointer: sizeof would give the pointer's size).
 * Standalone so that the tests and fuzzers, which see libstat/ but need none of util/internal.h,
 * use the same macro. */
#ifndef TALLY_COUNT_H
#define TALLY_COUNT_H

#define TALLY__COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif /* TALLY_COUNT_H */
