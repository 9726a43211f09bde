/* The spreadsheet report: written atomically, libxlsxwriter errors mapped to TALLY_EXLSX. The
 * files written here (report.xlsx from the fixture, report_sweep.xlsx below) are read back
 * cell by cell by report_xlsx_check.py (report_xlsx.cmake). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_report_common.h"
#include "report/xlsx_api.h"

/* Temporary files of this program's workbooks (all named report*.xlsx): other tests write
 * workbooks into the same directory at the same time (test_number_locale). */
static int leftover_temp_files(void)
{
    DIR *d = opendir(TALLY_TEST_TMP);
    int found = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        found |= strncmp(e->d_name, "report", 6) == 0 && strstr(e->d_name, "xlsx.tmp.") != NULL;
    if (d)
        closedir(d);
    return found;
}

static void test_write(void)
{
    tally_results *list = build_fixture();
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_results_free(list);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_XLSX;
    const char *path = TALLY_TEST_TMP "/report.xlsx";
    CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
    char *data = read_text(path);
    CHECK(data != NULL && strncmp(data, "PK", 2) == 0); /* a zip container */
    free(data);
    CHECK(!leftover_temp_files());
    tally_report_free(r);
}

/* A sweep with numeric case names and a long configuration label, and a benchmark of 60
 * cases (more than a chart shows). `patched` is 1.5 times the baseline on every case of
 * `sweep` (pct imp (1 - 1.5) * 100 = -50 %), identical on `many`. */
static void test_write_sweep(void)
{
    static const char *const cases[] = { "1", "2", "4", "8", "16", "110" };
    static const double noise[4] = { 1.0, 1.02, 0.98, 1.01 };
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *set[2] = { new_set(list, "5.14.0-rc3-vanilla"),
                                new_set(list, "5.14.0-rc3-alwayswake-v1r1") };
    for (int j = 0; j < 2; j++) {
        for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
            double x[4];
            for (int k = 0; k < 4; k++)
                x[k] = atof(cases[i]) * noise[k] * (j ? 1.5 : 1.0);
            add_samples(set[j], "sweep", "s", TALLY_LOWER_IS_BETTER, cases[i], x, 4);
        }
        for (int i = 0; i < 60; i++) {
            char name[16];
            snprintf(name, sizeof(name), "c%d", i);
            add_samples(set[j], "many", "MB/s", TALLY_HIGHER_IS_BETTER, name, noise, 4);
        }
    }
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_results_free(list);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_XLSX;
    CHECK_INT(tally_report_write(r, TALLY_TEST_TMP "/report_sweep.xlsx", &o), TALLY_OK);
    tally_report_free(r);
}

static void test_errors(void)
{
    /* Excel cells hold at most 32767 characters: libxlsxwriter refuses a longer case name,
     * tally reports TALLY_EXLSX with libxlsxwriter's message and leaves no file. */
    size_t len = 40000;
    char *name = malloc(len + 1);
    memset(name, 'c', len);
    name[len] = '\0';
    static const double x[2] = { 1, 2 };
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    add_samples(new_set(list, "one"), "t", "s", TALLY_LOWER_IS_BETTER, name, x, 2);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_XLSX;
    const char *path = TALLY_TEST_TMP "/report_too_long.xlsx";
    unlink(path);
    CHECK_INT(tally_report_write(r, path, &o), TALLY_EXLSX);
    CHECK(strstr(tally_error_last()->message, "report_too_long.xlsx") != NULL);
    CHECK(strstr(tally_error_last()->message, "32,767") != NULL ||
          strstr(tally_error_last()->message, "length") != NULL);
    CHECK(access(path, F_OK) != 0);
    CHECK(!leftover_temp_files());
    tally_report_free(r);
    tally_results_free(list);
    free(name);
}

/* libxlsxwriter is loaded when a workbook is written: the loader resolves every function from
 * the real library, and a library that cannot be loaded is an error naming it, not a crash. */
static void test_loader(void)
{
    tally__xlsx_api api;
    CHECK_INT(tally__xlsx_open(&api), TALLY_OK);
    CHECK(api.workbook_new != NULL && api.lxw_strerror != NULL);
    CHECK_STR(api.lxw_strerror(LXW_NO_ERROR), "No error.");
    tally__xlsx_close(&api);
    CHECK(api.handle == NULL);
    CHECK_INT(tally__xlsx_open_named(&api, "libtally-no-such-xlsxwriter.so.99"), TALLY_EXLSX);
    CHECK(strstr(tally_error_last()->message, "libtally-no-such-xlsxwriter.so.99") != NULL);
    CHECK(api.handle == NULL);
}

int main(void)
{
    test_loader();
    test_write();
    test_write_sweep();
    test_errors();
    return check_summary();
}
