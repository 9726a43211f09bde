/* tally history: the result sets as points of a history (in order, by a metadata key, or in a
 * repository's commit order), the change points of every (benchmark, case) series, and the CI
 * gate on a recent regression. docs/history.md. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

static const char history_help[] =
    "Usage: tally history [OPTIONS] SOURCE...\n"
    "\n"
    "Follow performance over commits: every result set (configuration) of the sources is\n"
    "one point, every benchmark/case a series, and each series' change points are found\n"
    "(E-divisive candidates, Welch's t on the runs of neighbouring levels; docs/history.md).\n"
    "Sources are files (a glob of per-commit files, one long-form CSV whose config column\n"
    "is the commit, native JSON, journals), each possibly LABEL=FILE.\n"
    "\n"
    "Options:\n"
    "  -f, --format FORMAT       text (default: one line per change point, newest first,\n"
    "                            then the series that changed), json, csv, md, html\n"
    "  -o, --output FILE         write to FILE (atomically) instead of standard output\n"
    "      --order-by KEY        order the points by metadata KEY (numbers by value, else\n"
    "                            as text: ISO times sort), instead of the order given\n"
    "      --git-order DIR       order the points as the commits of the repository DIR\n"
    "                            (git rev-list HEAD), each point's 'commit' metadata (or\n"
    "                            its label) a full or abbreviated hash\n"
    "      --filter GLOB         keep the series whose BENCHMARK/CASE matches GLOB\n"
    "      --alpha A             significance of a change after the correction for the\n"
    "                            splits tried (default 0.001)\n"
    "      --min-segment N       fewest points of a level (default 3; a shorter excursion\n"
    "                            is an outlier)\n"
    "      --min-change PCT      smallest change reported, percent (default 1)\n"
    "      --window N            points each side of a split the candidates look at\n"
    "                            (default 30)\n"
    "      --confidence C        level of the intervals (default 0.95)\n"
    "      --recent N            the newest N points are what --fail-on-regression and\n"
    "                            the Markdown look at (default: all)\n"
    "      --fail-on-regression PCT\n"
    "                            exit with status 1 when a regression larger than PCT\n"
    "                            percent starts within the --recent points\n"
    "      --from KIND           input kind instead of detection\n"
    CLI_INPUT_OPTIONS_HELP
    "  -h, --help                show this help\n"
    "\n"
    "Exit status: 0 success, 1 a regression beyond --fail-on-regression, 2 usage or input\n"
    "error.\n";

/* The commits of the repository `dir`, oldest first (`git rev-list --reverse HEAD`), as an
 * array of strings in one block (free both). */
static int git_commits(char ***out, size_t *count, char **block, const char *dir)
{
    int fd[2];
    if (pipe(fd) != 0)
        return cli_fail("--git-order: cannot create a pipe");
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return cli_fail("--git-order: cannot start git");
    }
    if (pid == 0) {
        /* git's own message varies between versions; ours says what went wrong. */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDERR_FILENO);
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execlp("git", "git", "-C", dir, "rev-list", "--reverse", "HEAD", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    FILE *git = fdopen(fd[0], "r");
    char *data = git ? cli_read_all(git, &len) : NULL;
    if (git)
        fclose(git);
    else
        close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (data == NULL)
        return cli_fail("--git-order: out of memory");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(data);
        return cli_fail("--git-order %s: 'git rev-list HEAD' failed (%s)", dir,
                        WIFEXITED(status) && WEXITSTATUS(status) == 127
                            ? "git not found"
                            : "not a repository with commits?");
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += data[i] == '\n';
    char **list = calloc(lines + 1, sizeof *list);
    if (list == NULL) {
        free(data);
        return cli_fail("--git-order: out of memory");
    }
    size_t k = 0;
    for (char *p = data, *nl; k < lines && (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
        *nl = '\0';
        list[k++] = p;
    }
    *out = list;
    *count = k;
    *block = data;
    return CLI_EXIT_OK;
}

static int parse_number(double *out, const char *command, const char *name, const char *text,
                        double lo, double hi, int integer)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v >= lo && v <= hi) || (integer && v != (long)v))
        return cli_usage_error(command, "--%s needs %s from %g to %g, not '%s'", name,
                               integer ? "a whole number" : "a number", lo, hi, text);
    *out = v;
    return CLI_EXIT_OK;
}

typedef struct history_args {
    tally_history_options opts;
    tally_render_options render;
    tally_load_options load;
    const char *output, *git_dir;
    double fail_on_regression; /* < 0: off */
} history_args;

