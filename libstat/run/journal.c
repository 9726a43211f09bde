/* The run journal: JSON Lines, one header line describing the sweep, then one line per finished
 * run, each written and fsync'd before the next run starts, so that a crash or a kill loses no
 * completed run. Format in docs/runners.md. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/json_util.h"
#include "run/runner_internal.h"

static int write_line(int fd, const char *path, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t put = write(fd, s, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return tally__error_at(TALLY_EIO, path, 0, 0, "write failed: %s", strerror(errno));
        s += put;
        n -= (size_t)put;
    }
    if (fsync(fd) != 0)
        return tally__error_at(TALLY_EIO, path, 0, 0, "fsync failed: %s", strerror(errno));
    return TALLY_OK;
}

static int keep_run(tally__journal *j, const tally__journal_run *run, size_t metric_count)
{
    if (j->count == j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 32;
        tally__journal_run *grown = tally__reallocarray(j->runs, cap, sizeof(*grown));
        if (grown == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        j->runs = grown;
        j->cap = cap;
    }
    tally__journal_run copy = *run;
    copy.values = NULL;
    copy.failure = NULL;
    if (run->ok) {
        copy.values = tally__calloc(metric_count ? metric_count : 1, sizeof(double));
        if (copy.values == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        memcpy(copy.values, run->values, metric_count * sizeof(double));
    } else {
        copy.failure = tally__strdup(run->failure ? run->failure : "failed");
        if (copy.failure == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
    }
    j->runs[j->count++] = copy;
    return TALLY_OK;
}

int tally__journal_create(tally__journal *j, const char *path, const char *header)
{
    memset(j, 0, sizeof(*j));
    j->fd = -1;
    j->path = tally__strdup(path);
    if (j->path == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    j->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (j->fd < 0)
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot create the journal: %s",
                               strerror(errno));
    tally__buf line = TALLY__BUF_INIT;
    tally__buf_printf(&line, "%s\n", header);
    if (line.failed) {
        tally__buf_dispose(&line);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    int rc = write_line(j->fd, path, line.data, line.len);
    tally__buf_dispose(&line);
    return rc;
}

/* One run line; errors name the journal's line. */
static int parse_run(tally__journal *j, const char *s, size_t len, unsigned long lineno,
                     size_t metric_count, size_t case_count, size_t slots)
{
    cJSON *root = NULL;
    int rc = tally__json_parse(&root, s, len, j->path);
    if (rc != TALLY_OK)
        return rc;
    tally__journal_run run;
    memset(&run, 0, sizeof(run));
    double case_index = -1, slot = -1;
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(root, "ok");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(root, "values");
    const cJSON *failure = cJSON_GetObjectItemCaseSensitive(root, "failure");
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(root, "case_index");
    const cJSON *si = cJSON_GetObjectItemCaseSensitive(root, "slot");
    if (cJSON_IsNumber(ci))
        case_index = ci->valuedouble;
    if (cJSON_IsNumber(si))
        slot = si->valuedouble;
    rc = tally__error_at(TALLY_EPARSE, j->path, lineno, 1, "not a run record of this sweep");
    if (!cJSON_IsBool(ok) || case_index < 0 || case_index >= (double)case_count || slot < 0 ||
        slot >= (double)slots || case_index != (double)(size_t)case_index ||
        slot != (double)(size_t)slot)
        goto done;
    run.case_index = (size_t)case_index;
    run.slot = (size_t)slot;
    run.ok = cJSON_IsTrue(ok);
    double *vals = NULL;
    if (run.ok) {
        if (!cJSON_IsArray(values) || (size_t)cJSON_GetArraySize(values) != metric_count)
            goto done;
        vals = tally__calloc(metric_count ? metric_count : 1, sizeof(double));
        if (vals == NULL) {
            rc = tally__error(TALLY_ENOMEM, "out of memory");
            goto done;
        }
        size_t i = 0;
        const cJSON *v;
        cJSON_ArrayForEach(v, values)
        {
            /* cJSON reads 1e999 as infinity: a finished run only ever recorded finite values. */
            if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
                tally__free_mem(vals);
                goto done;
            }
            vals[i++] = v->valuedouble;
        }
        run.values = vals;
    } else {
        run.failure = cJSON_IsString(failure) ? failure->valuestring : (char *)"failed";
    }
    rc = keep_run(j, &run, metric_count);
    tally__free_mem(vals);
