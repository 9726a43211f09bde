/* Numbers read and written the same whatever the process's locale. The program calls
 * setlocale(LC_ALL, "de_DE.UTF-8") (a comma-decimal locale, built by the number_locale_setup
 * fixture with localedef into the build tree, found through LOCPATH), as a program embedding
 * libtally may, and checks that every reader gives the same doubles and every output the same
 * bytes as under the C locale: plain, CSV, native JSON and hyperfine input; the native JSON
 * writer; text (table, mmtests, normalized, pct), JSON, CSV and Markdown reports; error messages
 * with numbers in them; a built-in workload run (its child prints its values); and an XLSX
 * report, whose cells number_locale_xlsx compares afterwards. Expected values are the literals
 * of the inputs (0.5 is one half). */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_report_common.h"

#define OUTPUTS 16

typedef struct run {
    char *text[OUTPUTS]; /* outputs, in a fixed order */
    double values[64];
    size_t nvalues;
} run;

static void take_samples(run *out, const tally_results *list)
{
    for (size_t i = 0; i < tally_results_count(list); i++) {
        const tally_resultset *rs = tally_results_at(list, i);
        for (size_t b = 0; b < tally_resultset_benchmark_count(rs); b++) {
            const tally_benchmark *bench = tally_resultset_benchmark_at(rs, b);
            for (size_t c = 0; c < tally_benchmark_case_count(bench); c++) {
                const tally_case *cs = tally_benchmark_case_at(bench, c);
                for (size_t k = 0; k < tally_case_sample_count(cs); k++)
                    if (out->nvalues < 64)
                        out->values[out->nvalues++] = tally_case_samples(cs)[k];
            }
        }
    }
}

static tally_results *load(const char *text, tally_input_kind kind, const char *label)
{
    tally_results *list = NULL;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.kind = kind;
    o.label = label;
    int rc = tally_load_buffer(list, text, strlen(text), "input", &o);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  %s\n", tally_error_last()->message);
    return list;
}

static const char plain[] = "0.5\n0.25\n1.2345678901234567\n3e-5\n-2.5E+2\n";
static const char csv[] = "benchmark,case,config,value\nb,c,base,0.5\nb,c,base,0.125\n"
                          "b,c,new,0.30000000000000004\nb,c,new,1.5\n";
static const char native[] =
    "{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": \"x\", "
    "\"benchmarks\": [{\"name\": \"b\", \"cases\": [{\"name\": \"c\", "
    "\"samples\": [0.5, 0.25, 0.75, 0.005981193679999999]}]}]}]}";
static const char hyperfine[] =
    "{\"results\": [{\"command\": \"sleep 0.1\", \"mean\": 0.5, \"stddev\": 0.25, "
    "\"median\": 0.5, \"user\": 0.001, \"system\": 0.002, \"min\": 0.25, \"max\": 0.75, "
    "\"times\": [0.25, 0.5, 0.75], \"exit_codes\": [0, 0, 0]}]}";

/* Every reader, writer and report under the current locale. */
static void run_all(run *out, const char *xlsx_path)
{
    memset(out, 0, sizeof(*out));
    size_t t = 0;
    tally_results *inputs[4] = { load(plain, TALLY_INPUT_PLAIN, "p"), load(csv, TALLY_INPUT_CSV, NULL),
                                 load(native, TALLY_INPUT_NATIVE_JSON, NULL),
                                 load(hyperfine, TALLY_INPUT_HYPERFINE, NULL) };
    for (int i = 0; i < 4; i++) {
        take_samples(out, inputs[i]);
        size_t len;
        CHECK_INT(tally_results_to_json(&out->text[t++], &len, inputs[i]), TALLY_OK);
        tally_results_free(inputs[i]);
    }

    tally_results *list = build_fixture();
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, &ro), TALLY_OK);
    static const struct { tally_format f; tally_style s; } kinds[] = {
        { TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE },      { TALLY_FORMAT_TEXT, TALLY_STYLE_MMTESTS },
        { TALLY_FORMAT_TEXT, TALLY_STYLE_NORMALIZED }, { TALLY_FORMAT_TEXT, TALLY_STYLE_PCT },
        { TALLY_FORMAT_JSON, TALLY_STYLE_TABLE },      { TALLY_FORMAT_CSV, TALLY_STYLE_TABLE },
        { TALLY_FORMAT_MARKDOWN, TALLY_STYLE_TABLE },
        /* the plots' tooltips and axis labels */
        { TALLY_FORMAT_HTML, TALLY_STYLE_TABLE },
    };
    for (size_t k = 0; k < TALLY__COUNT(kinds); k++) {
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.format = kinds[k].f;
        o.style = kinds[k].s;
        size_t len;
        CHECK_INT(tally_report_render(&out->text[t++], &len, r, &o), TALLY_OK);
    }
    tally_render_options xo = TALLY_RENDER_OPTIONS_INIT;
    xo.format = TALLY_FORMAT_XLSX;
    CHECK_INT(tally_report_write(r, xlsx_path, &xo), TALLY_OK);
    tally_report_free(r);
    tally_results_free(list);

    /* A message with a number in it. */
    double x[2] = { 1, 2 }, p = 150.5, pct;
    CHECK(tally_percentiles(&pct, x, 2, &p, 1, TALLY_PERCENTILE_LINEAR) != TALLY_OK);
    out->text[t++] = strdup(tally_error_last()->message);

    /* A built-in workload: its child process prints the measured value, the runner reads it. */
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    const char *params[] = { "loops=5" };
    o.workload = TALLY_WORKLOAD_HACKBENCH;
    o.sweep = "1";
    o.runs = 2;
    o.params = params;
    o.param_count = 1;
    o.timeout = 60;
    o.label = "tip";
    tally_runner *rn = NULL;
    CHECK_INT(tally_runner_new(&rn, &o), TALLY_OK);
    int rc = rn ? tally_runner_run(rn) : TALLY_ERROR;
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  workload: %s\n", tally_error_last()->message);
    const tally_resultset *rs = rn ? tally_runner_resultset(rn) : NULL;
    const tally_benchmark *b = rs ? tally_resultset_benchmark_at(rs, 0) : NULL;
    const tally_case *c = b ? tally_benchmark_case_at(b, 0) : NULL;
    CHECK(c != NULL && tally_case_sample_count(c) == 2);
    if (c != NULL) {
        CHECK(tally_case_meta_get(c, "failed_runs") == NULL);
        for (size_t k = 0; k < tally_case_sample_count(c); k++)
            CHECK(isfinite(tally_case_samples(c)[k]) && tally_case_samples(c)[k] > 0);
    }
    tally_runner_free(rn);
    CHECK(t <= OUTPUTS);
}

