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
 * sum of deviations; and the count of MAD outliers. */
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

static uint32_t bucket_of(const level *l, double v)
{
    double t = (v * 0.5 - l->origin) * l->inv;
    t = t > 0 ? t : 0.0; /* also NaN (inv = 0 and an infinite product cannot occur) */
    t = t < (double)(l->buckets - 1) ? t : (double)(l->buckets - 1);
    return (uint32_t)(int)t;
}

/* A bucketing of [lo, hi] in `buckets` buckets, halved as histselect.c does so that hi - lo
 * cannot overflow. Returns 0 when the range cannot be bucketed (width 0 or below the range of
 * the reciprocal). */
static int level_make(level *l, double lo, double hi, uint32_t buckets)
{
    double width = hi * 0.5 - lo * 0.5;
    l->origin = lo * 0.5;
    l->buckets = buckets;
    l->bucket = 0;
    l->inv = buckets > 1 ? (double)buckets / width : 0.0;
    return buckets == 1 || (width > 0 && isfinite(l->inv));
}

static uint32_t buckets_for(uint64_t count)
{
    uint64_t b = count / 16;
    return (uint32_t)(b < MIN_BUCKETS ? MIN_BUCKETS : b > MAX_BUCKETS ? MAX_BUCKETS : b);
}

/* ---- requests ---- */

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

static void put_level(tally__buf *b, const level *l)
{
    tally__put_f64(b, l->origin);
    tally__put_f64(b, l->inv);
    tally__put_u32(b, l->buckets);
    tally__put_u32(b, l->bucket);
}

static int get_level(level *l, tally__wire *w)
{
    l->origin = tally__get_f64(w);
    l->inv = tally__get_f64(w);
    l->buckets = tally__get_u32(w);
    l->bucket = tally__get_u32(w);
    return !w->bad && l->buckets >= 1 && l->buckets <= MAX_BUCKETS && l->bucket < l->buckets &&
           isfinite(l->origin) && isfinite(l->inv) && l->inv >= 0;
}

static void encode_request(tally__buf *b, const request *q)
{
    tally__buf_append(b, REQUEST_MAGIC, 4);
    tally__put_u32(b, WIRE_VERSION);
    tally__put_u32(b, q->flags);
    tally__put_u32(b, (uint32_t)q->map.absdev);
    tally__put_f64(b, q->map.scale);
    tally__put_f64(b, q->map.centre);
    tally__put_u32(b, q->ngroups);
    for (uint32_t i = 0; i < q->ngroups; i++) {
        const group *g = &q->groups[i];
        tally__put_u32(b, g->kind);
        tally__put_u32(b, g->depth);
        for (uint32_t d = 0; d < g->depth; d++)
            put_level(b, &g->chain[d]);
        put_level(b, &g->last);
        if (g->kind == GROUP_FETCH) {
            tally__put_u32(b, g->ntargets);
            for (uint32_t t = 0; t < g->ntargets; t++)
                tally__put_u32(b, g->targets[t]);
        }
    }
    if (q->flags & FLAG_SUMS) {
        tally__put_u32(b, (uint32_t)q->direction);
        tally__put_f64(b, q->bamean_scale);
        tally__put_u32(b, q->ncuts);
        for (uint32_t k = 0; k < q->ncuts; k++)
            tally__put_f64(b, q->cuts[k]);
        tally__put_f64(b, q->rule.scale);
        tally__put_f64(b, q->rule.low_fence);
        tally__put_f64(b, q->rule.high_fence);
        tally__put_f64(b, q->dev_scale);
    }
    if (q->flags & FLAG_MADCOUNT) {
        tally__put_f64(b, q->rule.scale);
        tally__put_f64(b, q->rule.median);
        tally__put_f64(b, q->rule.spread);
        tally__put_f64(b, q->rule.score_per_unit);
        tally__put_f64(b, q->rule.threshold);
    }
}

static void free_request(request *q)
{
    for (uint32_t i = 0; q->groups && i < q->ngroups; i++)
        tally__free_mem(q->groups[i].targets);
    tally__free_mem(q->groups);
    q->groups = NULL;
    q->ngroups = 0;
}

static int bad_request(request *q, const char *what)
{
    free_request(q);
    return tally__error(TALLY_EFORMAT, "not a partition request: %s", what);
}

