/* Cutting the number arrays at a known path out of a JSON text (json_split.h). The scanner is
 * not a JSON parser: it tracks strings, brackets and the keys on the path, converts the numbers
 * of the arrays it cuts, and gives up (leaving the text to cJSON whole) whenever the text is not
 * exactly what it expects. Cutting the contents of an array that holds only numbers leaves a
 * text that is valid JSON exactly when the original is, with the same keys and strings, so
 * cJSON still checks everything else. */
#include <string.h>

#include "util/internal.h"
#include "util/json_split.h"

struct tally__json_cut_array {
    size_t offset; /* the array's contents (between the brackets) in the text */
    size_t len;
    double *values; /* its numbers, in a block of its own that a reader may take (a case's
                     * samples: no copy); NULL when empty or taken */
    size_t count;
    size_t cap;
    unsigned char key;
};

/* What the key of the value about to start is. */
enum { KEY_OTHER = -2, KEY_PREFIX = -1 };

typedef struct frame {
    int step; /* prefix steps matched up to this container, -1 when off the path */
    unsigned char is_object;
    unsigned char seen; /* keys on the path met in this object: bit 0 the prefix key, 1 + k keys[k] */
} frame;

typedef struct splitter {
    const char *data;
    const char *end;
    const tally__json_cut *cut;
    int prefix_len;
    int key_count;
    frame stack[CJSON_NESTING_LIMIT + 1];
    size_t depth;
    int key; /* KEY_OTHER, KEY_PREFIX or k: the key of the value about to start */
    tally__json_cut_array *arrays;
    size_t count, cap;
    size_t cut_bytes;
    int oom; /* a growth failed: the scan stopped for that, not for a doubt */
} splitter;

static int is_any(const char *step)
{
    return step[0] == '*' && step[1] == '\0';
}

static void free_arrays(tally__json_cut_array *arrays, size_t count)
{
    for (size_t i = 0; i < count; i++)
        tally__free_mem(arrays[i].values);
    tally__free_mem(arrays);
}

/* The numbers of the array at p (just after its '['), into a->values; returns the ']', or NULL
 * for a doubt or when out of memory (s->oom). */
static const char *scan_numbers(splitter *s, tally__json_cut_array *a, const char *p)
{
    p = tally__json_skip_ws(p, s->end);
    if (p < s->end && *p == ']')
        return p;
    double *out = a->values;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            /* Doubling: a large block grows in place (mremap), a small one is cheap to move. */
            cap = cap ? cap * 2 : 16;
            double *grown = tally__reallocarray(out, cap, sizeof(*grown));
            if (grown == NULL) {
                s->oom = 1;
                p = NULL;
                break;
            }
            out = grown;
        }
        /* The run of plain elements in one loop; the general path below reads the element it
         * stops at (the last one, another shape, a doubt) and checks what follows. */
        n += tally__number_json_elements(out + n, cap - n, &p, s->end);
        if (n == cap)
            continue;
        const char *stop;
        if (tally__number_scan_json(&out[n], &stop, p, s->end) != TALLY__NUMBER_OK) {
            p = NULL;
            break;
        }
        n++;
        p = tally__json_skip_ws(stop, s->end);
        if (p < s->end && *p == ',') {
            p = tally__json_skip_ws(p + 1, s->end);
            continue;
        }
        if (p >= s->end || *p != ']')
            p = NULL;
        break;
    }
    a->values = out;
    a->count = n;
    a->cap = cap;
    return p;
}

/* An array to cut: p is just after its '['. Converts its numbers and returns its ']', or NULL
 * for a doubt. */
static const char *cut_array(splitter *s, const char *p, int key)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        tally__json_cut_array *grown = tally__reallocarray(s->arrays, cap, sizeof(*grown));
        if (grown == NULL) {
            s->oom = 1;
            return NULL;
        }
        s->arrays = grown;
        s->cap = cap;
    }
    /* Counted at once, so that its block is freed with the others whatever happens. */
    tally__json_cut_array *a = &s->arrays[s->count++];
    *a = (tally__json_cut_array){ (size_t)(p - s->data), 0, NULL, 0, 0, (unsigned char)key };
    const char *close = scan_numbers(s, a, p);
    if (close == NULL)
        return NULL;
    a->len = (size_t)(close - p);
    s->cut_bytes += a->len;
    return close;
}

/* The key a string names in an object on the path, from its raw bytes: KEY_OTHER, KEY_PREFIX,
 * k, or -3 for a doubt (an escaped key, which cJSON would decode and this scan does not). */
