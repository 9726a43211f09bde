/* tally calibrate: the A/A noise profile of two result sets of one build (or of one set's
 * interleaved halves), printed and written with -o for `tally compare --noise FILE`. */
#include <stdio.h>

#include "cli.h"
#include "report_args.h"

static const char calibrate_help[] =
    "Usage: tally calibrate [OPTIONS] A [B]\n"
    "\n"
    "Measure this machine's run-to-run noise: compare two result sets of the same build\n"
    "(A/A), or one result set's runs split into interleaved halves (runs 1, 3, 5, ...\n"
    "against 2, 4, 6, ...), and give per benchmark the false-positive rate observed, the\n"
    "spread of the A/A change and the noise floor (the widest A/A interval end). With -o,\n"
    "write them as a noise profile for 'tally compare --noise FILE'.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE         write the noise profile (JSON, docs/statistics.md) to FILE\n"
    "      --statistic STAT      as for compare\n"
    "  -t, --test TEST           as for compare (default auto)\n"
    "  -a, --alpha A             significance level of the A/A tests (default 0.05)\n"
    "      --confidence C        confidence level of the A/A intervals (default 0.95)\n"
    "      --filter GLOB         keep rows whose BENCHMARK/CASE matches GLOB\n"
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 2 usage or input error.\n";

int cmd_calibrate(int argc, char **argv)
{
    cli_report_command cmd = {.name = "calibrate", .allow_gate = 1};
    int rc = cli_parse_report_command(&cmd, argc, argv);
    tally_noise_free(cmd.noise); /* --noise means nothing to a calibration */
    cmd.args.report.noise = NULL;
    if (rc != CLI_EXIT_OK)
        return rc;
    if (cmd.help) {
        fputs(calibrate_help, stdout);
        return CLI_EXIT_OK;
    }
    if (cmd.input_count < 1 || cmd.input_count > 2)
        return cli_usage_error("calibrate", "needs one or two result files (A [B])");
    rc = cli_check_output("calibrate", cmd.args.output, cmd.inputs, cmd.input_count);
    if (rc != CLI_EXIT_OK)
        return rc;
    tally_results *results = NULL;
    rc = cli_load_inputs(&results, cmd.inputs, cmd.input_count, &cmd.args.load);
    if (rc != CLI_EXIT_OK)
        return rc;
    tally_noise *noise = NULL;
    int lrc = tally_calibrate(&noise, results, &cmd.args.report);
    tally_results_free(results);
    if (lrc != TALLY_OK)
        return cli_fail_library();
    printf("%-24s %5s %6s %8s %9s %9s %6s\n", "benchmark", "rows", "signif", "FP rate",
           "rms %", "floor %", "runs");
    for (size_t i = 0; i < tally_noise_benchmark_count(noise); i++) {
        tally_noise_benchmark b = { .size = sizeof b };
        tally_noise_benchmark_at(&b, noise, i);
        printf("%-24s %5zu %6zu %8.3f %9.3f %9.3f %6zu\n", b.name, b.rows, b.significant,
               b.false_positive_rate, b.pct_rms, b.margin_pct, b.min_runs);
    }
    printf("\nFP rate: A/A rows significant at alpha %g (each a false alarm; alpha is what the\n"
           "test promises); rms: root mean square of the A/A pct change; floor: the widest\n"
           "end of the A/A %g%% intervals, the margin 'tally compare --noise' uses.\n",
           cmd.args.report.alpha, cmd.args.report.confidence * 100);
    if (cmd.args.output && tally_noise_save(noise, cmd.args.output) != TALLY_OK) {
        tally_noise_free(noise);
        return cli_fail_library();
    }
    tally_noise_free(noise);
    return cli_finish_stdout(CLI_EXIT_OK);
}
