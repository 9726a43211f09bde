/* The run journal on disk: JSON Lines, one header line describing the sweep, then one line per
 * finished run, each appended and fsync'd before the next run starts, so that a crash or a kill
 * loses no completed run. The file is held under an exclusive lock for the whole sweep, created
 * without following links, and never replaced without `force`. Reading and building result
 * sets is formats/journal_read.c. Format in docs/runners.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "model/merge.h"
#include "run/runner_internal.h"
#include "util/json_util.h"

/* The header members that define the sweep: a resume must match every one. */
static const char *const identity_keys[] = { "workload", "sweep", "runs", "warmup", "interleave",
                                             "params", "command", "metrics", "adaptive" };

static int write_failed(const char *path, int err)
{
    if (err == ENOSPC || err == EDQUOT)
        return tally__error_at(TALLY_EIO, path, 0, 0,
                               "cannot write the journal: %s; every completed run is kept in "
                               "it: free some space, then continue with --resume",
                               strerror(err));
    return tally__error_at(TALLY_EIO, path, 0, 0,
                           "cannot write the journal: %s; the completed runs are kept in it "
                           "(continue with --resume)",
                           strerror(err));
}

static int write_line(int fd, const char *path, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t put = write(fd, s, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return write_failed(path, put < 0 ? errno : ENOSPC);
        s += put;
        n -= (size_t)put;
    }
    if (fsync(fd) != 0)
        return write_failed(path, errno);
    return TALLY_OK;
}

/* "process 123 (tally run ...)" for the pid holding a lock, or "another process". */
static void describe_holder(char *out, size_t cap, long pid)
{
    snprintf(out, cap, "another process");
    if (pid <= 0)
        return;
    char path[64], cmd[160];
    snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
    FILE *c = fopen(path, "re");
    size_t n = c ? fread(cmd, 1, sizeof(cmd) - 1, c) : 0;
    if (c)
        fclose(c);
    for (size_t i = 0; i + 1 < n; i++)
        if (cmd[i] == '\0')
            cmd[i] = ' ';
    cmd[n] = '\0';
    if (n > 0)
        snprintf(out, cap, "process %ld (%s)", pid, cmd);
    else
        snprintf(out, cap, "process %ld", pid);
}

static int busy(const char *path, long pid)
{
    char who[256];
    describe_holder(who, sizeof(who), pid);
    return tally__error_at(TALLY_EBUSY, path, 0, 0,
                           "the journal is in use by %s, running the same sweep; wait for it "
                           "or stop it",
                           who);
}

/* An exclusive lock for the whole sweep. A POSIX record lock (not flock): it belongs to this
 * process alone, so the children forked for the runs never inherit it and a killed sweep's
 * lock goes with it; /proc/locks and F_GETLK name its holder. */
static int lock_journal(int fd, const char *path)
{
    struct flock fl;
    memset(&fl, 0, sizeof(fl));
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &fl) == 0)
        return TALLY_OK;
    if (errno != EACCES && errno != EAGAIN)
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot lock the journal: %s",
                               strerror(errno));
    return busy(path, tally__lock_holder(fd));
}

static int copy_header(tally__journal *j, const char *header, const char *path)
{
    cJSON *h = NULL;
    int rc = tally__json_parse(&h, header, strlen(header), path);
    if (rc != TALLY_OK)
        return rc;
    return tally__journal_init(&j->d, h, path);
}

void tally__journal_memory(tally__journal *j)
{
    memset(j, 0, sizeof(*j));
    j->fd = -1;
}

int tally__journal_open_memory(tally__journal *j, const char *header)
{
    tally__journal_memory(j);
    return copy_header(j, header, "journal");
}

/* What an existing journal holds, for the refusal: "12 of 30 runs". */
static void describe_existing(char *out, size_t cap, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    snprintf(out, cap, "an earlier sweep");
    if (tally__read_file(&data, &len, path) != TALLY_OK)
        return;
    tally__journal_data d;
    if (tally__journal_read(&d, data, len, path) == TALLY_OK)
        snprintf(out, cap, "%zu of %zu runs of an earlier sweep", d.count, tally__journal_expected(&d));
    tally__journal_data_free(&d);
    tally__free_mem(data);
    tally_error_clear();
}

