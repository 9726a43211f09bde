/* The data model: lists of result sets, result sets, benchmarks, cases. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "model/results_append.h"
#include "util/internal.h"
#include "util/name_index.h"
#include "util/result.h"
#include "util/utf8.h"

/* Ordered string key/value pairs, used for result-set and case metadata. An entry is one
 * allocation, the key and then the value, as a case is one with its name and a benchmark one
 * with its name and unit: a series fetched from a store builds thousands of each at a time. */
typedef struct meta_entry {
    char *key;   /* the allocation */
    char *value; /* inside it, after the key */
} meta_entry;

typedef struct meta_list {
    meta_entry *items;
    size_t count;
    size_t cap;
    /* Entries taken in one block (tally__resultset_meta_adopt) point into it and are freed
     * with it, not one by one: a store's series sets thousands of lists at once. The block
     * begins with the first items array (items == block until meta_set outgrows it). */
    char *block;
    size_t block_len;
} meta_list;

/* One run held as a histogram: bucket values strictly ascending with their counts. */
typedef struct case_hist {
    double *values;
    uint64_t *counts;
    size_t n;
    double resolution;
} case_hist;

struct tally_case {
    char *name; /* in the case's allocation, after the struct */
    double *samples;
    size_t count;
    size_t cap;
    meta_list meta;
    /* The runs of a case of histograms (tally_case_histogram_append); such a case holds no
     * single values (count == 0), and a case of single values none of these. */
    case_hist *hists;
    size_t hist_count;
    size_t hist_cap;
    /* A summary-only case (tally_case_set_summary): no samples, this summary instead. */
    int summary_only;
    tally_case_summary summary;
};

struct tally_benchmark {
    char *name; /* name and unit: in the benchmark's allocation, after the struct */
    char *unit;
    tally_direction direction;
    tally_statistic statistic;
    tally_case **cases; /* &first_case until a second case comes (reserve_first_one) */
    size_t count;
    size_t cap;
    tally__name_index case_index;
    tally_case *first_case;
};

struct tally_resultset {
    char *label;
    meta_list meta;
    tally_benchmark **benchmarks; /* &first_benchmark until a second one comes */
    size_t count;
    size_t cap;
    tally__name_index benchmark_index;
    tally_benchmark *first_benchmark;
};

struct tally_results {
    tally_resultset **sets;
    size_t count;
    size_t cap;
    /* What loading merged, split or dropped (tally_results_note_add), in order. */
    char **notes;
    size_t note_count;
    size_t note_cap;
};

/* Make room for `extra` more elements in a growable array: the capacity doubles (at least 8),
 * so that adding n elements a batch at a time copies O(n) in all. */
