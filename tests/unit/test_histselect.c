/* Histogram selection (libstat/histselect.h): every order statistic tally__select_mapped,
 * tally__order_stats and tally__select_values return must equal the element at that rank of a
 * copy of the (mapped) samples sorted with the C library's qsort, whatever the data's shape,
 * size (both sides of the 2048-sample threshold), the value map, the bounds and the rank list.
 * The samples must be left alone byte for byte where the contract says so. Comparisons use ==,
 * so -0.0 and +0.0 are the same value: either zero passes where the sorted copy holds a zero
 * (qsort's order among equal zeros is unspecified anyway). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_rng.h"
#include "stats/histselect.h"
#include "stats/stats_internal.h"
#include "util/internal.h"

#define THRESHOLD 2048 /* below this many samples the histogram never applies (header) */
#define MAX_RANKS 128


static int compare_double(const void *a, const void *b)
{
    double l = *(const double *)a, r = *(const double *)b;
    return (l > r) - (l < r);
}

enum shape {
    UNIFORM,      /* [0, 1000) */
    LOGNORMAL,    /* 100 exp(0.25 Z): benchmark-like, skewed right */
    DIGITS,       /* integers 0..9: heavy ties */
    ALL_EQUAL,    /* 42.5 everywhere */
    TWO_VALUES,   /* 3 (70 %) and 7 (30 %) */
    MIXED_SIGN,   /* (-1000, 1000) */
    FULL_RANGE,   /* (-DBL_MAX, DBL_MAX), both extremes present */
    NEAR_MAX,     /* [DBL_MAX / 2, DBL_MAX) */
    SUBNORMAL,    /* subnormals of both signs only */
    ZEROS,        /* -0.0 and +0.0 */
    NARROW,       /* 1 + k eps, k < 5000: 5000 adjacent doubles over 4096 buckets */
    OUTLIER,      /* 100 + u, one sample 1e300 */
    CLUSTERS,     /* 99 % in [0, 1), 1 % in [1e6, 1e6 + 1) */
    STEPS,        /* k + j / 1000, k < 1024, j < 64: dense groups of 64 distinct values, so
                     that above the threshold many adjacent ranks share one bucket */
    ASCENDING,    /* 0, 1, 2, ... */
    DESCENDING,   /* n, n - 1, ... */
    ORGAN_PIPE,   /* 0, 1, ..., n/2, ..., 1 */
    SHAPES
};

static const char *const shape_names[SHAPES] = {
    "uniform", "lognormal", "digits", "all-equal", "two-values", "mixed-sign", "full-range",
    "near-max", "subnormal", "zeros", "narrow", "outlier", "clusters", "steps", "ascending",
    "descending", "organ-pipe",
};

static void generate(double *x, size_t n, enum shape shape, uint64_t *state)
{
    for (size_t i = 0; i < n; i++) {
        double u = rng_uniform(state);
        switch (shape) {
        case UNIFORM: x[i] = 1000.0 * u; break;
        case LOGNORMAL: {
            /* Box-Muller */
            double z = sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * rng_uniform(state));
            x[i] = 100.0 * exp(0.25 * z);
            break;
        }
        case DIGITS: x[i] = (double)(rng_splitmix64(state) % 10); break;
        case ALL_EQUAL: x[i] = 42.5; break;
        case TWO_VALUES: x[i] = u < 0.7 ? 3.0 : 7.0; break;
        case MIXED_SIGN: x[i] = 2000.0 * u - 1000.0; break;
        case FULL_RANGE: x[i] = (2.0 * u - 1.0) * DBL_MAX; break;
        case NEAR_MAX: x[i] = DBL_MAX * (0.5 + 0.5 * u); break;
        case SUBNORMAL: {
            uint64_t r = rng_splitmix64(state);
            double v = (double)((r >> 12) % ((1ull << 52) - 1) + 1) * DBL_TRUE_MIN; /* exact */
            x[i] = (r & 1) ? -v : v;
            break;
        }
        case ZEROS: x[i] = u < 0.5 ? -0.0 : 0.0; break;
        case NARROW: x[i] = 1.0 + (double)(rng_splitmix64(state) % 5000) * DBL_EPSILON; break;
        case OUTLIER: x[i] = 100.0 + u; break;
        case CLUSTERS: x[i] = (rng_splitmix64(state) % 100 == 0 ? 1e6 : 0.0) + u; break;
        case STEPS: {
            uint64_t r = rng_splitmix64(state);
            x[i] = (double)(r % 1024) + (double)((r >> 10) % 64) * 1e-3;
            break;
        }
        case ASCENDING: x[i] = (double)i; break;
        case DESCENDING: x[i] = (double)(n - i); break;
        case ORGAN_PIPE: x[i] = (double)(i < n / 2 ? i : n - i); break;
        case SHAPES: break;
        }
    }
    if (shape == FULL_RANGE && n >= 2) {
        x[n / 3] = -DBL_MAX;
        x[n / 2] = DBL_MAX;
    }
    if (shape == OUTLIER)
        x[(size_t)(rng_splitmix64(state) % n)] = 1e300;
}

