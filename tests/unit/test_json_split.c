/* Number arrays read straight from a JSON text (util/json_split.h): which arrays are cut, the
 * numbers they give (expected values are the literals, written out by hand), the order of
 * several keys, and the doubts that send the whole text to cJSON. The differential check
 * against cJSON on real files is the json_split fuzz target's corpus (fuzz/corpora/json_split). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "tally.h"
#include "util/count.h"
#include "util/internal.h"
#include "util/json_split.h"

static const char *const native_prefix[] = { "results", "*", "benchmarks", "*", "cases", "*",
                                             NULL };
static const char *const native_keys[] = { "samples", NULL };
static const tally__json_cut native = { native_prefix, native_keys };

static const char *const hf_prefix[] = { "results", "*", NULL };
static const char *const hf_keys[] = { "times", "exit_codes", NULL };
static const tally__json_cut hyperfine = { hf_prefix, hf_keys };

/* The member `key` of the object at results[i] of a hyperfine-shaped document. */
static const cJSON *hf_member(const tally__json_doc *d, int i, const char *key)
{
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(d->root, "results");
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, i), key);
}

static void test_native_shape(void)
{
    /* Only $.results[*].benchmarks[*].cases[*].samples are cut; "x" keeps its own "samples". */
    const char *text = "{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": \"a\", "
                       "\"benchmarks\": [{\"name\": \"b\", \"cases\": [{\"name\": \"c\", \"samples\": "
                       "[1, 2.5e1 ,-0]}, {\"name\": \"d\", \"x\": {\"samples\": [9]}, \"samples\": [3]}]}]}]}";
    tally__json_doc d;
    CHECK_INT(tally__json_doc_parse(&d, text, strlen(text), "n.json", &native), TALLY_OK);
    CHECK(d.arrays != NULL);
    CHECK_INT(d.array_count, 2);
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                               cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d.root, "results"), 0),
                               "benchmarks"),
                           0),
        "cases");
    const cJSON *c0 = cJSON_GetArrayItem(cases, 0), *c1 = cJSON_GetArrayItem(cases, 1);
    const cJSON *s0 = cJSON_GetObjectItemCaseSensitive(c0, "samples");
    CHECK_INT(cJSON_GetArraySize(s0), 0); /* empty in the tree */
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c1, "x"), "samples");
    CHECK_INT(cJSON_GetArraySize(x), 1); /* off the path: left to cJSON */
    tally__jpath path;
    tally__jpath_init(&path);
    const double *v;
    size_t n;
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, s0, 0, &path), TALLY_OK);
    CHECK_INT(n, 3);
    CHECK(n == 3 && v[0] == 1.0 && v[1] == 25.0 && v[2] == 0.0 && signbit(v[2]));
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, cJSON_GetObjectItemCaseSensitive(c1, "samples"), 0,
                                      &path),
              TALLY_OK);
    CHECK(n == 1 && v[0] == 3.0);
    tally__json_doc_free(&d);
}

static void test_key_order(void)
{
    /* Two keys in either order, an empty array, numbers of every form: each key's arrays come
     * back in document order. */
    const char *text = "{\"results\": [{\"exit_codes\": [0, 1], \"times\": [0.5, 1e-3 ,\n\t-2]}, "
                       "{\"times\": [], \"exit_codes\": [3]}, {\"times\": [0.30000000000000004]}]}";
    tally__json_doc d;
    CHECK_INT(tally__json_doc_parse(&d, text, strlen(text), "h.json", &hyperfine), TALLY_OK);
    CHECK_INT(d.array_count, 5);
    tally__jpath path;
    tally__jpath_init(&path);
    const double *v;
    size_t n;
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 0, "times"), 0, &path), TALLY_OK);
    CHECK(n == 3 && v[0] == 0.5 && v[1] == 0.001 && v[2] == -2.0);
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 0, "exit_codes"), 1, &path), TALLY_OK);
    CHECK(n == 2 && v[0] == 0.0 && v[1] == 1.0);
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 1, "times"), 0, &path), TALLY_OK);
    CHECK_INT(n, 0);
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 1, "exit_codes"), 1, &path), TALLY_OK);
    CHECK(n == 1 && v[0] == 3.0);
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 2, "times"), 0, &path), TALLY_OK);
    /* 0.1 + 0.2 in binary64 is 0x3FD3333333333334, Python's repr 0.30000000000000004. */
    CHECK(n == 1 && v[0] == 0x1.3333333333334p-2);
    /* A sixth array of a key: none was cut, an internal error, never a wrong number. */
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 2, "times"), 0, &path), TALLY_ERROR);
    tally__json_doc_free(&d);
}