static int reserve_more(void **items, size_t *cap, size_t count, size_t extra, size_t elem_size)
{
    if (extra <= *cap - count)
        return TALLY_OK;
    if (extra > SIZE_MAX / elem_size - count)
        return tally__error(TALLY_ENOMEM, "out of memory");
    size_t need = count + extra;
    size_t new_cap = *cap > SIZE_MAX / elem_size / 2 ? need : *cap * 2;
    if (new_cap < need)
        new_cap = need < 8 ? 8 : need;
    void *grown = tally__reallocarray(*items, new_cap, elem_size);
    if (grown == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    *items = grown;
    *cap = new_cap;
    return TALLY_OK;
}

static int reserve_one(void **items, size_t *cap, size_t count, size_t elem_size)
{
    return reserve_more(items, cap, count, 1, elem_size);
}

/* reserve_one for an array of pointers that starts as one slot inside its owner (`slot`): a
 * result set of one benchmark of one case, as each of a store's series of thousands is, makes
 * no array. The second element moves the array to an allocation of its own. */
static int reserve_first_one(void **items, size_t *cap, size_t count, void *slot)
{
    if (*items != slot || count < *cap)
        return reserve_one(items, cap, count, sizeof(void *));
    void **grown = tally__reallocarray(NULL, 8, sizeof(void *));
    if (grown == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    memcpy(grown, slot, count * sizeof(void *));
    *items = grown;
    *cap = 8;
    return TALLY_OK;
}

static int check_name(const char *name, const char *what)
{
    if (name == NULL || name[0] == '\0')
        return tally__error(TALLY_EINVAL, "%s name must not be empty", what);
    size_t len = strlen(name), ok = tally__utf8_valid_prefix(name, len);
    if (ok < len)
        return tally__error(TALLY_EINVAL, "%s name is not valid UTF-8 (byte 0x%02x at offset %zu)",
                            what, (unsigned char)name[ok], ok);
    return TALLY_OK;
}

/* ---- metadata lists ---- */

static int in_block(const meta_list *m, const char *p)
{
    /* Compared as integers: pointers into different allocations have no order in C. */
    uintptr_t at = (uintptr_t)p, lo = (uintptr_t)m->block;
    return m->block != NULL && at >= lo && at - lo < m->block_len;
}

static void meta_free(meta_list *m)
{
    for (size_t i = 0; i < m->count; i++)
        if (!in_block(m, m->items[i].key))
            tally__free_mem(m->items[i].key);
    if ((char *)m->items != m->block)
        tally__free_mem(m->items);
    tally__free_mem(m->block);
}

/* A new entry's block: key, NUL, value, NUL. */
static int meta_entry_make(meta_entry *e, const char *key, const char *value)
{
    size_t k = strlen(key) + 1, v = strlen(value) + 1;
    char *block = v <= SIZE_MAX - k ? tally__malloc(k + v) : NULL;
    if (block == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    memcpy(block, key, k);
    memcpy(block + k, value, v);
    e->key = block;
    e->value = block + k;
    return TALLY_OK;
}

static int meta_set(meta_list *m, const char *key, const char *value)
{
    if (key == NULL || key[0] == '\0' || value == NULL)
        return tally__error(TALLY_EINVAL, "metadata needs a key and a value");
    meta_entry e;
    for (size_t i = 0; i < m->count; i++) {
        if (strcmp(m->items[i].key, key) == 0) {
            /* Made before the old block goes: `value` may be the old value itself. */
            int rc = meta_entry_make(&e, key, value);
            if (rc != TALLY_OK)
                return rc;
            if (!in_block(m, m->items[i].key))
                tally__free_mem(m->items[i].key);
            m->items[i] = e;
            return TALLY_OK;
        }
    }
    if (m->block != NULL && (char *)m->items == m->block && m->count == m->cap) {
        /* The items array of a block cannot grow in place: it moves to its own. */
        meta_entry *items = tally__reallocarray(NULL, m->cap * 2, sizeof *items);
        if (items == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        memcpy(items, m->items, m->count * sizeof *items);
        m->items = items;
        m->cap *= 2;
    }
    int rc = reserve_one((void **)&m->items, &m->cap, m->count, sizeof(*m->items));
    if (rc == TALLY_OK)
        rc = meta_entry_make(&e, key, value);
    if (rc != TALLY_OK)
        return rc;
    m->items[m->count++] = e;
    return TALLY_OK;
}

/* The offsets of the keys and values of a block of NUL-terminated texts (key, value, key, ...),
 * up to `cap` pairs; the number of pairs, or -1 when the block is not such a list (a text left
 * open, a key without a value, an empty key). */
static long meta_block_pairs(size_t (*at)[2], size_t cap, const char *p, size_t len)
{
    if (len > 0 && p[len - 1] != '\0')
        return -1;
    long pairs = 0;
    for (size_t i = 0; i < len; pairs++) {
        if (p[i] == '\0')
            return -1;
        size_t value = i + strlen(p + i) + 1;
        if (value >= len)
            return -1;
        if ((size_t)pairs < cap) {
            at[pairs][0] = i;
            at[pairs][1] = value;
        }
        i = value + strlen(p + value) + 1;
    }
    return pairs;
}

/* Whether the keys at these offsets differ; a first byte compared before the whole key, since
 * most keys differ in it. */
static int meta_keys_differ(const char *p, size_t (*at)[2], long n)
{
    for (long i = 1; i < n; i++)
        for (long j = 0; j < i; j++)
            if (p[at[i][0]] == p[at[j][0]] && strcmp(p + at[i][0], p + at[j][0]) == 0)
                return 0;
    return 1;
}

/* The pairs of a block as entries into one copy of it, when the list is empty and the keys
 * differ; else one meta_set each (a later key replacing an earlier one). */
static int meta_adopt(meta_list *m, const char *p, size_t len)
{
    size_t at[32][2];
    long pairs = meta_block_pairs(at, 32, p, len);
    if (pairs < 0)
        return tally__error(TALLY_EINVAL, "metadata block: not a list of key/value texts");
    /* A few keys are compared pairwise; beyond that the general path is as good. */
    if (m->count > 0 || m->block != NULL || pairs > 32 || !meta_keys_differ(p, at, pairs)) {
        int rc = TALLY_OK;
        for (size_t i = 0; rc == TALLY_OK && i < len;) {
            const char *k = p + i, *v = k + strlen(k) + 1;
            rc = meta_set(m, k, v);
            i = (size_t)(v - p) + strlen(v) + 1;
        }
        return rc;
    }
    if (pairs == 0)
        return TALLY_OK;
    /* One allocation: the items, then the texts they point into. */
    size_t head = (size_t)pairs * sizeof(meta_entry);
    char *block = len <= SIZE_MAX - head ? tally__malloc(head + len) : NULL;
    if (block == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    meta_entry *items = (meta_entry *)(void *)block;
    char *text = memcpy(block + head, p, len);
    for (long i = 0; i < pairs; i++) {
        items[i].key = text + at[i][0];
        items[i].value = text + at[i][1];
    }
    tally__free_mem(m->items); /* an empty list's array, if it had one */
    m->items = items;
    m->cap = (size_t)pairs;
    m->block = block;
    m->block_len = head + len;
    m->count = (size_t)pairs;
    return TALLY_OK;
}

static const char *meta_get(const meta_list *m, const char *key)
{
    for (size_t i = 0; i < m->count; i++)
        if (strcmp(m->items[i].key, key) == 0)
            return m->items[i].value;
    return NULL;
}

static int meta_at(const char **key, const char **value, const meta_list *m, size_t i)
{
    if (i >= m->count)
        return tally__error(TALLY_EINVAL, "metadata index %zu out of range", i);
    if (key)
        *key = m->items[i].key;
    if (value)
        *value = m->items[i].value;
    return TALLY_OK;
}

/* ---- case ---- */

static void case_free(tally_case *c)
{
    if (c == NULL)
        return;
    tally__free_mem(c->samples);
    meta_free(&c->meta);
    for (size_t i = 0; i < c->hist_count; i++) {
        tally__free_mem(c->hists[i].values);
        tally__free_mem(c->hists[i].counts);
    }
    tally__free_mem(c->hists);
    tally__free_mem(c);
}

const char *tally_case_name(const tally_case *c)
{
    return c->name;
}

size_t tally_case_sample_count(const tally_case *c)
{
    return c->count;
}

const double *tally_case_samples(const tally_case *c)
{
    return c->samples;
}

int tally_case_meta_set(tally_case *c, const char *key, const char *value)
{
    if (c == NULL)
        return tally__error(TALLY_EINVAL, "tally_case_meta_set: NULL case");
    return meta_set(&c->meta, key, value);
}

const char *tally_case_meta_get(const tally_case *c, const char *key)
{
    return meta_get(&c->meta, key);
}

size_t tally_case_meta_count(const tally_case *c)
{
    return c->meta.count;
}

int tally_case_meta_at(const char **key, const char **value, const tally_case *c, size_t i)
{
    return meta_at(key, value, &c->meta, i);
}

int tally__case_reserve(tally_case *c, size_t extra)
{
    void *samples = c->samples; /* through a void * object: no type punning of c->samples */
    int rc = reserve_more(&samples, &c->cap, c->count, extra, sizeof(double));
    c->samples = samples;
    return rc;
}

double *tally__case_spare(tally_case *c, size_t *room)
{
    *room = c->cap - c->count;
    return c->samples + c->count;
}

void tally__case_commit(tally_case *c, size_t n)
{
    c->count += n;
}

int tally__case_adopt(tally_case *c, double *x, size_t n, size_t cap)
{
    if (c->count > 0 || x == NULL) {
        int rc = n > 0 ? tally_case_append(c, x, n) : TALLY_OK;
        tally__free_mem(x);
        return rc;
    }
    tally__free_mem(c->samples);
    c->samples = x;
    c->count = n;
    c->cap = cap;
    return TALLY_OK;
}

int tally_case_append(tally_case *c, const double *x, size_t n)
{
    if (c == NULL || (x == NULL && n > 0))
        return tally__error(TALLY_EINVAL, "tally_case_append: NULL argument");
    if (c->hist_count > 0 && n > 0)
        return tally__error(TALLY_EMISMATCH,
                            "case '%s' holds histograms: single values cannot join its runs",
                            c->name);
    if (c->summary_only && n > 0)
        return tally__error(TALLY_EINVAL, "case '%s' is known by its summary only: it takes no "
                                          "samples", c->name);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return tally__error(TALLY_ENONFINITE, "case '%s': sample %zu is not finite", c->name,
                                c->count + i + 1);
    int rc = tally__case_reserve(c, n);
    if (rc != TALLY_OK)
        return rc;
    if (n > 0)
        memcpy(c->samples + c->count, x, n * sizeof(double));
    c->count += n;
    return TALLY_OK;
}

size_t tally_case_histogram_count(const tally_case *c)
{
    return c ? c->hist_count : 0;
}

int tally_case_histogram_at(const double **values, const uint64_t **counts, size_t *n,
                            double *resolution, const tally_case *c, size_t i)
{
    if (c == NULL || i >= c->hist_count)
        return tally__error(TALLY_EINVAL, "histogram index %zu out of range", i);
    const case_hist *h = &c->hists[i];
    if (values)
        *values = h->values;
    if (counts)
        *counts = h->counts;
    if (n)
        *n = h->n;
    if (resolution)
        *resolution = h->resolution;
    return TALLY_OK;
}

/* Why each bound: a bucket value must be finite like any sample; ascending and distinct so that
 * every reader can walk the buckets as sorted values without sorting (the weighted quantiles);
 * a zero count is an empty bucket, which the format's writers leave out; the total must fit in
 * a uint64_t so that the sums over a run stay exact. */
static int check_histogram(const tally_case *c, const double *values, const uint64_t *counts,
                           size_t n, double resolution)
{
    if (!(resolution >= 0) || !isfinite(resolution))
        return tally__error(TALLY_EINVAL, "case '%s': histogram resolution %g is not a finite "
                            "value >= 0", c->name, resolution);
    if (n == 0)
        return tally__error(TALLY_ENODATA, "case '%s': a histogram needs at least one bucket",
                            c->name);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(values[i]))
            return tally__error(TALLY_ENONFINITE, "case '%s': histogram bucket %zu: value is not "
                                "finite", c->name, i + 1);
        if (i > 0 && !(values[i] > values[i - 1]))
            return tally__error(TALLY_EINVAL, "case '%s': histogram bucket %zu: value %.17g is not "
                                "above the previous bucket's %.17g", c->name, i + 1, values[i],
                                values[i - 1]);
        if (counts[i] == 0)
            return tally__error(TALLY_EINVAL, "case '%s': histogram bucket %zu: count 0 (leave "
                                "empty buckets out)", c->name, i + 1);
        if (counts[i] > UINT64_MAX - total)
            return tally__error(TALLY_ELIMIT, "case '%s': histogram counts add up to more than "
                                "2^64 - 1", c->name);
        total += counts[i];
    }
    return TALLY_OK;
}

int tally_case_histogram_append(tally_case *c, const double *values, const uint64_t *counts,
                                size_t n, double resolution)
{
    if (c == NULL || (n > 0 && (values == NULL || counts == NULL)))
        return tally__error(TALLY_EINVAL, "tally_case_histogram_append: NULL argument");
    if (c->count > 0 || c->summary_only)
        return tally__error(TALLY_EMISMATCH,
                            "case '%s' holds %s: a histogram cannot join its runs", c->name,
                            c->summary_only ? "a summary only" : "single values");
    int rc = check_histogram(c, values, counts, n, resolution);
    if (rc != TALLY_OK)
        return rc;
    void *hists = c->hists;
    rc = reserve_one(&hists, &c->hist_cap, c->hist_count, sizeof(case_hist));
    c->hists = hists;
    if (rc != TALLY_OK)
        return rc;
    case_hist h = { tally__reallocarray(NULL, n, sizeof(double)),
                    tally__reallocarray(NULL, n, sizeof(uint64_t)),
                    n, resolution };
    if (h.values == NULL || h.counts == NULL) {
        tally__free_mem(h.values);
        tally__free_mem(h.counts);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    memcpy(h.values, values, n * sizeof(double));
    memcpy(h.counts, counts, n * sizeof(uint64_t));
    c->hists[c->hist_count++] = h;
    return TALLY_OK;
}

int tally__case_histograms_copy(tally_case *into, const tally_case *from)
{
    size_t before = into->hist_count;
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < from->hist_count; i++) {
        const case_hist *h = &from->hists[i];
        rc = tally_case_histogram_append(into, h->values, h->counts, h->n, h->resolution);
    }
    if (rc != TALLY_OK)
        while (into->hist_count > before) {
            into->hist_count--;
            tally__free_mem(into->hists[into->hist_count].values);
            tally__free_mem(into->hists[into->hist_count].counts);
        }
    return rc;
}

/* The summary's rules (tally_case_set_summary), the sd derived from the interval when missing. */
static int check_summary(tally_case_summary *s, const char *name)
{
    if (s->n < 1)
        return tally__error(TALLY_EINVAL, "case '%s': a summary of %zu runs", name, s->n);
    if (!isfinite(s->mean))
        return tally__error(TALLY_ENONFINITE, "case '%s': the summary's mean is not finite",
                            name);
    int interval = s->interval_level != 0;
    if (interval) {
        if (!(s->interval_level > 0 && s->interval_level < 1))
            return tally__error(TALLY_EINVAL, "case '%s': interval level %g is not in (0, 1)",
                                name, s->interval_level);
        if (!isfinite(s->interval_low) || !isfinite(s->interval_high))
            return tally__error(TALLY_ENONFINITE, "case '%s': an interval bound is not finite",
                                name);
        if (!(s->interval_low <= s->mean && s->mean <= s->interval_high))
            return tally__error(TALLY_EINVAL, "case '%s': the interval [%g, %g] does not hold "
                                              "the mean %g", name, s->interval_low,
                                s->interval_high, s->mean);
    } else {
        s->interval_low = s->interval_high = NAN;
    }
    s->sd_derived = 0;
    if (isnan(s->sd) && s->n >= 2) {
        if (!interval)
            return tally__error(TALLY_EINVAL, "case '%s': a summary of %zu runs needs a "
                                              "standard deviation or an interval", name, s->n);
        /* The harness's interval read as a Student-t interval of the mean (docs/formats.md). */
        double t = gsl_cdf_tdist_Pinv(1 - (1 - s->interval_level) / 2, (double)(s->n - 1));
        s->sd = (s->interval_high - s->interval_low) / 2 * sqrt((double)s->n) / t;
        s->sd_derived = 1;
    } else if (!isnan(s->sd) && !(isfinite(s->sd) && s->sd >= 0)) {
        return tally__error(TALLY_EINVAL, "case '%s': standard deviation %g is not a finite "
                                          "value >= 0", name, s->sd);
    } else if (s->n == 1 && !isnan(s->sd) && s->sd != 0) {
        return tally__error(TALLY_EINVAL, "case '%s': a summary of one run has no standard "
                                          "deviation (%g given)", name, s->sd);
    }
    if (s->n == 1)
        s->sd = NAN;
    return TALLY_OK;
}

int tally_case_set_summary(tally_case *c, const tally_case_summary *s)
{
    size_t size;
    if (c == NULL)
        return tally__error(TALLY_EINVAL, "tally_case_set_summary: NULL case");
    int rc = tally__result_size(&size, s, "tally_case_summary");
    if (rc != TALLY_OK)
        return rc;
    if (c->count > 0 || c->hist_count > 0)
        return tally__error(TALLY_EINVAL, "case '%s' holds samples: it cannot also be known by "
                                          "a summary", c->name);
    tally_case_summary full;
    tally__result_get(&full, sizeof full, s, size);
    rc = check_summary(&full, c->name);
    if (rc != TALLY_OK)
        return rc;
    c->summary = full;
    c->summary_only = 1;
    return TALLY_OK;
}

int tally__case_copy_summary(tally_case *c, const tally_case_summary *s)
{
    if (c->count > 0 || c->hist_count > 0 || c->summary_only)
        return tally__error(TALLY_EINVAL, "case '%s' holds samples or a summary already: it "
                                          "cannot take another summary", c->name);
    c->summary = *s;
    c->summary.size = sizeof c->summary;
    c->summary_only = 1;
    return TALLY_OK;
}

int tally_case_is_summary_only(const tally_case *c)
{
    return c != NULL && c->summary_only;
}

int tally_case_summary_result(tally_case_summary *out, const tally_case *c)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_case_summary");
    if (rc != TALLY_OK)
        return rc;
    if (c == NULL)
        return tally__error(TALLY_EINVAL, "tally_case_summary_result: NULL case");
    if (!c->summary_only)
        return tally__error(TALLY_ENOTFOUND, "case '%s' holds samples, not a summary", c->name);
    tally__result_put(out, size, &c->summary, sizeof c->summary);
    return TALLY_OK;
}

/* ---- benchmark ---- */

static void benchmark_free(tally_benchmark *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->count; i++)
        case_free(b->cases[i]);
    if (b->cases != &b->first_case)
        tally__free_mem(b->cases);
    tally__name_index_free(&b->case_index);
    tally__free_mem(b);
}

const char *tally_benchmark_name(const tally_benchmark *b)
{
    return b->name;
}

const char *tally_benchmark_unit(const tally_benchmark *b)
{
    return b->unit;
}

tally_direction tally_benchmark_direction(const tally_benchmark *b)
{
    return b->direction;
}

tally_statistic tally_benchmark_statistic(const tally_benchmark *b)
{
    return b->statistic;
}

int tally_benchmark_set_statistic(tally_benchmark *b, tally_statistic stat)
{
    if (b == NULL || (int)stat < TALLY_STAT_DEFAULT || (int)stat > TALLY_STAT_BAMEAN)
        return tally__error(TALLY_EINVAL, "invalid statistic %d", (int)stat);
    b->statistic = stat;
    return TALLY_OK;
}

size_t tally_benchmark_case_count(const tally_benchmark *b)
{
    return b->count;
}

tally_case *tally_benchmark_case_at(const tally_benchmark *b, size_t i)
{
    return i < b->count ? b->cases[i] : NULL;
}

static const char *case_name_at(const void *owner, size_t i)
{
    return ((const tally_benchmark *)owner)->cases[i]->name;
}

tally_case *tally_benchmark_case_find(const tally_benchmark *b, const char *name)
{
    size_t i = tally__name_index_find(&b->case_index, b, case_name_at, b->count, name);
    return i < b->count ? b->cases[i] : NULL;
}

int tally_benchmark_case_add(tally_case **out, tally_benchmark *b, const char *name)
{
    if (out)
        *out = NULL;
    if (b == NULL)
        return tally__error(TALLY_EINVAL, "tally_benchmark_case_add: NULL benchmark");
    int rc = check_name(name, "case");
    if (rc != TALLY_OK)
        return rc;
    if (tally_benchmark_case_find(b, name))
        return tally__error(TALLY_EEXISTS, "benchmark '%s' already has a case '%s'", b->name, name);
    if ((rc = reserve_first_one((void **)&b->cases, &b->cap, b->count, &b->first_case)) !=
        TALLY_OK)
        return rc;
    /* The name in the case's own allocation, after the struct. */
    size_t len = strlen(name) + 1;
    tally_case *c = tally__calloc(1, sizeof(*c) + len);
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    c->name = memcpy((char *)(c + 1), name, len);
    b->cases[b->count++] = c;
    if ((rc = tally__name_index_added(&b->case_index, b, case_name_at, b->count)) != TALLY_OK) {
        case_free(b->cases[--b->count]);
        return rc;
    }
    if (out)
        *out = c;
    return TALLY_OK;
}

/* ---- result set ---- */

int tally_resultset_new(tally_resultset **out, const char *label)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "tally_resultset_new: NULL output");
    *out = NULL;
    int rc = check_name(label, "result set");
    if (rc != TALLY_OK)
        return rc;
    /* The first label in the set's own allocation, after the struct (one allocation less for
     * each of thousands of sets a store's series makes). */
    size_t len = strlen(label) + 1;
    tally_resultset *rs = tally__calloc(1, sizeof(*rs) + len);
    if (rs == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    rs->label = memcpy((char *)(rs + 1), label, len);
    rs->benchmarks = &rs->first_benchmark;
    rs->cap = 1;
    *out = rs;
    return TALLY_OK;
}

