/* The runner: options, the run schedule, the journal, progress, and the result set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "run/runner_internal.h"

#define FAILURE_TAIL 400

struct tally_runner {
    tally__wl wl;
    tally__params params;
    char **sweep;
    size_t sweep_count;
    char **labels;    /* one result-set label per configuration */
    char ***commands; /* exec: one argv per configuration */
    size_t config_count;
    char *output;
    char *command_line;
    unsigned int runs, warmup;
    int interleave, resume, force, ran;
    tally_results *previous; /* append: the result set already in `output` */
    double timeout;
    tally_run_progress_fn progress;
    void *progress_user;
    tally_results *results;
    size_t failed_runs;
    /* progress state */
    tally_run_progress p;
    double start, run_start, busy;
    size_t timed_runs;
};

static const tally__workload *const workloads[] = {
    &tally__workload_hackbench,    &tally__workload_stream,
    &tally__workload_schbench,     &tally__workload_tcp_rr,
    &tally__workload_exec,         &tally__workload_rt_hackbench,
    &tally__workload_perf_messaging, &tally__workload_tbench,
    &tally__workload_iperf3,       &tally__workload_netperf,
};
#define WORKLOAD_COUNT (sizeof(workloads) / sizeof(workloads[0]))

const tally__workload *tally__workload_find(tally_workload kind)
{
    for (size_t i = 0; i < WORKLOAD_COUNT; i++)
        if (workloads[i]->kind == kind)
            return workloads[i];
    return NULL;
}

const char *tally_workload_name(tally_workload workload)
{
    const tally__workload *w = tally__workload_find(workload);
    return w ? w->name : NULL;
}

int tally_workload_from_name(tally_workload *out, const char *name)
{
    for (size_t i = 0; name != NULL && i < WORKLOAD_COUNT; i++) {
        if (strcmp(workloads[i]->name, name) == 0) {
            *out = workloads[i]->kind;
            return TALLY_OK;
        }
    }
    return tally__error(TALLY_EINVAL, "unknown workload '%s'", name ? name : "(null)");
}

int tally_workload_available(tally_workload workload)
{
    const tally__workload *w = tally__workload_find(workload);
    if (w == NULL)
        return 0;
    return w->tool == NULL || tally__find_executable(w->tool);
}

/* ---- creation ---- */

static int split_params(tally__params *p, const char *const *items, size_t n,
                        const char *const *keys)
{
    p->keys = tally__calloc(n ? n : 1, sizeof(char *));
    p->values = tally__calloc(n ? n : 1, sizeof(char *));
    if (p->keys == NULL || p->values == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *eq = items[i] ? strchr(items[i], '=') : NULL;
        if (eq == NULL || eq == items[i])
            return tally__error(TALLY_EINVAL, "parameter '%s': expected key=value",
                                items[i] ? items[i] : "(null)");
        p->keys[i] = tally__strndup(items[i], (size_t)(eq - items[i]));
        p->values[i] = tally__strdup(eq + 1);
        p->count = i + 1;
        if (p->keys[i] == NULL || p->values[i] == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        int known = 0;
        for (size_t k = 0; keys != NULL && keys[k] != NULL; k++)
            known |= strcmp(keys[k], p->keys[i]) == 0;
        if (!known)
            return tally__error(TALLY_EINVAL, "unknown parameter '%s' (see docs/runners.md)",
                                p->keys[i]);
    }
    return TALLY_OK;
}

static int split_sweep(tally_runner *r, const char *text)
{
    size_t n = 1;
    for (const char *s = text; *s; s++)
        n += *s == ',';
    r->sweep = tally__calloc(n, sizeof(char *));
    if (r->sweep == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    const char *s = text;
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(s, ",");
        if (len == 0)
            return tally__error(TALLY_EINVAL, "sweep '%s': empty value", text);
        r->sweep[i] = tally__strndup(s, len);
        if (r->sweep[i] == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        r->sweep_count = i + 1;
        for (size_t k = 0; k < i; k++)
            if (strcmp(r->sweep[k], r->sweep[i]) == 0)
                return tally__error(TALLY_EINVAL, "sweep '%s': '%s' appears twice", text,
                                    r->sweep[i]);
        s += len + (s[len] == ',');
    }
    return TALLY_OK;
}

static int check_output(const tally_runner_options *o)
{
    const char *path = o->output;
    size_t len = strlen(path);
    if (len == 0 || path[len - 1] == '/')
        return tally__error(TALLY_EINVAL, "output '%s': expected a file name", path);
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode))
        return tally__error(TALLY_EINVAL, "output '%s': exists and is not a regular file", path);
    if (o->append && !exists)
        return tally__error_at(TALLY_ENOTFOUND, path, 0, 0,
                               "nothing to append to (run without --append first)");
    if (exists && !o->append && !o->force && !o->resume)
        return tally__error_at(TALLY_EEXISTS, path, 0, 0,
                               "the result set already exists; add runs to it with --append, "
                               "write another file, or replace it with --force");
    return TALLY_OK;
}