static int key_of(const splitter *s, const frame *top, const char *q, size_t n)
{
    if (top->step < 0)
        return KEY_OTHER;
    if (memchr(q, '\\', n))
        return -3;
    if (top->step < s->prefix_len) {
        const char *want = s->cut->prefix[top->step];
        return !is_any(want) && strlen(want) == n && memcmp(q, want, n) == 0 ? KEY_PREFIX
                                                                           : KEY_OTHER;
    }
    for (int k = 0; k < s->key_count; k++)
        if (strlen(s->cut->keys[k]) == n && memcmp(q, s->cut->keys[k], n) == 0)
            return k;
    return KEY_OTHER;
}

/* The step a new container matches, from its parent and the key it is the value of. */
static int child_step(const splitter *s, const frame *parent)
{
    if (parent == NULL)
        return 0;
    if (parent->step < 0 || parent->step >= s->prefix_len)
        return -1;
    if (parent->is_object)
        return s->key == KEY_PREFIX ? parent->step + 1 : -1;
    return is_any(s->cut->prefix[parent->step]) ? parent->step + 1 : -1;
}

/* Scan the whole text. Returns 1 when it was read without doubt, 0 otherwise. */
static int scan(splitter *s)
{
    for (const char *p = s->data; p < s->end; p++) {
        char c = *p;
        frame *top = s->depth ? &s->stack[s->depth - 1] : NULL;
        if (c == '"') {
            const char *q = ++p;
            while (p < s->end && *p != '"')
                p += *p == '\\' ? 2 : 1;
            if (p >= s->end)
                return 0;
            const char *after = tally__json_skip_ws(p + 1, s->end);
            if (top && top->is_object && after < s->end && *after == ':') {
                int key = key_of(s, top, q, (size_t)(p - q));
                if (key == -3)
                    return 0;
                if (key != KEY_OTHER) {
                    unsigned bit = 1u << (key + 1);
                    if (top->seen & bit)
                        return 0; /* a key twice on the path: cJSON's check names it */
                    top->seen |= (unsigned char)bit;
                }
                s->key = key;
            }
        } else if (c == '{' || c == '[') {
            if (s->depth >= CJSON_NESTING_LIMIT)
                return 0;
            if (c == '[' && top && top->is_object && top->step == s->prefix_len && s->key >= 0) {
                const char *close = cut_array(s, p + 1, s->key);
                if (close == NULL)
                    return 0;
                p = close; /* the ']' closes the array: no frame for it */
                s->key = KEY_OTHER;
                continue;
            }
            s->stack[s->depth++] = (frame){ child_step(s, top), (unsigned char)(c == '{'), 0 };
            s->key = KEY_OTHER;
        } else if (c == '}' || c == ']') {
            if (s->depth == 0)
                return 0;
            s->depth--;
        } else if (c == ',') {
            s->key = KEY_OTHER;
        } else if ((unsigned char)c < 0x20 && !tally__json_is_ws(c)) {
            /* A control byte outside a string: cJSON skips it as white space, so a key followed
             * by one is still a key to cJSON but not to this scan (which would then leave its
             * arrays uncut). A doubt: the text goes to cJSON whole. */
            return 0;
        }
    }
    return s->depth == 0;
}

/* The text without the contents of the cut arrays, NUL-terminated; NULL when out of memory. */
static char *skeleton_of(const splitter *s, size_t len, size_t *out_len)
{
    size_t skeleton_len = len - s->cut_bytes;
    char *skeleton = tally__malloc(skeleton_len + 1);
    if (skeleton == NULL)
        return NULL;
    size_t from = 0, to = 0;
    for (size_t i = 0; i < s->count; i++) {
        size_t keep = s->arrays[i].offset - from;
        memcpy(skeleton + to, s->data + from, keep);
        to += keep;
        from = s->arrays[i].offset + s->arrays[i].len;
    }
    memcpy(skeleton + to, s->data + from, len - from);
    skeleton[skeleton_len] = '\0';
    *out_len = skeleton_len;
    return skeleton;
}

