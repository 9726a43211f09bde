/* The runner's handling of processes and their output, through the exec workload: case names
 * of any length, sweep values kept as data in shell scripts, output beyond the capture limit,
 * processes that leave the run's process group. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
    test_long_names();
    test_sweep_quoted();
    return check_summary();
}
