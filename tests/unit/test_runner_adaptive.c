/*
 * Adaptive runs (docs/statistics.md, "Adaptive runs"): the look schedule and each look's level
 * against R, and a seeded simulation of the stopping rule itself (run/adaptive.c, the code the
 * runner calls at every look):
 *   - --against, A/A (true ratio 1): the rate of cases stopped as significant is at most
 *     alpha + 1.5 % (2,000 cases); the naive rule (every look at alpha) is shown to exceed it;
 *   - --against, a true change of exactly the margin: the rate of cases stopped as equivalent
 *     (the equivalence error) is at most alpha + 1.5 %;
 *   - --against, a true change of 3 % at CV 2 %: stopped as significant in at least 95 %;
 *   - --until-precision: coverage of the 95 % interval at the stop, and the runs it took,
 *     against the prediction n* = min { n : t_{0.975, n-1} CV / sqrt(n) <= d } (AMean, normal
 *     data), and the coverage of the GMean, HMean and Median intervals on lognormal data;
 * and resume of an adaptive sweep: cancelled before its stop, or killed between its last run
 * and the stop line, it finishes with the same runs and the same stop as an uninterrupted one.
 * Normal data from a fixed seed (splitmix64, Box-Muller): the same numbers every run.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run/adaptive.h"
#include "tally.h"

#define CASES 2000
#define NMAX 200

#define TEST_RNG_SEED 0x13198A2E03707344ull /* fixed seed */
#include "test_rng.h"

static void test_schedule(void)
{
    tally__adaptive a = { 0, 1, 0.05, 5, 5, 20 };
    CHECK_INT(tally__adaptive_looks(&a), 4); /* 5, 10, 15, 20 */
    CHECK_INT(tally__adaptive_look_runs(&a, 1), 5);
    CHECK_INT(tally__adaptive_look_runs(&a, 4), 20);
    CHECK_INT(tally__adaptive_look_at(&a, 15), 3);
    CHECK_INT(tally__adaptive_look_at(&a, 14), 0);
    CHECK_INT(tally__adaptive_look_at(&a, 4), 0);
    CHECK_INT(tally__adaptive_look_at(&a, 21), 0);
    /* Levels at t = 5/20, ..., 20/20, from R (A(t) as the upper tail, without cancellation):
     *   Rscript -e 'a<-0.05; t2<-c(5,10,15,20)/20; A<-2*pnorm(qnorm(1-a/2)/sqrt(t2),
     *               lower.tail=FALSE); A[4]<-a; options(digits=17); print(diff(c(0,A)))'
     *   [1] 8.8575438321404358e-05 5.4860212424630208e-03 1.8050524636816806e-02
     *   [4] 2.6374878682398770e-02 */
    static const double r[] = { 8.8575438321404358e-05, 5.4860212424630208e-03,
                                1.8050524636816806e-02, 2.6374878682398770e-02 };
    for (size_t k = 1; k <= 4; k++) {
        double lv = -1;
        CHECK_INT(tally__adaptive_level(&lv, &a, k), TALLY_OK);
        CHECK(fabs(lv - r[k - 1]) <= 1e-12 * r[k - 1]);
    }
    /* The most runs off the step: looks at 5, 10, 15, 20 and 22 (the last one always). */
    tally__adaptive b = { 0, 1, 0.05, 5, 5, 22 };
    CHECK_INT(tally__adaptive_looks(&b), 5);
    CHECK_INT(tally__adaptive_look_runs(&b, 5), 22);
    CHECK_INT(tally__adaptive_look_at(&b, 22), 5);
    CHECK_INT(tally__adaptive_look_at(&b, 20), 4);
    /* One look when the first is the last: the whole alpha. */
    tally__adaptive c = { 0, 1, 0.05, 10, 5, 10 };
    double lv;
    CHECK_INT(tally__adaptive_looks(&c), 1);
    CHECK_INT(tally__adaptive_level(&lv, &c, 1), TALLY_OK);
    CHECK(lv == 0.05);
}

/* One simulated --against case: baseline of nb runs (mean 100, SD sd), new runs of mean mu
 * added look by look. Returns the stop; *runs the runs at the stop. */
static tally__stop against_case(const tally__adaptive *a, size_t nb, double mu, double sd,
                                size_t *runs)
{
    double base[NMAX], x[NMAX];
    for (size_t i = 0; i < nb; i++)
        base[i] = 100 + sd * gauss();
    for (size_t i = 0; i < a->max_runs; i++)
        x[i] = mu + sd * gauss();
    size_t looks = tally__adaptive_looks(a);
    for (size_t k = 1; k <= looks; k++) {
        size_t n = tally__adaptive_look_runs(a, k);
        tally__adaptive_cell cell = { x, n, base, nb, TALLY_STAT_AMEAN, TALLY_LOWER_IS_BETTER };
        tally__stop s;
        if (tally__adaptive_decide(&s, NULL, a, k, &cell, 1) != TALLY_OK) {
            CHECK(0);
            return TALLY__STOP_CONTINUE;
        }
        if (s != TALLY__STOP_CONTINUE) {
            *runs = n;
            return s;
        }
    }
    CHECK(0); /* the last look always stops */
    return TALLY__STOP_CONTINUE;
}

