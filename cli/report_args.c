/* Command-line parsing shared by the subcommands that build a report (compare, summary). */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_args.h"

/* Long options of every report-building command; `extra` commands add theirs after these. */
static const struct option report_options[] = {
    {"style", required_argument, NULL, 's'},
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"statistic", required_argument, NULL, 'S'},
    {"test", required_argument, NULL, 't'},
    {"alpha", required_argument, NULL, 'a'},
    {"confidence", required_argument, NULL, 'C'},
    {"adjust", required_argument, NULL, 'A'},
    {"percentile", required_argument, NULL, 'P'},
    {"filter", required_argument, NULL, 'F'},
    CLI_INPUT_LONG_OPTIONS,
    {"color", required_argument, NULL, 'c'},
    {"fail-on-regression", required_argument, NULL, 'R'},
    {"equivalence", required_argument, NULL, 'E'},
    {"power", required_argument, NULL, 'W'},
    {"mde", required_argument, NULL, 'M'},
    {"gate-bound", required_argument, NULL, 'G'},
    {"fail-on-inconclusive", no_argument, NULL, 'I'},
    {"hist", no_argument, NULL, 'H'},
    {"ascii", no_argument, NULL, 'X'},
    /* Past the letters: long-only options. */
    {"diagnose", no_argument, NULL, 1001},
    {"expect-diff", required_argument, NULL, 1002},
    {"noise", required_argument, NULL, 1005},
    {"only-changed", no_argument, NULL, 1701},
    {"max-length", required_argument, NULL, 1702},
    {"precision", required_argument, NULL, 1003},
    {"only-statistic", no_argument, NULL, 1004},
    {"case-label", required_argument, NULL, 1805},
    {"units-text", required_argument, NULL, 1806},
    {"case-strip", required_argument, NULL, 1807},
    {"case-width", required_argument, NULL, 1808},
    {"case-gap", required_argument, NULL, 1809},
    {"title-indent", required_argument, NULL, 1810},
    {"print-ratio", no_argument, NULL, 1008},
    {"system", no_argument, NULL, 1009},
    {"width", required_argument, NULL, 1010},
    {"bisect", required_argument, NULL, 1011},
    {"case-map", required_argument, NULL, 1811},
    {"pair-by", required_argument, NULL, 1812},
    {"allow-missing", no_argument, NULL, 1813},
    {"baseline", required_argument, NULL, 2801},
    {"per-run", required_argument, NULL, 3201},
    {"independent-requests", no_argument, NULL, 3202},
    {"resamples", required_argument, NULL, 3203},
    {"seed", required_argument, NULL, 3204},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Every field of `cmd` but its name and allow_gate at its default. */
static void command_defaults(cli_report_command *cmd)
{
    cli_report_args init = {TALLY_REPORT_OPTIONS_INIT, TALLY_RENDER_OPTIONS_INIT, NULL, "auto",
                            TALLY_INPUT_AUTO, TALLY_LOAD_OPTIONS_INIT, 0};
    cmd->args = init;
    cmd->fail_on_regression = -1.0;
    cmd->bisect = -1.0;
    cmd->fail_on_inconclusive = 0;
    cmd->gate_bound = TALLY_GATE_POINT;
    cmd->inputs = NULL;
    cmd->input_count = 0;
    cmd->help = 0;
    cmd->expect_diff[0] = '\0';
    cmd->expect_diff_len = 0;
    cmd->per_benchmark_count = 0;
    cmd->noise = NULL;
    cmd->case_map[0] = '\0';
    cmd->case_map_len = 0;
    cmd->allow_missing = 0;
}

/* What a helper below answers for an option that is not one of its own. */
enum { NOT_MINE = -1 };

/* The comparison's options: the gate's (--fail-on-inconclusive, --gate-bound, --equivalence,
 * --mde, --power, --bisect, --fail-on-regression) and --baseline. */
