/* Many small texts freed together (arena.c): a selection of thousands of rows keeps its
 * strings in a few large blocks instead of one allocation each. The blocks never move, so a
 * pointer handed out stays valid until tally__arena_dispose. */
#ifndef TALLY_UTIL_ARENA_H
#define TALLY_UTIL_ARENA_H

#include <stddef.h>

typedef struct tally__arena_block tally__arena_block;

typedef struct tally__arena {
    tally__arena_block *head; /* the block being filled; each links to the one before */
    size_t used;              /* bytes of head in use */
} tally__arena;

#define TALLY__ARENA_INIT { NULL, 0 }

/* A copy of the n bytes at s followed by a NUL, owned by the arena; NULL when out of memory
 * (the message is set). */
char *tally__arena_text(tally__arena *a, const char *s, size_t n);
/* Free every block; the arena is empty again. */
void tally__arena_dispose(tally__arena *a);

#endif /* TALLY_UTIL_ARENA_H */
