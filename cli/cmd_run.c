/* `tally run WORKLOAD [options] -o OUT.json` and `tally run [options] -o OUT.json -- CMD ...`:
 * option parsing, the progress line (stderr, only on a terminal), Ctrl-C handling. The work
 * itself is the library's runner (tally/runner.h). */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_run.h"
#include "tally.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

/* " by SIGHUP", for the message after an interruption. */
static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return " by SIGINT";
    case SIGTERM: return " by SIGTERM";
    case SIGHUP: return " by SIGHUP (hang-up)";
    case SIGQUIT: return " by SIGQUIT";
    default: return "";
    }
}

static const char usage_text[] =
    "Usage: tally run WORKLOAD [options] -o OUT.json\n"
    "       tally run --finish -o OUT.json\n"
    "       tally run [options] -o OUT.json -- COMMAND [ARG...]\n"
    "       tally run [options] -o OUT.json --compare LABEL=CMD --compare LABEL=CMD ...\n"
    "\n"
    "Run a workload several times across a parameter sweep and write a result set.\n"
    "Each finished run is saved at once in OUT.json.journal; an interrupted sweep\n"
    "continues with --resume.\n"
    "\n"
    "Workloads (see docs/runners.md):\n"
    "  hackbench       built-in hackbench-style messaging, seconds (sweep: groups)\n"
    "  stream          built-in STREAM-like memory bandwidth, MB/s\n"
    "  schbench        built-in schbench-style wakeup latency, usec (sweep: workers)\n"
    "  tcp_rr          built-in TCP_RR-style loopback, transactions/s (sweep: clients)\n"
    "  exec            any command (also: tally run -- COMMAND), seconds or --metric\n"
    "  rt-hackbench    rt-tests hackbench, when installed (sweep: groups)\n"
    "  perf-messaging  perf bench sched messaging, when installed (sweep: groups)\n"
    "  tbench          dbench's tbench with tbench_srv, when installed (sweep: clients)\n"
    "  netperf         netperf TCP_RR and netserver on 127.0.0.1, when installed (sweep: clients)\n"
    "  iperf3          iperf3 client and server on 127.0.0.1, when installed (sweep: streams)\n"
    "\n"
    "Options:\n"
    "  -o, --output PATH      result set to write (required)\n"
    "  -l, --label NAME       result-set label (default: output name without .json)\n"
    "      --meta KEY=VALUE   stamp the result set with metadata KEY (repeatable):\n"
    "                         commit, branch, machine, CI job, time (tally history)\n"
    "  -n, --runs N           counted runs per case (default 5)\n"
    "  -w, --warmup N         discarded warm-up runs per case (default 1)\n"
    "      --sweep LIST       comma-separated sweep values; also --groups, --workers,\n"
    "                         --clients, --streams (exec: each value replaces {} in the\n"
    "                         command)\n"
    "      --interleave       run 1 of every case, then run 2 of every case, ...\n"
    "      --compare L=CMD    exec: compare shell commands (sh -c CMD), one result set\n"
    "                         labelled L each; with --interleave their runs alternate\n"
    "      --timeout SEC      per-run wall-clock limit (default 600)\n"
    "\n"
    "Adaptive runs (see docs/runners.md; the method in docs/statistics.md):\n"
    "      --until-precision PCT\n"
    "                         add runs to a case until its statistic's interval is\n"
    "                         within +-PCT % of it\n"
    "      --against BASE.json\n"
    "                         add runs to a case until its comparison with BASE.json's\n"
    "                         case is significant or equivalent within --mde\n"
    "      --mde PCT          the equivalence margin of --against, in percent\n"
    "      --min-runs N       runs before the first look (default 5)\n"
    "      --look-every N     runs between looks (default: --min-runs)\n"
    "      --max-runs N       most runs per case (default 50; same as --runs)\n"
    "      --alpha A          error level over all looks (default 0.05)\n"
    "\n"
    "      --resume           continue the sweep recorded in OUT.json.journal\n"
    "      --append           add runs to the result set in OUT.json (same workload and\n"
    "                         parameters; the runs follow its own)\n"
    "      --finish           write OUT.json from OUT.json.journal without running\n"
    "                         anything (an interrupted sweep: marked partial)\n"
    "      --force            replace an existing OUT.json or journal; resume a journal\n"
    "                         written on another host, kernel or boot\n"
    "  -p, --param KEY=VALUE  workload parameter; --KEY VALUE works too, e.g.\n"
    "                         --loops 100 --mode thread --ipc socket --threads 4\n"
    "                         --runtime 5 --metric 'Time: ([0-9.]+)' --unit s\n"
    "                         --direction higher --time user\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit status: 0 all runs succeeded, 1 some runs failed (counted in the output),\n"
    "2 usage or error, 130 interrupted (completed runs kept; use --resume).\n";

