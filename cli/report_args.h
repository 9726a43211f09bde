/* Parsing of the options shared by compare and summary. */
#ifndef TALLY_CLI_REPORT_ARGS_H
#define TALLY_CLI_REPORT_ARGS_H

#include "cli.h"

typedef struct cli_report_command {
    const char *name;          /* "compare" or "summary", for messages */
    int allow_gate;            /* a comparison: accept --test, --alpha, --adjust, --fail-on-regression */
    cli_report_args args;
    double fail_on_regression; /* < 0: off */
    int fail_on_inconclusive;  /* rows that cannot be judged fail the gate */
    tally_gate_bound gate_bound; /* what --fail-on-regression compares */
    char **inputs;             /* positional arguments */
    int input_count;
    int help;                  /* --help was given */
    char expect_diff[1024];    /* --expect-diff keys, comma-separated */
    size_t expect_diff_len;
    /* --case-label / --units-text given as BENCH=TEXT: set on the baseline's metadata
     * (report.BENCH.case_label, report.BENCH.units_text) once the inputs are loaded. */
    struct { const char *key; const char *spec; } per_benchmark[32];
    int per_benchmark_count;
    tally_noise *noise;        /* --noise FILE, owned (freed by cli_build_report) */
    char case_map[4096];       /* --case-map rules, one per line */
    size_t case_map_len;
    int allow_missing;         /* --allow-missing: unpaired rows do not fail a gate */
} cli_report_command;

/* Parse argv (argv[0] is the subcommand). Returns CLI_EXIT_OK or prints and returns
 * CLI_EXIT_USAGE. Set `name` and `allow_gate` before calling. */
int cli_parse_report_command(cli_report_command *cmd, int argc, char **argv);

/* Parse argv, print `help` for --help, load the inputs, compute the report and emit it: the steps
 * compare and summary share. Returns the exit status so far (CLI_EXIT_OK, or CLI_EXIT_USAGE
 * after printing why) with *out set to the report, for the caller to gate on and free (NULL
 * after --help or when it could not be computed). A comparison (cmd->allow_gate) needs two
 * configurations; otherwise every configuration is summarised on its own. */
int cli_run_report(tally_report **out, cli_report_command *cmd, const char *help, int argc,
                   char **argv);

#endif /* TALLY_CLI_REPORT_ARGS_H */