static void test_doubts(void)
{
    /* Valid documents the scanner leaves to cJSON whole: a non-number in an array on the path,
     * an escaped key, a null exit code, a key "*" (not a wildcard), nested arrays. */
    static const char *const whole[] = {
        "{\"results\": [{\"times\": [1, \"2\"]}]}",
        "{\"results\": [{\"tim\\u0065s\": [1, 2]}]}",
        "{\"results\": [{\"times\": [1], \"exit_codes\": [null]}]}",
        "{\"results\": {\"*\": {\"times\": [1]}}}",
        "{\"results\": [{\"times\": [[1]]}]}",
    };
    for (size_t i = 0; i < TALLY__COUNT(whole); i++) {
        tally__json_doc d;
        CHECK_INT(tally__json_doc_parse(&d, whole[i], strlen(whole[i]), "h.json", &hyperfine),
                  TALLY_OK);
        CHECK(d.root != NULL && d.arrays == NULL);
        tally__json_doc_free(&d);
    }
    /* Refused ones keep the whole-text messages (line:col, or the JSON path). */
    static const struct {
        const char *text;
        int code;
        const char *message;
    } refused[] = {
        { "{\"results\": [{\"times\": [1], \"times\": [2]}]}", TALLY_EPARSE,
          "h.json: $.results[0].times: duplicate key \"times\" in one object: keep one of them" },
        { "{\"results\": [{\"times\": [1, 01]}]}", TALLY_EPARSE,
          "h.json: $.results[0].times[1]: '01' is not a JSON number (JSON wants digits on both "
          "sides of a point and no leading zeros)" },
        { "{\"results\": [{\"times\": [1, 2e999]}]}", TALLY_ENONFINITE,
          "h.json: $.results[0].times[1]: number out of range (beyond 1.8e308), found '2e999'" },
        { "{\"results\": [{\"times\": [1,, 2]}]}", TALLY_EPARSE,
          /* Python: text.index(",,") + 2 = 27, the second comma's column */
          "h.json:1:27: invalid JSON near ', 2]}]}'" },
        { "{\"results\": [{\"times\": [1, 2", TALLY_EPARSE,
          /* Python: len(text) + 1 = 29, just past the end */
          "h.json:1:29: unexpected end of JSON input (truncated file?)" },
    };
    for (size_t i = 0; i < TALLY__COUNT(refused); i++) {
        tally__json_doc d;
        CHECK_INT(tally__json_doc_parse(&d, refused[i].text, strlen(refused[i].text), "h.json",
                                        &hyperfine),
                  refused[i].code);
        CHECK_STR(tally_error_last()->message, refused[i].message);
        tally__json_doc_free(&d);
    }
}

/* An array that was not cut is read from the tree, with the path of a refused element. */
static void test_tree_numbers(void)
{
    const char *text = "{\"results\": [{\"times\": [1, \"2\"]}]}";
    tally__json_doc d;
    CHECK_INT(tally__json_doc_parse(&d, text, strlen(text), "h.json", &hyperfine), TALLY_OK);
    tally__jpath path;
    tally__jpath_init(&path);
    tally__jpath_key(&path, "times");
    const double *v;
    size_t n;
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 0, "times"), 0, &path), TALLY_EPARSE);
    CHECK_STR(tally_error_last()->message, "h.json: $.times[1]: expected a number, found a string");
    CHECK_STR(path.text, "$.times");
    tally__json_doc_free(&d);
}

/* The numbers taken by a reader (a block it owns), of cut arrays and of the tree, across white
 * space of every kind and run length (the 8-byte steps over runs of spaces: 7, 8, 9, 17 spaces,
 * tabs and CRLF among them, the last number right before the end of the text). */
