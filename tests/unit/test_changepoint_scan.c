/* The change-point detector against brute force (docs/history.md): the sliding-window
 * E-divisive scan against the statistic computed pair by pair from its definition (Matteson &
 * James 2014, eq. 4, alpha = 1), the spike filter against a sort-based median and MAD, and whole
 * segmentations of small series against an exhaustive search. */
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "check.h"
#include "stats/changepoint_impl.h"
#include "tally.h"
#define TEST_RNG_SEED 0xB2C7E5F01DULL
#include "test_rng.h"

/* q(tau) from the definition, every pair summed (O(w^2) per split). */
static double naive_q(const double *c, size_t n, size_t t, size_t w)
{
    size_t lo = t > w ? t - w : 0, hi = t + w < n ? t + w : n;
    double a = (double)(t - lo), b = (double)(hi - t), cross = 0, wl = 0, wr = 0;
    for (size_t i = lo; i < t; i++)
        for (size_t j = t; j < hi; j++)
            cross += fabs(c[i] - c[j]);
    for (size_t i = lo; i < t; i++)
        for (size_t k = i + 1; k < t; k++)
            wl += fabs(c[i] - c[k]);
    for (size_t j = t; j < hi; j++)
        for (size_t k = j + 1; k < hi; k++)
            wr += fabs(c[j] - c[k]);
    double e = 2 * cross / (a * b) - wl / (a * (a - 1) / 2) - wr / (b * (b - 1) / 2);
    return a * b / (a + b) * e;
}

