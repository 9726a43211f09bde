/* Little-endian encoding of the byte strings that accumulators and partition requests and answers
 * travel in (accum.c, partition.c), the same on every host: integers byte by byte, doubles by their
 * IEEE 754 bits. Internal to the statistics module. */
#ifndef TALLY_WIRE_H
#define TALLY_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"

static inline void tally__put_u64(tally__buf *b, uint64_t v)
{
    char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (char)(unsigned char)(v >> (8 * i));
    tally__buf_append(b, bytes, sizeof bytes);
}

static inline void tally__put_u32(tally__buf *b, uint32_t v)
{
    char bytes[4];
    for (int i = 0; i < 4; i++)
        bytes[i] = (char)(unsigned char)(v >> (8 * i));
    tally__buf_append(b, bytes, sizeof bytes);
}

static inline void tally__put_f64(tally__buf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    tally__put_u64(b, bits);
}

/* A reader over a byte string: every get fails (sets `bad`, returns 0) past the end. */
typedef struct tally__wire {
    const unsigned char *p;
    size_t left;
    int bad;
} tally__wire;

static inline uint64_t tally__get_u64(tally__wire *w)
{
    uint64_t v = 0;
    if (w->left < 8) {
        w->bad = 1;
        w->left = 0;
        return 0;
    }
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)w->p[i] << (8 * i);
    w->p += 8;
    w->left -= 8;
    return v;
}

static inline uint32_t tally__get_u32(tally__wire *w)
{
    uint32_t v = 0;
    if (w->left < 4) {
        w->bad = 1;
        w->left = 0;
        return 0;
    }
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)w->p[i] << (8 * i);
    w->p += 4;
    w->left -= 4;
    return v;
}

static inline double tally__get_f64(tally__wire *w)
{
    uint64_t bits = tally__get_u64(w);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The buffer's bytes as the caller's unsigned char string (released with tally_free), or
 * TALLY_ENOMEM (recorded) when an append failed. */
static inline int tally__wire_finish(unsigned char **out, size_t *len, tally__buf *b)
{
    char *data;
    int rc = tally__buf_detach(&data, len, b);
    if (rc == TALLY_OK)
        *out = (unsigned char *)data;
    return rc;
}

#endif /* TALLY_WIRE_H */