/* "tally run: MESSAGE" on stderr; CLI_EXIT_USAGE. */
static int run_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static int run_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tally run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

/* The same for a usage error, with the pointer to --help. */
#define usage_error(...) (run_fail(__VA_ARGS__), fputs("Try 'tally run --help'.\n", stderr), \
                          CLI_EXIT_USAGE)

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int parse_percent(double *out, const char *text)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v > 0 && v < 100))
        return -1;
    *out = v;
    return 0;
}

static int parse_count(unsigned int *out, const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || v < 0 || v > 1000000)
        return -1;
    *out = (unsigned int)v;
    return 0;
}

/* The command line as typed, quoted where a shell would need it, for the metadata. */
static char *join_command_line(int argc, char **argv)
{
    size_t cap = 8;
    for (int i = 0; i < argc; i++)
        cap += strlen(argv[i]) * 4 + 3;
    char *s = malloc(cap);
    if (s == NULL)
        return NULL;
    strcpy(s, "tally");
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        const char *a = argv[i];
        if (a[0] != '\0' && strpbrk(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") == NULL) {
            strcat(s, a);
            continue;
        }
        strcat(s, "'");
        for (const char *p = a; *p; p++) {
            if (*p == '\'')
                strcat(s, "'\\''");
            else
                strncat(s, p, 1);
        }
        strcat(s, "'");
    }
    return s;
}

/* The command line as typed with --resume added (before a `--`), --force and --append left
 * out: what continues the sweep in OUT.json.journal. */
static char *resume_command(int argc, char **argv)
{
    char **args = calloc((size_t)argc + 2, sizeof(char *));
    if (args == NULL)
        return NULL;
    int n = 0, added = 0;
    for (int i = 0; i < argc; i++) {
        if (!added && strcmp(argv[i], "--") == 0) {
            args[n++] = "--resume";
            added = 1;
        }
        if (!added && (strcmp(argv[i], "--force") == 0 || strcmp(argv[i], "--resume") == 0))
            continue;
        args[n++] = argv[i];
    }
    if (!added)
        args[n++] = "--resume";
    char *line = join_command_line(n, args);
    free(args);
    return line;
}

static size_t count_cases(const tally_results *results)
{
    size_t n = 0;
    for (size_t k = 0; k < tally_results_count(results); k++) {
        const tally_resultset *rs = tally_results_at(results, k);
        for (size_t b = 0; b < tally_resultset_benchmark_count(rs); b++)
            n += tally_benchmark_case_count(tally_resultset_benchmark_at(rs, b));
    }
    return n;
}

/* Adaptive runs: "; stopped: 2 precision, 1 max-runs (inconclusive), 9 looks" from the cases'
 * metadata (adaptive.stop, adaptive.looks). */
static void print_stops(const tally_results *results)
{
    static const char *const reasons[] = { "precision", "significant", "equivalent",
                                           "max-runs" };
    size_t counts[4] = { 0, 0, 0, 0 }, looks = 0, cases = 0;
    for (size_t k = 0; k < tally_results_count(results); k++) {
        const tally_resultset *rs = tally_results_at(results, k);
        for (size_t b = 0; b < tally_resultset_benchmark_count(rs); b++) {
            const tally_benchmark *bm = tally_resultset_benchmark_at(rs, b);
            for (size_t c = 0; c < tally_benchmark_case_count(bm); c++) {
                const tally_case *tc = tally_benchmark_case_at(bm, c);
                const char *why = tally_case_meta_get(tc, "adaptive.stop");
                const char *n = tally_case_meta_get(tc, "adaptive.looks");
                for (size_t i = 0; why && i < 4; i++)
                    counts[i] += strcmp(why, reasons[i]) == 0;
                looks += n ? strtoul(n, NULL, 10) : 0;
                cases += why != NULL;
            }
        }
    }
    if (cases == 0)
        return;
    fputs("; stopped:", stderr);
    const char *sep = " ";
    for (size_t i = 0; i < 4; i++)
        if (counts[i] > 0) {
            fprintf(stderr, "%s%zu %s%s", sep, counts[i], reasons[i],
                    i == 3 ? " (still inconclusive or imprecise)" : "");
            sep = ", ";
        }
    fprintf(stderr, "; %zu look%s", looks, looks == 1 ? "" : "s");
}

