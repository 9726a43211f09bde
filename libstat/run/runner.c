/* The runner's lifetime and accessors; the run itself is in sweep.c (see runner_impl.h). */
#include "run/runner_impl.h"
#include "util/options.h"

TALLY__OPTIONS_FUNCTIONS(tally_runner_options, TALLY_RUNNER_OPTIONS, sizeof(tally_runner_options))

int tally_runner_new(tally_runner **out, const tally_runner_options *opts)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "out must not be NULL");
    *out = NULL;
    if (opts == NULL)
        return tally__error(TALLY_EINVAL, "tally_runner_new: NULL options (the workload)");
    tally_runner_options options;
    int rc = tally__options_read(&options, opts, &tally_runner_options_kind);
    if (rc != TALLY_OK)
        return rc;
    tally_runner *r = tally__calloc(1, sizeof(*r));
    if (r == NULL)
        return tally__oom();
    tally__server_init(&r->wl.server);
    rc = tally__runner_init(r, &options);
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
    tally_results_free(r->previous);
    tally_results_free(r->baseline);
    tally__free_mem(r->against);
    tally__free_mem(r->base_cells);
    tally__free_mem(r->stopped);
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
