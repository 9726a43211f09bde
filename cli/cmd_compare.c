/* tally compare: the comparison report of a baseline and one or more new configurations. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report_args.h"

/* One stderr line per row the gate could not judge (at most 20, then a count). */
static void cli_print_unjudged(const tally_report *report)
{
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < tally_report_row_count(report); i++) {
        tally_report_row row = { .size = sizeof row };
        if (tally_report_row_at(&row, report, i) != TALLY_OK)
            continue;
        for (size_t j = 1; j < tally_report_config_count(report); j++) {
            tally_comparison comparison = { .size = sizeof comparison };
            if (tally_report_cell_comparison(&comparison, report, i, j) != TALLY_OK)
                continue;
            const tally_comparison *c = &comparison;
            if (c->verdict != TALLY_VERDICT_INSUFFICIENT &&
                c->verdict != TALLY_VERDICT_INCONCLUSIVE && c->verdict != TALLY_VERDICT_NOT_TESTED)
                continue;
            if (shown == 20) {
                more++;
                continue;
            }
            shown++;
            /* The pooled level of histogram runs counts requests (its test is over runs). */
            fprintf(stderr, "tally:   %s/%s, %s: %s, %+.2f%% with %zu and %zu %s",
                    row.benchmark, row.case_name, tally_report_config_label(report, j),
                    tally_verdict_name(c->verdict), c->pct_imp, c->base_n, c->new_n,
                    c->test == TALLY_TEST_CLUSTER_BOOTSTRAP ? "requests" : "runs");
            if (c->runs_needed > 0 && c->runs_needed <= 10000000)
                fprintf(stderr, "; needs ~%zu runs per side to resolve +-%g %%", c->runs_needed,
                        c->runs_target_pct);
            fputc('\n', stderr);
        }
    }
    if (more)
        fprintf(stderr, "tally:   and %zu more\n", more);
}

/* What did not pair, on stderr: nothing compared at all, or baseline rows without a partner
 * (listed, at most 20). With a gate that cannot judge them it fails (status 1) unless
 * --allow-missing; without one, nothing compared is still said. Returns the new status. */
static int cli_check_pairing(const tally_report *report, int gate, int allow_missing, int rc)
{
    size_t configs = tally_report_config_count(report), compared = 0, missing = 0;
    for (size_t j = 1; j < configs; j++) {
        tally_pairing p = { .size = sizeof p };
        if (tally_report_pairing(&p, report, j) != TALLY_OK)
            return cli_fail_library();
        compared += p.compared;
        missing += p.missing;
    }
    const char *base = tally_report_config_label(report, 0);
    const char *hint = "rows pair by benchmark and case name: --case-map FROM=TO or "
                       "--pair-by position pairs renamed cases";
    int fails = gate && !allow_missing;
    if (compared == 0) {
        fprintf(stderr, "tally: %snothing compared: no row of %s pairs with a row of %s%s\n",
                fails ? "" : "warning: ",
                configs == 2 ? tally_report_config_label(report, 1) : "the other configurations",
                base,
                gate ? (fails ? "; the gate cannot judge (--allow-missing to pass)"
                              : " (--allow-missing)")
                     : "");
        fprintf(stderr, "tally:   %s\n", hint);
        return fails ? CLI_EXIT_FINDING : rc;
    }
    if (missing == 0 || !gate)
        return rc;
    fprintf(stderr, "tally: %s%zu row%s of %s without a partner%s\n", fails ? "" : "warning: ",
            missing, missing == 1 ? "" : "s", base,
            fails ? "; the gate cannot judge them (--allow-missing to pass)"
                  : " (--allow-missing)");
    size_t shown = 0;
    for (size_t i = 0; i < tally_report_row_count(report); i++) {
        tally_report_row row = { .size = sizeof row };
        if (tally_report_row_at(&row, report, i) != TALLY_OK)
            continue;
        tally_report_cell bc = { .size = sizeof bc };
        if (tally_report_cell_at(&bc, report, i, 0) != TALLY_OK || !bc.present)
            continue;
        for (size_t j = 1; j < configs; j++) {
            tally_report_cell cell = { .size = sizeof cell };
            if (tally_report_cell_at(&cell, report, i, j) != TALLY_OK || cell.present)
                continue;
            if (shown++ < 20)
                fprintf(stderr, "tally:   %s has no %s/%s\n", tally_report_config_label(report, j),
                        row.benchmark, row.case_name);
        }
    }
    if (shown > 20)
        fprintf(stderr, "tally:   and %zu more\n", shown - 20);
    fprintf(stderr, "tally:   %s\n", hint);
    return fails ? CLI_EXIT_FINDING : rc;
}

