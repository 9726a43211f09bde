/* `tally run WORKLOAD [options] -o OUT.json` and `tally run [options] -o OUT.json -- CMD ...`:
 * option parsing, the progress line (stderr, only on a terminal), Ctrl-C handling. The work
 * itself is the library's runner (tally/runner.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_run.h"
#include "tally.h"

enum { EXIT_OK = 0, EXIT_FAILED_RUNS = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

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

static int usage_error(const char *fmt, const char *arg)
{
    fputs("tally run: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'tally run --help'.\n", stderr);
    return EXIT_USAGE;
}

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
        fputs("tally run: out of memory\n", stderr);
        return EXIT_USAGE;
    }
    memcpy(journal, output, n);
    memcpy(journal + n, ".journal", sizeof(".journal"));
    tally_results *results = NULL;
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    lo.kind = TALLY_INPUT_JOURNAL;
    lo.label = label;
    int status = EXIT_USAGE;
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
        status = EXIT_USAGE;
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
        status = EXIT_OK;
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

int cmd_run(int argc, char **argv)
{
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    const char *workload = NULL;
    char **params = calloc((size_t)argc + 1, sizeof(char *));
    size_t nparams = 0;
    char **command = NULL;
    int status = EXIT_USAGE;
    tally_runner *runner = NULL;
    char *command_line = join_command_line(argc, argv);
    char *label = NULL;
    tally_runner_config *configs = calloc((size_t)argc + 1, sizeof(*configs));
    char **config_text = calloc((size_t)argc + 1, sizeof(char *));
    size_t nconfigs = 0;
    int finish = 0, runs_given = 0;
    cli_meta meta = { 0, NULL, NULL, NULL };
    if (params == NULL || command_line == NULL || configs == NULL || config_text == NULL) {
        fputs("tally run: out of memory\n", stderr);
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            command = &argv[i + 1];
            if (command[0] == NULL) {
                status = usage_error("%s: a command is needed after --", "run");
                goto done;
            }
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            status = EXIT_OK;
            goto done;
        }
        if (strcmp(a, "--interleave") == 0) {
            o.interleave = 1;
            continue;
        }
        if (strcmp(a, "--resume") == 0) {
            o.resume = 1;
            continue;
        }
        if (strcmp(a, "--append") == 0) {
            o.append = 1;
            continue;
        }
        if (strcmp(a, "--force") == 0) {
            o.force = 1;
            continue;
        }
        if (strcmp(a, "--finish") == 0) {
            finish = 1;
            continue;
        }
        if (a[0] != '-') {
            if (workload != NULL) {
                status = usage_error("unexpected argument '%s'", a);
                goto done;
            }
            workload = a;
            continue;
        }
        /* Every other option takes a value. */
        if (next == NULL) {
            status = usage_error("option %s needs a value", a);
            goto done;
        }
        i++;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            o.output = next;
        } else if (strcmp(a, "-l") == 0 || strcmp(a, "--label") == 0) {
            o.label = next;
        } else if (strcmp(a, "--meta") == 0) {
            if (cli_meta_option(&meta, "run", next) != CLI_EXIT_OK)
                goto done;
        } else if (strcmp(a, "-n") == 0 || strcmp(a, "--runs") == 0) {
            if (parse_count(&o.runs, next) != 0 || o.runs == 0) {
                status = usage_error("--runs: expected a positive integer, found '%s'", next);
                goto done;
            }
            runs_given = 1;
        } else if (strcmp(a, "-w") == 0 || strcmp(a, "--warmup") == 0) {
            if (parse_count(&o.warmup, next) != 0) {
                status = usage_error("--warmup: expected an integer >= 0, found '%s'", next);
                goto done;
            }
        } else if (strcmp(a, "--max-runs") == 0) {
            if (parse_count(&o.runs, next) != 0 || o.runs == 0) {
                status = usage_error("--max-runs: expected a positive integer, found '%s'", next);
                goto done;
            }
            runs_given = 1;
        } else if (strcmp(a, "--min-runs") == 0) {
            if (parse_count(&o.min_runs, next) != 0 || o.min_runs < 2) {
                status = usage_error("--min-runs: expected an integer >= 2, found '%s'", next);
                goto done;
            }
        } else if (strcmp(a, "--look-every") == 0) {
            if (parse_count(&o.look_every, next) != 0 || o.look_every == 0) {
                status = usage_error("--look-every: expected a positive integer, found '%s'",
                                     next);
                goto done;
            }
        } else if (strcmp(a, "--until-precision") == 0 || strcmp(a, "--mde") == 0) {
            double *v = a[2] == 'u' ? &o.until_precision : &o.mde_pct;
            if (parse_percent(v, next) != 0) {
                fprintf(stderr, "tally run: %s: expected a percentage between 0 and 100 "
                                "(exclusive), found '%s'\nTry 'tally run --help'.\n", a, next);
                goto done;
            }
        } else if (strcmp(a, "--alpha") == 0) {
            char *end;
            o.alpha = strtod(next, &end);
            if (end == next || *end != '\0' || !(o.alpha > 0 && o.alpha < 0.5)) {
                status = usage_error("--alpha: expected a number in (0, 0.5), found '%s'", next);
                goto done;
            }
        } else if (strcmp(a, "--against") == 0) {
            o.against = next;
        } else if (strcmp(a, "--timeout") == 0) {
            char *end;
            o.timeout = strtod(next, &end);
            if (*end != '\0' || !(o.timeout > 0)) {
                status = usage_error("--timeout: expected seconds > 0, found '%s'", next);
                goto done;
            }
        } else if (strcmp(a, "--sweep") == 0 || strcmp(a, "--groups") == 0 ||
                   strcmp(a, "--workers") == 0 || strcmp(a, "--clients") == 0 ||
                   strcmp(a, "--streams") == 0) {
            o.sweep = next;
        } else if (strcmp(a, "--compare") == 0) {
            /* LABEL=CMD: the text is split in place in a copy; the argv is sh -c CMD. */
            char *eq = strchr(next, '=');
            if (eq == NULL || eq == next || eq[1] == '\0') {
                status = usage_error("--compare: expected LABEL=COMMAND, found '%s'", next);
                goto done;
            }
            char *copy = strdup(next);
            const char **argv3 = calloc(4, sizeof(char *));
            config_text[nconfigs] = copy;
            if (copy == NULL || argv3 == NULL) {
                free(argv3);
                fputs("tally run: out of memory\n", stderr);
                goto done;
            }
            copy[eq - next] = '\0';
            argv3[0] = "sh";
            argv3[1] = "-c";
            argv3[2] = copy + (eq - next) + 1;
            configs[nconfigs].label = copy;
            configs[nconfigs++].command = argv3;
        } else if (strcmp(a, "-p") == 0 || strcmp(a, "--param") == 0) {
            params[nparams++] = strdup(next);
        } else if (strncmp(a, "--", 2) == 0 && a[2] != '\0') {
            /* --array-size 1000 is the parameter array_size=1000 */
            size_t klen = strlen(a + 2);
            char *kv = malloc(klen + strlen(next) + 2);
            if (kv != NULL) {
                for (size_t k = 0; k < klen; k++)
                    kv[k] = a[2 + k] == '-' ? '_' : a[2 + k];
                kv[klen] = '=';
                strcpy(kv + klen + 1, next);
            }
            params[nparams++] = kv;
        } else {
            status = usage_error("unknown option '%s'", a);
            goto done;
        }
        if (nparams > 0 && params[nparams - 1] == NULL) {
            fputs("tally run: out of memory\n", stderr);
            goto done;
        }
    }
    if (finish) {
        if (o.output == NULL)
            status = usage_error("%s", "--finish needs the result set to write: -o OUT.json");
        else if (workload != NULL || command != NULL || nconfigs > 0 || o.resume || o.append)
            status = usage_error("%s", "--finish runs nothing: give only -o OUT.json (and "
                                       "--label, --force)");
        else
            status = finish_from_journal(o.output, o.label, o.force, &meta);
        goto done;
    }
    if (o.mde_pct > 0 && o.against == NULL) {
        status = usage_error("%s", "--mde is the equivalence margin of --against: give the "
                                   "baseline too");
        goto done;
    }
    if (o.against != NULL && !(o.mde_pct > 0)) {
        status = usage_error("%s", "--against needs --mde PCT, the change below which a case "
                                   "counts as equivalent");
        goto done;
    }
    int adaptive = o.until_precision > 0 || o.against != NULL;
    if (!adaptive && o.min_runs != 5) {
        status = usage_error("%s", "--min-runs needs an adaptive rule (--until-precision or "
                                   "--against)");
        goto done;
    }
    if (!adaptive && o.look_every != 0) {
        status = usage_error("%s", "--look-every needs an adaptive rule (--until-precision or "
                                   "--against)");
        goto done;
    }
    if (adaptive && !runs_given)
        o.runs = o.min_runs > 50 ? o.min_runs : 50;
    if (adaptive && o.min_runs > o.runs) {
        char text[96];
        snprintf(text, sizeof(text), "--min-runs (%u) exceeds --max-runs (%u)", o.min_runs,
                 o.runs);
        status = usage_error("%s", text);
        goto done;
    }
    if (o.append && o.force) {
        status = usage_error("%s", "--append keeps the result set: no --force");
        goto done;
    }
    if (nconfigs > 0 && command != NULL) {
        status = usage_error("%s", "give either --compare or a command after --, not both");
        goto done;
    }
    if (workload == NULL && (command != NULL || nconfigs > 0))
        workload = "exec";
    if (workload == NULL) {
        status = usage_error("%s", "which workload? (tally run --help lists them)");
        goto done;
    }
    if (tally_workload_from_name(&o.workload, workload) != TALLY_OK) {
        status = usage_error("%s", tally_error_last()->message);
        goto done;
    }
    if (o.workload == TALLY_WORKLOAD_EXEC && command == NULL && nconfigs == 0) {
        status = usage_error("%s: give the command after --", "exec");
        goto done;
    }
    if (o.workload != TALLY_WORKLOAD_EXEC && command != NULL) {
        status = usage_error("%s takes no command after --", workload);
        goto done;
    }
    if (o.output == NULL) {
        status = usage_error("%s", "an output file is needed: -o OUT.json");
        goto done;
    }
    if (nconfigs > 0 && o.label != NULL) {
        status = usage_error("%s", "--compare names the result sets: no --label");
        goto done;
    }
    if (o.label == NULL && nconfigs == 0) {
        const char *base = strrchr(o.output, '/');
        base = base ? base + 1 : o.output;
        label = strdup(base);
        if (label == NULL) {
            fputs("tally run: out of memory\n", stderr);
            goto done;
        }
        size_t n = strlen(label);
        if (n > 5 && strcmp(label + n - 5, ".json") == 0)
            label[n - 5] = '\0';
        o.label = label;
    }
    o.params = (const char *const *)params;
    o.param_count = nparams;
    o.command = (const char *const *)command;
    o.configs = nconfigs ? configs : NULL;
    o.config_count = nconfigs;
    o.command_line = command_line;
    progress_state st = { isatty(STDERR_FILENO) };
    o.progress = on_progress;
    o.progress_user = &st;

    if (tally_runner_new(&runner, &o) != TALLY_OK) {
        fprintf(stderr, "tally run: %s\n", tally_error_last()->message);
        goto done;
    }
    double started = monotonic_seconds();
    /* Ctrl-C, kill, a terminal or ssh hang-up and Ctrl-\ all end the sweep the same way: the
     * current run's processes and the workload's server are killed, completed runs are kept
     * (--resume continues), nothing is left running. A signal found ignored stays ignored
     * (nohup, or a shell's background job), as the caller asked. */
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
    if (st.draw)
        fputs("\r\033[K", stderr);
    char *resume = resume_command(argc, argv);
    if (rc == TALLY_EINTERRUPTED) {
        fprintf(stderr, "tally run: interrupted%s; completed runs are kept in %s.journal; "
                        "continue with:\n  %s\n", signal_name(interrupted), o.output,
                resume ? resume : "--resume");
        status = EXIT_INTERRUPTED;
    } else if (rc != TALLY_OK) {
        const tally_error *e = tally_error_last();
        fprintf(stderr, "tally run: %s\n", e->message);
        /* Where the journal keeps runs, say exactly how to continue them. */
        int keeps = e->code == TALLY_EIO && e->file != NULL && strstr(e->message, "--resume");
        if (((e->code == TALLY_EEXISTS && e->file && strstr(e->file, ".journal") &&
              strstr(e->message, "--resume")) || keeps) &&
            resume != NULL)
            fprintf(stderr, "  %s\n", resume);
    } else {
        char runs[48];
        snprintf(runs, sizeof(runs), "%u", o.runs);
        tally_results *results = NULL;
        size_t failed = tally_runner_failed_runs(runner);
        int took = tally_runner_take_results(&results, runner) == TALLY_OK;
        if (took && adaptive) {
            size_t lo, hi;
            sample_range(&lo, &hi, results);
            if (lo == hi)
                snprintf(runs, sizeof(runs), "%zu", lo);
            else
                snprintf(runs, sizeof(runs), "%zu-%zu", lo, hi);
        }
        /* The runner wrote the result set; stamped, it is written again (atomically). */
        if (took && meta.count > 0 && (cli_meta_apply(&meta, results) != CLI_EXIT_OK ||
                                      tally_results_save(results, o.output) != TALLY_OK)) {
            if (tally_error_last()->code != TALLY_OK)
                fprintf(stderr, "tally run: %s\n", tally_error_last()->message);
            tally_results_free(results);
            status = EXIT_USAGE;
            free(resume);
            goto done;
        }
        if (took) {
            print_summary(o.output, results, runs, failed, monotonic_seconds() - started, "");
            print_first_failure(results);
        }
        tally_results_free(results);
        if (failed > 0)
            fprintf(stderr, "tally run: %zu run%s failed: counted per case as failed_runs, "
                            "reasons in failed_run.N (tally summary %s shows them)\n",
                    failed, failed == 1 ? "" : "s", o.output);
        status = failed > 0 ? EXIT_FAILED_RUNS : EXIT_OK;
    }
    free(resume);
done:
    cli_meta_free(&meta);
    tally_runner_free(runner);
    for (size_t i = 0; params && i < nparams; i++)
        free(params[i]);
    free(params);
    free(command_line);
    free(label);
    for (size_t i = 0; configs && i < nconfigs; i++)
        free((void *)configs[i].command);
    for (size_t i = 0; config_text && config_text[i]; i++)
        free(config_text[i]);
    free(configs);
    free(config_text);
    return status;
}
