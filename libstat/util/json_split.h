/* JSON documents whose big arrays of numbers are read straight from the text: a hyperfine file's
 * `times`, pyperf's `values`, tally's own `samples`. cJSON spends a tree node of some 80 bytes
 * and a strtod per number; for files of millions of samples that is several times the file and
 * most of the time. The arrays at a known path are cut out of the text (their numbers converted
 * on the way by the number module, checked as strictly as the whole-document path checks them),
 * cJSON parses the small rest, and the reader takes the numbers of each cut array in document
 * order. Any doubt (an array at such a path holding anything but numbers, a number the JSON
 * rules or tally's limits refuse, an escaped or repeated key on the path, nesting beyond cJSON's
 * limit, a rest that does not parse) sends the whole original text through tally__json_parse,
 * whose messages then name the exact line:col or JSON path. */
#ifndef TALLY_JSON_SPLIT_H
#define TALLY_JSON_SPLIT_H

#include <stddef.h>

#include "util/json_util.h"

/* At most this many keys of cut arrays per document shape. */
#define TALLY__JSON_CUT_KEYS_MAX 4

/* Where the arrays are: `prefix` is the path of the objects that hold them, one step per
 * element, a key or "*" for any element of an array, NULL-terminated ({"results", "*", NULL} is
 * $.results[*]); `keys` are the members of those objects whose array values are cut,
 * NULL-terminated ({"times", "exit_codes", NULL}). */
typedef struct tally__json_cut {
    const char *const *prefix;
    const char *const *keys;
} tally__json_cut;

typedef struct tally__json_cut_array tally__json_cut_array;

typedef struct tally__json_doc {
    cJSON *root; /* the document (with the cut arrays empty); owned */
    /* The cut arrays, in document order, each with its numbers; none when the text went to
     * cJSON whole. */
    tally__json_cut_array *arrays;
    size_t array_count;
    size_t next[TALLY__JSON_CUT_KEYS_MAX]; /* per key: the next cut array to look at */
    double *scratch;                       /* numbers of an uncut array, for the caller */
    const char *name;
} tally__json_doc;

/* Parse data[0..len) (what tally__json_parse accepts, with the same messages) and cut the arrays
 * `cut` names. On success doc->root is the document; free it all with tally__json_doc_free,
 * also after a failure. */
int tally__json_doc_parse(tally__json_doc *doc, const char *data, size_t len, const char *name,
                          const tally__json_cut *cut);

void tally__json_doc_free(tally__json_doc *doc);

/* The numbers of `array`, the value of cut->keys[key] in an object at the prefix path (the
 * caller visits these arrays in document order, each once): *out points at *count finite
 * doubles, valid until the next call or tally__json_doc_free. For an array that was not cut
 * they are read from the tree, and an element that is not a finite number is an error naming
 * `path` (the path of the array) and its index. */
int tally__json_doc_numbers(const double **out, size_t *count, tally__json_doc *doc,
                            const cJSON *array, size_t key, tally__jpath *path);

/* As tally__json_doc_numbers, but the caller takes the numbers: *out (NULL when there are
 * none) is a tally__malloc block with room for *cap doubles that the caller frees, for a case to
 * keep as its samples without a copy (tally__case_adopt). */
int tally__json_doc_take(double **out, size_t *count, size_t *cap, tally__json_doc *doc,
                         const cJSON *array, size_t key, tally__jpath *path);

#endif /* TALLY_JSON_SPLIT_H */
