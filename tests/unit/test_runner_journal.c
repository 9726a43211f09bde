/* The journal, resume, timeout and cancel paths of the runner: a sweep killed midway keeps
 * exactly its completed runs and finishes on resume; a hung command is killed with its whole
 * process group and recorded as a failed run; the progress callback can cancel. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "tally.h"

#define OUT TALLY_TEST_TMP "/runner_resume.json"
#define JOURNAL OUT ".journal"

#define HOLD TALLY_TEST_TMP "/runner_resume.hold"

/* Each run prints its shell's PID: distinct values, so kept runs can be recognised. The sweep
 * value goes to $0 of the script. While the file HOLD exists, a run that starts after the
 * journal has its header and 4 runs waits (up to a minute) instead of finishing: the sweep that
 * test_kill_and_resume kills is then certainly unfinished, however late the test, on a loaded
 * machine, gets to kill it (the runner's keeper kills the waiting run when the runner dies). */
static const char *const pid_cmd[] = {
    "sh", "-c",
    "if [ -e " HOLD " ] && [ \"$(wc -l < " JOURNAL ")\" -ge 5 ]; then sleep 60; fi; "
    "sleep 0.05; echo v: $$",
    "{}", NULL
};
static const char *const pid_params[] = { "metric=v: ([0-9]+)" };

static void options(tally_runner_options *o, int resume)
{
    tally_runner_options d = TALLY_RUNNER_OPTIONS_INIT;
    *o = d;
    o->workload = TALLY_WORKLOAD_EXEC;
    o->command = pid_cmd;
    o->params = pid_params;
    o->param_count = 1;
    o->sweep = "1,2";
    o->runs = 4;
    o->warmup = 1;
    o->output = OUT;
    o->resume = resume;
    o->timeout = 30;
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    int n = 0, ch, last = '\n';
    while ((ch = fgetc(f)) != EOF) {
        n += ch == '\n';
        last = ch;
    }
    (void)last;
    fclose(f);
    return n;
}

/* The values of the counted (non-warm-up) ok runs of case `ci` in journal order. */
static size_t journal_values(double *out, size_t max, const char *path, int ci, int warmup)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    char line[4096];
    while (f && fgets(line, sizeof(line), f)) {
        int c, s;
        double v;
        if (sscanf(line, "{\"case_index\":%d,\"slot\":%d,\"ok\":true,\"values\":[%lf]}", &c, &s,
                   &v) == 3 &&
            c == ci && s >= warmup && n < max)
            out[n++] = v;
    }
    if (f)
        fclose(f);
    return n;
}

static int progress_calls, finished_calls;
static size_t last_total;

static int count_progress(void *user, const tally_run_progress *p)
{
    (void)user;
    progress_calls++;
    finished_calls += p->phase == TALLY_RUN_FINISHED;
    last_total = p->total;
    return 0;
}

