/* Every style and format of one report (tests/test_report_common.h: build_fixture) against
 * golden files. JSON and CSV goldens are compared value by value after parsing, numbers to a
 * relative 1e-9, so that the last digits of full-precision numbers may differ between
 * numerically equivalent algorithms. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "test_report_common.h"

static void test_text_styles(tally_report *r)
{
    static const struct {
        tally_style style;
        const char *golden;
    } cases[] = { { TALLY_STYLE_TABLE, "fixture_table.txt" },
                  { TALLY_STYLE_MMTESTS, "fixture_mmtests.txt" },
                  { TALLY_STYLE_NORMALIZED, "fixture_normalized.txt" },
                  { TALLY_STYLE_PCT, "fixture_pct.txt" } };
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        char *text = render(r, TALLY_FORMAT_TEXT, cases[i].style);
        check_golden(text, cases[i].golden);
        CHECK(strchr(text, '\033') == NULL); /* no colour unless asked */
        tally_free(text);
    }
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.color = 1;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    check_golden(text, "fixture_table_color.txt");
    CHECK(strstr(text, "\033[31mregression\033[0m") != NULL);
    tally_free(text);
    o.color = 0;
    o.precision = 1;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    CHECK(strstr(text, "10.0 ± 0.3") != NULL); /* lat/a base: 10 and half-width 0.2598 */
    tally_free(text);
}

static void test_markdown(tally_report *r)
{
    char *text = render(r, TALLY_FORMAT_MARKDOWN, TALLY_STYLE_TABLE);
    check_golden(text, "fixture.md");
    CHECK(strstr(text, "**-20.00%**") != NULL); /* lat/a new: significant regression */
    tally_free(text);
}

/* Structural comparison; numbers to a relative tolerance. */
static int json_same(const cJSON *a, const cJSON *b, char *where, size_t size)
{
    if ((a->type & 0xFF) != (b->type & 0xFF)) {
        snprintf(where, size, "type of %s", a->string ? a->string : "(element)");
        return 0;
    }
    if (cJSON_IsNumber(a)) {
        double x = a->valuedouble, y = b->valuedouble;
        if (fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y)))
            return 1;
        snprintf(where, size, "%s: %.17g vs %.17g", a->string ? a->string : "(number)", x, y);
        return 0;
    }
    if (cJSON_IsString(a)) {
        if (strcmp(a->valuestring, b->valuestring) == 0)
            return 1;
        snprintf(where, size, "%s: \"%s\" vs \"%s\"", a->string ? a->string : "(string)",
                 a->valuestring, b->valuestring);
        return 0;
    }
    if (cJSON_IsArray(a) || cJSON_IsObject(a)) {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) {
            if (cJSON_IsObject(a) && strcmp(x->string, y->string) != 0) {
                snprintf(where, size, "key %s vs %s", x->string, y->string);
                return 0;
            }
            if (!json_same(x, y, where, size))
                return 0;
        }
        if (x || y)
            snprintf(where, size, "length of %s", a->string ? a->string : "(container)");
        return !x && !y;
    }
    return 1; /* null, true, false: same type */
}

static const cJSON *row_cell(const cJSON *root, int row, int config)
{
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "rows"), row);
    return cJSON_GetArrayItem(cJSON_GetObjectItem(r, "cells"), config);
}

