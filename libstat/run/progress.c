/* Progress: the callback, with the elapsed time and an estimate of the time left. */
#include "run/runner_impl.h"

int tally__runner_progress(tally_runner *r, tally_run_phase phase)
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

int tally__runner_warn(tally_runner *r, const char *message)
{
    char **grown = tally__reallocarray(r->warnings, r->warning_count + 1, sizeof(char *));
    if (grown == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    r->warnings = grown;
    if ((r->warnings[r->warning_count] = tally__strdup(message)) == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    r->warning_count++;
    r->p.message = message;
    int cancel = tally__runner_progress(r, TALLY_RUN_WARNING);
    r->p.message = NULL;
    return cancel ? tally__error(TALLY_EINTERRUPTED, "cancelled") : TALLY_OK;
}

int tally__runner_poll(void *user)
{
    return tally__runner_progress(user, TALLY_RUN_RUNNING);
}