/* The naive rule for contrast: Welch at alpha at every look, stop at the first significance. */
static int naive_case(const tally__adaptive *a, size_t nb, double sd)
{
    double base[NMAX], x[NMAX];
    for (size_t i = 0; i < nb; i++)
        base[i] = 100 + sd * gauss();
    for (size_t i = 0; i < a->max_runs; i++)
        x[i] = 100 + sd * gauss();
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.alpha = a->alpha;
    for (size_t k = 1; k <= tally__adaptive_looks(a); k++) {
        tally_comparison c = { .size = sizeof c };
        if (tally_compare(&c, base, nb, x, tally__adaptive_look_runs(a, k), &o) != TALLY_OK)
            return 0;
        if (c.significant)
            return 1;
    }
    return 0;
}

static void test_against(void)
{
    /* Baseline 20 runs, CV 2 %; new runs: first look at 5, every 5, at most 50; margin 1 %. */
    tally__adaptive a = { 0, 1.0, 0.05, 5, 5, 50 };
    size_t sig = 0, eq = 0, runs_sum = 0, naive = 0;
    for (int i = 0; i < CASES; i++) {
        size_t n = 0;
        tally__stop s = against_case(&a, 20, 100, 2, &n);
        sig += s == TALLY__STOP_SIGNIFICANT;
        eq += s == TALLY__STOP_EQUIVALENT;
        runs_sum += n;
    }
    for (int i = 0; i < CASES; i++)
        naive += naive_case(&a, 20, 2);
    printf("A/A: %zu of %d significant (%.2f %%), %zu equivalent, mean runs %.1f; naive rule "
           "%.2f %%\n", sig, CASES, 100.0 * sig / CASES, eq, (double)runs_sum / CASES,
           100.0 * naive / CASES);
    CHECK((double)sig / CASES <= 0.05 + 0.015);
    /* Testing every look at alpha inflates the A/A rate: the reason for the spending rule. */
    CHECK((double)naive / CASES > 0.05 + 0.015);

    /* A true change of exactly the margin (1 % slower): calling it equivalent is the error. */
    size_t eq_err = 0;
    for (int i = 0; i < CASES; i++) {
        size_t n = 0;
        eq_err += against_case(&a, 20, 101, 2, &n) == TALLY__STOP_EQUIVALENT;
    }
    printf("true change = margin: %zu of %d equivalent (%.2f %%)\n", eq_err, CASES,
           100.0 * eq_err / CASES);
    CHECK((double)eq_err / CASES <= 0.05 + 0.015);

    /* A real change of 3 % at CV 2 %: found, and early. */
    size_t found = 0;
    runs_sum = 0;
    for (int i = 0; i < CASES; i++) {
        size_t n = 0;
        found += against_case(&a, 20, 103, 2, &n) == TALLY__STOP_SIGNIFICANT;
        runs_sum += n;
    }
    printf("true change 3 %%: %zu of %d significant (%.2f %%), mean runs %.1f\n", found, CASES,
           100.0 * found / CASES, (double)runs_sum / CASES);
    CHECK((double)found / CASES >= 0.95);
    CHECK((double)runs_sum / CASES < 25);
}

/* --until-precision on normal data, CV cv %, precision d %: coverage of the 95 % interval of
 * the mean at the stop, and the runs, against n* (from R, the comment at each call). */