void tally_resultset_free(tally_resultset *rs)
{
    if (rs == NULL)
        return;
    for (size_t i = 0; i < rs->count; i++)
        benchmark_free(rs->benchmarks[i]);
    meta_free(&rs->meta);
    if (rs->benchmarks != &rs->first_benchmark)
        tally__free_mem(rs->benchmarks);
    tally__name_index_free(&rs->benchmark_index);
    if (rs->label != (char *)(rs + 1))
        tally__free_mem(rs->label);
    tally__free_mem(rs);
}

const char *tally_resultset_label(const tally_resultset *rs)
{
    return rs->label;
}

int tally_resultset_set_label(tally_resultset *rs, const char *label)
{
    if (rs == NULL)
        return tally__error(TALLY_EINVAL, "tally_resultset_set_label: NULL result set");
    int rc = check_name(label, "result set");
    if (rc != TALLY_OK)
        return rc;
    char *copy = tally__strdup(label);
    if (copy == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    if (rs->label != (char *)(rs + 1))
        tally__free_mem(rs->label);
    rs->label = copy;
    return TALLY_OK;
}

int tally_resultset_meta_set(tally_resultset *rs, const char *key, const char *value)
{
    if (rs == NULL)
        return tally__error(TALLY_EINVAL, "tally_resultset_meta_set: NULL result set");
    return meta_set(&rs->meta, key, value);
}

int tally__resultset_meta_adopt(tally_resultset *rs, const char *pairs, size_t len)
{
    if (rs == NULL || (pairs == NULL && len > 0))
        return tally__error(TALLY_EINVAL, "tally__resultset_meta_adopt: NULL argument");
    return meta_adopt(&rs->meta, pairs, len);
}

const char *tally_resultset_meta_get(const tally_resultset *rs, const char *key)
{
    return meta_get(&rs->meta, key);
}

size_t tally_resultset_meta_count(const tally_resultset *rs)
{
    return rs->meta.count;
}

int tally_resultset_meta_at(const char **key, const char **value, const tally_resultset *rs,
                            size_t i)
{
    return meta_at(key, value, &rs->meta, i);
}

size_t tally_resultset_benchmark_count(const tally_resultset *rs)
{
    return rs->count;
}

tally_benchmark *tally_resultset_benchmark_at(const tally_resultset *rs, size_t i)
{
    return i < rs->count ? rs->benchmarks[i] : NULL;
}

static const char *benchmark_name_at(const void *owner, size_t i)
{
    return ((const tally_resultset *)owner)->benchmarks[i]->name;
}

tally_benchmark *tally_resultset_benchmark_find(const tally_resultset *rs, const char *name)
{
    size_t i = tally__name_index_find(&rs->benchmark_index, rs, benchmark_name_at, rs->count,
                                      name);
    return i < rs->count ? rs->benchmarks[i] : NULL;
}

int tally_resultset_benchmark_add(tally_benchmark **out, tally_resultset *rs, const char *name,
                                  const char *unit, tally_direction direction)
{
    if (out)
        *out = NULL;
    if (rs == NULL)
        return tally__error(TALLY_EINVAL, "tally_resultset_benchmark_add: NULL result set");
    int rc = check_name(name, "benchmark");
    if (rc != TALLY_OK)
        return rc;
    if (direction != TALLY_LOWER_IS_BETTER && direction != TALLY_HIGHER_IS_BETTER)
        return tally__error(TALLY_EINVAL, "invalid direction %d", (int)direction);
    if (tally_resultset_benchmark_find(rs, name))
        return tally__error(TALLY_EEXISTS, "result set '%s' already has a benchmark '%s'",
                            rs->label, name);
    rc = reserve_first_one((void **)&rs->benchmarks, &rs->cap, rs->count, &rs->first_benchmark);
    if (rc != TALLY_OK)
        return rc;
    /* The name and the unit in the benchmark's own allocation, after the struct. */
    if (unit == NULL)
        unit = "";
    size_t name_len = strlen(name) + 1, unit_len = strlen(unit) + 1;
    tally_benchmark *b = tally__calloc(1, sizeof(*b) + name_len + unit_len);
    if (b == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    b->name = memcpy((char *)(b + 1), name, name_len);
    b->unit = memcpy(b->name + name_len, unit, unit_len);
    b->direction = direction;
    b->statistic = TALLY_STAT_DEFAULT;
    b->cases = &b->first_case;
    b->cap = 1;
    rs->benchmarks[rs->count++] = b;
    rc = tally__name_index_added(&rs->benchmark_index, rs, benchmark_name_at, rs->count);
    if (rc != TALLY_OK) {
        benchmark_free(rs->benchmarks[--rs->count]);
        return rc;
    }
    if (out)
        *out = b;
    return TALLY_OK;
}

/* ---- list ---- */

int tally_results_new(tally_results **out)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "tally_results_new: NULL output");
    *out = tally__calloc(1, sizeof(**out));
    return *out ? TALLY_OK : tally__error(TALLY_ENOMEM, "out of memory");
}

