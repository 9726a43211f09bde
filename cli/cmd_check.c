/* tally check: is this machine ready to benchmark? Prints the library's read-only findings. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "Usage: tally check [--quiet]\n"
    "\n"
    "Look at what makes benchmark runs noisy on this machine (frequency governor, turbo,\n"
    "SMT, ASLR, load, noisy services, isolated CPUs, perf_event_paranoid, transparent huge\n"
    "pages, power source) and say what to change. Reads /proc and /sys; changes nothing.\n"
    "\n"
    "  -q, --quiet   print only the findings that need attention\n"
    "  -h, --help    show this help\n"
    "\n"
    "Exit status: 0 nothing to change, 1 findings marked 'warn', 2 usage error or the\n"
    "machine could not be inspected.\n";

static const char *level_word(tally_check_level level)
{
    switch (level) {
    case TALLY_CHECK_OK: return "ok";
    case TALLY_CHECK_WARN: return "warn";
    case TALLY_CHECK_INFO: return "info";
    case TALLY_CHECK_UNKNOWN: return "n/a";
    }
    return "?";
}

int cmd_check(int argc, char **argv)
{
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(help, stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0)
            quiet = 1;
        else
            return cli_usage_error("check", "unknown option or argument '%s'", argv[i]);
    }
    tally_system_check *c = NULL;
    if (tally_system_check_run(&c) != TALLY_OK)
        return cli_fail_library();
    size_t width = 0, vwidth = 0;
    for (size_t i = 0; i < tally_system_check_count(c); i++) {
        tally_check_item it = { .size = sizeof it };
        tally_system_check_item_at(&it, c, i);
        width = strlen(it.name) > width ? strlen(it.name) : width;
        vwidth = strlen(it.value) > vwidth && strlen(it.value) <= 24 ? strlen(it.value) : vwidth;
    }
    for (size_t i = 0; i < tally_system_check_count(c); i++) {
        tally_check_item it = { .size = sizeof it };
        tally_system_check_item_at(&it, c, i);
        if (quiet && it.level != TALLY_CHECK_WARN)
            continue;
        printf("%-4s  %-*s  %-*s  %s\n", level_word(it.level), (int)width, it.name, (int)vwidth,
               it.value[0] ? it.value : "-", it.advice);
    }
    size_t warnings = tally_system_check_warnings(c);
    if (warnings)
        printf("\n%zu finding%s to change before benchmarking (warn); info lines are worth "
               "knowing.\n", warnings, warnings == 1 ? "" : "s");
    else if (!quiet)
        printf("\nNothing to change before benchmarking.\n");
    tally_system_check_free(c);
    return warnings ? CLI_EXIT_FINDING : CLI_EXIT_OK;
}
