/* Whole-file reads; outputs replaced atomically or written through. */
#define _DEFAULT_SOURCE /* realpath, beside POSIX */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/internal.h"

/* Inputs. Regular files are read; so are standard input (/dev/stdin, /dev/fd/0,
 * /proc/self/fd/0: whatever it is, the caller redirected it on purpose) and anonymous pipes
 * given by path (/dev/fd/N of a shell's process substitution). Anything else is refused before
 * a byte is read: a named FIFO would block until some writer appears, a device such as
 * /dev/zero or /dev/urandom never ends. No input may exceed TALLY__INPUT_MAX bytes. */

static int is_standard_input(const char *path)
{
    return strcmp(path, "/dev/stdin") == 0 || strcmp(path, "/dev/fd/0") == 0 ||
           strcmp(path, "/proc/self/fd/0") == 0;
}

/* An anonymous pipe: /proc names its descriptors "pipe:[inode]", a named FIFO by its path. */
static int is_anonymous_pipe(int fd)
{
    char link[64], target[16];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    return n >= 5 && memcmp(target, "pipe:", 5) == 0;
}

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a named pipe (FIFO), which would wait for a writer (to read it anyway, give it "
               "as standard input: - < FIFO)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

static int too_large(const tally__input *in)
{
    if (in->max == TALLY__INPUT_MAX)
        return tally__error_at(TALLY_ELIMIT, in->path, 0, 0,
                               "larger than %u MiB, the most tally reads from one input: split "
                               "it into several files",
                               (unsigned)(TALLY__INPUT_MAX >> 20));
    return tally__error_at(TALLY_ELIMIT, in->path, 0, 0,
                           "larger than %zu bytes, the most tally reads from one input as "
                           "TALLY_INPUT_MAX sets it",
                           in->max);
}

/* The input limit: TALLY__INPUT_MAX, or a lower number of bytes in the environment variable
 * TALLY_INPUT_MAX (docs/formats.md, "Limits"): it may lower the limit, never raise it. */
static size_t input_max(void)
{
    const char *v = getenv("TALLY_INPUT_MAX");
    if (v == NULL || *v < '0' || *v > '9')
        return TALLY__INPUT_MAX;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    return errno == 0 && *end == '\0' && n < TALLY__INPUT_MAX ? (size_t)n : TALLY__INPUT_MAX;
}

int tally__input_open(tally__input *in, const char *path)
{
    memset(in, 0, sizeof(*in));
    in->fd = -1;
    in->max = input_max();
    int std = is_standard_input(path);
    /* Standard input is "stdin" in messages and the default label, whichever name reached it
     * (the command's `-` is /dev/stdin here). */
    in->path = std ? "stdin" : path;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused. */
    int fd = std ? fcntl(0, F_DUPFD_CLOEXEC, 3)
                 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return tally__error_at(TALLY_EIO, in->path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int saved = errno;
        close(fd);
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot open: %s", strerror(saved));
    }
    int pipe_given = !std && S_ISFIFO(st.st_mode) && is_anonymous_pipe(fd);
    if (!std && !S_ISREG(st.st_mode) && !pipe_given) {
        close(fd);
        return tally__error_at(TALLY_EIO, path, 0, 0,
                               "is %s, not a file: tally reads regular files, standard input "
                               "('-') and pipes",
                               kind_of(st.st_mode));
    }
    if (pipe_given) /* our own open file description: the writer is under way, wait for it */
        (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > in->max) {
        close(fd);
        return too_large(in);
    }
    in->fd = fd;
    in->regular = S_ISREG(st.st_mode);
    in->size = in->regular && st.st_size > 0 ? (size_t)st.st_size : 0;
    in->opened = st;
    return TALLY_OK;
}

long tally__lock_holder(int fd)
{
    struct flock fl;
    memset(&fl, 0, sizeof(fl));
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type == F_UNLCK)
        return 0;
    return fl.l_pid > 0 ? (long)fl.l_pid : -1;
}

long tally__lock_holder_of(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return 0;
    long pid = tally__lock_holder(fd);
    close(fd);
    return pid;
}

/* A regular file whose size or modification time moved while it was read may have been read
 * half old, half new (a writer appending a line, an editor rewriting it): refused rather than
 * read as a mix. Files of /proc and /sys show a size that is not their length, but one that
 * does not move. */
static int check_unchanged(const tally__input *in)
{
    struct stat now;
    if (!in->regular || fstat(in->fd, &now) != 0)
        return TALLY_OK;
    if (now.st_size == in->opened.st_size && now.st_mtim.tv_sec == in->opened.st_mtim.tv_sec &&
        now.st_mtim.tv_nsec == in->opened.st_mtim.tv_nsec)
        return TALLY_OK;
    return tally__error_at(TALLY_EIO, in->path, 0, 0,
                           "the file changed while it was read (its size or modification time "
                           "moved): read it once it is complete");
}

