/* The client's side of a partitioned summary (partition_impl.h): what to ask next, the answers
 * fed back, the summary. */
#include "stats/partition_impl.h"

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
    int fetch = n <= FETCH_ALL_BELOW || !tally__partition_level_make(&c.g.last, lo, hi, tally__buckets_for(n));
    if (fetch)
        tally__partition_level_make(&c.g.last, lo, hi, 1);
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
    return lo < hi && tally__partition_level_make(&child->g.last, lo, hi, tally__buckets_for(count));
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
        uint32_t b = tally__bucket_of(&c->g.last, a->values[i]);
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
    tally__partition_encode_request(&b, &q);
    tally__free_mem(groups);
    int rc = tally__wire_finish(&p->req, &p->req_len, &b);
    if (rc == TALLY_OK)
        p->req_hash = tally__partition_request_hash(p->req, p->req_len);
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
    int rc = tally__partition_decode_answer(&a, data, len);
    if (rc != TALLY_OK)
        return rc;
    if (a.hash != p->req_hash) {
        tally__partition_free_answer(&a);
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
    tally__partition_free_answer(&a);
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

TALLY__OPTIONS_FUNCTIONS(tally_partition_options, TALLY_PARTITION_OPTIONS, sizeof(tally_partition_options))

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
