/* The runner's public functions in a build without the workload runner (TALLY_BUILD_RUNNER=OFF,
 * the default off Linux): the runner needs processes groups, /proc and loopback sockets as Linux
 * has them. The API stays the same so that programs link everywhere; every call says why it
 * cannot run. Not part of run/sources.cmake: CMake adds this file instead of the module. */
#include "util/internal.h"
#include "util/options.h"
#include "util/result.h"

#define NO_RUNNER "this libtally was built without the workload runner (TALLY_BUILD_RUNNER=OFF)"

/* The options are plain data: their defaults are there without the runner. */
TALLY__OPTIONS_FUNCTIONS(tally_runner_options, TALLY_RUNNER_OPTIONS, sizeof(tally_runner_options))

int tally_runner_new(tally_runner **out, const tally_runner_options *opts)
{
    (void)opts;
    if (out != NULL)
        *out = NULL;
    return tally__error(TALLY_ERUN, NO_RUNNER);
}

void tally_runner_free(tally_runner *runner)
{
    (void)runner;
}

int tally_runner_run(tally_runner *runner)
{
    (void)runner;
    return tally__error(TALLY_ERUN, NO_RUNNER);
}

const tally_resultset *tally_runner_resultset(const tally_runner *runner)
{
    (void)runner;
    return NULL;
}

int tally_runner_take_results(tally_results **out, tally_runner *runner)
{
    (void)runner;
    if (out != NULL)
        *out = NULL;
    return tally__error(TALLY_ERUN, NO_RUNNER);
}

size_t tally_runner_failed_runs(const tally_runner *runner)
{
    (void)runner;
    return 0;
}

const char *tally_workload_name(tally_workload workload)
{
    (void)workload;
    return NULL;
}

int tally_workload_from_name(tally_workload *out, const char *name)
{
    (void)out;
    return tally__error(TALLY_ERUN, "workload '%s': " NO_RUNNER, name ? name : "(null)");
}

int tally_workload_available(tally_workload workload)
{
    (void)workload;
    return 0;
}

int tally_system_check_run(tally_system_check **out)
{
    if (out != NULL)
        *out = NULL;
    return tally__error(TALLY_ERUN, "tally check: " NO_RUNNER);
}

size_t tally_system_check_count(const tally_system_check *c)
{
    (void)c;
    return 0;
}

int tally_system_check_item_at(tally_check_item *out, const tally_system_check *c, size_t i)
{
    (void)c, (void)i;
    size_t size;
    int rc = tally__result_size(&size, out, "tally_check_item");
    return rc ? rc : tally__error(TALLY_EINVAL, "tally_system_check_item_at: invalid argument");
}

size_t tally_system_check_warnings(const tally_system_check *c)
{
    (void)c;
    return 0;
}

void tally_system_check_free(tally_system_check *c)
{
    (void)c;
}