int tally__input_read(tally__input *in, char *buf, size_t cap, size_t *got)
{
    size_t used = 0;
    *got = 0;
    while (used < cap && !in->eof) {
        ssize_t n = read(in->fd, buf + used, cap - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* A non-blocking descriptor (standard input) with nothing yet: wait for it. */
            struct pollfd p = { in->fd, POLLIN, 0 };
            (void)poll(&p, 1, -1);
            continue;
        }
        if (n < 0)
            return tally__error_at(TALLY_EIO, in->path, 0, 0, "read failed: %s", strerror(errno));
        if (n == 0) {
            in->eof = 1;
            break;
        }
        used += (size_t)n;
        in->total += (size_t)n;
        in->last = buf[used - 1];
        if (in->total > in->max)
            return too_large(in);
    }
    *got = used;
    return in->eof ? check_unchanged(in) : TALLY_OK;
}

int tally__input_read_rest(tally__input *in, char **out, size_t *len, const char *have,
                           size_t have_len)
{
    *out = NULL;
    *len = 0;
    /* Room for the whole file, its NUL and one byte more, so that the read seeing the end of
     * the file finds space and the buffer is not regrown (and copied) for nothing. */
    size_t cap = in->size > 0 ? in->size + 2 : 4096;
    if (cap < have_len + 2)
        cap = have_len + 4096;
    char *data = tally__malloc(cap);
    if (data == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory reading %s", in->path);
    tally__prefault(data, cap); /* read() would otherwise fault the fresh pages one by one */
    if (have_len > 0)
        memcpy(data, have, have_len);
    size_t used = have_len;
    int rc = TALLY_OK;
    while (rc == TALLY_OK && !in->eof) {
        if (used + 1 >= cap) {
            /* The reads stop one byte beyond the limit, which tells it was exceeded. */
            size_t grown = cap > (in->max + 2) / 2 ? in->max + 2 : cap * 2;
            char *bigger = tally__realloc(data, grown);
            if (bigger == NULL) {
                rc = tally__error(TALLY_ENOMEM, "out of memory reading %s", in->path);
                break;
            }
            data = bigger;
            cap = grown;
        }
        size_t got = 0;
        rc = tally__input_read(in, data + used, cap - used - 1, &got);
        used += got;
    }
    if (rc != TALLY_OK) {
        tally__free_mem(data);
        return rc;
    }
    data[used] = '\0';
    *out = data;
    *len = used;
    return TALLY_OK;
}

void tally__input_close(tally__input *in)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
}

int tally__read_file(char **out, size_t *len, const char *path)
{
    *out = NULL;
    *len = 0;
    tally__input in;
    int rc = tally__input_open(&in, path);
    if (rc != TALLY_OK)
        return rc;
    rc = tally__input_read_rest(&in, out, len, NULL, 0);
    tally__input_close(&in);
    return rc;
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

/* The temporary files a killed write left beside `target`: `BASE.tmp.<pid>.<12 hex digits>`
 * (tally__create_temp's pattern, nothing else), regular, ours, of a process that no longer
 * exists on this machine. Removed before the next write of the same file, so that they neither
 * pile up nor look like an output. Best effort: a directory that cannot be read is left; only
 * running out of memory is an error (TALLY_ENOMEM), as for any step of a write. */
static int remove_stale_temps(const char *target)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    size_t base_len = strlen(base);
    char *dir = slash == NULL ? tally__strdup(".")
                : slash == target ? tally__strdup("/")
                                  : tally__strndup(target, (size_t)(slash - target));
    if (dir == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    tally__free_mem(dir);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (d == NULL) {
        if (dfd >= 0)
            close(dfd);
        return TALLY_OK;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strncmp(name, base, base_len) != 0 || strncmp(name + base_len, ".tmp.", 5) != 0)
            continue;
        const char *p = name + base_len + 5;
        char *end;
        errno = 0;
        long pid = strtol(p, &end, 10);
        if (end == p || *end != '.' || pid <= 0 || errno != 0 || strlen(end + 1) != 12 ||
            strspn(end + 1, "0123456789abcdef") != 12)
            continue;
        struct stat st;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH ||
            fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        (void)unlinkat(dfd, name, 0);
    }
    closedir(d);
    return TALLY_OK;
}

