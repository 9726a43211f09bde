/* Cutting the samples arrays out of a native JSON text before cJSON sees it: cJSON spends some
 * 80 bytes of tree per number, which for files of millions of samples is several times the file
 * itself. This is not a JSON parser: it only tracks strings, brackets and the keys that lead to
 * $.results[*].benchmarks[*].cases[*].samples, and gives up (leaving the file to cJSON) whenever
 * the text is not exactly what it expects. cJSON still checks the syntax of everything else. */
#include <cjson/cJSON.h>
#include <string.h>

#include "util/internal.h"
#include "formats/native_json.h"
#include "util/text.h"

/* Longer numbers are left to the general path, which refuses them with their path. */
#define NUMBER_MAX TALLY__NUMBER_MAX

/* What a container is, from the keys and containers that lead to it. */
enum role { OTHER, ROOT, RESULTS, RESULT, BENCHMARKS, BENCHMARK, CASES, CASE };

/* Structural keys, as bits so that an object can remember which it has seen. */
enum key { KEY_NONE = 0, KEY_RESULTS = 1, KEY_BENCHMARKS = 2, KEY_CASES = 4, KEY_SAMPLES = 8 };

typedef struct frame {
    unsigned char role;
    unsigned char is_object;
    unsigned char seen; /* structural keys met in this object */
} frame;

typedef struct splitter {
    const char *data;
    const char *end;
    frame stack[CJSON_NESTING_LIMIT + 1];
    size_t depth;
    enum key key; /* key of the value about to start, in an object */
    tally__json_span *spans;
    size_t count;
    size_t cap;
    size_t cut; /* bytes cut out in total */
} splitter;

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* End of the run of digits at p: eight characters at a time while they last. */
static const char *digits_end(const char *p, const char *end)
{
#ifdef TALLY__SWAR_DIGITS
    while (end - p >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        size_t k = tally__leading_digits8(v);
        p += k;
        if (k < 8)
            return p;
    }
#endif
    while (p < end && is_digit(*p))
        p++;
    return p;
}

/* End of a JSON number starting at p (RFC 8259 grammar), or NULL. */
static const char *number_end(const char *p, const char *end)
{
    if (p < end && *p == '-')
        p++;
    if (p >= end || !is_digit(*p))
        return NULL;
    if (*p == '0')
        p++;
    else
        p = digits_end(p, end);
    if (p < end && *p == '.') {
        if (++p >= end || !is_digit(*p))
            return NULL;
        p = digits_end(p, end);
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        if (++p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || !is_digit(*p))
            return NULL;
        p = digits_end(p, end);
    }
    return p;
}

/* A samples array: p is just after '['. Records the span and returns the ']' or NULL. */
static const char *cut_samples(splitter *s, const char *p)
{
    const char *start = p;
    size_t count = 0;
    for (;;) {
        while (p < s->end && is_ws(*p))
            p++;
        const char *stop = number_end(p, s->end);
        if (stop == NULL || stop - p > NUMBER_MAX)
            return NULL;
        count++;
        p = stop;
        while (p < s->end && is_ws(*p))
            p++;
        if (p < s->end && *p == ',') {
            p++;
            continue;
        }
        if (p < s->end && *p == ']')
            break;
        return NULL;
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        tally__json_span *grown = tally__reallocarray(s->spans, cap, sizeof(*grown));
        if (grown == NULL)
            return NULL; /* treated as a doubt: the whole text then goes to cJSON */
        s->spans = grown;
        s->cap = cap;
    }
    s->spans[s->count++] = (tally__json_span){ (size_t)(start - s->data), (size_t)(p - start), count };
    s->cut += (size_t)(p - start);
    return p;
}

/* The key a string names, from its raw bytes; an escaped key is a doubt (cJSON would decode
 * it, this scan does not). Returns -1 for a doubt. */
static int key_of(const char *q, size_t n)
{
    if (memchr(q, '\\', n))
        return -1;
    if (n == 7 && memcmp(q, "results", 7) == 0)
        return KEY_RESULTS;
    if (n == 10 && memcmp(q, "benchmarks", 10) == 0)
        return KEY_BENCHMARKS;
    if (n == 5 && memcmp(q, "cases", 5) == 0)
        return KEY_CASES;
    if (n == 7 && memcmp(q, "samples", 7) == 0)
        return KEY_SAMPLES;
    return KEY_NONE;
}

