/* HdrHistogram's log-linear buckets and a recorder over them (stats/hdr_histogram.h).
 *
 * With d significant digits a histogram keeps 2^k sub-buckets per bucket, 2^k the smallest
 * power of two of at least 2 x 10^d; bucket 0 holds values 0 to 2^k - 1 one by one, bucket b
 * the upper half of the next octave with a step of 2^b, so every value is kept to within
 * 1 part in 2^(k-1) (3 digits: 1/1024). A counts-array index names one (bucket, sub-bucket). */
#include <string.h>

#include "stats/hdr_histogram.h"
#include "util/internal.h"

const char *tally__hdr_geometry_init(tally__hdr_geometry *g, uint32_t digits, uint64_t lowest)
{
    if (digits > 5)
        return "significant digits above 5";
    if (lowest < 1 || lowest > (UINT64_C(1) << 62))
        return "lowest discernible value outside 1 to 2^62";
    unsigned unit = 0;
    while ((lowest >> (unit + 1)) != 0)
        unit++;
    /* The smallest power of two of at least 2 * 10^digits sub-buckets. */
    uint64_t largest_single = 2;
    for (uint32_t i = 0; i < digits; i++)
        largest_single *= 10;
    unsigned count_magnitude = 0;
    while ((UINT64_C(1) << count_magnitude) < largest_single)
        count_magnitude++;
    unsigned half = (count_magnitude > 1 ? count_magnitude : 1) - 1;
    if (unit + half > 61)
        return "lowest discernible value too large for its digits";
    g->unit_magnitude = unit;
    g->half_magnitude = half;
    g->half_count = UINT64_C(1) << half;
    return NULL;
}

uint64_t tally__hdr_index_of(const tally__hdr_geometry *g, uint64_t v)
{
    uint64_t mask = (2 * g->half_count - 1) << g->unit_magnitude;
    /* The leading zeros of v | mask fix the octave; the mask keeps bucket 0 for small v. */
    int base = 64 - (int)g->unit_magnitude - (int)g->half_magnitude - 1;
    unsigned bucket = (unsigned)(base - __builtin_clzll(v | mask));
    uint64_t sub = v >> (bucket + g->unit_magnitude);
    return ((uint64_t)(bucket + 1) << g->half_magnitude) + sub - g->half_count;
}

int tally__hdr_index_range(uint64_t *low, uint64_t *width, const tally__hdr_geometry *g,
                           uint64_t i)
{
    int64_t bucket = (int64_t)(i >> g->half_magnitude) - 1;
    uint64_t sub = (i & (g->half_count - 1)) + g->half_count;
    if (bucket < 0) {
        sub -= g->half_count;
        bucket = 0;
    }
    unsigned shift = (unsigned)bucket + g->unit_magnitude;
    /* sub < 2 * half_count: the highest value stays below 2^63, as HdrHistogram's do. */
    if (shift + g->half_magnitude + 1 > 63)
        return 0;
    *low = sub << shift;
    *width = UINT64_C(1) << shift;
    return 1;
}

int tally__hdr_recorder_init(tally__hdr_recorder *r, uint32_t digits)
{
    memset(r, 0, sizeof *r);
    if (digits < 1 || tally__hdr_geometry_init(&r->g, digits, 1) != NULL)
        return tally__error(TALLY_EINVAL, "histogram: %u significant digits, expected 1 to 5",
                            digits);
    return TALLY_OK;
}

/* The counts of segment s, allocated on first use; NULL when out of memory. */
static uint64_t *segment_of(tally__hdr_recorder *r, size_t s)
{
    if (r->segment[s] == NULL)
        r->segment[s] = tally__calloc((size_t)r->g.half_count, sizeof(uint64_t));
    return r->segment[s];
}

void tally__hdr_record(tally__hdr_recorder *r, uint64_t v)
{
    uint64_t i = v < TALLY__HDR_RECORD_MAX ? tally__hdr_index_of(&r->g, v) : UINT64_MAX;
    uint64_t s = i >> r->g.half_magnitude;
    uint64_t *seg = s < TALLY__HDR_SEGMENTS ? segment_of(r, (size_t)s) : NULL;
    if (seg == NULL) {
        r->lost++;
        return;
    }
    seg[i & (r->g.half_count - 1)]++;
    r->total++;
}

int tally__hdr_recorder_merge(tally__hdr_recorder *into, const tally__hdr_recorder *from)
{
    if (into->g.half_magnitude != from->g.half_magnitude)
        return tally__error(TALLY_EINVAL, "histogram: merging recorders of different digits");
    into->lost += from->lost;
    for (size_t s = 0; s < TALLY__HDR_SEGMENTS; s++) {
        if (from->segment[s] == NULL)
            continue;
        uint64_t *seg = segment_of(into, s);
        if (seg == NULL)
            return tally__oom();
        for (uint64_t k = 0; k < from->g.half_count; k++) {
            seg[k] += from->segment[s][k];
            into->total += from->segment[s][k];
        }
    }
    return TALLY_OK;
}

int tally__hdr_recorder_export(double **values, uint64_t **counts, size_t *n,
                               double *resolution, const tally__hdr_recorder *r, double per_unit)
{
    *values = NULL;
    *counts = NULL;
    *n = 0;
    *resolution = 0;
    size_t m = 0;
    for (size_t s = 0; s < TALLY__HDR_SEGMENTS; s++)
        for (uint64_t k = 0; r->segment[s] && k < r->g.half_count; k++)
            m += r->segment[s][k] != 0;
    if (m == 0)
        return TALLY_OK;
    double *v = tally__reallocarray(NULL, m, sizeof *v);
    uint64_t *c = tally__reallocarray(NULL, m, sizeof *c);
    if (v == NULL || c == NULL) {
        tally__free_mem(v);
        tally__free_mem(c);
        return tally__oom();
    }
    size_t j = 0;
    uint64_t widest = 0;
    for (size_t s = 0; s < TALLY__HDR_SEGMENTS; s++)
        for (uint64_t k = 0; r->segment[s] && k < r->g.half_count; k++) {
            uint64_t low, width;
            if (r->segment[s][k] == 0 ||
                !tally__hdr_index_range(&low, &width, &r->g, ((uint64_t)s << r->g.half_magnitude) + k))
                continue;
            v[j] = (double)(low + (width - 1)) / per_unit;
            c[j++] = r->segment[s][k];
            if (width > widest)
                widest = width;
        }
    *values = v;
    *counts = c;
    *n = j;
    *resolution = (double)widest / per_unit;
    return TALLY_OK;
}

void tally__hdr_recorder_free(tally__hdr_recorder *r)
{
    for (size_t s = 0; s < TALLY__HDR_SEGMENTS; s++)
        tally__free_mem(r->segment[s]);
    memset(r, 0, sizeof *r);
}