static void free_run(run *r)
{
    for (int i = 0; i < OUTPUTS; i++)
        free(r->text[i]);
}

int main(void)
{
    char c_xlsx[512], de_xlsx[512];
    snprintf(c_xlsx, sizeof(c_xlsx), "%s/number_locale_c.xlsx", TALLY_TEST_TMP);
    snprintf(de_xlsx, sizeof(de_xlsx), "%s/number_locale_de.xlsx", TALLY_TEST_TMP);

    CHECK(setlocale(LC_ALL, "C") != NULL);
    run c_run;
    run_all(&c_run, c_xlsx);
    /* The inputs' own literals, in the order of the files. */
    static const double expected[] = { 0.5, 0.25, 1.2345678901234567, 3e-5, -2.5e2,
                                       0.5, 0.125, 0.30000000000000004, 1.5,
                                       0.5, 0.25, 0.75, 0.005981193679999999,
                                       0.25, 0.5, 0.75 };
    size_t n_expected = TALLY__COUNT(expected);
    CHECK_INT(c_run.nvalues, n_expected);
    for (size_t i = 0; i < n_expected && i < c_run.nvalues; i++)
        CHECK(memcmp(&c_run.values[i], &expected[i], sizeof(double)) == 0);
    CHECK(strstr(c_run.text[2], "[0.5, 0.25, 0.75, 0.005981193679999999]") != NULL);
    CHECK(strstr(c_run.text[12], "150.5") != NULL);

    /* The comma locale, really in effect for the C library. */
    const char *got = setlocale(LC_ALL, "de_DE.UTF-8");
    CHECK(got != NULL);
    if (got == NULL) {
        fprintf(stderr, "  de_DE.UTF-8 is not available (LOCPATH=%s)\n",
                getenv("LOCPATH") ? getenv("LOCPATH") : "unset");
        free_run(&c_run);
        return check_summary();
    }
    char probe[16];
    snprintf(probe, sizeof(probe), "%.1f", 0.5);
    CHECK_STR(probe, "0,5");
    CHECK_STR(localeconv()->decimal_point, ",");

    run de_run;
    run_all(&de_run, de_xlsx);
    CHECK_INT(de_run.nvalues, c_run.nvalues);
    for (size_t i = 0; i < c_run.nvalues && i < de_run.nvalues; i++)
        CHECK(memcmp(&de_run.values[i], &c_run.values[i], sizeof(double)) == 0);
    for (int i = 0; i < OUTPUTS; i++) {
        if (c_run.text[i] == NULL && de_run.text[i] == NULL)
            continue;
        int same = c_run.text[i] && de_run.text[i] && strcmp(c_run.text[i], de_run.text[i]) == 0;
        if (!same)
            fprintf(stderr, "  output %d differs under de_DE:\n%.300s\n", i,
                    de_run.text[i] ? de_run.text[i] : "(none)");
        CHECK(same);
    }
    /* The locale is the caller's: still in effect afterwards. */
    snprintf(probe, sizeof(probe), "%.1f", 0.5);
    CHECK_STR(probe, "0,5");
    free_run(&c_run);
    free_run(&de_run);
    return check_summary();
}
