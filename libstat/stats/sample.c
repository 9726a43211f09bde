/* tally_sample: a growable array of finite samples in run order. */
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "stats/stats_internal.h"

struct tally_sample {
    double *data;
    size_t count;
    size_t capacity;
};

int tally_sample_new(tally_sample **out)
{
    tally_sample *s;
    if (!out)
        return tally__error(TALLY_EINVAL, "output pointer is NULL");
    *out = NULL;
    s = tally__calloc(1, sizeof *s);
    if (!s)
        return tally__error(TALLY_ENOMEM, "out of memory for a sample container");
    *out = s;
    return TALLY_OK;
}

void tally_sample_free(tally_sample *s)
{
    if (!s)
        return;
    tally__free_mem(s->data);
    tally__free_mem(s);
}

int tally_sample_append(tally_sample *s, const double *x, size_t n)
{
    int rc;
    if (!s)
        return tally__error(TALLY_EINVAL, "sample container is NULL");
    if (n == 0)
        return TALLY_OK;
    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    if (n > SIZE_MAX / sizeof *s->data - s->count)
        return tally__error(TALLY_ENOMEM, "too many samples");
    if (s->count + n > s->capacity) {
        size_t need = s->count + n, cap = s->capacity < 8 ? 16 : s->capacity;
        /* Doubling keeps appends amortised O(1); fall back to the exact need near the limit. */
        cap = cap <= SIZE_MAX / sizeof *s->data / 2 ? cap * 2 : need;
        if (cap < need)
            cap = need;
        double *grown = tally__reallocarray(s->data, cap, sizeof *grown);
        if (!grown)
            return tally__error(TALLY_ENOMEM, "out of memory for %zu samples", s->count + n);
        s->data = grown;
        s->capacity = cap;
    }
    memcpy(s->data + s->count, x, n * sizeof *x);
    s->count += n;
    return TALLY_OK;
}

size_t tally_sample_count(const tally_sample *s)
{
    return s ? s->count : 0;
}

const double *tally_sample_data(const tally_sample *s)
{
    return s ? s->data : NULL;
}

int tally_sample_summarize(tally_summary *out, const tally_sample *s,
                           const tally_summary_options *opts)
{
    if (!s)
        return tally__error(TALLY_EINVAL, "sample container is NULL");
    return tally_summarize(out, s->data, s->count, opts);
}