/* The rank lists every case is run with; returns how many were written to r. */
enum rank_list { FIRST, LAST, MEDIAN_PAIR, MIXED, PERCENTILES, CLUSTERED, EVERY, RANK_LISTS };

static const char *const rank_list_names[RANK_LISTS] = {
    "0", "n-1", "median pair", "duplicates, unsorted", "100 percentiles",
    "40 adjacent ranks", "every rank, reversed",
};

static size_t make_ranks(size_t *r, size_t n, enum rank_list which)
{
    size_t count = 0;
    switch (which) {
    case FIRST: r[count++] = 0; break;
    case LAST: r[count++] = n - 1; break;
    case MEDIAN_PAIR:
        r[count++] = (n - 1) / 2;
        r[count++] = n / 2;
        break;
    case MIXED: {
        const size_t list[] = { n - 1, 0, n / 2, n / 2, (n - 1) / 2, 0, n / 3, n - 1, n / 7 };
        for (size_t i = 0; i < TALLY__COUNT(list); i++)
            r[count++] = list[i];
        break;
    }
    case PERCENTILES: /* descending: floor(k (n - 1) / 99) for k = 99 .. 0 */
        for (size_t k = 100; k-- > 0;)
            r[count++] = (size_t)((double)k * (double)(n - 1) / 99.0);
        break;
    case CLUSTERED: /* 40 ranks around the median, most in one bucket, interleaved */
        for (size_t k = 0; k < 40; k++) {
            size_t off = (k * 17) % 40;
            size_t base = n / 2 > 20 ? n / 2 - 20 : 0;
            size_t v = base + off;
            r[count++] = v < n ? v : n - 1;
        }
        break;
    case EVERY:
        if (n <= 40)
            for (size_t k = n; k-- > 0;)
                r[count++] = k;
        break;
    case RANK_LISTS: break;
    }
    return count;
}

/* One data set with its pristine copy and the sorted mapped values (the oracle). */
typedef struct fixture {
    double *x, *pristine, *sorted, *work, *out;
    size_t n;
    enum shape shape;
    tally__value_map map;
    const char *map_name;
    uint64_t digest; /* multiset_digest of sorted */
} fixture;

static size_t case_count, select_ok, select_not_viable, fallback_count, failure_reports;

static void report(const fixture *f, const char *call, const char *ranks, const char *what)
{
    check_report(0, __FILE__, __LINE__, what);
    if (failure_reports++ < 20)
        fprintf(stderr, "  %s: shape %s, n %zu, map %s, ranks %s\n", call,
                shape_names[f->shape], f->n, f->map_name, ranks);
}

/* out[i] == sorted[r[i]] for every i. */
static int all_correct(const fixture *f, const double *out, const size_t *r, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!(out[i] == f->sorted[r[i]]))
            return 0;
    return 1;
}

/* An order-independent digest of a multiset of doubles (zeros of either sign count as one
 * value, as == sees them): the sum of a mixed form of each value's bits. */
static uint64_t multiset_digest(const double *v, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        double d = v[i] == 0 ? 0.0 : v[i];
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        sum += rng_splitmix64(&bits);
    }
    return sum;
}

/* v[0..n) holds the same values as the sorted oracle, in any order. */
static int is_oracle_permutation(const fixture *f, const double *v)
{
    return multiset_digest(v, f->n) == f->digest;
}

