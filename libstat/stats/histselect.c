/* Histogram selection. One pass counts the samples into 4096 buckets of equal width over the
 * value range; the buckets holding the wanted ranks are then known, a second pass copies out
 * only their samples (typically a few thousandths of n), and multiselect finishes among those.
 * The samples are read twice and never written, so a summary needs no copy of them: that copy
 * and its page faults cost more than the two passes. Bucketing is a monotone function of the
 * value (a shift and a scale, each rounded monotonically, then truncation), so every sample in a
 * bucket is >= every sample in the buckets below it: the result is the exact order statistic
 * however the rounding falls. When the wanted buckets hold too much of the data (a few huge
 * outliers squeeze the rest into one bucket) the caller falls back to a full copy. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/histselect.h"
#include "util/internal.h"
#include "stats/select.h"
#include "stats/stats_internal.h"

#define BUCKETS 4096
#define MIN_SAMPLES 2048 /* measured crossover: below it a copy and one multiselect cost less */
#define MAX_CANDIDATE_SHARE 8   /* at most n / 8 samples copied out */
#define FEW_RANKS 32
#define NOT_A_TARGET SIZE_MAX

/* Bucket of v: floor((v - lo) * BUCKETS / (hi - lo)), clamped. Both terms are halved first so
 * that v - lo cannot overflow even for a range spanning -DBL_MAX .. DBL_MAX. */
typedef struct bucketing {
    double origin, inv;
} bucketing;

static size_t bucket_of(const bucketing *b, double v)
{
    double t = (v * 0.5 - b->origin) * b->inv; /* >= 0: v >= lo and rounding is monotone */
    t = t < (double)(BUCKETS - 1) ? t : (double)(BUCKETS - 1);
    return (size_t)(int)t; /* the signed conversion is one instruction, the unsigned one is not */
}

/* v itself, or |v * scale - centre| when absdev, a constant in each specialised copy below. */
TALLY__SPECIALISED double mapped(const tally__value_map *map, double v, int absdev)
{
    return absdev ? fabs(v * map->scale - map->centre) : v;
}

/* One copy per kind of map, so that the loops test nothing but the bucket. The counts go to
 * two histograms by the parity of the index: runs of samples in one bucket (the bulk of a
 * distribution around its median) would otherwise make each increment wait for the store of
 * the one before. */
#if defined(__SSE2__) && defined(__x86_64__) && TALLY__V2D
#define BUCKET_PAIRS 1
/* A bucketing's constants, each in both lanes of a vector. */
typedef struct bucket_vectors {
    __m128d half, origin, inv, top;
} bucket_vectors;

static inline bucket_vectors bucket_vectors_of(const bucketing *b)
{
    bucket_vectors v = { _mm_set1_pd(0.5), _mm_set1_pd(b->origin), _mm_set1_pd(b->inv),
                         _mm_set1_pd((double)(BUCKETS - 1)) };
    return v;
}

/* The buckets of x[0] and x[1] by bucket_of's operations, two at a time: the same products,
 * difference, clamp (minpd takes the second operand unless the first is smaller, as the ?:) and
 * truncation, so the same buckets; returned as the low and high 32 bits. */
static inline uint64_t bucket_pair(const double *x, const bucket_vectors *v)
{
    __m128d t = _mm_mul_pd(_mm_sub_pd(_mm_mul_pd(_mm_loadu_pd(x), v->half), v->origin), v->inv);
    return (uint64_t)_mm_cvtsi128_si64(_mm_cvttpd_epi32(_mm_min_pd(t, v->top)));
}
#endif

TALLY__SPECIALISED void count_kind(size_t *hist, const double *x, size_t n, const bucketing *b,
                                   const tally__value_map *map, int absdev)
{
    size_t *odd = hist + BUCKETS, i = 0;
#ifdef BUCKET_PAIRS
    if (!absdev) {
        const bucket_vectors v = bucket_vectors_of(b);
        for (; i + 2 <= n; i += 2) {
            uint64_t both = bucket_pair(x + i, &v);
            hist[(uint32_t)both]++;
            odd[both >> 32]++;
        }
    }
#endif
    for (; i + 2 <= n; i += 2) {
        hist[bucket_of(b, mapped(map, x[i], absdev))]++;
        odd[bucket_of(b, mapped(map, x[i + 1], absdev))]++;
    }
    if (i < n)
        hist[bucket_of(b, mapped(map, x[i], absdev))]++;
    for (size_t k = 0; k < BUCKETS; k++)
        hist[k] += odd[k];
}

