/*
 * The number arrays read straight from a JSON text (util/json_split.h) against cJSON's tree of
 * the same text, for every shape that uses them: native samples, hyperfine times and exit codes,
 * pyperf values.
 * Invariants (a differential test): the cut parse succeeds exactly when the whole-text parse
 * does, with the same code and message; on an accepted text both trees have the same arrays at
 * the cut paths, and each, visited in document order, gives the same code and bit-identical
 * numbers both ways; every cut array is visited once.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_support.h"
#include "util/json_split.h"

static const char *const native_prefix[] = { "results", "*", "benchmarks", "*", "cases", "*",
                                             NULL };
static const char *const native_keys[] = { "samples", NULL };
static const char *const hyperfine_prefix[] = { "results", "*", NULL };
static const char *const hyperfine_keys[] = { "times", "exit_codes", NULL };
static const char *const pyperf_prefix[] = { "benchmarks", "*", "runs", "*", NULL };
static const char *const pyperf_keys[] = { "values", NULL };

static const tally__json_cut shapes[] = {
    { native_prefix, native_keys },
    { hyperfine_prefix, hyperfine_keys },
    { pyperf_prefix, pyperf_keys },
};

typedef struct walk {
    const tally__json_cut *cut;
    size_t prefix_len;
    tally__json_doc *split; /* cut arrays, when the scanner took the text */
    tally__json_doc *whole; /* the tree of the whole text */
    size_t visited;
} walk;

static uint64_t bits_of(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static void compare_arrays(walk *w, const cJSON *a, const cJSON *b, size_t key, tally__jpath *path)
{
    FUZZ_CHECK(cJSON_IsArray(a) == cJSON_IsArray(b), "the same member is an array in both trees");
    if (!cJSON_IsArray(a))
        return;
    const double *x, *y;
    size_t nx, ny;
    int rx = tally__json_doc_numbers(&x, &nx, w->split, a, key, path);
    char message[512] = "";
    if (rx != TALLY_OK)
        snprintf(message, sizeof message, "%s", tally_error_last()->message);
    int ry = tally__json_doc_numbers(&y, &ny, w->whole, b, key, path);
    w->visited++;
    FUZZ_CHECK(rx == ry, "the same code from the cut array and from the tree");
    if (rx != TALLY_OK) {
        FUZZ_CHECK(strcmp(message, tally_error_last()->message) == 0, "the same message");
        return;
    }
    FUZZ_CHECK(nx == ny, "as many numbers cut as in the tree");
    for (size_t i = 0; i < nx; i++)
        FUZZ_CHECK(bits_of(x[i]) == bits_of(y[i]), "bit-identical numbers");
}

static void visit(walk *w, const cJSON *a, const cJSON *b, size_t step, tally__jpath *path)
{
    if (step == w->prefix_len) {
        if (!cJSON_IsObject(a) || !cJSON_IsObject(b))
            return;
        for (size_t k = 0; w->cut->keys[k]; k++) {
            const char *key = w->cut->keys[k];
            size_t mark = tally__jpath_key(path, key);
            compare_arrays(w, cJSON_GetObjectItemCaseSensitive(a, key),
                           cJSON_GetObjectItemCaseSensitive(b, key), k, path);
            tally__jpath_pop(path, mark);
        }
        return;
    }
    const char *want = w->cut->prefix[step];
    if (strcmp(want, "*") == 0) {
        if (!cJSON_IsArray(a) || !cJSON_IsArray(b))
            return;
        FUZZ_CHECK(cJSON_GetArraySize(a) == cJSON_GetArraySize(b), "arrays on the path agree");
        size_t i = 0;
        for (const cJSON *ca = a->child, *cb = b->child; ca && cb; ca = ca->next, cb = cb->next) {
            size_t mark = tally__jpath_index(path, i++);
            visit(w, ca, cb, step + 1, path);
            tally__jpath_pop(path, mark);
        }
        return;
    }
    if (!cJSON_IsObject(a) || !cJSON_IsObject(b))
        return;
    size_t mark = tally__jpath_key(path, want);
    visit(w, cJSON_GetObjectItemCaseSensitive(a, want), cJSON_GetObjectItemCaseSensitive(b, want),
          step + 1, path);
    tally__jpath_pop(path, mark);
}

static void check_shape(const tally__json_cut *cut, const char *text, size_t len)
{
    tally__json_doc split, whole;
    int rs = tally__json_doc_parse(&split, text, len, "fuzz.json", cut);
    char message[512] = "";
    if (rs != TALLY_OK)
        snprintf(message, sizeof message, "%s", tally_error_last()->message);
    memset(&whole, 0, sizeof whole);
    whole.name = "fuzz.json";
    int rw = tally__json_parse(&whole.root, text, len, "fuzz.json");
    FUZZ_CHECK(rs == rw, "the cut parse accepts exactly what the whole-text parse accepts");
    if (rs != TALLY_OK) {
        FUZZ_CHECK(strcmp(message, tally_error_last()->message) == 0, "the same message");
    } else {
        walk w = { cut, 0, &split, &whole, 0 };
        while (cut->prefix[w.prefix_len])
            w.prefix_len++;
        tally__jpath path;
        tally__jpath_init(&path);
        visit(&w, split.root, whole.root, 0, &path);
        FUZZ_CHECK(split.arrays == NULL || w.visited == split.array_count,
                   "every cut array has its place in the tree");
    }
    tally__json_doc_free(&split);
    tally__json_doc_free(&whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < TALLY__COUNT(shapes); i++)
        check_shape(&shapes[i], (const char *)data, size);
    return 0;
}
