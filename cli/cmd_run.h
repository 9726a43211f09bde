/* `tally run`: run a workload across a sweep and write a result set (docs/runners.md). */
#ifndef TALLY_CLI_CMD_RUN_H
#define TALLY_CLI_CMD_RUN_H

/* argv[0] is "run". Returns the process exit status: 0 every run succeeded, 1 the sweep
 * finished but some runs failed (recorded in the output), 2 bad usage or an error, 130
 * interrupted (completed runs kept in the journal; continue with --resume). */
int cmd_run(int argc, char **argv);

#endif /* TALLY_CLI_CMD_RUN_H */
