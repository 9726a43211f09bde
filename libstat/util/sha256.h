/* SHA-256 (FIPS 180-4), for content keys such as the store's result-set hash. Written here
 * because none of the libraries tally links (GSL, cJSON, SQLite, libpq) exports one, and a
 * cryptographic library would be a dependency for about a hundred lines; the key only has to
 * tell contents apart, it guards nothing. */
#ifndef TALLY_SHA256_H
#define TALLY_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct tally__sha256 {
    uint32_t h[8];
    uint64_t bytes;        /* message length so far */
    unsigned char block[64];
    size_t fill;           /* bytes waiting in block */
} tally__sha256;

void tally__sha256_init(tally__sha256 *c);
void tally__sha256_update(tally__sha256 *c, const void *data, size_t len);
void tally__sha256_final(tally__sha256 *c, unsigned char digest[32]);
/* The digest of data as 64 lowercase hexadecimal digits and a NUL. */
void tally__sha256_hex(char out[65], const void *data, size_t len);

#endif /* TALLY_SHA256_H */