static int gate_option(cli_report_command *cmd, int c, const char *name, const char *arg)
{
    if (c == 'I') {
        cmd->fail_on_inconclusive = 1;
        return CLI_EXIT_OK;
    }
    if (c == 'G') {
        if (strcmp(arg, "point") == 0)
            cmd->gate_bound = TALLY_GATE_POINT;
        else if (strcmp(arg, "near") == 0)
            cmd->gate_bound = TALLY_GATE_NEAR;
        else
            return cli_usage_error(cmd->name, "--gate-bound takes point or near, not '%s'",
                                   arg);
        return CLI_EXIT_OK;
    }
    if (c == 'E' || c == 'M' || c == 'W') {
        char *end = NULL;
        double v = strtod(arg, &end);
        int ok = end != arg && *end == '\0' &&
                 (c == 'W' ? v > 0.0 && v < 1.0 : v > 0.0 && v < 100.0);
        if (!ok && c == 'W')
            return cli_usage_error(cmd->name, "--power needs a number between 0 and 1, not "
                                              "'%s'", arg);
        if (!ok)
            return cli_usage_error(cmd->name, "--%s needs a percentage between 0 and 100, "
                                              "not '%s'", name, arg);
        if (c == 'E')
            cmd->args.report.equivalence_pct = v;
        else if (c == 'M')
            cmd->args.report.mde_pct = v;
        else
            cmd->args.report.power = v;
        return CLI_EXIT_OK;
    }
    if (c == 1011) {
        char *end = NULL;
        double pct = strtod(arg, &end);
        if (end == arg || *end != '\0' || !(pct >= 0.0))
            return cli_usage_error(cmd->name, "--bisect needs a percentage >= 0, not '%s'",
                                   arg);
        cmd->bisect = pct;
        return CLI_EXIT_OK;
    }
    if (c == 'R') {
        char *end = NULL;
        double pct = strtod(arg, &end);
        if (end == arg || *end != '\0' || !(pct >= 0.0))
            return cli_usage_error(cmd->name,
                                   "--fail-on-regression needs a percentage >= 0, not '%s'",
                                   arg);
        cmd->fail_on_regression = pct;
        return CLI_EXIT_OK;
    }
    if (c == 2801) {
        cmd->args.report.baseline = arg;
        return CLI_EXIT_OK;
    }
    return NOT_MINE;
}

static int whole_number(long *out, const char *text, long lo, long hi);

/* The levels of histogram runs (docs/statistics.md, "Histogram runs"): --per-run STAT, else
 * pooled with --independent-requests, --resamples and --seed of the cluster bootstrap. */
static int level_option(cli_report_command *cmd, int c, const char *arg)
{
    tally_report_options *o = &cmd->args.report;
    long v;
    if (c == 3201) {
        if (tally_statistic_parse(&o->per_run, &o->per_run_percentile, arg) != TALLY_OK)
            return cli_library_usage_error(cmd->name);
        if (o->per_run == TALLY_STAT_DEFAULT)
            return cli_usage_error(cmd->name, "--per-run needs a statistic of each run (p99, "
                                              "median, amean, ...), not '%s'", arg);
    } else if (c == 3202) {
        o->independent_requests = 1;
    } else if (c == 3203) {
        if (!whole_number(&v, arg, 100, 10000000))
            return cli_usage_error(cmd->name, "--resamples needs a whole number from 100 to "
                                              "10000000, not '%s'", arg);
        o->resamples = (size_t)v;
    } else if (c == 3204) {
        char *end = NULL;
        unsigned long long seed = strtoull(arg, &end, 10);
        if (end == arg || *end != '\0' || arg[0] == '-')
            return cli_usage_error(cmd->name, "--seed needs a whole number >= 0, not '%s'", arg);
        o->seed = (uint64_t)seed;
    } else {
        return NOT_MINE;
    }
    return CLI_EXIT_OK;
}

/* The options that accumulate (--expect-diff keys, --case-map rules) and the pairing ones. */
static int pairing_option(cli_report_command *cmd, int c, const char *name, const char *arg)
{
    if (c == 1002 || c == 1811) {
        /* Repeatable: the keys accumulate into one comma-separated list, the rules of
         * case_map into one per line. */
        int keys = c == 1002;
        if (!keys && strchr(arg, '\n') != NULL)
            return cli_usage_error(cmd->name, "--case-map: a rule holds no newline");
        char *list = keys ? cmd->expect_diff : cmd->case_map;
        size_t *len = keys ? &cmd->expect_diff_len : &cmd->case_map_len;
        size_t cap = keys ? sizeof cmd->expect_diff : sizeof cmd->case_map;
        size_t have = *len, add = strlen(arg);
        if (have + add + 2 > cap)
            return cli_usage_error(cmd->name, "--%s: too many %s", name,
                                   keys ? "keys" : "rules");
        if (have)
            list[have++] = keys ? ',' : '\n';
        memcpy(list + have, arg, add + 1);
        *len = have + add;
        if (keys)
            cmd->args.report.expect_diff = list;
        else
            cmd->args.report.case_map = list;
        return CLI_EXIT_OK;
    }
    if (c == 1812) {
        if (tally_pair_by_from_name(&cmd->args.report.pair_by, arg) != TALLY_OK)
            return cli_library_usage_error(cmd->name);
        return CLI_EXIT_OK;
    }
    if (c == 1813) {
        cmd->allow_missing = 1;
        return CLI_EXIT_OK;
    }
    if (c == 1005) {
        tally_noise_free(cmd->noise);
        cmd->noise = NULL;
        if (tally_noise_load(&cmd->noise, arg) != TALLY_OK)
            return cli_fail_library();
        cmd->args.report.noise = cmd->noise;
        return CLI_EXIT_OK;
    }
    return NOT_MINE;
}

