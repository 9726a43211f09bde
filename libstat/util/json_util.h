/* Helpers for JSON inputs on top of cJSON: parsing with line:col errors, JSON paths for
 * messages, and typed member access that reports what was expected where. */
#ifndef TALLY_JSON_UTIL_H
#define TALLY_JSON_UTIL_H

#include <stddef.h>
#include <string.h>

#include <cjson/cJSON.h>

#define TALLY__JSON_PATH_MAX 480

/* A JSON path such as $.benchmarks[2].cases; push returns a mark to pop back to (json_path.c). */
typedef struct tally__jpath {
    char text[TALLY__JSON_PATH_MAX];
    size_t len;
} tally__jpath;

/* JSON's white space (RFC 8259: space, tab, line feed, carriage return), and the first byte
 * at or after p that is not white space (end when none). Inline: the scanners of the big number
 * arrays and of Google Benchmark rows call them between every two values. */
static inline int tally__json_is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Pretty-printed files indent every element of an array on a line of its own (hyperfine's
 * `times`: a line break and 8 spaces between two numbers): runs of spaces go 8 bytes a step. */
static inline const char *tally__json_skip_ws(const char *p, const char *end)
{
    for (;;) {
        while (end - p >= 8 && memcmp(p, "        ", 8) == 0)
            p += 8;
        if (p >= end || !tally__json_is_ws(*p))
            return p;
        p++;
    }
}

void tally__jpath_init(tally__jpath *p);
size_t tally__jpath_key(tally__jpath *p, const char *key);
size_t tally__jpath_index(tally__jpath *p, size_t index);
void tally__jpath_pop(tally__jpath *p, size_t mark);

/* each(ctx, element, p) for every element of `array` in order, with `p` extended by `key` (when
 * not NULL) and the element's index while it runs ("$.results[3]"); stops at the first error,
 * which it returns. */
int tally__json_each(const cJSON *array, const char *key, tally__jpath *p,
                     int (*each)(void *ctx, const cJSON *item, tally__jpath *p), void *ctx);

/* Parse a whole buffer; a syntax error, and text that is not valid UTF-8, are reported as
 * name:line:col; a key twice in one object (which cJSON would resolve silently, keeping the
 * first) is refused with its JSON path. cJSON's globals (hooks) are never touched. Free the
 * result with cJSON_Delete. */
int tally__json_parse(cJSON **out, const char *data, size_t len, const char *name);

/* The same without the duplicate-key and UTF-8 checks, for the output of a tool run by the
 * runner that is known to repeat keys (iperf3 -J repeats "sock_bufsize" in one object). */
int tally__json_parse_tool_output(cJSON **out, const char *data, size_t len, const char *name);

/* Check every number of a JSON text that cJSON has parsed against RFC 8259's grammar and tally's
 * limits (util/number.h: at most 1024 characters, within the range of a double, no underflow to
 * 0); a refused number is reported with its JSON path. tally__json_parse runs it. */
int tally__json_check_numbers(const char *data, size_t len, const char *name);

/* Member access. `required` = 0 makes a missing member return TALLY_ENOTFOUND silently; a member
 * of the wrong type is always an error naming the path. */
int tally__json_string(const char **out, const cJSON *obj, const char *key, int required,
                       const char *name, tally__jpath *path);
int tally__json_number(double *out, const cJSON *obj, const char *key, int required,
                       const char *name, tally__jpath *path);
int tally__json_array(const cJSON **out, const cJSON *obj, const char *key, int required,
                      const char *name, tally__jpath *path);
int tally__json_object(const cJSON **out, const cJSON *obj, const char *key, int required,
                       const char *name, tally__jpath *path);

/* "a string", "a number", "an array", "an object", "a boolean", "null": for messages that say
 * what was found. */
const char *tally__json_type_name(const cJSON *item);

/* A finite number from an array element or value; errors name the path. */
int tally__json_finite(double *out, const cJSON *item, const char *name, tally__jpath *path);

#endif /* TALLY_JSON_UTIL_H */
