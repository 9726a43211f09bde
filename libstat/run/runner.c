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
    int interleave, resume, ran;
    double timeout;
    tally_run_progress_fn progress;
    void *progress_user;
    tally_results *results;
    size_t failed_runs;
    char **warnings; /* this invocation's, recorded as warning.N */
    size_t warning_count;
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

static int check_output(const char *path)
{
    size_t len = strlen(path);
    if (len == 0 || path[len - 1] == '/')
        return tally__error(TALLY_EINVAL, "output '%s': expected a file name", path);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return tally__error(TALLY_EINVAL, "output '%s': exists and is not a regular file", path);
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
    if (o->output != NULL && check_output(o->output) != TALLY_OK)
        return TALLY_EINVAL;
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
    int rc = split_params(&r->params, o->params, o->param_count, w->keys);
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
    return w->configure(&r->wl, &r->params);
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
    tally__server_init(&r->wl.server);
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
    tally__server_free(&r->wl.server);
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
    for (size_t i = 0; i < r->warning_count; i++)
        tally__free_mem(r->warnings[i]);
    tally__free_mem(r->warnings);
    tally_results_free(r->results);
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

/* ---- the journal header: everything that must match for a resume ---- */

static int journal_header(char **out, const tally_runner *r)
{
    *out = NULL;
    cJSON *h = cJSON_CreateObject();
    cJSON *sweep = cJSON_CreateArray();
    cJSON *params = cJSON_CreateArray();
    cJSON *command = cJSON_CreateArray();
    int ok = h && sweep && params && command;
    if (ok) {
        cJSON_AddItemToObject(h, "tally_journal", cJSON_CreateNumber(1));
        cJSON_AddItemToObject(h, "workload", cJSON_CreateString(r->wl.w->name));
        cJSON_AddItemToObject(h, "sweep", sweep);
        cJSON_AddItemToObject(h, "runs", cJSON_CreateNumber(r->runs));
        cJSON_AddItemToObject(h, "warmup", cJSON_CreateNumber(r->warmup));
        cJSON_AddItemToObject(h, "interleave", cJSON_CreateBool(r->interleave));
        cJSON_AddItemToObject(h, "params", params);
        cJSON_AddItemToObject(h, "command", command);
        sweep = params = command = NULL;
        cJSON *metrics = cJSON_AddArrayToObject(h, "metrics");
        ok = metrics != NULL;
        for (size_t i = 0; ok && i < r->wl.metric_count; i++)
            ok = cJSON_AddItemToArray(metrics, cJSON_CreateString(r->wl.metrics[i].benchmark));
        cJSON *sw = cJSON_GetObjectItemCaseSensitive(h, "sweep");
        for (size_t i = 0; ok && i < r->sweep_count; i++)
            ok = cJSON_AddItemToArray(sw, cJSON_CreateString(r->sweep[i]));
        cJSON *pa = cJSON_GetObjectItemCaseSensitive(h, "params");
        for (size_t i = 0; ok && i < r->params.count; i++) {
            cJSON *kv = cJSON_CreateArray();
            ok = kv && cJSON_AddItemToArray(pa, kv) &&
                 cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.keys[i])) &&
                 cJSON_AddItemToArray(kv, cJSON_CreateString(r->params.values[i]));
        }
        /* One argv per configuration; the labels too when there are several (they name the
         * result sets), while a single configuration may be relabelled on resume. */
        cJSON *cm = cJSON_GetObjectItemCaseSensitive(h, "command");
        for (size_t k = 0; ok && r->commands[0] && k < r->config_count; k++) {
            cJSON *argv = cJSON_CreateArray();
            ok = argv && cJSON_AddItemToArray(cm, argv);
            for (size_t i = 0; ok && r->commands[k][i]; i++)
                ok = cJSON_AddItemToArray(argv, cJSON_CreateString(r->commands[k][i]));
        }
        if (ok && r->config_count > 1) {
            cJSON *labels = cJSON_AddArrayToObject(h, "labels");
            ok = labels != NULL;
            for (size_t k = 0; ok && k < r->config_count; k++)
                ok = cJSON_AddItemToArray(labels, cJSON_CreateString(r->labels[k]));
        }
    }
    char *text = ok ? cJSON_PrintUnformatted(h) : NULL;
    cJSON_Delete(h);
    cJSON_Delete(sweep);
    cJSON_Delete(params);
    cJSON_Delete(command);
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