static void precision_cell(double cv, double d, size_t min_runs, size_t nstar, double cover_lo,
                           double mean_lo, double mean_hi)
{
    tally__adaptive a = { d / 100, 0, 0.05, (unsigned)min_runs, 1, NMAX };
    double x[NMAX];
    size_t covered = 0, runs_sum = 0, capped = 0;
    for (int i = 0; i < CASES; i++) {
        for (size_t j = 0; j < NMAX; j++)
            x[j] = 100 + cv * gauss();
        size_t n = 0;
        for (size_t k = 1; k <= tally__adaptive_looks(&a); k++) {
            n = tally__adaptive_look_runs(&a, k);
            tally__adaptive_cell cell = { x, n, NULL, 0, TALLY_STAT_AMEAN,
                                          TALLY_LOWER_IS_BETTER };
            tally__stop s;
            CHECK_INT(tally__adaptive_decide(&s, NULL, &a, k, &cell, 1), TALLY_OK);
            if (s != TALLY__STOP_CONTINUE) {
                capped += s == TALLY__STOP_MAX_RUNS;
                break;
            }
        }
        tally_summary sm = { .size = sizeof sm };
        CHECK_INT(tally_summarize(&sm, x, n, NULL), TALLY_OK);
        covered += sm.mean_ci_low <= 100 && 100 <= sm.mean_ci_high;
        runs_sum += n;
    }
    double cover = (double)covered / CASES, mean = (double)runs_sum / CASES;
    printf("precision %g %% at CV %g %%, first look %zu: coverage %.2f %%, mean runs %.1f "
           "(n* = %zu), %zu at the cap\n", d, cv, min_runs, 100 * cover, mean, nstar, capped);
    CHECK(cover >= cover_lo);
    CHECK(mean >= mean_lo && mean <= mean_hi);
    CHECK_INT(capped, 0);
}

/* --until-precision 2 % on lognormal data (log SD s): coverage at the stop of the interval the
 * rule uses for GMean, HMean and Median rows, against the exact population values
 * GMean = median = exp(mu), HMean = exp(mu - s^2 / 2) (mu = log 100). */
static void precision_lognormal(tally_statistic stat, double s, double cover_lo)
{
    tally__adaptive a = { 0.02, 0, 0.05, 5, 1, NMAX };
    double mu = log(100), truth = stat == TALLY_STAT_HMEAN ? exp(mu - s * s / 2) : exp(mu);
    double x[NMAX];
    size_t covered = 0, runs_sum = 0, capped = 0;
    for (int i = 0; i < CASES; i++) {
        for (size_t j = 0; j < NMAX; j++)
            x[j] = exp(mu + s * gauss());
        size_t n = 0;
        for (size_t k = 1; k <= tally__adaptive_looks(&a); k++) {
            n = tally__adaptive_look_runs(&a, k);
            tally__adaptive_cell cell = { x, n, NULL, 0, stat, TALLY_LOWER_IS_BETTER };
            tally__stop st;
            CHECK_INT(tally__adaptive_decide(&st, NULL, &a, k, &cell, 1), TALLY_OK);
            if (st != TALLY__STOP_CONTINUE) {
                capped += st == TALLY__STOP_MAX_RUNS;
                break;
            }
        }
        double h, b[2] = { 0, 0 };
        int defined = 0;
        CHECK_INT(tally__adaptive_precision(&h, &defined, b, x, n, stat, 0.95), TALLY_OK);
        covered += defined && b[0] <= truth && truth <= b[1];
        runs_sum += n;
    }
    double cover = (double)covered / CASES;
    printf("precision 2 %% of the %s, lognormal s = %g: coverage %.2f %%, mean runs %.1f, %zu at "
           "the cap\n", tally_statistic_name(stat), s, 100 * cover, (double)runs_sum / CASES,
           capped);
    CHECK(cover >= cover_lo);
    CHECK_INT(capped, 0);
}

static void test_precision(void)
{
    /* n* from R:
     *   Rscript -e 'ns<-function(cv,d){n<-2; while(qt(0.975,n-1)*cv/sqrt(n) > d) n<-n+1; n};
     *               for (cv in c(1,2,3)) cat(cv, ns(cv,1), "\n")'
     *   1 7
     *   2 18
     *   3 38 */
    precision_cell(2, 1, 5, 18, 0.91, 14, 19);
    precision_cell(3, 1, 5, 38, 0.91, 32, 39);
    precision_cell(2, 1, 10, 18, 0.93, 15, 19);
    precision_lognormal(TALLY_STAT_GMEAN, 0.04, 0.90);
    precision_lognormal(TALLY_STAT_HMEAN, 0.04, 0.90);
    precision_lognormal(TALLY_STAT_MEDIAN, 0.04, 0.90);
}

#define RDIR TALLY_TEST_TMP "/adaptive_resume"
/* The exec command: the next line of RDIR/values per run (a counter in RDIR/count). */
static const char *const next_value[] = {
    "sh", "-c",
    "n=$(cat " RDIR "/count 2>/dev/null || echo 0); echo $((n + 1)) >" RDIR "/count; "
    "sed -n \"$((n + 1))p\" " RDIR "/values",
    NULL
};

static const char *const value_params[] = { "metric=([0-9.]+)" };

static int cancel_after; /* cancel once this many runs finished; 0: never */

static int on_progress(void *user, const tally_run_progress *p)
{
    (void)user;
    return p->phase == TALLY_RUN_FINISHED && cancel_after > 0 && p->done >= (size_t)cancel_after;
}