void tally_results_free(tally_results *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->count; i++)
        tally_resultset_free(r->sets[i]);
    tally__free_mem(r->sets);
    for (size_t i = 0; i < r->note_count; i++)
        tally__free_mem(r->notes[i]);
    tally__free_mem(r->notes);
    tally__free_mem(r);
}

int tally_results_note_add(tally_results *r, const char *note)
{
    if (r == NULL || note == NULL)
        return tally__error(TALLY_EINVAL, "tally_results_note_add: NULL argument");
    int rc = reserve_more((void **)&r->notes, &r->note_cap, r->note_count, 1, sizeof(char *));
    if (rc != TALLY_OK)
        return rc;
    char *copy = tally__strdup(note);
    if (copy == NULL)
        return tally__oom();
    r->notes[r->note_count++] = copy;
    return TALLY_OK;
}

size_t tally_results_note_count(const tally_results *r)
{
    return r ? r->note_count : 0;
}

const char *tally_results_note_at(const tally_results *r, size_t i)
{
    return r && i < r->note_count ? r->notes[i] : NULL;
}

size_t tally_results_count(const tally_results *r)
{
    return r->count;
}

tally_resultset *tally_results_at(const tally_results *r, size_t i)
{
    return i < r->count ? r->sets[i] : NULL;
}

