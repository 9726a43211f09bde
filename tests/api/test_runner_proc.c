/* The runner's handling of processes and their output, through the exec workload: case names
 * of any length, sweep values kept as data in shell scripts, output beyond the capture limit,
 * processes that leave the run's process group, a caller that ignores SIGCHLD. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tally.h"

static tally_runner *run_exec(const char *sweep, unsigned runs, const char *const *params,
                              size_t nparams, const char *const *command)
{
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = TALLY_WORKLOAD_EXEC;
    o.sweep = sweep;
    o.runs = runs;
    o.warmup = 0;
    o.params = params;
    o.param_count = nparams;
    o.command = command;
    o.timeout = 60;
    tally_runner *r = NULL;
    int rc = tally_runner_new(&r, &o);
    CHECK_INT(rc, TALLY_OK);
    if (rc == TALLY_OK)
        rc = tally_runner_run(r);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  %s\n", tally_error_last()->message);
    return r;
}

static const tally_case *only_case(const tally_runner *r, const char *name)
{
    const tally_resultset *rs = tally_runner_resultset(r);
    const tally_benchmark *b = rs ? tally_resultset_benchmark_at(rs, 0) : NULL;
    const tally_case *c = b ? tally_benchmark_case_find(b, name) : NULL;
    CHECK(c != NULL);
    return c;
}

/* Two sweep values of 201 characters that differ only in the last: two cases with their full
 * names. Old code: both cut to 159 characters, one case of 2 samples. */
static void test_long_names(void)
{
    char a[202], b[202], sweep[420];
    memset(a, 'x', 200);
    memcpy(b, a, 200);
    a[200] = '1';
    b[200] = '2';
    a[201] = b[201] = '\0';
    snprintf(sweep, sizeof(sweep), "%s,%s", a, b);
    const char *cmd[] = { "true", "{}", NULL };
    tally_runner *r = run_exec(sweep, 1, NULL, 0, cmd);
    const tally_resultset *rs = tally_runner_resultset(r);
    const tally_benchmark *bench = rs ? tally_resultset_benchmark_at(rs, 0) : NULL;
    CHECK_INT(bench ? tally_benchmark_case_count(bench) : 0, 2);
    const tally_case *ca = only_case(r, a), *cb = only_case(r, b);
    CHECK_INT(ca ? tally_case_sample_count(ca) : 0, 1);
    CHECK_INT(cb ? tally_case_sample_count(cb) : 0, 1);
    CHECK_INT(ca ? strlen(tally_case_name(ca)) : 0, 201);
    tally_runner_free(r);

    /* Failures of a long-named case that never succeeded go to result-set keys with the full
     * name. */
    const char *fail[] = { "sh", "-c", "exit 3 # {}", NULL };
    r = run_exec(a, 1, NULL, 0, fail);
    rs = tally_runner_resultset(r);
    char key[260];
    snprintf(key, sizeof(key), "failed_run.%s.1", a);
    const char *why = rs ? tally_resultset_meta_get(rs, key) : NULL;
    CHECK(why != NULL && strstr(why, "exit status 3") != NULL);
    tally_runner_free(r);
}

/* A sweep value in a shell script is one word of data wherever the {} stands. Old code: the
 * value `1;touch FILE` ran touch. */
static void test_sweep_quoted(void)
{
    char file[512], sweep[600], script[1200];
    snprintf(file, sizeof(file), "%s/runner_proc_injected", TALLY_TEST_TMP);
    unlink(file);
    /* The value, in the three quoting contexts, printed back: each must read back verbatim. */
    snprintf(sweep, sizeof(sweep), "1;touch %s", file);
    snprintf(script, sizeof(script),
             "a={}; b='{}'; c=\"{}\"; [ \"$a\" = '%s' ] && [ \"$b\" = \"$a\" ] && "
             "[ \"$c\" = \"$a\" ] && echo v=1",
             sweep);
    const char *params[] = { "metric=v=([0-9]+)" };
    const char *cmd[] = { "sh", "-c", script, NULL };
    tally_runner *r = run_exec(sweep, 1, params, 1, cmd);
    struct stat st;
    CHECK(stat(file, &st) != 0 && errno == ENOENT);
    const tally_case *c = only_case(r, sweep);
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 1);
    if (c && tally_case_meta_get(c, "failed_run.1"))
        fprintf(stderr, "  %s\n", tally_case_meta_get(c, "failed_run.1"));
    tally_runner_free(r);

    /* Quotes, $ and backquotes in the value: still data. */
    const char *nasty = "a'b\"c$(touch X)`touch Y`\\d";
    char script2[400];
    snprintf(script2, sizeof(script2),
             "a={}; b='{}'; c=\"{}\"; [ \"$b\" = \"$a\" ] && [ \"$c\" = \"$a\" ] && "
             "[ ${#a} = %zu ] && echo v=1", strlen(nasty));
    const char *cmd2[] = { "bash", "-ec", script2, NULL };
    r = run_exec(nasty, 1, params, 1, cmd2);
    c = only_case(r, nasty);
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 1);
    if (c && tally_case_meta_get(c, "failed_run.1"))
        fprintf(stderr, "  %s\n", tally_case_meta_get(c, "failed_run.1"));
    tally_runner_free(r);

    /* Not a shell: the value goes in as it is. */
    const char *echo[] = { "echo", "v={}", NULL };
    r = run_exec("1;2", 1, (const char *[]){ "metric=v=1;([0-9])" }, 1, echo);
    c = only_case(r, "1;2");
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 1);
    CHECK(c && tally_case_sample_count(c) && tally_case_samples(c)[0] == 2);
    tally_runner_free(r);
}

