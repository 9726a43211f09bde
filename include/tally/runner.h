/**
 * @file tally/runner.h
 * @brief Workload runners: run a workload N times across a parameter sweep and collect a result
 * set, with a crash-safe journal, resume, per-run timeouts and a progress callback.
 *
 * A runner runs every run in a child process of its own process group (the built-in workloads
 * fork or start threads inside that child), captures the child's stdout and stderr separately
 * (never shown; beyond 16 MiB the first and last 8 MiB), kills the whole group after the run or
 * on timeout, and the processes that left the group too (a supervising child subreaper catches
 * them; they are reported as ::TALLY_RUN_WARNING), and appends the run to a JSON Lines journal (`OUTPUT.journal`, fsync'd) before the next run starts. On completion the
 * result set is written to `OUTPUT` atomically. The library never prints: progress reaches the
 * caller through ::tally_run_progress_fn. Workloads, parameters, metrics and the journal format
 * are described in docs/runners.md.
 *
 * Thread safety: a runner handle must be used by one thread at a time; independent handles may
 * run in different threads, though their workloads then disturb each other's measurements.
 */
#ifndef TALLY_RUNNER_H
#define TALLY_RUNNER_H

/* Experimental API (docs/releasing.md, "API tiers"): the workload runners may change in any
 * release, without a SONAME bump. Define TALLY_EXPERIMENTAL_API before including tally.h to use
 * it. */
#ifndef TALLY_EXPERIMENTAL_API
#error "tally/runner.h is experimental API: define TALLY_EXPERIMENTAL_API to use it"
#endif

#include "common.h"
#include "resultset.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The workloads a runner knows. */
typedef enum tally_workload {
    TALLY_WORKLOAD_HACKBENCH = 0,     /**< Built-in hackbench-style messaging (`hackbench`). */
    TALLY_WORKLOAD_STREAM = 1,        /**< Built-in STREAM-like memory bandwidth (`stream`). */
    TALLY_WORKLOAD_SCHBENCH = 2,      /**< Built-in schbench-style wakeup latency (`schbench`). */
    TALLY_WORKLOAD_TCP_RR = 3,        /**< Built-in netperf TCP_RR-style loopback (`tcp_rr`). */
    TALLY_WORKLOAD_EXEC = 4,          /**< Any command (`exec`). */
    TALLY_WORKLOAD_RT_HACKBENCH = 5,  /**< rt-tests `hackbench` (`rt-hackbench`). */
    TALLY_WORKLOAD_PERF_MESSAGING = 6,/**< `perf bench sched messaging` (`perf-messaging`). */
    TALLY_WORKLOAD_TBENCH = 7,        /**< dbench's `tbench` with `tbench_srv` (`tbench`). */
    TALLY_WORKLOAD_IPERF3 = 8,        /**< iperf3 client and server on loopback (`iperf3`). */
    TALLY_WORKLOAD_NETPERF = 9        /**< netperf TCP_RR with netserver on loopback (`netperf`). */
} tally_workload;

/** What a progress report is about. */
typedef enum tally_run_phase {
    TALLY_RUN_STARTING = 0, /**< A run is about to start. */
    TALLY_RUN_RUNNING = 1,  /**< A run is in progress (reported about every 100 ms). */
    TALLY_RUN_FINISHED = 2, /**< A run finished (successfully or not) and is in the journal. */
    TALLY_RUN_WARNING = 3   /**< Something the caller should know and may act on (in `message`); the sweep goes on. Also recorded in the result-set metadata (`warning.N`) or, about one run, in its case's (`note.N`). */
} tally_run_phase;