tally_resultset *tally_results_find(const tally_results *r, const char *label)
{
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(r->sets[i]->label, label) == 0)
            return r->sets[i];
    return NULL;
}

int tally_results_add(tally_results *r, tally_resultset *rs)
{
    if (r == NULL || rs == NULL)
        return tally__error(TALLY_EINVAL, "tally_results_add: NULL argument");
    if (tally_results_find(r, rs->label))
        return tally__error(TALLY_EEXISTS, "duplicate result set label '%s'", rs->label);
    int rc = reserve_one((void **)&r->sets, &r->cap, r->count, sizeof(*r->sets));
    if (rc != TALLY_OK)
        return rc;
    r->sets[r->count++] = rs;
    return TALLY_OK;
}

int tally__results_append_unique(tally_results *into, tally_resultset **sets, size_t n)
{
    if (n == 0)
        return TALLY_OK; /* sets may be NULL then, which memcpy does not take */
    int rc = reserve_more((void **)&into->sets, &into->cap, into->count, n, sizeof(*into->sets));
    if (rc != TALLY_OK)
        return rc;
    memcpy(into->sets + into->count, sets, n * sizeof *sets);
    into->count += n;
    return TALLY_OK;
}

int tally_results_merge(tally_results *into, tally_results *from)
{
    if (into == NULL || from == NULL)
        return tally__error(TALLY_EINVAL, "tally_results_merge: NULL argument");
    for (size_t i = 0; i < from->count; i++) {
        const char *label = from->sets[i]->label;
        if (tally_results_find(into, label))
            return tally__error(TALLY_EEXISTS, "duplicate result set label '%s'", label);
        for (size_t j = 0; j < i; j++)
            if (strcmp(from->sets[j]->label, label) == 0)
                return tally__error(TALLY_EEXISTS, "duplicate result set label '%s'", label);
    }
    size_t need = into->count + from->count;
    if (need > into->cap) {
        tally_resultset **grown = tally__reallocarray(into->sets, need, sizeof(*grown));
        if (grown == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        into->sets = grown;
        into->cap = need;
    }
    int rc = reserve_more((void **)&into->notes, &into->note_cap, into->note_count,
                          from->note_count, sizeof(char *));
    if (rc != TALLY_OK)
        return rc;
    if (from->count > 0) /* from->sets may be NULL then, and memcpy must not see NULL */
        memcpy(into->sets + into->count, from->sets, from->count * sizeof(*from->sets));
    into->count = need;
    from->count = 0;
    /* The notes say what loading did to these sets: they travel with them. */
    if (from->note_count > 0)
        memcpy(into->notes + into->note_count, from->notes, from->note_count * sizeof(char *));
    into->note_count += from->note_count;
    from->note_count = 0;
    return TALLY_OK;
}
