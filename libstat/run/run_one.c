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
    if (o->out_total > TALLY__CAPTURE_MAX)
        tally__buf_printf(b, " (stdout was %.1f MiB, truncated: the first and last %zu MiB kept)",
                          (double)o->out_total / 1048576.0, TALLY__CAPTURE_MAX >> 21);
    const char *tail = tally__tail(o->err, o->err_len, FAILURE_TAIL);
    if (tail[0] != '\0')
        tally__buf_printf(b, "; stderr: %s", tail);
}

/* At most this many warnings about single runs per sweep; the last says more were dropped. */
#define RUN_WARNINGS_MAX 20

/* What the caller should know about a run that is not a failure: output cut, processes left
 * behind. */
static int warn_about_run(tally_runner *r, size_t p, size_t slot, const tally__run_output *o)
{
    static const char *const names[] = { "stdout", "stderr" };
    const size_t totals[] = { o->out_total, o->err_total };
    for (int i = 0; i < 3; i++) {
        int cut = i < 2 && totals[i] > TALLY__CAPTURE_MAX;
        if (!cut && !(i == 2 && o->escaped > 0))
            continue;
        if (r->run_warnings++ >= RUN_WARNINGS_MAX) {
            if (r->run_warnings == RUN_WARNINGS_MAX + 2)
                return tally__runner_warn(r, "further runs with truncated output or processes "
                                             "left behind are not listed");
            continue;
        }
        tally__buf w = TALLY__BUF_INIT;
        if (r->config_count > 1)
            tally__buf_printf(&w, "%s: ", r->labels[p / r->sweep_count]);
        tally__runner_sweep_label(&w, r, p % r->sweep_count);
        if (slot < r->warmup)
            tally__buf_printf(&w, " warm-up run %zu: ", slot + 1);
        else
            tally__buf_printf(&w, " run %zu: ", slot - r->warmup + 1);
        if (cut)
            tally__buf_printf(&w, "%s: output truncated at %zu MiB (%.1f MiB written; the first "
                              "and the last %zu MiB were kept, so a metric printed last is still "
                              "found); to keep all of it, have the command write it to a file",
                              names[i], TALLY__CAPTURE_MAX >> 20, (double)totals[i] / 1048576.0,
                              TALLY__CAPTURE_MAX >> 21);
        else
            tally__buf_printf(&w, "%u process%s had left the run's process group and %s still "
                              "running after it, and %s killed: %s; a command that starts a "
                              "daemon should stop it before it exits",
                              o->escaped, o->escaped == 1 ? "" : "es",
                              o->escaped == 1 ? "was" : "were", o->escaped == 1 ? "was" : "were",
                              o->escaped_names);
        int rc = w.failed ? tally__error(TALLY_ENOMEM, "out of memory")
                          : tally__runner_warn(r, w.data);
        tally__buf_dispose(&w);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
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
    tally__journal_hist *hists = NULL;
    if (tally__journal_has_histograms(&j->d) &&
        (hists = tally__calloc(wl->metric_count, sizeof(*hists))) == NULL) {
        tally__free_mem(values);
        tally__run_output_free(&o);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    const char *parse_error = NULL;
    if (ok) {
        int prc = wl->w->parse ? wl->w->parse(values, wl, &o)
                               : tally__body_output_parse(values, hists, wl, o.out);
        if (prc != TALLY_OK) {
            ok = 0;
            parse_error = tally_error_last()->message;
        }
    }
    tally__buf why = TALLY__BUF_INIT;
    if (!ok)
        describe_failure(&why, r, &o, parse_error);
    tally__journal_run run = { p, slot, ok, values, why.data, hists };
    if (!ok && why.failed)
        run.failure = "failed";
    rc = tally__journal_append(j, &run);
    tally__buf_dispose(&why);
    tally__free_mem(values);
    tally__journal_hists_free(hists, wl->metric_count);
    if (rc == TALLY_OK) /* after the journal line: a cancel from the callback loses nothing */
        rc = warn_about_run(r, p, slot, &o);
    tally__run_output_free(&o);
    r->p.failed = !ok;
    return rc;
}
