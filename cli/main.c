/* tally: the command-line front end. Dispatches to one subcommand per invocation. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_run.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"compare", cmd_compare, "compare a baseline with one or more configurations"},
    {"summary", cmd_summary, "summarise each configuration on its own"},
    {"import", cmd_import, "convert other harnesses' files to native JSON result sets"},
    {"validate", cmd_validate, "check a harness's own summary against its raw samples"},
    {"merge", cmd_merge, "merge files of one configuration into one result set per label"},
    {"run", cmd_run, "run a workload N times over a parameter sweep, keeping every run"},
    {"check", cmd_check, "is this machine ready to benchmark? (read-only)"},
    {"calibrate", cmd_calibrate, "measure run-to-run noise (A/A) into a noise profile"},
    {"record", cmd_record, "store result sets in a results store (SQLite or PostgreSQL)"},
    {"query", cmd_query, "list or export the result sets of a results store"},
};

static void usage(FILE *out)
{
    fputs("Usage: tally COMMAND [OPTIONS] [ARGS]\n"
          "\n"
          "Turn raw benchmark runs into trustworthy comparisons.\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < COUNT(commands); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n"
          "Options:\n"
          "  -h, --help      show this help ('tally COMMAND --help' for a command's)\n"
          "  -V, --version   show the version\n"
          "\n"
          "Exit status: 0 success, 1 a gate tripped (regression, disagreement),\n"
          "2 usage or input error.\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
        printf("tally %s\n", tally_version());
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < COUNT(commands); i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "tally: unknown command '%s'\nTry 'tally --help'.\n", name);
    return CLI_EXIT_USAGE;
}
