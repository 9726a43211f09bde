/* Whole-file reads and atomic writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

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

int tally__create_temp(char **tmp_out, int *fd_out, const char *path)
{
    *tmp_out = NULL;
    *fd_out = -1;
    size_t plen = strlen(path);
    char *tmp = tally__malloc(plen + 16);
    if (tmp == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int saved = errno;
        tally__free_mem(tmp);
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot create: %s", strerror(saved));
    }
    /* mkstemp creates 0600; give the file the permissions a plain creat() would. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
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
