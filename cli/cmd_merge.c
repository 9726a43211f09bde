/* tally merge: several files of one configuration (the runs of several workloads, or of one
 * sweep made in parts) into one result set per label. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char merge_help[] =
    "Usage: tally merge [OPTIONS] FILE... -o OUT.json\n"
    "\n"
    "Merge result files into one native JSON file with one result set per label: the\n"
    "benchmarks of all files are unioned, and a case found in several files gets their\n"
    "samples in the order of the files (run order), with the file each came from in the\n"
    "metadata (merged.N, samples.N). A benchmark with another unit or direction in another\n"
    "file is an error naming both. Each FILE may be LABEL=FILE.\n"
    "\n"
    "Options:\n"
    "  -l, --label NAME          label every result set NAME (files of one configuration\n"
    "                            whose labels differ, e.g. hb-base and st-base)\n"
    "      --from KIND           input kind instead of detection\n"
    CLI_INPUT_OPTIONS_HELP
    CLI_META_HELP
    "  -o, --output FILE         the merged file to write (required)\n"
    "      --force               replace FILE when it exists (never an input), and merge\n"
    "                            runs recorded on different hosts, kernels or boots (the\n"
    "                            metadata host, kernel, boot_id), which are otherwise\n"
    "                            refused\n"
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 2 usage or input error.\n";

/* Runs recorded on another host, kernel or boot than those already in `into` (the keys of
 * tally_run_env_key_at() both record with different values): each key named on stderr with
 * both values. Returns how many differ. */
static size_t env_differences(const tally_resultset *into, const tally_resultset *rs,
                              const char *file, int force)
{
    size_t differ = 0;
    for (size_t i = 0; tally_run_env_key_at(i) != NULL; i++) {
        const char *key = tally_run_env_key_at(i);
        const char *have = tally_resultset_meta_get(into, key);
        const char *add = tally_resultset_meta_get(rs, key);
        if (have == NULL || add == NULL || strcmp(have, add) == 0)
            continue;
        if (differ++ == 0)
            fprintf(stderr, "tally: %s%s: result set '%s' was recorded elsewhere than the runs "
                            "merged into it before:\n", force ? "warning: " : "", file,
                    tally_resultset_label(into));
        fprintf(stderr, "tally:   %s '%s' here, '%s' before\n", key, add, have);
    }
    if (differ > 0)
        fprintf(stderr, force ? "tally:   merged anyway (--force): their runs are pooled\n"
                              : "tally:   runs of different hosts, kernels or boots are not "
                                "pooled silently: compare them as configurations, or merge "
                                "with --force\n");
    return differ;
}

int cmd_merge(int argc, char **argv)
{
    static const struct option options[] = {
        {"label", required_argument, NULL, 'l'},
        CLI_INPUT_LONG_OPTIONS,
        {"output", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, 'F'},
        {"meta", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    const char *output = NULL, *label = NULL;
    int force = 0;
    cli_meta meta = { 0, NULL, NULL, NULL };
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "l:o:h", options, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(merge_help, stdout);
            return CLI_EXIT_OK;
        case 'l':
            label = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'F':
            force = 1;
            break;
        case 'm':
            if (cli_meta_option(&meta, "merge", optarg) != CLI_EXIT_OK)
                return CLI_EXIT_USAGE;
            break;
        default:
            if (cli_input_getopt(&lo, "merge", c, optarg, argv[optind - 1]) != CLI_EXIT_OK)
                return CLI_EXIT_USAGE;
            break;
        }
    }
    if (optind >= argc)
        return cli_usage_error("merge", "missing input files");
    /* merge joins files of one configuration: each file is one where that pools no samples. */
    if (lo.config_key == NULL)
        lo.config_key = "file";
    if (output == NULL)
        return cli_usage_error("merge", "the merged file is needed: -o OUT.json");
    int rc = cli_check_new_output("merge", output, force, argv + optind, argc - optind);
    if (rc != CLI_EXIT_OK)
        return rc;

    tally_results *merged = NULL;
    if (tally_results_new(&merged) != TALLY_OK)
        return cli_fail_library();
    rc = CLI_EXIT_OK;
    for (int i = optind; rc == CLI_EXIT_OK && i < argc; i++) {
        tally_results *one = NULL;
        rc = cli_load_inputs(&one, argv + i, 1, &lo);
        /* Configurations of one file are measured under different settings: one label for all
         * would pool their samples. */
        if (rc == CLI_EXIT_OK && label && tally_results_count(one) > 1)
            rc = cli_fail("merge: %s holds %zu configurations ('%s', '%s'%s): --label %s would "
                          "pool their samples; merge without --label (each configuration keeps "
                          "its own)", argv[i], tally_results_count(one),
                          tally_resultset_label(tally_results_at(one, 0)),
                          tally_resultset_label(tally_results_at(one, 1)),
                          tally_results_count(one) > 2 ? ", ..." : "", label);
        for (size_t k = 0; rc == CLI_EXIT_OK && k < tally_results_count(one); k++) {
            const tally_resultset *rs = tally_results_at(one, k);
            const char *name = label ? label : tally_resultset_label(rs);
            const char *source = tally_resultset_meta_get(rs, "source_file");
            tally_resultset *into = tally_results_find(merged, name);
            if (into != NULL && env_differences(into, rs, argv[i], force) > 0 && !force) {
                rc = CLI_EXIT_USAGE;
                break;
            }
            if (into == NULL) {
                if (tally_resultset_new(&into, name) != TALLY_OK ||
                    tally_results_add(merged, into) != TALLY_OK) {
                    tally_resultset_free(into);
                    rc = cli_fail_library();
                    break;
                }
            }
            if (tally_resultset_merge_runs(into, rs, source ? source : argv[i]) != TALLY_OK)
                rc = cli_fail_library();
        }
        tally_results_free(one);
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_meta_apply(&meta, merged);
    if (rc == CLI_EXIT_OK && tally_results_save(merged, output) != TALLY_OK)
        rc = cli_fail_library();
    if (rc == CLI_EXIT_OK) {
        size_t n = tally_results_count(merged);
        fprintf(stderr, "tally merge: wrote %s: %d file%s into %zu result set%s\n", output,
                argc - optind, argc - optind == 1 ? "" : "s", n, n == 1 ? "" : "s");
    }
    tally_results_free(merged);
    cli_meta_free(&meta);
    return rc;
}