/* Outputs. A regular file (or a name not taken yet) is replaced atomically: a temporary file
 * next to it, given the old file's mode and owner, fsync'ed, renamed over it, and the directory
 * fsync'ed so that the rename survives a crash. A symbolic link to a regular file keeps being a
 * link: the file it names is replaced. Anything else (a terminal, a pipe, /dev/null, /dev/full,
 * a socket) is written through, never replaced; /dev/stdout, /dev/stderr, /dev/fd/N and
 * /proc/self/fd/N are the descriptors themselves, written at their current offset as a shell
 * redirection would. Every write error is reported. */

/* The descriptor a path names directly, or -1. */
static int named_descriptor(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    const char *digits = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0)
        digits = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0)
        digits = path + 14;
    if (digits == NULL || *digits < '0' || *digits > '9')
        return -1;
    long fd = 0;
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9' || fd > 1000000)
            return -1;
        fd = fd * 10 + (*p - '0');
    }
    return (int)fd;
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t put = write(fd, data, len);
        if (put < 0 && errno == EINTR)
            continue;
        if (put < 0)
            return -1;
        if (put == 0) {
            errno = EIO;
            return -1;
        }
        data += put;
        len -= (size_t)put;
    }
    return 0;
}

/* What to do about a failed write, by its cause. */
static const char *write_advice(int err)
{
    switch (err) {
    case ENOSPC:
    case EDQUOT: return " (free some space, or write the output elsewhere)";
    case EACCES:
    case EPERM:
    case EROFS: return " (choose a path you may write to)";
    case EPIPE: return " (the reading end of the pipe was closed before the output was complete)";
    default: return "";
    }
}

static int write_error(const char *path, const char *doing, int err)
{
    return tally__error_at(TALLY_EIO, path, 0, 0, "%s: %s%s", doing, strerror(err),
                           write_advice(err));
}

void tally__output_init(tally__output *o)
{
    memset(o, 0, sizeof(*o));
    o->fd = -1;
}

int tally__output_open(tally__output *o, const char *path)
{
    tally__output_init(o);
    if (path == NULL || path[0] == '\0')
        return tally__error(TALLY_EINVAL, "the output path is empty: give a file name");
    o->shown = path;
    int fd = named_descriptor(path);
    if (fd >= 0) {
        o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        if (o->fd < 0)
            return tally__error_at(TALLY_EIO, path, 0, 0,
                                   "descriptor %d is not open for writing: %s", fd,
                                   strerror(errno));
        o->through = 1;
        return TALLY_OK;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return tally__error_at(TALLY_EIO, path, 0, 0,
                                   "is a directory: give a file name inside it");
        o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (o->fd < 0)
            return write_error(path, "cannot open for writing", errno);
        o->through = 1;
        return TALLY_OK;
    }
    const char *target = path;
    struct stat link;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && S_ISREG(st.st_mode)) {
        o->resolved = realpath(path, NULL);
        if (o->resolved == NULL)
            return tally__error_at(TALLY_EIO, path, 0, 0, "cannot resolve the link: %s",
                                   strerror(errno));
        target = o->resolved;
    }
    o->target = target;
    int rc = remove_stale_temps(target);
    if (rc != TALLY_OK)
        return rc;
    if (stat(target, &o->old) == 0)
        o->had_old = S_ISREG(o->old.st_mode);
    return tally__create_temp(&o->tmp, &o->fd, target);
}

int tally__output_write(tally__output *o, const char *data, size_t len)
{
    if (o->failed)
        return TALLY_EIO;
    if (write_all(o->fd, data, len) != 0) {
        o->failed = 1;
        return write_error(o->shown, "cannot write", errno);
    }
    return TALLY_OK;
}

/* Open the directory holding `path` (to fsync it once a rename into it is done). Opened before
 * the rename, so that running out of memory here fails the write while nothing is replaced yet.
 * Returns 0 with *fd set, or an errno value. */
static int open_parent(int *fd, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? tally__strdup(".")
                : slash == path ? tally__strdup("/")
                                : tally__strndup(path, (size_t)(slash - path));
    if (dir == NULL)
        return ENOMEM;
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    tally__free_mem(dir);
    return *fd < 0 ? errno : 0;
}

/* fsync a directory opened by open_parent and close it. */
static int sync_parent(int fd)
{
    int err = fsync(fd) != 0 && errno != EINVAL ? errno : 0;
    close(fd);
    return err;
}

/* Give the new file the old one's owner, then its mode (chown clears set-id bits, so the mode
 * comes second). Only the owner may be beyond a non-root caller: then the file is the caller's,
 * as with any program writing a new file, and its group and permissions are still kept. */