/** One progress report. All pointers are borrowed for the duration of the callback. */
typedef struct tally_run_progress {
    tally_run_phase phase; /**< What happened. */
    const char *case_name; /**< The sweep value being run ("1", "16", ...). */
    size_t run;            /**< 1-based number of this run within its case (warm-ups included). */
    size_t runs;           /**< Runs per case, warm-ups included. */
    int warmup;            /**< 1 when this run is a discarded warm-up run. */
    int failed;            /**< ::TALLY_RUN_FINISHED only: 1 when the run failed. */
    size_t done;           /**< Runs finished so far in the whole sweep (resumed ones included). */
    size_t total;          /**< Runs in the whole sweep. */
    double elapsed;        /**< Seconds since tally_runner_run() started. */
    double remaining;      /**< Estimated seconds left (from the mean run time so far); -1 unknown. */
    size_t runs_done;      /**< Counted (not warm-up) runs finished so far, resumed ones included. */
    size_t runs_total;     /**< Counted runs in the whole sweep. */
    size_t warmups_done;   /**< Warm-up runs finished so far. */
    size_t warmups_total;  /**< Warm-up runs in the whole sweep. */
    const char *message;   /**< ::TALLY_RUN_WARNING only: what happened and what to do; else NULL. */
} tally_run_progress;

/**
 * Progress callback. Called from the thread running tally_runner_run().
 * @param user the options' `progress_user`.
 * @param p the report.
 * @return 0 to go on; non-zero to cancel: the current run is killed (not recorded) and
 *   tally_runner_run() returns ::TALLY_EINTERRUPTED, keeping the journal for `resume`.
 */
typedef int (*tally_run_progress_fn)(void *user, const tally_run_progress *p);

/** One configuration of an exec sweep that compares commands (tally_runner_options::configs). */
typedef struct tally_runner_config {
    const char *label;          /**< Result-set label of this configuration; required, unique. */
    const char *const *command; /**< Its argv, NULL-terminated. */
} tally_runner_config;

/** Options of tally_runner_new(). Initialise with ::TALLY_RUNNER_OPTIONS_INIT. */
typedef struct tally_runner_options {
    unsigned int version;           /**< ::TALLY_RUNNER_OPTIONS_VERSION. */
    tally_workload workload;        /**< Which workload. */
    const char *label;              /**< Result-set label; NULL: "run". */
    const char *sweep;              /**< Comma-separated sweep values ("1,2,4,8,16"); NULL: the workload's default. */
    unsigned int runs;              /**< Counted runs per case (>= 1); default 5. */
    unsigned int warmup;            /**< Discarded warm-up runs per case before the counted ones; default 1. */
    int interleave;                 /**< Non-zero: run 1 of every case, then run 2 of every case, ... */
    double timeout;                 /**< Per-run wall-clock limit in seconds (> 0); default 600. */
    const char *output;             /**< Result-set file to write on completion; NULL: keep in memory only (no journal either). */
    int resume;                     /**< Non-zero: continue the sweep recorded in `OUTPUT.journal`. */
    const char *const *params;      /**< Workload parameters as "key=value" strings (docs/runners.md); may be NULL. */
    size_t param_count;             /**< Number of entries in `params`. */
    const char *const *command;     /**< ::TALLY_WORKLOAD_EXEC: the argv of the command, NULL-terminated. */
    const char *command_line;       /**< The caller's exact command line, recorded as metadata; may be NULL. */
    tally_run_progress_fn progress; /**< Progress callback; may be NULL. */
    void *progress_user;            /**< Passed to `progress`. */
    const tally_runner_config *configs; /**< ::TALLY_WORKLOAD_EXEC: several commands to compare, one result set each (then `label` and `command` stay NULL); with `interleave` their runs alternate. */
    size_t config_count;            /**< Number of entries in `configs`; 0: one configuration from `label` and `command`. */
    int force;                      /**< Non-zero: replace an existing `output` and its journal (unless another process holds the journal), and resume a journal written on another host, kernel or boot. Zero: those are refused (::TALLY_EEXISTS, ::TALLY_EMISMATCH). */
    int append;                     /**< Non-zero: add this sweep's runs to the result set already in `output` (same workload and parameters; runs, warm-ups and sweep values may differ), after its own runs. */
    double until_precision;         /**< Adaptive runs: stop a case once the relative half-width of its statistic's 1 - alpha interval is at most this many percent (> 0); 0: off. With an adaptive rule, `runs` is the most runs per case. See docs/runners.md, "Adaptive runs". */
    const char *against;            /**< Adaptive runs: a baseline result set (file); a case stops once its comparison with the baseline's case of the same benchmark and name is significant or equivalent within +-`mde_pct`, each look tested at its alpha-spending level; NULL: off. Needs `mde_pct`. */
    double mde_pct;                 /**< With `against`: the equivalence margin in percent (> 0). */
    unsigned int min_runs;          /**< Adaptive runs: counted runs of the first look (>= 2, <= `runs`); default 5. */
    unsigned int look_every;        /**< Adaptive runs: counted runs between looks (>= 1); 0: `min_runs`. */
    double alpha;                   /**< Adaptive runs: the overall error level in (0, 0.5): the A/A false-positive rate of `against` and of its equivalence, and 1 - the level of the precision intervals; default 0.05. */
} tally_runner_options;