/* "wrote tip.json: 5 cases x 10 runs, 0 failed, 41 s" on stderr. */
static void print_summary(const char *output, const tally_results *results, const char *runs,
                          size_t failed, double seconds, const char *how)
{
    const tally_resultset *rs = tally_results_at(results, 0);
    const char *partial = rs ? tally_resultset_meta_get(rs, "partial") : NULL;
    size_t cases = count_cases(results);
    fprintf(stderr, "tally run: wrote %s%s: %zu case%s x %s run%s, %zu failed", output, how, cases,
            cases == 1 ? "" : "s", runs, strcmp(runs, "1") == 0 ? "" : "s", failed);
    if (seconds >= 0)
        fprintf(stderr, ", %.0f s", seconds);
    print_stops(results);
    if (partial)
        fprintf(stderr, " (partial: %s)", partial);
    fputc('\n', stderr);
}

/* When no case holds a run (every run failed), the first failure's reason: the runner keeps
 * the runs of a case without samples as the set's failed_run.<case>.K (docs/runners.md). */
static void print_first_failure(const tally_results *results)
{
    if (count_cases(results) > 0)
        return;
    for (size_t k = 0; k < tally_results_count(results); k++) {
        const tally_resultset *rs = tally_results_at(results, k);
        for (size_t i = 0; i < tally_resultset_meta_count(rs); i++) {
            const char *key, *value;
            if (tally_resultset_meta_at(&key, &value, rs, i) != TALLY_OK ||
                strncmp(key, "failed_run.", 11) != 0)
                continue;
            const char *dot = strrchr(key, '.');
            size_t n = strlen(value);
            while (n > 0 && (value[n - 1] == '\n' || value[n - 1] == ' ' || value[n - 1] == '\r'))
                n--;
            fprintf(stderr, "tally run: every run failed; the first, of %.*s: %.*s\n",
                    (int)(dot - key - 11), key + 11, (int)n, value);
            return;
        }
    }
}

/* The fewest and most samples of a case over the result sets (adaptive runs). */
static void sample_range(size_t *lo, size_t *hi, const tally_results *results)
{
    *lo = *hi = 0;
    int first = 1;
    for (size_t k = 0; results && k < tally_results_count(results); k++) {
        const tally_resultset *rs = tally_results_at(results, k);
        for (size_t b = 0; b < tally_resultset_benchmark_count(rs); b++) {
            const tally_benchmark *bm = tally_resultset_benchmark_at(rs, b);
            for (size_t c = 0; c < tally_benchmark_case_count(bm); c++) {
                size_t n = tally_case_sample_count(tally_benchmark_case_at(bm, c));
                if (first || n < *lo)
                    *lo = n;
                if (first || n > *hi)
                    *hi = n;
                first = 0;
            }
        }
    }
}

/* --finish: the result set from the journal, without running anything. */
static int finish_from_journal(const char *output, const char *label, int force,
                               const cli_meta *meta)
{
    size_t n = strlen(output);
    char *journal = malloc(n + sizeof(".journal"));
    if (journal == NULL) {
        return run_fail("out of memory");
    }
    memcpy(journal, output, n);
    memcpy(journal + n, ".journal", sizeof(".journal"));
    tally_results *results = NULL;
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    lo.kind = TALLY_INPUT_JOURNAL;
    lo.label = label;
    int status = CLI_EXIT_USAGE;
    if (!force && access(output, F_OK) == 0) {
        fprintf(stderr, "tally run: %s: the result set already exists; replace it with --force\n",
                output);
    } else if (tally_results_new(&results) != TALLY_OK ||
               tally_load_file(results, journal, &lo) != TALLY_OK) {
        fprintf(stderr, "tally run: %s\n", tally_error_last()->message);
    } else if (tally_results_count(results) > 0 &&
               tally_resultset_meta_get(tally_results_at(results, 0), "running") != NULL) {
        /* The journal's lock is held: its sweep goes on, and would write OUT.json itself. */
        fprintf(stderr,
                "tally run: %s: the sweep is still running (%s): wait for it, or stop it and "
                "then --finish\n",
                journal, tally_resultset_meta_get(tally_results_at(results, 0), "running"));
    } else if (cli_meta_apply(meta, results) != CLI_EXIT_OK) {
        status = CLI_EXIT_USAGE;
    } else if (tally_results_save(results, output) != TALLY_OK) {
        fprintf(stderr, "tally run: %s\n", tally_error_last()->message);
    } else {
        const tally_resultset *rs = tally_results_at(results, 0);
        const char *runs = tally_resultset_meta_get(rs, "runs");
        size_t failed = 0;
        for (size_t k = 0; k < tally_results_count(results); k++) {
            const char *f = tally_resultset_meta_get(tally_results_at(results, k), "failed_runs");
            failed += f ? strtoul(f, NULL, 10) : 0;
        }
        print_summary(output, results, runs ? runs : "?", failed, -1, " from its journal");
        status = CLI_EXIT_OK;
    }
    tally_results_free(results);
    free(journal);
    return status;
}