static const char compare_help[] =
    "Usage: tally compare [OPTIONS] BASE NEW...\n"
    "       tally compare [OPTIONS] FILE   (one file holding several configurations)\n"
    "\n"
    "Compare benchmark results: the first configuration (or --baseline) is the baseline.\n"
    "Each input is a file (native JSON, CSV/TSV, plain numbers, or another harness's file)\n"
    "or LABEL=FILE; a file may hold several configurations (hyperfine's commands).\n"
    "\n"
    "Options:\n"
    "  -s, --style STYLE         text layout: table (default), mmtests, normalized, pct\n"
    "  -f, --format FORMAT       text (default), json, csv, md, xlsx, html\n"
    "  -o, --output FILE         write to FILE (atomically) instead of standard output\n"
    "      --statistic STAT      amean, hmean, gmean, median, min, max, bamean, default,\n"
    "                            pNN (a percentile: p50, p90, p99, p99.9)\n"
    "                            (default: each benchmark's own, else amean when lower is\n"
    "                            better and hmean when higher is better)\n"
    "  -t, --test TEST           auto (default: the test of each row's statistic: Welch on\n"
    "                            x, 1/x or log x for AMean, HMean, GMean, Price-Bonett for\n"
    "                            Median; Min, Max, BAmean untested), welch, student,\n"
    "                            mann-whitney, price-bonett, mmtests-ci, none\n"
    "  -a, --alpha A             significance level (default 0.05)\n"
    "      --confidence C        confidence level of intervals (default 0.95)\n"
    "      --adjust METHOD       multiple-comparison adjustment: none (default), holm,\n"
    "                            bh, bonferroni; intervals at the adjusted levels\n"
    "      --percentile METHOD   linear (default, R type 7), nearest-rank (type 1) or\n"
    "                            harrell-davis (hd; percentile rows)\n"
    "      --per-run STAT        histogram runs: each run reduced to STAT of its requests\n"
    "                            (p99, median, ...), then the statistic over runs; default:\n"
    "                            every request pooled, with a cluster bootstrap over runs\n"
    "      --independent-requests  pooled histogram runs: take requests as independent\n"
    "      --resamples N         cluster bootstrap resamples (default 2000)\n"
    "      --seed N              cluster bootstrap seed (default 1)\n"
    "      --filter GLOB         keep rows whose BENCHMARK/CASE matches GLOB\n"
    "      --baseline LABEL      compare with configuration LABEL (default: the first)\n"
    CLI_FROM_KINDS_HELP
    CLI_INPUT_OPTIONS_HELP
    "      --color WHEN          auto (default: on a terminal, unless NO_COLOR is set),\n"
    "                            always, never\n"
    "      --equivalence PCT     equivalence margin: a row whose 1 - 2 alpha interval lies\n"
    "                            inside +-PCT %% is equivalent (two one-sided tests)\n"
    "      --noise FILE          a noise profile (tally calibrate): each benchmark it lists\n"
    "                            takes its noise floor as the equivalence margin (unless\n"
    "                            --equivalence) and the gate ignores losses within it\n"
    "      --power P             power of the minimum detectable effect (default 0.8)\n"
    "      --mde PCT             effect the runs needed refer to (default: the margin)\n"
    "      --fail-on-regression PCT\n"
    "                            exit with status 1 when a row is a significant\n"
    "                            regression larger than PCT percent\n"
    "      --gate-bound WHICH    what --fail-on-regression compares: point (default, the\n"
    "                            estimate) or near (the interval's bound nearest 0)\n"
    "      --bisect PCT          for git bisect run: exit 0 (good) when no row can hold a\n"
    "                            regression beyond PCT percent (every interval excludes it),\n"
    "                            1 (bad) when one is a significant regression beyond PCT,\n"
    "                            125 (cannot judge: skip) otherwise and on any usage or\n"
    "                            input error\n"
    "      --fail-on-inconclusive\n"
    "                            exit with status 1 when a row is insufficient or\n"
    "                            inconclusive\n"
    "      --allow-missing       a gate passes although a baseline row has no partner or\n"
    "                            nothing was compared (still said on stderr)\n"
    "      --case-map FROM=TO    pair the case FROM of the compared configurations with the\n"
    "                            baseline's case TO; or s/REGEX/REPL/ (POSIX extended,\n"
    "                            \\1..\\9 and & in REPL, any punctuation delimiter);\n"
    "                            repeatable, the first matching rule applies\n"
    "      --pair-by MODE        name (default: by benchmark and case name) or position\n"
    "                            (the i-th case of a benchmark with the baseline's i-th)\n"
    CLI_HIST_HELP
    CLI_PRESENTATION_HELP
    CLI_DIAGNOSE_HELP
    "      --only-changed        Markdown: tables keep the rows with a significant change,\n"
    "                            the others fold into <details> below each table\n"
    CLI_MAX_LENGTH_HELP
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 1 a significant regression beyond --fail-on-regression (or,\n"
    "with --fail-on-inconclusive, a row that cannot be judged; with either gate, nothing\n"
    "compared or a baseline row without a partner unless --allow-missing), 2 usage or\n"
    "input error; with --bisect: 0 good, 1 bad, 125 cannot judge.\n";

/* git bisect run's exit statuses: 125 skips a commit that cannot be tested. */
enum { BISECT_GOOD = 0, BISECT_BAD = 1, BISECT_SKIP = 125 };

static int bisect_requested(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--bisect") == 0 || strncmp(argv[i], "--bisect=", 9) == 0)
            return 1;
    return 0;
}

/* Bad: a row is a significant regression beyond pct. Good: no row's interval of the change
 * reaches a regression beyond pct, and every row was compared. Else it cannot be judged. */
static int bisect_verdict(const tally_report *report, double pct)
{
    size_t bad = 0, open = 0, missing = 0;
    for (size_t i = 0; i < tally_report_row_count(report); i++) {
        tally_report_row row = { .size = sizeof row };
        if (tally_report_row_at(&row, report, i) != TALLY_OK)
            return BISECT_SKIP;
        for (size_t j = 1; j < tally_report_config_count(report); j++) {
            tally_comparison c = { .size = sizeof c };
            if (tally_report_cell_comparison(&c, report, i, j) != TALLY_OK) {
                missing++;
                continue;
            }
            if (c.verdict == TALLY_VERDICT_REGRESSION && -c.pct_imp > pct) {
                bad++;
                fprintf(stderr, "tally:   %s/%s: %+.2f%% regression\n", row.benchmark,
                        row.case_name, c.pct_imp);
            } else if (!c.interval_defined || !(c.pct_low >= -pct)) {
                open++;
                fprintf(stderr, "tally:   %s/%s: %+.2f%%, interval %s%+.2f%% reaches beyond "
                                "-%g%%\n", row.benchmark, row.case_name, c.pct_imp,
                        c.interval_defined ? "from " : "undefined, ", c.interval_defined ? c.pct_low
                                                                                      : 0.0, pct);
            }
        }
    }
    if (bad) {
        fprintf(stderr, "tally compare --bisect: bad (%zu regression%s beyond %g%%)\n", bad,
                bad == 1 ? "" : "s", pct);
        return BISECT_BAD;
    }
    if (open || missing) {
        fprintf(stderr, "tally compare --bisect: cannot judge (%zu row%s could hide a regression "
                        "beyond %g%%, %zu not compared): skip\n", open, open == 1 ? "" : "s", pct,
                missing);
        return BISECT_SKIP;
    }
    fprintf(stderr, "tally compare --bisect: good (no regression beyond %g%%)\n", pct);
    return BISECT_GOOD;
}

/* The gate's worst regression, signed, with its interval, as a factor beyond -100 % (where a
 * percentage of loss no longer reads as one), and where it is: "-153.94% [-274.70, -80.66]
 * (2.54x slower): hyperfine ./b1/app in pr". */
static void print_worst(const tally_report *report, const tally_gate *g)
{
    tally_report_row row = {.size = sizeof row};
    tally_comparison cmp = {.size = sizeof cmp};
    if (g->worst_config == 0 || tally_report_row_at(&row, report, g->worst_row) != TALLY_OK ||
        tally_report_cell_comparison(&cmp, report, g->worst_row, g->worst_config) != TALLY_OK) {
        fprintf(stderr, "%.2f%%\n", g->worst_pct);
        return;
    }
    fprintf(stderr, "%+.2f%%", cmp.pct_imp);
    if (cmp.interval_defined)
        fprintf(stderr, " [%+.2f, %+.2f]", cmp.pct_low, cmp.pct_high);
    if (cmp.pct_imp <= -100.0)
        fprintf(stderr, " (%.2fx slower)", 1.0 - cmp.pct_imp / 100.0);
    fprintf(stderr, ": %s %s in %s\n", row.benchmark, row.case_name,
            tally_report_config_label(report, g->worst_config));
}

int cmd_compare(int argc, char **argv)
{
    cli_report_command cmd = {.name = "compare", .allow_gate = 1};
    tally_report *report = NULL;
    int rc = cli_run_report(&report, &cmd, compare_help, argc, argv);
    if (bisect_requested(argc, argv) && !cmd.help) {
        rc = rc == CLI_EXIT_OK && report != NULL ? bisect_verdict(report, cmd.bisect)
                                                 : BISECT_SKIP;
        tally_report_free(report);
        return rc;
    }
    if (report == NULL)
        return rc;
    int gate = cmd.fail_on_regression >= 0.0 || cmd.fail_on_inconclusive;
    if (rc == CLI_EXIT_OK)
        rc = cli_check_pairing(report, gate, cmd.allow_missing, rc);
    if (rc != CLI_EXIT_USAGE && gate) {
        tally_gate g = { .size = sizeof g };
        double threshold = cmd.fail_on_regression >= 0.0 ? cmd.fail_on_regression : 0.0;
        if (tally_report_gate(&g, report, threshold, cmd.gate_bound) != TALLY_OK)
            return tally_report_free(report), cli_fail_library();
        const char *measure = cmd.gate_bound == TALLY_GATE_NEAR ? " (the interval's near bound)"
                                                                : "";
        if (cmd.fail_on_regression >= 0.0 && g.regressions > 0) {
            fprintf(stderr, "tally: %zu significant regression%s beyond --fail-on-regression "
                            "%.2f%%%s, the worst ", g.regressions,
                    g.regressions == 1 ? "" : "s", cmd.fail_on_regression, measure);
            print_worst(report, &g);
            rc = CLI_EXIT_FINDING;
        }
        size_t unjudged = g.insufficient + g.inconclusive + g.not_tested;
        if (unjudged > 0) {
            fprintf(stderr, "tally: %zu of the compared rows cannot be judged (%zu insufficient, "
                            "%zu inconclusive, %zu not tested)%s\n", unjudged, g.insufficient,
                    g.inconclusive, g.not_tested,
                    cmd.fail_on_inconclusive ? "" : "; --fail-on-inconclusive makes that fail");
            cli_print_unjudged(report);
            if (cmd.fail_on_inconclusive)
                rc = CLI_EXIT_FINDING;
        }
    }
    tally_report_free(report);
    return rc;
}
