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

int tally__runner_poll(void *user)
{
    return tally__runner_progress(user, TALLY_RUN_RUNNING);
}
