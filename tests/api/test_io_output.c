/* Outputs: regular files replaced atomically keeping mode and owner; anything else (pipes,
 * devices, descriptors named by path) written through and never replaced; write errors
 * reported. Every target lives in the test's own directory: device nodes are reached through
 * symbolic links or descriptors, so a faulty writer can only replace a link of ours. */
#define _DEFAULT_SOURCE /* lstat, symlink, O_CLOEXEC beside C11 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_report_common.h"

#define DIR_ TALLY_TEST_TMP "/io_output"

static const tally_format formats[] = { TALLY_FORMAT_TEXT, TALLY_FORMAT_JSON, TALLY_FORMAT_CSV,
                                        TALLY_FORMAT_MARKDOWN, TALLY_FORMAT_XLSX };

static void fresh_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, DIR_ "/%s", name);
    unlink(out);
}

/* No file of the directory is a leftover temporary file. */
static int temp_files_left(void)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -q '\\.tmp\\.'", DIR_);
    return system(cmd) == 0;
}

/* A FIFO stays a FIFO: the report goes into it (read here without blocking). */
static void test_fifo_written_through(void)
{
    tally_report *r = fixture_report(NULL);
    char path[256];
    fresh_path(path, sizeof(path), "out.fifo");
    CHECK_INT(mkfifo(path, 0600), 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK); /* a reader, so that writers do not block */
    CHECK(rd >= 0);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_CSV;
    CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    char got[8192];
    ssize_t n = read(rd, got, sizeof(got) - 1);
    CHECK(n > 0);
    got[n > 0 ? n : 0] = '\0';
    CHECK(strncmp(got, "benchmark,", 10) == 0);
    close(rd);
    unlink(path);
    tally_report_free(r);
}

/* A link to /dev/null: the link and the device stay as they are, in every format. */
static void test_device_not_replaced(void)
{
    tally_report *r = fixture_report(NULL);
    char path[256];
    fresh_path(path, sizeof(path), "null");
    CHECK_INT(symlink("/dev/null", path), 0);
    for (size_t i = 0; i < TALLY__COUNT(formats); i++) {
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.format = formats[i];
        CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
        struct stat st;
        CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
        CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    }
    CHECK(!temp_files_left());
    unlink(path);
    tally_report_free(r);
}

/* /dev/full through a link and as /dev/fd/N: TALLY_EIO naming the path, the cause and what to
 * do, in every format; the native writer too. */
static void test_full_device_reported(void)
{
    tally_report *r = fixture_report(NULL);
    int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
    CHECK(full >= 0);
    char link_path[256], fd_path[64];
    fresh_path(link_path, sizeof(link_path), "full");
    snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", full);
    CHECK_INT(symlink(fd_path, link_path), 0);
    snprintf(fd_path, sizeof(fd_path), "/dev/fd/%d", full);
    const char *paths[] = { link_path, fd_path };
    for (size_t p = 0; p < 2; p++)
        for (size_t i = 0; i < TALLY__COUNT(formats); i++) {
            tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
            o.format = formats[i];
            CHECK_INT(tally_report_write(r, paths[p], &o), TALLY_EIO);
            const char *m = tally_error_last()->message;
            CHECK(strstr(m, paths[p]) != NULL);
            CHECK(strstr(m, "No space left on device") != NULL);
            CHECK(strstr(m, "free some space") != NULL);
        }
    tally_results *list = build_fixture();
    CHECK_INT(tally_results_save(list, link_path), TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "No space left on device") != NULL);
    tally_results_free(list);
    struct stat st;
    CHECK(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(!temp_files_left());
    unlink(link_path);
    close(full);
    tally_report_free(r);
}

/* /dev/fd/N of a pipe (what /dev/stdout is when the output is piped): written through, at the
 * descriptor itself, which stays open. */
static void test_descriptor_path(void)
{
    tally_report *r = fixture_report(NULL);
    int p[2];
    CHECK_INT(pipe(p), 0);
    char path[64];
    snprintf(path, sizeof(path), "/dev/fd/%d", p[1]);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_JSON;
    CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
    CHECK(fcntl(p[1], F_GETFD) >= 0); /* still ours */
    close(p[1]);
    char got[65536];
    size_t used = 0;
    ssize_t n;
    while ((n = read(p[0], got + used, sizeof(got) - 1 - used)) > 0)
        used += (size_t)n;
    got[used] = '\0';
    CHECK(used > 0 && got[0] == '{');
    close(p[0]);
    tally_report_free(r);
}

