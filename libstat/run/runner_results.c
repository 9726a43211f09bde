/* The result sets built from the journal: cases, samples, failed runs, metadata. */
#include <stdio.h>
#include <stdlib.h>

#include "run/runner_impl.h"

/* The name of sweep value c: "4-groups", as the importers name the cases of the same tools'
 * outputs; exec uses the bare value, a workload without a sweep its own name. */
int tally__runner_sweep_label(tally__buf *b, const tally_runner *r, size_t c)
{
    const tally__workload *w = r->wl.w;
    if (w->kind == TALLY_WORKLOAD_EXEC)
        tally__buf_puts(b, r->sweep[c]);
    else if (w->sweep_name == NULL)
        tally__buf_puts(b, w->name);
    else
        tally__buf_printf(b, "%s-%s", r->sweep[c], w->sweep_name);
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
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
    tally__buf name = TALLY__BUF_INIT;
    rc = m->case_name != NULL ? tally__buf_puts(&name, m->case_name)
                              : tally__runner_sweep_label(&name, r, c);
    if (rc != TALLY_OK || name.failed) {
        tally__buf_dispose(&name);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    *out = tally_benchmark_case_find(b, name.data);
    if (*out == NULL) {
        rc = tally_benchmark_case_add(out, b, name.data);
        if (rc == TALLY_OK && r->wl.w->sweep_name != NULL && m->case_name == NULL)
            rc = tally_case_meta_set(*out, r->wl.w->sweep_name, r->sweep[c]);
    }
    tally__buf_dispose(&name);
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
    /* Keys carry the case's name, of any length. */
    tally__buf count_key = TALLY__BUF_INIT, key = TALLY__BUF_INIT, text = TALLY__BUF_INIT;
    char value[32];
    if (t->c)
        tally__buf_puts(&count_key, "failed_runs");
    else
        tally__buf_printf(&count_key, "failed_runs.%s", t->name);
    int rc = count_key.failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
    unsigned long count = 1;
    if (rc == TALLY_OK) {
        const char *count_text = target_get(t, count_key.data);
        count = count_text ? strtoul(count_text, NULL, 10) + 1 : 1;
        snprintf(value, sizeof(value), "%lu", count);
        rc = target_set(t, count_key.data, value);
    }
    if (t->c)
        tally__buf_printf(&key, "failed_run.%lu", count);
    else
        tally__buf_printf(&key, "failed_run.%s.%lu", t->name, count);
    if (run->slot < warmup)
        tally__buf_printf(&text, "warm-up run %zu: %s", run->slot + 1, run->failure);
    else
        tally__buf_printf(&text, "run %zu: %s", run->slot - warmup + 1, run->failure);
    if (rc == TALLY_OK)
        rc = key.failed || text.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                                       : target_set(t, key.data, text.data);
    tally__buf_dispose(&count_key);
    tally__buf_dispose(&key);
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

int tally__runner_build_results(tally_runner *r, const tally__journal *j)
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
            tally__buf name = TALLY__BUF_INIT;
            rc = tally__runner_sweep_label(&name, r, c);
            failure_target t = { NULL, rs, name.data };
            if (rc == TALLY_OK)
                rc = record_failure(&t, run, r->warmup);
            tally__buf_dispose(&name);
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
