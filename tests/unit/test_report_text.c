/* What the text layouts share to fit a terminal (report_util.c): the case-name suffix every
 * case of a benchmark ends with, and the breaking of long lines at spaces. Every expected value
 * is counted by hand in the comment beside it. */
#include <string.h>

#include "report/report_internal.h"
#include "test_report_common.h"

/* A report of one configuration whose benchmark "b" has the cases `names`. */
static tally_report *cases_report(const char *const *names, size_t count)
{
    static const double x[3] = { 1.0, 1.1, 0.9 };
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *rs = new_set(list, "base");
    for (size_t i = 0; i < count; i++)
        add_samples(rs, "b", "s", TALLY_LOWER_IS_BETTER, names[i], x, 3);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_results_free(list);
    return r;
}

static void check_affixes(const char *const *names, size_t count, size_t prefix, size_t suffix,
                          int line)
{
    tally_report *r = cases_report(names, count);
    tally__group g = { 0, r->row_count };
    size_t p = tally__case_prefix(r, &g), s = tally__case_suffix(r, &g, p);
    if (p != prefix || s != suffix)
        fprintf(stderr, "  line %d: prefix %zu suffix %zu, expected %zu and %zu\n", line, p, s,
                prefix, suffix);
    check_report(p == prefix && s == suffix, __FILE__, line, "case prefix and suffix");
    tally_report_free(r);
}

static void test_case_suffix(void)
{
    /* go's sub-benchmarks: "CRC32/" (6 bytes) before, "-2" (GOMAXPROCS, 2 bytes) after. */
    static const char *const go[] = { "CRC32/poly=IEEE/size=15/align=0-2",
                                      "CRC32/poly=IEEE/size=15/align=1-2",
                                      "CRC32/poly=Koopman/size=32kB/align=0-2" };
    check_affixes(go, 3, 6, 2, __LINE__);
    /* "-streams" (8 bytes) after the numbers, nothing before. */
    static const char *const streams[] = { "1-streams", "12-streams", "4-streams" };
    check_affixes(streams, 3, 0, 8, __LINE__);
    /* ".5" would leave 0 and 1: a '.' starts no suffix; nor does the '_' of "_time". */
    static const char *const halves[] = { "0.5", "1.5" };
    check_affixes(halves, 2, 0, 0, __LINE__);
    static const char *const timers[] = { "8/real_time", "8/cpu_time" };
    check_affixes(timers, 2, 2, 0, __LINE__); /* "8/" before, "_time" is not cut */
    /* A name that is all suffix would be left empty: no suffix. */
    static const char *const bare[] = { "-x", "a-x" };
    check_affixes(bare, 2, 0, 0, __LINE__);
    /* One case: nothing to share. */
    check_affixes(go, 1, 0, 0, __LINE__);
}

static void check_reflow(const char *in, size_t width, const char *want, int line)
{
    tally__buf b = TALLY__BUF_INIT;
    tally__buf_puts(&b, "kept\n"); /* before `start`: never touched */
    size_t start = b.len;
    tally__buf_puts(&b, in);
    tally__reflow(&b, start, width);
    const char *got = b.data ? b.data + start : "";
    if (strcmp(got, want) != 0 || strncmp(b.data, "kept\n", 5) != 0)
        fprintf(stderr, "  line %d: got\n%s\nexpected\n%s\n", line, got, want);
    check_report(strcmp(got, want) == 0, __FILE__, line, "reflow");
    tally__buf_dispose(&b);
}

static void test_reflow(void)
{
    /* 44 columns at width 20: "aaaa bbbb cccc dddd" is 19 (fits), the rest "eeee ffff gggg
     * hhhh" (19) goes on a line indented by 2: 21 > 20, so "hhhh" takes a third line. */
    check_reflow("aaaa bbbb cccc dddd eeee ffff gggg hhhh\n", 20,
                 "aaaa bbbb cccc dddd\n  eeee ffff gggg\n  hhhh\n", __LINE__);
    /* An indented line continues 2 further in: 4 + 2 = 6 spaces. "    x1 x2 x3 x4 x5 x6 x7"
     * at 20: "    x1 x2 x3 x4 x5" is 18, "x6 x7" follows on "      x6 x7". */
    check_reflow("    x1 x2 x3 x4 x5 x6 x7\n", 20, "    x1 x2 x3 x4 x5\n      x6 x7\n", __LINE__);
    /* Colour codes take no columns: the red line of 20 visible columns stays whole. */
    check_reflow("\033[31maaaa bbbb cccc ddddd\033[0m\n", 20,
                 "\033[31maaaa bbbb cccc ddddd\033[0m\n", __LINE__);
    /* A word longer than the line stays whole: "±" and 24 a's are 25 columns before the first
     * space, so no break keeps a piece within 20 and the line is left as it is. */
    check_reflow("\xc2\xb1" "aaaaaaaaaaaaaaaaaaaaaaaa b\n", 20,
                 "\xc2\xb1" "aaaaaaaaaaaaaaaaaaaaaaaa b\n", __LINE__);
    /* UTF-8 counts by characters: "±" + 18 a's (19 columns, 20 bytes) then " bb": the break
     * comes after the 19 columns. */
    check_reflow("\xc2\xb1" "aaaaaaaaaaaaaaaaaa bb\n", 20,
                 "\xc2\xb1" "aaaaaaaaaaaaaaaaaa\n  bb\n", __LINE__);
    /* Lines that fit, and widths below 20, are left as they are. */
    check_reflow("short\n", 20, "short\n", __LINE__);
    check_reflow("aaaa bbbb cccc dddd eeee\n", 19, "aaaa bbbb cccc dddd eeee\n", __LINE__);
}

int main(void)
{
    test_case_suffix();
    test_reflow();
    return check_summary();
}
