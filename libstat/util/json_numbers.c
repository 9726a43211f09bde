/* The numbers of a JSON text, checked against RFC 8259 and tally's limits (util/number.h) after
 * cJSON has accepted its structure: cJSON reads numbers with strtod, so it lets `5.`, `01.5`,
 * numbers of any length and values that underflow to 0 through. A refused number is reported
 * with its JSON path. */
#include <string.h>

#include "util/internal.h"
#include "util/json_util.h"

typedef struct jframe {
    unsigned char is_object;
    size_t index;       /* arrays: index of the current element */
    const char *key;    /* objects: the current key's raw text */
    size_t key_len;
} jframe;

/* The path of the value being scanned, from the frames. */
static void path_of(tally__jpath *path, const jframe *frames, size_t depth)
{
    tally__jpath_init(path);
    for (size_t i = 0; i < depth; i++) {
        if (!frames[i].is_object) {
            tally__jpath_index(path, frames[i].index);
            continue;
        }
        char key[128];
        size_t n = frames[i].key_len < sizeof(key) - 1 ? frames[i].key_len : sizeof(key) - 1;
        memcpy(key, frames[i].key ? frames[i].key : "", n);
        key[n] = '\0';
        tally__jpath_key(path, key);
    }
}

int tally__json_check_numbers(const char *data, size_t len, const char *name)
{
    const char *p = data, *end = data + len;
    jframe *frames = tally__calloc(CJSON_NESTING_LIMIT + 1, sizeof(*frames));
    if (frames == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    size_t depth = 0;
    int want_key = 0, rc = TALLY_OK;
    while (p < end && rc == TALLY_OK) {
        char c = *p;
        jframe *top = depth ? &frames[depth - 1] : NULL;
        if (c == '"') {
            const char *q = ++p;
            while (p < end && *p != '"')
                p += *p == '\\' ? 2 : 1;
            if (top && top->is_object && want_key) {
                top->key = q;
                top->key_len = (size_t)(p - q);
                want_key = 0;
            }
            p++;
        } else if (c == '{' || c == '[') {
            if (depth > CJSON_NESTING_LIMIT)
                break; /* cJSON refuses such documents before this runs */
            frames[depth++] = (jframe){ (unsigned char)(c == '{'), 0, NULL, 0 };
            want_key = c == '{';
            p++;
        } else if (c == '}' || c == ']') {
            if (depth)
                depth--;
            p++;
        } else if (c == ',') {
            if (top && top->is_object)
                want_key = 1;
            else if (top)
                top->index++;
            p++;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            double v;
            const char *stop;
            tally__number_status st = tally__number_scan(&v, &stop, p, end, TALLY__NUMBER_JSON);
            /* The number's characters as the text has them, for the message. */
            const char *q = p;
            while (q < end && !tally__json_is_ws(*q) && *q != ',' && *q != ']' && *q != '}')
                q++;
            if (st == TALLY__NUMBER_OK && stop != q)
                st = TALLY__NUMBER_SYNTAX;
            if (st != TALLY__NUMBER_OK) {
                tally__jpath path;
                path_of(&path, frames, depth);
                int n = (int)(q - p > 40 ? 40 : q - p);
                if (st == TALLY__NUMBER_SYNTAX)
                    rc = tally__error_json(TALLY_EPARSE, name, path.text,
                                           "'%.*s' is not a JSON number (JSON wants digits on "
                                           "both sides of a point and no leading zeros)",
                                           n, p);
                else
                    rc = tally__error_json(tally__number_code(st), name, path.text,
                                           "%s, found '%.*s%s'", tally__number_problem(st), n, p,
                                           q - p > 40 ? "..." : "");
            }
            p = q;
        } else {
            p++;
        }
    }
    tally__free_mem(frames);
    return rc;
}
