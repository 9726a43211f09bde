/* HdrHistogram's log-linear buckets (hdr_histogram.c): the geometry that maps a recorded integer
 * to its counts-array index and back, shared by the decoder of HdrHistogram logs
 * (formats/hdr_decode.c) and the latency recorder of the runner's workloads (run/), and that
 * recorder itself: counts of integers with a fixed number of significant digits, O(1) and
 * allocation-free per value once a value's power-of-two range has been seen, one recorder per
 * thread (no locks), merged at the end. Definitions follow HdrHistogram's AbstractHistogram
 * (countsArrayIndex, lowestEquivalentValue, highestEquivalentValue). */
#ifndef TALLY_STATS_HDR_HISTOGRAM_H
#define TALLY_STATS_HDR_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

/* Which values counts-array index i stands for. */
typedef struct tally__hdr_geometry {
    unsigned unit_magnitude; /* floor(log2(lowest discernible value)) */
    unsigned half_magnitude; /* log2 of the sub-bucket half count */
    uint64_t half_count;     /* sub-buckets in the upper half of each bucket */
} tally__hdr_geometry;

/* The geometry of `digits` significant digits (0 to 5) and the lowest discernible value
 * `lowest` (1 to 2^62). NULL, or what is wrong ("significant digits above 5", ...). */
const char *tally__hdr_geometry_init(tally__hdr_geometry *g, uint32_t digits, uint64_t lowest);

/* The counts-array index of value v (countsArrayIndex(v)); v below 2^63. */
uint64_t tally__hdr_index_of(const tally__hdr_geometry *g, uint64_t v);

/* The lowest equivalent value of index i and the width of its bucket (its highest equivalent
 * value is low + width - 1); 0 when i lies beyond the values below 2^63. */
int tally__hdr_index_range(uint64_t *low, uint64_t *width, const tally__hdr_geometry *g,
                           uint64_t i);

/* Values at or above this are refused by the recorder: the highest a geometry holds. */
#define TALLY__HDR_RECORD_MAX (UINT64_C(1) << 62)

/* A recorder: counts by index in segments of half_count indexes, each allocated the first
 * time one of its values is recorded. */
#define TALLY__HDR_SEGMENTS 64
typedef struct tally__hdr_recorder {
    tally__hdr_geometry g;
    uint64_t *segment[TALLY__HDR_SEGMENTS];
    uint64_t total;   /* values recorded */
    uint64_t lost;    /* values not recorded: no memory for their segment, or too large */
} tally__hdr_recorder;

/* An empty recorder of `digits` significant digits (1 to 5), lowest discernible value 1. */
int tally__hdr_recorder_init(tally__hdr_recorder *r, uint32_t digits);

/* Count v once. Never fails: a value that cannot be counted goes to r->lost, which the caller
 * checks once at the end (a worker thread has nowhere to report an error). */
void tally__hdr_record(tally__hdr_recorder *r, uint64_t v);

/* Add `from`'s counts (same digits) to `into`; TALLY_ENOMEM leaves `into` with part of them
 * (its total still says how many). */
int tally__hdr_recorder_merge(tally__hdr_recorder *into, const tally__hdr_recorder *from);

/* The non-empty buckets, ascending: values[i] the bucket's highest equivalent value divided by
 * `per_unit` (recorded integers per output unit: 1000 for nanoseconds out as usec, so that
 * 5935 ns is exactly the double nearest 5.935), counts[i] its count; *resolution the widest
 * non-empty bucket's width over `per_unit` (how far a value recorded in it may lie from
 * values[i], counting the rounding of a measurement to the recorded integer). Arrays allocated
 * (tally__free_mem); n 0 and NULL arrays when nothing was recorded. */
int tally__hdr_recorder_export(double **values, uint64_t **counts, size_t *n,
                               double *resolution, const tally__hdr_recorder *r, double per_unit);

void tally__hdr_recorder_free(tally__hdr_recorder *r);

#endif /* TALLY_STATS_HDR_HISTOGRAM_H */