static void test_kill_and_resume(void)
{
    unlink(OUT);
    unlink(JOURNAL);
    FILE *hold = fopen(HOLD, "w");
    CHECK(hold != NULL);
    if (hold)
        fclose(hold);
    pid_t child = fork();
    if (child == 0) {
        tally_runner_options o;
        options(&o, 0);
        tally_runner *r;
        int rc = tally_runner_new(&r, &o);
        if (rc == TALLY_OK)
            rc = tally_runner_run(r);
        _exit(rc == TALLY_OK ? 0 : 1);
    }
    CHECK(child > 0);
    /* Wait for the header and 4 runs (the fifth then holds), then kill the sweep without
     * warning. Up to a minute: the time only bounds a broken runner. */
    for (int i = 0; i < 12000 && count_lines(JOURNAL) < 5; i++) {
        struct timespec ts = { 0, 5 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    kill(child, SIGKILL);
    int status;
    waitpid(child, &status, 0);
    unlink(HOLD);
    CHECK(WIFSIGNALED(status)); /* it did not finish on its own */
    int kept = count_lines(JOURNAL) - 1;
    CHECK(kept >= 4 && kept < 10);
    struct stat st;
    CHECK(stat(OUT, &st) != 0); /* no result set from an unfinished sweep */
    double before0[8], before1[8];
    size_t n0 = journal_values(before0, 8, JOURNAL, 0, 1);
    size_t n1 = journal_values(before1, 8, JOURNAL, 1, 1);

    tally_runner_options o;
    options(&o, 1);
    o.progress = count_progress;
    tally_runner *r = NULL;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    int rc = tally_runner_run(r);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  %s\n", tally_error_last()->message);
    /* 2 cases x (1 warm-up + 4 runs) = 10 runs in all, none twice. */
    CHECK_INT(count_lines(JOURNAL), 11);
    CHECK_INT(finished_calls, 10 - kept);
    CHECK_INT(last_total, 10);
    CHECK(stat(OUT, &st) == 0);
    const tally_resultset *rs = tally_runner_resultset(r);
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, "sh") : NULL;
    const tally_case *c0 = b ? tally_benchmark_case_find(b, "1") : NULL;
    const tally_case *c1 = b ? tally_benchmark_case_find(b, "2") : NULL;
    CHECK_INT(c0 ? tally_case_sample_count(c0) : 0, 4);
    CHECK_INT(c1 ? tally_case_sample_count(c1) : 0, 4);
    /* The runs completed before the kill come first, unchanged. */
    /* (Bounded by the counts too, so that a failure above is reported, not a crash.) */
    for (size_t i = 0; c0 && i < n0 && i < tally_case_sample_count(c0); i++)
        CHECK_ABS(tally_case_samples(c0)[i], before0[i], 0);
    for (size_t i = 0; c1 && i < n1 && i < tally_case_sample_count(c1); i++)
        CHECK_ABS(tally_case_samples(c1)[i], before1[i], 0);
    /* The file written holds the same samples and metadata as the result set in memory. */
    tally_results *loaded = NULL;
    CHECK_INT(tally_results_new(&loaded), TALLY_OK);
    CHECK_INT(tally_load_file(loaded, OUT, NULL), TALLY_OK);
    const tally_resultset *lrs = tally_results_find(loaded, "run");
    const tally_benchmark *lb = lrs ? tally_resultset_benchmark_find(lrs, "sh") : NULL;
    const tally_case *l1 = lb ? tally_benchmark_case_find(lb, "2") : NULL;
    CHECK_INT(l1 ? tally_case_sample_count(l1) : 0, 4);
    for (size_t i = 0; c1 && l1 && i < 4 && i < tally_case_sample_count(c1) &&
                       i < tally_case_sample_count(l1);
         i++)
        CHECK_ABS(tally_case_samples(l1)[i], tally_case_samples(c1)[i], 0);
    CHECK_STR(lrs ? tally_resultset_meta_get(lrs, "kernel") : NULL,
              rs ? tally_resultset_meta_get(rs, "kernel") : NULL);
    CHECK_STR(l1 ? tally_case_meta_get(l1, "value") : NULL, "2");
    tally_results_free(loaded);
    tally_runner_free(r);

    /* A run cut off mid-write (no newline) is dropped on resume; a different sweep is refused. */
    FILE *f = fopen(JOURNAL, "a");
    CHECK(f != NULL);
    if (f) {
        fputs("{\"case_index\":0,\"sl", f);
        fclose(f);
    }
    options(&o, 1);
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    CHECK_INT(tally_runner_run(r), TALLY_OK);
    CHECK_INT(count_lines(JOURNAL), 11);
    tally_runner_free(r);
    options(&o, 1);
    o.runs = 5;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    CHECK_INT(tally_runner_run(r), TALLY_EMISMATCH);
    tally_runner_free(r);
    unlink(OUT);
    unlink(JOURNAL);
}

/* Is the process gone (or only a zombie waiting for its reaper)? */
static int process_state_gone(pid_t pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 1;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')');
    return paren != NULL && (paren[2] == 'Z' || paren[2] == 'X');
}

