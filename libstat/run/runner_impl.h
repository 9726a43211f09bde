/* The runner's state, shared by the files that make up tally_runner_run():
 *   runner.c          lifetime and accessors
 *   runner_options.c  options checked and copied into the runner
 *   workloads.c       the workload registry
 *   journal_header.c  the journal's first line (what must match for a resume)
 *   progress.c        progress callbacks and the time estimate
 *   run_one.c         one run of one point: child, values, journal line
 *   runner_results.c  the result sets built from the journal
 *   sweep.c           the run schedule and tally_runner_run() */
#ifndef TALLY_RUNNER_IMPL_H
#define TALLY_RUNNER_IMPL_H

#include "run/adaptive.h"
#include "run/runner_internal.h"

struct tally_runner {
    tally__wl wl;
    tally__params params;
    char **sweep;
    size_t sweep_count;
    char **labels;    /* one result-set label per configuration */
    char ***commands; /* exec: one argv per configuration */
    size_t config_count;
    char *output;
    char *command_line;
    unsigned int runs, warmup;
    int interleave, resume, force, ran;
    tally_results *previous; /* append: the result set already in `output` */
    int adaptive;             /* an adaptive rule is on (ad) */
    tally__adaptive ad;
    tally_results *baseline;  /* against: the baseline */
    char *against;            /* its path */
    const tally_case **base_cells; /* against: points x metrics, the baseline's cases */
    unsigned char *stopped;   /* adaptive: points that stopped (journal "stop" lines) */
    double timeout;
    tally_run_progress_fn progress;
    void *progress_user;
    tally_results *results;
    size_t failed_runs;
    char **warnings; /* this invocation's, recorded as warning.N */
    size_t warning_count;
    size_t run_warnings; /* warnings about single runs so far */
    /* progress state */
    tally_run_progress p;
    double start, run_start, busy;
    size_t timed_runs;
};

/* Check and copy the options into a zeroed runner (runner_options.c). */
int tally__runner_init(tally_runner *r, const tally_runner_options *o);
/* The journal header line, a NUL-terminated string owned by the caller (journal_header.c). */
int tally__runner_journal_header(char **out, const tally_runner *r);
/* Call the progress callback with `phase`; its non-zero return cancels (progress.c). */
int tally__runner_progress(tally_runner *r, tally_run_phase phase);
/* Report a TALLY_RUN_WARNING and keep the message for the result set's metadata
 * (progress.c). */
int tally__runner_warn(tally_runner *r, const char *message);
/* tally__poll_fn of a running child: progress with TALLY_RUN_RUNNING (progress.c). */
int tally__runner_poll(void *user);
/* Run `slot` of point p and append it to the journal (run_one.c). */
int tally__runner_run_one(tally_runner *r, tally__journal *j, size_t p, size_t slot);
/* Append the case name of sweep value c (runner_results.c). */
void tally__runner_sweep_label(tally__buf *out, const tally_runner *r, size_t c);
/* r->results from the journal's runs, after the earlier runs with append (runner_results.c). */
int tally__runner_build_results(tally_runner *r, const tally__journal *j);
/* Append: keep the finished journal of the earlier sweep as PATH.N (runner_results.c). */
int tally__runner_archive_journal(const char *path);

#endif /* TALLY_RUNNER_IMPL_H */