static void check_select_mapped(fixture *f, const size_t *r, size_t count, double lo, double hi,
                                const char *ranks)
{
    int rc = tally__select_mapped(f->out, f->x, f->n, r, count, &f->map, lo, hi);
    case_count++;
    if (memcmp(f->x, f->pristine, f->n * sizeof *f->x) != 0) {
        report(f, "select_mapped", ranks, "x unchanged after tally__select_mapped");
        memcpy(f->x, f->pristine, f->n * sizeof *f->x);
    }
    if (rc == TALLY_OK) {
        select_ok++;
        if (!all_correct(f, f->out, r, count))
            report(f, "select_mapped", ranks, "tally__select_mapped returned sorted[rank]");
    } else if (rc == TALLY__SELECT_NOT_VIABLE) {
        select_not_viable++;
    } else {
        report(f, "select_mapped", ranks, "tally__select_mapped returned OK or NOT_VIABLE");
    }
    /* Few samples over a real range: the histogram never applies. */
    if (f->n < THRESHOLD && lo < hi && rc != TALLY__SELECT_NOT_VIABLE)
        report(f, "select_mapped", ranks, "NOT_VIABLE below the threshold");
    /* Spread-out data and a few ranks: the histogram applies. */
    if (f->n >= THRESHOLD && f->shape == UNIFORM && !f->map.absdev && count <= 2 &&
        rc != TALLY_OK)
        report(f, "select_mapped", ranks, "OK on uniform data above the threshold");
}

static void check_order_stats(fixture *f, const size_t *r, size_t count, double lo, double hi,
                              const char *ranks)
{
    tally__scratch s;
    double *mapped = (double *)1;

    /* Copying: x untouched; a fallback leaves the mapped values (reordered) in the scratch. */
    tally__scratch_init(&s, NULL);
    int rc = tally__order_stats(f->out, f->x, f->n, r, count, &f->map, lo, hi, &s, &mapped);
    case_count++;
    if (rc != TALLY_OK || !all_correct(f, f->out, r, count))
        report(f, "order_stats (copy)", ranks, "tally__order_stats returned sorted[rank]");
    if (memcmp(f->x, f->pristine, f->n * sizeof *f->x) != 0) {
        report(f, "order_stats (copy)", ranks, "x unchanged after tally__order_stats");
        memcpy(f->x, f->pristine, f->n * sizeof *f->x);
    }
    if (rc == TALLY_OK && mapped != NULL) {
        fallback_count++;
        if (mapped != s.buf || mapped == f->x || !is_oracle_permutation(f, mapped))
            report(f, "order_stats (copy)", ranks, "*mapped holds the mapped values");
    }
    tally__scratch_free(&s);

    /* In place, the scratch being the samples: *mapped NULL (untouched) or the array itself. */
    double *inplace = malloc(f->n * sizeof *inplace);
    memcpy(inplace, f->x, f->n * sizeof *inplace);
    tally__scratch_init(&s, inplace);
    mapped = (double *)1;
    rc = tally__order_stats(f->out, inplace, f->n, r, count, &f->map, lo, hi, &s, &mapped);
    case_count++;
    if (rc != TALLY_OK || !all_correct(f, f->out, r, count))
        report(f, "order_stats (in place)", ranks, "tally__order_stats returned sorted[rank]");
    if (rc == TALLY_OK && mapped == NULL &&
        memcmp(inplace, f->pristine, f->n * sizeof *inplace) != 0)
        report(f, "order_stats (in place)", ranks, "*mapped NULL: x untouched");
    if (rc == TALLY_OK && mapped != NULL &&
        (mapped != inplace || !is_oracle_permutation(f, inplace)))
        report(f, "order_stats (in place)", ranks, "*mapped is x, holding the mapped values");
    tally__scratch_free(&s);
    free(inplace);
}

static void check_select_values(fixture *f, const size_t *r, size_t count, const char *ranks)
{
    for (size_t i = 0; i < f->n; i++)
        f->work[i] = tally__map_value(&f->map, f->x[i]);
    int rc = tally__select_values(f->out, f->work, f->n, r, count);
    case_count++;
    if (rc != TALLY_OK || !all_correct(f, f->out, r, count))
        report(f, "select_values", ranks, "tally__select_values returned sorted[rank]");
}

/* Bounds wider than the data on both sides, when they stay finite. */
static int widen(double *lo, double *hi)
{
    double l = *lo < 0 ? *lo * 2 : *lo * 0.5 - 1, h = *hi > 0 ? *hi * 2 : *hi * 0.5 + 1;
    if (!isfinite(l) || !isfinite(h))
        return 0;
    *lo = l;
    *hi = h;
    return 1;
}