/* Tell the caller (a TALLY_RUN_WARNING report) and keep it for the result set's metadata. */
static int warn(tally_runner *r, const char *message)
{
    char **grown = tally__reallocarray(r->warnings, r->warning_count + 1, sizeof(char *));
    if (grown == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    r->warnings = grown;
    if ((r->warnings[r->warning_count] = tally__strdup(message)) == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    r->warning_count++;
    r->p.message = message;
    int cancel = report(r, TALLY_RUN_WARNING);
    r->p.message = NULL;
    return cancel ? tally__error(TALLY_EINTERRUPTED, "cancelled") : TALLY_OK;
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
    if (r->wl.server.pid > 0 && (rc = tally__server_ready(&r->wl.server)) != TALLY_OK) {
        tally__free_argv(argv);
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
    rc = tally__journal_append(j, &run, wl->metric_count);
    tally__buf_dispose(&why);
    tally__free_mem(values);
    tally__run_output_free(&o);
    r->p.failed = !ok;
    return rc;
}

/* ---- the result set ---- */

/* The name of sweep value c: "4-groups", as the importers name the cases of the same tools'
 * outputs; exec uses the bare value, a workload without a sweep its own name. */
static void sweep_label(char *out, size_t cap, const tally_runner *r, size_t c)
{
    const tally__workload *w = r->wl.w;
    if (w->kind == TALLY_WORKLOAD_EXEC)
        snprintf(out, cap, "%s", r->sweep[c]);
    else if (w->sweep_name == NULL)
        snprintf(out, cap, "%s", w->name);
    else
        snprintf(out, cap, "%s-%s", r->sweep[c], w->sweep_name);
}

static int find_case(tally_case **out, tally_resultset *rs, const tally_runner *r,
                     const tally__metric *m, size_t c)
{
    tally_benchmark *b = tally_resultset_benchmark_find(rs, m->benchmark);
    int rc;
    if (b == NULL) {
        rc = tally_resultset_benchmark_add(&b, rs, m->benchmark, m->unit, m->direction);
        if (rc == TALLY_OK)
            rc = tally_benchmark_set_statistic(b, m->statistic);
        if (rc != TALLY_OK)
            return rc;
    }
    char name[160];
    if (m->case_name != NULL)
        snprintf(name, sizeof(name), "%s", m->case_name);
    else
        sweep_label(name, sizeof(name), r, c);
    *out = tally_benchmark_case_find(b, name);
    if (*out != NULL)
        return TALLY_OK;
    rc = tally_benchmark_case_add(out, b, name);
    if (rc == TALLY_OK && r->wl.w->sweep_name != NULL && m->case_name == NULL)
        rc = tally_case_meta_set(*out, r->wl.w->sweep_name, r->sweep[c]);
    return rc;
}

/* Where failed runs are recorded: the case itself, or (when no run of a sweep value succeeded,
 * so there is no case to hold them: the native format has no empty cases) the result set, under
 * keys carrying the case's name. */
typedef struct failure_target {
    tally_case *c;
    tally_resultset *rs;
    const char *name;
} failure_target;

static const char *target_get(const failure_target *t, const char *key)
{
    return t->c ? tally_case_meta_get(t->c, key) : tally_resultset_meta_get(t->rs, key);
}

static int target_set(const failure_target *t, const char *key, const char *value)
{
    return t->c ? tally_case_meta_set(t->c, key, value)
                : tally_resultset_meta_set(t->rs, key, value);
}

static int record_failure(const failure_target *t, const tally__journal_run *run,
                          unsigned warmup)
{
    char count_key[200], key[220], value[32];
    if (t->c)
        snprintf(count_key, sizeof(count_key), "failed_runs");
    else
        snprintf(count_key, sizeof(count_key), "failed_runs.%s", t->name);
    const char *count_text = target_get(t, count_key);
    unsigned long count = count_text ? strtoul(count_text, NULL, 10) + 1 : 1;
    snprintf(value, sizeof(value), "%lu", count);
    int rc = target_set(t, count_key, value);
    if (rc != TALLY_OK)
        return rc;
    if (t->c)
        snprintf(key, sizeof(key), "failed_run.%lu", count);
    else
        snprintf(key, sizeof(key), "failed_run.%s.%lu", t->name, count);
    tally__buf text = TALLY__BUF_INIT;
    if (run->slot < warmup)
        tally__buf_printf(&text, "warm-up run %zu: %s", run->slot + 1, run->failure);
    else
        tally__buf_printf(&text, "run %zu: %s", run->slot - warmup + 1, run->failure);
    rc = text.failed ? tally__error(TALLY_ENOMEM, "out of memory") : target_set(t, key, text.data);
    tally__buf_dispose(&text);
    return rc;
}

/* Result-set metadata shared by every configuration. */
static int describe_set(tally_resultset *rs, const tally_runner *r, size_t config)
{
    int rc = tally__sysinfo_record(rs);
    char num[32];
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "workload", r->wl.w->name);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "harness", r->wl.w->tool ? r->wl.w->tool : "tally");
    if (rc == TALLY_OK && r->command_line)
        rc = tally_resultset_meta_set(rs, "command_line", r->command_line);
    if (rc == TALLY_OK && r->config_count > 1) {
        tally__buf cmd = TALLY__BUF_INIT;
        for (size_t i = 0; r->commands[config][i]; i++)
            tally__buf_printf(&cmd, "%s%s", i ? " " : "", r->commands[config][i]);
        rc = cmd.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                        : tally_resultset_meta_set(rs, "command", cmd.data);
        tally__buf_dispose(&cmd);
    }
    snprintf(num, sizeof(num), "%u", r->runs);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "runs", num);
    snprintf(num, sizeof(num), "%u", r->warmup);
    if (rc == TALLY_OK)
        rc = tally_resultset_meta_set(rs, "warmup", num);
    for (size_t i = 0; rc == TALLY_OK && i < r->warning_count; i++) {
        snprintf(num, sizeof(num), "warning.%zu", i + 1);
        rc = tally_resultset_meta_set(rs, num, r->warnings[i]);
    }
    for (size_t i = 0; rc == TALLY_OK && i < r->params.count; i++) {
        tally__buf key = TALLY__BUF_INIT;
        tally__buf_printf(&key, "param.%s", r->params.keys[i]);
        rc = key.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                        : tally_resultset_meta_set(rs, key.data, r->params.values[i]);
        tally__buf_dispose(&key);
    }
    return rc;
}