/* hist and the BUCKETS counts after it (scratch) are overwritten; hist[] then holds the counts. */
static void count_buckets(size_t *hist, const double *x, size_t n, const bucketing *b,
                          const tally__value_map *map)
{
    if (map->absdev)
        count_kind(hist, x, n, b, map, 1);
    else
        count_kind(hist, x, n, b, map, 0);
}

/* Copy the samples of the target buckets out: next[b] is where bucket b's next sample goes,
 * NOT_A_TARGET for the others. Samples keep their input order within a bucket. */
TALLY__SPECIALISED void gather_kind(double *out, size_t *next, const double *x, size_t n,
                                    const bucketing *b, const tally__value_map *map, int absdev)
{
    size_t i = 0;
#ifdef BUCKET_PAIRS
    if (!absdev) {
        const bucket_vectors v = bucket_vectors_of(b);
        for (; i + 2 <= n; i += 2) {
            uint64_t both = bucket_pair(x + i, &v);
            size_t *slot = &next[(uint32_t)both];
            if (*slot != NOT_A_TARGET)
                out[(*slot)++] = x[i];
            slot = &next[both >> 32];
            if (*slot != NOT_A_TARGET)
                out[(*slot)++] = x[i + 1];
        }
    }
#endif
    for (; i < n; i++) {
        double v = mapped(map, x[i], absdev);
        size_t *slot = &next[bucket_of(b, v)];
        if (*slot != NOT_A_TARGET)
            out[(*slot)++] = v;
    }
}

static void gather(double *out, size_t *next, const double *x, size_t n, const bucketing *b,
                   const tally__value_map *map)
{
    if (map->absdev)
        gather_kind(out, next, x, n, b, map, 1);
    else
        gather_kind(out, next, x, n, b, map, 0);
}

typedef struct wanted {
    size_t rank, index, bucket;
} wanted;

static int by_rank(const void *a, const void *b)
{
    const wanted *l = a, *r = b;
    return (l->rank > r->rank) - (l->rank < r->rank);
}

/* Multiselect among the candidates of each target bucket (the wanted ranks sorted, so those of
 * one bucket are adjacent); w[].rank is local to its bucket, whose samples are
 * cand[start[b] .. start[b] + hist[b]). */
static int select_in_buckets(double *out, double *cand, const size_t *hist, const size_t *start,
                             const wanted *w, size_t count)
{
    size_t local[FEW_RANKS];
    double values[FEW_RANKS];
    for (size_t i = 0; i < count;) {
        size_t b = w[i].bucket, k = 0;
        while (i + k < count && w[i + k].bucket == b && k < FEW_RANKS) {
            local[k] = w[i + k].rank;
            k++;
        }
        int rc = tally__select_values(values, cand + start[b], hist[b], local, k);
        if (rc != TALLY_OK)
            return rc;
        for (size_t m = 0; m < k; m++)
            out[w[i + m].index] = values[m];
        i += k;
    }
    return TALLY_OK;
}

/* tally__select_mapped; on success the counts go to *keep when keep is not NULL (its owner
 * frees them). */