static void format_duration(char *out, size_t cap, double s)
{
    if (s < 0) {
        snprintf(out, cap, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, cap, "%ld:%02ld", t / 60, t % 60);
}

typedef struct progress_state {
    int draw; /* stderr is a terminal */
} progress_state;

static int on_progress(void *user, const tally_run_progress *p)
{
    const progress_state *st = user;
    if (p->phase == TALLY_RUN_WARNING) {
        /* Always shown, terminal or not: it asks for an action. */
        fprintf(stderr, "%stally run: warning: %s\n", st->draw ? "\r\033[K" : "", p->message);
        return interrupted != 0;
    }
    if (st->draw) {
        char elapsed[32], left[32];
        format_duration(elapsed, sizeof(elapsed), p->elapsed);
        format_duration(left, sizeof(left), p->remaining);
        fprintf(stderr, "\r\033[K%s  run %zu/%zu%s  [%zu/%zu runs, %zu/%zu warm-ups]  "
                        "elapsed %s  left ~%s",
                p->case_name, p->run, p->runs, p->warmup ? " (warm-up)" : "", p->runs_done,
                p->runs_total, p->warmups_done, p->warmups_total, elapsed, left);
        fflush(stderr);
    }
    return interrupted != 0;
}

/* What the command line asks for. The runner's options point into argv and into the blocks
 * this owns (parameters, --compare configurations, the default label). */
typedef struct run_args {
    tally_runner_options o;
    const char *workload;
    char **params; /* KEY=VALUE, owned */
    size_t nparams;
    char **command; /* after --, into argv */
    tally_runner_config *configs; /* --compare; each command an owned sh -c argv */
    char **config_text; /* the LABEL=CMD copies the configurations point into */
    size_t nconfigs;
    int help, finish, runs_given, adaptive;
    cli_meta meta;
    char *label; /* the default label, owned */
    char *command_line;
} run_args;

enum {
    OPT_META = 1000, OPT_MAX_RUNS, OPT_MIN_RUNS, OPT_LOOK_EVERY, OPT_UNTIL_PRECISION, OPT_MDE,
    OPT_ALPHA, OPT_AGAINST, OPT_TIMEOUT, OPT_SWEEP, OPT_COMPARE, OPT_INTERLEAVE, OPT_RESUME,
    OPT_APPEND, OPT_FORCE, OPT_FINISH
};

static const struct option run_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"label", required_argument, NULL, 'l'},
    {"meta", required_argument, NULL, OPT_META},
    {"runs", required_argument, NULL, 'n'},
    {"warmup", required_argument, NULL, 'w'},
    {"max-runs", required_argument, NULL, OPT_MAX_RUNS},
    {"min-runs", required_argument, NULL, OPT_MIN_RUNS},
    {"look-every", required_argument, NULL, OPT_LOOK_EVERY},
    {"until-precision", required_argument, NULL, OPT_UNTIL_PRECISION},
    {"mde", required_argument, NULL, OPT_MDE},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"against", required_argument, NULL, OPT_AGAINST},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"sweep", required_argument, NULL, OPT_SWEEP},
    {"groups", required_argument, NULL, OPT_SWEEP},
    {"workers", required_argument, NULL, OPT_SWEEP},
    {"clients", required_argument, NULL, OPT_SWEEP},
    {"streams", required_argument, NULL, OPT_SWEEP},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"param", required_argument, NULL, 'p'},
    {"interleave", no_argument, NULL, OPT_INTERLEAVE},
    {"resume", no_argument, NULL, OPT_RESUME},
    {"append", no_argument, NULL, OPT_APPEND},
    {"force", no_argument, NULL, OPT_FORCE},
    {"finish", no_argument, NULL, OPT_FINISH},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int args_new(run_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    tally_runner_options defaults = TALLY_RUNNER_OPTIONS_INIT;
    a->o = defaults;
    a->params = calloc((size_t)argc + 1, sizeof(char *));
    a->configs = calloc((size_t)argc + 1, sizeof(*a->configs));
    a->config_text = calloc((size_t)argc + 1, sizeof(char *));
    a->command_line = join_command_line(argc, argv);
    if (a->params == NULL || a->configs == NULL || a->config_text == NULL ||
        a->command_line == NULL)
        return run_fail("out of memory");
    return CLI_EXIT_OK;
}

