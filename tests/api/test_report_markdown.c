/* Markdown for pull-request comments: the headline first, no-break spaces inside the cells
 * that must not wrap, lists that stay lists, --only-changed with its <details> fold, and the
 * length limit (GitHub refuses comments over 65,536 characters) on 600 cases x 3
 * configurations. Expected values are hand calculations, stated where they are used. */
#include <stdlib.h>

#include "test_report_common.h"

#define NBSP "\xc2\xa0"

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + strlen(what), what))
        n++;
    return n;
}

/* Lines that are table rows of data (not the header or the alignment line). */
static size_t data_rows(const char *text)
{
    size_t n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len >= 2 && line[0] == '|' && strncmp(line, "| case |", 8) != 0 &&
            strncmp(line, "|:---", 5) != 0) {
            n++;
            /* A row is never cut short. */
            CHECK(len >= 2 && line[len - 1] == '|' && line[len - 2] == ' ');
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

static char *render_md(const tally_report *r, int only_changed, long max_length)
{
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_MARKDOWN;
    o.only_changed = only_changed;
    o.max_length = max_length;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    return text;
}

/* The fixture (test_report_common.h): new is a regression on lat/a (Welch p 2.4e-6, pct imp
 * (1 - 12/10) * 100 = -20), an improvement on lat/c (p 0.029, (1 - 3/4) * 100 = +25) and on
 * tput/x (Welch on 1/x, scipy 1.10.1: p 0.01824; HMean 119.58 / 99.50: +20.19 %); alt changes
 * nothing. Compared cells: new a, c, x, y (b is missing, d has no baseline) and alt a, b, c,
 * x, y: 9, of which 1 regression, 2 improvements, 6 others. */
static void test_headline_and_cells(void)
{
    tally_report *r = fixture_report(NULL);
    char *text = render_md(r, 0, 0);
    const char *head = "**1 regression 🔴 · 2 improvements 🟢** against base, 6 without a "
                       "significant change (6 rows, 2 configurations compared)\n\n";
    CHECK(strncmp(text, head, strlen(head)) == 0);
    CHECK(strstr(text, "- Worst regression: **-20.00%**") != NULL);
    CHECK(strstr(text, " in lat/a, new\n") != NULL);
    /* The headline comes before the first table. */
    CHECK(strstr(text, "Worst regression") < strstr(text, "### lat"));
    /* The geometric means are a nested list, one item per configuration. */
    CHECK(strstr(text, "- Geometric mean of gains (> 1 is better, 95% interval):\n  - new: ") !=
          NULL);
    CHECK(strstr(text, "\n  - alt: ") != NULL);
    /* lat/a base: mean 10, half-width t(0.975, 3) * sqrt(0.08 / 3) / sqrt(4) = 0.25985 (scipy
     * t.ppf), the narrowest of the row: 2 significant digits of it, 0.26, give the row 2
     * decimals. The value and its interval are joined by no-break spaces. */
    CHECK(strstr(text, "| 10.00" NBSP "±" NBSP "0.26 |") != NULL);
    CHECK(strstr(text, "10.00 ± 0.26") == NULL);
    /* The delta cell of lat/a new keeps its interval and marker on the same line. */
    CHECK(strstr(text, "**-20.00%**" NBSP "[") != NULL);
    CHECK(strstr(text, "]" NBSP "🔴 |") != NULL);
    CHECK(strstr(text, "(MDE" NBSP "±") != NULL);
    /* Footnotes and notes: a list starts after a blank line and its items stay items. */
    CHECK(strstr(text, "[2] Missing cases:\n\n- ") != NULL);
    CHECK(strstr(text, "Left out") == NULL); /* a short report is shown whole */
    tally_free(text);
    tally_report_free(r);
}

/* 600 cases of a lower-is-better benchmark in 3 configurations, 5 runs each. `new` is 1.2
 * times the baseline on every 50th case (12 cases: pct imp (1 - 1.2) * 100 = -20.00), `alt`
 * 0.9 times on every 75th (8 cases: +10.00). Elsewhere the samples are the baseline's: p = 1,
 * inconclusive. With two configurations compared, each has its own table of the 600 cases
 * (1200 table rows): 12 changed and 588 others against new, 8 and 592 against alt. */
static tally_report *big_report(void)
{
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *set[3] = { new_set(list, "5.14.0-rc3-vanilla"),
                                new_set(list, "5.14.0-rc3-alwayswake-v1r1"),
                                new_set(list, "5.14.0-rc3-specialcase-v1r1") };
    static const double noise[5] = { 1.0, 1.01, 0.99, 1.005, 0.995 };
    for (int i = 1; i <= 600; i++) {
        char name[32];
        snprintf(name, sizeof(name), "%d-groups", i);
        for (int j = 0; j < 3; j++) {
            double scale = j == 1 && i % 50 == 0 ? 1.2 : j == 2 && i % 75 == 0 ? 0.9 : 1.0;
            double x[5];
            for (int k = 0; k < 5; k++)
                x[k] = (1.0 + i / 100.0) * noise[k] * scale;
            add_samples(set[j], "hackbench-process-pipes", "s", TALLY_LOWER_IS_BETTER, name, x,
                        5);
        }
    }
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_results_free(list);
    return r;
}

static void test_limit(void)
{
    tally_report *r = big_report();
    /* Whole, the comment is far over GitHub's limit. */
    char *whole = render_md(r, 0, -1);
    CHECK(strlen(whole) > 65536);
    CHECK_INT((long long)data_rows(whole), 1200);
    tally_free(whole);

    /* By default it stays within 65,536 bytes and says what it left out. */
    char *text = render_md(r, 0, 0);
    CHECK(strlen(text) <= 65536);
    const char *head = "**12 regressions 🔴 · 8 improvements 🟢** against 5.14.0-rc3-vanilla, "
                       "1180 without a significant change (600 rows, 2 configurations "
                       "compared)\n\n";
    CHECK(strncmp(text, head, strlen(head)) == 0);
    const char *note = strstr(text, "> **Shortened to stay within GitHub's limit of 65,536 "
                                    "characters.** Left out: ");
    CHECK(note != NULL);
    CHECK(note && note < strstr(text, "### "));
    size_t left_out = note ? strtoul(strstr(note, "Left out: ") + 10, NULL, 10) : 0;
    size_t rows = data_rows(text);
    CHECK_INT((long long)(rows + left_out), 1200);
    CHECK(note && strstr(note, " rows without a significant change. ") != NULL);
    /* Every change is still there: 12 bold -20.00 and 8 bold +10.00 cells. */
    CHECK_INT((long long)count(text, "**-20.00%**" NBSP), 12);
    CHECK_INT((long long)count(text, "**+10.00%**" NBSP), 8);
    /* The notes after the tables are kept. */
    CHECK(strstr(text, "significant improvement · ") != NULL);
    tally_free(text);

    /* --only-changed: per table the changed rows, the others folded below it. */
    text = render_md(r, 1, -1);
    CHECK_INT((long long)count(text, "<details><summary>588 rows without a significant "
                                     "change</summary>\n\n| case |"), 1);
    CHECK_INT((long long)count(text, "<details><summary>592 rows without a significant "
                                     "change</summary>\n\n| case |"), 1);
    CHECK_INT((long long)count(text, "\n</details>\n"), 2);
    CHECK_INT((long long)data_rows(text), 1200);
    CHECK(strstr(text, "#### 5.14.0-rc3-alwayswake-v1r1 against 5.14.0-rc3-vanilla\n") != NULL);
    CHECK(strstr(text, "#### 5.14.0-rc3-specialcase-v1r1 against 5.14.0-rc3-vanilla\n") != NULL);
    const char *fold = strstr(text, "<details>");
    /* Case names carry a word joiner (U+2060) after each hyphen: no line break there. */
    CHECK(fold && strstr(text, "| 150-\xe2\x81\xa0groups |") < fold &&
          strstr(text, "| 1-\xe2\x81\xa0groups |") > fold);
    tally_free(text);
    text = render_md(r, 1, 0);
    CHECK(strlen(text) <= 65536);
    /* Every change fits; then the first fold takes what is left, the second none. */
    CHECK_INT((long long)count(text, "**-20.00%**" NBSP), 12);
    CHECK_INT((long long)count(text, "**+10.00%**" NBSP), 8);
    CHECK(strstr(text, " of 588 rows without a significant change</summary>") != NULL);
    CHECK_INT((long long)count(text, "<details>"), 1);
    CHECK_INT((long long)count(text, "</details>"), 1);
    tally_free(text);

    /* A tight limit leaves out changes too, the mildest first: every regression (-20 %) is
     * shown before any improvement (+10 %). */
    text = render_md(r, 0, 3500);
    CHECK(strlen(text) <= 3500);
    CHECK(strstr(text, "with a change (the smallest)") != NULL);
    CHECK(strstr(text, "Shortened to stay within 3500 characters") != NULL);
    CHECK(data_rows(text) > 0 && data_rows(text) < 20);
    CHECK(count(text, "**-20.00%**") >= 1);
    tally_free(text);

    /* Too small for even the headline: an error, not a cut document. */
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_MARKDOWN;
    o.max_length = 100;
    char *none = NULL;
    CHECK_INT(tally_report_render(&none, NULL, r, &o), TALLY_ELIMIT);
    CHECK(none == NULL);
    CHECK(strstr(tally_error_last()->message, "length limit of 100") != NULL);

    tally_report_free(r);
}

/* Summaries (one configuration): no headline, and the limit still holds. */
static void test_summary_limit(void)
{
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *set = new_set(list, "tip");
    static const double x[3] = { 1, 2, 3 };
    for (int i = 0; i < 5000; i++) {
        char name[32];
        snprintf(name, sizeof(name), "case %d", i);
        add_samples(set, "b", "s", TALLY_LOWER_IS_BETTER, name, x, 3);
    }
    /* A name without the others' "case " keeps them from sharing a prefix (which the table
     * would leave out). */
    add_samples(set, "b", "s", TALLY_LOWER_IS_BETTER, "other", x, 3);
    tally_report *r = NULL;
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    ro.summaries_only = 1;
    CHECK_INT(tally_report_new(&r, list, &ro), TALLY_OK);
    tally_results_free(list);
    char *text = render_md(r, 0, 0);
    CHECK(strlen(text) <= 65536);
    CHECK(strncmp(text, "> **Shortened", 13) == 0);
    /* Case names keep their space as a no-break space: "case" NBSP "0". */
    CHECK(strstr(text, "| case" NBSP "0 |") != NULL);
    tally_free(text);
    tally_report_free(r);
}

int main(void)
{
    test_headline_and_cells();
    test_limit();
    test_summary_limit();
    return check_summary();
}
