/*
 * A minimal test harness: each test program includes this header, calls CHECK* macros from
 * functions listed in main(), and returns check_summary(). Expected values in the tests always
 * come from an independent source named in a comment next to them.
 */
#ifndef TALLY_TESTS_CHECK_H
#define TALLY_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The one array-count macro (the library's, header-only), found next to this file, so that the
 * public-API tests need no libstat/ include path. */
#include "../libstat/util/count.h"

static int check_passed;
static int check_failed;

static void check_report(int ok, const char *file, int line, const char *what)
{
    if (ok) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    }
}

#define CHECK(cond) check_report(!!(cond), __FILE__, __LINE__, #cond)

#define CHECK_INT(actual, expected)                                                      \
    do {                                                                                 \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                  \
        if (a_ != e_)                                                                    \
            fprintf(stderr, "  %s = %lld, expected %lld\n", #actual, a_, e_);            \
        check_report(a_ == e_, __FILE__, __LINE__, #actual " == " #expected);            \
    } while (0)

/* |actual - expected| <= rel * |expected| (or <= rel when expected is 0). */
#define CHECK_REL(actual, expected, rel)                                                  \
    do {                                                                                  \
        double a_ = (actual), e_ = (expected);                                            \
        double tol_ = (rel) * (e_ != 0 ? fabs(e_) : 1.0);                                 \
        int ok_ = fabs(a_ - e_) <= tol_;                                                  \
        if (!ok_)                                                                         \
            fprintf(stderr, "  %s = %.17g, expected %.17g (rel %.3g)\n", #actual, a_, e_, \
                    (double)(rel));                                                       \
        check_report(ok_, __FILE__, __LINE__, #actual " ~ " #expected);                   \
    } while (0)

/* |actual - expected| <= abs_tol. */
#define CHECK_ABS(actual, expected, abs_tol)                                              \
    do {                                                                                  \
        double a_ = (actual), e_ = (expected);                                            \
        int ok_ = fabs(a_ - e_) <= (abs_tol);                                             \
        if (!ok_)                                                                         \
            fprintf(stderr, "  %s = %.17g, expected %.17g (abs %.3g)\n", #actual, a_, e_, \
                    (double)(abs_tol));                                                   \
        check_report(ok_, __FILE__, __LINE__, #actual " ~ " #expected);                   \
    } while (0)

#define CHECK_STR(actual, expected)                                                      \
    do {                                                                                 \
        const char *a_ = (actual), *e_ = (expected);                                     \
        int ok_ = a_ && e_ && strcmp(a_, e_) == 0;                                       \
        if (!ok_)                                                                        \
            fprintf(stderr, "  %s = \"%s\", expected \"%s\"\n", #actual, a_ ? a_ : "(null)", \
                    e_ ? e_ : "(null)");                                                 \
        check_report(ok_, __FILE__, __LINE__, #actual " == " #expected);                \
    } while (0)

/* Prints the closing line CI reads and returns the exit status. */
static int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed == 0 && check_passed > 0 ? 0 : 1;
}

#endif /* TALLY_TESTS_CHECK_H */
