/* tally validate: recompute a harness's own summary from its raw samples and list disagreements. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char validate_help[] =
    "Usage: tally validate [OPTIONS] FILE...\n"
    "\n"
    "Check the summary a harness wrote next to its raw samples (hyperfine: mean, stddev,\n"
    "median, min, max; Google Benchmark: mean, median, stddev, cv aggregates) against the\n"
    "statistics tally recomputes from those samples. Every check is listed; disagreements\n"
    "beyond the relative tolerance are marked DISAGREE.\n"
    "\n"
    "Options:\n"
    "      --tolerance REL       largest relative difference that still agrees\n"
    "                            (default 1e-6)\n"
    "      --from KIND           input kind instead of detection\n"
    CLI_INPUT_OPTIONS_HELP
    "  -q, --quiet               print only disagreements\n"
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 everything agreed, 1 some statistic disagreed, 2 usage or input error\n"
    "(including files that carry no harness summary).\n";

static void print_entry(const tally_validation *v, size_t i)
{
    int agreed = tally_validation_agreed(v, i);
    const char *note = tally_validation_note(v, i);
    printf("%-8s %s / %s / %s  %s: reported %.10g, recomputed %.10g, rel. diff %.3g%s%s\n",
           agreed ? "ok" : "DISAGREE", tally_validation_resultset(v, i),
           tally_validation_benchmark(v, i), tally_validation_case(v, i),
           tally_validation_statistic(v, i), tally_validation_reported(v, i),
           tally_validation_recomputed(v, i), tally_validation_rel_diff(v, i),
           note && note[0] ? " - " : "", note ? note : "");
}

int cmd_validate(int argc, char **argv)
{
    static const struct option options[] = {
        {"tolerance", required_argument, NULL, 'T'},
        CLI_INPUT_LONG_OPTIONS,
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    tally_validate_options vopts = TALLY_VALIDATE_OPTIONS_INIT;
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    int quiet = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'h':
            fputs(validate_help, stdout);
            return CLI_EXIT_OK;
        case 'q':
            quiet = 1;
            break;
        case 'T':
            vopts.tolerance = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || !(vopts.tolerance >= 0.0) ||
                !isfinite(vopts.tolerance))
                return cli_usage_error("validate", "--tolerance needs a number >= 0, not '%s'",
                                       optarg);
            break;
        default:
            if (cli_input_getopt(&lo, "validate", c, optarg, argv[optind - 1]) != CLI_EXIT_OK)
                return CLI_EXIT_USAGE;
            break;
        }
    }
    if (optind >= argc)
        return cli_usage_error("validate", "missing input files");

    tally_results *results = NULL;
    int rc = cli_load_inputs(&results, argv + optind, argc - optind, &lo);
    if (rc != CLI_EXIT_OK)
        return rc;
    tally_validation *v = NULL;
    if (tally_validate(&v, results, &vopts) != TALLY_OK) {
        tally_results_free(results);
        return cli_fail_library();
    }
    tally_results_free(results);

    size_t count = tally_validation_count(v);
    size_t bad = tally_validation_disagreements(v);
    if (count == 0) {
        tally_validation_free(v);
        return cli_fail("no harness summary to validate in the input (hyperfine and Google "
                        "Benchmark files carry one)");
    }
    for (size_t i = 0; i < count; i++)
        if (!quiet || !tally_validation_agreed(v, i))
            print_entry(v, i);
    printf("%zu checked, %zu disagreed (relative tolerance %g)\n", count, bad,
           tally_validation_tolerance(v));
    tally_validation_free(v);
    return cli_finish_stdout(bad ? CLI_EXIT_FINDING : CLI_EXIT_OK);
}