static void adaptive_options(tally_runner_options *o, const char *out, int resume)
{
    tally_runner_options d = TALLY_RUNNER_OPTIONS_INIT;
    *o = d;
    o->workload = TALLY_WORKLOAD_EXEC;
    o->command = next_value;
    o->params = value_params;
    o->param_count = 1;
    o->runs = 60;
    o->warmup = 0;
    o->until_precision = 1;
    o->min_runs = 5;
    o->look_every = 1;
    o->output = out;
    o->resume = resume;
    o->force = !resume;
    o->progress = on_progress;
}

static int run_sweep(const char *out, int resume, tally_results **results)
{
    tally_runner_options o;
    adaptive_options(&o, out, resume);
    tally_runner *r = NULL;
    int rc = tally_runner_new(&r, &o);
    if (rc == TALLY_OK)
        rc = tally_runner_run(r);
    if (rc == TALLY_OK && results)
        rc = tally_runner_take_results(results, r);
    tally_runner_free(r);
    return rc;
}

static const tally_case *only_case(const tally_results *res)
{
    const tally_benchmark *b = tally_resultset_benchmark_at(tally_results_at(res, 0), 0);
    return b ? tally_benchmark_case_at(b, 0) : NULL;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

static void test_resume(void)
{
    CHECK(system("rm -rf " RDIR " && mkdir -p " RDIR) == 0);
    FILE *v = fopen(RDIR "/values", "w");
    CHECK(v != NULL);
    if (v == NULL)
        return;
    for (int i = 0; i < 60; i++)
        fprintf(v, "%.6f\n", 100 + 2 * gauss());
    fclose(v);

    /* Uninterrupted. */
    tally_results *full = NULL, *resumed = NULL, *crashed = NULL;
    cancel_after = 0;
    CHECK_INT(run_sweep(RDIR "/full.json", 0, &full), TALLY_OK);
    const tally_case *fc = only_case(full);
    CHECK(fc != NULL);
    if (fc == NULL)
        return;
    size_t n = tally_case_sample_count(fc);
    CHECK(n >= 7 && n < 60); /* cancelled below at n - 2 >= 5: at or after the first look */
    CHECK_STR(tally_case_meta_get(fc, "adaptive.stop"), "precision");
    printf("uninterrupted: stopped after %zu runs (%s)\n", n,
           tally_case_meta_get(fc, "adaptive.detail"));

    /* Cancelled two runs before the stop, then resumed. */
    CHECK(system("rm -f " RDIR "/count") == 0);
    cancel_after = (int)n - 2;
    CHECK_INT(run_sweep(RDIR "/part.json", 0, NULL), TALLY_EINTERRUPTED);
    cancel_after = 0;
    CHECK_INT(run_sweep(RDIR "/part.json", 1, &resumed), TALLY_OK);
    const tally_case *rc = only_case(resumed);
    CHECK(rc != NULL && tally_case_sample_count(rc) == n);
    if (rc != NULL && tally_case_sample_count(rc) == n)
        CHECK(memcmp(tally_case_samples(rc), tally_case_samples(fc), n * sizeof(double)) == 0);
    CHECK_STR(rc ? tally_case_meta_get(rc, "adaptive.detail") : "",
              tally_case_meta_get(fc, "adaptive.detail"));

    /* Killed between the last run's line and the stop line: the journal without its stop line
     * resumes to the same stop, running nothing (the counter would show a run). */
    char *journal = slurp(RDIR "/full.json.journal");
    CHECK(journal != NULL);
    if (journal == NULL)
        return;
    char *stop = strstr(journal, "{\"stop\"");
    CHECK(stop != NULL);
    char *stop_line = stop ? strdup(stop) : NULL;
    if (stop)
        *stop = '\0';
    FILE *j = fopen(RDIR "/crash.json.journal", "w");
    CHECK(j != NULL);
    if (j) {
        fputs(journal, j);
        fclose(j);
    }
    CHECK(system("echo 1000 >" RDIR "/count") == 0);
    CHECK_INT(run_sweep(RDIR "/crash.json", 1, &crashed), TALLY_OK);
    const tally_case *cc = only_case(crashed);
    CHECK(cc != NULL && tally_case_sample_count(cc) == n);
    char *count = slurp(RDIR "/count");
    CHECK_STR(count ? count : "", "1000\n");
    char *after = slurp(RDIR "/crash.json.journal");
    CHECK(after != NULL && stop_line != NULL && strstr(after, stop_line) != NULL);
    free(after);
    free(count);
    free(stop_line);
    free(journal);
    tally_results_free(full);
    tally_results_free(resumed);
    tally_results_free(crashed);
}

int main(void)
{
    test_schedule();
    test_against();
    test_precision();
    test_resume();
    return check_summary();
}
