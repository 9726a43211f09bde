/* tally record: store result files in a results store (docs/store.md). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char record_help[] =
    "Usage: tally record --db STORE [--meta KEY=VALUE]... FILE...\n"
    "\n"
    "Record result sets in a results store: native result sets, run journals or any file\n"
    "tally reads (each FILE may be LABEL=FILE, or a @SELECTION of another store). All\n"
    "files are read first; then every result set is stored in one transaction, all of them\n"
    "or, on any error, none. A result set already in the store (the same content) is not\n"
    "stored again. Each set is keyed by its metadata commit, branch and machine (else\n"
    "host) and by its time (metadata time or date, else now): stamp them with --meta.\n"
    "\n"
    "Options:\n"
    "      --db STORE            an SQLite file (created when missing) or a\n"
    "                            postgresql:// URL (default $TALLY_DB)\n"
    "      --meta KEY=VALUE      set metadata KEY on every result set (repeatable), e.g.\n"
    "                            --meta commit=$(git rev-parse HEAD) --meta branch=main\n"
    "      --from KIND           input kind instead of detection\n"
    CLI_INPUT_OPTIONS_HELP
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success (also when every set was already stored), 2 usage or input\n"
    "error (nothing recorded).\n";

static int record(const char *location, const cli_meta *meta, char *const *specs, int count,
                  const tally_load_options *lo)
{
    tally_results *results = NULL;
    int rc = cli_load_inputs(&results, specs, count, lo);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_meta_apply(meta, results);
    tally_store *store = NULL;
    size_t added = 0;
    if (rc == CLI_EXIT_OK && (tally_store_open(&store, location, NULL) != TALLY_OK ||
                              tally_store_record(&added, store, results) != TALLY_OK))
        rc = cli_fail_library();
    if (rc == CLI_EXIT_OK) {
        char name[512];
        cli_store_name(name, sizeof name, location);
        size_t n = tally_results_count(results);
        fprintf(stderr, "tally record: %s: %zu result set%s recorded, %zu already there\n", name,
                added, added == 1 ? "" : "s", n - added);
    }
    tally_store_close(store);
    tally_results_free(results);
    return rc;
}

int cmd_record(int argc, char **argv)
{
    static const struct option options[] = {
        CLI_INPUT_LONG_OPTIONS,
        {"meta", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    cli_meta meta = {0, NULL, NULL, NULL};
    const char *db = NULL;
    optind = 1;
    opterr = 0;
    int c, rc = CLI_EXIT_OK;
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (c == 'h') {
            fputs(record_help, stdout);
            cli_meta_free(&meta);
            return CLI_EXIT_OK;
        } else if (c == 'm') {
            rc = cli_meta_option(&meta, "record", optarg);
        } else {
            if (c == CLI_DB_OPTION)
                db = optarg;
            rc = cli_input_getopt(&lo, "record", c, optarg, argv[optind - 1]);
        }
    }
    const char *location = cli_store_location(db);
    if (rc == CLI_EXIT_OK && location == NULL)
        rc = cli_usage_error("record", "missing --db STORE (or TALLY_DB)");
    if (rc == CLI_EXIT_OK && optind >= argc)
        rc = cli_usage_error("record", "missing input files");
    if (rc == CLI_EXIT_OK)
        rc = record(location, &meta, argv + optind, argc - optind, &lo);
    cli_meta_free(&meta);
    return rc;
}
