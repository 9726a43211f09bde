/* tally import: turn any supported input into tally's native JSON result sets. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char import_help[] =
    "Usage: tally import [OPTIONS] FILE... [-o OUT.json]\n"
    "\n"
    "Read result files of any supported kind and write them as one native JSON file of\n"
    "result sets (docs/formats.md), keeping every raw sample. Each FILE may be LABEL=FILE.\n"
    "\n"
    "Options:\n"
    CLI_FROM_KINDS_HELP
    CLI_INPUT_OPTIONS_HELP
    CLI_META_HELP
    "  -o, --output FILE         write to FILE (atomically) instead of standard output;\n"
    "                            an existing FILE only with --force, never an input\n"
    "      --force               replace an existing FILE\n"
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 2 usage or input error.\n";

int cmd_import(int argc, char **argv)
{
    static const struct option options[] = {
        CLI_INPUT_LONG_OPTIONS,
        {"output", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, 'F'},
        {"meta", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    const char *output = NULL;
    int force = 0;
    cli_meta meta = { 0, NULL, NULL, NULL };
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
        switch (c) {
        case 'h':
            cli_help(import_help);
            return CLI_EXIT_OK;
        case 'o':
            output = optarg;
            break;
        case 'F':
            force = 1;
            break;
        case 'm':
            if (cli_meta_option(&meta, "import", optarg) != CLI_EXIT_OK)
                return CLI_EXIT_USAGE;
            break;
        default:
            if (cli_input_getopt(&lo, "import", c, optarg, argv[optind - 1]) != CLI_EXIT_OK)
                return CLI_EXIT_USAGE;
            break;
        }
    }
    if (optind >= argc)
        return cli_usage_error("import", "missing input files");

    int rc = cli_check_new_output("import", output, force, argv + optind, argc - optind);
    if (rc != CLI_EXIT_OK)
        return rc;
    tally_results *results = NULL;
    rc = cli_load_inputs(&results, argv + optind, argc - optind, &lo);
    if (rc != CLI_EXIT_OK) {
        cli_meta_free(&meta);
        return rc;
    }
    rc = cli_meta_apply(&meta, results);
    cli_meta_free(&meta);
    if (rc != CLI_EXIT_OK) {
        tally_results_free(results);
        return rc;
    }
    if (output) {
        rc = tally_results_save(results, output) == TALLY_OK ? CLI_EXIT_OK : cli_fail_library();
    } else {
        char *json = NULL;
        size_t len = 0;
        if (tally_results_to_json(&json, &len, results) != TALLY_OK) {
            rc = cli_fail_library();
        } else {
            if (fwrite(json, 1, len, stdout) != len || fflush(stdout) != 0)
                rc = cli_fail("cannot write to standard output");
            tally_free(json);
        }
    }
    tally_results_free(results);
    return rc;
}
