/* Whole-file reads and atomic writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/internal.h"

int tally__read_file(char **out, size_t *len, const char *path)
{
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        close(fd);
        return tally__error_at(TALLY_EIO, path, 0, 0, "not a readable file");
    }
    /* Room for the whole file, its NUL and one byte more, so that the read seeing the end of
     * the file finds space and the buffer is not regrown (and copied) for nothing. */
    size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 2 : 4096;
    char *data = tally__malloc(cap);
    if (data == NULL) {
        close(fd);
        return tally__error(TALLY_ENOMEM, "out of memory reading %s", path);
    }
    tally__prefault(data, cap); /* read() would otherwise fault the fresh pages one by one */
    size_t used = 0;
    for (;;) {
        if (used + 1 >= cap) {
            char *bigger = tally__reallocarray(data, cap, 2);
            if (bigger == NULL) {
                tally__free_mem(data);
                close(fd);
                return tally__error(TALLY_ENOMEM, "out of memory reading %s", path);
            }
            data = bigger;
            cap *= 2;
        }
        ssize_t got = read(fd, data + used, cap - used - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int saved = errno;
            tally__free_mem(data);
            close(fd);
            return tally__error_at(TALLY_EIO, path, 0, 0, "read failed: %s", strerror(saved));
        }
        if (got == 0)
            break;
        used += (size_t)got;
    }
    close(fd);
    data[used] = '\0';
    *out = data;
    *len = used;
    return TALLY_OK;
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t put = write(fd, data, len);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        data += put;
        len -= (size_t)put;
    }
    return 0;
}

/* A name next to `path` that no file has yet, `path.tmp.<pid>.<12 hex digits>`, created with
 * O_EXCL (so nothing that exists, a symbolic link included, is ever opened) and mode 0666, to
 * which the kernel applies the umask as for any new file. mkstemp's 0600 would have to be
 * widened by hand, and reading the umask means setting it, which races with other threads. */
int tally__create_temp(char **tmp_out, int *fd_out, const char *path)
{
    *tmp_out = NULL;
    *fd_out = -1;
    size_t cap = strlen(path) + 48;
    char *tmp = tally__malloc(cap);
    if (tmp == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int fd = -1, saved = EEXIST;
    for (unsigned attempt = 0; fd < 0 && saved == EEXIST && attempt < 64; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        /* Different per attempt, thread (the stack address) and moment; O_EXCL settles ties. */
        uint64_t nonce = ((uint64_t)now.tv_nsec ^ (uint64_t)(uintptr_t)&now ^
                          (uint64_t)now.tv_sec << 20) * UINT64_C(0x9E3779B97F4A7C15) +
                         attempt;
        snprintf(tmp, cap, "%s.tmp.%ld.%012llx", path, (long)getpid(),
                 (unsigned long long)(nonce >> 16));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        saved = fd < 0 ? errno : 0;
    }
    if (fd < 0) {
        tally__free_mem(tmp);
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot create: %s", strerror(saved));
    }
    *tmp_out = tmp;
    *fd_out = fd;
    return TALLY_OK;
}

int tally__write_file_atomic(const char *path, const char *data, size_t len)
{
    char *tmp = NULL;
    int fd = -1;
    int rc = tally__create_temp(&tmp, &fd, path);
    if (rc != TALLY_OK)
        return rc;
    int failed = write_all(fd, data, len) != 0 || fsync(fd) != 0;
    int saved = errno;
    if (close(fd) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        unlink(tmp);
        tally__free_mem(tmp);
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot write: %s", strerror(saved));
    }
    tally__free_mem(tmp);
    return TALLY_OK;
}
