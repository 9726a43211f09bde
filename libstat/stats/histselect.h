/* Order statistics without moving or copying the samples: a histogram over the value range
 * finds the buckets that hold the wanted ranks, only those buckets' samples are copied out, and
 * the ranks are selected among them. Internal to the statistics modules. */
#ifndef TALLY_HISTSELECT_H
#define TALLY_HISTSELECT_H

#include <math.h>
#include <stddef.h>

/* How a selection sees each sample v: v itself, or |v * scale - centre| (the absolute
 * deviations behind MAD, computed on the fly instead of written to a second array). */
typedef struct tally__value_map {
    int absdev;
    double scale, centre;
} tally__value_map;

#define TALLY__IDENTITY_MAP { 0, 1.0, 0.0 }

static inline double tally__map_value(const tally__value_map *m, double v)
{
    return m->absdev ? fabs(v * m->scale - m->centre) : v;
}

/* Returned by tally__select_mapped when the histogram would not narrow the search enough (few
 * samples, or most of them in the wanted buckets): the caller selects on a full copy instead. */
#define TALLY__SELECT_NOT_VIABLE 1

/* out[i] = the ranks[i]-th smallest (0-based) mapped value of x[0..n), for i < count; ranks are
 * in any order, each < n; x is not modified. Every mapped value must lie in [lo, hi] (finite).
 * Returns TALLY_OK, TALLY__SELECT_NOT_VIABLE, or TALLY_ENOMEM (not recorded: the caller either
 * records it or falls back to selecting in a buffer it owns). */
int tally__select_mapped(double *out, const double *x, size_t n, const size_t *ranks,
                         size_t count, const tally__value_map *map, double lo, double hi);

/* out[i] = the ranks[i]-th smallest value of work[0..n) (ranks in any order, each < n), by
 * multiselect, which reorders work. TALLY_ENOMEM (not recorded) when count is large and the
 * copy of the ranks cannot be allocated. */
int tally__select_values(double *out, double *work, size_t n, const size_t *ranks, size_t count);

/* The counts of a histogram selection of the samples themselves: count[j] samples lie in bucket
 * j of `buckets`, bucket_of(v) = floor((v / 2 - origin) * inv) clamped to [0, buckets), a
 * monotone function of v (histselect.c). */
typedef struct tally__value_hist {
    size_t *count; /* NULL: none kept */
    size_t buckets;
    double origin, inv;
} tally__value_hist;

/* Where a selection may reorder (mapped) samples when the histogram does not apply: a buffer of
 * n doubles, allocated on first use, or the caller's own array for the in-place calls. The
 * histogram of the first selection of the samples themselves stays in `hist` for later passes
 * (the MAD of outliers.c), until tally__scratch_free. */
typedef struct tally__scratch {
    double *buf;
    int owned;
    tally__value_hist hist;
} tally__scratch;

/* The scratch of an in-place call (buf = the caller's array, never allocated), or of a copying
 * call (buf = NULL). */
void tally__scratch_init(tally__scratch *s, double *inplace);
void tally__scratch_free(tally__scratch *s);

/* out[i] = the ranks[i]-th smallest mapped value of x[0..n) (ranks in any order, each < n;
 * mapped values within [lo, hi]). By histogram selection when it applies, leaving *mapped NULL
 * (x untouched); otherwise the mapped values are written to the scratch (element by element, so
 * x may be the scratch itself), selected there, and *mapped points at them: later passes must
 * then read the values there (reordered) instead of mapping x again. A copying call that cannot
 * allocate fails with TALLY_ENOMEM (recorded); an in-place one falls back to its array. */
int tally__order_stats(double *out, const double *x, size_t n, const size_t *ranks,
                       size_t count, const tally__value_map *map, double lo, double hi,
                       tally__scratch *s, double **mapped);

#endif /* TALLY_HISTSELECT_H */
