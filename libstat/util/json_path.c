/* JSON paths for messages ($.benchmarks[2].cases, util/json_util.h): apart from the JSON helpers
 * so that the number check of a JSON text (json_numbers.c), which json_util.c calls, names its
 * paths without calling back into json_util.c. */
#include <stdio.h>
#include <string.h>

#include "util/json_util.h"

void tally__jpath_init(tally__jpath *p)
{
    p->text[0] = '$';
    p->text[1] = '\0';
    p->len = 1;
}

static size_t jpath_append(tally__jpath *p, const char *fmt, const char *key, size_t index)
{
    size_t mark = p->len;
    size_t room = sizeof(p->text) - p->len;
    int n = key ? snprintf(p->text + p->len, room, fmt, key)
                : snprintf(p->text + p->len, room, fmt, index);
    if (n < 0 || (size_t)n >= room) {
        /* A path deeper than the buffer ends in dots (three where there is room) so it is not
         * read as complete. They go after the mark only: what was there before the step must
         * survive for tally__jpath_pop to restore it. */
        size_t end = sizeof(p->text) - 1, at = mark > end - 3 ? mark : end - 3;
        memset(p->text + at, '.', end - at);
        p->text[end] = '\0';
        p->len = end;
    } else {
        p->len += (size_t)n;
    }
    return mark;
}

size_t tally__jpath_key(tally__jpath *p, const char *key)
{
    int plain = key[0] != '\0';
    for (const char *c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_'))
            plain = 0;
    return jpath_append(p, plain ? ".%s" : "[\"%s\"]", key, 0);
}

size_t tally__jpath_index(tally__jpath *p, size_t index)
{
    return jpath_append(p, "[%zu]", NULL, index);
}

void tally__jpath_pop(tally__jpath *p, size_t mark)
{
    p->len = mark;
    p->text[mark] = '\0';
}
