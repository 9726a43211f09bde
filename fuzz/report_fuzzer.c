/*
 * The report pipeline: load (any format), build a report, render every style and format.
 * The input picks the report and render options through a hash of its bytes, so every option
 * value is reached without a separate encoding. When the input holds one configuration, a second
 * one is derived from it (samples scaled by 1.05) so that comparisons run.
 * Invariants: a report either builds or fails with a documented data error (TALLY_ENODATA,
 * TALLY_EDOMAIN, TALLY_EMISMATCH) and a message; every cell value, comparison and geomean is
 * finite, p-values lie in [0, 1]; every text style and every in-memory format renders non-empty,
 * NUL-terminated output of the reported length; JSON output is valid JSON; XLSX writes a file
 * (for every corpus input on replay, for one input in eight while fuzzing).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fuzz_support.h"

/* FNV-1a: a stable way to turn the input into option choices. */
static uint64_t hash_bytes(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211ull;
    return h;
}

static unsigned pick(uint64_t *h, unsigned count)
{
    unsigned v = (unsigned)(*h % count);
    *h /= count;
    return v;
}

/* A copy of the first result set with every sample scaled, as a second configuration. */
static void add_scaled_copy(tally_results *list)
{
    const tally_resultset *src = tally_results_at(list, 0);
    tally_resultset *copy = NULL;
    FUZZ_CHECK(tally_resultset_new(&copy, "fuzz-derived-new") == TALLY_OK, "new result set");
    for (size_t i = 0; i < tally_resultset_benchmark_count(src); i++) {
        const tally_benchmark *b = tally_resultset_benchmark_at(src, i);
        tally_benchmark *nb = NULL;
        FUZZ_CHECK(tally_resultset_benchmark_add(&nb, copy, tally_benchmark_name(b),
                                                 tally_benchmark_unit(b),
                                                 tally_benchmark_direction(b)) == TALLY_OK,
                   "copy a benchmark");
        FUZZ_CHECK(tally_benchmark_set_statistic(nb, tally_benchmark_statistic(b)) == TALLY_OK,
                   "copy the statistic");
        for (size_t j = 0; j < tally_benchmark_case_count(b); j++) {
            const tally_case *c = tally_benchmark_case_at(b, j);
            tally_case *nc = NULL;
            FUZZ_CHECK(tally_benchmark_case_add(&nc, nb, tally_case_name(c)) == TALLY_OK,
                       "copy a case");
            const double *x = tally_case_samples(c);
            for (size_t k = 0; k < tally_case_sample_count(c); k++) {
                double y = x[k] * 1.05;
                if (!isfinite(y))
                    y = x[k];
                FUZZ_CHECK(tally_case_append(nc, &y, 1) == TALLY_OK, "copy a sample");
            }
        }
    }
    if (tally_results_add(list, copy) != TALLY_OK)
        tally_resultset_free(copy); /* the label is taken: the input has it already */
}

static void check_cells(const tally_report *r)
{
    size_t configs = tally_report_config_count(r);
    for (size_t i = 0; i < tally_report_row_count(r); i++) {
        tally_report_row row = { .size = sizeof row };
        FUZZ_CHECK(tally_report_row_at(&row, r, i) == TALLY_OK, "row");
        FUZZ_CHECK(row.statistic != TALLY_STAT_DEFAULT, "a row names its statistic");
        for (size_t j = 0; j < configs; j++) {
            tally_report_cell cell = { .size = sizeof cell };
            FUZZ_CHECK(tally_report_cell_at(&cell, r, i, j) == TALLY_OK, "cell");
            if (!cell.present)
                continue;
            FUZZ_CHECK(isfinite(cell.value), "a present cell's value is finite");
            tally_summary summary = { .size = sizeof summary };
            FUZZ_CHECK(tally_report_cell_summary(&summary, r, i, j) == TALLY_OK &&
                           summary.size == sizeof summary && summary.n > 0,
                       "a present cell has a whole summary");
            if (!cell.compared)
                continue;
            tally_comparison comparison = { .size = sizeof comparison };
            FUZZ_CHECK(tally_report_cell_comparison(&comparison, r, i, j) == TALLY_OK,
                       "a compared cell has a comparison");
            const tally_comparison *c = &comparison;
            FUZZ_CHECK(isfinite(c->ratio) && isfinite(c->pct_imp), "ratio and pct are finite");
            if (c->p_defined) {
                FUZZ_CHECK(c->p_value >= 0 && c->p_value <= 1, "p-value in [0, 1]");
                FUZZ_CHECK(cell.p_adjusted >= 0 && cell.p_adjusted <= 1, "adjusted p in [0, 1]");
            } else {
                FUZZ_CHECK(isnan(c->p_value), "no test: no p-value");
            }
            if (c->interval_defined)
                FUZZ_CHECK(c->pct_low <= c->pct_high && c->ratio_low <= c->ratio_high,
                           "an interval is ordered");
            FUZZ_CHECK(c->verdict != TALLY_VERDICT_REGRESSION || c->pct_imp <= 0,
                       "a regression never shows a gain");
            FUZZ_CHECK(c->verdict != TALLY_VERDICT_IMPROVEMENT || c->pct_imp >= 0,
                       "an improvement never shows a loss");
            FUZZ_CHECK(isfinite(c->statistic) && isfinite(c->df), "test statistic finite");
        }
        tally_report_cell bad = { .size = sizeof bad };
        FUZZ_CHECK(tally_report_cell_at(&bad, r, i, configs) == TALLY_EINVAL,
                   "a cell past the last configuration is refused");
    }
    for (size_t j = 1; j < configs; j++) {
        double g;
        int rc = tally_report_geomean(&g, r, j);
        if (rc == TALLY_OK)
            FUZZ_CHECK(isfinite(g) && g > 0, "geomean of ratios is finite and positive");
        else
            fuzz_check_error(rc, "tally_report_geomean");
    }
    double worst;
    FUZZ_CHECK(tally_report_worst_regression(&worst, r) == TALLY_OK, "worst regression");
    FUZZ_CHECK(isfinite(worst) && worst >= 0, "worst regression is a finite percentage");
}