static void test_scan_against_definition(void)
{
    static const size_t shapes[][3] = { { 12, 2, 2 }, { 20, 3, 5 }, { 40, 3, 30 },
                                        { 57, 4, 9 }, { 100, 2, 7 }, { 64, 5, 64 } };
    size_t worst_t = 0;
    double worst = 0;
    for (size_t s = 0; s < TALLY__COUNT(shapes); s++) {
        size_t n = shapes[s][0], m = shapes[s][1], w = shapes[s][2];
        double c[100], q[101];
        for (size_t i = 0; i < n; i++) /* ties on purpose: values on a grid of 0.25 */
            c[i] = floor(gauss() * 8) / 4 + (i > n / 2 ? 1.5 : 0);
        CHECK_INT(tally__edivisive_scan(q, c, n, m, w), TALLY_OK);
        for (size_t t = 0; t <= n; t++) {
            double want = t >= m && t + m <= n ? naive_q(c, n, t, w) : 0;
            double err = fabs(q[t] - want) / fmax(1, fabs(want));
            if (err > worst) {
                worst = err;
                worst_t = t;
            }
        }
    }
    if (worst > 1e-12)
        fprintf(stderr, "  scan differs from the definition by %g at tau %zu\n", worst, worst_t);
    CHECK(worst <= 1e-12);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(double *v, size_t k)
{
    qsort(v, k, sizeof *v, cmp);
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* The filter's rule written out with sorting. */
static void test_hampel_against_sorting(void)
{
    enum { N = 80, H = 3 };
    double c[N], repl[N], w[N];
    unsigned char out[N];
    for (size_t i = 0; i < N; i++)
        c[i] = 10 + gauss() * 0.1 + (i % 17 == 5 ? 3 : 0) + (i >= 45 ? 1 : 0);
    double noise = 0;
    int relative = 0;
    CHECK_INT(tally__hampel(out, repl, &noise, &relative, c, N, H), TALLY_OK);
    CHECK_INT(relative, 1); /* every point > 0 */
    for (size_t i = 0; i + 1 < N; i++)
        w[i] = fabs(c[i + 1] - c[i]) / ((c[i + 1] + c[i]) / 2);
    double global = 1.4826 * median_sorted(w, N - 1) / sqrt(2.0);
    CHECK_REL(noise, global, 1e-15);
    /* (N - 1 is odd: the median is the middle difference, as the filter takes it) */
    size_t flagged = 0, spikes = 0, agree = 0;
    for (size_t i = 0; i < N; i++) {
        size_t lo = i > H ? i - H : 0, hi = i + H + 1 < N ? i + H + 1 : N, k = hi - lo;
        memcpy(w, c + lo, k * sizeof *w);
        double med = median_sorted(w, k);
        for (size_t j = 0; j < k; j++)
            w[j] = fabs(c[lo + j] - med);
        double mad = median_sorted(w, k);
        double scale = fmax(fmax(1.4826 * mad, global * med), 1e-9 * fabs(med));
        int want = fabs(c[i] - med) > 5 * scale;
        agree += want == out[i];
        flagged += out[i];
        spikes += i % 17 == 5;
        CHECK(repl[i] == (want ? med : c[i]));
    }
    CHECK_INT(agree, N);
    CHECK_INT(flagged, spikes); /* every +3 spike (30 sigma), nothing else */
}

/* ---- segmentations of small series against an exhaustive search ---- */

/* The least-squares segmentation with k change points and segments of at least m points,
 * every placement tried: the change points into best[]. */
static double sse(const double *x, size_t a, size_t b)
{
    double mean = 0, s = 0;
    for (size_t i = a; i < b; i++)
        mean += x[i];
    mean /= (double)(b - a);
    for (size_t i = a; i < b; i++)
        s += (x[i] - mean) * (x[i] - mean);
    return s;
}

static double exhaustive(size_t *best, const double *x, size_t n, size_t k, size_t m)
{
    double best_cost = INFINITY;
    if (k == 1) {
        for (size_t t = m; t + m <= n; t++) {
            double cost = sse(x, 0, t) + sse(x, t, n);
            if (cost < best_cost) {
                best_cost = cost;
                best[0] = t;
            }
        }
    } else {
        for (size_t t1 = m; t1 + 2 * m <= n; t1++)
            for (size_t t2 = t1 + m; t2 + m <= n; t2++) {
                double cost = sse(x, 0, t1) + sse(x, t1, t2) + sse(x, t2, n);
                if (cost < best_cost) {
                    best_cost = cost;
                    best[0] = t1;
                    best[1] = t2;
                }
            }
    }
    return best_cost;
}

/* The detector's test of one split written out: Welch's t of the two sides (one value per
 * point), p from GSL's t distribution, times the n - 2m + 1 splits; without the detector's
 * floor under each level's variance, so this passes whenever the detector's test would. */
static int best_split_passes(const double *x, size_t n, size_t m, double alpha, double min_pct)
{
    for (size_t t = m; t + m <= n; t++) {
        double ma = 0, mb = 0, va = 0, vb = 0, na = (double)t, nb = (double)(n - t);
        for (size_t i = 0; i < t; i++)
            ma += x[i] / na;
        for (size_t i = t; i < n; i++)
            mb += x[i] / nb;
        for (size_t i = 0; i < t; i++)
            va += (x[i] - ma) * (x[i] - ma) / (na - 1);
        for (size_t i = t; i < n; i++)
            vb += (x[i] - mb) * (x[i] - mb) / (nb - 1);
        double ea = va / na, eb = vb / nb, tt = (mb - ma) / sqrt(ea + eb);
        double df = (ea + eb) * (ea + eb) / (ea * ea / (na - 1) + eb * eb / (nb - 1));
        double p = 2 * gsl_cdf_tdist_Q(fabs(tt), df) * (double)(n - 2 * m + 1);
        if (p <= alpha && 100 * fabs(mb - ma) / fabs(ma) >= min_pct)
            return 1;
    }
    return 0;
}

static void test_segmentation_against_exhaustive(void)
{
    size_t same = 0, near = 0, total = 0, quiet_agree = 0, quiet = 0;
    tally_changepoint_options o = TALLY_CHANGEPOINT_OPTIONS_INIT;
    for (int s = 0; s < 300; s++) {
        /* One or two steps of 6 to 10 sigma (sigma 1 % of 100) in 30 to 40 points, levels of 8
         * points at least: steps the test finds, so that the comparison is of where. */
        size_t n = 30 + (size_t)(uniform01() * 11), k = 1 + (s % 2);
        size_t at[2] = { 8 + (size_t)(uniform01() * (double)(n / 2 - 10)), 0 };
        at[1] = at[0] + 8 + (size_t)(uniform01() * (double)(n - at[0] - 16));
        double x[40], size[2];
        size_t off[41];
        for (size_t j = 0; j < 2; j++)
            size[j] = (uniform01() < 0.5 ? -1 : 1) * (6 + 4 * uniform01());
        for (size_t i = 0; i < n; i++) {
            double level = 100;
            for (size_t j = 0; j < k; j++)
                level += i >= at[j] ? size[j] : 0;
            x[i] = level + gauss();
            off[i] = i;
        }
        off[n] = n;
        size_t want[2];
        exhaustive(want, x, n, k, o.min_segment);
        tally_changepoints *cp = NULL;
        CHECK_INT(tally_changepoints_detect(&cp, x, off, n, &o), TALLY_OK);
        total++;
        if (tally_changepoints_count(cp) == k) {
            int exact = 1, within = 1;
            for (size_t j = 0; j < k; j++) {
                tally_changepoint c = { .size = sizeof c };
                tally_changepoints_at(&c, cp, j);
                size_t d = c.index > want[j] ? c.index - want[j] : want[j] - c.index;
                exact &= d == 0;
                within &= d <= 1;
            }
            same += (size_t)exact;
            near += (size_t)within;
        }
        tally_changepoints_free(cp);
        /* The same length of plain noise: when no single split passes the detector's test
         * (written out without its noise floor, so at least as ready to pass), the detector
         * reports no change either. */
        for (size_t i = 0; i < n; i++)
            x[i] = 100 + gauss();
        if (!best_split_passes(x, n, o.min_segment, o.alpha, o.min_change_pct)) {
            quiet++;
            CHECK_INT(tally_changepoints_detect(&cp, x, off, n, &o), TALLY_OK);
            quiet_agree += tally_changepoints_count(cp) == 0;
            tally_changepoints_free(cp);
        }
    }
    printf("segmentation vs exhaustive least squares: %zu of %zu the same change points, %zu "
           "within 1 point; noise without a passing split: %zu of %zu without a change\n",
           same, total, near, quiet_agree, quiet);
    CHECK_INT(same, total);
    CHECK_INT(near, total);
    CHECK_INT(quiet_agree, quiet);
}

int main(void)
{
    test_scan_against_definition();
    test_hampel_against_sorting();
    test_segmentation_against_exhaustive();
    return check_summary();
}