static void args_free(run_args *a)
{
    cli_meta_free(&a->meta);
    for (size_t i = 0; a->params && i < a->nparams; i++)
        free(a->params[i]);
    free(a->params);
    free(a->command_line);
    free(a->label);
    for (size_t i = 0; a->configs && i < a->nconfigs; i++)
        free((void *)a->configs[i].command);
    for (size_t i = 0; a->config_text && a->config_text[i]; i++)
        free(a->config_text[i]);
    free(a->configs);
    free(a->config_text);
}

/* A workload parameter given as an option of its own: `--array-size 1000` (or
 * `--array-size=1000`) is array_size=1000. Any `--NAME` that is not exactly one of the
 * command's options is one, so that no parameter is taken for an abbreviated option
 * (--time is exec's parameter, not --timeout). */
static int is_param_option(const char *arg)
{
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
        return 0;
    size_t n = strcspn(arg + 2, "=");
    for (size_t i = 0; run_options[i].name; i++)
        if (strlen(run_options[i].name) == n && strncmp(run_options[i].name, arg + 2, n) == 0)
            return 0;
    return 1;
}

/* KEY=VALUE from a `--KEY` and its value, dashes of the key made underscores. */
static char *param_of(const char *key, size_t klen, const char *value)
{
    char *kv = malloc(klen + strlen(value) + 2);
    if (kv == NULL)
        return NULL;
    for (size_t k = 0; k < klen; k++)
        kv[k] = key[k] == '-' ? '_' : key[k];
    kv[klen] = '=';
    strcpy(kv + klen + 1, value);
    return kv;
}

/* The parameter option at argv[*i] (is_param_option), its value the next argument unless
 * written `--KEY=VALUE`; *i moves past them. */
static int take_param(run_args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i] + 2;
    const char *eq = strchr(arg, '=');
    if (eq == NULL && *i + 1 >= argc)
        return usage_error("option %s needs a value", argv[*i]);
    char *kv = eq ? param_of(arg, (size_t)(eq - arg), eq + 1)
                  : param_of(arg, strlen(arg), argv[*i + 1]);
    *i += eq ? 1 : 2;
    if (kv == NULL)
        return run_fail("out of memory");
    a->params[a->nparams++] = kv;
    return CLI_EXIT_OK;
}

/* --compare LABEL=CMD: the text is split in place in a copy; the command is sh -c CMD. */
static int add_config(run_args *a, const char *text)
{
    const char *eq = strchr(text, '=');
    if (eq == NULL || eq == text || eq[1] == '\0')
        return usage_error("--compare: expected LABEL=COMMAND, found '%s'", text);
    char *copy = strdup(text);
    const char **argv3 = calloc(4, sizeof(char *));
    a->config_text[a->nconfigs] = copy;
    if (copy == NULL || argv3 == NULL) {
        free(argv3);
        return run_fail("out of memory");
    }
    copy[eq - text] = '\0';
    argv3[0] = "sh";
    argv3[1] = "-c";
    argv3[2] = copy + (eq - text) + 1;
    a->configs[a->nconfigs].label = copy;
    a->configs[a->nconfigs++].command = argv3;
    return CLI_EXIT_OK;
}

/* A count option's value: `min` or more (and at most a million). */
static int count_value(unsigned int *out, const char *option, const char *value, unsigned min,
                       const char *expected)
{
    if (parse_count(out, value) != 0 || *out < min)
        return usage_error("%s: expected %s, found '%s'", option, expected, value);
    return CLI_EXIT_OK;
}

