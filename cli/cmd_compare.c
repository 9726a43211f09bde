/* tally compare: the comparison report of a baseline and one or more new configurations. */
#include <stdio.h>

#include "cli.h"
#include "report_args.h"

static const char compare_help[] =
    "Usage: tally compare [OPTIONS] BASE NEW...\n"
    "       tally compare [OPTIONS] FILE   (one file holding several configurations)\n"
    "\n"
    "Compare benchmark results: the first configuration is the baseline. Each input is a\n"
    "file (native JSON, CSV/TSV, plain numbers, or another harness's file) or LABEL=FILE.\n"
    "\n"
    "Options:\n"
    "  -s, --style STYLE         text layout: table (default), mmtests, normalized, pct\n"
    "  -f, --format FORMAT       text (default), json, csv, md, xlsx, html\n"
    "  -o, --output FILE         write to FILE (atomically) instead of standard output\n"
    "      --statistic STAT      amean, hmean, gmean, median, min, max, bamean, default\n"
    "                            (default: each benchmark's own, else amean when lower is\n"
    "                            better and hmean when higher is better)\n"
    "  -t, --test TEST           welch (default), student, mann-whitney, mmtests-ci, none\n"
    "  -a, --alpha A             significance level (default 0.05)\n"
    "      --confidence C        confidence level of intervals (default 0.95)\n"
    "      --adjust METHOD       multiple-comparison adjustment: none (default), holm, bh\n"
    "      --percentile METHOD   linear (default, R type 7) or nearest-rank\n"
    "      --filter GLOB         keep rows whose BENCHMARK/CASE matches GLOB\n"
    "      --from KIND           input kind instead of detection (csv, tsv, json, plain,\n"
    "                            hyperfine, gbench, pyperf, gotest, hackbench, stream,\n"
    "                            schbench, netperf, tbench, journal)\n"
    "      --color WHEN          auto (default: on a terminal, unless NO_COLOR is set),\n"
    "                            always, never\n"
    "      --fail-on-regression PCT\n"
    "                            exit with status 1 when a row is a significant\n"
    "                            regression larger than PCT percent\n"
    "      --hist                after the text report, a compact distribution of every\n"
    "                            case (one line per configuration, terminal-wide)\n"
    "      --ascii               draw --hist with ASCII (the default outside UTF-8 locales)\n"
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 1 a significant regression beyond --fail-on-regression,\n"
    "2 usage or input error.\n";

int cmd_compare(int argc, char **argv)
{
    cli_report_command cmd = {.name = "compare", .allow_gate = 1};
    tally_report *report = NULL;
    int rc = cli_build_report(&report, &cmd, compare_help, argc, argv);
    if (rc != CLI_EXIT_OK || report == NULL)
        return rc;

    rc = cli_emit_report(report, &cmd.args);
    if (rc == CLI_EXIT_OK && cmd.fail_on_regression >= 0.0) {
        double worst = 0.0;
        if (tally_report_worst_regression(&worst, report) != TALLY_OK) {
            rc = cli_fail_library();
        } else if (worst > cmd.fail_on_regression) {
            fprintf(stderr,
                    "tally: significant regression of %.2f%% exceeds --fail-on-regression "
                    "%.2f%%\n", worst, cmd.fail_on_regression);
            rc = CLI_EXIT_FINDING;
        }
    }
    tally_report_free(report);
    return rc;
}
