/* Runner options: checked, split (parameters, sweep, configurations) and copied. */
#include <string.h>
#include <sys/stat.h>

#include "run/runner_impl.h"

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

int tally__runner_init(tally_runner *r, const tally_runner_options *o)
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
