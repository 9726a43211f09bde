/* tally summary: the statistics of each configuration on its own, no comparison. */
#include <stdio.h>

#include "cli.h"
#include "report_args.h"

static const char summary_help[] =
    "Usage: tally summary [OPTIONS] FILE...\n"
    "\n"
    "Summarise benchmark results: n, min, max, means, median, stddev, CV and confidence\n"
    "intervals per case, for every configuration of every input (LABEL=FILE names one).\n"
    "\n"
    "Options:\n"
    "  -s, --style STYLE         text layout: table (default), mmtests, normalized, pct\n"
    "  -f, --format FORMAT       text (default), json, csv, md, xlsx, html\n"
    "  -o, --output FILE         write to FILE (atomically) instead of standard output\n"
    "      --statistic STAT      amean, hmean, gmean, median, min, max, bamean, default,\n"
    "                            pNN (a percentile: p50, p90, p99, p99.9)\n"
    "      --confidence C        confidence level of intervals (default 0.95)\n"
    "      --percentile METHOD   linear (default, R type 7), nearest-rank (type 1) or\n"
    "                            harrell-davis (hd; percentile rows)\n"
    "      --per-run STAT        histogram runs: each run reduced to STAT of its requests\n"
    "                            (p99, median, ...), then the statistic over runs; default:\n"
    "                            every request pooled, with a cluster bootstrap over runs\n"
    "      --independent-requests  pooled histogram runs: take requests as independent\n"
    "      --resamples N         cluster bootstrap resamples (default 2000)\n"
    "      --seed N              cluster bootstrap seed (default 1)\n"
    "      --filter GLOB         keep rows whose BENCHMARK/CASE matches GLOB\n"
    "      --baseline LABEL      show configuration LABEL first\n"
    "      --from KIND           input kind instead of detection\n"
    CLI_INPUT_OPTIONS_HELP
    "      --color WHEN          auto (default), always, never\n"
    CLI_HIST_HELP
    CLI_PRESENTATION_HELP
    CLI_DIAGNOSE_HELP
    CLI_MAX_LENGTH_HELP
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 2 usage or input error.\n";

int cmd_summary(int argc, char **argv)
{
    cli_report_command cmd = {.name = "summary", .allow_gate = 0};
    tally_report *report = NULL;
    int rc = cli_run_report(&report, &cmd, summary_help, argc, argv);
    tally_report_free(report);
    return rc;
}