/* 1 when `text` is a whole number from lo to hi, stored in *out. */
static int whole_number(long *out, const char *text, long lo, long hi)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* The options of the rendered layout: --only-changed, --max-length, --precision, the column
 * texts and widths, --width, --hist, --ascii, --diagnose. */
static int render_option(cli_report_command *cmd, int c, const char *name, const char *arg)
{
    if (c == 1701) {
        cmd->args.render.only_changed = 1;
        return CLI_EXIT_OK;
    }
    if (c == 1702) {
        long v = -1;
        if (strcmp(arg, "none") != 0 && !whole_number(&v, arg, 1, LONG_MAX))
            return cli_usage_error(cmd->name, "--max-length needs a number of bytes >= 1 "
                                              "or 'none', not '%s'", arg);
        cmd->args.render.max_length = v;
        return CLI_EXIT_OK;
    }
    if (c == 1003) {
        long n;
        if (!whole_number(&n, arg, 0, 17))
            return cli_usage_error(cmd->name, "--precision needs a number of decimals from 0 "
                                              "to 17, not '%s'", arg);
        cmd->args.render.precision = (int)n;
        return CLI_EXIT_OK;
    }
    if (c == 1004 || c == 1008 || c == 1009) {
        if (c == 1004)
            cmd->args.render.only_statistic = 1;
        else if (c == 1008)
            cmd->args.render.print_ratio = 1;
        else
            cmd->args.render.system = 1;
        return CLI_EXIT_OK;
    }
    if (c >= 1805 && c <= 1810) {
        /* TEXT for every benchmark, or BENCH=TEXT for one (settled after loading); the
         * column counts always go through the metadata. */
        static const char *const keys[] = {"case_label", "units_text", "case_strip",
                                           "case_width", "case_gap", "title_indent"};
        const char *key = keys[c - 1805];
        if (c >= 1808) {
            const char *eq = strrchr(arg, '='), *n = eq ? eq + 1 : arg;
            long v, min = c == 1810 ? 0 : 1;
            if (!whole_number(&v, n, min, 1000))
                return cli_usage_error(cmd->name, "--%s needs [BENCH=]N with N a number of "
                                                  "columns from %ld to 1000, not '%s'",
                                       name, min, arg);
        }
        if (strchr(arg, '=') != NULL || c >= 1808) {
            if (cmd->per_benchmark_count == (int)COUNT(cmd->per_benchmark))
                return cli_usage_error(cmd->name, "--%s: too many BENCH=TEXT values", name);
            cmd->per_benchmark[cmd->per_benchmark_count].key = key;
            cmd->per_benchmark[cmd->per_benchmark_count++].spec = arg;
        } else if (c == 1805) {
            cmd->args.render.case_label = arg;
        } else if (c == 1806) {
            cmd->args.render.units_text = arg;
        } else {
            cmd->args.render.case_strip = arg;
        }
        return CLI_EXIT_OK;
    }
    if (c == 1010) {
        long n;
        if (!whole_number(&n, arg, 20, 10000))
            return cli_usage_error(cmd->name, "--width needs a number of columns from 20 to "
                                              "10000, not '%s'", arg);
        cmd->args.width = (int)n;
        return CLI_EXIT_OK;
    }
    if (c == 'H' || c == 'X' || c == 1001) {
        if (c == 'H')
            cmd->args.render.histogram = 1;
        else if (c == 'X')
            cmd->args.render.ascii = 1;
        else
            cmd->args.render.diagnose = 1;
        return CLI_EXIT_OK;
    }
    return NOT_MINE;
}

int cli_parse_report_command(cli_report_command *cmd, int argc, char **argv)
{
    command_defaults(cmd);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "s:f:o:t:a:h", report_options, NULL)) != -1) {
        if (c == 'h') {
            cmd->help = 1;
            return CLI_EXIT_OK;
        }
        if (c == '?' || c == ':') {
            const char *bad = argv[optind - 1];
            if (optopt && strchr("sfota", optopt))
                return cli_usage_error(cmd->name, "option -%c needs a value", optopt);
            return cli_usage_error(cmd->name, "unknown or incomplete option '%s'", bad);
        }
        const char *name = NULL;
        for (const struct option *o = report_options; o->name; o++)
            if (o->val == c)
                name = o->name;
        if (!cmd->allow_gate && (c == 1701 || c == 1005 || (c >= 1811 && c <= 1813) || c == 1011 ||
                                 (c < 256 && strchr("taAREWMGI", c))))
            return cli_usage_error(cmd->name, "option '--%s' is for 'tally compare'", name);
        int rc = gate_option(cmd, c, name, optarg);
        if (rc == NOT_MINE)
            rc = pairing_option(cmd, c, name, optarg);
        if (rc == NOT_MINE)
            rc = render_option(cmd, c, name, optarg);
        if (rc == NOT_MINE)
            rc = level_option(cmd, c, optarg);
        if (rc == CLI_EXIT_USAGE)
            return rc;
        if (rc == CLI_EXIT_OK)
            continue;
        int input = c == CLI_DB_OPTION || c == CLI_RUNS_OPTION || c == CLI_SAMPLES_OPTION ||
                    c == CLI_COLUMNS_OPTION || (c < 256 && strchr("BKYUDQ", c));
        rc = input ? cli_input_option(&cmd->args.load, cmd->name, name, optarg)
             : cli_report_option(&cmd->args, cmd->name, name, optarg);
        if (rc == CLI_EXIT_USAGE)
            return rc;
    }
    cmd->inputs = argv + optind;
    cmd->input_count = argc - optind;
    return cli_report_finish(&cmd->args, cmd->name);
}