/* SIGKILL is delivered asynchronously: on a loaded machine the killed process may still be
 * listed as running for a moment, so wait up to 5 s for it to die. */
static int process_gone(pid_t pid)
{
    for (int i = 0; i < 500; i++) {
        if (process_state_gone(pid))
            return 1;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return 0;
}

static void test_timeout(void)
{
    const char *pidfile = TALLY_TEST_TMP "/runner_timeout.pid";
    unlink(pidfile);
    char script[512];
    snprintf(script, sizeof(script), "sleep 30 & echo $! > %s; echo waiting >&2; wait", pidfile);
    const char *cmd[] = { "sh", "-c", script, NULL };
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = TALLY_WORKLOAD_EXEC;
    o.command = cmd;
    o.runs = 1;
    o.warmup = 0;
    o.timeout = 1.5; /* room for a loaded machine to start sh and write the pid */
    tally_runner *r = NULL;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    CHECK_INT(tally_runner_run(r), TALLY_OK);
    const tally_resultset *rs = tally_runner_resultset(r);
    CHECK(rs != NULL && tally_resultset_benchmark_count(rs) == 0);
    CHECK_STR(rs ? tally_resultset_meta_get(rs, "failed_runs.command") : NULL, "1");
    CHECK_STR(rs ? tally_resultset_meta_get(rs, "failed_run.command.1") : NULL,
              "run 1: timeout after 1.5 s (process group killed); stderr: waiting\n");
    tally_runner_free(r);
    /* The background sleep was in the killed process group too. */
    FILE *f = fopen(pidfile, "r");
    int pid = 0;
    CHECK(f != NULL && fscanf(f, "%d", &pid) == 1);
    if (f)
        fclose(f);
    CHECK(pid > 0 && process_gone(pid));
    unlink(pidfile);
}

/* Two commands compared with interleaving: their runs alternate in the journal and each gets
 * its own result set. */
static void test_configurations(void)
{
    const char *out = TALLY_TEST_TMP "/runner_configs.json";
    char journal[512];
    snprintf(journal, sizeof(journal), "%s.journal", out);
    const char *a_cmd[] = { "sh", "-c", "echo v: 1", NULL };
    const char *b_cmd[] = { "sh", "-c", "echo v: 2", NULL };
    tally_runner_config configs[] = { { "base", a_cmd }, { "new", b_cmd } };
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = TALLY_WORKLOAD_EXEC;
    o.configs = configs;
    o.config_count = 2;
    o.params = pid_params;
    o.param_count = 1;
    o.runs = 3;
    o.warmup = 1;
    o.interleave = 1;
    o.output = out;
    tally_runner *r = NULL;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    CHECK_INT(tally_runner_run(r), TALLY_OK);
    tally_results *all = NULL;
    CHECK_INT(tally_runner_take_results(&all, r), TALLY_OK);
    CHECK_INT(all ? tally_results_count(all) : 0, 2);
    for (int k = 0; all && k < 2; k++) {
        const tally_resultset *rs = tally_results_find(all, k ? "new" : "base");
        const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, "exec") : NULL;
        const tally_case *c = b ? tally_benchmark_case_find(b, "command") : NULL;
        CHECK_INT(c ? tally_case_sample_count(c) : 0, 3);
        for (size_t i = 0; c && i < tally_case_sample_count(c); i++)
            CHECK_ABS(tally_case_samples(c)[i], k + 1, 0); /* "v: 1" and "v: 2" */
        CHECK_STR(rs ? tally_resultset_meta_get(rs, "command") : NULL,
                  k ? "sh -c echo v: 2" : "sh -c echo v: 1");
    }
    tally_results_free(all);
    tally_runner_free(r);
    /* Journal order: point 0 and point 1 alternate, slot by slot. */
    FILE *f = fopen(journal, "r");
    char line[512];
    int order[8], n = 0;
    while (f && fgets(line, sizeof(line), f))
        if (n < 8 && sscanf(line, "{\"case_index\":%d,", &order[n]) == 1)
            n++;
    if (f)
        fclose(f);
    CHECK_INT(n, 8);
    for (int i = 0; i < n; i++)
        CHECK_INT(order[i], i % 2);
    /* Labels must differ; configurations are for exec only. */
    configs[1].label = "base";
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EEXISTS);
    configs[1].label = "new";
    o.workload = TALLY_WORKLOAD_HACKBENCH;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    unlink(out);
    unlink(journal);
}