/* Append: the earlier result set must come from the same workload with the same parameters
 * (runs, warm-ups and sweep values may differ). The keys that differ are named. */
static int load_previous(tally_runner *r)
{
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    lo.kind = TALLY_INPUT_NATIVE_JSON;
    int rc = tally_results_new(&r->previous);
    if (rc == TALLY_OK)
        rc = tally_load_file(r->previous, r->output, &lo);
    if (rc != TALLY_OK)
        return rc;
    if (tally_results_count(r->previous) != r->config_count)
        return tally__error_at(TALLY_EMISMATCH, r->output, 0, 0,
                               "holds %zu result sets, this sweep makes %zu: nothing to append to",
                               tally_results_count(r->previous), r->config_count);
    tally__buf diff = TALLY__BUF_INIT, detail = TALLY__BUF_INIT;
    for (size_t k = 0; k < r->config_count; k++) {
        const tally_resultset *rs = tally_results_at(r->previous, k);
        const char *w = tally_resultset_meta_get(rs, "workload");
        if (w == NULL || strcmp(w, r->wl.w->name) != 0) {
            tally__buf_dispose(&diff);
            tally__buf_dispose(&detail);
            return tally__error_at(TALLY_EMISMATCH, r->output, 0, 0,
                                   "holds runs of the workload '%s', not '%s': nothing to "
                                   "append to", w ? w : "(none)", r->wl.w->name);
        }
        /* Every param.KEY of either side must be equal on both. */
        for (size_t i = 0; k == 0 && i < tally_resultset_meta_count(rs); i++) {
            const char *key, *val;
            if (tally_resultset_meta_at(&key, &val, rs, i) != TALLY_OK ||
                strncmp(key, "param.", 6) != 0)
                continue;
            const char *now = tally__param_get(&r->params, key + 6);
            if (now == NULL || strcmp(now, val) != 0) {
                tally__buf_printf(&diff, "%s%s", diff.len ? ", " : "", key + 6);
                tally__buf_printf(&detail, "; %s: %s there, %s now", key + 6, val,
                                  now ? now : "(default)");
            }
        }
        for (size_t i = 0; k == 0 && i < r->params.count; i++) {
            tally__buf key = TALLY__BUF_INIT;
            tally__buf_printf(&key, "param.%s", r->params.keys[i]);
            if (!key.failed && tally_resultset_meta_get(rs, key.data) == NULL) {
                tally__buf_printf(&diff, "%s%s", diff.len ? ", " : "", r->params.keys[i]);
                tally__buf_printf(&detail, "; %s: (default) there, %s now", r->params.keys[i],
                                  r->params.values[i]);
            }
            tally__buf_dispose(&key);
        }
    }
    rc = TALLY_OK;
    if (diff.failed || detail.failed)
        rc = tally__error(TALLY_ENOMEM, "out of memory");
    else if (diff.len > 0)
        rc = tally__error_at(TALLY_EMISMATCH, r->output, 0, 0,
                             "was run with other workload parameters (%s)%s: append only runs "
                             "of the same workload, or write another file and compare the two",
                             diff.data, detail.data);
    tally__buf_dispose(&diff);
    tally__buf_dispose(&detail);
    return rc;
}

/* Append: the journal of the earlier sweep, when complete, is kept as OUT.json.journal.N (its
 * runs are in OUT.json); an unfinished one is refused (resume it first). */
