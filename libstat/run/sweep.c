/* The run schedule (point-major or interleaved, journalled runs skipped) and tally_runner_run(). */
#include <stdio.h>
#include <string.h>

#include "run/runner_impl.h"

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
        tally__runner_sweep_label(&label, r, p % r->sweep_count);
        if (label.failed) {
            rc = tally__error(TALLY_ENOMEM, "out of memory");
            break;
        }
        r->p.case_name = label.data;
        r->p.run = s + 1;
        r->p.warmup = s < r->warmup;
        r->p.failed = 0;
        if (tally__runner_progress(r, TALLY_RUN_STARTING) != 0) {
            rc = tally__error(TALLY_EINTERRUPTED, "cancelled");
            break;
        }
        rc = tally__runner_run_one(r, j, p, s);
        if (rc != TALLY_OK)
            break;
        r->p.done++;
        if (r->p.warmup)
            r->p.warmups_done++;
        else
            r->p.runs_done++;
        if (tally__runner_progress(r, TALLY_RUN_FINISHED) != 0 && r->p.done < total)
            rc = tally__error(TALLY_EINTERRUPTED, "cancelled");
    }
    tally__buf_dispose(&label);
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
    int rc = tally__runner_journal_header(&header, r);
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
        else if (r->previous != NULL && (rc = tally__runner_archive_journal(jpath.data)) != TALLY_OK)
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
    if (rc == TALLY_OK && r->wl.server.warning != NULL)
        rc = tally__runner_warn(r, r->wl.server.warning);
    if (rc == TALLY_OK) {
        rc = sweep(r, &j);
        if (r->wl.w->stop != NULL)
            r->wl.w->stop(&r->wl);
    }
    if (rc == TALLY_OK)
        rc = tally__runner_build_results(r, &j);
    if (rc == TALLY_OK && r->output != NULL)
        rc = tally_results_save(r->results, r->output);
    if (rc != TALLY_OK) {
        tally_results_free(r->results);
        r->results = NULL;
    }
    tally__journal_close(&j);
    return rc;
}