int tally__journal_create(tally__journal *j, const char *path, const char *header, int force)
{
    tally__journal_memory(j);
    j->path = tally__strdup(path);
    if (j->path == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!force || S_ISDIR(st.st_mode)) {
            char what[96];
            if (!S_ISREG(st.st_mode))
                return tally__error_at(TALLY_EEXISTS, path, 0, 0,
                                       "exists and is not a journal (%s); it is left alone: "
                                       "remove it, or --force removes it (a link itself, never "
                                       "what it points to)",
                                       S_ISLNK(st.st_mode) ? "a symbolic link" : "not a file");
            describe_existing(what, sizeof(what), path);
            return tally__error_at(TALLY_EEXISTS, path, 0, 0,
                                   "a journal already exists (%s); continue it with --resume, "
                                   "or discard it with --force",
                                   what);
        }
        /* Never discard a journal another process is writing; a link is removed itself,
         * never followed. */
        int old = S_ISREG(st.st_mode) ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
        if (old >= 0) {
            long holder = tally__lock_holder(old);
            close(old);
            if (holder != 0)
                return busy(path, holder);
        }
        if (unlink(path) != 0 && errno != ENOENT)
            return tally__error_at(TALLY_EIO, path, 0, 0, "cannot remove the old journal: %s",
                                   strerror(errno));
    }
    j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0644);
    if (j->fd < 0) {
        if (errno == EEXIST)
            return tally__error_at(TALLY_EEXISTS, path, 0, 0,
                                   "a journal appeared while starting (another tally run?); "
                                   "continue it with --resume, or discard it with --force");
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot create the journal: %s",
                               strerror(errno));
    }
    int rc = lock_journal(j->fd, path);
    if (rc == TALLY_OK)
        rc = copy_header(j, header, path);
    if (rc != TALLY_OK)
        return rc;
    tally__buf line = TALLY__BUF_INIT;
    tally__buf_printf(&line, "%s\n", header);
    rc = line.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                     : write_line(j->fd, path, line.data, line.len);
    tally__buf_dispose(&line);
    return rc;
}

static int read_fd(char **out, size_t *len, int fd, const char *path)
{
    tally__buf b = TALLY__BUF_INIT;
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof(chunk));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            tally__buf_dispose(&b);
            return tally__error_at(TALLY_EIO, path, 0, 0, "cannot read the journal: %s",
                                   strerror(errno));
        }
        if (n == 0)
            break;
        tally__buf_append(&b, chunk, (size_t)n);
    }
    if (b.failed) {
        tally__buf_dispose(&b);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    if (b.data == NULL)
        tally__buf_puts(&b, "");
    return tally__buf_detach(out, len, &b);
}

/* Header members that differ, as "runs, params" (empty when none). */
static void differing(tally__buf *out, const cJSON *old_h, const cJSON *new_h,
                      const char *const *keys, size_t n, const char *object)
{
    if (object != NULL) {
        old_h = cJSON_GetObjectItemCaseSensitive(old_h, object);
        new_h = cJSON_GetObjectItemCaseSensitive(new_h, object);
    }
    for (size_t i = 0; i < n; i++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(old_h, keys[i]);
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(new_h, keys[i]);
        if (a == NULL && b == NULL)
            continue;
        if (a == NULL || b == NULL || !cJSON_Compare(a, b, 1))
            tally__buf_printf(out, "%s%s", out->len ? ", " : "", keys[i]);
    }
}

static const char *meta_of(const cJSON *h, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(h, "meta"),
                                                      key);
    return cJSON_IsString(v) ? v->valuestring : "?";
}

/* Print a header member as compact JSON for the mismatch message ("runs 5, now 10"). */
static void show_member(tally__buf *b, const cJSON *old_h, const cJSON *new_h, const char *key)
{
    char *was = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(old_h, key));
    char *now = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(new_h, key));
    tally__buf_printf(b, "; %s: journal %s, now %s", key, was ? was : "(none)",
                      now ? now : "(none)");
    cJSON_free(was);
    cJSON_free(now);
}

