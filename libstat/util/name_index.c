/* Open addressing with linear probing over FNV-1a hashes, kept at most half full. */
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "util/name_index.h"

/* Arrays up to this size are scanned: a table would cost more than it saves. */
#define SCAN_LIMIT 16

static size_t hash_name(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return (size_t)(h ^ (h >> 29));
}

size_t tally__name_index_find(const tally__name_index *ix, const void *owner,
                              tally__indexed_name_fn name_of, size_t count, const char *name)
{
    if (ix->cap == 0) {
        for (size_t i = 0; i < count; i++)
            if (strcmp(name_of(owner, i), name) == 0)
                return i;
        return (size_t)-1;
    }
    size_t mask = ix->cap - 1;
    for (size_t s = hash_name(name) & mask;; s = (s + 1) & mask) {
        size_t at = ix->slots[s];
        if (at == 0)
            return (size_t)-1;
        if (strcmp(name_of(owner, at - 1), name) == 0)
            return at - 1;
    }
}

static void put(size_t *slots, size_t cap, size_t pos, const char *name)
{
    size_t s = hash_name(name) & (cap - 1);
    while (slots[s] != 0)
        s = (s + 1) & (cap - 1);
    slots[s] = pos + 1;
}

int tally__name_index_added(tally__name_index *ix, const void *owner,
                            tally__indexed_name_fn name_of, size_t count)
{
    if (count <= SCAN_LIMIT)
        return TALLY_OK;
    if (count * 2 <= ix->cap) {
        put(ix->slots, ix->cap, count - 1, name_of(owner, count - 1));
        return TALLY_OK;
    }
    size_t cap = ix->cap ? ix->cap : 64;
    while (cap < count * 4) {
        if (cap > SIZE_MAX / 2 / sizeof(size_t))
            return tally__error(TALLY_ENOMEM, "out of memory");
        cap *= 2;
    }
    size_t *slots = tally__calloc(cap, sizeof(*slots));
    if (slots == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    for (size_t i = 0; i < count; i++)
        put(slots, cap, i, name_of(owner, i));
    tally__free_mem(ix->slots);
    ix->slots = slots;
    ix->cap = cap;
    return TALLY_OK;
}

void tally__name_index_free(tally__name_index *ix)
{
    tally__free_mem(ix->slots);
    ix->slots = NULL;
    ix->cap = 0;
}