static void test_take(void)
{
    const char *text = "{\"results\": [{\"times\": [\r\n       1,\n        2 ,\t        \r\n  3,"
                       "                 4e0], \"exit_codes\": [ ]},\n"
                       "{\"times\": [5,\n\t        6]}]}";
    tally__jpath path;
    tally__jpath_init(&path);
    tally__json_doc d;
    CHECK_INT(tally__json_doc_parse(&d, text, strlen(text), "h.json", &hyperfine), TALLY_OK);
    CHECK(d.arrays != NULL && d.array_count == 3);
    double *x;
    size_t n, cap;
    CHECK_INT(tally__json_doc_take(&x, &n, &cap, &d, hf_member(&d, 0, "times"), 0, &path), TALLY_OK);
    CHECK(n == 4 && cap >= 4 && x[0] == 1 && x[1] == 2 && x[2] == 3 && x[3] == 4);
    /* The block is the reader's: the doc frees it no more (ASan: no double free). */
    tally__free_mem(x);
    CHECK_INT(tally__json_doc_take(&x, &n, &cap, &d, hf_member(&d, 0, "exit_codes"), 1, &path),
              TALLY_OK);
    CHECK(n == 0 && x == NULL);
    CHECK_INT(tally__json_doc_take(&x, &n, &cap, &d, hf_member(&d, 1, "times"), 0, &path), TALLY_OK);
    CHECK(n == 2 && x[0] == 5 && x[1] == 6);
    tally_case *c = NULL;
    tally_results *r;
    tally_resultset *rs;
    tally_benchmark *b;
    tally_results_new(&r);
    tally_resultset_new(&rs, "a");
    tally_results_add(r, rs);
    tally_resultset_benchmark_add(&b, rs, "b", "s", TALLY_LOWER_IS_BETTER);
    tally_benchmark_case_add(&c, b, "c");
    /* An empty case keeps the block; a second block is appended to it. */
    CHECK_INT(tally__case_adopt(c, x, n, cap), TALLY_OK);
    tally__json_doc_free(&d);

    /* A string in the array: the whole text goes to cJSON, and the numbers come from the tree. */
    text = "{\"results\": [{\"times\": [7,        8, \"x\"]}]}";
    CHECK_INT(tally__json_doc_parse(&d, text, strlen(text), "h.json", &hyperfine), TALLY_OK);
    CHECK(d.arrays == NULL);
    const cJSON *times = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d.root, "results"), 0), "times");
    cJSON_DeleteItemFromArray((cJSON *)times, 2);
    CHECK_INT(tally__json_doc_take(&x, &n, &cap, &d, times, 0, &path), TALLY_OK);
    CHECK(n == 2 && cap == 2 && x[0] == 7 && x[1] == 8);
    CHECK_INT(tally__case_adopt(c, x, n, cap), TALLY_OK);
    tally__json_doc_free(&d);
    CHECK_INT(tally_case_sample_count(c), 4);
    const double *all = tally_case_samples(c);
    CHECK(all[0] == 5 && all[1] == 6 && all[2] == 7 && all[3] == 8);
    tally_results_free(r);
}

/* text, copied into a block of exactly its length (no NUL, nothing readable after it: ASan
 * sees any read past the end), through tally__json_doc_parse. */
static int parse_exact(tally__json_doc *d, const char *text)
{
    size_t n = strlen(text);
    char *copy = tally__malloc(n);
    CHECK(copy != NULL);
    if (copy == NULL)
        return TALLY_ENOMEM;
    memcpy(copy, text, n);
    int rc = tally__json_doc_parse(d, copy, n, "h.json", &hyperfine);
    tally__free_mem(copy);
    return rc;
}

/* The numbers of real hyperfine files (17 digits after "0.00"), 16 to 20 significant digits, a
 * lone 0 and its neighbours, and the last number of the text a few bytes before its end (the
 * long path needs more: the general scan reads those). The expected values are the same
 * literals read by the C compiler. */
static void test_long_numbers(void)
{
    const char *text = "{\"results\": [{\"times\": [0.005981193679999999,-0.0065699746891775355,"
                       "1234567890123456,12345678901234567, 0.1234567890123456789,"
                       "0.12345678901234567891,1.5e-3,0,-0, 0.0,10,0.005981193679999999]}]}";
    static const double want[] = { 0.005981193679999999, -0.0065699746891775355,
                                   1234567890123456.0, 12345678901234567.0,
                                   0.1234567890123456789, 0.12345678901234567891, 1.5e-3, 0.0,
                                   -0.0, 0.0, 10.0, 0.005981193679999999 };
    tally__json_doc d;
    CHECK_INT(parse_exact(&d, text), TALLY_OK);
    CHECK(d.arrays != NULL);
    tally__jpath path;
    tally__jpath_init(&path);
    const double *v = NULL;
    size_t n = 0;
    CHECK_INT(tally__json_doc_numbers(&v, &n, &d, hf_member(&d, 0, "times"), 0, &path), TALLY_OK);
    CHECK_INT(n, TALLY__COUNT(want));
    for (size_t i = 0; i < n && i < TALLY__COUNT(want); i++)
        CHECK(memcmp(&v[i], &want[i], sizeof(double)) == 0); /* the bits: -0 is not 0 */
    tally__json_doc_free(&d);
}

/* Each kind of number JSON or tally refuses, right after a number of the long path's shape and
 * followed by one, and last in the text: the whole-text messages, with the element's JSON path
 * or the line:col of cJSON's refusal. */