static int build_report(tally_report **out, cli_report_command *cmd, const char *help, int argc,
                        char **argv)
{
    *out = NULL;
    int rc = cli_parse_report_command(cmd, argc, argv);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (cmd->help) {
        cli_help(help);
        return CLI_EXIT_OK;
    }
    if (cmd->input_count < 1)
        return cli_usage_error(cmd->name, "missing input files");
    rc = cli_check_output(cmd->name, cmd->args.output, cmd->inputs, cmd->input_count);
    if (rc != CLI_EXIT_OK)
        return rc;

    tally_results *results = NULL;
    rc = cli_load_inputs(&results, cmd->inputs, cmd->input_count, &cmd->args.load);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* BENCH=TEXT presentation values: the baseline's metadata, which the report reads; a
     * BENCH that names no benchmark of the baseline means the '=' belongs to the text. */
    for (int i = 0; i < cmd->per_benchmark_count; i++) {
        const char *spec = cmd->per_benchmark[i].spec, *field = cmd->per_benchmark[i].key;
        const char *eq = strchr(spec, '=');
        tally_resultset *base = tally_results_count(results) ? tally_results_at(results, 0) : NULL;
        char key[512], bench[256] = "";
        size_t n = eq ? (size_t)(eq - spec) : 0;
        int named = base && eq && n < sizeof bench;
        if (named) {
            memcpy(bench, spec, n);
            bench[n] = '\0';
            named = tally_resultset_benchmark_find(base, bench) != NULL;
        }
        int columns = strcmp(field, "case_width") == 0 || strcmp(field, "case_gap") == 0 ||
                      strcmp(field, "title_indent") == 0;
        if (!named && eq && columns) {
            tally_results_free(results);
            return cli_usage_error(cmd->name, "--%s %s: the baseline has no benchmark '%.*s'",
                                   strcmp(field, "case_width") == 0 ? "case-width"
                                   : strcmp(field, "case_gap") == 0 ? "case-gap"
                                                                    : "title-indent",
                                   spec, (int)n, spec);
        }
        snprintf(key, sizeof key, named ? "report.%s.%s" : "report.%.0s%s", bench, field);
        if (base && tally_resultset_meta_set(base, key, named ? eq + 1 : spec) != TALLY_OK) {
            tally_results_free(results);
            return cli_fail_library();
        }
    }
    size_t configurations = tally_results_count(results);
    if (cmd->allow_gate && configurations < 2) {
        tally_results_free(results);
        return cli_fail("compare needs at least two configurations (found %zu); for one, use "
                        "'tally summary'", configurations);
    }
    cmd->args.report.summaries_only = !cmd->allow_gate;
    /* Only the formats that show the raw samples (the library's table says which) and text
     * histograms need them: other outputs need no copy. */
    cmd->args.report.omit_samples = !cli_format_info(cmd->args.render.format).needs_samples &&
                                    !cmd->args.render.histogram;
    rc = tally_report_new(out, results, &cmd->args.report);
    tally_results_free(results);
    if (rc != TALLY_OK)
        return cli_fail_library();
    /* Configurations measured differently: said on stderr too, so a script sees it. */
    size_t differ = tally_report_env_diff_count(*out);
    for (size_t i = 0; i < differ; i++)
        fprintf(stderr, "tally: warning: the configurations differ in '%s' (--expect-diff %s "
                        "if that is the point)\n", tally_report_env_diff_key(*out, i),
                tally_report_env_diff_key(*out, i));
    return CLI_EXIT_OK;
}

int cli_run_report(tally_report **out, cli_report_command *cmd, const char *help, int argc,
                   char **argv)
{
    int rc = build_report(out, cmd, help, argc, argv);
    /* The report copied the margins of --noise. */
    tally_noise_free(cmd->noise);
    cmd->noise = NULL;
    cmd->args.report.noise = NULL;
    if (rc == CLI_EXIT_OK && *out != NULL)
        rc = cli_emit_report(*out, &cmd->args);
    return rc;
}
