/* HdrHistogram's encoded histograms (hdr_decode.c): the base64 text of a histogram log's
 * interval line decoded into the non-empty buckets, for the HdrHistogram log importer and its
 * fuzz target. */
#ifndef TALLY_HDR_DECODE_H
#define TALLY_HDR_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* One decoded histogram: its non-empty buckets, ascending. */
typedef struct tally__hdr_hist {
    double *values;    /* each bucket's highest equivalent value, times the conversion ratio */
    uint64_t *counts;  /* its count, > 0 */
    size_t n;          /* the buckets held */
    double resolution; /* the widest non-empty bucket: highest - lowest equivalent value, times
                          the ratio (0 when every value was recorded exactly) */
    uint64_t total;    /* the sum of the counts */
    int encoding;      /* 0, 1 or 2: the encoding's version (cookie) */
} tally__hdr_hist;

/* Decode text[0..len), the base64 of a compressed histogram (V0, V1 or V2 encoding), into *out
 * (zeroed first; free with tally__hdr_hist_free, also after a failure). A histogram without a
 * count is a valid one with n = 0. On failure the error names `name`:`line`:`col` (the column
 * of the text) and what is wrong: TALLY_EPARSE (bad base64, cookie, header, zlib stream or
 * count), TALLY_ELIMIT (larger than the decoder accepts), TALLY_ENOMEM. */
int tally__hdr_decode(tally__hdr_hist *out, const char *text, size_t len, const char *name,
                      unsigned long line, unsigned long col);

void tally__hdr_hist_free(tally__hdr_hist *h);

#endif /* TALLY_HDR_DECODE_H */