int tally__json_doc_parse(tally__json_doc *doc, const char *data, size_t len, const char *name,
                          const tally__json_cut *cut)
{
    memset(doc, 0, sizeof(*doc));
    doc->name = name;
    splitter *s = tally__calloc(1, sizeof(*s));
    if (s == NULL)
        return tally__oom();
    s->data = data;
    s->end = data + len;
    s->cut = cut;
    while (cut->prefix[s->prefix_len])
        s->prefix_len++;
    while (s->key_count < TALLY__JSON_CUT_KEYS_MAX && cut->keys[s->key_count])
        s->key_count++;
    int clean = scan(s);
    if (s->oom) {
        /* Out of memory is an answer, not a doubt: the tree would only fail later, or not at
         * all and hide that the allocation failed. */
        free_arrays(s->arrays, s->count);
        tally__free_mem(s);
        return tally__oom();
    }
    if (clean && s->count > 0) {
        size_t skeleton_len;
        char *skeleton = skeleton_of(s, len, &skeleton_len);
        int rc = skeleton ? tally__json_parse(&doc->root, skeleton, skeleton_len, name)
                          : tally__oom();
        tally__free_mem(skeleton);
        if (rc == TALLY_OK) {
            doc->arrays = s->arrays;
            doc->array_count = s->count;
            tally__free_mem(s);
            return TALLY_OK;
        }
        if (rc == TALLY_ENOMEM) {
            free_arrays(s->arrays, s->count);
            tally__free_mem(s);
            return rc;
        }
        /* The rest does not parse: the whole text again, so that the message points into it. */
    }
    free_arrays(s->arrays, s->count);
    tally__free_mem(s);
    return tally__json_parse(&doc->root, data, len, name);
}

void tally__json_doc_free(tally__json_doc *doc)
{
    cJSON_Delete(doc->root);
    free_arrays(doc->arrays, doc->array_count);
    tally__free_mem(doc->scratch);
    memset(doc, 0, sizeof(*doc));
}

/* The cut array of `key` that comes next in document order, or NULL (an error set). */
static tally__json_cut_array *next_cut(tally__json_doc *doc, const cJSON *array, size_t key,
                                       const tally__jpath *path)
{
    size_t i = key < TALLY__JSON_CUT_KEYS_MAX ? doc->next[key] : doc->array_count;
    while (i < doc->array_count && doc->arrays[i].key != key)
        i++;
    if (i == doc->array_count || cJSON_GetArraySize(array) != 0) {
        tally__error_json(TALLY_ERROR, doc->name, path->text,
                          "internal error: this array was not cut out of the text");
        return NULL;
    }
    doc->next[key] = i + 1;
    return &doc->arrays[i];
}

/* The numbers of an array that was not cut, from the tree into doc->scratch. */
static int tree_numbers(size_t *count, tally__json_doc *doc, const cJSON *array,
                        tally__jpath *path)
{
    size_t n = (size_t)cJSON_GetArraySize(array);
    tally__free_mem(doc->scratch);
    doc->scratch = n ? tally__reallocarray(NULL, n, sizeof(double)) : NULL;
    if (n && doc->scratch == NULL)
        return tally__oom();
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array)
    {
        size_t mark = tally__jpath_index(path, i);
        int rc = tally__json_finite(&doc->scratch[i], item, doc->name, path);
        tally__jpath_pop(path, mark);
        if (rc != TALLY_OK)
            return rc;
        i++;
    }
    *count = n;
    return TALLY_OK;
}

int tally__json_doc_numbers(const double **out, size_t *count, tally__json_doc *doc,
                            const cJSON *array, size_t key, tally__jpath *path)
{
    *out = NULL;
    *count = 0;
    if (doc->arrays) {
        const tally__json_cut_array *a = next_cut(doc, array, key, path);
        if (a == NULL)
            return TALLY_ERROR;
        *out = a->values;
        *count = a->count;
        return TALLY_OK;
    }
    int rc = tree_numbers(count, doc, array, path);
    *out = doc->scratch;
    return rc;
}

int tally__json_doc_take(double **out, size_t *count, size_t *cap, tally__json_doc *doc,
                         const cJSON *array, size_t key, tally__jpath *path)
{
    *out = NULL;
    *count = *cap = 0;
    if (doc->arrays) {
        tally__json_cut_array *a = next_cut(doc, array, key, path);
        if (a == NULL)
            return TALLY_ERROR;
        *out = a->values;
        *count = a->count;
        *cap = a->cap;
        a->values = NULL;
        return TALLY_OK;
    }
    int rc = tree_numbers(count, doc, array, path);
    if (rc == TALLY_OK) {
        *out = doc->scratch;
        *cap = *count;
        doc->scratch = NULL;
    }
    return rc;
}
