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
    "      --statistic STAT      amean, hmean, gmean, median, min, max, bamean, default\n"
    "      --confidence C        confidence level of intervals (default 0.95)\n"
    "      --percentile METHOD   linear (default, R type 7) or nearest-rank\n"
    "      --filter GLOB         keep rows whose BENCHMARK/CASE matches GLOB\n"
    "      --from KIND           input kind instead of detection\n"
    CLI_INPUT_OPTIONS_HELP
    "      --color WHEN          auto (default), always, never\n"
    "      --hist                after the text report, a compact distribution of every\n"
    "                            case (one line per configuration, terminal-wide)\n"
    "      --ascii               draw --hist with ASCII (the default outside UTF-8 locales)\n"
    CLI_PRESENTATION_HELP
    "      --diagnose            diagnostics notes (trend, warm-up, autocorrelation, step,\n"
    "                            modes, outliers) in the mmtests, normalized and pct styles\n"
    "                            too (the table style and Markdown always show them)\n"
    "      --expect-diff KEY     the configurations are meant to differ in metadata KEY\n"
    "                            (e.g. kernel, governor, param.*): no warning for it\n"
    "      --max-length N        Markdown: at most N bytes (default 65536, GitHub's comment\n"
    "                            limit; 'none': no limit), leaving out the least important\n"
    "                            rows and notes first, and saying so at the top\n"
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 2 usage or input error.\n";

int cmd_summary(int argc, char **argv)
{
    cli_report_command cmd = {.name = "summary", .allow_gate = 0};
    tally_report *report = NULL;
    int rc = cli_build_report(&report, &cmd, summary_help, argc, argv);
    if (rc != CLI_EXIT_OK || report == NULL)
        return rc;
    rc = cli_emit_report(report, &cmd.args);
    tally_report_free(report);
    return rc;
}
