/* The run schedule (point-major or interleaved, journalled runs skipped) and tally_runner_run(). */
#include <stdio.h>
#include <string.h>

#include "run/runner_impl.h"

/* Adaptive: the look after `runs` counted runs of point p, if one is due; a stop is appended
 * to the journal and leaves the point's remaining runs out. The decision depends on the
 * journal's runs alone, so a resumed sweep takes the same decisions. */
static int take_look(tally_runner *r, tally__journal *j, size_t p, unsigned int runs)
{
    size_t k = tally__adaptive_look_at(&r->ad, runs);
    if (k == 0 || r->stopped[p])
        return TALLY_OK;
    const tally__journal_data *d = &j->d;
    size_t mc = d->metric_count;
    double *x = tally__calloc((size_t)runs * mc + 1, sizeof(double));
    tally__adaptive_cell *cells = tally__calloc(mc + 1, sizeof(*cells));
    if (x == NULL || cells == NULL) {
        tally__free_mem(x);
        tally__free_mem(cells);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) {
        const tally__journal_run *run = &d->runs_done[i];
        if (run->case_index != p || !run->ok || run->slot < d->warmup || n >= runs)
            continue;
        for (size_t m = 0; m < mc; m++)
            x[m * runs + n] = run->values[m];
        n++;
    }
    for (size_t m = 0; m < mc; m++) {
        const tally_case *b = r->base_cells ? r->base_cells[p * mc + m] : NULL;
        cells[m].x = &x[m * runs];
        cells[m].n = n;
        cells[m].base = b ? tally_case_samples(b) : NULL;
        cells[m].nb = b ? tally_case_sample_count(b) : 0;
        cells[m].statistic = d->metrics[m].statistic;
        cells[m].direction = d->metrics[m].direction;
    }
    tally__stop stop;
    tally__buf detail = TALLY__BUF_INIT;
    int rc = tally__adaptive_decide(&stop, &detail, &r->ad, k, cells, mc);
    if (rc == TALLY_OK && detail.failed)
        rc = tally__error(TALLY_ENOMEM, "out of memory");
    if (rc == TALLY_OK && stop != TALLY__STOP_CONTINUE) {
        tally__journal_stop st = { (char *)tally__stop_name(stop), runs, k, detail.data };
        rc = tally__journal_append_stop(j, p, &st);
        if (rc == TALLY_OK) {
            r->stopped[p] = 1;
            r->p.total -= r->ad.max_runs - runs;
            r->p.runs_total -= r->ad.max_runs - runs;
        }
    }
    tally__buf_dispose(&detail);
    tally__free_mem(x);
    tally__free_mem(cells);
    return rc;
}

static int sweep(tally_runner *r, tally__journal *j)
{
    const tally__journal_data *d = &j->d;
    size_t slots = d->slots, points = d->points, total = slots * points;
    if (r->adaptive) {
        r->stopped = tally__calloc(points, 1);
        if (r->stopped == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        for (size_t p = 0; d->stops && p < points; p++)
            r->stopped[p] = d->stops[p].reason != NULL;
        total = tally__journal_expected(d);
    }
    r->p.total = total;
    r->p.runs = slots;
    r->p.done = d->count;
    r->p.runs_total = total - points * r->warmup;
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
        if (r->adaptive && s > r->warmup &&
            (rc = take_look(r, j, p, (unsigned int)(s - r->warmup))) != TALLY_OK)
            break;
        if (r->adaptive && r->stopped[p])
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
        if (tally__runner_progress(r, TALLY_RUN_FINISHED) != 0 && r->p.done < r->p.total)
            rc = tally__error(TALLY_EINTERRUPTED, "cancelled");
    }
    /* The last look of every point that ran to the most runs. */
    for (size_t p = 0; rc == TALLY_OK && r->adaptive && p < points; p++)
        rc = take_look(r, j, p, r->runs);
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
    int created = rc == TALLY_OK && r->output != NULL && !r->resume;
    if (rc == TALLY_OK && r->wl.w->start != NULL && (rc = r->wl.w->start(&r->wl)) != TALLY_OK &&
        created)
        tally__journal_discard(&j); /* refused before any run: nothing to resume */
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
