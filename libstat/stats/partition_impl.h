/* Order statistics of samples spread over partitions, without moving the samples: the histogram
 * selection of histselect.c, with the passes split between the partitions (which count and fetch)
 * and the client (which decides). A selection is a list of groups; a group is the set of values
 * that pass a chain of bucket filters (each "bucket_of(v) == b" for one bucketing of a range),
 * bucketed once more by its own range. A counting round returns each group's bucket counts and
 * extremes, merged by adding; the client finds the buckets holding the wanted ranks and either
 * fetches their samples (few enough) or refines such a bucket into a child group (too many: a few
 * huge outliers squeezed the rest into it). Every bucketing is a monotone function of the value,
 * so every sample of a bucket is >= every sample of the buckets below it: the value selected
 * among a bucket's samples is the exact order statistic, whichever partition holds it.
 *
 * A summary takes three stages: the order statistics of the samples (median, quartiles, median
 * CI bounds, BAmean cuts, percentiles); the MAD (order statistics of the absolute deviations from
 * the type 7 median), whose first round also brings the BAmean sums, the Tukey count and the
 * sum of deviations; and the count of MAD outliers.
 *
 * Three files share this header: partition_wire.c (the requests and answers as bytes),
 * partition_scan.c (the partition's side: tally_partition_scan, tally_partition_merge) and
 * partition.c (the client's side: the summary's stages). */
#ifndef TALLY_PARTITION_IMPL_H
#define TALLY_PARTITION_IMPL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "stats/select.h"
#include "util/result.h"
#include "stats/stats_internal.h"
#include "stats/wire.h"
#include "util/options.h"

#define REQUEST_MAGIC "TLYQ"
#define ANSWER_MAGIC "TLYP"
#define WIRE_VERSION 1
#define MAX_BUCKETS 4096
#define MIN_BUCKETS 16
#define FETCH_ALL_BELOW 256  /* a set this small sends its samples at once */
#define FETCH_LIMIT 65536    /* a target bucket holding more samples is refined, not fetched */
#define MAX_DEPTH 8          /* refinements before fetching whatever the size */
#define MAX_GROUPS 4096
#define MAX_CUTS (1 + TALLY__MAX_EXTRA_CUTS)

#define FLAG_SUMS 1u     /* BAmean sums, Tukey count and deviation sum */
#define FLAG_MADCOUNT 2u /* count of MAD outliers */

enum { GROUP_COUNT = 0, GROUP_FETCH = 1 };
enum { STAGE_ORDER = 0, STAGE_MAD = 1, STAGE_MADCOUNT = 2, STAGE_DONE = 3 };

/* ---- bucketing ---- */

typedef struct level {
    double origin, inv; /* bucket = floor((v / 2 - origin) * inv), clamped to [0, buckets) */
    uint32_t buckets, bucket;
} level;

static inline uint32_t tally__bucket_of(const level *l, double v)
{
    double t = (v * 0.5 - l->origin) * l->inv;
    t = t > 0 ? t : 0.0; /* also NaN (inv = 0 and an infinite product cannot occur) */
    t = t < (double)(l->buckets - 1) ? t : (double)(l->buckets - 1);
    return (uint32_t)(int)t;
}

static inline uint32_t tally__buckets_for(uint64_t count)
{
    uint64_t b = count / 16;
    return (uint32_t)(b < MIN_BUCKETS ? MIN_BUCKETS : b > MAX_BUCKETS ? MAX_BUCKETS : b);
}

/* ---- requests and answers (partition_wire.c) ---- */

typedef struct group {
    uint32_t kind, depth;
    level chain[MAX_DEPTH];
    level last;
    uint32_t ntargets;
    uint32_t *targets; /* GROUP_FETCH: the buckets of `last` to fetch, ascending */
} group;

typedef struct request {
    uint32_t flags;
    tally__value_map map;
    uint32_t ngroups;
    group *groups;
    /* FLAG_SUMS */
    tally_direction direction;
    double bamean_scale;
    uint32_t ncuts;
    double cuts[MAX_CUTS];
    tally__outlier_rule rule; /* FLAG_SUMS: scale and fences; FLAG_MADCOUNT: the MAD part too */
    double dev_scale;
} request;

typedef struct agroup {
    uint32_t kind, buckets;
    double min, max;     /* GROUP_COUNT: extremes of the group's values (+inf, -inf if none) */
    uint64_t *counts;    /* GROUP_COUNT */
    uint64_t nvalues;    /* GROUP_FETCH */
    double *values;
} agroup;

typedef struct answer {
    uint64_t hash;
    uint32_t flags, ngroups;
    agroup *groups;
    uint32_t ncuts;
    uint64_t better[MAX_CUTS];
    tally__ksum sums[MAX_CUTS];
    uint64_t tukey;
    tally__ksum devsum;
    double devmin, devmax;
    uint64_t madcount;
} answer;

/* A bucketing of [lo, hi] in `buckets` buckets; 0 when the range cannot be bucketed. */
int tally__partition_level_make(level *l, double lo, double hi, uint32_t buckets);
/* A request to bytes and back (TALLY_EFORMAT for bytes that are not one; free_request frees
 * what decode_request allocated); its hash, which answers carry so that answers to different
 * requests never mix. */
void tally__partition_encode_request(tally__buf *b, const request *q);
void tally__partition_free_request(request *q);
int tally__partition_decode_request(request *q, const unsigned char *data, size_t len);
uint64_t tally__partition_request_hash(const unsigned char *data, size_t len);
/* Answers: freed, their groups allocated, decoded from bytes, and encoded into *out (freed). */
void tally__partition_free_answer(answer *a);
int tally__partition_answer_groups(answer *a, uint32_t ngroups);
int tally__partition_decode_answer(answer *a, const unsigned char *data, size_t len);
int tally__partition_finish_answer(unsigned char **out, size_t *len, answer *a);

#endif /* TALLY_PARTITION_IMPL_H */