static int decode_request(request *q, const unsigned char *data, size_t len)
{
    tally__wire w = { data, len, 0 };
    memset(q, 0, sizeof *q);
    if (data == NULL || len < 8 || memcmp(data, REQUEST_MAGIC, 4) != 0)
        return bad_request(q, "bad magic");
    w.p += 4;
    w.left -= 4;
    if (tally__get_u32(&w) != WIRE_VERSION)
        return bad_request(q, "unknown version");
    q->flags = tally__get_u32(&w);
    q->map.absdev = (int)tally__get_u32(&w);
    q->map.scale = tally__get_f64(&w);
    q->map.centre = tally__get_f64(&w);
    q->ngroups = tally__get_u32(&w);
    if (w.bad || q->ngroups > MAX_GROUPS || (q->flags & ~(FLAG_SUMS | FLAG_MADCOUNT)))
        return bad_request(q, "bad header");
    q->groups = tally__calloc(q->ngroups ? q->ngroups : 1, sizeof *q->groups);
    if (q->groups == NULL) {
        q->ngroups = 0;
        return tally__error(TALLY_ENOMEM, "out of memory for a request");
    }
    for (uint32_t i = 0; i < q->ngroups; i++) {
        group *g = &q->groups[i];
        g->kind = tally__get_u32(&w);
        g->depth = tally__get_u32(&w);
        if (w.bad || g->kind > GROUP_FETCH || g->depth > MAX_DEPTH)
            return bad_request(q, "bad group");
        for (uint32_t d = 0; d < g->depth; d++)
            if (!get_level(&g->chain[d], &w))
                return bad_request(q, "bad level");
        if (!get_level(&g->last, &w))
            return bad_request(q, "bad level");
        if (g->kind == GROUP_FETCH) {
            g->ntargets = tally__get_u32(&w);
            if (w.bad || g->ntargets == 0 || g->ntargets > g->last.buckets)
                return bad_request(q, "bad targets");
            g->targets = tally__reallocarray(NULL, g->ntargets, sizeof *g->targets);
            if (g->targets == NULL) {
                free_request(q);
                return tally__error(TALLY_ENOMEM, "out of memory for a request");
            }
            for (uint32_t t = 0; t < g->ntargets; t++) {
                g->targets[t] = tally__get_u32(&w);
                if (g->targets[t] >= g->last.buckets || (t && g->targets[t] <= g->targets[t - 1]))
                    return bad_request(q, "bad targets");
            }
        }
    }
    if (q->flags & FLAG_SUMS) {
        q->direction = (tally_direction)tally__get_u32(&w);
        q->bamean_scale = tally__get_f64(&w);
        q->ncuts = tally__get_u32(&w);
        if (w.bad || q->ncuts > MAX_CUTS)
            return bad_request(q, "bad sums");
        for (uint32_t k = 0; k < q->ncuts; k++)
            q->cuts[k] = tally__get_f64(&w);
        q->rule.scale = tally__get_f64(&w);
        q->rule.low_fence = tally__get_f64(&w);
        q->rule.high_fence = tally__get_f64(&w);
        q->dev_scale = tally__get_f64(&w);
    }
    if (q->flags & FLAG_MADCOUNT) {
        q->rule.scale = tally__get_f64(&w);
        q->rule.median = tally__get_f64(&w);
        q->rule.spread = tally__get_f64(&w);
        q->rule.score_per_unit = tally__get_f64(&w);
        q->rule.threshold = tally__get_f64(&w);
    }
    if (w.bad || w.left != 0)
        return bad_request(q, "wrong length");
    return TALLY_OK;
}

