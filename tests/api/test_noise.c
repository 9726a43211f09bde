/* Noise profiles (tally/noise.h): the A/A calibration on simulated A/A data (seeded), the
 * interleaved split of one result set checked by hand, the file format read back and its
 * errors, and what a profile does to a report (margins, gate). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tally.h"

#define TEST_RNG_SEED 0x13198A2E03707344ull /* fixed seed */
#include "test_rng.h"

/* A result set `label` with `cases` cases of benchmark "sim" (s, lower is better), n runs each
 * from N(100, sd). */
static tally_resultset *simulated(const char *label, size_t cases, size_t n, double sd)
{
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    CHECK_INT(tally_resultset_new(&rs, label), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "sim", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    double x[64];
    for (size_t c = 0; c < cases; c++) {
        char name[32];
        snprintf(name, sizeof name, "%zu", c);
        tally_case *cs = NULL;
        CHECK_INT(tally_benchmark_case_add(&cs, b, name), TALLY_OK);
        for (size_t i = 0; i < n; i++)
            x[i] = 100 + sd * gauss();
        CHECK_INT(tally_case_append(cs, x, n), TALLY_OK);
    }
    return rs;
}

/* A/A on simulated data: 2,000 cases of 10 runs a side from one normal population, Welch at
 * alpha 0.05. Each row is a false alarm with probability 0.05, so the observed rate is
 * binomial(2000, 0.05) / 2000: SD sqrt(0.05 * 0.95 / 2000) = 0.0049, and the stated bound
 * alpha +- 0.015 is three SDs. The spread of the A/A change: pct = (1 - new/base) * 100 has SD
 * about 100 * 2 * sqrt(2 / 10) / 100 = 0.894 % (delta method, sd 2 around 100). */
static void test_simulated_aa(void)
{
    tally_results *res = NULL;
    CHECK_INT(tally_results_new(&res), TALLY_OK);
    CHECK_INT(tally_results_add(res, simulated("a", 2000, 10, 2.0)), TALLY_OK);
    CHECK_INT(tally_results_add(res, simulated("b", 2000, 10, 2.0)), TALLY_OK);
    tally_noise *noise = NULL;
    CHECK_INT(tally_calibrate(&noise, res, NULL), TALLY_OK);
    CHECK_INT((int)tally_noise_benchmark_count(noise), 1);
    tally_noise_benchmark b = { .size = sizeof b };
    CHECK_INT(tally_noise_benchmark_at(&b, noise, 0), TALLY_OK);
    CHECK_STR(b.name, "sim");
    CHECK_INT((int)b.rows, 2000);
    CHECK_INT((int)b.min_runs, 10);
    CHECK_ABS(b.alpha, 0.05, 0);
    CHECK(fabs(b.false_positive_rate - 0.05) <= 0.015);
    CHECK_REL(b.false_positive_rate, (double)b.significant / 2000.0, 1e-15);
    CHECK_REL(b.pct_rms, 0.894, 0.1);
    /* The widest interval end of 2,000 rows: beyond the largest |pct| the rows show, and
     * beyond the half-width of one row (t(0.975, ~18) * 0.894 = 2.1 %). */
    CHECK(b.margin_pct > 2.1 && b.margin_pct < 10);
    tally_noise_free(noise);
    tally_results_free(res);
}

/* One result set: the runs split into interleaved halves. Runs 1..8 of one case: odd runs
 * 1, 3, 5, 7 (mean 4) against even runs 2, 4, 6, 8 (mean 5); lower is better, so pct-imp is
 * (1 - 5/4) * 100 = -25 and with one row the RMS is 25. */
static void test_split(void)
{
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    tally_case *cs = NULL;
    CHECK_INT(tally_resultset_new(&rs, "one"), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "seq", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&cs, b, "1"), TALLY_OK);
    const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    CHECK_INT(tally_case_append(cs, x, 8), TALLY_OK);
    tally_results *res = NULL;
    CHECK_INT(tally_results_new(&res), TALLY_OK);
    CHECK_INT(tally_results_add(res, rs), TALLY_OK);
    tally_noise *noise = NULL;
    CHECK_INT(tally_calibrate(&noise, res, NULL), TALLY_OK);
    tally_noise_benchmark nb = { .size = sizeof nb };
    CHECK_INT(tally_noise_benchmark_at(&nb, noise, 0), TALLY_OK);
    CHECK_INT((int)nb.rows, 1);
    CHECK_INT((int)nb.min_runs, 4);
    CHECK_REL(nb.pct_rms, 25.0, 1e-12);
    CHECK(nb.margin_pct > 25.0);
    /* Welch of {1,3,5,7} against {2,4,6,8}: t = -1 / sqrt(20/3 / 4 * 2) = -0.5477, df 6,
     * p = 0.6036 (scipy 1.10.1: ttest_ind([1,3,5,7],[2,4,6,8],equal_var=False).pvalue
     * = 0.6036...): not significant. */
    CHECK_INT((int)nb.significant, 0);
    tally_noise_free(noise);
    /* Three runs split into halves of 2 and 1: too few. */
    tally_results_free(res);
    CHECK_INT(tally_resultset_new(&rs, "short"), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "seq", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&cs, b, "1"), TALLY_OK);
    CHECK_INT(tally_case_append(cs, x, 3), TALLY_OK);
    CHECK_INT(tally_results_new(&res), TALLY_OK);
    CHECK_INT(tally_results_add(res, rs), TALLY_OK);
    CHECK_INT(tally_calibrate(&noise, res, NULL), TALLY_ENODATA);
    CHECK(noise == NULL);
    tally_results_free(res);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_file(void)
{
    const char *path = TALLY_TEST_TMP "/noise.json";
    write_text(path, "{\"tally_noise\": 1, \"benchmarks\": [\n"
                     "  {\"name\": \"hackbench\", \"margin_pct\": 2.5, \"rows\": 5,\n"
                     "   \"significant\": 1, \"future_figure\": [1, 2]},\n"
                     "  {\"name\": \"stream\", \"margin_pct\": 0.75}]}\n");
    tally_noise *noise = NULL;
    CHECK_INT(tally_noise_load(&noise, path), TALLY_OK);
    double m = 0;
    CHECK_INT(tally_noise_margin(&m, noise, "stream"), TALLY_OK);
    CHECK_ABS(m, 0.75, 0);
    CHECK_INT(tally_noise_margin(&m, noise, "tbench"), TALLY_ENOTFOUND);
    /* Saved and read back: the same figures. */
    const char *again = TALLY_TEST_TMP "/noise-again.json";
    CHECK_INT(tally_noise_save(noise, again), TALLY_OK);
    tally_noise *back = NULL;
    CHECK_INT(tally_noise_load(&back, again), TALLY_OK);
    tally_noise_benchmark b = { .size = sizeof b };
    CHECK_INT(tally_noise_benchmark_at(&b, back, 0), TALLY_OK);
    CHECK_STR(b.name, "hackbench");
    CHECK_ABS(b.margin_pct, 2.5, 0);
    CHECK_INT((int)b.rows, 5);
    CHECK_INT((int)b.significant, 1);
    tally_noise_free(back);

    /* A report with the profile: hackbench rows take the margin 2.5 % as their equivalence
     * margin. Base 10, 10.1, 9.9, 10, 10.05, 9.95 and new 10.01 more each: pct-imp -0.1 %,
     * inside +-2.5 % with its interval: equivalent; without the profile inconclusive. */
    tally_resultset *a = NULL, *c = NULL;
    tally_benchmark *ba = NULL, *bc = NULL;
    tally_case *ca = NULL, *cc = NULL;
    const double xa[] = { 10, 10.1, 9.9, 10, 10.05, 9.95 };
    double xc[6];
    for (int i = 0; i < 6; i++)
        xc[i] = xa[i] * 1.001;
    CHECK_INT(tally_resultset_new(&a, "base"), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&ba, a, "hackbench", "s", TALLY_LOWER_IS_BETTER),
              TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&ca, ba, "1"), TALLY_OK);
    CHECK_INT(tally_case_append(ca, xa, 6), TALLY_OK);
    CHECK_INT(tally_resultset_new(&c, "new"), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&bc, c, "hackbench", "s", TALLY_LOWER_IS_BETTER),
              TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&cc, bc, "1"), TALLY_OK);
    CHECK_INT(tally_case_append(cc, xc, 6), TALLY_OK);
    tally_results *res = NULL;
    CHECK_INT(tally_results_new(&res), TALLY_OK);
    CHECK_INT(tally_results_add(res, a), TALLY_OK);
    CHECK_INT(tally_results_add(res, c), TALLY_OK);
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    tally_report *plain = NULL, *with = NULL;
    CHECK_INT(tally_report_new(&plain, res, &o), TALLY_OK);
    o.noise = noise;
    CHECK_INT(tally_report_new(&with, res, &o), TALLY_OK);
    tally_noise_free(noise); /* the report keeps copies */
    tally_comparison cmp = { .size = sizeof cmp };
    CHECK_INT(tally_report_cell_comparison(&cmp, plain, 0, 1), TALLY_OK);
    CHECK_INT(cmp.verdict, TALLY_VERDICT_INCONCLUSIVE);
    CHECK_INT(tally_report_cell_comparison(&cmp, with, 0, 1), TALLY_OK);
    CHECK_ABS(cmp.equivalence_pct, 2.5, 0);
    CHECK_INT(cmp.verdict, TALLY_VERDICT_EQUIVALENT);
    tally_report_free(plain);
    tally_report_free(with);
    tally_results_free(res);
}

