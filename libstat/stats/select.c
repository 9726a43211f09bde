/* Introselect: quickselect with median-of-3 pivots and Hoare partitioning, falling back to
 * median-of-medians pivots with three-way partitioning when the partitioning work shows the input
 * is adversarial. Runs of equal samples (common in benchmark data: integer counts, timer
 * resolution) stay linear in both modes. Several ranks are selected together by recursive
 * partitioning (multiselect), so the median, quartiles, CI bounds and percentiles of a summary
 * cost little more than one selection. */
#include <stdint.h>
#include <stdlib.h>

#include "stats/select.h"

#define SMALL_RANGE 16

static void swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

static void insertion_sort(double *x, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double v = x[i];
        size_t j = i;
        while (j > 0 && x[j - 1] > v) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = v;
    }
}

/* Order x[0], x[n/2], x[n-1] and partition x[0..n) (n >= 3) around the middle one, Hoare's way:
 * returns s with 1 <= s < n, every x[0..s) <= pivot <= every x[s..n). The ordered ends are the
 * scans' sentinels. Elements equal to the pivot stop both scans, so runs of equal samples are
 * split in the middle instead of degrading to quadratic time. */
static size_t partition_median_of_3(double *x, size_t n)
{
    size_t mid = n / 2, i = 0, j = n - 1;
    if (x[mid] < x[0])
        swap(&x[mid], &x[0]);
    if (x[n - 1] < x[0])
        swap(&x[n - 1], &x[0]);
    if (x[n - 1] < x[mid])
        swap(&x[n - 1], &x[mid]);
    double pivot = x[mid];
    for (;;) {
        do
            i++;
        while (x[i] < pivot);
        do
            j--;
        while (x[j] > pivot);
        if (i >= j)
            return j + 1;
        swap(&x[i], &x[j]);
    }
}

static void select_range(double *x, size_t n, size_t k, int deterministic);

/* Median of the medians of groups of five: a pivot with at least 30 % of the range on each side. */
static double median_of_medians(double *x, size_t n)
{
    size_t groups = 0;
    for (size_t i = 0; i < n; i += 5) {
        size_t len = n - i < 5 ? n - i : 5;
        insertion_sort(x + i, len);
        swap(&x[groups++], &x[i + len / 2]);
    }
    select_range(x, groups, groups / 2, 1);
    return x[groups / 2];
}

/* Three-way partition of x[0..n) around `pivot`: [< pivot | == pivot | > pivot]. */
static void partition3(double *x, size_t n, double pivot, size_t *lt, size_t *gt)
{
    size_t lo = 0, i = 0, hi = n;
    while (i < hi) {
        if (x[i] < pivot) {
            swap(&x[lo++], &x[i++]);
        } else if (x[i] > pivot) {
            swap(&x[i], &x[--hi]);
        } else {
            i++;
        }
    }
    *lt = lo;
    *gt = hi;
}

static void select_range(double *x, size_t n, size_t k, int deterministic)
{
    /* Quickselect with median-of-3 pivots partitions about 3n elements in total on typical
     * data; once the partitioning work passes 8n the input is adversarial (or unlucky) and the
     * remaining range gets median-of-medians pivots, which bound the rest to O(n). */
    size_t work = 0, limit = n > SIZE_MAX / 8 ? SIZE_MAX : 8 * n;

    while (n > SMALL_RANGE) {
        size_t lt, gt;

        work += n;
        if (!deterministic && work <= limit) {
            size_t split = partition_median_of_3(x, n);
            if (k < split) {
                n = split;
            } else {
                x += split;
                k -= split;
                n -= split;
            }
            continue;
        }
        partition3(x, n, median_of_medians(x, n), &lt, &gt);
        if (k < lt) {
            n = lt;
        } else if (k >= gt) {
            x += gt;
            k -= gt;
            n -= gt;
        } else {
            return; /* x[k] equals the pivot and sits between the smaller and larger values */
        }
    }
    insertion_sort(x, n);
}

void tally__select(double *x, size_t n, size_t k)
{
    if (n == 0 || k >= n)
        return;
    select_range(x, n, k, 0);
}

void tally__select_guaranteed(double *x, size_t n, size_t k)
{
    if (n == 0 || k >= n)
        return;
    select_range(x, n, k, 1);
}

/* 2 log2(n) + 4 rounds of partitioning: far more than random data needs (about log2 of the
 * number of ranks, then one quickselect per rank), so hitting it means adversarial input. */
static unsigned depth_limit(size_t n)
{
    unsigned d = 4;
    while (n > 1) {
        n >>= 1;
        d += 2;
    }
    return d;
}

/* Select the sorted, distinct ranks[0..count) (indices into the whole array, of which x[0..n)
 * starts at index `base`) in one recursive partitioning: each partition serves every rank, and
 * a range is only partitioned further while it still holds two ranks or more; a single rank
 * gets the introselect above, with its linear-time guarantee. Past the depth limit the
 * remaining ranks are selected one after the other, each in the range above the previous one,
 * which keeps the whole call linear for a bounded number of ranks. */
static void select_many(double *x, size_t n, size_t base, const size_t *ranks, size_t count,
                        unsigned depth)
{
    while (count > 0) {
        if (count == 1 || n <= SMALL_RANGE || depth == 0) {
            size_t lo = 0;
            if (n <= SMALL_RANGE) {
                insertion_sort(x, n);
                return;
            }
            for (size_t i = 0; i < count; i++) {
                size_t r = ranks[i] - base;
                if (r >= n)
                    return; /* out of range: nothing to select, as with tally__select */
                select_range(x + lo, n - lo, r - lo, 0);
                lo = r + 1;
            }
            return;
        }
        depth--;
        size_t split = partition_median_of_3(x, n), left = 0;
        while (left < count && ranks[left] - base < split)
            left++;
        select_many(x, split, base, ranks, left, depth);
        x += split;
        n -= split;
        base += split;
        ranks += left;
        count -= left;
    }
}

static int compare_size(const void *a, const void *b)
{
    size_t l = *(const size_t *)a, r = *(const size_t *)b;
    return (l > r) - (l < r);
}

size_t tally__select_ranks(double *x, size_t n, size_t *ranks, size_t count)
{
    size_t unique = 0;

    if (count == 0)
        return 0;
    qsort(ranks, count, sizeof *ranks, compare_size);
    for (size_t i = 0; i < count; i++)
        if (unique == 0 || ranks[unique - 1] != ranks[i])
            ranks[unique++] = ranks[i];

    select_many(x, n, 0, ranks, unique, depth_limit(n));
    return unique;
}
