/* The requests and answers of a partitioned summary as bytes, and the bucketings they carry
 * (partition_impl.h). */
#include "stats/partition_impl.h"

/* ---- bucketing ---- */

/* A bucketing of [lo, hi] in `buckets` buckets, halved as histselect.c does so that hi - lo
 * cannot overflow. Returns 0 when the range cannot be bucketed (width 0 or below the range of
 * the reciprocal). */
int tally__partition_level_make(level *l, double lo, double hi, uint32_t buckets)
{
    double width = hi * 0.5 - lo * 0.5;
    l->origin = lo * 0.5;
    l->buckets = buckets;
    l->bucket = 0;
    l->inv = buckets > 1 ? (double)buckets / width : 0.0;
    return buckets == 1 || (width > 0 && isfinite(l->inv));
}

/* ---- requests ---- */

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

void tally__partition_encode_request(tally__buf *b, const request *q)
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

void tally__partition_free_request(request *q)
{
    for (uint32_t i = 0; q->groups && i < q->ngroups; i++)
        tally__free_mem(q->groups[i].targets);
    tally__free_mem(q->groups);
    q->groups = NULL;
    q->ngroups = 0;
}

static int bad_request(request *q, const char *what)
{
    tally__partition_free_request(q);
    return tally__error(TALLY_EFORMAT, "not a partition request: %s", what);
}

int tally__partition_decode_request(request *q, const unsigned char *data, size_t len)
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
                tally__partition_free_request(q);
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
uint64_t tally__partition_request_hash(const unsigned char *data, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= data[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* ---- answers ---- */

void tally__partition_free_answer(answer *a)
{
    for (uint32_t i = 0; a->groups && i < a->ngroups; i++) {
        tally__free_mem(a->groups[i].counts);
        tally__free_mem(a->groups[i].values);
    }
    tally__free_mem(a->groups);
    a->groups = NULL;
    a->ngroups = 0;
}

int tally__partition_answer_groups(answer *a, uint32_t ngroups)
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
    tally__partition_free_answer(a);
    return tally__error(TALLY_EFORMAT, "not a partition answer: %s", what);
}

int tally__partition_decode_answer(answer *a, const unsigned char *data, size_t len)
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
    int rc = tally__partition_answer_groups(a, ngroups);
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
                tally__partition_free_answer(a);
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
                tally__partition_free_answer(a);
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

int tally__partition_finish_answer(unsigned char **out, size_t *len, answer *a)
{
    tally__buf b = TALLY__BUF_INIT;
    encode_answer(&b, a);
    tally__partition_free_answer(a);
    return tally__wire_finish(out, len, &b);
}