static int build_results(tally_runner *r, const tally__journal *j)
{
    int rc = tally_results_new(&r->results);
    tally_resultset **sets = tally__calloc(r->config_count, sizeof(*sets));
    size_t points = r->config_count * r->sweep_count;
    /* A point gets cases only when at least one counted run of it succeeded. */
    unsigned char *has = tally__calloc(points, 1);
    if (rc == TALLY_OK && (sets == NULL || has == NULL))
        rc = tally__error(TALLY_ENOMEM, "out of memory");
    for (size_t k = 0; rc == TALLY_OK && k < r->config_count; k++) {
        tally_resultset *rs = NULL;
        rc = tally_resultset_new(&rs, r->labels[k]);
        if (rc == TALLY_OK && (rc = tally_results_add(r->results, rs)) != TALLY_OK)
            tally_resultset_free(rs);
        if (rc == TALLY_OK)
            rc = describe_set(rs, r, k);
        sets[k] = rs;
    }
    for (size_t i = 0; rc == TALLY_OK && i < j->count; i++)
        if (j->runs[i].ok && j->runs[i].slot >= r->warmup)
            has[j->runs[i].case_index] = 1;
    /* Cases in sweep order, each metric's benchmark in metric order. */
    for (size_t p = 0; rc == TALLY_OK && p < points; p++)
        for (size_t m = 0; rc == TALLY_OK && has[p] && m < r->wl.metric_count; m++) {
            tally_case *tc;
            rc = find_case(&tc, sets[p / r->sweep_count], r, &r->wl.metrics[m],
                           p % r->sweep_count);
        }
    for (size_t i = 0; rc == TALLY_OK && i < j->count; i++) {
        const tally__journal_run *run = &j->runs[i];
        tally_resultset *rs = sets[run->case_index / r->sweep_count];
        size_t c = run->case_index % r->sweep_count;
        r->failed_runs += !run->ok;
        if (!has[run->case_index]) {
            char name[160];
            sweep_label(name, sizeof(name), r, c);
            failure_target t = { NULL, rs, name };
            rc = record_failure(&t, run, r->warmup);
            continue;
        }
        for (size_t m = 0; rc == TALLY_OK && m < r->wl.metric_count; m++) {
            tally_case *tc;
            rc = find_case(&tc, rs, r, &r->wl.metrics[m], c);
            if (rc != TALLY_OK)
                break;
            failure_target t = { tc, NULL, NULL };
            if (!run->ok)
                rc = record_failure(&t, run, r->warmup);
            else if (run->slot >= r->warmup)
                rc = tally_case_append(tc, &run->values[m], 1);
        }
    }
    tally__free_mem(has);
    tally__free_mem(sets);
    return rc;
}

