/* Parsing of the options shared by compare and summary. */
#ifndef TALLY_CLI_REPORT_ARGS_H
#define TALLY_CLI_REPORT_ARGS_H

#include "cli.h"

typedef struct cli_report_command {
    const char *name;          /* "compare" or "summary", for messages */
    int allow_gate;            /* a comparison: accept --test, --alpha, --adjust, --fail-on-regression */
    cli_report_args args;
    double fail_on_regression; /* < 0: off */
    char **inputs;             /* positional arguments */
    int input_count;
    int help;                  /* --help was given */
} cli_report_command;

/* Parse argv (argv[0] is the subcommand). Returns CLI_EXIT_OK or prints and returns
 * CLI_EXIT_USAGE. Set `name` and `allow_gate` before calling. */
int cli_parse_report_command(cli_report_command *cmd, int argc, char **argv);

#endif /* TALLY_CLI_REPORT_ARGS_H */