/** Version 1: the first released layout. A later version appends fields; a caller's older
 *  struct is then read as a prefix (the later fields take their defaults). */
#define TALLY_RUNNER_OPTIONS_VERSION 1
#define TALLY_RUNNER_OPTIONS_INIT \
    { TALLY_RUNNER_OPTIONS_VERSION, TALLY_WORKLOAD_HACKBENCH, NULL, NULL, 5, 1, 0, 600.0, NULL, 0, \
      NULL, 0, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0.0, NULL, 0.0, 5, 0, 0.05 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_RUNNER_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_RUNNER_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_RUNNER_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_runner_options_init(tally_runner_options *opts, unsigned int version);

typedef struct tally_runner tally_runner; /**< A configured sweep. */

/**
 * Create a runner: checks the options and parameters (unknown keys, bad values, an external tool
 * not installed) without running anything. The strings of `opts` are copied.
 * @param out receives the runner; free it with tally_runner_free().
 * @param opts options; required.
 * @return ::TALLY_OK, ::TALLY_EINVAL (bad option or parameter, message names it),
 *   ::TALLY_EEXISTS (two configurations with one label), ::TALLY_ENOTFOUND (an external tool or the exec command is not installed), ::TALLY_ENOMEM.
 */
TALLY_API int tally_runner_new(tally_runner **out, const tally_runner_options *opts);

/** Free a runner and its result set; NULL is accepted. Never leaves child processes behind. */
TALLY_API void tally_runner_free(tally_runner *runner);

/**
 * Run the sweep (or what is left of it with `resume`). Each finished run is appended to the
 * journal before the next starts; on completion the result set is built and, with `output`,
 * written atomically. Failed runs (non-zero exit, signal, timeout, unparsable output) are counted
 * in the cases' `failed_runs` metadata with their exit status and stderr tail, and the sweep goes
 * on. Can be called once per runner.
 * @return ::TALLY_OK, ::TALLY_EINTERRUPTED (cancelled by the callback), ::TALLY_ERUN (a workload
 *   could not be started at all), ::TALLY_EIO (journal or output), ::TALLY_EMISMATCH (the journal
 *   to resume records a different sweep), ::TALLY_EPARSE (corrupt journal), ::TALLY_EINVAL
 *   (called twice), ::TALLY_ENOMEM.
 */
TALLY_API int tally_runner_run(tally_runner *runner);

/**
 * The collected result set (the first configuration's when there are several): metadata
 * (kernel, CPU, memory, date, version, command line, parameters) and one benchmark per metric.
 * @return the result set (borrowed, owned by the runner), or NULL before a successful
 *   tally_runner_run().
 */
TALLY_API const tally_resultset *tally_runner_resultset(const tally_runner *runner);

/**
 * Take the result sets out of the runner (after a successful run).
 * @param out receives a list holding the result set of each configuration, in order; free with
 *   tally_results_free().
 * @return ::TALLY_OK, ::TALLY_EINVAL (nothing to take), ::TALLY_ENOMEM.
 */
TALLY_API int tally_runner_take_results(tally_results **out, tally_runner *runner);

/**
 * The number of failed runs (warm-ups included) of the whole sweep, resumed runs included.
 * @return the count after a successful tally_runner_run(), else 0.
 */
TALLY_API size_t tally_runner_failed_runs(const tally_runner *runner);

/** @return the workload's name ("hackbench", "stream", ..., "netperf"), or NULL. */
TALLY_API const char *tally_workload_name(tally_workload workload);

/** Parse a workload name. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_workload_from_name(tally_workload *out, const char *name);

/**
 * Whether a workload can run on this machine (external tools found on PATH).
 * @return 1 when available, 0 when not.
 */
TALLY_API int tally_workload_available(tally_workload workload);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_RUNNER_H */