static int select_keeping(double *out, const double *x, size_t n, const size_t *ranks,
                          size_t count, const tally__value_map *map, double lo, double hi,
                          tally__value_hist *keep)
{
    if (count == 0)
        return TALLY_OK;
    if (lo == hi) {
        for (size_t i = 0; i < count; i++)
            out[i] = lo;
        return TALLY_OK;
    }
    bucketing b = { lo * 0.5, 0.0 };
    double width = hi * 0.5 - lo * 0.5;
    b.inv = (double)BUCKETS / width;
    if (n < MIN_SAMPLES || !(width > 0) || !isfinite(b.inv) || n > SIZE_MAX / 2)
        return TALLY__SELECT_NOT_VIABLE;

    /* hist, first (the second histogram of count_buckets until then), next */
    size_t *hist = tally__calloc(3 * BUCKETS, sizeof *hist);
    wanted *w = tally__reallocarray(NULL, count, sizeof *w);
    double *cand = NULL;
    int rc = TALLY_ENOMEM;
    if (hist == NULL || w == NULL)
        goto done;
    size_t *first = hist + BUCKETS, *next = hist + 2 * BUCKETS;
    count_buckets(hist, x, n, &b, map);

    for (size_t i = 0; i < count; i++) {
        w[i].rank = ranks[i];
        w[i].index = i;
    }
    qsort(w, count, sizeof *w, by_rank);
    size_t below = 0, bucket = 0, total = 0;
    for (size_t i = 0; i < BUCKETS; i++) {
        first[i] = below;
        below += hist[i];
        next[i] = NOT_A_TARGET;
    }
    for (size_t i = 0; i < count; i++) {
        while (bucket + 1 < BUCKETS && first[bucket + 1] <= w[i].rank)
            bucket++;
        w[i].bucket = bucket;
        if (next[bucket] == NOT_A_TARGET) {
            next[bucket] = total;
            total += hist[bucket];
        }
    }
    rc = TALLY__SELECT_NOT_VIABLE;
    if (total > n / MAX_CANDIDATE_SHARE)
        goto done;
    rc = TALLY_ENOMEM;
    if ((cand = tally__reallocarray(NULL, total ? total : 1, sizeof *cand)) == NULL)
        goto done;
    for (size_t i = 0; i < count; i++)
        w[i].rank -= first[w[i].bucket];
    for (size_t i = 0; i < BUCKETS; i++)
        first[i] = next[i]; /* from here on: where each target bucket starts among the candidates */
    gather(cand, next, x, n, &b, map);
    rc = select_in_buckets(out, cand, hist, first, w, count);
    if (rc == TALLY_OK && keep) {
        keep->count = hist;
        keep->buckets = BUCKETS;
        keep->origin = b.origin;
        keep->inv = b.inv;
        hist = NULL;
    }
done:
    tally__free_mem(cand);
    tally__free_mem(w);
    tally__free_mem(hist);
    return rc;
}

int tally__select_mapped(double *out, const double *x, size_t n, const size_t *ranks,
                         size_t count, const tally__value_map *map, double lo, double hi)
{
    return select_keeping(out, x, n, ranks, count, map, lo, hi, NULL);
}

int tally__select_values(double *out, double *work, size_t n, const size_t *ranks, size_t count)
{
    size_t few[FEW_RANKS], *copy = few;
    if (count > FEW_RANKS && (copy = tally__reallocarray(NULL, count, sizeof *copy)) == NULL)
        return TALLY_ENOMEM;
    memcpy(copy, ranks, count * sizeof *copy);
    tally__select_ranks(work, n, copy, count);
    for (size_t i = 0; i < count; i++)
        out[i] = work[ranks[i]];
    if (copy != few)
        tally__free_mem(copy);
    return TALLY_OK;
}

void tally__scratch_init(tally__scratch *s, double *inplace)
{
    s->buf = inplace;
    s->owned = 0;
    s->hist.count = NULL;
}

void tally__scratch_free(tally__scratch *s)
{
    if (s->owned)
        tally__free_mem(s->buf);
    tally__free_mem(s->hist.count);
    s->buf = NULL;
    s->owned = 0;
    s->hist.count = NULL;
}

int tally__order_stats(double *out, const double *x, size_t n, const size_t *ranks,
                       size_t count, const tally__value_map *map, double lo, double hi,
                       tally__scratch *s, double **mapped)
{
    *mapped = NULL;
    int keep = !map->absdev && s->hist.count == NULL;
    int rc = select_keeping(out, x, n, ranks, count, map, lo, hi, keep ? &s->hist : NULL);
    if (rc == TALLY_OK)
        return TALLY_OK;
    if (s->buf == NULL) {
        if (rc == TALLY_ENOMEM || (s->buf = tally__reallocarray(NULL, n, sizeof *s->buf)) == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory for %zu samples", n);
        s->owned = 1;
    }
    for (size_t i = 0; i < n; i++)
        s->buf[i] = tally__map_value(map, x[i]);
    if (tally__select_values(out, s->buf, n, ranks, count) != TALLY_OK)
        return tally__error(TALLY_ENOMEM, "out of memory for %zu ranks", count);
    *mapped = s->buf;
    return TALLY_OK;
}
