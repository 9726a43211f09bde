/* tally query: list or export the result sets of a results store (docs/store.md). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char query_help[] =
    "Usage: tally query --db STORE [FILTERS] [--format list|json|csv] [-o FILE]\n"
    "\n"
    "List the result sets of a results store, oldest first, or export them as tally's\n"
    "native JSON or as CSV (benchmark,case,config,value,unit,better: what tally reads).\n"
    "\n"
    "Filters (all must hold):\n"
    "      --branch NAME         sets of this branch\n"
    "      --commit REV          sets of this commit (4 or more leading characters match)\n"
    "      --machine NAME        sets of this machine\n"
    "      --label LABEL         sets of this label\n"
    "      --benchmark GLOB      only the benchmarks matching GLOB\n"
    "      --case GLOB           only the cases matching GLOB\n"
    "      --since TIME          sets of TIME or later (ISO 8601, 2026-01-31T00:00:00Z)\n"
    "      --until TIME          sets before TIME\n"
    "      --id N                the set of store id N\n"
    "      --latest              only the newest matching set (--limit 1)\n"
    "      --limit N             only the N newest matching sets\n"
    "      --select SELECTION    the filters as in an @SELECTION input\n"
    "\n"
    "Options:\n"
    "      --db STORE            an SQLite file or a postgresql:// URL (default $TALLY_DB)\n"
    "  -f, --format FORMAT       list (default: one line per set), json, csv\n"
    "  -o, --output FILE         write to FILE (atomically) instead of standard output\n"
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success (also when nothing matched: the list says so), 2 usage or\n"
    "input error.\n";

static const char *meta_or(const tally_resultset *rs, const char *key, const char *fallback)
{
    const char *v = tally_resultset_meta_get(rs, key);
    return v ? v : fallback;
}

/* The list: one line per set. */
static void write_list(FILE *f, const tally_results *r)
{
    if (tally_results_count(r) == 0) {
        fputs("no result set matches\n", f);
        return;
    }
    fprintf(f, "%-6s %-20s %-12s %-12s %-16s %-20s %s\n", "id", "time", "branch", "commit",
            "machine", "label", "benchmarks/cases/samples");
    for (size_t i = 0; i < tally_results_count(r); i++) {
        const tally_resultset *rs = tally_results_at(r, i);
        size_t cases = 0, samples = 0;
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            const tally_benchmark *b = tally_resultset_benchmark_at(rs, j);
            cases += tally_benchmark_case_count(b);
            for (size_t k = 0; k < tally_benchmark_case_count(b); k++)
                samples += tally_case_sample_count(tally_benchmark_case_at(b, k));
        }
        const char *when = meta_or(rs, "store.time", "-");
        fprintf(f, "%-6s %-20s %-12s %-12.12s %-16s %-20s %zu/%zu/%zu\n",
                meta_or(rs, "store.id", "-"), when, meta_or(rs, "branch", "-"),
                meta_or(rs, "commit", "-"), meta_or(rs, "machine", meta_or(rs, "host", "-")),
                tally_resultset_label(rs), tally_resultset_benchmark_count(rs), cases, samples);
    }
}

/* The whole output in memory, then to standard output or, atomically like every output of
 * tally, to the file: an error leaves no partial file (and an old one as it was). */
static int emit(const tally_results *r, const char *format, const char *output)
{
    char *text = NULL;
    size_t len = 0;
    int rc = TALLY_OK;
    if (strcmp(format, "json") == 0) {
        rc = tally_results_to_json(&text, &len, r);
    } else if (strcmp(format, "csv") == 0) {
        rc = tally_results_to_csv(&text, &len, r);
    } else {
        FILE *f = open_memstream(&text, &len);
        if (f == NULL)
            return cli_fail("out of memory");
        write_list(f, r);
        if (fclose(f) != 0)
            return cli_fail("out of memory");
    }
    if (rc != TALLY_OK)
        return cli_fail_library();
    int bad;
    if (output) {
        bad = tally_file_write(output, text, len) != TALLY_OK ? cli_fail_library() : CLI_EXIT_OK;
    } else {
        bad = fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0
                  ? cli_fail("cannot write to standard output")
                  : CLI_EXIT_OK;
    }
    /* The list comes from open_memstream (free), the others from the library (tally_free). */
    if (strcmp(format, "json") == 0 || strcmp(format, "csv") == 0)
        tally_free(text);
    else
        free(text);
    return bad;
}

