/* Selection of order statistics in linear time, so that medians and percentiles never need a
 * full sort. Internal to the statistics modules. */
#ifndef TALLY_SELECT_H
#define TALLY_SELECT_H

#include <stddef.h>

/* Rearrange x[0..n) so that x[k] holds the k-th smallest value (0-based), every element before
 * it is <= x[k] and every element after it is >= x[k]. Requires k < n and no NaN. Quickselect
 * with a median-of-3 pivot and three-way partitioning (ties cost nothing); when it stops
 * shrinking the range fast enough it switches to median-of-medians pivots, so the worst case is
 * O(n). */
void tally__select(double *x, size_t n, size_t k);

/* The same with median-of-medians pivots from the start: the path tally__select() falls back to
 * on adversarial input, callable directly so the tests exercise it. */
void tally__select_guaranteed(double *x, size_t n, size_t k);

/* Select several order statistics at once. `ranks` (count entries, each < n) is sorted and
 * deduplicated in place; the new count is returned. Afterwards x[r] holds the r-th smallest value
 * for every listed r, and x is partitioned around each of them. One recursive partitioning
 * serves all the ranks (multiselect); a rank >= n is ignored. */
size_t tally__select_ranks(double *x, size_t n, size_t *ranks, size_t count);

#endif /* TALLY_SELECT_H */