static void test_refusals(void)
{
    static const struct {
        const char *token;
        int code;
        const char *message;
    } cases[] = {
        { "05981193679999999", TALLY_EPARSE,
          "h.json: $.results[0].times[1]: '05981193679999999' is not a JSON number (JSON wants "
          "digits on both sides of a point and no leading zeros)" },
        { "-00.005981193679999999", TALLY_EPARSE,
          "h.json: $.results[0].times[1]: '-00.005981193679999999' is not a JSON number (JSON "
          "wants digits on both sides of a point and no leading zeros)" },
        { "5981193679999999.", TALLY_EPARSE,
          "h.json: $.results[0].times[1]: '5981193679999999.' is not a JSON number (JSON wants "
          "digits on both sides of a point and no leading zeros)" },
        { "1e400", TALLY_ENONFINITE,
          "h.json: $.results[0].times[1]: number out of range (beyond 1.8e308), found '1e400'" },
        { "-0.1e-400", TALLY_ENONFINITE,
          "h.json: $.results[0].times[1]: number out of range (below 4.9e-324, it would read as "
          "0), found '-0.1e-400'" },
    };
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        for (int last = 0; last <= 1; last++) {
            char text[256];
            snprintf(text, sizeof(text),
                     "{\"results\": [{\"times\": [0.005981193679999999,%s%s]}]}",
                     cases[i].token, last ? "" : ", 0.006667229747760416");
            tally__json_doc d;
            CHECK_INT(parse_exact(&d, text), cases[i].code);
            CHECK_STR(tally_error_last()->message, cases[i].message);
            tally__json_doc_free(&d);
        }
    }
    /* What cJSON itself refuses ('+', a point first, a sign alone, nan, inf, an exponent
     * without digits), at its line:col and with the next 16 characters: Python's
     * text.index(token, 30) + 1 = 46, where the token starts, and text.index("e,") + 1 = 66,
     * the 'e' cJSON stops at. */
    static const struct {
        const char *token;
        const char *message;
    } syntax[] = {
        { "+0.005981193679999999", "h.json:1:46: invalid JSON near '+0.0059811936799'" },
        { ".005981193679999999", "h.json:1:46: invalid JSON near '.005981193679999'" },
        { "-", "h.json:1:46: invalid JSON near '-, 0.00666722974'" },
        { "nan", "h.json:1:46: invalid JSON near 'nan, 0.006667229'" },
        { "inf", "h.json:1:46: invalid JSON near 'inf, 0.006667229'" },
        { "0.005981193679999999e", "h.json:1:66: invalid JSON near 'e, 0.00666722974'" },
    };
    for (size_t i = 0; i < TALLY__COUNT(syntax); i++) {
        char text[256];
        snprintf(text, sizeof(text),
                 "{\"results\": [{\"times\": [0.005981193679999999,%s, 0.006667229747760416]}]}",
                 syntax[i].token);
        tally__json_doc d;
        CHECK_INT(parse_exact(&d, text), TALLY_EPARSE);
        CHECK_STR(tally_error_last()->message, syntax[i].message);
        tally__json_doc_free(&d);
    }
}

/* The separators the bulk loop of the arrays (tally__number_json_elements) meets, each between
 * every two of 24 elements: none, spaces and tabs on either side of the comma, line breaks,
 * runs of more than 8 spaces. Element k is written "k.250000" (k + 1/4, an exact double) or,
 * for odd k, as 17 digits "k.2500000000000000" (the same value): both scans of the loop. */
static const char *const separators[] = { ",", ", ", " ,", " , ", "\t,\t", ",\n  ", "\r\n,\r\n",
                                          ",           ", "          ,\n\t " };

/* The hyperfine text of 24 elements with separator sep, element `bad` (when < 24) replaced by
 * token; returns the offset of element `bad` in *at. */
static void element_text(char *text, size_t room, const char *sep, size_t bad, const char *token,
                         size_t *at)
{
    size_t len = (size_t)snprintf(text, room, "{\"results\": [{\"times\": [");
    for (size_t k = 0; k < 24; k++) {
        if (k == bad)
            *at = len;
        if (k == bad)
            len += (size_t)snprintf(text + len, room - len, "%s", token);
        else if (k % 2)
            len += (size_t)snprintf(text + len, room - len, "%zu.2500000000000000", k);
        else
            len += (size_t)snprintf(text + len, room - len, "%zu.250000", k);
        len += (size_t)snprintf(text + len, room - len, "%s", k < 23 ? sep : "]}]}");
    }
}

