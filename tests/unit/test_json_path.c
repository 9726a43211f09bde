/* JSON paths for messages (tally__jpath): steps append, pops restore, and a path deeper than
 * the buffer ends in dots without losing what a pop must restore. */
#include <string.h>

#include "check.h"
#include "util/json_util.h"

static void test_steps(void)
{
    tally__jpath p;
    tally__jpath_init(&p);
    CHECK_STR(p.text, "$");
    size_t a = tally__jpath_key(&p, "benchmarks");
    size_t b = tally__jpath_index(&p, 3);
    size_t c = tally__jpath_key(&p, "odd key");
    CHECK_STR(p.text, "$.benchmarks[3][\"odd key\"]");
    tally__jpath_pop(&p, c);
    CHECK_STR(p.text, "$.benchmarks[3]");
    tally__jpath_pop(&p, b);
    tally__jpath_pop(&p, a);
    CHECK_STR(p.text, "$");
}

/* Fill the path to `len` characters ("$" then ".a" steps: odd lengths), then take a step that
 * does not fit. The buffer holds end = 479 characters; the cut step leaves min(3, end - mark)
 * dots at the end (none when the path already filled the buffer), the old path untouched. */
static void overflow_at(size_t len)
{
    const size_t end = TALLY__JSON_PATH_MAX - 1;
    tally__jpath p;
    char before[TALLY__JSON_PATH_MAX];
    tally__jpath_init(&p);
    while (p.len + 2 <= len)
        tally__jpath_key(&p, "a");
    CHECK_INT(p.len, len);
    memcpy(before, p.text, p.len + 1);
    size_t mark = tally__jpath_key(&p, "a_key_that_cannot_fit_in_what_is_left_of_the_buffer");
    CHECK_INT(mark, len);
    CHECK_INT(p.len, end);
    CHECK_INT(strlen(p.text), end);
    size_t dots = end - mark < 3 ? end - mark : 3;
    for (size_t i = end - dots; i < end; i++)
        CHECK(p.text[i] == '.');
    CHECK(strncmp(p.text, before, len) == 0); /* the old path is still its prefix */
    tally__jpath_pop(&p, mark);
    CHECK_STR(p.text, before);
}

int main(void)
{
    test_steps();
    /* Steps starting well before the end (the dots go over the cut step) and in the last three
     * places, where writing "..." at a fixed place would have overwritten the path the pop
     * restores (found by the json fuzzer). */
    for (size_t len = 429; len <= TALLY__JSON_PATH_MAX - 1; len += 2) /* the step needs 52 */
        overflow_at(len);
    return check_summary();
}