static int cancel_while_running(void *user, const tally_run_progress *p)
{
    (void)user;
    return p->phase == TALLY_RUN_RUNNING;
}

static void test_cancel_and_refusals(void)
{
    unlink(OUT);
    unlink(JOURNAL);
    const char *cmd[] = { "sleep", "20", NULL };
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = TALLY_WORKLOAD_EXEC;
    o.command = cmd;
    o.output = OUT;
    o.progress = cancel_while_running;
    tally_runner *r = NULL;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    CHECK_INT(tally_runner_run(r), TALLY_EINTERRUPTED);
    CHECK(tally_runner_resultset(r) == NULL);
    CHECK_INT(tally_runner_run(r), TALLY_EINVAL); /* once per runner */
    tally_runner_free(r);
    CHECK_INT(count_lines(JOURNAL), 1); /* the header only: the killed run is not recorded */
    unlink(JOURNAL);

    /* Output paths that are not plain files, resume without output, bad counts. */
    o.progress = NULL;
    o.output = TALLY_TEST_TMP;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    o.output = TALLY_TEST_TMP "/dir/";
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    o.output = NULL;
    o.resume = 1;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    o.resume = 0;
    o.runs = 0;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    o.runs = 1;
    o.timeout = 0;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    o.timeout = 1;
    o.sweep = "1,,2";
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    o.version = 99;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    /* Resuming a sweep that never started. */
    options(&o, 1);
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    CHECK_INT(tally_runner_run(r), TALLY_ENOTFOUND);
    tally_runner_free(r);
}

#ifdef TALLY_FAULT_INJECTION
/* Every allocation of a whole sweep (options, journal, runs, result set, output) failing in
 * turn: each attempt ends in TALLY_OK or TALLY_ENOMEM, never a crash or a leak (under ASan). */
static void test_allocation_failure(void)
{
    const char *cmd[] = { "true", NULL };
    int bad = 0;
    long n;
    for (n = 1; n < 5000; n++) {
        unlink(OUT);
        unlink(JOURNAL);
        tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
        o.workload = TALLY_WORKLOAD_EXEC;
        o.command = cmd;
        o.runs = 1;
        o.warmup = 1;
        o.output = OUT;
        tally_runner *r = NULL;
        tally_testing_fail_allocation(n);
        int rc = tally_runner_new(&r, &o);
        if (rc == TALLY_OK)
            rc = tally_runner_run(r);
        unsigned long used = tally_testing_allocation_count();
        tally_testing_fail_allocation(0);
        tally_runner_free(r);
        bad += rc != TALLY_OK && rc != TALLY_ENOMEM;
        if (rc == TALLY_OK && used < (unsigned long)n)
            break; /* no allocation failed: every one has been tried */
    }
    CHECK_INT(bad, 0);
    CHECK(n > 10 && n < 5000);
    unlink(OUT);
    unlink(JOURNAL);
}
#endif

int main(void)
{
#ifdef TALLY_FAULT_INJECTION
    test_allocation_failure();
#endif
    test_kill_and_resume();
    test_configurations();
    test_timeout();
    test_cancel_and_refusals();
    return check_summary();
}