/* Bad files: each refused with the file and where (line:col or JSON path). */
static void test_errors(void)
{
    static const struct {
        const char *text;
        int code;
        const char *where;
    } cases[] = {
        { "{\"tally_noise\": 1, \"benchmarks\": [}\n", TALLY_EPARSE, "noise-bad.json:2:1: unexpected end" },
        { "{\"benchmarks\": []}\n", TALLY_EFORMAT, "no \"tally_noise\" member" },
        { "{\"tally_noise\": 2, \"benchmarks\": []}\n", TALLY_EFORMAT, "$.tally_noise" },
        { "{\"tally_noise\": 1}\n", TALLY_EPARSE, "benchmarks" },
        { "{\"tally_noise\": 1, \"benchmarks\": [{\"name\": \"x\"}]}\n", TALLY_EPARSE,
          "$.benchmarks[0]" },
        { "{\"tally_noise\": 1, \"benchmarks\": [{\"name\": \"x\", \"margin_pct\": 100}]}\n",
          TALLY_EPARSE, "$.benchmarks[0].margin_pct" },
        { "{\"tally_noise\": 1, \"benchmarks\": [{\"name\": \"x\", \"margin_pct\": 1},\n"
          "{\"name\": \"x\", \"margin_pct\": 2}]}\n", TALLY_EPARSE, "$.benchmarks[1].name" },
        { "{\"tally_noise\": 1, \"benchmarks\": [{\"name\": \"x\", \"margin_pct\": 1, "
          "\"rows\": 1.5}]}\n", TALLY_EPARSE, "$.benchmarks[0].rows" },
        { "{\"tally_noise\": 1, \"benchmarks\": [{\"name\": \"x\", \"margin_pct\": 1, "
          "\"rows\": 1, \"significant\": 2}]}\n", TALLY_EPARSE, "$.benchmarks[0].significant" },
        { "[1]\n", TALLY_EFORMAT, "not a noise profile" },
    };
    const char *path = TALLY_TEST_TMP "/noise-bad.json";
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        write_text(path, cases[i].text);
        tally_noise *noise = NULL;
        CHECK_INT(tally_noise_load(&noise, path), cases[i].code);
        CHECK(noise == NULL);
        const char *msg = tally_error_last()->message;
        if (strstr(msg, cases[i].where) == NULL || strstr(msg, "noise-bad.json") == NULL)
            printf("case %zu: message '%s' lacks '%s'\n", i, msg, cases[i].where);
        CHECK(strstr(msg, cases[i].where) != NULL && strstr(msg, "noise-bad.json") != NULL);
    }
    tally_noise *noise = NULL;
    CHECK_INT(tally_noise_load(&noise, TALLY_TEST_TMP "/no-such-noise.json"), TALLY_EIO);
}

int main(void)
{
    test_simulated_aa();
    test_split();
    test_file();
    test_errors();
    return check_summary();
}
