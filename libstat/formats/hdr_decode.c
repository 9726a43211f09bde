/* HdrHistogram's encoded histograms, as a histogram log holds them (docs/importers.md,
 * "HdrHistogram logs"): base64 of a compressed wrapper (a big-endian cookie, the length of the
 * zlib stream, the stream), which inflates to the payload: a cookie, a header and the counts.
 *
 *   encoding  payload cookie  wrapper cookie  header (after the cookie)             counts
 *   V0        0x1c849308      0x1c849309      digits, lowest, highest, total (28 B)  word size from the cookie
 *   V1        0x1c849301      0x1c849302      length, offset, digits, lowest,        word size from the cookie
 *                                             highest, ratio (36 B)
 *   V2        0x1c849303      0x1c849304      as V1                                  ZigZag LEB128, a negative
 *                                                                                     one a run of zeros
 *
 * Bits 4-7 of a cookie hold the word size (2, 4 or 8 bytes for V0 and V1). Counts are stored by
 * counts-array index; index i stands for the values of one bucket, from its lowest to its
 * highest equivalent value, which is what HdrHistogram reports for a percentile and the maximum.
 * The normalising offset of V1 and V2 only says how the writer held its array: the counts are
 * written in index order, so it does not move them. */
#include <string.h>
#include <zlib.h>

#include "formats/hdr_decode.h"
#include "stats/hdr_histogram.h"
#include "util/internal.h"

#define V0_ENCODING 0x1c849308u
#define V0_COMPRESSED 0x1c849309u
#define V1_ENCODING 0x1c849301u
#define V1_COMPRESSED 0x1c849302u
#define V2_ENCODING 0x1c849303u
#define V2_COMPRESSED 0x1c849304u
#define COOKIE_BASE(c) ((c) & ~0xf0u)

/* The inflated payload accepted, at most: a histogram of 5 significant digits (HdrHistogram's
 * limit) from 1 to 2^63 has about 7 million counts, 56 MiB as V1 words; logs hold histograms of
 * 2 or 3 digits, a few KiB each. Beyond this a log line is refused rather than decoded into
 * memory it does not need. */
#define MAX_PAYLOAD (64u << 20)

typedef struct decoder {
    const char *name;
    unsigned long line, col;
} decoder;

static int fail(const decoder *d, int code, const char *what)
{
    return tally__error_at(code, d->name, d->line, d->col, "HdrHistogram histogram: %s", what);
}

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* RFC 4648 base64 with its padding, which every HdrHistogram writer emits. */
static int base64_decode(unsigned char **out, size_t *outlen, const char *s, size_t len,
                         const decoder *d)
{
    if (len == 0 || len % 4 != 0)
        return tally__error_at(TALLY_EPARSE, d->name, d->line, d->col,
                               "HdrHistogram histogram: base64 text of %zu characters, expected a "
                               "multiple of 4",
                               len);
    size_t pad = s[len - 1] == '=' ? (s[len - 2] == '=' ? 2 : 1) : 0;
    unsigned char *b = tally__malloc(len / 4 * 3);
    if (b == NULL)
        return tally__oom();
    size_t n = 0;
    for (size_t i = 0; i < len; i += 4) {
        unsigned v = 0;
        for (size_t j = 0; j < 4; j++) {
            int x = i + j >= len - pad ? 0 : base64_value((unsigned char)s[i + j]);
            if (x < 0) {
                tally__free_mem(b);
                return tally__error_at(TALLY_EPARSE, d->name, d->line, d->col + i + j,
                                       "HdrHistogram histogram: '%c' is not a base64 character",
                                       s[i + j]);
            }
            v = v << 6 | (unsigned)x;
        }
        b[n++] = (unsigned char)(v >> 16);
        b[n++] = (unsigned char)(v >> 8);
        b[n++] = (unsigned char)v;
    }
    *out = b;
    *outlen = n - pad;
    return TALLY_OK;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* Inflate the zlib stream of `len` bytes into a fresh buffer of at most MAX_PAYLOAD bytes. */
static int inflate_all(unsigned char **out, size_t *outlen, const unsigned char *in, size_t len,
                       const decoder *d)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return tally__oom();
    size_t cap = len * 4 + 256 < MAX_PAYLOAD ? len * 4 + 256 : MAX_PAYLOAD, have = 0;
    unsigned char *buf = tally__malloc(cap);
    int zrc = buf ? Z_OK : Z_MEM_ERROR;
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)len;
    while (zrc == Z_OK) {
        if (have == cap) {
            if (cap == MAX_PAYLOAD) {
                zrc = Z_BUF_ERROR;
                break;
            }
            size_t ncap = cap * 2 < MAX_PAYLOAD ? cap * 2 : MAX_PAYLOAD;
            unsigned char *g = tally__realloc(buf, ncap);
            if (g == NULL) {
                zrc = Z_MEM_ERROR;
                break;
            }
            buf = g;
            cap = ncap;
        }
        z.next_out = buf + have;
        z.avail_out = (uInt)(cap - have);
        zrc = inflate(&z, Z_NO_FLUSH);
        have = cap - z.avail_out;
        if (zrc == Z_BUF_ERROR && z.avail_in == 0)
            zrc = Z_DATA_ERROR; /* the stream ended early: no progress possible */
        else if (zrc == Z_BUF_ERROR)
            zrc = Z_OK;
    }
    inflateEnd(&z);
    if (zrc == Z_STREAM_END) {
        *out = buf;
        *outlen = have;
        return TALLY_OK;
    }
    tally__free_mem(buf);
    if (zrc == Z_MEM_ERROR)
        return tally__oom();
    if (have == MAX_PAYLOAD)
        return fail(d, TALLY_ELIMIT, "inflates to more than 64 MiB");
    return fail(d, TALLY_EPARSE, "the zlib stream is damaged or cut short");
}

