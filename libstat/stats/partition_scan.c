/* The partition's side of a partitioned summary (partition_impl.h): a request answered from the
 * samples a partition holds, and answers merged. */
#include "stats/partition_impl.h"

/* ---- the partition's side ---- */

static int passes(const group *g, double v)
{
    for (uint32_t d = 0; d < g->depth; d++)
        if (tally__bucket_of(&g->chain[d], v) != g->chain[d].bucket)
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
                out->counts[tally__bucket_of(&g->last, v)]++;
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                double v = tally__map_value(map, x[i]);
                if (!passes(g, v))
                    continue;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
                out->counts[tally__bucket_of(&g->last, v)]++;
            }
        }
        out->min = lo;
        out->max = hi;
        return TALLY_OK;
    }
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        double v = tally__map_value(map, x[i]);
        if (!passes(g, v) || !is_target(g, tally__bucket_of(&g->last, v)))
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
    int rc = tally__partition_decode_request(&q, req, req_len);
    if (rc != TALLY_OK)
        return rc;
    if (q.flags & FLAG_SUMS && !q.map.absdev) {
        tally__partition_free_request(&q);
        return tally__error(TALLY_EFORMAT, "not a partition request: sums without deviations");
    }
    memset(&a, 0, sizeof a);
    a.hash = tally__partition_request_hash(req, req_len);
    a.flags = q.flags;
    rc = tally__partition_answer_groups(&a, q.ngroups);
    for (uint32_t i = 0; rc == TALLY_OK && i < q.ngroups; i++)
        rc = scan_group(&a.groups[i], &q.groups[i], &q.map, x, n);
    if (rc == TALLY_OK && (q.flags & FLAG_SUMS))
        scan_sums(&a, &q, x, n);
    if (rc == TALLY_OK && (q.flags & FLAG_MADCOUNT))
        a.madcount = tally__count_mad_outliers(&q.rule, x, NULL, n);
    tally__partition_free_request(&q);
    if (rc != TALLY_OK) {
        tally__partition_free_answer(&a);
        return rc;
    }
    return tally__partition_finish_answer(out, len, &a);
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
    int rc = tally__partition_decode_answer(&a, x, x_len);
    if (rc != TALLY_OK)
        return rc;
    if ((rc = tally__partition_decode_answer(&b, y, y_len)) != TALLY_OK) {
        tally__partition_free_answer(&a);
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
    tally__partition_free_answer(&b);
    if (rc != TALLY_OK) {
        tally__partition_free_answer(&a);
        return rc;
    }
    return tally__partition_finish_answer(out, len, &a);
}