static int archive_journal(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return TALLY_OK;
    char *data = NULL;
    size_t len = 0;
    int rc = tally__read_file(&data, &len, path);
    tally__journal_data d;
    memset(&d, 0, sizeof(d));
    if (rc == TALLY_OK)
        rc = tally__journal_read(&d, data, len, path);
    int complete = rc == TALLY_OK && d.count == d.points * d.slots;
    tally__journal_data_free(&d);
    tally__free_mem(data);
    if (!complete) {
        tally_error_clear();
        return tally__error_at(TALLY_EEXISTS, path, 0, 0,
                               "the journal holds an unfinished sweep; continue it with "
                               "--resume, or discard it with --force");
    }
    tally__buf to = TALLY__BUF_INIT;
    for (unsigned n = 1; n < 10000; n++) {
        to.len = 0;
        tally__buf_printf(&to, "%s.%u", path, n);
        if (to.failed || lstat(to.data, &st) != 0)
            break;
    }
    rc = to.failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
    if (rc == TALLY_OK && rename(path, to.data) != 0)
        rc = tally__error_at(TALLY_EIO, path, 0, 0, "cannot keep the finished journal as %s",
                             to.data);
    tally__buf_dispose(&to);
    return rc;
}

/* Append: the earlier result sets with this sweep's runs after theirs. */
static int append_to_previous(tally_runner *r)
{
    int rc = TALLY_OK;
    for (size_t k = 0; rc == TALLY_OK && k < r->config_count; k++) {
        const tally_resultset *now = tally_results_at(r->results, k);
        tally__buf source = TALLY__BUF_INIT;
        const char *date = tally_resultset_meta_get(now, "date");
        tally__buf_printf(&source, "tally run --append%s%s", date ? " at " : "", date ? date : "");
        rc = source.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                           : tally_resultset_merge_runs(tally_results_at(r->previous, k), now,
                                                        source.data);
        tally__buf_dispose(&source);
    }
    if (rc == TALLY_OK) {
        tally_results_free(r->results);
        r->results = r->previous;
        r->previous = NULL;
    }
    return rc;
}

/* Sweep values are checked before the first run: a sweep of counts (groups, clients, ...)
 * takes positive integers (each workload checks its own upper limit again per run), and an
 * external tool's command line is built for every value. */