/* The geometry of a histogram (stats/hdr_histogram.h) and its integer to double ratio. */
typedef struct geometry {
    tally__hdr_geometry g;
    double ratio;
} geometry;

static int geometry_init(geometry *g, uint32_t digits, uint64_t lowest, double ratio,
                         const decoder *d)
{
    const char *why = tally__hdr_geometry_init(&g->g, digits, lowest);
    if (why != NULL)
        return fail(d, TALLY_EPARSE, why);
    if (!(ratio > 0) || !(ratio < 1e300))
        return fail(d, TALLY_EPARSE, "integer to double conversion ratio not a positive number");
    g->ratio = ratio;
    return TALLY_OK;
}

/* The buckets seen so far. */
typedef struct collect {
    tally__hdr_hist *h;
    size_t cap;
    const geometry *g;
    const decoder *d;
} collect;

static int add_count(collect *c, uint64_t index, uint64_t count)
{
    if (count == 0)
        return TALLY_OK;
    tally__hdr_hist *h = c->h;
    uint64_t low, width;
    if (!tally__hdr_index_range(&low, &width, &c->g->g, index))
        return fail(c->d, TALLY_EPARSE, "a count beyond the largest value a histogram holds");
    if (count > UINT64_MAX - h->total)
        return fail(c->d, TALLY_ELIMIT, "counts add up to more than 2^64 - 1");
    if (h->n == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 64;
        double *v = tally__reallocarray(h->values, ncap, sizeof *v);
        if (v == NULL)
            return tally__oom();
        h->values = v;
        uint64_t *k = tally__reallocarray(h->counts, ncap, sizeof *k);
        if (k == NULL)
            return tally__oom();
        h->counts = k;
        c->cap = ncap;
    }
    /* Indexes ascend and their ranges do not overlap, so the values ascend strictly. */
    h->values[h->n] = (double)(low + (width - 1)) * c->g->ratio;
    h->counts[h->n] = count;
    h->n++;
    h->total += count;
    double res = (double)(width - 1) * c->g->ratio;
    if (res > h->resolution)
        h->resolution = res;
    return TALLY_OK;
}