static int compare_headers(const cJSON *old_h, const cJSON *new_h, const char *path, int force)
{
    tally__buf diff = TALLY__BUF_INIT;
    differing(&diff, old_h, new_h, identity_keys, TALLY__COUNT(identity_keys), NULL);
    const cJSON *old_labels = cJSON_GetObjectItemCaseSensitive(old_h, "labels");
    if (cJSON_GetArraySize(old_labels) > 1)
        differing(&diff, old_h, new_h, (const char *const[]){ "labels" }, 1, NULL);
    int rc = TALLY_OK;
    if (diff.len > 0) {
        tally__buf detail = TALLY__BUF_INIT;
        char *keys = tally__strdup(diff.data);
        for (char *k = keys ? strtok(keys, ", ") : NULL; k; k = strtok(NULL, ", "))
            if (strcmp(k, "metrics") != 0 && strcmp(k, "command") != 0)
                show_member(&detail, old_h, new_h, k);
        tally__free_mem(keys);
        rc = tally__error_at(TALLY_EMISMATCH, path, 1, 1,
                             "the journal records a different sweep: %s differ%s%s; run it "
                             "with the journal's settings, or start over with --force",
                             diff.data, diff.len && strchr(diff.data, ',') ? "" : "s",
                             detail.data ? detail.data : "");
        tally__buf_dispose(&detail);
    }
    tally__buf_dispose(&diff);
    if (rc != TALLY_OK || force)
        return rc;
    tally__buf env = TALLY__BUF_INIT;
    differing(&env, old_h, new_h, tally__run_env_keys, TALLY__RUN_ENV_KEY_COUNT, "meta");
    if (env.len > 0)
        rc = tally__error_at(TALLY_EMISMATCH, path, 1, 1,
                             "the journal was written on host %s, kernel %s, boot %s; this is "
                             "host %s, kernel %s, boot %s (%s differ%s): resuming would mix runs "
                             "of two systems in one result set; add --force to resume anyway",
                             meta_of(old_h, "host"), meta_of(old_h, "kernel"),
                             meta_of(old_h, "boot_id"), meta_of(new_h, "host"),
                             meta_of(new_h, "kernel"), meta_of(new_h, "boot_id"), env.data,
                             strchr(env.data, ',') ? "" : "s");
    tally__buf_dispose(&env);
    return rc;
}

