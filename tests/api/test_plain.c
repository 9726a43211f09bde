/* Plain one-number-per-line input (ministat style). Expected samples are read off the files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"

static void test_file(void)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/plain/tip.txt", NULL), TALLY_OK);
    CHECK_INT(tally_results_count(r), 1);
    const tally_resultset *rs = tally_results_at(r, 0);
    /* Label: the file name without directory and extension. */
    CHECK_STR(tally_resultset_label(rs), "tip");
    const tally_benchmark *b = tally_resultset_benchmark_at(rs, 0);
    CHECK_STR(tally_benchmark_name(b), "values");
    CHECK_STR(tally_benchmark_unit(b), "");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_case_count(b), 1);
    const tally_case *c = tally_benchmark_case_at(b, 0);
    CHECK_STR(tally_case_name(c), "all");
    /* Lines 2, 3 (comment cut), 5 (tab, CRLF) and 6 (no final newline). */
    CHECK_INT(tally_case_sample_count(c), 4);
    const double *x = tally_case_samples(c);
    CHECK(x[0] == 0.512 && x[1] == 0.498 && x[2] == 0.505 && x[3] == 0.1);
    tally_results_free(r);
}

static void test_options(void)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.label = "base";
    opts.benchmark = "hackbench-4";
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/plain/tip.txt", &opts), TALLY_OK);
    const tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "base");
    CHECK_STR(tally_benchmark_name(tally_resultset_benchmark_at(rs, 0)), "hackbench-4");
    tally_results_free(r);
}

static void expect_error(const char *text, size_t len, int code, const char *message)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_PLAIN;
    CHECK_INT(tally_load_buffer(r, text, len, "p.txt", &opts), code);
    CHECK_STR(tally_error_last()->message, message);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
}

#define BAD(text, code, message) expect_error(text, sizeof(text) - 1, code, message)

static void test_errors(void)
{
    BAD("1\nabc\n", TALLY_EPARSE, "p.txt:2:1: expected one number per line, found 'abc'");
    BAD("1 2\n", TALLY_EPARSE, "p.txt:1:1: expected one number per line, found '1 2'");
    BAD("1,5\n", TALLY_EPARSE, "p.txt:1:1: expected one number per line, found '1,5'");
    BAD("0x10\n", TALLY_EPARSE, "p.txt:1:1: expected one number per line, found '0x10'");
    BAD("1\n  inf\n", TALLY_ENONFINITE, "p.txt:2:3: expected a finite number, found 'inf'");
    BAD("NaN\n", TALLY_ENONFINITE, "p.txt:1:1: expected a finite number, found 'NaN'");
    BAD("1e400\n", TALLY_ENONFINITE,
        "p.txt:1:1: number out of range (beyond 1.8e308), found '1e400'");
    /* Underflow is refused too, not read as 0 (an exact zero is fine). */
    BAD("1\n1e-400\n", TALLY_ENONFINITE,
        "p.txt:2:1: number out of range (below 4.9e-324, it would read as 0), found '1e-400'");
    BAD("", TALLY_ENODATA, "p.txt: no numbers in the file");
    BAD("# only a comment\n\n", TALLY_ENODATA, "p.txt: no numbers in the file");
    BAD("1\n2\0\n", TALLY_EFORMAT, "p.txt:2:2: NUL byte in a text file (is this a binary file?)");
    size_t n = (1u << 20) + 1;
    char *text = malloc(n + 3);
    memset(text, '1', n + 2);
    text[0] = '1';
    text[1] = '\n';
    text[n + 2] = '\n';
    expect_error(text, n + 3, TALLY_ELIMIT, "p.txt:2:1: line longer than 1048576 bytes");
    free(text);
}

/* Load `text` as plain numbers; returns the case (owned by *r) or NULL. */
static const tally_case *load_plain(tally_results **r, const char *text, size_t len)
{
    tally_results_new(r);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.kind = TALLY_INPUT_PLAIN;
    if (tally_load_buffer(*r, text, len, "p.txt", &opts) != TALLY_OK)
        return NULL;
    tally_benchmark *b = tally_resultset_benchmark_at(tally_results_at(*r, 0), 0);
    return tally_benchmark_case_at(b, 0);
}