/* Fixed-width big-endian counts (V0, V1). */
static int read_words(collect *c, const unsigned char *p, size_t len, unsigned word)
{
    if (word != 2 && word != 4 && word != 8)
        return fail(c->d, TALLY_EPARSE, "a word size other than 2, 4 or 8 bytes in the cookie");
    if (len % word != 0)
        return fail(c->d, TALLY_EPARSE, "the counts end inside a word");
    for (size_t i = 0; i < len / word; i++) {
        const unsigned char *q = p + i * word;
        uint64_t k = word == 2 ? (uint64_t)q[0] << 8 | q[1] : word == 4 ? be32(q) : be64(q);
        if (word == 8 && k > INT64_MAX)
            return fail(c->d, TALLY_EPARSE, "a negative count");
        int rc = add_count(c, i, k);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

/* ZigZag LEB128 with at most 9 bytes, the 9th holding 8 full bits (V2). */
static int read_zigzag(collect *c, const unsigned char *p, size_t len)
{
    uint64_t index = 0;
    size_t at = 0;
    while (at < len) {
        uint64_t raw = 0;
        unsigned i = 0;
        for (;; i++) {
            if (at >= len)
                return fail(c->d, TALLY_EPARSE, "the counts end inside a number");
            unsigned char b = p[at++];
            if (i == 8) {
                raw |= (uint64_t)b << 56;
                break;
            }
            raw |= (uint64_t)(b & 0x7f) << (7 * i);
            if (!(b & 0x80))
                break;
        }
        int64_t v = (int64_t)(raw >> 1) ^ -(int64_t)(raw & 1);
        if (v < 0) {
            uint64_t zeros = (uint64_t)(-(v + 1)) + 1;
            if (zeros > UINT64_MAX - index)
                return fail(c->d, TALLY_EPARSE, "a run of zero counts beyond any index");
            index += zeros;
            continue;
        }
        int rc = add_count(c, index++, (uint64_t)v);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

static int read_payload(tally__hdr_hist *h, const unsigned char *p, size_t len, const decoder *d)
{
    if (len < 4)
        return fail(d, TALLY_EPARSE, "no payload cookie");
    uint32_t cookie = be32(p);
    geometry g;
    collect c = { h, 0, &g, d };
    int rc;
    if (COOKIE_BASE(cookie) == V0_ENCODING) {
        if (len < 32)
            return fail(d, TALLY_EPARSE, "a V0 header cut short");
        if ((rc = geometry_init(&g, be32(p + 4), be64(p + 8), 1.0, d)) != TALLY_OK)
            return rc;
        h->encoding = 0;
        return read_words(&c, p + 32, len - 32, (cookie & 0xf0u) >> 4);
    }
    if (COOKIE_BASE(cookie) != V1_ENCODING && COOKIE_BASE(cookie) != V2_ENCODING)
        return fail(d, TALLY_EPARSE, "unknown payload cookie");
    if (len < 40)
        return fail(d, TALLY_EPARSE, "a header cut short");
    uint32_t payload = be32(p + 4);
    if (payload > len - 40)
        return fail(d, TALLY_EPARSE, "the header's payload length exceeds the data");
    uint64_t bits = be64(p + 32);
    double ratio;
    memcpy(&ratio, &bits, sizeof ratio);
    if ((rc = geometry_init(&g, be32(p + 12), be64(p + 16), ratio, d)) != TALLY_OK)
        return rc;
    if (COOKIE_BASE(cookie) == V1_ENCODING) {
        h->encoding = 1;
        return read_words(&c, p + 40, payload, (cookie & 0xf0u) >> 4);
    }
    h->encoding = 2;
    return read_zigzag(&c, p + 40, payload);
}

int tally__hdr_decode(tally__hdr_hist *out, const char *text, size_t len, const char *name,
                      unsigned long line, unsigned long col)
{
    memset(out, 0, sizeof *out);
    decoder d = { name, line, col };
    unsigned char *raw = NULL, *payload = NULL;
    size_t rawlen = 0, plen = 0;
    int rc = base64_decode(&raw, &rawlen, text, len, &d);
    if (rc != TALLY_OK)
        return rc;
    if (rawlen < 8) {
        rc = fail(&d, TALLY_EPARSE, "shorter than its 8-byte compressed header");
    } else {
        uint32_t cookie = be32(raw), zlen = be32(raw + 4);
        uint32_t base = COOKIE_BASE(cookie);
        if (base != V0_COMPRESSED && base != V1_COMPRESSED && base != V2_COMPRESSED)
            rc = fail(&d, TALLY_EPARSE, "unknown compressed-histogram cookie");
        else if (zlen > rawlen - 8)
            rc = fail(&d, TALLY_EPARSE, "the compressed length exceeds the data");
        else
            rc = inflate_all(&payload, &plen, raw + 8, zlen, &d);
    }
    tally__free_mem(raw);
    if (rc == TALLY_OK)
        rc = read_payload(out, payload, plen, &d);
    tally__free_mem(payload);
    return rc;
}

void tally__hdr_hist_free(tally__hdr_hist *h)
{
    tally__free_mem(h->values);
    tally__free_mem(h->counts);
    memset(h, 0, sizeof *h);
}