/* The oracle: mapped values computed here (not with the code under test) and sorted. */
static int build_oracle(fixture *f)
{
    for (size_t i = 0; i < f->n; i++) {
        double v = f->x[i];
        if (f->map.absdev)
            v = fabs(v * f->map.scale - f->map.centre);
        if (!isfinite(v))
            return 0; /* outside the contract (mapped values finite) */
        f->sorted[i] = v;
    }
    qsort(f->sorted, f->n, sizeof *f->sorted, compare_double);
    f->digest = multiset_digest(f->sorted, f->n);
    return 1;
}

static void run_map(fixture *f)
{
    size_t r[MAX_RANKS];
    if (!build_oracle(f))
        return;
    double lo = f->sorted[0], hi = f->sorted[f->n - 1];
    for (int which = 0; which < RANK_LISTS; which++) {
        size_t count = make_ranks(r, f->n, (enum rank_list)which);
        if (count == 0)
            continue;
        const char *name = rank_list_names[which];
        check_select_mapped(f, r, count, lo, hi, name);
        if (which == MIXED || which == CLUSTERED)
            check_order_stats(f, r, count, lo, hi, name);
        if (which == PERCENTILES)
            check_select_values(f, r, count, name);
    }
    /* Looser bounds are within the contract: every mapped value inside [lo, hi]. The deviation
     * selections of the library use lo = 0. */
    size_t count = make_ranks(r, f->n, PERCENTILES);
    double wlo = f->map.absdev ? 0.0 : lo, whi = hi;
    if (f->map.absdev || widen(&wlo, &whi)) {
        check_select_mapped(f, r, count, wlo, whi, "100 percentiles, wide bounds");
        check_order_stats(f, r, count, wlo, whi, "100 percentiles, wide bounds");
    }
}

static void test_shapes(void)
{
    /* The largest size only for a few shapes: the whole test stays fast under valgrind. */
    static const size_t sizes[] = { 1, 2, 17, 2047, 2048, 2049, 16385, 100003, 200003 };
    const size_t nsizes = TALLY__COUNT(sizes), max_n = sizes[nsizes - 1];
    fixture f;
    f.x = malloc(max_n * sizeof *f.x);
    f.pristine = malloc(max_n * sizeof *f.pristine);
    f.sorted = malloc(max_n * sizeof *f.sorted);
    f.work = malloc(max_n * sizeof *f.work);
    f.out = malloc(MAX_RANKS * sizeof *f.out);
    uint64_t state = 0x5EEDF00Dull;

    for (int shape = 0; shape < SHAPES; shape++) {
        for (size_t k = 0; k < nsizes; k++) {
            f.n = sizes[k];
            if (f.n == max_n && shape != LOGNORMAL && shape != OUTLIER)
                continue;
            f.shape = (enum shape)shape;
            generate(f.x, f.n, f.shape, &state);
            memcpy(f.pristine, f.x, f.n * sizeof *f.x);

            f.map = (tally__value_map)TALLY__IDENTITY_MAP;
            f.map_name = "identity";
            run_map(&f);

            /* Absolute deviations from the median (f.sorted holds the data sorted), scale 1 and
             * 2^-3 (the library scales near-DBL_MAX data by a power of two; at the large sizes
             * only for the shapes where scaling changes the values' bits). */
            double median = f.sorted[(f.n - 1) / 2] * 0.5 + f.sorted[f.n / 2] * 0.5;
            static const double scales[] = { 1.0, 0x1p-3 };
            int scale_matters = shape == LOGNORMAL || shape == FULL_RANGE ||
                                shape == NEAR_MAX || shape == SUBNORMAL;
            for (size_t m = 0; m < (f.n <= THRESHOLD + 1 || scale_matters ? 2u : 1u); m++) {
                f.map = (tally__value_map){ 1, scales[m], median * scales[m] };
                f.map_name = m == 0 ? "absdev, scale 1" : "absdev, scale 2^-3";
                run_map(&f);
            }
        }
    }
    free(f.x);
    free(f.pristine);
    free(f.sorted);
    free(f.work);
    free(f.out);
}

/* One huge outlier squeezes the other samples into one bucket: the histogram must decline (or
 * be right), and the fallback must be right. Checked explicitly at a size above the threshold. */