/* FNV-1a of the request: answers carry it, so answers to different requests never mix. */
static uint64_t request_hash(const unsigned char *data, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= data[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* ---- answers ---- */

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

static void free_answer(answer *a)
{
    for (uint32_t i = 0; a->groups && i < a->ngroups; i++) {
        tally__free_mem(a->groups[i].counts);
        tally__free_mem(a->groups[i].values);
    }
    tally__free_mem(a->groups);
    a->groups = NULL;
    a->ngroups = 0;
}

static int answer_groups(answer *a, uint32_t ngroups)
{
    a->ngroups = ngroups;
    a->groups = tally__calloc(ngroups ? ngroups : 1, sizeof *a->groups);
    if (a->groups == NULL) {
        a->ngroups = 0;
        return tally__error(TALLY_ENOMEM, "out of memory for a partition answer");
    }
    return TALLY_OK;
}

static void encode_answer(tally__buf *b, const answer *a)
{
    tally__buf_append(b, ANSWER_MAGIC, 4);
    tally__put_u32(b, WIRE_VERSION);
    tally__put_u64(b, a->hash);
    tally__put_u32(b, a->flags);
    tally__put_u32(b, a->ngroups);
    for (uint32_t i = 0; i < a->ngroups; i++) {
        const agroup *g = &a->groups[i];
        tally__put_u32(b, g->kind);
        if (g->kind == GROUP_COUNT) {
            tally__put_u32(b, g->buckets);
            tally__put_f64(b, g->min);
            tally__put_f64(b, g->max);
            uint32_t nonzero = 0;
            for (uint32_t k = 0; k < g->buckets; k++)
                nonzero += g->counts[k] != 0;
            /* Sparse (index, count) pairs when they are shorter: one partition's share of a
             * small case touches few buckets. */
            int sparse = 4 + 12 * (uint64_t)nonzero < 8 * (uint64_t)g->buckets;
            tally__put_u32(b, (uint32_t)sparse);
            if (sparse)
                tally__put_u32(b, nonzero);
            for (uint32_t k = 0; k < g->buckets; k++) {
                if (sparse && g->counts[k] == 0)
                    continue;
                if (sparse)
                    tally__put_u32(b, k);
                tally__put_u64(b, g->counts[k]);
            }
        } else {
            tally__put_u64(b, g->nvalues);
            for (uint64_t k = 0; k < g->nvalues; k++)
                tally__put_f64(b, g->values[k]);
        }
    }
    if (a->flags & FLAG_SUMS) {
        tally__put_u32(b, a->ncuts);
        for (uint32_t k = 0; k < a->ncuts; k++) {
            tally__put_u64(b, a->better[k]);
            tally__put_f64(b, a->sums[k].sum);
            tally__put_f64(b, a->sums[k].comp);
        }
        tally__put_u64(b, a->tukey);
        tally__put_f64(b, a->devsum.sum);
        tally__put_f64(b, a->devsum.comp);
        tally__put_f64(b, a->devmin);
        tally__put_f64(b, a->devmax);
    }
    if (a->flags & FLAG_MADCOUNT)
        tally__put_u64(b, a->madcount);
}

static int bad_answer(answer *a, const char *what)
{
    free_answer(a);
    return tally__error(TALLY_EFORMAT, "not a partition answer: %s", what);
}

static int decode_answer(answer *a, const unsigned char *data, size_t len)
{
    tally__wire w = { data, len, 0 };
    memset(a, 0, sizeof *a);
    if (data == NULL || len < 8 || memcmp(data, ANSWER_MAGIC, 4) != 0)
        return bad_answer(a, "bad magic");
    w.p += 4;
    w.left -= 4;
    if (tally__get_u32(&w) != WIRE_VERSION)
        return bad_answer(a, "unknown version");
    a->hash = tally__get_u64(&w);
    a->flags = tally__get_u32(&w);
    uint32_t ngroups = tally__get_u32(&w);
    if (w.bad || ngroups > MAX_GROUPS)
        return bad_answer(a, "bad header");
    int rc = answer_groups(a, ngroups);
    if (rc != TALLY_OK)
        return rc;
    for (uint32_t i = 0; i < ngroups; i++) {
        agroup *g = &a->groups[i];
        g->kind = tally__get_u32(&w);
        if (g->kind == GROUP_COUNT) {
            g->buckets = tally__get_u32(&w);
            g->min = tally__get_f64(&w);
            g->max = tally__get_f64(&w);
            uint32_t sparse = tally__get_u32(&w);
            if (w.bad || g->buckets == 0 || g->buckets > MAX_BUCKETS || sparse > 1)
                return bad_answer(a, "bad group");
            g->counts = tally__calloc(g->buckets, sizeof *g->counts);
            if (g->counts == NULL) {
                free_answer(a);
                return tally__error(TALLY_ENOMEM, "out of memory for a partition answer");
            }
            uint32_t entries = sparse ? tally__get_u32(&w) : g->buckets;
            if (entries > g->buckets)
                return bad_answer(a, "bad counts");
            for (uint32_t k = 0; k < entries; k++) {
                uint32_t at = sparse ? tally__get_u32(&w) : k;
                if (at >= g->buckets)
                    return bad_answer(a, "bad counts");
                g->counts[at] = tally__get_u64(&w);
            }
        } else if (g->kind == GROUP_FETCH) {
            g->nvalues = tally__get_u64(&w);
            if (w.bad || g->nvalues > w.left / 8)
                return bad_answer(a, "bad values");
            g->values = tally__reallocarray(NULL, g->nvalues ? g->nvalues : 1, sizeof(double));
            if (g->values == NULL) {
                free_answer(a);
                return tally__error(TALLY_ENOMEM, "out of memory for %llu samples",
                                    (unsigned long long)g->nvalues);
            }
            for (uint64_t k = 0; k < g->nvalues; k++)
                g->values[k] = tally__get_f64(&w);
        } else {
            return bad_answer(a, "bad group kind");
        }
        if (w.bad)
            return bad_answer(a, "truncated");
    }
    if (a->flags & FLAG_SUMS) {
        a->ncuts = tally__get_u32(&w);
        if (a->ncuts > MAX_CUTS)
            return bad_answer(a, "bad sums");
        for (uint32_t k = 0; k < a->ncuts; k++) {
            a->better[k] = tally__get_u64(&w);
            a->sums[k].sum = tally__get_f64(&w);
            a->sums[k].comp = tally__get_f64(&w);
        }
        a->tukey = tally__get_u64(&w);
        a->devsum.sum = tally__get_f64(&w);
        a->devsum.comp = tally__get_f64(&w);
        a->devmin = tally__get_f64(&w);
        a->devmax = tally__get_f64(&w);
    }
    if (a->flags & FLAG_MADCOUNT)
        a->madcount = tally__get_u64(&w);
    if (w.bad || w.left != 0)
        return bad_answer(a, "wrong length");
    return TALLY_OK;
}

static int finish_answer(unsigned char **out, size_t *len, answer *a)
{
    tally__buf b = TALLY__BUF_INIT;
    encode_answer(&b, a);
    free_answer(a);
    return tally__wire_finish(out, len, &b);
}

/* ---- the partition's side ---- */

static int passes(const group *g, double v)
{
    for (uint32_t d = 0; d < g->depth; d++)
        if (bucket_of(&g->chain[d], v) != g->chain[d].bucket)
            return 0;
    return 1;
}

static int is_target(const group *g, uint32_t b)
{
    size_t lo = 0, hi = g->ntargets;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->targets[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->ntargets && g->targets[lo] == b;
}

static int scan_group(agroup *out, const group *g, const tally__value_map *map, const double *x,
                      size_t n)
{
    out->kind = g->kind;
    if (g->kind == GROUP_COUNT) {
        out->buckets = g->last.buckets;
        out->counts = tally__calloc(g->last.buckets, sizeof *out->counts);
        if (out->counts == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory for bucket counts");
        double lo = INFINITY, hi = -INFINITY;
        if (g->depth == 0 && !map->absdev) {
            for (size_t i = 0; i < n; i++) {
                double v = x[i];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
                out->counts[bucket_of(&g->last, v)]++;
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                double v = tally__map_value(map, x[i]);
                if (!passes(g, v))
                    continue;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
                out->counts[bucket_of(&g->last, v)]++;
            }
        }
        out->min = lo;
        out->max = hi;
        return TALLY_OK;
    }
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        double v = tally__map_value(map, x[i]);
        if (!passes(g, v) || !is_target(g, bucket_of(&g->last, v)))
            continue;
        if (out->nvalues == cap) {
            size_t grown = cap ? 2 * cap : 1024;
            double *p = tally__reallocarray(out->values, grown, sizeof *p);
            if (p == NULL)
                return tally__error(TALLY_ENOMEM, "out of memory for %zu samples", grown);
            out->values = p;
            cap = grown;
        }
        out->values[out->nvalues++] = v;
    }
    return TALLY_OK;
}

static void scan_sums(answer *a, const request *q, const double *x, size_t n)
{
    size_t better[MAX_CUTS];
    a->ncuts = q->ncuts;
    tally__bamean_scan(better, a->sums, x, n, q->cuts, q->ncuts, q->bamean_scale, q->direction);
    for (uint32_t k = 0; k < q->ncuts; k++)
        a->better[k] = better[k];
    a->tukey = tally__count_tukey_outliers(&q->rule, x, n);
    tally__ksum k = { 0.0, 0.0 };
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double d = tally__map_value(&q->map, x[i]);
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
        tally__ksum_add(&k, d * q->dev_scale);
    }
    a->devsum = k;
    a->devmin = lo;
    a->devmax = hi;
}

int tally_partition_scan(unsigned char **out, size_t *len, const unsigned char *req,
                         size_t req_len, const double *x, size_t n)
{
    request q;
    answer a;
    if (out == NULL || len == NULL || (x == NULL && n > 0))
        return tally__error(TALLY_EINVAL, "partition scan: NULL argument");
    int rc = decode_request(&q, req, req_len);
    if (rc != TALLY_OK)
        return rc;
    if (q.flags & FLAG_SUMS && !q.map.absdev) {
        free_request(&q);
        return tally__error(TALLY_EFORMAT, "not a partition request: sums without deviations");
    }
    memset(&a, 0, sizeof a);
    a.hash = request_hash(req, req_len);
    a.flags = q.flags;
    rc = answer_groups(&a, q.ngroups);
    for (uint32_t i = 0; rc == TALLY_OK && i < q.ngroups; i++)
        rc = scan_group(&a.groups[i], &q.groups[i], &q.map, x, n);
    if (rc == TALLY_OK && (q.flags & FLAG_SUMS))
        scan_sums(&a, &q, x, n);
    if (rc == TALLY_OK && (q.flags & FLAG_MADCOUNT))
        a.madcount = tally__count_mad_outliers(&q.rule, x, NULL, n);
    free_request(&q);
    if (rc != TALLY_OK) {
        free_answer(&a);
        return rc;
    }
    return finish_answer(out, len, &a);
}

static void ksum_merge(tally__ksum *into, const tally__ksum *k)
{
    double t = into->sum + k->sum, bp = t - into->sum;
    into->comp += (into->sum - (t - bp)) + (k->sum - bp) + k->comp;
    into->sum = t;
}

static int merge_group(agroup *g, agroup *o)
{
    if (g->kind != o->kind || g->buckets != o->buckets)
        return tally__error(TALLY_EFORMAT, "partition answers to different requests");
    if (g->kind == GROUP_COUNT) {
        for (uint32_t k = 0; k < g->buckets; k++)
            g->counts[k] += o->counts[k];
        g->min = o->min < g->min ? o->min : g->min;
        g->max = o->max > g->max ? o->max : g->max;
        return TALLY_OK;
    }
    if (o->nvalues == 0)
        return TALLY_OK;
    double *p = tally__reallocarray(g->values, g->nvalues + o->nvalues, sizeof *p);
    if (p == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory for %llu samples",
                            (unsigned long long)(g->nvalues + o->nvalues));
    memcpy(p + g->nvalues, o->values, o->nvalues * sizeof *p);
    g->values = p;
    g->nvalues += o->nvalues;
    return TALLY_OK;
}

int tally_partition_merge(unsigned char **out, size_t *len, const unsigned char *x, size_t x_len,
                          const unsigned char *y, size_t y_len)
{
    answer a, b;
    if (out == NULL || len == NULL)
        return tally__error(TALLY_EINVAL, "partition merge: NULL argument");
    int rc = decode_answer(&a, x, x_len);
    if (rc != TALLY_OK)
        return rc;
    if ((rc = decode_answer(&b, y, y_len)) != TALLY_OK) {
        free_answer(&a);
        return rc;
    }
    if (a.hash != b.hash || a.flags != b.flags || a.ngroups != b.ngroups || a.ncuts != b.ncuts)
        rc = tally__error(TALLY_EFORMAT, "partition answers to different requests");
    for (uint32_t i = 0; rc == TALLY_OK && i < a.ngroups; i++)
        rc = merge_group(&a.groups[i], &b.groups[i]);
    if (rc == TALLY_OK) {
        for (uint32_t k = 0; k < a.ncuts; k++) {
            a.better[k] += b.better[k];
            ksum_merge(&a.sums[k], &b.sums[k]);
        }
        a.tukey += b.tukey;
        ksum_merge(&a.devsum, &b.devsum);
        a.devmin = b.devmin < a.devmin ? b.devmin : a.devmin;
        a.devmax = b.devmax > a.devmax ? b.devmax : a.devmax;
        a.madcount += b.madcount;
    }
    free_answer(&b);
    if (rc != TALLY_OK) {
        free_answer(&a);
        return rc;
    }
    return finish_answer(out, len, &a);
}

/* ---- the client's side ---- */

/* A group as the client tracks it: the request's group, how many values pass its chain, and the
 * wanted ranks among them (rank[] local to the group, slot[] where each result goes). A fetch
 * group also knows each target bucket's count and which target holds each rank. */
typedef struct cgroup {
    group g;
    uint64_t total;
    size_t nranks, *rank, *slot;
    uint64_t *expect;   /* GROUP_FETCH: per target */
    uint32_t *target;   /* GROUP_FETCH: per rank, index into g.targets */
} cgroup;

typedef struct selection {
    tally__value_map map;
    cgroup *groups;
    size_t ngroups;
    double *out; /* results, by slot */
} selection;

struct tally_partition_summary {
    tally_summary_options so;
    double *percentiles, bamean_percents[TALLY__MAX_EXTRA_CUTS];
    size_t percentile_count, bamean_count;
    size_t n;
    tally_summary summary;
    double *pct_out, bameans[TALLY__MAX_EXTRA_CUTS];
    int stage, sums_pending;
    tally__order_plan plan;
    tally__order_values ov;
    size_t *rank;
    double *values;
    size_t mad_ranks[2], mad_count;
    double mad_values[2];
    tally__outlier_rule rule;
    double dev_scale;
    selection sel;
    unsigned char *req; /* the current request, cached */
    size_t req_len;
    uint64_t req_hash;
    answer mad_sums; /* the sums of the MAD stage's first answer (no groups) */
    int failed;
};

static void free_cgroup(cgroup *c)
{
    tally__free_mem(c->g.targets);
    tally__free_mem(c->rank);
    tally__free_mem(c->slot);
    tally__free_mem(c->expect);
    tally__free_mem(c->target);
    memset(c, 0, sizeof *c);
}

static void free_groups(selection *s)
{
    for (size_t i = 0; i < s->ngroups; i++)
        free_cgroup(&s->groups[i]);
    tally__free_mem(s->groups);
    s->groups = NULL;
    s->ngroups = 0;
}

static int ranks_alloc(cgroup *c, size_t count, int fetch)
{
    c->rank = tally__reallocarray(NULL, count ? count : 1, sizeof *c->rank);
    c->slot = tally__reallocarray(NULL, count ? count : 1, sizeof *c->slot);
    if (fetch)
        c->target = tally__reallocarray(NULL, count ? count : 1, sizeof *c->target);
    if (!c->rank || !c->slot || (fetch && !c->target))
        return tally__oom();
    return TALLY_OK;
}

static int push_group(cgroup **list, size_t *count, size_t *cap, cgroup *c)
{
    if (*count == *cap) {
        size_t grown = *cap ? 2 * *cap : 8;
        cgroup *p = tally__reallocarray(*list, grown, sizeof *p);
        if (p == NULL)
            return tally__oom();
        *list = p;
        *cap = grown;
    }
    (*list)[(*count)++] = *c;
    memset(c, 0, sizeof *c);
    return TALLY_OK;
}

/* Start selecting ranks[0..count) among n mapped values lying in [lo, hi]. */
static int selection_start(selection *s, const tally__value_map *map, size_t n, double lo,
                           double hi, const size_t *ranks, size_t count, double *out)
{
    cgroup c;
    size_t cap = 0;
    memset(&c, 0, sizeof c);
    s->map = *map;
    s->out = out;
    s->groups = NULL;
    s->ngroups = 0;
    if (count == 0)
        return TALLY_OK;
    if (lo == hi) {
        for (size_t i = 0; i < count; i++)
            out[i] = lo;
        return TALLY_OK;
    }
    int fetch = n <= FETCH_ALL_BELOW || !level_make(&c.g.last, lo, hi, buckets_for(n));
    if (fetch)
        level_make(&c.g.last, lo, hi, 1);
    c.g.kind = fetch ? GROUP_FETCH : GROUP_COUNT;
    c.total = n;
    int rc = ranks_alloc(&c, count, fetch);
    if (rc == TALLY_OK && fetch) {
        c.g.targets = tally__calloc(1, sizeof *c.g.targets);
        c.expect = tally__calloc(1, sizeof *c.expect);
        if (!c.g.targets || !c.expect)
            rc = tally__oom();
        else {
            c.g.ntargets = 1;
            c.expect[0] = n;
        }
    }
    if (rc == TALLY_OK) {
        for (size_t i = 0; i < count; i++) {
            c.rank[i] = ranks[i];
            c.slot[i] = i;
            if (fetch)
                c.target[i] = 0;
        }
        c.nranks = count;
        rc = push_group(&s->groups, &s->ngroups, &cap, &c);
    }
    if (rc != TALLY_OK)
        free_cgroup(&c);
    return rc;
}

typedef struct pending {
    size_t rank, slot;
} pending;

static int by_rank(const void *a, const void *b)
{
    const pending *l = a, *r = b;
    return (l->rank > r->rank) - (l->rank < r->rank);
}

/* The child of group c for its bucket b, which holds `count` values with local ranks. */
static int refine(cgroup *child, const cgroup *c, const agroup *a, uint32_t b, uint64_t count)
{
    const level *l = &c->g.last;
    double lo = 2.0 * (l->origin + (double)b / l->inv);
    double hi = 2.0 * (l->origin + (double)(b + 1) / l->inv);
    lo = lo > a->min ? lo : a->min;
    hi = hi < a->max ? hi : a->max;
    memset(child, 0, sizeof *child);
    child->g.kind = GROUP_COUNT;
    child->g.depth = c->g.depth + 1;
    memcpy(child->g.chain, c->g.chain, c->g.depth * sizeof *c->g.chain);
    child->g.chain[c->g.depth] = *l;
    child->g.chain[c->g.depth].bucket = b;
    child->total = count;
    return lo < hi && level_make(&child->g.last, lo, hi, buckets_for(count));
}

/* A counting group's answer: each rank's bucket; buckets few enough are fetched (one fetch group
 * for all of them), others refined. */
static int feed_count(selection *s, cgroup *c, const agroup *a, cgroup **next, size_t *nnext,
                      size_t *cap)
{
    uint64_t total = 0;
    for (uint32_t k = 0; k < a->buckets; k++)
        total += a->counts[k];
    if (total != c->total)
        return tally__error(TALLY_EMISMATCH, "the partitions hold %llu samples where %llu were "
                                             "summarised",
                            (unsigned long long)total, (unsigned long long)c->total);
    if (a->min == a->max) {
        for (size_t i = 0; i < c->nranks; i++)
            s->out[c->slot[i]] = a->min;
        return TALLY_OK;
    }
    pending *p = tally__reallocarray(NULL, c->nranks, sizeof *p);
    uint64_t *first = tally__reallocarray(NULL, a->buckets, sizeof *first);
    cgroup fetch;
    memset(&fetch, 0, sizeof fetch);
    int rc = p && first ? TALLY_OK : tally__oom();
    if (rc == TALLY_OK)
        rc = ranks_alloc(&fetch, c->nranks, 1);
    if (rc == TALLY_OK) {
        fetch.g.targets = tally__reallocarray(NULL, c->nranks, sizeof *fetch.g.targets);
        fetch.expect = tally__reallocarray(NULL, c->nranks, sizeof *fetch.expect);
        if (!fetch.g.targets || !fetch.expect)
            rc = tally__oom();
    }
    if (rc != TALLY_OK)
        goto done;
    fetch.g.kind = GROUP_FETCH;
    fetch.g.depth = c->g.depth;
    memcpy(fetch.g.chain, c->g.chain, c->g.depth * sizeof *c->g.chain);
    fetch.g.last = c->g.last;
    fetch.total = c->total;
    for (size_t i = 0; i < c->nranks; i++) {
        p[i].rank = c->rank[i];
        p[i].slot = c->slot[i];
    }
    qsort(p, c->nranks, sizeof *p, by_rank);
    uint64_t below = 0;
    for (uint32_t k = 0; k < a->buckets; k++) {
        first[k] = below;
        below += a->counts[k];
    }
    uint32_t b = 0;
    for (size_t i = 0; i < c->nranks && rc == TALLY_OK;) {
        while (b + 1 < a->buckets && first[b + 1] <= p[i].rank)
            b++;
        size_t j = i;
        while (j < c->nranks && p[j].rank < first[b] + a->counts[b])
            j++;
        /* ranks i..j fall in bucket b */
        cgroup child;
        if (a->counts[b] > FETCH_LIMIT && c->g.depth + 1 < MAX_DEPTH &&
            refine(&child, c, a, b, a->counts[b])) {
            rc = ranks_alloc(&child, j - i, 0);
            for (size_t k = i; rc == TALLY_OK && k < j; k++) {
                child.rank[child.nranks] = (size_t)(p[k].rank - first[b]);
                child.slot[child.nranks++] = p[k].slot;
            }
            if (rc == TALLY_OK)
                rc = push_group(next, nnext, cap, &child);
            if (rc != TALLY_OK)
                free_cgroup(&child);
        } else {
            uint32_t t = fetch.g.ntargets++;
            fetch.g.targets[t] = b;
            fetch.expect[t] = a->counts[b];
            for (size_t k = i; k < j; k++) {
                fetch.rank[fetch.nranks] = (size_t)(p[k].rank - first[b]);
                fetch.slot[fetch.nranks] = p[k].slot;
                fetch.target[fetch.nranks++] = t;
            }
        }
        i = j;
    }
    if (rc == TALLY_OK && fetch.g.ntargets > 0)
        rc = push_group(next, nnext, cap, &fetch);
done:
    free_cgroup(&fetch);
    tally__free_mem(p);
    tally__free_mem(first);
    return rc;
}

/* A fetch group's answer: the values of each target bucket, then the ranks among them. */
static int feed_fetch(selection *s, const cgroup *c, agroup *a)
{
    uint64_t want = 0;
    for (uint32_t t = 0; t < c->g.ntargets; t++)
        want += c->expect[t];
    if (a->nvalues != want)
        return tally__error(TALLY_EMISMATCH, "the partitions sent %llu samples where %llu were "
                                             "counted",
                            (unsigned long long)a->nvalues, (unsigned long long)want);
    uint64_t *at = tally__calloc(c->g.ntargets + 1, sizeof *at);
    double *sorted = tally__reallocarray(NULL, want ? want : 1, sizeof *sorted);
    int rc = at && sorted ? TALLY_OK : tally__oom();
    for (uint32_t t = 0; rc == TALLY_OK && t < c->g.ntargets; t++)
        at[t + 1] = at[t] + c->expect[t];
    uint64_t *fill = rc == TALLY_OK ? tally__calloc(c->g.ntargets, sizeof *fill) : NULL;
    if (rc == TALLY_OK && fill == NULL)
        rc = tally__oom();
    for (uint64_t i = 0; rc == TALLY_OK && i < a->nvalues; i++) {
        uint32_t b = bucket_of(&c->g.last, a->values[i]);
        size_t lo = 0, hi = c->g.ntargets;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (c->g.targets[mid] < b)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == c->g.ntargets || c->g.targets[lo] != b || fill[lo] == c->expect[lo]) {
            rc = tally__error(TALLY_EMISMATCH, "a partition sent a sample outside the buckets "
                                               "it was asked for");
            break;
        }
        sorted[at[lo] + fill[lo]++] = a->values[i];
    }
    for (size_t i = 0; rc == TALLY_OK && i < c->nranks; i++) {
        uint32_t t = c->target[i];
        double v;
        size_t r = c->rank[i];
        /* Each call reorders only its bucket's values; later ranks of the bucket stay valid. */
        rc = tally__select_values(&v, sorted + at[t], (size_t)c->expect[t], &r, 1);
        if (rc != TALLY_OK)
            rc = tally__oom();
        else
            s->out[c->slot[i]] = v;
    }
    tally__free_mem(fill);
    tally__free_mem(at);
    tally__free_mem(sorted);
    return rc;
}

static int selection_feed(selection *s, answer *a)
{
    cgroup *next = NULL;
    size_t nnext = 0, cap = 0;
    int rc = TALLY_OK;
    if (a->ngroups != s->ngroups)
        return tally__error(TALLY_EFORMAT, "not an answer to the current request");
    for (size_t i = 0; rc == TALLY_OK && i < s->ngroups; i++) {
        cgroup *c = &s->groups[i];
        agroup *g = &a->groups[i];
        if (g->kind != c->g.kind || (g->kind == GROUP_COUNT && g->buckets != c->g.last.buckets))
            rc = tally__error(TALLY_EFORMAT, "not an answer to the current request");
        else if (g->kind == GROUP_COUNT)
            rc = feed_count(s, c, g, &next, &nnext, &cap);
        else
            rc = feed_fetch(s, c, g);
    }
    if (rc == TALLY_OK && nnext > MAX_GROUPS)
        rc = tally__error(TALLY_ELIMIT, "more than %d groups of buckets", MAX_GROUPS);
    free_groups(s);
    if (rc != TALLY_OK) {
        for (size_t i = 0; i < nnext; i++)
            free_cgroup(&next[i]);
        tally__free_mem(next);
        return rc;
    }
    s->groups = next;
    s->ngroups = nnext;
    return TALLY_OK;
}

/* ---- the summary's stages ---- */

static void drop_request(tally_partition_summary *p)
{
    tally__free_mem(p->req);
    p->req = NULL;
    p->req_len = 0;
}

static int make_request(tally_partition_summary *p)
{
    request q;
    tally__buf b = TALLY__BUF_INIT;
    drop_request(p);
    if (p->stage == STAGE_DONE)
        return TALLY_OK;
    memset(&q, 0, sizeof q);
    q.map = p->sel.map;
    q.ngroups = (uint32_t)p->sel.ngroups;
    group *groups = tally__reallocarray(NULL, q.ngroups ? q.ngroups : 1, sizeof *groups);
    if (groups == NULL)
        return tally__oom();
    for (uint32_t i = 0; i < q.ngroups; i++)
        groups[i] = p->sel.groups[i].g;
    q.groups = groups;
    if (p->stage == STAGE_MAD && p->sums_pending) {
        q.flags |= FLAG_SUMS;
        q.direction = p->so.direction;
        q.bamean_scale = p->rule.scale;
        q.ncuts = (uint32_t)p->ov.ncuts;
        memcpy(q.cuts, p->ov.cuts, p->ov.ncuts * sizeof *q.cuts);
        q.dev_scale = p->dev_scale;
    }
    if (p->stage == STAGE_MADCOUNT)
        q.flags |= FLAG_MADCOUNT;
    q.rule = p->rule;
    encode_request(&b, &q);
    tally__free_mem(groups);
    int rc = tally__wire_finish(&p->req, &p->req_len, &b);
    if (rc == TALLY_OK)
        p->req_hash = request_hash(p->req, p->req_len);
    return rc;
}

/* The order statistics are in: the rules, then the MAD's selection (and the sums). */
static int start_mad(tally_partition_summary *p)
{
    tally_summary *s = &p->summary;
    tally__order_plan_finish(&p->ov, s, &p->plan, p->values, &p->so, p->bamean_percents,
                             p->bamean_count, p->percentiles, p->percentile_count, p->pct_out);
    tally__outlier_fences(&p->rule, fmax(fabs(s->min), fabs(s->max)), p->ov.q1, p->ov.q3,
                          p->so.tukey_k);
    double med_s = p->ov.median7 * p->rule.scale;
    tally__value_map dev = { 1, p->rule.scale, med_s };
    double hi = fmax(tally__map_value(&dev, s->min), tally__map_value(&dev, s->max));
    p->rule.median = med_s;
    p->dev_scale = tally__overflow_scale(hi);
    p->mad_count = tally__percentile_ranks(p->mad_ranks, p->n, 50, TALLY_PERCENTILE_LINEAR);
    p->stage = STAGE_MAD;
    p->sums_pending = 1;
    return selection_start(&p->sel, &dev, p->n, 0.0, hi, p->mad_ranks, p->mad_count,
                           p->mad_values);
}

/* The MAD and the sums are in: BAmeans, Tukey count, the MAD rule. */
static void finish_mad(tally_partition_summary *p, const answer *a)
{
    tally_summary *s = &p->summary;
    size_t better[MAX_CUTS];
    double bameans[MAX_CUTS];
    for (size_t k = 0; k < p->ov.ncuts; k++)
        better[k] = (size_t)a->better[k];
    tally__bamean_finish(bameans, p->ov.counts, p->ov.cuts, better, a->sums, p->ov.ncuts,
                         p->rule.scale, s->min, s->max, p->so.direction);
    s->bamean = bameans[0];
    for (size_t k = 0; k < p->bamean_count; k++)
        p->bameans[k] = bameans[1 + k];
    s->outliers_tukey = (size_t)a->tukey;
    double mad = tally__percentile_from(p->mad_values, p->n, 50, TALLY_PERCENTILE_LINEAR);
    double mean_ad = 0.0;
    if (!(mad > 0)) {
        /* tally__mapped_mean of the deviations, from their sum over every partition. */
        mean_ad = tally__clamp(tally__ksum_value(&a->devsum) / (double)p->n / p->dev_scale,
                               a->devmin, a->devmax);
    }
    tally__outlier_set_mad(&p->rule, p->rule.median, mad, mean_ad, p->so.mad_threshold);
}

int tally_partition_summary_feed(tally_partition_summary *p, const unsigned char *data,
                                 size_t len)
{
    answer a;
    if (p == NULL)
        return tally__error(TALLY_EINVAL, "partition summary: NULL argument");
    if (p->stage == STAGE_DONE)
        return tally__error(TALLY_EINVAL, "partition summary: already complete");
    int rc = decode_answer(&a, data, len);
    if (rc != TALLY_OK)
        return rc;
    if (a.hash != p->req_hash) {
        free_answer(&a);
        return tally__error(TALLY_EFORMAT, "not an answer to the current request");
    }
    if (p->stage == STAGE_MADCOUNT) {
        p->summary.outliers_mad = (size_t)a.madcount;
        p->stage = STAGE_DONE;
    } else {
        rc = selection_feed(&p->sel, &a);
        if (rc == TALLY_OK && p->stage == STAGE_MAD && p->sums_pending) {
            if (a.devmin > a.devmax) /* no partition had a sample */
                rc = tally__error(TALLY_EMISMATCH, "the partitions hold no samples");
            p->sums_pending = 0;
            p->summary.bamean = 0;
            if (rc == TALLY_OK) {
                /* Kept until the MAD is known: the sums arrive only once. */
                memcpy(p->mad_sums.better, a.better, sizeof a.better);
                memcpy(p->mad_sums.sums, a.sums, sizeof a.sums);
                p->mad_sums.tukey = a.tukey;
                p->mad_sums.devsum = a.devsum;
                p->mad_sums.devmin = a.devmin;
                p->mad_sums.devmax = a.devmax;
            }
        }
        if (rc == TALLY_OK && p->sel.ngroups == 0) {
            if (p->stage == STAGE_ORDER) {
                rc = start_mad(p);
            } else {
                finish_mad(p, &p->mad_sums);
                p->stage = p->rule.spread > 0 ? STAGE_MADCOUNT : STAGE_DONE;
                if (p->stage == STAGE_DONE)
                    p->summary.outliers_mad = 0;
                if (p->stage == STAGE_MADCOUNT) {
                    p->sel.ngroups = 0;
                }
            }
        }
    }
    free_answer(&a);
    if (rc == TALLY_OK)
        rc = make_request(p);
    if (rc != TALLY_OK) {
        /* A half-fed summary cannot go on: the partitions' answers no longer match it. */
        p->failed = 1;
        p->stage = STAGE_DONE;
        drop_request(p);
    }
    return rc;
}

TALLY__OPTIONS_FUNCTIONS(tally_partition_options, TALLY_PARTITION_OPTIONS,
                         sizeof(tally_partition_options))

int tally_partition_summary_new(tally_partition_summary **out, const tally_accumulator *all,
                                const tally_partition_options *opts)
{
    tally_partition_options options;
    const tally_partition_options *o = &options;
    tally_summary_options so;
    tally__moments m;
    if (out == NULL || all == NULL)
        return tally__error(TALLY_EINVAL, "partition summary: NULL argument");
    *out = NULL;
    int rc = tally__options_read(&options, opts, &tally_partition_options_kind);
    if (rc == TALLY_OK)
        rc = tally__read_summary_options(&so, options.summary);
    if (rc != TALLY_OK)
        return rc;
    if (o->bamean_count > TALLY__MAX_EXTRA_CUTS ||
        (o->bamean_count && o->bamean_percents == NULL) ||
        (o->percentile_count && o->percentiles == NULL))
        return tally__error(TALLY_EINVAL, "partition options: at most %d extra BAmean cuts, and "
                                          "no NULL lists", TALLY__MAX_EXTRA_CUTS);
    for (size_t k = 0; k < o->bamean_count; k++)
        if (!(o->bamean_percents[k] > 0 && o->bamean_percents[k] <= 100))
            return tally__error(TALLY_EINVAL, "BAmean percentage %g must lie in (0, 100]",
                                o->bamean_percents[k]);
    for (size_t k = 0; k < o->percentile_count; k++)
        if (!(o->percentiles[k] >= 0 && o->percentiles[k] <= 100))
            return tally__error(TALLY_EINVAL, "percentile %g is outside [0, 100]",
                                o->percentiles[k]);
    if (o->percentile_count > (SIZE_MAX / sizeof(size_t) - TALLY__OWN_RANKS) / 2)
        return tally__error(TALLY_ENOMEM, "too many percentiles (%zu)", o->percentile_count);
    if ((rc = tally__accumulator_moments(&m, all)) != TALLY_OK)
        return rc;
    tally__ensure_init();

    tally_partition_summary *p = tally__calloc(1, sizeof *p);
    if (p == NULL)
        return tally__oom();
    size_t room = TALLY__OWN_RANKS + 2 * o->percentile_count;
    p->so = so;
    p->n = tally_accumulator_count(all);
    p->percentile_count = o->percentile_count;
    p->bamean_count = o->bamean_count;
    memcpy(p->bamean_percents, o->bamean_percents ? o->bamean_percents : p->bamean_percents,
           o->bamean_count * sizeof(double));
    p->percentiles = tally__reallocarray(NULL, o->percentile_count + 1, sizeof(double));
    p->pct_out = tally__calloc(o->percentile_count + 1, sizeof(double));
    p->rank = tally__reallocarray(NULL, room, sizeof *p->rank);
    p->values = tally__calloc(room, sizeof *p->values);
    if (!p->percentiles || !p->pct_out || !p->rank || !p->values) {
        tally_partition_summary_free(p);
        return tally__oom();
    }
    if (o->percentile_count)
        memcpy(p->percentiles, o->percentiles, o->percentile_count * sizeof(double));
    tally__summary_from_moments(&p->summary, &m, p->n, p->so.confidence);
    tally__order_plan_make(&p->plan, p->rank, p->n, &p->so, p->bamean_percents, p->bamean_count,
                           p->percentiles, p->percentile_count);
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    p->stage = STAGE_ORDER;
    rc = selection_start(&p->sel, &identity, p->n, m.min, m.max, p->rank, p->plan.count,
                         p->values);
    if (rc == TALLY_OK && p->sel.ngroups == 0)
        rc = start_mad(p);
    if (rc == TALLY_OK)
        rc = make_request(p);
    if (rc != TALLY_OK) {
        tally_partition_summary_free(p);
        return rc;
    }
    *out = p;
    return TALLY_OK;
}

void tally_partition_summary_free(tally_partition_summary *p)
{
    if (p == NULL)
        return;
    free_groups(&p->sel);
    drop_request(p);
    tally__free_mem(p->percentiles);
    tally__free_mem(p->pct_out);
    tally__free_mem(p->rank);
    tally__free_mem(p->values);
    tally__free_mem(p);
}

int tally_partition_summary_request(unsigned char **out, size_t *len,
                                    const tally_partition_summary *p)
{
    if (out == NULL || len == NULL || p == NULL)
        return tally__error(TALLY_EINVAL, "partition summary: NULL argument");
    *out = NULL;
    *len = 0;
    if (p->stage == STAGE_DONE)
        return TALLY_OK;
    *out = tally__malloc(p->req_len);
    if (*out == NULL)
        return tally__oom();
    memcpy(*out, p->req, p->req_len);
    *len = p->req_len;
    return TALLY_OK;
}

int tally_partition_summary_done(const tally_partition_summary *p)
{
    return p != NULL && p->stage == STAGE_DONE;
}

int tally_partition_summary_result(tally_summary *out, double *percentiles, double *bameans,
                                   const tally_partition_summary *p)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_summary");
    if (rc)
        return rc;
    if (p == NULL || (p->percentile_count && percentiles == NULL) ||
        (p->bamean_count && bameans == NULL))
        return tally__error(TALLY_EINVAL, "partition summary: NULL argument");
    if (p->failed)
        return tally__error(TALLY_EINVAL, "partition summary: an answer failed; start again");
    if (p->stage != STAGE_DONE)
        return tally__error(TALLY_EINVAL, "partition summary: requests are still open");
    tally__result_put(out, size, &p->summary, sizeof p->summary);
    if (p->percentile_count)
        memcpy(percentiles, p->pct_out, p->percentile_count * sizeof(double));
    if (p->bamean_count)
        memcpy(bameans, p->bameans, p->bamean_count * sizeof(double));
    return TALLY_OK;
}

const tally_summary *tally__partition_summary_parts(const tally_partition_summary *p,
                                                    const tally_summary_options **so,
                                                    const double **percents,
                                                    const double **bameans, size_t *count)
{
    if (p == NULL || p->failed || p->stage != STAGE_DONE)
        return NULL;
    *so = &p->so;
    *percents = p->bamean_percents;
    *bameans = p->bameans;
    *count = p->bamean_count;
    return &p->summary;
}
