/* Building blocks of the run-order and shape diagnostics (diagnose.c), exposed to the unit tests. */
#ifndef TALLY_DIAG_INTERNAL_H
#define TALLY_DIAG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tally/diagnose.h"

/* Hartigan's dip of n sorted samples (the minimum 1/(2n) for n < 4); modal_lo/hi (may be NULL)
 * receive the 0-based indices of the modal interval. TALLY_ENOMEM. */
int tally__dip(double *out, size_t *modal_lo, size_t *modal_hi, const double *sorted, size_t n);

/* P(D_n >= dip) for n uniform samples, interpolated in the table of dip.c's quantiles (1 for
 * n < 4). */
double tally__dip_pvalue(double dip, size_t n);

/* Kendall's S over run order, sum over i < j of sign(x_j - x_i), the tie term sum t(t-1)(2t+5)
 * of Mann-Kendall's variance and the number of tied pairs sum t(t-1)/2, in O(n log n).
 * TALLY_ENOMEM. */
int tally__kendall_s(double *s, double *tie_term, double *tied, const double *x, size_t n);

/* The set bits of w, without a call: the x86-64 baseline has no popcnt instruction, so
 * __builtin_popcountll would call libgcc's __popcountdi2 for each run. */
unsigned tally__popcount64(uint64_t w);

#endif /* TALLY_DIAG_INTERNAL_H */