static void test_json(tally_report *r)
{
    char *text = render(r, TALLY_FORMAT_JSON, TALLY_STYLE_TABLE);
    CHECK(strstr(text, "nan") == NULL && strstr(text, "inf") == NULL);
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL);
    if (root == NULL) {
        tally_free(text);
        return;
    }
    CHECK_STR(cJSON_GetObjectItem(root, "format")->valuestring, "tally-report");
    CHECK_INT(cJSON_GetObjectItem(root, "version")->valueint, 2);
    /* lat/a base: mean 10, n 4; new: pct imp -20, Welch p 2.373334543896199e-06 (scipy). */
    const cJSON *base = row_cell(root, 0, 0), *cur = row_cell(root, 0, 1);
    CHECK_REL(cJSON_GetObjectItem(base, "amean")->valuedouble, 10.0, 1e-12);
    CHECK_INT(cJSON_GetObjectItem(base, "n")->valueint, 4);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(base, "comparison")));
    const cJSON *cmp = cJSON_GetObjectItem(cur, "comparison");
    CHECK_REL(cJSON_GetObjectItem(cmp, "pct_imp")->valuedouble, -20.0, 1e-9);
    CHECK_REL(cJSON_GetObjectItem(cmp, "p_value")->valuedouble, 2.373334543896199e-06, 1e-6);
    CHECK_STR(cJSON_GetObjectItem(cmp, "verdict")->valuestring, "regression");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cmp, "significant")));
    /* lat/b new is missing; tput/y has one run: SD, CV and CIs are null, never NaN. */
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(row_cell(root, 1, 1), "present")));
    const cJSON *one = row_cell(root, 5, 0);
    CHECK_INT(cJSON_GetObjectItem(one, "n")->valueint, 1);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(one, "stddev")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(one, "cv")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(one, "mean_ci")));
    const cJSON *lone = cJSON_GetObjectItem(row_cell(root, 5, 1), "comparison");
    CHECK_STR(cJSON_GetObjectItem(lone, "verdict")->valuestring, "insufficient");
    /* No test could run: p is null, never 1, and so are the interval and the MDE. */
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(lone, "p_value")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(lone, "p_adjusted")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(lone, "interval")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(lone, "mde_pct")));
    /* lat/a new carries its interval: Fieller's for a ratio of means (values checked against R
     * in test_compare_interval.c); the interval holds the point estimate. */
    const cJSON *ci = cJSON_GetObjectItem(cmp, "interval");
    CHECK_STR(cJSON_GetObjectItem(ci, "method")->valuestring, "fieller");
    const cJSON *pct = cJSON_GetObjectItem(ci, "pct_imp");
    CHECK(cJSON_GetArrayItem(pct, 0)->valuedouble < -20.0);
    CHECK(cJSON_GetArrayItem(pct, 1)->valuedouble > -20.0);
    CHECK(cJSON_IsNumber(cJSON_GetObjectItem(cmp, "mde_pct")));
    /* Metadata strings survive quoting. */
    const cJSON *cfg = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "configurations"), 1);
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetObjectItem(cfg, "metadata"), "kernel")->valuestring,
              "6.1 \"patched\", v2");

    char path[512];
    golden_path(path, sizeof(path), "fixture.json");
    const char *update = getenv("TALLY_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0)
        check_golden(text, "fixture.json");
    char *golden_text = read_text(path);
    cJSON *golden = golden_text ? cJSON_Parse(golden_text) : NULL;
    char where[256] = "golden file missing or unparsable";
    int same = golden && json_same(root, golden, where, sizeof(where));
    if (!same)
        fprintf(stderr, "fixture.json differs: %s\n", where);
    CHECK(same);
    cJSON_Delete(golden);
    free(golden_text);
    cJSON_Delete(root);
    tally_free(text);
}

/* ---- CSV: a small RFC 4180 reader ---- */
typedef struct csv_table {
    char ***rows; /* rows[i][j], NULL-terminated per row */
    size_t count;
} csv_table;

static int csv_parse(csv_table *t, const char *s)
{
    memset(t, 0, sizeof(*t));
    while (*s) {
        char **fields = NULL;
        size_t nf = 0;
        for (;;) {
            size_t cap = strlen(s) + 1, len = 0;
            char *f = malloc(cap);
            if (*s == '"') {
                s++;
                for (;;) {
                    if (*s == '\0') {
                        free(f);
                        return 0; /* unterminated quote */
                    }
                    if (*s == '"' && s[1] == '"') {
                        f[len++] = '"';
                        s += 2;
                    } else if (*s == '"') {
                        s++;
                        break;
                    } else {
                        f[len++] = *s++;
                    }
                }
            } else {
                while (*s && *s != ',' && *s != '\r' && *s != '\n')
                    f[len++] = *s++;
            }
            f[len] = '\0';
            fields = realloc(fields, (nf + 2) * sizeof(char *));
            fields[nf++] = f;
            fields[nf] = NULL;
            if (*s == ',') {
                s++;
                continue;
            }
            break;
        }
        if (s[0] != '\r' || s[1] != '\n')
            return 0; /* records end in CRLF */
        s += 2;
        t->rows = realloc(t->rows, (t->count + 1) * sizeof(char **));
        t->rows[t->count++] = fields;
    }
    return 1;
}