static void test_element_separators(void)
{
    for (size_t i = 0; i < TALLY__COUNT(separators); i++) {
        char text[1024];
        size_t at = 0;
        element_text(text, sizeof(text), separators[i], 24, "", &at);
        /* Cut (not left to cJSON), and each element k + 1/4 exactly. */
        tally__json_doc d;
        CHECK_INT(parse_exact(&d, text), TALLY_OK);
        tally__jpath path;
        tally__jpath_init(&path);
        double *x = NULL;
        size_t n = 0, cap = 0;
        CHECK(d.arrays != NULL &&
              tally__json_doc_take(&x, &n, &cap, &d, hf_member(&d, 0, "times"), 0, &path) == TALLY_OK);
        CHECK_INT(n, 24);
        for (size_t k = 0; k < n && k < 24; k++)
            CHECK(x[k] == (double)k + 0.25);
        tally__free_mem(x);
        tally__json_doc_free(&d);
    }
    /* The loop itself: "1.250000, 2.250000" and so on, each element 10 bytes with its ", ".
     * It takes an element while 56 bytes are left at its start and a comma follows it: of the
     * 20 elements (200 bytes, the last without its comma: 198), those starting at 0, 10, ...,
     * 140 (198 - 140 = 58 >= 56; 198 - 150 = 48 is too few), 15 of them, *at then 150. */
    char run[256];
    size_t len = 0;
    for (int k = 1; k <= 20; k++)
        len += (size_t)snprintf(run + len, sizeof(run) - len, "%d.250000%s", k % 10,
                                k < 20 ? ", " : "");
    CHECK_INT(len, 198);
    double out[20];
    const char *p = run;
    CHECK_INT(tally__number_json_elements(out, 20, &p, run + len), 15);
    CHECK_INT(p - run, 150);
    for (int k = 0; k < 15; k++)
        CHECK(out[k] == (double)((k + 1) % 10) + 0.25);
    /* Out of room after 4: *at at the fifth element. */
    p = run;
    CHECK_INT(tally__number_json_elements(out, 4, &p, run + len), 4);
    CHECK_INT(p - run, 40);
}

/* A refused element at each of the 24 positions, after each separator: the message names its
 * index (tally's own refusals of what cJSON reads) or cJSON's line:col, the token's own offset
 * + 1 on the one line of the text (for '+', where cJSON stops). */
static void test_element_refusals(void)
{
    static const struct {
        const char *token;
        const char *message; /* after "h.json: $.results[0].times[K]: " */
    } own[] = {
        { "05.250000", "'05.250000' is not a JSON number (JSON wants digits on both sides of a "
                       "point and no leading zeros)" },
        { "-05.250000", "'-05.250000' is not a JSON number (JSON wants digits on both sides of a "
                        "point and no leading zeros)" },
        { "5.", "'5.' is not a JSON number (JSON wants digits on both sides of a point and no "
                "leading zeros)" },
        { "1e400", "number out of range (beyond 1.8e308), found '1e400'" },
    };
    for (size_t i = 0; i < TALLY__COUNT(separators); i++) {
        if (strchr(separators[i], '\n'))
            continue; /* one line: the columns below are offsets + 1 */
        for (size_t bad = 0; bad < 24; bad++) {
            for (size_t t = 0; t < TALLY__COUNT(own); t++) {
                char text[1024], want[512];
                size_t at = 0;
                element_text(text, sizeof(text), separators[i], bad, own[t].token, &at);
                snprintf(want, sizeof(want), "h.json: $.results[0].times[%zu]: %s", bad,
                         own[t].message);
                tally__json_doc d;
                int code = strchr(own[t].token, 'e') ? TALLY_ENONFINITE : TALLY_EPARSE;
                CHECK_INT(parse_exact(&d, text), code);
                CHECK_STR(tally_error_last()->message, want);
                tally__json_doc_free(&d);
            }
            char text[1024], want[128];
            size_t at = 0;
            element_text(text, sizeof(text), separators[i], bad, "+1.250000", &at);
            snprintf(want, sizeof(want), "h.json:1:%zu: invalid JSON near '%.16s'", at + 1,
                     text + at);
            tally__json_doc d;
            CHECK_INT(parse_exact(&d, text), TALLY_EPARSE);
            CHECK_STR(tally_error_last()->message, want);
            tally__json_doc_free(&d);
        }
    }
}

int main(void)
{
    test_element_separators();
    test_element_refusals();
    test_long_numbers();
    test_refusals();
    test_native_shape();
    test_key_order();
    test_doubts();
    test_tree_numbers();
    test_take();
    return check_summary();
}