static int keep_attributes(tally__output *o)
{
    if (!o->had_old)
        return 0;
    if (fchown(o->fd, o->old.st_uid, o->old.st_gid) != 0 &&
        fchown(o->fd, (uid_t)-1, o->old.st_gid) != 0 && errno != EPERM)
        return errno;
    return fchmod(o->fd, o->old.st_mode & 07777) != 0 ? errno : 0;
}

int tally__output_stage(tally__output *o, const char **file)
{
    *file = NULL;
    if (!o->through) {
        close(o->fd); /* the writer creates the file anew; the commit reopens it */
        o->fd = -1;
        *file = o->tmp;
        return TALLY_OK;
    }
    const char *dir = getenv("TMPDIR");
    tally__buf base = TALLY__BUF_INIT;
    tally__buf_printf(&base, "%s/tally-output", dir && dir[0] ? dir : "/tmp");
    if (base.failed) {
        tally__buf_dispose(&base);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    int fd = -1;
    int rc = remove_stale_temps(base.data);
    if (rc == TALLY_OK)
        rc = tally__create_temp(&o->stage, &fd, base.data);
    tally__buf_dispose(&base);
    if (rc != TALLY_OK)
        return rc;
    close(fd);
    *file = o->stage;
    return TALLY_OK;
}

/* Copy the staged file to the target written through. */
static int copy_stage(tally__output *o)
{
    int in = open(o->stage, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return write_error(o->shown, "cannot read back the staged output", errno);
    char chunk[65536];
    int rc = TALLY_OK;
    for (;;) {
        ssize_t got = read(in, chunk, sizeof(chunk));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc = write_error(o->shown, "cannot read back the staged output", errno);
            break;
        }
        if (got == 0 || (rc = tally__output_write(o, chunk, (size_t)got)) != TALLY_OK)
            break;
    }
    close(in);
    return rc;
}

int tally__output_commit(tally__output *o)
{
    int rc = TALLY_OK;
    if (o->failed) {
        rc = TALLY_EIO;
    } else if (o->through) {
        if (o->stage != NULL)
            rc = copy_stage(o);
        int fd = o->fd;
        o->fd = -1;
        if (close(fd) != 0 && errno != EINTR && rc == TALLY_OK)
            rc = write_error(o->shown, "cannot write", errno);
    } else if (o->fd < 0 && (o->fd = open(o->tmp, O_WRONLY | O_CLOEXEC)) < 0) {
        rc = write_error(o->shown, "cannot reopen the temporary file", errno);
    } else {
        int err = keep_attributes(o);
        const char *doing = "cannot keep the mode and owner of the file it replaces";
        if (err == 0 && fsync(o->fd) != 0) {
            err = errno;
            doing = "cannot write";
        }
        if (close(o->fd) != 0 && err == 0) {
            err = errno;
            doing = "cannot write";
        }
        o->fd = -1;
        int dir = -1;
        if (err == 0 && (err = open_parent(&dir, o->target)) != 0) {
            if (err == ENOMEM) {
                tally__output_abort(o);
                return tally__oom();
            }
            doing = "cannot open its directory";
        }
        if (err == 0 && rename(o->tmp, o->target) != 0) {
            err = errno;
            doing = "cannot replace the file";
            close(dir);
            dir = -1;
        }
        if (err == 0) {
            tally__free_mem(o->tmp); /* renamed: nothing to remove any more */
            o->tmp = NULL;
            if ((err = sync_parent(dir)) != 0)
                doing = "written, but its directory could not be synced to disk";
        }
        if (err != 0)
            rc = write_error(o->shown, doing, err);
    }
    tally__output_abort(o);
    return rc;
}

void tally__output_abort(tally__output *o)
{
    if (o->fd >= 0)
        close(o->fd);
    if (o->tmp != NULL) {
        unlink(o->tmp);
        tally__free_mem(o->tmp);
    }
    if (o->stage != NULL) {
        unlink(o->stage);
        tally__free_mem(o->stage);
    }
    free(o->resolved); /* from realpath(), hence free() */
    tally__output_init(o);
}

int tally__write_file_atomic(const char *path, const char *data, size_t len)
{
    tally__output o;
    int rc = tally__output_open(&o, path);
    if (rc == TALLY_OK)
        rc = tally__output_write(&o, data, len);
    if (rc == TALLY_OK)
        return tally__output_commit(&o);
    tally__output_abort(&o);
    return rc;
}

int tally_file_write(const char *path, const void *data, size_t len)
{
    if (path == NULL || (data == NULL && len > 0))
        return tally__error(TALLY_EINVAL, "tally_file_write: NULL argument");
    if (path[0] == '\0')
        return tally__error(TALLY_EINVAL, "the output path is empty: give a file name");
    return tally__write_file_atomic(path, len ? data : "", len);
}
