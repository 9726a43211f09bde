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

/* The adaptive rule's options (docs/runners.md, "Adaptive runs"). */
static int check_adaptive(tally_runner *r, const tally_runner_options *o)
{
    r->adaptive = o->until_precision != 0 || o->against != NULL;
    if (!r->adaptive) {
        if (o->mde_pct != 0)
            return tally__error(TALLY_EINVAL, "mde_pct is the margin of against: give a "
                                              "baseline too");
        return TALLY_OK;
    }
    for (size_t m = 0; m < r->wl.metric_count; m++)
        if (r->wl.metrics[m].histogram)
            return tally__error(TALLY_EINVAL, "an adaptive rule judges one value per run, and "
                                "'%s' keeps a histogram of each run's requests: leave out "
                                "histogram=1 or the adaptive rule", r->wl.metrics[m].benchmark);
    if (!(o->until_precision >= 0 && o->until_precision < 100))
        return tally__error(TALLY_EINVAL, "until_precision must be a percentage in (0, 100), "
                                          "not %g", o->until_precision);
    if (o->against != NULL && !(o->mde_pct > 0 && o->mde_pct < 100))
        return tally__error(TALLY_EINVAL, "against needs the equivalence margin mde_pct in "
                                          "(0, 100) percent");
    if (o->against == NULL && o->mde_pct != 0)
        return tally__error(TALLY_EINVAL, "mde_pct is the margin of against: give a baseline "
                                          "too");
    if (!(o->alpha > 0 && o->alpha < 0.5))
        return tally__error(TALLY_EINVAL, "alpha must lie in (0, 0.5), not %g", o->alpha);
    if (o->min_runs < 2)
        return tally__error(TALLY_EINVAL, "min_runs must be at least 2 (an interval needs two "
                                          "runs)");
    if (o->min_runs > o->runs)
        return tally__error(TALLY_EINVAL, "min_runs (%u) must not exceed the most runs (%u)",
                            o->min_runs, o->runs);
    if (o->append)
        return tally__error(TALLY_EINVAL, "an adaptive rule decides from this sweep's runs: "
                                          "not with append");
    r->ad.precision = o->until_precision / 100;
    r->ad.margin_pct = o->against ? o->mde_pct : 0;
    r->ad.alpha = o->alpha;
    r->ad.min_runs = o->min_runs;
    r->ad.step = o->look_every ? o->look_every : o->min_runs;
    r->ad.max_runs = o->runs;
    return TALLY_OK;
}

/* Against: the baseline's case of every (point, metric), found by benchmark and case name in
 * its first result set; a missing one, or one in another unit or direction, is refused before
 * anything runs. */
static int load_baseline(tally_runner *r, const char *path)
{
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    int rc = tally_results_new(&r->baseline);
    if (rc == TALLY_OK)
        rc = tally_load_file(r->baseline, path, &lo);
    if (rc != TALLY_OK)
        return rc;
    if (tally_results_count(r->baseline) == 0)
        return tally__error_at(TALLY_ENODATA, path, 0, 0, "the baseline holds no result set");
    const tally_resultset *rs = tally_results_at(r->baseline, 0);
    size_t points = r->config_count * r->sweep_count, mc = r->wl.metric_count;
    r->base_cells = tally__calloc(points * mc + 1, sizeof(*r->base_cells));
    if (r->base_cells == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    tally__buf name = TALLY__BUF_INIT;
    for (size_t p = 0; rc == TALLY_OK && p < points; p++)
        for (size_t m = 0; rc == TALLY_OK && m < mc; m++) {
            const tally__metric *mt = &r->wl.metrics[m];
            name.len = 0;
            if (mt->case_name)
                tally__buf_puts(&name, mt->case_name);
            else
                tally__runner_sweep_label(&name, r, p % r->sweep_count);
            if (name.failed) {
                rc = tally__error(TALLY_ENOMEM, "out of memory");
                break;
            }
            const tally_benchmark *b = tally_resultset_benchmark_find(rs, mt->benchmark);
            const tally_case *c = b ? tally_benchmark_case_find(b, name.data) : NULL;
            if (c == NULL || tally_case_sample_count(c) < 2)
                rc = tally__error_at(TALLY_EMISMATCH, path, 0, 0,
                                     "the baseline has %s benchmark '%s' with case '%s': "
                                     "nothing to compare this sweep's runs with",
                                     c ? "fewer than 2 runs of" : "no", mt->benchmark, name.data);
            else if (strcmp(tally_benchmark_unit(b), mt->unit) != 0 ||
                     tally_benchmark_direction(b) != mt->direction)
                rc = tally__error_at(TALLY_EMISMATCH, path, 0, 0,
                                     "benchmark '%s' there is in '%s', %s is better; this "
                                     "sweep measures '%s', %s is better",
                                     mt->benchmark, tally_benchmark_unit(b),
                                     tally_direction_name(tally_benchmark_direction(b)), mt->unit,
                                     tally_direction_name(mt->direction));
            else if (mt->statistic == TALLY_STAT_MIN || mt->statistic == TALLY_STAT_MAX ||
                     mt->statistic == TALLY_STAT_BAMEAN)
                rc = tally__error(TALLY_EINVAL, "against: the %s of benchmark %s has no test "
                                                "(use AMean, HMean, GMean or Median)",
                                  tally_statistic_name(mt->statistic), mt->benchmark);
            r->base_cells[p * mc + m] = c;
        }
    tally__buf_dispose(&name);
    return rc;
}

int tally__runner_init(tally_runner *r, const tally_runner_options *o)
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
    if (rc == TALLY_OK)
        rc = check_adaptive(r, o);
    if (rc == TALLY_OK && r->adaptive && o->against != NULL) {
        r->against = tally__strdup(o->against);
        rc = r->against ? load_baseline(r, o->against)
                        : tally__error(TALLY_ENOMEM, "out of memory");
    }
    if (rc == TALLY_OK && o->append)
        rc = load_previous(r);
    return rc;
}