static int whole_number(size_t *out, const char *option, const char *value)
{
    char *end = NULL;
    long long n = strtoll(value, &end, 10);
    if (end == value || *end != '\0' || n <= 0)
        return cli_usage_error("query", "%s needs a whole number > 0, not '%s'", option, value);
    *out = (size_t)n;
    return CLI_EXIT_OK;
}

int cmd_query(int argc, char **argv)
{
    static const struct option options[] = {
        {"db", required_argument, NULL, 'd'},      {"branch", required_argument, NULL, 'b'},
        {"commit", required_argument, NULL, 'c'},  {"machine", required_argument, NULL, 'm'},
        {"label", required_argument, NULL, 'l'},   {"benchmark", required_argument, NULL, 'B'},
        {"case", required_argument, NULL, 'K'},    {"since", required_argument, NULL, 's'},
        {"until", required_argument, NULL, 'u'},   {"id", required_argument, NULL, 'i'},
        {"latest", no_argument, NULL, 'L'},        {"limit", required_argument, NULL, 'n'},
        {"select", required_argument, NULL, 'S'},  {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},  {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    tally_store_query q = TALLY_STORE_QUERY_INIT;
    const char *db = NULL, *format = "list", *output = NULL;
    char *select = NULL;
    optind = 1;
    opterr = 0;
    int c, rc = CLI_EXIT_OK;
    size_t n;
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "f:o:h", options, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(query_help, stdout);
            free(select);
            return CLI_EXIT_OK;
        case 'd': db = optarg; break;
        case 'b': q.branch = optarg; break;
        case 'c': q.commit = optarg; break;
        case 'm': q.machine = optarg; break;
        case 'l': q.label = optarg; break;
        case 'B': q.benchmark = optarg; break;
        case 'K': q.case_name = optarg; break;
        case 's': q.since = optarg; break;
        case 'u': q.until = optarg; break;
        case 'L': q.limit = 1; break;
        case 'f': format = optarg; break;
        case 'o': output = optarg; break;
        case 'i':
            rc = whole_number(&n, "--id", optarg);
            q.id = (long long)n;
            break;
        case 'n':
            rc = whole_number(&q.limit, "--limit", optarg);
            break;
        case 'S':
            free(select);
            select = strdup(optarg);
            rc = select ? cli_store_query_parse(&q, select, "query") : cli_fail("out of memory");
            break;
        default:
            rc = cli_usage_error("query", "unknown or incomplete option '%s'", argv[optind - 1]);
            break;
        }
    }
    const char *location = cli_store_location(db);
    if (rc == CLI_EXIT_OK && location == NULL)
        rc = cli_usage_error("query", "missing --db STORE (or TALLY_DB)");
    if (rc == CLI_EXIT_OK && optind < argc)
        rc = cli_usage_error("query", "unexpected argument '%s'", argv[optind]);
    if (rc == CLI_EXIT_OK && strcmp(format, "list") != 0 && strcmp(format, "json") != 0 &&
        strcmp(format, "csv") != 0)
        rc = cli_usage_error("query", "--format takes list, json or csv, not '%s'", format);
    tally_store *store = NULL;
    tally_results *found = NULL;
    if (rc == CLI_EXIT_OK && (tally_store_open(&store, location, NULL) != TALLY_OK ||
                              tally_results_new(&found) != TALLY_OK ||
                              tally_store_select(found, store, &q) != TALLY_OK))
        rc = cli_fail_library();
    if (rc == CLI_EXIT_OK)
        rc = emit(found, format, output);
    tally_results_free(found);
    tally_store_close(store);
    free(select);
    return rc;
}