int tally__journal_resume(tally__journal *j, const char *path, const char *header, int force)
{
    tally__journal_memory(j);
    j->path = tally__strdup(path);
    if (j->path == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    j->fd = open(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (j->fd < 0) {
        if (errno == ENOENT)
            return tally__error_at(TALLY_ENOTFOUND, path, 0, 0,
                                   "no journal to resume (run without --resume first)");
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot open the journal: %s%s",
                               strerror(errno),
                               errno == ELOOP ? " (a symbolic link: refused)" : "");
    }
    int rc = lock_journal(j->fd, path);
    char *data = NULL;
    size_t len = 0;
    if (rc == TALLY_OK)
        rc = read_fd(&data, &len, j->fd, path);
    if (rc == TALLY_OK)
        rc = tally__journal_read(&j->d, data, len, path);
    tally__free_mem(data);
    cJSON *now = NULL;
    if (rc == TALLY_OK)
        rc = tally__json_parse(&now, header, strlen(header), path);
    if (rc == TALLY_OK)
        rc = compare_headers(j->d.header, now, path, force);
    /* A forced resume on another system says so in the journal, and so in the result set. */
    if (rc == TALLY_OK && j->d.torn && ftruncate(j->fd, (off_t)j->d.keep) != 0)
        rc = tally__error_at(TALLY_EIO, path, 0, 0, "cannot cut the torn last line: %s",
                             strerror(errno));
    if (rc == TALLY_OK) {
        tally__buf diff = TALLY__BUF_INIT;
        differing(&diff, j->d.header, now, tally__run_env_keys, TALLY__RUN_ENV_KEY_COUNT, "meta");
        if (diff.len > 0) {
            cJSON *note = cJSON_CreateObject();
            cJSON *on = note ? cJSON_AddObjectToObject(note, "resumed") : NULL;
            for (size_t i = 0; on && i < TALLY__RUN_ENV_KEY_COUNT; i++)
                cJSON_AddStringToObject(on, tally__run_env_keys[i],
                                        meta_of(now, tally__run_env_keys[i]));
            char *text = on ? cJSON_PrintUnformatted(note) : NULL;
            cJSON_Delete(note);
            tally__buf line = TALLY__BUF_INIT;
            if (text)
                tally__buf_printf(&line, "%s\n", text);
            cJSON_free(text);
            rc = line.data == NULL || line.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                                                  : write_line(j->fd, path, line.data, line.len);
            if (rc == TALLY_OK)
                rc = tally__journal_note_resume(&j->d, line.data, line.len - 1, path);
            tally__buf_dispose(&line);
        }
        tally__buf_dispose(&diff);
    }
    cJSON_Delete(now);
    return rc;
}

/* Write `obj` (taken: freed here) as one journal line. */
static int write_object(tally__journal *j, cJSON *obj)
{
    char *text = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    if (text == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    tally__buf line = TALLY__BUF_INIT;
    tally__buf_printf(&line, "%s\n", text);
    cJSON_free(text);
    int rc = line.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                         : write_line(j->fd, j->path, line.data, line.len);
    tally__buf_dispose(&line);
    return rc;
}

/* A histogram metric's value: {"resolution":R,"values":[...],"counts":[...]}, the shape of a
 * histogram run in native JSON (docs/runners.md). */
static void put_histogram(tally__buf *b, size_t i, const tally__journal_hist *h)
{
    char num[32];
    tally__number_format(num, h->resolution);
    tally__buf_printf(b, "%s{\"resolution\":%s,\"values\":[", i ? "," : "", num);
    for (size_t k = 0; k < h->n; k++) {
        tally__number_format(num, h->values[k]);
        tally__buf_printf(b, "%s%s", k ? "," : "", num);
    }
    tally__buf_puts(b, "],\"counts\":[");
    for (size_t k = 0; k < h->n; k++)
        tally__buf_printf(b, k ? ",%llu" : "%llu", (unsigned long long)h->counts[k]);
    tally__buf_puts(b, "]}");
}

int tally__journal_append(tally__journal *j, const tally__journal_run *run)
{
    int rc = tally__journal_add(&j->d, run, j->path ? j->path : "journal", 0);
    if (rc != TALLY_OK || j->fd < 0)
        return rc;
    size_t metric_count = j->d.metric_count;
    if (run->ok) {
        /* Numbers as shortest round-trip text so a resumed run gets the exact same samples. */
        tally__buf line = TALLY__BUF_INIT;
        tally__buf_printf(&line, "{\"case_index\":%zu,\"slot\":%zu,\"ok\":true,\"values\":[",
                          run->case_index, run->slot);
        for (size_t i = 0; i < metric_count; i++) {
            char num[32];
            if (j->d.metrics[i].histogram) {
                put_histogram(&line, i, &run->hists[i]);
                continue;
            }
            tally__number_format(num, run->values[i]);
            tally__buf_printf(&line, "%s%s", i ? "," : "", num);
        }
        tally__buf_puts(&line, "]}\n");
        if (line.failed) {
            tally__buf_dispose(&line);
            return tally__error(TALLY_ENOMEM, "out of memory");
        }
        rc = write_line(j->fd, j->path, line.data, line.len);
        tally__buf_dispose(&line);
        return rc;
    }
    cJSON *obj = cJSON_CreateObject();
    if (obj == NULL || cJSON_AddNumberToObject(obj, "case_index", (double)run->case_index) == NULL ||
        cJSON_AddNumberToObject(obj, "slot", (double)run->slot) == NULL ||
        cJSON_AddBoolToObject(obj, "ok", 0) == NULL ||
        cJSON_AddStringToObject(obj, "failure", run->failure ? run->failure : "failed") == NULL) {
        cJSON_Delete(obj);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    return write_object(j, obj);
}

int tally__journal_append_stop(tally__journal *j, size_t point, const tally__journal_stop *stop)
{
    int rc = tally__journal_add_stop(&j->d, point, stop, j->path ? j->path : "journal", 0);
    if (rc != TALLY_OK || j->fd < 0)
        return rc;
    cJSON *obj = cJSON_CreateObject();
    cJSON *st = obj ? cJSON_AddObjectToObject(obj, "stop") : NULL;
    if (!st || !cJSON_AddNumberToObject(st, "case_index", (double)point) ||
        !cJSON_AddStringToObject(st, "reason", stop->reason) ||
        !cJSON_AddNumberToObject(st, "runs", (double)stop->runs) ||
        !cJSON_AddNumberToObject(st, "look", (double)stop->look) ||
        !cJSON_AddStringToObject(st, "detail", stop->detail ? stop->detail : "")) {
        cJSON_Delete(obj);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    return write_object(j, obj);
}

void tally__journal_discard(tally__journal *j)
{
    if (j->fd >= 0 && j->path != NULL)
        (void)unlink(j->path); /* before the close: the lock keeps another sweep off it */
    tally__journal_close(j);
}

void tally__journal_close(tally__journal *j)
{
    if (j->fd >= 0)
        close(j->fd); /* releases the lock */
    tally__journal_data_free(&j->d);
    tally__free_mem(j->path);
    tally__journal_memory(j);
}
