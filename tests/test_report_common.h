/*
 * Shared by the report tests: building result sets from literal samples and comparing rendered
 * text with golden files under tests/golden/report/. Run a test with TALLY_UPDATE_GOLDEN=1 to
 * rewrite the golden files it compares against (then review the diff).
 */
#ifndef TALLY_TEST_REPORT_COMMON_H
#define TALLY_TEST_REPORT_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"
#include "test_cell.h"

/* Each test program uses only some of the helpers. */
#define TEST_HELPER __attribute__((unused))

/* tests/golden/report/, found next to this header (CMake compiles with absolute paths). */
static TEST_HELPER void golden_path(char *out, size_t size, const char *name)
{
    const char *here = __FILE__;
    const char *slash = strrchr(here, '/');
    int dir_len = slash ? (int)(slash - here + 1) : 0;
    snprintf(out, size, "%.*sgolden/report/%s", dir_len, here, name);
}

/* Add samples to benchmark/case of a result set, creating both as needed. */
static TEST_HELPER void add_samples(tally_resultset *rs, const char *bench, const char *unit,
                        tally_direction dir, const char *case_name, const double *x, size_t n)
{
    tally_benchmark *b = tally_resultset_benchmark_find(rs, bench);
    if (b == NULL)
        CHECK_INT(tally_resultset_benchmark_add(&b, rs, bench, unit, dir), TALLY_OK);
    tally_case *c = tally_benchmark_case_find(b, case_name);
    if (c == NULL)
        CHECK_INT(tally_benchmark_case_add(&c, b, case_name), TALLY_OK);
    CHECK_INT(tally_case_append(c, x, n), TALLY_OK);
}

static TEST_HELPER tally_resultset *new_set(tally_results *list, const char *label)
{
    tally_resultset *rs = NULL;
    CHECK_INT(tally_resultset_new(&rs, label), TALLY_OK);
    CHECK_INT(tally_results_add(list, rs), TALLY_OK);
    return rs;
}

/*
 * The fixture of the model and format tests: three configurations, two benchmarks.
 *   lat (us, lower is better): a, b, c in base and alt; new has a, c and d but no b.
 *   tput (MB/s, higher is better): x in all; y with a single run in all.
 * scipy 1.10.1, scipy.stats.ttest_ind(base, other, equal_var=False).pvalue:
 *   lat/a new 2.373334543896199e-06, lat/a alt 1.0, lat/b alt 0.5717978342296034,
 *   lat/c new 0.029016828792786123, lat/c alt 1.0, tput/x new 0.013399964712331038,
 *   tput/x alt 1.0.
 */
static TEST_HELPER tally_results *build_fixture(void)
{
    static const double lat_a[3][4] = { { 10.0, 10.2, 9.8, 10.0 },
                                        { 12.0, 12.2, 11.8, 12.0 },
                                        { 10.1, 9.9, 10.3, 9.7 } };
    static const double lat_b_base[3] = { 5, 5.5, 4.5 }, lat_b_alt[3] = { 5.2, 5.4, 5.0 };
    static const double lat_c[3][3] = { { 4.0, 4.4, 3.6 }, { 3.0, 3.3, 2.7 }, { 4.1, 4.0, 3.9 } };
    static const double lat_d_new[2] = { 7, 8 };
    /* mmtests style, BHmean-N of base x (higher is better: the best are the highest): N = 50
     * takes floor(4 * 0.5) = 2 runs, 2 / (1/110 + 1/100) = 104.76; N = 95 takes 3 runs,
     * 3 / (1/110 + 2/100) = 103.125, printed 103.12. */
    static const double tput_x[3][4] = { { 100, 110, 90, 100 },
                                         { 120, 130, 110, 120 },
                                         { 101, 99, 100, 100 } };
    static const double tput_y[3] = { 50, 60, 50 };
    tally_results *list = NULL;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *set[3] = { new_set(list, "base"), new_set(list, "new"), new_set(list, "alt") };
    CHECK_INT(tally_resultset_meta_set(set[0], "host", "bench-1"), TALLY_OK);
    CHECK_INT(tally_resultset_meta_set(set[1], "kernel", "6.1 \"patched\", v2"), TALLY_OK);
    for (int j = 0; j < 3; j++) {
        add_samples(set[j], "lat", "us", TALLY_LOWER_IS_BETTER, "a", lat_a[j], 4);
        if (j == 0)
            add_samples(set[j], "lat", "us", TALLY_LOWER_IS_BETTER, "b", lat_b_base, 3);
        if (j == 2)
            add_samples(set[j], "lat", "us", TALLY_LOWER_IS_BETTER, "b", lat_b_alt, 3);
        add_samples(set[j], "lat", "us", TALLY_LOWER_IS_BETTER, "c", lat_c[j], 3);
        if (j == 1)
            add_samples(set[j], "lat", "us", TALLY_LOWER_IS_BETTER, "d", lat_d_new, 2);
        add_samples(set[j], "tput", "MB/s", TALLY_HIGHER_IS_BETTER, "x", tput_x[j], 4);
        add_samples(set[j], "tput", "MB/s", TALLY_HIGHER_IS_BETTER, "y", &tput_y[j], 1);
    }
    return list;
}

static TEST_HELPER char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    size_t got = fread(text, 1, (size_t)len, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

/* Compare `actual` with the golden file `name`; print the first differing line on failure. */
static TEST_HELPER void check_golden(const char *actual, const char *name)
{
    char path[512];
    golden_path(path, sizeof(path), name);
    const char *update = getenv("TALLY_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        fputs(actual, f);
        fclose(f);
    }
    char *expected = read_text(path);
    int ok = expected && strcmp(expected, actual) == 0;
    if (!ok) {
        fprintf(stderr, "golden %s differs\n", name);
        if (expected) {
            const char *a = actual, *e = expected;
            int line = 1;
            while (*a && *a == *e) {
                if (*a == '\n')
                    line++;
                a++;
                e++;
            }
            fprintf(stderr, "  first difference on line %d\n  actual:   %.80s\n  expected: %.80s\n",
                    line, a, e);
        }
    }
    check_report(ok, __FILE__, __LINE__, name);
    free(expected);
}

/* Keep the first `head` lines of `text` and the lines starting with `prefix`, in place. */
static TEST_HELPER void keep_lines(char *text, int head, const char *prefix)
{
    char *out = text;
    const char *line = text;
    for (int n = 0; *line; n++) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        if (n < head || strncmp(line, prefix, strlen(prefix)) == 0) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
}

/* Render a report with a format and style, returning the text (free with tally_free). */
static TEST_HELPER char *render(const tally_report *r, tally_format format, tally_style style)
{
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = format;
    o.style = style;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    return text;
}

/* The report of build_fixture() with options `o` (NULL: the defaults). */
static TEST_HELPER tally_report *fixture_report(const tally_report_options *o)
{
    tally_results *list = build_fixture();
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, o), TALLY_OK);
    /* The report keeps copies: the results can go before the report is used. */
    tally_results_free(list);
    return r;
}

#endif /* TALLY_TEST_REPORT_COMMON_H */