static void test_outlier_declines(void)
{
    const size_t n = 50000;
    double *x = malloc(n * sizeof *x), *sorted = malloc(n * sizeof *sorted), out[2];
    uint64_t state = 7;
    for (size_t i = 0; i < n; i++)
        x[i] = 100.0 + rng_uniform(&state);
    x[12345] = 1e300;
    memcpy(sorted, x, n * sizeof *x);
    qsort(sorted, n, sizeof *sorted, compare_double);
    const size_t r[2] = { (n - 1) / 2, n / 2 };
    const tally__value_map id = TALLY__IDENTITY_MAP;
    int rc = tally__select_mapped(out, x, n, r, 2, &id, sorted[0], 1e300);
    CHECK(rc == TALLY__SELECT_NOT_VIABLE || (rc == TALLY_OK && out[0] == sorted[r[0]] &&
                                             out[1] == sorted[r[1]]));
    tally__scratch s;
    double *mapped;
    tally__scratch_init(&s, NULL);
    CHECK_INT(tally__order_stats(out, x, n, r, 2, &id, sorted[0], 1e300, &s, &mapped), TALLY_OK);
    CHECK(out[0] == sorted[r[0]] && out[1] == sorted[r[1]]);
    tally__scratch_free(&s);
    /* The outlier itself is alone in its bucket: rank n - 1 is 1e300 either way. */
    const size_t last = n - 1;
    rc = tally__select_mapped(out, x, n, &last, 1, &id, sorted[0], 1e300);
    CHECK(rc == TALLY__SELECT_NOT_VIABLE || (rc == TALLY_OK && out[0] == 1e300));
    free(x);
    free(sorted);
}

#ifdef TALLY_FAULT_INJECTION
#include "util/testing.h"

/* Allocation failures: tally__select_mapped may fail with TALLY_ENOMEM, a copying
 * tally__order_stats with TALLY_ENOMEM, an in-place one never (it falls back to the array);
 * whatever succeeds is right. */
static void test_allocation_failure(void)
{
    const size_t n = 50000;
    double *x = malloc(n * sizeof *x), *sorted = malloc(n * sizeof *sorted);
    double *work = malloc(n * sizeof *work), out[100], *mapped;
    size_t r[100];
    uint64_t state = 99;
    const tally__value_map id = TALLY__IDENTITY_MAP;
    tally__scratch s;
    for (size_t i = 0; i < n; i++)
        x[i] = rng_uniform(&state);
    memcpy(sorted, x, n * sizeof *x);
    qsort(sorted, n, sizeof *sorted, compare_double);
    size_t count = make_ranks(r, n, PERCENTILES);
    int bad = 0;
    for (long fail = 1; fail <= 4; fail++) {
        tally_testing_fail_allocation(fail);
        int rc = tally__select_mapped(out, x, n, r, count, &id, sorted[0], sorted[n - 1]);
        tally_testing_fail_allocation(0);
        for (size_t i = 0; rc == TALLY_OK && i < count; i++)
            bad += !(out[i] == sorted[r[i]]);
        bad += rc != TALLY_OK && rc != TALLY__SELECT_NOT_VIABLE && rc != TALLY_ENOMEM;

        tally__scratch_init(&s, NULL);
        tally_testing_fail_allocation(fail);
        rc = tally__order_stats(out, x, n, r, count, &id, sorted[0], sorted[n - 1], &s, &mapped);
        tally_testing_fail_allocation(0);
        for (size_t i = 0; rc == TALLY_OK && i < count; i++)
            bad += !(out[i] == sorted[r[i]]);
        bad += rc != TALLY_OK && rc != TALLY_ENOMEM;
        tally__scratch_free(&s);

        memcpy(work, x, n * sizeof *x);
        tally__scratch_init(&s, work);
        tally_testing_fail_allocation(fail);
        rc = tally__order_stats(out, work, n, r, count, &id, sorted[0], sorted[n - 1], &s,
                                &mapped);
        tally_testing_fail_allocation(0);
        CHECK_INT(rc, TALLY_OK);
        for (size_t i = 0; rc == TALLY_OK && i < count; i++)
            bad += !(out[i] == sorted[r[i]]);
        tally__scratch_free(&s);
    }
    CHECK_INT(bad, 0);
    free(x);
    free(sorted);
    free(work);
}
#endif

