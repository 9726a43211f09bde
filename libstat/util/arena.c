/* The text arena (arena.h): a chain of blocks, each at least 64 KiB (a text longer than that
 * gets a block of its own size), filled front to back. */
#include "util/arena.h"

#include <stdint.h>
#include <string.h>

#include "util/internal.h"

/* Large enough that a series of 10,000 sets needs a few dozen blocks, small enough that a
 * selection of one set does not hold much unused. */
#define BLOCK_SIZE ((size_t)64 * 1024)

struct tally__arena_block {
    tally__arena_block *prev;
    size_t size;
    char data[];
};

char *tally__arena_text(tally__arena *a, const char *s, size_t n)
{
    if (n >= SIZE_MAX - sizeof(tally__arena_block) - 1) {
        tally__oom();
        return NULL;
    }
    if (a->head == NULL || a->head->size - a->used < n + 1) {
        size_t size = n + 1 > BLOCK_SIZE ? n + 1 : BLOCK_SIZE;
        tally__arena_block *b = tally__malloc(sizeof *b + size);
        if (b == NULL) {
            tally__oom();
            return NULL;
        }
        b->prev = a->head;
        b->size = size;
        a->head = b;
        a->used = 0;
    }
    char *out = a->head->data + a->used;
    if (n > 0)
        memcpy(out, s, n);
    out[n] = '\0';
    a->used += n + 1;
    return out;
}

void tally__arena_dispose(tally__arena *a)
{
    while (a->head) {
        tally__arena_block *prev = a->head->prev;
        tally__free_mem(a->head);
        a->head = prev;
    }
    a->used = 0;
}