static int check_sweep_values(tally_runner *r)
{
    const tally__workload *w = r->wl.w;
    if (w->sweep_name == NULL || w->kind == TALLY_WORKLOAD_EXEC)
        return TALLY_OK;
    for (size_t i = 0; i < r->sweep_count; i++) {
        long v;
        int rc = tally__sweep_long(&v, r->sweep[i], w->sweep_name, 1000000);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

static int copy_command(char ***out, const char *const *argv, tally_workload kind)
{
    size_t n = 0;
    while (argv != NULL && argv[n] != NULL)
        n++;
    if (kind != TALLY_WORKLOAD_EXEC)
        return n ? tally__error(TALLY_EINVAL, "only the exec workload takes a command")
                 : TALLY_OK;
    if (n == 0)
        return tally__error(TALLY_EINVAL, "the exec workload needs a command");
    int rc = tally__argv_new(out, argv, n);
    if (rc != TALLY_OK)
        return rc;
    if (!tally__find_executable(argv[0]))
        return tally__error(TALLY_ENOTFOUND, "command not found: %s", argv[0]);
    return TALLY_OK;
}

/* The configurations: the caller's list, or the single one made of `label` and `command`. */
static int copy_configs(tally_runner *r, const tally_runner_options *o)
{
    size_t n = o->config_count ? o->config_count : 1;
    if (o->config_count > 0 && (o->configs == NULL || o->command != NULL || o->label != NULL))
        return tally__error(TALLY_EINVAL, "give either configs, or label and command");
    if (o->config_count > 1 && o->workload != TALLY_WORKLOAD_EXEC)
        return tally__error(TALLY_EINVAL, "several configurations need the exec workload");
    r->labels = tally__calloc(n, sizeof(char *));
    r->commands = tally__calloc(n, sizeof(char **));
    if (r->labels == NULL || r->commands == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    r->config_count = n;
    for (size_t i = 0; i < n; i++) {
        const char *label = o->config_count ? o->configs[i].label : o->label;
        const char *const *command = o->config_count ? o->configs[i].command : o->command;
        if (label == NULL && o->config_count > 0)
            return tally__error(TALLY_EINVAL, "configuration %zu has no label", i + 1);
        r->labels[i] = tally__strdup(label ? label : "run");
        if (r->labels[i] == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        if (r->labels[i][0] == '\0')
            return tally__error(TALLY_EINVAL, "the label must not be empty");
        for (size_t k = 0; k < i; k++)
            if (strcmp(r->labels[k], r->labels[i]) == 0)
                return tally__error(TALLY_EEXISTS, "two configurations are labelled '%s'",
                                    label);
        int rc = copy_command(&r->commands[i], command, o->workload);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

static int runner_init(tally_runner *r, const tally_runner_options *o)
{
    int rc;
    const tally__workload *w = tally__workload_find(o->workload);
    if (w == NULL)
        return tally__error(TALLY_EINVAL, "unknown workload %d", (int)o->workload);
    r->wl.w = w;
    if (o->runs < 1)
        return tally__error(TALLY_EINVAL, "runs must be at least 1");
    if (!(o->timeout > 0) || o->timeout > 1e7)
        return tally__error(TALLY_EINVAL, "timeout must be a positive number of seconds");
    if (o->resume && o->output == NULL)
        return tally__error(TALLY_EINVAL, "resume needs an output path (its journal)");
    if ((o->append || o->force) && o->output == NULL)
        return tally__error(TALLY_EINVAL, "append and force need an output path");
    if (w->tool != NULL && !tally__find_executable(w->tool))
        return tally__error(TALLY_ENOTFOUND, "%s is not installed (%s not found on PATH)",
                            w->name, w->tool);
    r->runs = o->runs;
    r->warmup = o->warmup;
    r->interleave = o->interleave != 0;
    r->resume = o->resume != 0;
    r->timeout = o->timeout;
    r->progress = o->progress;
    r->progress_user = o->progress_user;
    r->output = o->output ? tally__strdup(o->output) : NULL;
    r->command_line = o->command_line ? tally__strdup(o->command_line) : NULL;
    if ((o->output && r->output == NULL) || (o->command_line && r->command_line == NULL))
        return tally__error(TALLY_ENOMEM, "out of memory");
    if (o->params == NULL && o->param_count > 0)
        return tally__error(TALLY_EINVAL, "param_count without params");
    r->force = o->force != 0;
    rc = split_params(&r->params, o->params, o->param_count, w->keys);
    if (rc == TALLY_OK)
        rc = copy_configs(r, o);
    if (rc != TALLY_OK)
        return rc;
    r->wl.command = r->commands[0];
    r->wl.several = r->config_count > 1;
    if (o->sweep != NULL && w->sweep_name == NULL)
        return tally__error(TALLY_EINVAL, "the %s workload takes no sweep", w->name);
    rc = split_sweep(r, o->sweep ? o->sweep : w->default_sweep);
    if (rc != TALLY_OK)
        return rc;
    for (size_t k = 0; w->kind == TALLY_WORKLOAD_EXEC && k < r->config_count; k++) {
        int has_sweep_slot = 0;
        for (size_t i = 0; r->commands[k][i] != NULL; i++)
            has_sweep_slot |= strstr(r->commands[k][i], "{}") != NULL;
        if (has_sweep_slot && o->sweep == NULL)
            return tally__error(TALLY_EINVAL, "the command uses {} but no sweep values were given");
        if (!has_sweep_slot && o->sweep != NULL)
            return tally__error(TALLY_EINVAL, "a sweep needs {} in the command to put the value in");
    }
    rc = check_sweep_values(r);
    if (rc == TALLY_OK && o->output != NULL)
        rc = check_output(o);
    if (rc == TALLY_OK)
        rc = w->configure(&r->wl, &r->params);
    if (rc == TALLY_OK && o->append)
        rc = load_previous(r);
    return rc;
}

int tally_runner_new(tally_runner **out, const tally_runner_options *opts)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "out must not be NULL");
    *out = NULL;
    if (opts == NULL || opts->version != TALLY_RUNNER_OPTIONS_VERSION)
        return tally__error(TALLY_EINVAL, "runner options: missing or unknown version");
    tally_runner *r = tally__calloc(1, sizeof(*r));
    if (r == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int rc = runner_init(r, opts);
    if (rc != TALLY_OK) {
        tally_runner_free(r);
        return rc;
    }
    *out = r;
    return TALLY_OK;
}

void tally_runner_free(tally_runner *r)
{
    if (r == NULL)
        return;
    if (r->wl.w != NULL && r->wl.w->release != NULL)
        r->wl.w->release(&r->wl);
    for (size_t i = 0; i < r->wl.metric_count; i++) {
        tally__free_mem(r->wl.metrics[i].benchmark);
        tally__free_mem(r->wl.metrics[i].case_name);
        tally__free_mem(r->wl.metrics[i].unit);
    }
    tally__free_mem(r->wl.metrics);
    for (size_t i = 0; i < r->params.count; i++) {
        tally__free_mem(r->params.keys[i]);
        tally__free_mem(r->params.values[i]);
    }
    tally__free_mem(r->params.keys);
    tally__free_mem(r->params.values);
    for (size_t i = 0; i < r->sweep_count; i++)
        tally__free_mem(r->sweep[i]);
    tally__free_mem(r->sweep);
    for (size_t i = 0; i < r->config_count; i++) {
        tally__free_mem(r->labels[i]);
        tally__free_argv(r->commands[i]);
    }
    tally__free_mem(r->labels);
    tally__free_mem(r->commands);
    tally__free_mem(r->output);
    tally__free_mem(r->command_line);
    tally_results_free(r->results);
    tally_results_free(r->previous);
    tally__free_mem(r);
}

const tally_resultset *tally_runner_resultset(const tally_runner *r)
{
    return r && r->results ? tally_results_at(r->results, 0) : NULL;
}

size_t tally_runner_failed_runs(const tally_runner *r)
{
    return r && r->results ? r->failed_runs : 0;
}

int tally_runner_take_results(tally_results **out, tally_runner *r)
{
    if (out == NULL || r == NULL || r->results == NULL)
        return tally__error(TALLY_EINVAL, "no results to take (run the sweep first)");
    *out = r->results;
    r->results = NULL;
    return TALLY_OK;
}

/* ---- the journal header: everything that defines the sweep, and the metadata ---- */

/* The name of sweep value c: "4-groups", as the importers name the cases of the same tools'
 * outputs; exec uses the bare value, a workload without a sweep its own name. */
static void sweep_label(tally__buf *out, const tally_runner *r, size_t c)
{
    const tally__workload *w = r->wl.w;
    if (w->kind == TALLY_WORKLOAD_EXEC)
        tally__buf_puts(out, r->sweep[c]);
    else if (w->sweep_name == NULL)
        tally__buf_puts(out, w->name);
    else
        tally__buf_printf(out, "%s-%s", r->sweep[c], w->sweep_name);
}

/* Result-set metadata shared by every configuration: the machine, the workload, the command
 * line and the parameters. */
static int describe_meta(cJSON *meta, const tally_runner *r)
{
    tally_resultset *rs = NULL;
    int rc = tally_resultset_new(&rs, "meta");
    if (rc == TALLY_OK)
        rc = tally__sysinfo_record(rs);
    char num[32];
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "workload", r->wl.w->name);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "harness", r->wl.w->tool ? r->wl.w->tool : "tally");
    if (rc == TALLY_OK && r->command_line)
        rc = tally_resultset_meta_set(rs, "command_line", r->command_line);
    snprintf(num, sizeof(num), "%u", r->runs);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "runs", num);
    snprintf(num, sizeof(num), "%u", r->warmup);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "warmup", num);
    for (size_t i = 0; rc == TALLY_OK && i < r->params.count; i++) {
        tally__buf key = TALLY__BUF_INIT;
        tally__buf_printf(&key, "param.%s", r->params.keys[i]);
        rc = key.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                        : tally_resultset_meta_set(rs, key.data, r->params.values[i]);
        tally__buf_dispose(&key);
    }
    for (size_t i = 0; rc == TALLY_OK && i < tally_resultset_meta_count(rs); i++) {
        const char *k, *v;
        rc = tally_resultset_meta_at(&k, &v, rs, i);
        if (rc == TALLY_OK && cJSON_AddStringToObject(meta, k, v) == NULL)
            rc = tally__error(TALLY_ENOMEM, "out of memory");
    }
    tally_resultset_free(rs);
    return rc;
}

static int journal_header(char **out, const tally_runner *r)
{
    *out = NULL;
    cJSON *h = cJSON_CreateObject();
    int ok = h != NULL;
    const tally__workload *w = r->wl.w;
    ok = ok && cJSON_AddNumberToObject(h, "tally_journal", TALLY__JOURNAL_VERSION);
    ok = ok && cJSON_AddStringToObject(h, "workload", w->name);
    ok = ok && (w->sweep_name ? cJSON_AddStringToObject(h, "sweep_name", w->sweep_name) != NULL
                              : cJSON_AddNullToObject(h, "sweep_name") != NULL);
    cJSON *sweep = ok ? cJSON_AddArrayToObject(h, "sweep") : NULL;
    cJSON *cases = sweep ? cJSON_AddArrayToObject(h, "cases") : NULL;
    ok = cases != NULL;
    for (size_t i = 0; ok && i < r->sweep_count; i++) {
        tally__buf name = TALLY__BUF_INIT;
        sweep_label(&name, r, i);
        ok = !name.failed && cJSON_AddItemToArray(sweep, cJSON_CreateString(r->sweep[i])) &&
             cJSON_AddItemToArray(cases, cJSON_CreateString(name.data));
        tally__buf_dispose(&name);
    }
    ok = ok && cJSON_AddNumberToObject(h, "runs", r->runs);
    ok = ok && cJSON_AddNumberToObject(h, "warmup", r->warmup);
    ok = ok && cJSON_AddBoolToObject(h, "interleave", r->interleave);
    cJSON *params = ok ? cJSON_AddArrayToObject(h, "params") : NULL;
    ok = params != NULL;
    for (size_t i = 0; ok && i < r->params.count; i++) {
        cJSON *kv = cJSON_CreateArray();
        ok = kv && cJSON_AddItemToArray(params, kv) &&
             cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.keys[i])) &&
             cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.values[i]));
    }
    /* One argv per configuration (exec), and the labels of the result sets; a single
     * configuration may be relabelled on resume. */
    cJSON *cm = ok ? cJSON_AddArrayToObject(h, "command") : NULL;
    ok = cm != NULL;
    for (size_t k = 0; ok && r->commands[0] && k < r->config_count; k++) {
        cJSON *argv = cJSON_CreateArray();
        ok = argv && cJSON_AddItemToArray(cm, argv);
        for (size_t i = 0; ok && r->commands[k][i]; i++)
            ok = cJSON_AddItemToArray(argv, cJSON_CreateString(r->commands[k][i]));
    }
    cJSON *labels = ok ? cJSON_AddArrayToObject(h, "labels") : NULL;
    ok = labels != NULL;
    for (size_t k = 0; ok && k < r->config_count; k++)
        ok = cJSON_AddItemToArray(labels, cJSON_CreateString(r->labels[k]));
    cJSON *metrics = ok ? cJSON_AddArrayToObject(h, "metrics") : NULL;
    ok = metrics != NULL;
    for (size_t i = 0; ok && i < r->wl.metric_count; i++) {
        const tally__metric *m = &r->wl.metrics[i];
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(metrics, o) &&
             cJSON_AddStringToObject(o, "benchmark", m->benchmark) &&
             (m->case_name ? cJSON_AddStringToObject(o, "case", m->case_name) != NULL : 1) &&
             cJSON_AddStringToObject(o, "unit", m->unit) &&
             cJSON_AddStringToObject(o, "better", tally_direction_name(m->direction)) &&
             cJSON_AddStringToObject(o, "statistic", tally_statistic_name(m->statistic));
    }
    cJSON *meta = ok ? cJSON_AddObjectToObject(h, "meta") : NULL;
    int rc = meta ? describe_meta(meta, r) : tally__error(TALLY_ENOMEM, "out of memory");
    char *text = rc == TALLY_OK ? cJSON_PrintUnformatted(h) : NULL;
    cJSON_Delete(h);
    if (rc != TALLY_OK)
        return rc;
    if (text == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    *out = tally__strdup(text);
    cJSON_free(text);
    return *out ? TALLY_OK : tally__error(TALLY_ENOMEM, "out of memory");
}