/* ---- the sweep ---- */

static int sweep(tally_runner *r, tally__journal *j)
{
    size_t slots = (size_t)r->warmup + r->runs;
    size_t points = r->config_count * r->sweep_count;
    size_t total = slots * points;
    unsigned char *done = tally__calloc(total, 1);
    if (done == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    for (size_t i = 0; i < j->count; i++)
        done[j->runs[i].case_index * slots + j->runs[i].slot] = 1;
    r->p.total = total;
    r->p.runs = slots;
    r->p.done = j->count;
    int rc = TALLY_OK;
    char label[200];
    for (size_t k = 0; rc == TALLY_OK && k < total; k++) {
        /* Interleaved: slot-major (run 1 of every case of every configuration, then run 2,
         * ...); else point-major. */
        size_t p = r->interleave ? k % points : k / slots;
        size_t s = r->interleave ? k / points : k % slots;
        if (done[p * slots + s])
            continue;
        size_t len = 0;
        if (r->config_count > 1)
            len = (size_t)snprintf(label, sizeof(label), "%s: ", r->labels[p / r->sweep_count]);
        if (len >= sizeof(label))
            len = 0;
        sweep_label(label + len, sizeof(label) - len, r, p % r->sweep_count);
        r->p.case_name = label;
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
        if (report(r, TALLY_RUN_FINISHED) != 0 && r->p.done < total)
            rc = tally__error(TALLY_EINTERRUPTED, "cancelled");
    }
    tally__free_mem(done);
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
    memset(&j, 0, sizeof(j));
    j.fd = -1;
    tally__buf jpath = TALLY__BUF_INIT;
    if (r->output != NULL) {
        tally__buf_printf(&jpath, "%s.journal", r->output);
        if (jpath.failed)
            rc = tally__error(TALLY_ENOMEM, "out of memory");
        else if (r->resume)
            rc = tally__journal_resume(&j, jpath.data, header, r->wl.metric_count,
                                       r->config_count * r->sweep_count,
                                       (size_t)r->warmup + r->runs);
        else
            rc = tally__journal_create(&j, jpath.data, header);
    }
    tally__free_mem(header);
    tally__buf_dispose(&jpath);
    if (rc == TALLY_OK && r->wl.w->start != NULL)
        rc = r->wl.w->start(&r->wl);
    if (rc == TALLY_OK && r->wl.server.warning != NULL)
        rc = warn(r, r->wl.server.warning);
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