/* A number option's value in (lo, hi); hi = 0: no upper bound. */
static int number_value(double *out, const char *option, const char *value, double lo, double hi,
                        const char *expected)
{
    char *end;
    *out = strtod(value, &end);
    if (end == value || *end != '\0' || !(*out > lo) || (hi > 0 && !(*out < hi)))
        return usage_error("%s: expected %s, found '%s'", option, expected, value);
    return CLI_EXIT_OK;
}

/* One option of the getopt_long table with its value. */
static int take_option(run_args *a, int c, const char *value)
{
    tally_runner_options *o = &a->o;
    switch (c) {
    case 'h': a->help = 1; return CLI_EXIT_OK;
    case OPT_INTERLEAVE: o->interleave = 1; return CLI_EXIT_OK;
    case OPT_RESUME: o->resume = 1; return CLI_EXIT_OK;
    case OPT_APPEND: o->append = 1; return CLI_EXIT_OK;
    case OPT_FORCE: o->force = 1; return CLI_EXIT_OK;
    case OPT_FINISH: a->finish = 1; return CLI_EXIT_OK;
    case 'o': o->output = value; return CLI_EXIT_OK;
    case 'l': o->label = value; return CLI_EXIT_OK;
    case OPT_AGAINST: o->against = value; return CLI_EXIT_OK;
    case OPT_SWEEP: o->sweep = value; return CLI_EXIT_OK;
    case OPT_META: return cli_meta_option(&a->meta, "run", value);
    case OPT_COMPARE: return add_config(a, value);
    case 'n':
    case OPT_MAX_RUNS:
        a->runs_given = 1;
        return count_value(&o->runs, c == 'n' ? "--runs" : "--max-runs", value, 1,
                           "a positive integer");
    case 'w': return count_value(&o->warmup, "--warmup", value, 0, "an integer >= 0");
    case OPT_MIN_RUNS: return count_value(&o->min_runs, "--min-runs", value, 2, "an integer >= 2");
    case OPT_LOOK_EVERY:
        return count_value(&o->look_every, "--look-every", value, 1, "a positive integer");
    case OPT_UNTIL_PRECISION:
    case OPT_MDE:
        if (parse_percent(c == OPT_MDE ? &o->mde_pct : &o->until_precision, value) != 0)
            return usage_error("%s: expected a percentage between 0 and 100 (exclusive), "
                               "found '%s'", c == OPT_MDE ? "--mde" : "--until-precision", value);
        return CLI_EXIT_OK;
    case OPT_ALPHA:
        return number_value(&o->alpha, "--alpha", value, 0, 0.5, "a number in (0, 0.5)");
    case OPT_TIMEOUT:
        return number_value(&o->timeout, "--timeout", value, 0, 0, "seconds > 0");
    case 'p':
        if ((a->params[a->nparams] = strdup(value)) == NULL)
            return run_fail("out of memory");
        a->nparams++;
        return CLI_EXIT_OK;
    default: return CLI_EXIT_USAGE;
    }
}

/* Step 1: the options, the workload's name, and the command after `--`. Parsing stops at
 * --help (a->help). */
static int parse_options(run_args *a, int argc, char **argv)
{
    optind = 1;
    opterr = 0;
    int status = CLI_EXIT_OK;
    while (status == CLI_EXIT_OK && !a->help && optind < argc) {
        if (is_param_option(argv[optind])) {
            status = take_param(a, argc, argv, &optind);
            continue;
        }
        int before = optind;
        /* "+": stop at the workload's name instead of moving it, so that the arguments after
         * `--` are the command's alone. */
        int c = getopt_long(argc, argv, "+:o:l:n:w:p:h", run_options, NULL);
        if (c == -1 && optind > before) { /* `--` */
            a->command = &argv[optind];
            if (a->command[0] == NULL)
                status = usage_error("%s: a command is needed after --", "run");
            break;
        } else if (c == -1 && a->workload != NULL) {
            status = usage_error("unexpected argument '%s'", argv[optind]);
        } else if (c == -1) {
            a->workload = argv[optind++];
        } else if (c == ':') {
            status = usage_error("option %s needs a value", argv[optind - 1]);
        } else if (c == '?' && optopt >= OPT_META) { /* --force=1 */
            status = usage_error("option %s takes no value", argv[optind - 1]);
        } else if (c == '?') {
            status = usage_error("unknown option '-%c'", optopt);
        } else {
            status = take_option(a, c, optarg);
        }
    }
    return status;
}