/* Long inputs, where number lines go through the one-pass loop and the rest line by line:
 * both must agree on values, line numbers and columns. */
static void test_long_inputs(void)
{
    /* Line i (0-based) holds i + 0.5, every 100th line is a comment, every 7th ends in CRLF,
     * the last has no newline: 10000 numbers summing to 10000^2 / 2 = 5e7 (exact). */
    size_t n = 10000, cap = n * 16 + 1024, len = 0;
    char *text = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        if (i % 100 == 0)
            len += (size_t)snprintf(text + len, cap - len, "# run %zu\n", i);
        len += (size_t)snprintf(text + len, cap - len, "%zu.5%s", i,
                                i + 1 == n ? "" : i % 7 == 0 ? "\r\n" : "\n");
    }
    tally_results *r;
    const tally_case *c = load_plain(&r, text, len);
    CHECK(c != NULL);
    if (c) {
        CHECK_INT(tally_case_sample_count(c), n);
        const double *x = tally_case_samples(c);
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += x[i];
        CHECK(sum == 5e7);
        CHECK(x[0] == 0.5 && x[n - 1] == 9999.5);
    }
    tally_results_free(r);
    free(text);

    /* Mixed lines after 20 number lines (so the one-pass loop is running): blanks around a
     * number, a trailing comment, a blank line, a signed number. 1..20 sum to 210. */
    char mixed[512];
    len = 0;
    for (int i = 1; i <= 20; i++)
        len += (size_t)snprintf(mixed + len, sizeof mixed - len, "%d\n", i);
    len += (size_t)snprintf(mixed + len, sizeof mixed - len, "  2.5\t\n3 # x\n\n+4\n-1.25e1\n");
    c = load_plain(&r, mixed, len);
    CHECK(c != NULL);
    if (c) {
        const double *x = tally_case_samples(c);
        CHECK_INT(tally_case_sample_count(c), 24);
        CHECK(x[19] == 20 && x[20] == 2.5 && x[21] == 3 && x[22] == 4 && x[23] == -12.5);
    }
    tally_results_free(r);

    /* Errors inside the long run keep their exact line and column. */
    char bad[512];
    len = 0;
    for (int i = 0; i < 30; i++)
        len += (size_t)snprintf(bad + len, sizeof bad - len, "1.25\n");
    memcpy(bad + len, "2\0" "5\n7\n", 5);
    expect_error(bad, len + 5, TALLY_EFORMAT,
                 "p.txt:31:2: NUL byte in a text file (is this a binary file?)");
    memcpy(bad + len, "2\r3\n7\n", 6);
    expect_error(bad, len + 6, TALLY_EPARSE,
                 "p.txt:31:1: expected one number per line, found '2\r3'");
    memcpy(bad + len, "1.5e999\n7\n", 10);
    expect_error(bad, len + 10, TALLY_ENONFINITE,
                 "p.txt:31:1: number out of range (beyond 1.8e308), found '1.5e999'");
    /* A number longer than 1024 characters is refused even when its value would be exact, as in
     * every other format. */
    static char longer[1200];
    memcpy(longer, bad, len);
    memset(longer + len, '0', 1030);
    longer[len + 1] = '.';
    memcpy(longer + len + 1030, "\n7\n", 3);
    expect_error(longer, len + 1033, TALLY_EPARSE,
                 "p.txt:31:1: number longer than 1024 characters, found "
                 "'0.00000000000000000000000000000000000000'");
}

static void test_detection(void)
{
    tally_input_kind kind = TALLY_INPUT_AUTO;
    CHECK_INT(tally_detect_kind(&kind, "# runs\n1.5\n2\n", 13), TALLY_OK);
    CHECK_INT(kind, TALLY_INPUT_PLAIN);
    /* Text with words is not a column of numbers. */
    kind = TALLY_INPUT_AUTO;
    tally_detect_kind(&kind, "Time: 0.5\n", 10);
    CHECK(kind != TALLY_INPUT_PLAIN);
}

int main(void)
{
    test_file();
    test_options();
    test_errors();
    test_long_inputs();
    test_detection();
    return check_summary();
}