/* The fused MAD pass of outliers.c (tally__mad_pass_*), which brackets the MAD from the
 * histogram of the median's selection: whenever it answers, the MAD and the number of samples
 * the rule flags must be those of a brute force on a sorted copy (odd n: the median and the MAD
 * are single order statistics, and a sample is flagged when dev * (0.6745 / MAD) > 3.5, the
 * rule of Iglewicz & Hoaglin as outliers.c writes it); it must answer on smooth data. Blocks of
 * uneven sizes stand for the summary's sweep. */
static void test_mad_pass(void)
{
    static const size_t sizes[] = { 4097, 20001, 200001 };
    static const enum shape shapes[] = { UNIFORM, LOGNORMAL, DIGITS, TWO_VALUES, MIXED_SIGN,
                                         NARROW, OUTLIER, CLUSTERS, STEPS, ASCENDING, ORGAN_PIPE,
                                         NEAR_MAX };
    size_t answered = 0, smooth_answered = 0;
    uint64_t state = 2026;
    const tally__value_map id = TALLY__IDENTITY_MAP;
    for (size_t si = 0; si < TALLY__COUNT(sizes); si++) {
        size_t n = sizes[si];
        double *x = malloc(n * sizeof *x), *sorted = malloc(n * sizeof *sorted);
        double *devs = malloc(n * sizeof *devs);
        for (size_t k = 0; k < TALLY__COUNT(shapes); k++) {
            generate(x, n, shapes[k], &state);
            memcpy(sorted, x, n * sizeof *x);
            qsort(sorted, n, sizeof *sorted, compare_double);
            size_t mid = (n - 1) / 2, r[3] = { mid, n / 4, 3 * n / 4 };
            double out[3], *mapped;
            tally__scratch s;
            tally__scratch_init(&s, NULL);
            CHECK_INT(tally__order_stats(out, x, n, r, 3, &id, sorted[0], sorted[n - 1], &s,
                                         &mapped), TALLY_OK);
            tally__outlier_rule rule;
            tally__outlier_fences(&rule, fmax(fabs(sorted[0]), fabs(sorted[n - 1])), out[1],
                                  out[2], 1.5);
            tally__mad_pass pass;
            tally__mad_pass_begin(&pass, mapped ? NULL : &s.hist, n, &rule, sorted[0],
                                  sorted[n - 1], out[0], 3.5);
            for (size_t at = 0, len = 1; at < n; at += len, len = len * 3 + 1)
                tally__mad_pass_add(&pass, x + at, n - at < len ? n - at : len);
            size_t count = 0;
            int ok = tally__mad_pass_finish(&rule, &count, &pass);
            tally__mad_pass_free(&pass);
            tally__scratch_free(&s);
            if (!ok)
                continue;
            answered++;
            smooth_answered += shapes[k] == UNIFORM || shapes[k] == LOGNORMAL;
            double med = sorted[mid] * rule.scale;
            for (size_t i = 0; i < n; i++)
                devs[i] = fabs(x[i] * rule.scale - med);
            qsort(devs, n, sizeof *devs, compare_double);
            double mad = devs[mid], per_unit = 0.6745 / mad;
            size_t expected = 0;
            for (size_t i = 0; i < n; i++)
                expected += devs[i] * per_unit > 3.5;
            if (!(rule.spread == mad) || count != expected)
                printf("mad pass, %s n=%zu: MAD %.17g (expected %.17g), count %zu (expected "
                       "%zu)\n", shape_names[shapes[k]], n, rule.spread, mad, count, expected);
            CHECK(rule.spread == mad);
            CHECK_INT((long)count, (long)expected);
        }
        free(x);
        free(sorted);
        free(devs);
    }
    CHECK_INT((long)smooth_answered, 6);
    printf("mad pass answered %zu of %zu cases\n", answered,
           TALLY__COUNT(sizes) * TALLY__COUNT(shapes));
}

int main(void)
{
    test_shapes();
    test_mad_pass();
    test_outlier_declines();
#ifdef TALLY_FAULT_INJECTION
    test_allocation_failure();
#endif
    printf("%zu calls checked: tally__select_mapped OK %zu, NOT_VIABLE %zu; "
           "tally__order_stats fallbacks %zu\n",
           case_count, select_ok, select_not_viable, fallback_count);
    CHECK(case_count > 0);
    return check_summary();
}