static int parse_args(history_args *a, int argc, char **argv, int *help)
{
    static const struct option options[] = {
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"order-by", required_argument, NULL, 1},
        {"git-order", required_argument, NULL, 2},
        {"filter", required_argument, NULL, 3},
        {"alpha", required_argument, NULL, 4},
        {"min-segment", required_argument, NULL, 5},
        {"min-change", required_argument, NULL, 6},
        {"window", required_argument, NULL, 7},
        {"confidence", required_argument, NULL, 8},
        {"recent", required_argument, NULL, 9},
        {"fail-on-regression", required_argument, NULL, 10},
        CLI_INPUT_LONG_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    optind = 1;
    opterr = 0;
    int c;
    double v = 0;
    while ((c = getopt_long(argc, argv, "f:o:h", options, NULL)) != -1) {
        int rc = CLI_EXIT_OK;
        switch (c) {
        case 'h': *help = 1; return CLI_EXIT_OK;
        case 'f':
            if (tally_format_from_name(&a->render.format, optarg) != TALLY_OK)
                return cli_library_usage_error("history");
            if (a->render.format == TALLY_FORMAT_XLSX)
                return cli_usage_error("history", "--format takes text, json, csv, md or html");
            break;
        case 'o': a->output = optarg; break;
        case 1: a->opts.order_by = optarg; break;
        case 2: a->git_dir = optarg; break;
        case 3: a->opts.filter = optarg; break;
        case 4:
            rc = parse_number(&a->opts.alpha, "history", "alpha", optarg, 1e-300, 0.5, 0);
            break;
        case 5:
            rc = parse_number(&v, "history", "min-segment", optarg, 2, 1e6, 1);
            a->opts.min_segment = (size_t)v;
            break;
        case 6:
            rc = parse_number(&a->opts.min_change_pct, "history", "min-change", optarg, 0, 1e6, 0);
            break;
        case 7:
            rc = parse_number(&v, "history", "window", optarg, 2, 1e6, 1);
            a->opts.window = (size_t)v;
            break;
        case 8:
            rc = parse_number(&a->opts.confidence, "history", "confidence", optarg, 0.5, 0.9999, 0);
            break;
        case 9:
            rc = parse_number(&v, "history", "recent", optarg, 1, 1e9, 1);
            a->opts.recent = (size_t)v;
            break;
        case 10:
            rc = parse_number(&a->fail_on_regression, "history", "fail-on-regression", optarg, 0,
                              1e6, 0);
            break;
        default:
            rc = cli_input_getopt(&a->load, "history", c, optarg, argv[optind - 1]);
            break;
        }
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    if (a->opts.window < a->opts.min_segment)
        return cli_usage_error("history", "--window %zu is shorter than --min-segment %zu",
                               a->opts.window, a->opts.min_segment);
    if (a->opts.order_by && a->git_dir)
        return cli_usage_error("history", "--order-by and --git-order: give one");
    return CLI_EXIT_OK;
}

static int emit(const tally_history *h, const history_args *a)
{
    if (a->output)
        return tally_history_write(h, a->output, &a->render) == TALLY_OK ? CLI_EXIT_OK
                                                                           : cli_fail_library();
    char *text = NULL;
    size_t len = 0;
    if (tally_history_render(&text, &len, h, &a->render) != TALLY_OK)
        return cli_fail_library();
    int failed = fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0;
    tally_free(text);
    return failed ? cli_fail("cannot write to standard output") : CLI_EXIT_OK;
}

/* The gate's verdict on stderr: each regression beyond the threshold in the window. */
static int gate(const tally_history *h, const history_args *a)
{
    size_t count = 0;
    double worst = 0;
    if (tally_history_gate(&count, &worst, h, a->fail_on_regression, 0) != TALLY_OK)
        return cli_fail_library();
    size_t points = tally_history_point_count(h), recent = a->opts.recent;
    size_t start = recent == 0 || recent >= points ? 0 : points - recent;
    if (count == 0) {
        fprintf(stderr, "tally history: no regression beyond %g%% since point %zu (%s)\n",
                a->fail_on_regression, start + 1, tally_history_point_commit(h, start));
        return CLI_EXIT_OK;
    }
    fprintf(stderr, "tally history: %zu regression%s beyond --fail-on-regression %g%% since "
                    "point %zu (%s), the worst %.2f%%:\n", count, count == 1 ? "" : "s",
            a->fail_on_regression, start + 1, tally_history_point_commit(h, start), worst);
    for (size_t i = 0; i < tally_history_change_count(h); i++) {
        size_t s, k;
        tally_history_change_at(&s, &k, h, i);
        tally_changepoint c = { .size = sizeof c };
        tally_history_series ts = { .size = sizeof ts };
        tally_history_series_change_at(&c, h, s, k);
        tally_history_series_at(&ts, h, s);
        if (c.index < start || c.verdict != TALLY_VERDICT_REGRESSION ||
            !(-c.pct_imp > a->fail_on_regression))
            continue;
        fprintf(stderr, "tally:   %s/%s: %+.2f%% from point %zu (%s)\n", ts.benchmark,
                ts.case_name, c.pct_imp, c.index + 1, tally_history_point_commit(h, c.index));
    }
    return CLI_EXIT_FINDING;
}

int cmd_history(int argc, char **argv)
{
    history_args a = { TALLY_HISTORY_OPTIONS_INIT, TALLY_RENDER_OPTIONS_INIT,
                       TALLY_LOAD_OPTIONS_INIT, NULL, NULL, -1.0 };
    int help = 0;
    int rc = parse_args(&a, argc, argv, &help);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (help) {
        fputs(history_help, stdout);
        return CLI_EXIT_OK;
    }
    if (optind >= argc)
        return cli_usage_error("history", "missing sources");
    rc = cli_check_output("history", a.output, argv + optind, argc - optind);
    if (rc != CLI_EXIT_OK)
        return rc;
    char **commits = NULL, *block = NULL;
    size_t ncommits = 0;
    if (a.git_dir) {
        rc = git_commits(&commits, &ncommits, &block, a.git_dir);
        if (rc != CLI_EXIT_OK)
            return rc;
        a.opts.commit_order = (const char *const *)commits;
        a.opts.commit_order_count = ncommits;
    }
    tally_results *results = NULL;
    rc = cli_load_inputs(&results, argv + optind, argc - optind, &a.load);
    tally_history *h = NULL;
    if (rc == CLI_EXIT_OK && tally_history_new(&h, results, &a.opts) != TALLY_OK)
        rc = cli_fail_library();
    tally_results_free(results);
    free(commits);
    free(block);
    if (rc == CLI_EXIT_OK)
        rc = emit(h, &a);
    if (rc == CLI_EXIT_OK && a.fail_on_regression >= 0)
        rc = gate(h, &a);
    tally_history_free(h);
    return rc;
}