static void check_render(const tally_report *r, tally_render_options *opts, const char *what)
{
    char *out = NULL;
    size_t len = 0;
    int rc = tally_report_render(&out, &len, r, opts);
    FUZZ_CHECK(rc == TALLY_OK, what);
    FUZZ_CHECK(out != NULL && len > 0, what);
    FUZZ_CHECK(strlen(out) == len, what);
    if (opts->format == TALLY_FORMAT_JSON) {
        cJSON *doc = cJSON_ParseWithLength(out, len);
        if (doc == NULL)
            fprintf(stderr, "JSON report that does not parse:\n%s\n", out);
        FUZZ_CHECK(doc != NULL, "the JSON report is valid JSON");
        cJSON_Delete(doc);
    }
    tally_free(out);
}

static void check_xlsx(const tally_report *r, tally_render_options *opts)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/tally-fuzz-%ld.xlsx", (long)getpid());
    opts->format = TALLY_FORMAT_XLSX;
    int rc = tally_report_write(r, path, opts);
    FUZZ_CHECK(rc == TALLY_OK, "XLSX report written");
    struct stat st;
    FUZZ_CHECK(stat(path, &st) == 0 && st.st_size > 0, "the XLSX file exists and is not empty");
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tally_results *list = NULL;
    FUZZ_CHECK(tally_results_new(&list) == TALLY_OK, "tally_results_new");
    tally_load_options load = TALLY_LOAD_OPTIONS_INIT;
    if (tally_load_buffer(list, (const char *)data, size, "fuzz-input", &load) != TALLY_OK ||
        tally_results_count(list) == 0) {
        tally_results_free(list);
        return 0;
    }
    if (tally_results_count(list) == 1)
        add_scaled_copy(list);

    uint64_t h = hash_bytes(data, size);
    tally_report_options ropts = TALLY_REPORT_OPTIONS_INIT;
    ropts.statistic = (tally_statistic)pick(&h, 8);
    ropts.test = (tally_test)pick(&h, 5);
    ropts.adjust = (tally_adjust)pick(&h, 3);
    ropts.percentile_method = (tally_percentile_method)pick(&h, 2);
    static const double levels[] = { 0.95, 0.9, 0.99 };
    ropts.confidence = levels[pick(&h, 3)];
    ropts.alpha = pick(&h, 2) ? 0.01 : 0.05;
    ropts.summaries_only = pick(&h, 4) == 0;
    static const char *const filters[] = { NULL, "*", "*/1*", "[a-m]*" };
    ropts.filter = filters[pick(&h, 4)];

    tally_report *report = NULL;
    tally_error_clear();
    int rc = tally_report_new(&report, list, &ropts);
    if (rc != TALLY_OK) {
        fuzz_check_error(rc, "tally_report_new refused the data");
        FUZZ_CHECK(rc == TALLY_ENODATA || rc == TALLY_EDOMAIN || rc == TALLY_EMISMATCH,
                   "a report fails only for a documented data reason");
        FUZZ_CHECK(report == NULL, "no report on failure");
        tally_results_free(list);
        return 0;
    }
    /* The report copies what it needs: the inputs can go first. */
    tally_results_free(list);
    check_cells(report);

    tally_render_options opts = TALLY_RENDER_OPTIONS_INIT;
    opts.color = (int)pick(&h, 2);
    opts.precision = (int)pick(&h, 8) - 1;
    opts.format = TALLY_FORMAT_TEXT;
    for (int style = TALLY_STYLE_TABLE; style <= TALLY_STYLE_PCT; style++) {
        opts.style = (tally_style)style;
        check_render(report, &opts, tally_style_name(opts.style));
    }
    opts.format = TALLY_FORMAT_JSON;
    check_render(report, &opts, "json");
    opts.format = TALLY_FORMAT_CSV;
    check_render(report, &opts, "csv");
    opts.format = TALLY_FORMAT_MARKDOWN;
    check_render(report, &opts, "markdown");
    opts.format = TALLY_FORMAT_HTML;
    opts.fragment = (int)pick(&h, 2);
    check_render(report, &opts, "html");
    opts.fragment = 0;
    /* Histograms after the text table (the report keeps its samples unless omit_samples). */
    opts.format = TALLY_FORMAT_TEXT;
    opts.style = TALLY_STYLE_TABLE;
    opts.histogram = 1;
    opts.ascii = (int)pick(&h, 2);
    opts.width = (int)pick(&h, 200);
    {
        char *out = NULL;
        int hrc = tally_report_render(&out, NULL, report, &opts);
        FUZZ_CHECK(hrc == TALLY_OK || hrc == TALLY_EINVAL, "histograms render or need samples");
        tally_free(out);
        tally_error_clear();
    }
    opts.histogram = 0;
    /* Writing a spreadsheet costs about ten times the rest; while fuzzing, one input in eight
     * writes one (chosen by the hash, so a crash reproduces). Corpus replays write it always. */
#ifdef TALLY_FUZZ_LIBFUZZER
    if (pick(&h, 8) == 0)
        check_xlsx(report, &opts);
#else
    check_xlsx(report, &opts);
#endif
    tally_report_free(report);
    return 0;
}