static void csv_free(csv_table *t)
{
    for (size_t i = 0; i < t->count; i++) {
        for (char **f = t->rows[i]; *f; f++)
            free(*f);
        free(t->rows[i]);
    }
    free(t->rows);
}

static const char *csv_get(const csv_table *t, size_t row, const char *column)
{
    for (size_t j = 0; t->rows[0][j]; j++)
        if (strcmp(t->rows[0][j], column) == 0)
            return t->rows[row][j];
    return NULL;
}

static void test_csv(tally_report *r)
{
    char *text = render(r, TALLY_FORMAT_CSV, TALLY_STYLE_TABLE);
    csv_table t;
    CHECK(csv_parse(&t, text));
    /* A header and 6 rows x 3 configurations. */
    CHECK_INT(t.count, 1 + 6 * 3);
    for (size_t i = 1; i < t.count; i++) {
        size_t n = 0;
        while (t.rows[i][n])
            n++;
        size_t header = 0;
        while (t.rows[0][header])
            header++;
        CHECK_INT(n, header);
    }
    CHECK_STR(csv_get(&t, 1, "benchmark"), "lat");
    CHECK_STR(csv_get(&t, 1, "configuration"), "base");
    CHECK_REL(strtod(csv_get(&t, 1, "amean"), NULL), 10.0, 1e-12);
    CHECK_STR(csv_get(&t, 2, "verdict"), "regression");
    CHECK_REL(strtod(csv_get(&t, 2, "pct_imp"), NULL), -20.0, 1e-9);
    CHECK_STR(csv_get(&t, 5, "present"), "0"); /* lat/b in new */
    CHECK_STR(csv_get(&t, 5, "amean"), "");
    CHECK_STR(csv_get(&t, 16, "stddev"), ""); /* tput/y base: one run */

    char path[512];
    golden_path(path, sizeof(path), "fixture.csv");
    const char *update = getenv("TALLY_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0)
        check_golden(text, "fixture.csv");
    char *golden_text = read_text(path);
    csv_table g;
    int same = golden_text && csv_parse(&g, golden_text) && g.count == t.count;
    for (size_t i = 0; same && i < t.count; i++)
        for (size_t j = 0; same && (t.rows[i][j] || g.rows[i][j]); j++) {
            const char *a = t.rows[i][j], *b = g.rows[i][j];
            if (!a || !b) {
                same = 0;
                break;
            }
            char *ea, *eb;
            double x = strtod(a, &ea), y = strtod(b, &eb);
            if (*a && *b && *ea == '\0' && *eb == '\0')
                same = fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
            else
                same = strcmp(a, b) == 0;
            if (!same)
                fprintf(stderr, "fixture.csv differs at record %zu field %zu: %s vs %s\n", i, j, a, b);
        }
    CHECK(same);
    if (golden_text)
        csv_free(&g);
    free(golden_text);
    csv_free(&t);
    tally_free(text);
}

static void test_quoting(void)
{
    /* Names with commas, quotes and Markdown/JSON specials are quoted, escaped or both. */
    static const double x[2] = { 1, 2 };
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    add_samples(new_set(list, "a|b"), "net, \"tcp\"", "", TALLY_LOWER_IS_BETTER, "p|99\\", x, 2);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    char *text = render(r, TALLY_FORMAT_CSV, TALLY_STYLE_TABLE);
    CHECK(strstr(text, "\r\n\"net, \"\"tcp\"\"\",p|99\\,a|b,") != NULL);
    tally_free(text);
    text = render(r, TALLY_FORMAT_MARKDOWN, TALLY_STYLE_TABLE);
    CHECK(strstr(text, "| p\\|99\\\\ |") != NULL);
    tally_free(text);
    text = render(r, TALLY_FORMAT_JSON, TALLY_STYLE_TABLE);
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL);
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "rows"), 0),
                                  "benchmark")->valuestring, "net, \"tcp\"");
    cJSON_Delete(root);
    tally_free(text);
    tally_report_free(r);
    tally_results_free(list);
}

