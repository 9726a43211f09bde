/* Names from inputs on their way out and in: escaped for terminals in every text style,
 * neutralised against formulas in CSV (negative numbers untouched), invalid UTF-8 refused at
 * load with its location, a key repeated in a JSON object refused with its path. */
#include <stdlib.h>
#include <string.h>

#include "test_report_common.h"

/* ESC [31m (red), BEL, U+202E RIGHT-TO-LEFT OVERRIDE, DEL, U+009B (the C1 CSI) and a backslash. */
#define EVIL_CASE "c\x1b[31m\a\xe2\x80\xae" "evil\x7f\xc2\x9b\\"
#define EVIL_LABEL "new\x1b]0;title\a"

static tally_report *evil_report(void)
{
    static const double x[3] = { 1, 2, 3 }, y[3] = { 2, 3, 4 };
    tally_results *list = NULL;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *base = new_set(list, "base"), *other = new_set(list, EVIL_LABEL);
    CHECK_INT(tally_resultset_meta_set(base, "host\x1b[2J", "m\x1b[H"), TALLY_OK);
    add_samples(base, "bench\x1b[1m", "s\a", TALLY_LOWER_IS_BETTER, EVIL_CASE, x, 3);
    add_samples(other, "bench\x1b[1m", "s\a", TALLY_LOWER_IS_BETTER, EVIL_CASE, y, 3);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_results_free(list);
    return r;
}

/* No byte a terminal acts on: controls other than newline, DEL, C1 controls (U+0080..U+009F
 * as UTF-8 C2 80..C2 9F) and the bidirectional controls (E2 80 AA..AE, E2 81 A6..A9). */
static int terminal_safe(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
            return 0;
        if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            return 0;
        if (p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae)
            return 0;
        if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
            return 0;
    }
    return 1;
}

static void test_text_styles_escaped(void)
{
    tally_report *r = evil_report();
    static const tally_style styles[] = { TALLY_STYLE_TABLE, TALLY_STYLE_MMTESTS,
                                          TALLY_STYLE_NORMALIZED, TALLY_STYLE_PCT };
    for (size_t i = 0; i < TALLY__COUNT(styles); i++) {
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.style = styles[i];
        o.histogram = 1;
        char *text = NULL;
        CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
        CHECK(text != NULL && terminal_safe(text));
        /* Shown visibly, each as its escape. */
        CHECK(text && strstr(text, "c\\x1b[31m\\x07\\u{202E}evil\\x7f\\u{009B}\\\\") != NULL);
        if (styles[i] != TALLY_STYLE_NORMALIZED)
            CHECK(text && strstr(text, "new\\x1b]0;title\\x07") != NULL);
        tally_free(text);
    }
    /* Colour is ours to add: it still comes through. */
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.color = 1;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    CHECK(text && strstr(text, "\\x1b[31m") != NULL);
    tally_free(text);
    /* Machine formats keep the names as they are (JSON escapes them its own way). */
    o = (tally_render_options)TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_JSON;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    CHECK(text && strstr(text, "\\u001b[31m") != NULL);
    tally_free(text);
    tally_report_free(r);
}

/* A clean name prints unchanged, backslashes included. */
static void test_clean_names_unchanged(void)
{
    static const double x[2] = { 1, 2 };
    tally_results *list = NULL;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    add_samples(new_set(list, "b\\ase"), "t", "s", TALLY_LOWER_IS_BETTER, "x\\y \xc3\xa9", x, 2);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, NULL), TALLY_OK);
    CHECK(text && strstr(text, "x\\y \xc3\xa9") != NULL && strstr(text, "b\\ase") != NULL);
    CHECK(text && strstr(text, "\\\\") == NULL); /* no backslash doubled */
    tally_free(text);
    tally_report_free(r);
    tally_results_free(list);
}

/* OWASP's CSV injection list: =, +, -, @, tab, CR first. Negative numbers are not formulas. */
static void test_csv_formulas_neutralised(void)
{
    static const struct {
        const char *name, *field;
    } cases[] = {
        { "=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"" },
        { "+1+cmd|' /C calc'!A0", "\"'+1+cmd|' /C calc'!A0\"" },
        { "-2+3", "\"'-2+3\"" },
        { "@SUM(A1)", "\"'@SUM(A1)\"" },
        { "\tx", "\"'\tx\"" },
        { "-5", "-5" },
        { "-1.5e3", "-1.5e3" },
        { "+7", "+7" },
        { "-", "\"'-\"" },
        { "a=b", "a=b" },
    };
    static const double base[3] = { 10, 11, 12 }, worse[3] = { 20, 21, 22 };
    tally_results *list = NULL;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *a = new_set(list, "base"), *b = new_set(list, "=cmd");
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        add_samples(a, "t", "s", TALLY_LOWER_IS_BETTER, cases[i].name, base, 3);
        add_samples(b, "t", "s", TALLY_LOWER_IS_BETTER, cases[i].name, worse, 3);
    }
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_CSV;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    for (size_t i = 0; text && i < TALLY__COUNT(cases); i++) {
        char want[128];
        snprintf(want, sizeof(want), "\r\nt,%s,", cases[i].field);
        if (!strstr(text, want))
            fprintf(stderr, "  no record starting %s\n", want + 2);
        CHECK(strstr(text, want) != NULL);
    }
    CHECK(text && strstr(text, ",\"'=cmd\",") != NULL);
    /* pct imp of 20 vs 10 (lower is better): (1 - 21/11) * 100 = -90.909...: a plain number. */
    CHECK(text && strstr(text, ",-90.90909090909") != NULL);
    tally_free(text);
    tally_report_free(r);
    tally_results_free(list);
}