/* The result set's warnings (warning.1, ...), joined, for matching. */
static void warnings_of(char *out, size_t cap, const tally_runner *r)
{
    out[0] = '\0';
    const tally_resultset *rs = tally_runner_resultset(r);
    for (int i = 1; rs; i++) {
        char key[32];
        snprintf(key, sizeof(key), "warning.%d", i);
        const char *w = tally_resultset_meta_get(rs, key);
        if (w == NULL)
            break;
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s\n", w);
    }
}

/* Nothing the runner started is left: this process is a subreaper (main), so whatever a run
 * orphaned would be a child of ours now. */
static void check_no_leftovers(void)
{
    int status;
    pid_t left;
    int leftovers = 0;
    while ((left = waitpid(-1, &status, WNOHANG)) > 0)
        leftovers++; /* orphans that died after the run */
    if (left == 0)
        leftovers++; /* some still running */
    CHECK_INT(leftovers, 0);
}

/* 20 MB of output, the metric on the last line: found (head and tail kept), the truncation
 * recorded. Old code: the first 16 MiB only, the metric not found, no word of truncation. */
static void test_output_head_tail(void)
{
    const char *params[] = { "metric=v=([0-9]+)" };
    const char *cmd[] = { "sh", "-c", "yes 0123456789abcdef | head -c 20000000; echo; echo v=42",
                          NULL };
    tally_runner *r = run_exec(NULL, 1, params, 1, cmd);
    const tally_case *c = only_case(r, "command");
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 1);
    CHECK(c && tally_case_sample_count(c) && tally_case_samples(c)[0] == 42);
    if (c && tally_case_meta_get(c, "failed_run.1"))
        fprintf(stderr, "  %s\n", tally_case_meta_get(c, "failed_run.1"));
    char w[4096];
    warnings_of(w, sizeof(w), r);
    /* 20000000 + 1 + 5 bytes = 19.07 MiB */
    CHECK(strstr(w, "command run 1: stdout: output truncated at 16 MiB (19.1 MiB written; the "
                    "first and the last 8 MiB were kept") != NULL);
    if (strstr(w, "truncated") == NULL)
        fprintf(stderr, "  warnings: %s\n", w);
    tally_runner_free(r);

    /* Under the limit: all of it, no warning. 1 MB of 17-byte lines then the metric. */
    const char *cmd2[] = { "sh", "-c", "yes 0123456789abcdef | head -c 1000000; echo v=7", NULL };
    r = run_exec(NULL, 1, params, 1, cmd2);
    c = only_case(r, "command");
    CHECK(c && tally_case_sample_count(c) && tally_case_samples(c)[0] == 7);
    warnings_of(w, sizeof(w), r);
    CHECK_STR(w, "");
    tally_runner_free(r);
}

/* A daemon that leaves the run's process group (setsid) is killed after the run and named;
 * a background process inside the group is killed silently. Old code: the setsid'd sleep
 * outlived the run (and held its output pipe, a second's wait each run). */
static void test_escaped(void)
{
    const char *params[] = { "metric=v=([0-9]+)" };
    /* The daemon says "up" once it is in a session of its own; the command waits for that. */
    const char *cmd[] = { "sh", "-c",
                          "(setsid sh -c 'echo up; exec sleep 1000' &) | head -n 1 >/dev/null; "
                          "echo v=1",
                          NULL };
    tally_runner *r = run_exec(NULL, 2, params, 1, cmd);
    const tally_case *c = only_case(r, "command");
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 2);
    char w[4096];
    warnings_of(w, sizeof(w), r);
    CHECK(strstr(w, "command run 1: 1 process had left the run's process group and was still "
                    "running after it, and was killed: ") != NULL);
    CHECK(strstr(w, "command run 2: 1 process") != NULL);
    if (strstr(w, "run 2") == NULL)
        fprintf(stderr, "  warnings: %s\n", w);
    tally_runner_free(r);
    check_no_leftovers();

    const char *cmd2[] = { "sh", "-c", "sleep 1000 & echo v=1", NULL };
    r = run_exec(NULL, 1, params, 1, cmd2);
    c = only_case(r, "command");
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 1);
    warnings_of(w, sizeof(w), r);
    CHECK_STR(w, "");
    tally_runner_free(r);
    check_no_leftovers();
}

/* A caller that ignores SIGCHLD (its children are reaped automatically) still gets the exit
 * status of each run. Old code: every run failed with a lost status. */
static void test_sigchld_ignored(void)
{
    struct sigaction ign, old;
    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigaction(SIGCHLD, &ign, &old);
    const char *cmd[] = { "true", NULL };
    tally_runner *r = run_exec(NULL, 2, NULL, 0, cmd);
    sigaction(SIGCHLD, &old, NULL);
    const tally_case *c = only_case(r, "command");
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 2);
    CHECK_INT(tally_runner_failed_runs(r), 0);
    tally_runner_free(r);
}

int main(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    test_long_names();
    test_sweep_quoted();
    test_output_head_tail();
    test_escaped();
    test_sigchld_ignored();
    return check_summary();
}
