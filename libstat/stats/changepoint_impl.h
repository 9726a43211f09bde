/* The building blocks of changepoint.c that the tests check one by one against brute force:
 * the windowed E-divisive statistic, the spike filter and the segment test. Not exported. */
#ifndef TALLY_CHANGEPOINT_IMPL_H
#define TALLY_CHANGEPOINT_IMPL_H

#include <stddef.h>

/* The E-divisive statistic of Matteson & James (2014, eq. 4 with alpha = 1) of every split tau
 * of c[0..n), between the window c[max(0, tau - w), tau) before it and c[tau, min(n, tau + w))
 * after it: q[tau] = a b / (a + b) (2 / (a b) sum |x - y| - sum_{i<k} |x_i - x_k| / C(a, 2) -
 * sum_{j<k} |y_j - y_k| / C(b, 2)), for m <= tau <= n - m; the other entries of q[0..n] are 0.
 * Two sorted windows slide along the series, so each split costs O(w). 2 <= m <= w, n >= 2 m;
 * c centred near 0 by the caller (the sums then keep their digits). TALLY_ENOMEM. */
int tally__edivisive_scan(double *q, const double *c, size_t n, size_t m, size_t w);

/* Hampel filter: point i is an outlier when |c[i] - med| > 5 scale, med the median of the
 * points within h of it (the window cut at the ends), scale the largest of 1.4826 times their
 * MAD, the series' noise at that level and 1e-9 |med|. The series' noise comes from its
 * neighbouring differences, which steps and spikes barely move: 1.4826 median |c[i+1] - c[i]|
 * / sqrt 2, each difference divided by the mean of its pair when all points have one sign
 * (*relative = 1: the noise is a fraction of the level, scaled by |med|). out[i] = 1 for an
 * outlier, repl[i] the window's median (c[i] otherwise), *noise that estimate of the noise (0
 * for fewer than 2 points). TALLY_ENOMEM. */
int tally__hampel(unsigned char *out, double *repl, double *noise, int *relative,
                  const double *c, size_t n, size_t h);

#endif /* TALLY_CHANGEPOINT_IMPL_H */