static enum role array_role(const frame *parent, enum key key)
{
    if (parent == NULL || !parent->is_object)
        return OTHER;
    if (parent->role == ROOT && key == KEY_RESULTS)
        return RESULTS;
    if (parent->role == RESULT && key == KEY_BENCHMARKS)
        return BENCHMARKS;
    if (parent->role == BENCHMARK && key == KEY_CASES)
        return CASES;
    return OTHER;
}

static enum role object_role(const frame *parent)
{
    if (parent == NULL)
        return ROOT;
    switch (parent->role) {
    case RESULTS: return RESULT;
    case BENCHMARKS: return BENCHMARK;
    case CASES: return CASE;
    default: return OTHER;
    }
}

/* Scan the whole text. Returns 1 when every samples array was cut, 0 on any doubt. */
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
            const char *after = p + 1;
            while (after < s->end && is_ws(*after))
                after++;
            if (top && top->is_object && after < s->end && *after == ':') {
                int key = key_of(q, (size_t)(p - q));
                if (key < 0)
                    return 0;
                if (key != KEY_NONE && (top->seen & key))
                    return 0; /* a repeated structural key: cJSON would take the first */
                top->seen |= (unsigned char)key;
                s->key = (enum key)key;
            }
        } else if (c == '{' || c == '[') {
            if (s->depth >= CJSON_NESTING_LIMIT)
                return 0;
            enum key key = top && top->is_object ? s->key : KEY_NONE;
            if (c == '[' && top && top->is_object && top->role == CASE && key == KEY_SAMPLES) {
                const char *close = cut_samples(s, p + 1);
                if (close == NULL)
                    return 0;
                p = close; /* the ']' closes the array: no frame for it */
                s->key = KEY_NONE;
                continue;
            }
            frame f = { (unsigned char)(c == '{' ? object_role(top) : array_role(top, key)),
                        (unsigned char)(c == '{'), 0 };
            s->stack[s->depth++] = f;
            s->key = KEY_NONE;
        } else if (c == '}' || c == ']') {
            if (s->depth == 0)
                return 0;
            s->depth--;
        } else if (c == ',') {
            s->key = KEY_NONE;
        }
    }
    return s->depth == 0;
}

int tally__json_split_text(tally__json_split *out, const char *data, size_t len)
{
    memset(out, 0, sizeof(*out));
    splitter *s = tally__calloc(1, sizeof(*s));
    if (s == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    s->data = data;
    s->end = data + len;
    int whole = scan(s);
    if (!whole || s->count == 0) {
        tally__free_mem(s->spans);
        tally__free_mem(s);
        return TALLY_OK;
    }
    size_t skeleton_len = len - s->cut;
    char *skeleton = tally__malloc(skeleton_len + 1);
    if (skeleton == NULL) {
        tally__free_mem(s->spans);
        tally__free_mem(s);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    size_t from = 0, to = 0;
    for (size_t i = 0; i < s->count; i++) {
        size_t keep = s->spans[i].offset - from;
        memcpy(skeleton + to, data + from, keep);
        to += keep;
        from = s->spans[i].offset + s->spans[i].len;
    }
    memcpy(skeleton + to, data + from, len - from);
    skeleton[skeleton_len] = '\0';
    out->skeleton = skeleton;
    out->skeleton_len = skeleton_len;
    out->spans = s->spans;
    out->count = s->count;
    tally__free_mem(s);
    return TALLY_OK;
}

void tally__json_split_free(tally__json_split *s)
{
    tally__free_mem(s->skeleton);
    tally__free_mem(s->spans);
    memset(s, 0, sizeof(*s));
}

size_t tally__json_span_read(double *out, const char *data, const tally__json_span *span,
                             tally__number_status *why)
{
    const char *p = data + span->offset, *end = p + span->len;
    *why = TALLY__NUMBER_OK;
    for (size_t i = 0; i < span->count; i++) {
        while (is_ws(*p) || *p == ',')
            p++;
        /* Plain decimals take the exact fast path, which also finds where they end; others
         * (17 digits, exponents) the number module. The split has checked the grammar. */
        const char *stop = tally__scan_decimal(&out[i], p, end);
        if (stop == NULL) {
            *why = tally__number_scan(&out[i], &stop, p, end, TALLY__NUMBER_JSON);
            if (*why != TALLY__NUMBER_OK)
                return i;
        }
        p = stop;
    }
    return span->count;
}
