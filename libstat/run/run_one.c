/* One run: the child, its values or the reason it failed, and the journal line. */
#include <sys/wait.h>

#include "run/runner_impl.h"

#define FAILURE_TAIL 400

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
int tally__runner_run_one(tally_runner *r, tally__journal *j, size_t p, size_t slot)
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
    rc = tally__run_child(&o, wl, r->sweep[c], argv, r->timeout, tally__runner_poll, r);
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