/* --finish: nothing to run, only the journal to turn into OUT.json. */
static int finish(run_args *a)
{
    if (a->o.output == NULL)
        return usage_error("%s", "--finish needs the result set to write: -o OUT.json");
    if (a->workload != NULL || a->command != NULL || a->nconfigs > 0 || a->o.resume ||
        a->o.append)
        return usage_error("%s", "--finish runs nothing: give only -o OUT.json (and --label, "
                                 "--force)");
    return finish_from_journal(a->o.output, a->o.label, a->o.force, &a->meta);
}

/* Step 2: the adaptive rule's options agree with one another. */
static int check_adaptive(run_args *a)
{
    tally_runner_options *o = &a->o;
    if (o->mde_pct > 0 && o->against == NULL)
        return usage_error("%s", "--mde is the equivalence margin of --against: give the "
                                 "baseline too");
    if (o->against != NULL && !(o->mde_pct > 0))
        return usage_error("%s", "--against needs --mde PCT, the change below which a case "
                                 "counts as equivalent");
    a->adaptive = o->until_precision > 0 || o->against != NULL;
    if (!a->adaptive && o->min_runs != 5)
        return usage_error("%s", "--min-runs needs an adaptive rule (--until-precision or "
                                 "--against)");
    if (!a->adaptive && o->look_every != 0)
        return usage_error("%s", "--look-every needs an adaptive rule (--until-precision or "
                                 "--against)");
    if (a->adaptive && !a->runs_given)
        o->runs = o->min_runs > 50 ? o->min_runs : 50;
    if (a->adaptive && o->min_runs > o->runs)
        return usage_error("--min-runs (%u) exceeds --max-runs (%u)", o->min_runs, o->runs);
    return CLI_EXIT_OK;
}

/* Step 3: what runs (a workload, a command, --compare's commands) and where it goes. */
static int check_workload(run_args *a)
{
    tally_runner_options *o = &a->o;
    if (o->append && o->force)
        return usage_error("%s", "--append keeps the result set: no --force");
    if (a->nconfigs > 0 && a->command != NULL)
        return usage_error("%s", "give either --compare or a command after --, not both");
    if (a->workload == NULL && (a->command != NULL || a->nconfigs > 0))
        a->workload = "exec";
    if (a->workload == NULL)
        return usage_error("%s", "which workload? (tally run --help lists them)");
    if (tally_workload_from_name(&o->workload, a->workload) != TALLY_OK)
        return usage_error("%s", tally_error_last()->message);
    if (o->workload == TALLY_WORKLOAD_EXEC && a->command == NULL && a->nconfigs == 0)
        return usage_error("%s: give the command after --", "exec");
    if (o->workload != TALLY_WORKLOAD_EXEC && a->command != NULL)
        return usage_error("%s takes no command after --", a->workload);
    if (o->output == NULL)
        return usage_error("%s", "an output file is needed: -o OUT.json");
    if (a->nconfigs > 0 && o->label != NULL)
        return usage_error("%s", "--compare names the result sets: no --label");
    return CLI_EXIT_OK;
}

/* Step 4: the label, by default the output's name without directory and .json; the runner's
 * options from the arguments. */
static int fill_runner_options(run_args *a)
{
    tally_runner_options *o = &a->o;
    if (o->label == NULL && a->nconfigs == 0) {
        const char *base = strrchr(o->output, '/');
        base = base ? base + 1 : o->output;
        if ((a->label = strdup(base)) == NULL)
            return run_fail("out of memory");
        size_t n = strlen(a->label);
        if (n > 5 && strcmp(a->label + n - 5, ".json") == 0)
            a->label[n - 5] = '\0';
        o->label = a->label;
    }
    o->params = (const char *const *)a->params;
    o->param_count = a->nparams;
    o->command = (const char *const *)a->command;
    o->configs = a->nconfigs ? a->configs : NULL;
    o->config_count = a->nconfigs;
    o->command_line = a->command_line;
    o->progress = on_progress;
    return CLI_EXIT_OK;
}

/* Step 5: the sweep. Ctrl-C, kill, a terminal or ssh hang-up and Ctrl-\ all end it the same
 * way: the current run's processes and the workload's server are killed, completed runs are
 * kept (--resume continues), nothing is left running. A signal found ignored stays ignored
 * (nohup, or a shell's background job), as the caller asked. */
static int run_with_signals(tally_runner *runner)
{
    static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    enum { NSTOP = COUNT(stop_signals) };
    struct sigaction sa, old[NSTOP];
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSTOP; i++) {
        sigaction(stop_signals[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN)
            sigaction(stop_signals[i], &sa, NULL);
    }
    int rc = tally_runner_run(runner);
    for (int i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &old[i], NULL);
    return rc;
}

