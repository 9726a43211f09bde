/*
 * Shared by the report tests: building result sets from literal samples and comparing rendered
 * text with golden files under tests/golden/report/. Run a test with TALLY_UPDATE_GOLDEN=1 to
 * rewrite the golden files it compares against (then review the diff).
 */
#ifndef TALLY_TEST_REPORT_COMMON_H
#define TALLY_TEST_REPORT_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"

/* tests/golden/report/, found next to this header (CMake compiles with absolute paths). */
static void golden_path(char *out, size_t size, const char *name)
{
    const char *here = __FILE__;
    const char *slash = strrchr(here, '/');
    int dir_len = slash ? (int)(slash - here + 1) : 0;
    snprintf(out, size, "%.*sgolden/report/%s", dir_len, here, name);
}

/* Add samples to benchmark/case of a result set, creating both as needed. */
static void add_samples(tally_resultset *rs, const char *bench, const char *unit,
                        tally_direction dir, const char *case_name, const double *x, size_t n)
{
    tally_benchmark *b = tally_resultset_benchmark_find(rs, bench);
    if (b == NULL)
        CHECK_INT(tally_resultset_benchmark_add(&b, rs, bench, unit, dir), TALLY_OK);
    tally_case *c = tally_benchmark_case_find(b, case_name);
    if (c == NULL)
        CHECK_INT(tally_benchmark_case_add(&c, b, case_name), TALLY_OK);
    CHECK_INT(tally_case_append(c, x, n), TALLY_OK);
}

static tally_resultset *new_set(tally_results *list, const char *label)
{
    tally_resultset *rs = NULL;
    CHECK_INT(tally_resultset_new(&rs, label), TALLY_OK);
    CHECK_INT(tally_results_add(list, rs), TALLY_OK);
    return rs;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    size_t got = fread(text, 1, (size_t)len, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

/* Compare `actual` with the golden file `name`; print the first differing line on failure. */
static void check_golden(const char *actual, const char *name)
{
    char path[512];
    golden_path(path, sizeof(path), name);
    const char *update = getenv("TALLY_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        fputs(actual, f);
        fclose(f);
    }
    char *expected = read_text(path);
    int ok = expected && strcmp(expected, actual) == 0;
    if (!ok) {
        fprintf(stderr, "golden %s differs\n", name);
        if (expected) {
            const char *a = actual, *e = expected;
            int line = 1;
            while (*a && *a == *e) {
                if (*a == '\n')
                    line++;
                a++;
                e++;
            }
            fprintf(stderr, "  first difference on line %d\n  actual:   %.80s\n  expected: %.80s\n",
                    line, a, e);
        }
    }
    check_report(ok, __FILE__, __LINE__, name);
    free(expected);
}

/* Keep the first `head` lines of `text` and the lines starting with `prefix`, in place. */
static void keep_lines(char *text, int head, const char *prefix)
{
    char *out = text;
    const char *line = text;
    for (int n = 0; *line; n++) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        if (n < head || strncmp(line, prefix, strlen(prefix)) == 0) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
}

/* Render a report with a format and style, returning the text (free with tally_free). */
static char *render(const tally_report *r, tally_format format, tally_style style)
{
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = format;
    o.style = style;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    return text;
}

#endif /* TALLY_TEST_REPORT_COMMON_H */