/* ---- progress ---- */

static int report(tally_runner *r, tally_run_phase phase)
{
    if (r->progress == NULL)
        return 0;
    r->p.phase = phase;
    r->p.elapsed = tally__now() - r->start;
    size_t left = r->p.total - r->p.done;
    r->p.remaining = r->timed_runs ? r->busy / (double)r->timed_runs * (double)left : -1.0;
    if (r->p.remaining >= 0 && phase == TALLY_RUN_RUNNING) {
        r->p.remaining -= tally__now() - r->run_start; /* the current run is partly done */
        if (r->p.remaining < 0)
            r->p.remaining = 0;
    }
    return r->progress(r->progress_user, &r->p);
}

static int poll_progress(void *user)
{
    return report(user, TALLY_RUN_RUNNING);
}

/* ---- one run ---- */

static void describe_failure(tally__buf *b, const tally_runner *r, const tally__run_output *o,
                             const char *parse_error)
{
    if (o->timed_out)
        tally__buf_printf(b, "timeout after %g s (process group killed)", r->timeout);
    else if (WIFSIGNALED(o->status))
        tally__buf_printf(b, "killed by signal %d", WTERMSIG(o->status));
    else if (WIFEXITED(o->status) && WEXITSTATUS(o->status) != 0)
        tally__buf_printf(b, "exit status %d", WEXITSTATUS(o->status));
    else
        tally__buf_printf(b, "unusable output: %s", parse_error ? parse_error : "no value");
    const char *tail = tally__tail(o->err, o->err_len, FAILURE_TAIL);
    if (tail[0] != '\0')
        tally__buf_printf(b, "; stderr: %s", tail);
}

