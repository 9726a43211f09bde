/* Runs `tally run` (cli/cmd_run.c) on its own: `runner_cli_driver run ARGS...`, so the command
 * is tested whatever the state of the tally dispatcher. */
#include <stdio.h>
#include <string.h>

#include "cmd_run.h"

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "run") != 0) {
        fputs("usage: runner_cli_driver run [ARGS...]\n", stderr);
        return 2;
    }
    return cmd_run(argc - 1, argv + 1);
}