static void test_huge_values(void)
{
    /* %.2f of 1e300 has 301 digits before the point: no style may cut a number short. */
    static const double x[2] = { 1e300, 1e300 };
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    add_samples(new_set(list, "one"), "big", "", TALLY_HIGHER_IS_BETTER, "c", x, 2);
    add_samples(new_set(list, "two"), "big", "", TALLY_HIGHER_IS_BETTER, "c", x, 2);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    for (int style = 0; style < 4; style++) {
        char *text = render(r, TALLY_FORMAT_TEXT, (tally_style)style);
        /* printf("%.2f", 1e300) starts with these digits (the double nearest 1e300). The
         * table style shows it in its SI prefix, P (1e15): python3 -c "print('%.0f' %
         * (1e300 / 1e15))" prints 286 digits starting 1000000000000000112232790704436754. */
        const char *digits = strstr(text, "1000000000000000052504760255204420248704468581108");
        if (style == TALLY_STYLE_TABLE) {
            digits = strstr(text, "1000000000000000112232790704436754");
            CHECK(digits && strspn(digits, "0123456789") == 286);
            CHECK(strstr(text, "big (P, ") != NULL);
        } else if (style != TALLY_STYLE_NORMALIZED) {
            CHECK(digits != NULL);
            CHECK(digits && strspn(digits, "0123456789") == 301);
        }
        tally_free(text);
    }
    tally_report_free(r);
    tally_results_free(list);
}

/* The table of formats against the documentation of include/tally/report.h: every format once,
 * in enum order; JSON (its `samples`), XLSX (its samples sheet) and HTML (its distribution and
 * run-order plots) need the raw samples; XLSX is written to files only; text alone is for a
 * terminal. A format that needs no samples renders the same from a report made with
 * omit_samples. */
static void test_format_table(tally_report *r)
{
    static const struct {
        tally_format format;
        const char *name;
        int samples, file, term;
    } want[] = {
        { TALLY_FORMAT_TEXT, "text", 0, 0, 1 },     { TALLY_FORMAT_JSON, "json", 1, 0, 0 },
        { TALLY_FORMAT_CSV, "csv", 0, 0, 0 },       { TALLY_FORMAT_MARKDOWN, "md", 0, 0, 0 },
        { TALLY_FORMAT_XLSX, "xlsx", 1, 1, 0 },     { TALLY_FORMAT_HTML, "html", 1, 0, 0 },
    };
    CHECK_INT(tally_format_count(), TALLY__COUNT(want));
    for (size_t i = 0; i < TALLY__COUNT(want); i++) {
        tally_format_info f = { .size = sizeof f };
        CHECK_INT(tally_format_info_at(&f, i), TALLY_OK);
        CHECK_INT(f.format, want[i].format);
        CHECK_STR(f.name, want[i].name);
        CHECK_INT(f.needs_samples, want[i].samples);
        CHECK_INT(f.file_only, want[i].file);
        CHECK_INT(f.terminal, want[i].term);
        if (f.file_only || f.needs_samples)
            continue;
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.format = f.format;
        char *with = NULL, *without = NULL;
        tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
        ro.omit_samples = 1;
        tally_report *lean = fixture_report(&ro);
        CHECK_INT(tally_report_render(&with, NULL, r, &o), TALLY_OK);
        CHECK_INT(tally_report_render(&without, NULL, lean, &o), TALLY_OK);
        CHECK(with && without && strcmp(with, without) == 0);
        tally_free(with);
        tally_free(without);
        tally_report_free(lean);
    }
    tally_format_info f = { .size = sizeof f };
    CHECK_INT(tally_format_info_at(&f, TALLY__COUNT(want)), TALLY_EINVAL);
}

int main(void)
{
    tally_report *r = fixture_report(NULL);
    test_format_table(r);
    test_text_styles(r);
    test_markdown(r);
    test_json(r);
    test_csv(r);
    tally_report_free(r);
    test_quoting();
    test_huge_values();
    return check_summary();
}
