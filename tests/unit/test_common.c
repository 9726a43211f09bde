/* Error codes, messages, thread-local last error, version. */
#define _POSIX_C_SOURCE 200809L /* umask, stat, opendir */
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "util/internal.h"
#include "tally.h"

static void test_strerror(void)
{
    CHECK_STR(tally_strerror(TALLY_OK), "success");
    CHECK_STR(tally_strerror(TALLY_ENOMEM), "out of memory");
    CHECK_STR(tally_strerror(TALLY_EMISMATCH), "inconsistent data");
    CHECK_STR(tally_strerror(-9999), "unknown error code");
    CHECK_STR(tally_strerror(5), "unknown error code");
}

static void test_error_location(void)
{
    tally_error_clear();
    CHECK_INT(tally_error_last()->code, TALLY_OK);
    CHECK_STR(tally_error_last()->message, "");

    CHECK_INT(tally__error_at(TALLY_EPARSE, "runs.csv", 3, 7, "expected a number"), TALLY_EPARSE);
    const tally_error *e = tally_error_last();
    CHECK_INT(e->code, TALLY_EPARSE);
    CHECK_STR(e->message, "runs.csv:3:7: expected a number");
    CHECK_STR(e->file, "runs.csv");
    CHECK_INT(e->line, 3);
    CHECK_INT(e->column, 7);
    CHECK(e->json_path == NULL);

    tally__error_json(TALLY_EPARSE, "a.json", "$.benchmarks[1].unit", "expected a string");
    CHECK_STR(tally_error_last()->message, "a.json: $.benchmarks[1].unit: expected a string");
    CHECK_STR(tally_error_last()->json_path, "$.benchmarks[1].unit");
}

static void *other_thread(void *arg)
{
    (void)arg;
    tally__error(TALLY_EIO, "from the other thread");
    return NULL;
}

static void test_thread_local(void)
{
    tally__error(TALLY_EINVAL, "from the main thread");
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);
    CHECK_INT(tally_error_last()->code, TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "from the main thread");
}

static void test_version(void)
{
    CHECK_STR(tally_version(), TALLY_VERSION_STRING);
    CHECK_INT(tally_version_number(), TALLY_VERSION_NUMBER);
    CHECK_INT(TALLY_VERSION_NUMBER,
              TALLY_VERSION_MAJOR * 10000 + TALLY_VERSION_MINOR * 100 + TALLY_VERSION_PATCH);
    CHECK_INT(tally_init(), TALLY_OK);
    CHECK_INT(tally_init(), TALLY_OK);
}

static void test_buf_and_format(void)
{
    tally__buf b = TALLY__BUF_INIT;
    for (int i = 0; i < 1000; i++)
        tally__buf_printf(&b, "%d,", i);
    char *text = NULL;
    size_t len = 0;
    CHECK_INT(tally__buf_detach(&text, &len, &b), TALLY_OK);
    CHECK_INT(len, 3890); /* 10*2 + 90*3 + 900*4 characters */
    CHECK(strncmp(text, "0,1,2,", 6) == 0);
    tally_free(text);

    char num[32];
    tally__number_format(num, 0.1);
    CHECK_STR(num, "0.1");
    tally__number_format(num, 1.0 / 3.0);
    CHECK_STR(num, "0.3333333333333333"); /* Python: repr(1/3) */
    tally__number_format(num, 1e300);
    CHECK_STR(num, "1e+300");
}

static void test_atomic_write(void)
{
    const char *path = TALLY_TEST_TMP "/atomic.txt";
    CHECK_INT(tally__write_file_atomic(path, "hello\n", 6), TALLY_OK);
    char *data = NULL;
    size_t len = 0;
    CHECK_INT(tally__read_file(&data, &len, path), TALLY_OK);
    CHECK_INT(len, 6);
    CHECK_STR(data, "hello\n");
    tally__free_mem(data);
    CHECK_INT(tally__read_file(&data, &len, TALLY_TEST_TMP "/no/such/file"), TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "no/such/file") != NULL);
    CHECK_INT(tally__write_file_atomic(TALLY_TEST_TMP "/no/such/dir/x", "x", 1), TALLY_EIO);

    /* A new file has the permissions a plain creat(path, 0666) gives under the umask, and the
     * umask itself is left alone: 0666 & ~022 = 0644, 0666 & ~077 = 0600. (A file replaced
     * keeps its own mode: test_io_output.c.) */
    static const mode_t masks[2] = { 022, 077 };
    static const mode_t modes[2] = { 0644, 0600 };
    for (int k = 0; k < 2; k++) {
        mode_t old = umask(masks[k]);
        unlink(path);
        CHECK_INT(tally__write_file_atomic(path, "mode\n", 5), TALLY_OK);
        struct stat st;
        CHECK_INT(stat(path, &st), 0);
        CHECK_INT(st.st_mode & 0777, modes[k]);
        CHECK_INT(umask(old), masks[k]);
    }
    /* Nothing is left behind: the directory holds no temporary file of ours. */
    DIR *dir = opendir(TALLY_TEST_TMP);
    struct dirent *e;
    int leftovers = 0;
    while (dir && (e = readdir(dir)) != NULL)
        leftovers += strncmp(e->d_name, "atomic.txt.tmp.", 15) == 0;
    if (dir)
        closedir(dir);
    CHECK_INT(leftovers, 0);
}

int main(void)
{
    test_strerror();
    test_error_location();
    test_thread_local();
    test_version();
    test_buf_and_format();
    test_atomic_write();
    return check_summary();
}