/* Step 6a: a sweep that stopped early, and how to continue it. */
static int report_stopped(int rc, const char *output, const char *resume)
{
    if (rc == TALLY_EINTERRUPTED) {
        fprintf(stderr, "tally run: interrupted%s; completed runs are kept in %s.journal; "
                        "continue with:\n  %s\n", signal_name(interrupted), output,
                resume ? resume : "--resume");
        return CLI_EXIT_INTERRUPTED;
    }
    const tally_error *e = tally_error_last();
    fprintf(stderr, "tally run: %s\n", e->message);
    /* Where the journal keeps runs, say exactly how to continue them. */
    int keeps = e->code == TALLY_EIO && e->file != NULL && strstr(e->message, "--resume");
    if (((e->code == TALLY_EEXISTS && e->file && strstr(e->file, ".journal") &&
          strstr(e->message, "--resume")) || keeps) &&
        resume != NULL)
        fprintf(stderr, "  %s\n", resume);
    return CLI_EXIT_USAGE;
}

/* Step 6b: a finished sweep: the metadata stamped, the summary line, the failed runs. */
static int report_finished(run_args *a, tally_runner *runner, double started)
{
    char runs[48];
    snprintf(runs, sizeof(runs), "%u", a->o.runs);
    tally_results *results = NULL;
    size_t failed = tally_runner_failed_runs(runner);
    int took = tally_runner_take_results(&results, runner) == TALLY_OK;
    if (took && a->adaptive) {
        size_t lo, hi;
        sample_range(&lo, &hi, results);
        if (lo == hi)
            snprintf(runs, sizeof(runs), "%zu", lo);
        else
            snprintf(runs, sizeof(runs), "%zu-%zu", lo, hi);
    }
    /* The runner wrote the result set; stamped, it is written again (atomically). */
    if (took && a->meta.count > 0 && (cli_meta_apply(&a->meta, results) != CLI_EXIT_OK ||
                                      tally_results_save(results, a->o.output) != TALLY_OK)) {
        if (tally_error_last()->code != TALLY_OK)
            fprintf(stderr, "tally run: %s\n", tally_error_last()->message);
        tally_results_free(results);
        return CLI_EXIT_USAGE;
    }
    if (took) {
        print_summary(a->o.output, results, runs, failed, monotonic_seconds() - started, "");
        print_first_failure(results);
    }
    tally_results_free(results);
    if (failed > 0)
        fprintf(stderr, "tally run: %zu run%s failed: counted per case as failed_runs, "
                        "reasons in failed_run.N (tally summary %s shows them)\n",
                failed, failed == 1 ? "" : "s", a->o.output);
    return failed > 0 ? CLI_EXIT_FINDING : CLI_EXIT_OK;
}

/* Steps 5 and 6: run the sweep, then say how it went. */
static int run_sweep(run_args *a, int argc, char **argv)
{
    progress_state st = { isatty(STDERR_FILENO) };
    a->o.progress_user = &st;
    tally_runner *runner = NULL;
    if (tally_runner_new(&runner, &a->o) != TALLY_OK)
        return run_fail("%s", tally_error_last()->message);
    double started = monotonic_seconds();
    int rc = run_with_signals(runner);
    if (st.draw)
        fputs("\r\033[K", stderr);
    int status;
    if (rc != TALLY_OK) {
        char *resume = resume_command(argc, argv);
        status = report_stopped(rc, a->o.output, resume);
        free(resume);
    } else {
        status = report_finished(a, runner, started);
    }
    tally_runner_free(runner);
    return status;
}

int cmd_run(int argc, char **argv)
{
    run_args a;
    int status = args_new(&a, argc, argv);
    if (status == CLI_EXIT_OK)
        status = parse_options(&a, argc, argv);
    if (status == CLI_EXIT_OK && a.help) {
        fputs(usage_text, stdout);
    } else if (status == CLI_EXIT_OK && a.finish) {
        status = finish(&a);
    } else if (status == CLI_EXIT_OK) {
        status = check_adaptive(&a);
        if (status == CLI_EXIT_OK)
            status = check_workload(&a);
        if (status == CLI_EXIT_OK)
            status = fill_runner_options(&a);
        if (status == CLI_EXIT_OK)
            status = run_sweep(&a, argc, argv);
    }
    args_free(&a);
    return status;
}