/* Run `slot` of point p (configuration p / sweep_count, sweep value p % sweep_count). */
static int run_one(tally_runner *r, tally__journal *j, size_t p, size_t slot)
{
    size_t c = p % r->sweep_count;
    r->wl.command = r->commands[p / r->sweep_count];
    const tally__wl *wl = &r->wl;
    char **argv = NULL;
    int rc;
    if (wl->w->body == NULL) {
        rc = wl->w->command(&argv, wl, r->sweep[c]);
        if (rc != TALLY_OK)
            return rc;
    }
    tally__run_output o;
    double t0 = r->run_start = tally__now();
    rc = tally__run_child(&o, wl, r->sweep[c], argv, r->timeout, poll_progress, r);
    tally__free_argv(argv);
    if (rc != TALLY_OK)
        return rc;
    r->busy += tally__now() - t0;
    r->timed_runs++;

    double *values = tally__calloc(wl->metric_count ? wl->metric_count : 1, sizeof(double));
    if (values == NULL) {
        tally__run_output_free(&o);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    int ok = !o.timed_out && WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0;
    const char *parse_error = NULL;
    if (ok) {
        int prc = wl->w->parse ? wl->w->parse(values, wl, &o)
                               : tally__parse_values(values, wl->metric_count, o.out);
        if (prc != TALLY_OK) {
            ok = 0;
            parse_error = tally_error_last()->message;
        }
    }
    tally__buf why = TALLY__BUF_INIT;
    if (!ok)
        describe_failure(&why, r, &o, parse_error);
    tally__journal_run run = { p, slot, ok, values, why.data };
    if (!ok && why.failed)
        run.failure = "failed";
    rc = tally__journal_append(j, &run);
    tally__buf_dispose(&why);
    tally__free_mem(values);
    tally__run_output_free(&o);
    r->p.failed = !ok;
    return rc;
}

/* ---- the sweep ---- */

static int sweep(tally_runner *r, tally__journal *j)
{
    const tally__journal_data *d = &j->d;
    size_t slots = d->slots, points = d->points, total = slots * points;
    r->p.total = total;
    r->p.runs = slots;
    r->p.done = d->count;
    r->p.runs_total = points * r->runs;
    r->p.warmups_total = points * r->warmup;
    for (size_t i = 0; i < d->count; i++) {
        if (d->runs_done[i].slot < r->warmup)
            r->p.warmups_done++;
        else
            r->p.runs_done++;
    }
    int rc = TALLY_OK;
    tally__buf label = TALLY__BUF_INIT;
    for (size_t k = 0; rc == TALLY_OK && k < total; k++) {
        /* Interleaved: slot-major (run 1 of every case of every configuration, then run 2,
         * ...); else point-major. */
        size_t p = r->interleave ? k % points : k / slots;
        size_t s = r->interleave ? k / points : k % slots;
        if (d->seen[p * slots + s])
            continue;
        label.len = 0;
        if (r->config_count > 1)
            tally__buf_printf(&label, "%s: ", r->labels[p / r->sweep_count]);
        sweep_label(&label, r, p % r->sweep_count);
        if (label.failed) {
            rc = tally__error(TALLY_ENOMEM, "out of memory");
            break;
        }
        r->p.case_name = label.data;
        r->p.run = s + 1;
        r->p.warmup = s < r->warmup;
        r->p.failed = 0;
        if (report(r, TALLY_RUN_STARTING) != 0) {
            rc = tally__error(TALLY_EINTERRUPTED, "cancelled");
            break;
        }
        rc = run_one(r, j, p, s);
        if (rc != TALLY_OK)
            break;
        r->p.done++;
        if (r->p.warmup)
            r->p.warmups_done++;
        else
            r->p.runs_done++;
        if (report(r, TALLY_RUN_FINISHED) != 0 && r->p.done < total)
            rc = tally__error(TALLY_EINTERRUPTED, "cancelled");
    }
    tally__buf_dispose(&label);
    return rc;
}

/* The result sets from the journal (the same code that reads a journal given as an input),
 * then, with append, the earlier result set's runs first. */
static int build_results(tally_runner *r, const tally__journal *j)
{
    int rc = tally_results_new(&r->results);
    if (rc == TALLY_OK)
        rc = tally__journal_build(r->results, &j->d, NULL);
    if (rc == TALLY_OK && r->config_count == 1)
        rc = tally_resultset_set_label(tally_results_at(r->results, 0), r->labels[0]);
    r->failed_runs = tally__journal_failed(&j->d);
    if (rc == TALLY_OK && r->previous != NULL)
        rc = append_to_previous(r);
    return rc;
}

int tally_runner_run(tally_runner *r)
{
    if (r == NULL)
        return tally__error(TALLY_EINVAL, "runner must not be NULL");
    if (r->ran)
        return tally__error(TALLY_EINVAL, "a runner runs its sweep once");
    r->ran = 1;
    r->start = tally__now();
    char *header = NULL;
    int rc = journal_header(&header, r);
    if (rc != TALLY_OK)
        return rc;
    tally__journal j;
    tally__journal_memory(&j);
    tally__buf jpath = TALLY__BUF_INIT;
    if (r->output != NULL) {
        tally__buf_printf(&jpath, "%s.journal", r->output);
        if (jpath.failed)
            rc = tally__error(TALLY_ENOMEM, "out of memory");
        else if (r->resume)
            rc = tally__journal_resume(&j, jpath.data, header, r->force);
        else if (r->previous != NULL && (rc = archive_journal(jpath.data)) != TALLY_OK)
            ;
        else
            rc = tally__journal_create(&j, jpath.data, header, r->force);
    } else {
        rc = tally__journal_open_memory(&j, header);
    }
    tally__free_mem(header);
    tally__buf_dispose(&jpath);
    if (rc == TALLY_OK && r->wl.w->start != NULL)
        rc = r->wl.w->start(&r->wl);
    if (rc == TALLY_OK) {
        rc = sweep(r, &j);
        if (r->wl.w->stop != NULL)
            r->wl.w->stop(&r->wl);
    }
    if (rc == TALLY_OK)
        rc = build_results(r, &j);
    if (rc == TALLY_OK && r->output != NULL)
        rc = tally_results_save(r->results, r->output);
    if (rc != TALLY_OK) {
        tally_results_free(r->results);
        r->results = NULL;
    }
    tally__journal_close(&j);
    return rc;
}