static int load_text(const char *text, const char *name)
{
    tally_results *r = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    int rc = tally_load_buffer(r, text, strlen(text), name, NULL);
    tally_results_free(r);
    return rc;
}

static void test_invalid_utf8_refused(void)
{
    /* 0xff never occurs in UTF-8; C0 AF is an overlong '/'; ED A0 80 a surrogate. */
    CHECK_INT(load_text("benchmark,case,config,value\nb,c\xff,base,1\n", "bad.csv"), TALLY_EPARSE);
    CHECK_STR(tally_error_last()->message,
              "bad.csv:2:4: invalid UTF-8 (byte 0xff): tally reads UTF-8 text; convert the file, "
              "e.g. iconv -f LATIN1 -t UTF-8");
    CHECK_INT(load_text("benchmark,case,config,value\nb,c,ba\xc0\xafse,1\n", "o.csv"), TALLY_EPARSE);
    CHECK(strncmp(tally_error_last()->message, "o.csv:2:7: invalid UTF-8 (byte 0xc0)", 36) == 0);
    CHECK_INT(load_text("{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": "
                        "\"a\xed\xa0\x80\", \"benchmarks\": []}]}", "s.json"), TALLY_EPARSE);
    CHECK(strncmp(tally_error_last()->message, "s.json:1:67: invalid UTF-8 (byte 0xed)", 38) == 0);
    CHECK_INT(load_text("1\n2\n# caf\xe9\n", "plain.txt"), TALLY_EPARSE);
    CHECK(strncmp(tally_error_last()->message, "plain.txt:3:6: invalid UTF-8", 28) == 0);
    /* Valid multibyte text loads. */
    CHECK_INT(load_text("benchmark,case,config,value\nb,caf\xc3\xa9 \xe2\x82\xac,base,1\n", "ok.csv"),
              TALLY_OK);
    /* The model refuses such names from the API too. */
    tally_resultset *rs = NULL;
    CHECK_INT(tally_resultset_new(&rs, "a\xff"), TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "not valid UTF-8") != NULL);
    CHECK_INT(tally_resultset_new(&rs, "a"), TALLY_OK);
    tally_benchmark *b = NULL;
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "b\x80", "s", TALLY_LOWER_IS_BETTER),
              TALLY_EINVAL);
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "b", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    tally_case *c = NULL;
    CHECK_INT(tally_benchmark_case_add(&c, b, "c\xe2\x82"), TALLY_EINVAL);
    tally_resultset_free(rs);
}

static void test_duplicate_json_keys_refused(void)
{
    CHECK_INT(load_text("{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": "
                        "\"a\", \"benchmarks\": [{\"name\": \"b\", \"cases\": [{\"name\": \"c\", "
                        "\"samples\": [1, 2], \"samples\": [3]}]}]}]}", "dup.json"),
              TALLY_EPARSE);
    CHECK_STR(tally_error_last()->message,
              "dup.json: $.results[0].benchmarks[0].cases[0].samples: duplicate key \"samples\" "
              "in one object: keep one of them");
    /* Anywhere, in any JSON input: a hyperfine export with two "results". */
    CHECK_INT(load_text("{\"results\": [{\"command\": \"a\", \"times\": [1, 2]}], \"results\": []}",
                        "h.json"), TALLY_EPARSE);
    CHECK(strstr(tally_error_last()->message, "h.json: $.results: duplicate key \"results\"") != NULL);
    /* A big object (sorted comparison): 40 metadata keys, the 3rd repeated as the 40th. */
    char text[4096];
    size_t len = (size_t)snprintf(text, sizeof(text), "{\"format\": \"tally-results\", \"version\": 1, "
                                  "\"results\": [{\"label\": \"a\", \"metadata\": {");
    for (int k = 0; k < 40; k++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "%s\"k%d\": \"v\"", k ? ", " : "",
                                k == 39 ? 2 : k);
    snprintf(text + len, sizeof(text) - len, "}, \"benchmarks\": []}]}");
    CHECK_INT(load_text(text, "meta.json"), TALLY_EPARSE);
    CHECK(strstr(tally_error_last()->message, "$.results[0].metadata.k2: duplicate key \"k2\"") !=
          NULL);
}

int main(void)
{
    test_text_styles_escaped();
    test_clean_names_unchanged();
    test_csv_formulas_neutralised();
    test_invalid_utf8_refused();
    test_duplicate_json_keys_refused();
    return check_summary();
}
