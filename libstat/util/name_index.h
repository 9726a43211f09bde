/* A hash index from names to positions in an array the owner keeps (cases of a benchmark,
 * benchmarks of a result set), so that finding a name costs O(1) instead of a scan of every
 * element: loading n distinct cases is then O(n), not O(n^2). Small arrays are scanned and get
 * no table. The table changes only when an element is added, never on a lookup, so concurrent
 * lookups on an unchanging owner need no lock. */
#ifndef TALLY_NAME_INDEX_H
#define TALLY_NAME_INDEX_H

#include <stddef.h>

/* The name of element i of the owner's array. */
typedef const char *(*tally__indexed_name_fn)(const void *owner, size_t i);

typedef struct tally__name_index {
    size_t *slots; /* element position + 1; 0 is an empty slot */
    size_t cap;    /* a power of two, or 0 while the array is scanned */
} tally__name_index;

#define TALLY__NAME_INDEX_INIT { NULL, 0 }

/* Position of `name` among the `count` elements, or (size_t)-1. */
size_t tally__name_index_find(const tally__name_index *ix, const void *owner,
                              tally__indexed_name_fn name_of, size_t count, const char *name);

/* Element `count - 1` was just appended: index it. TALLY_ENOMEM (recorded) leaves the index as
 * it was, so the caller can take the element back. */
int tally__name_index_added(tally__name_index *ix, const void *owner,
                            tally__indexed_name_fn name_of, size_t count);

void tally__name_index_free(tally__name_index *ix);

#endif /* TALLY_NAME_INDEX_H */
