/* Concurrency: threads load inputs, summarise, compare and render one shared report in every
 * format (every text style, JSON, CSV, Markdown, HTML, XLSX) at the same time. Each thread's
 * output must equal the one rendered alone beforehand. Built with -fsanitize=thread (the tsan
 * stage of .ci/test), any data race is reported and fails the program. */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_report_common.h"

#define THREADS 6
#define ROUNDS 3
#define DIR_ TALLY_TEST_TMP "/io_threads"

typedef struct {
    tally_format format;
    tally_style style;
} variant;

static const variant variants[] = {
    { TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE },   { TALLY_FORMAT_TEXT, TALLY_STYLE_MMTESTS },
    { TALLY_FORMAT_TEXT, TALLY_STYLE_NORMALIZED }, { TALLY_FORMAT_TEXT, TALLY_STYLE_PCT },
    { TALLY_FORMAT_JSON, TALLY_STYLE_TABLE },   { TALLY_FORMAT_CSV, TALLY_STYLE_TABLE },
    { TALLY_FORMAT_MARKDOWN, TALLY_STYLE_TABLE }, { TALLY_FORMAT_HTML, TALLY_STYLE_TABLE },
};
#define VARIANTS TALLY__COUNT(variants)

static const tally_report *shared;
static char *expected[VARIANTS];
static size_t expected_len[VARIANTS];

typedef struct {
    int id;
    int failures;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    static const double a[5] = { 10.0, 10.2, 9.8, 10.1, 9.9 }, b[5] = { 11.0, 11.3, 10.8, 11.1, 10.9 };
    for (int round = 0; round < ROUNDS; round++) {
        /* Load an input of its own. */
        tally_results *r = NULL;
        if (tally_results_new(&r) != TALLY_OK ||
            tally_load_file(r, TALLY_TEST_DATA "/json/example.json", NULL) != TALLY_OK)
            j->failures++;
        tally_results_free(r);
        /* Summarise and compare. */
        tally_summary s = { .size = sizeof s };
        if (tally_summarize(&s, a, 5, NULL) != TALLY_OK || s.amean != 10.0) /* 50/5 */
            j->failures++;
        tally_comparison c = { .size = sizeof c };
        if (tally_compare(&c, a, 5, b, 5, NULL) != TALLY_OK)
            j->failures++;
        /* Render the shared report in every format, and XLSX to a file of its own. */
        for (size_t v = 0; v < VARIANTS; v++) {
            tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
            o.format = variants[v].format;
            o.style = variants[v].style;
            char *text = NULL;
            size_t len = 0;
            if (tally_report_render(&text, &len, shared, &o) != TALLY_OK || len != expected_len[v] ||
                memcmp(text, expected[v], len) != 0)
                j->failures++;
            tally_free(text);
        }
        char path[256];
        snprintf(path, sizeof(path), DIR_ "/t%d.xlsx", j->id);
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.format = TALLY_FORMAT_XLSX;
        if (tally_report_write(shared, path, &o) != TALLY_OK)
            j->failures++;
        snprintf(path, sizeof(path), DIR_ "/t%d.json", j->id);
        o.format = TALLY_FORMAT_JSON;
        if (tally_report_write(shared, path, &o) != TALLY_OK)
            j->failures++;
    }
    return NULL;
}

int main(void)
{
    mkdir(DIR_, 0755);
    tally_report *r = fixture_report(NULL);
    shared = r;
    for (size_t v = 0; v < VARIANTS; v++) {
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.format = variants[v].format;
        o.style = variants[v].style;
        CHECK_INT(tally_report_render(&expected[v], &expected_len[v], r, &o), TALLY_OK);
    }
    pthread_t t[THREADS];
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job){ i, 0 };
        CHECK_INT(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK_INT(jobs[i].failures, 0);
    }
    for (size_t v = 0; v < VARIANTS; v++)
        tally_free(expected[v]);
    tally_report_free(r);
    return check_summary();
}