/* An overwritten file keeps its permissions (and, when we may set it, its owner); a link to a
 * regular file stays a link and its target is replaced. */
static void test_mode_and_owner_kept(void)
{
    tally_report *r = fixture_report(NULL);
    int root = geteuid() == 0;
    for (size_t i = 0; i < TALLY__COUNT(formats); i++) {
        char path[256];
        fresh_path(path, sizeof(path), "kept.out");
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        CHECK(fd >= 0 && write(fd, "old\n", 4) == 4);
        close(fd);
        CHECK_INT(chmod(path, 0640), 0);
        if (root)
            CHECK_INT(chown(path, 1234, 2345), 0);
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.format = formats[i];
        CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
        struct stat st;
        CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 4);
        CHECK_INT(st.st_mode & 07777, 0640);
        if (root) {
            CHECK_INT(st.st_uid, 1234);
            CHECK_INT(st.st_gid, 2345);
        }
        char link_path[256];
        fresh_path(link_path, sizeof(link_path), "kept.link");
        CHECK_INT(symlink("kept.out", link_path), 0);
        CHECK_INT(tally_report_write(r, link_path, &o), TALLY_OK);
        CHECK(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode));
        CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);
        unlink(link_path);
        unlink(path);
    }
    CHECK(!temp_files_left());
    tally_report_free(r);
}

/* An empty path and a directory: what is wrong and what to give instead. */
static void test_bad_paths(void)
{
    tally_report *r = fixture_report(NULL);
    CHECK_INT(tally_report_write(r, "", NULL), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "the output path is empty: give a file name");
    tally_results *list = build_fixture();
    CHECK_INT(tally_results_save(list, ""), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "the output path is empty: give a file name");
    tally_results_free(list);
    CHECK_INT(tally_report_write(r, DIR_, NULL), TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "is a directory") != NULL);
    tally_report_free(r);
}

/* More samples than an Excel sheet has rows: refused before libxlsxwriter starts, with the limit
 * and the way out, nothing printed on stderr, no file left; omit_samples writes the workbook. */
static void test_xlsx_row_limit(void)
{
    size_t n = 1048576; /* one more than the 1,048,575 rows below the header */
    double *x = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        x[i] = 1.0 + (double)(i % 7);
    tally_results *list = NULL;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    add_samples(new_set(list, "base"), "t", "s", TALLY_LOWER_IS_BETTER, "big", x, n);
    free(x);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    char path[256];
    fresh_path(path, sizeof(path), "rows.xlsx");
    char errs[256];
    snprintf(errs, sizeof(errs), DIR_ "/stderr.txt");
    fflush(stderr);
    int saved = dup(2);
    int fd = open(errs, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_XLSX;
    int rc = tally_report_write(r, path, &o);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK_INT(rc, TALLY_ELIMIT);
    const char *m = tally_error_last()->message;
    CHECK(strstr(m, "1,048,576") != NULL && strstr(m, "omit_samples") != NULL);
    struct stat st;
    CHECK(stat(errs, &st) == 0 && st.st_size == 0); /* nothing from libxlsxwriter */
    CHECK(stat(path, &st) != 0);
    CHECK(!temp_files_left());
    tally_report_free(r);
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    ro.omit_samples = 1;
    CHECK_INT(tally_report_new(&r, list, &ro), TALLY_OK);
    CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
    CHECK(stat(path, &st) == 0 && st.st_size > 0);
    unlink(path);
    unlink(errs);
    tally_report_free(r);
    tally_results_free(list);
}

int main(void)
{
    mkdir(DIR_, 0755);
    test_fifo_written_through();
    test_device_not_replaced();
    test_full_device_reported();
    test_descriptor_path();
    test_mode_and_owner_kept();
    test_bad_paths();
    test_xlsx_row_limit();
    return check_summary();
}