done:
    cJSON_Delete(root);
    return rc;
}

int tally__journal_resume(tally__journal *j, const char *path, const char *header,
                          size_t metric_count, size_t case_count, size_t slots)
{
    memset(j, 0, sizeof(*j));
    j->fd = -1;
    j->path = tally__strdup(path);
    if (j->path == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    char *data = NULL;
    size_t len = 0;
    int rc = tally__read_file(&data, &len, path);
    if (rc != TALLY_OK)
        return tally__error_at(TALLY_ENOTFOUND, path, 0, 0,
                               "no journal to resume (run without resume first)");
    size_t hlen = strlen(header);
    if (len < hlen + 1 || memcmp(data, header, hlen) != 0 || data[hlen] != '\n') {
        tally__free_mem(data);
        return tally__error_at(TALLY_EMISMATCH, path, 1, 1,
                               "the journal records a different sweep (workload, sweep values, "
                               "runs, warm-up, interleave, parameters or command differ)");
    }
    size_t pos = hlen + 1, keep = pos;
    unsigned long lineno = 1;
    while (pos < len) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        lineno++;
        if (nl == NULL)
            break; /* cut off mid-write by a crash: the run did not finish, drop it */
        size_t llen = (size_t)(nl - (data + pos));
        rc = parse_run(j, data + pos, llen, lineno, metric_count, case_count, slots);
        if (rc != TALLY_OK) {
            tally__free_mem(data);
            return rc;
        }
        pos += llen + 1;
        keep = pos;
    }
    tally__free_mem(data);
    j->fd = open(path, O_WRONLY | O_CLOEXEC);
    if (j->fd < 0 || ftruncate(j->fd, (off_t)keep) != 0 || lseek(j->fd, 0, SEEK_END) < 0)
        return tally__error_at(TALLY_EIO, path, 0, 0, "cannot reopen the journal: %s",
                               strerror(errno));
    return TALLY_OK;
}

int tally__journal_append(tally__journal *j, const tally__journal_run *run, size_t metric_count)
{
    int rc = keep_run(j, run, metric_count);
    if (rc != TALLY_OK || j->fd < 0)
        return rc;
    if (run->ok) {
        /* Numbers as shortest round-trip text so a resumed run gets the exact same samples. */
        tally__buf line = TALLY__BUF_INIT;
        tally__buf_printf(&line, "{\"case_index\":%zu,\"slot\":%zu,\"ok\":true,\"values\":[",
                          run->case_index, run->slot);
        for (size_t i = 0; i < metric_count; i++) {
            char num[32];
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
    char *text = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    if (text == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    tally__buf line = TALLY__BUF_INIT;
    tally__buf_printf(&line, "%s\n", text);
    cJSON_free(text);
    if (line.failed) {
        tally__buf_dispose(&line);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    rc = write_line(j->fd, j->path, line.data, line.len);
    tally__buf_dispose(&line);
    return rc;
}

void tally__journal_close(tally__journal *j)
{
    if (j->fd >= 0)
        close(j->fd);
    j->fd = -1;
    for (size_t i = 0; i < j->count; i++) {
        tally__free_mem(j->runs[i].values);
        tally__free_mem(j->runs[i].failure);
    }
    tally__free_mem(j->runs);
    tally__free_mem(j->path);
    memset(j, 0, sizeof(*j));
    j->fd = -1;
}
