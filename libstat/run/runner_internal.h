/* Private interface between the runner (runner.c), the process launcher (runner_proc.c), the
 * journal (journal.c) and the workloads (workload_*.c). A workload turns its parameters into a
 * list of metrics and, for each run at a sweep value, either runs a body in the forked child
 * (built-ins) or names a command to exec (external tools, exec); the captured output is then
 * parsed into one value per metric. */
#ifndef TALLY_RUNNER_INTERNAL_H
#define TALLY_RUNNER_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "formats/journal.h"
#include "stats/hdr_histogram.h"
#include "util/internal.h"

/* The parameters of a runner, "key=value" split. */
typedef struct tally__params {
    char **keys;
    char **values;
    size_t count;
} tally__params;

/* Output beyond this is read and dropped, the first and the last half kept, so a chatty
 * workload cannot exhaust memory and a metric printed last is still seen. */
#define TALLY__CAPTURE_MAX ((size_t)16 << 20)

/* What a finished child left behind. */
typedef struct tally__run_output {
    char *out; /* captured stdout, NUL-terminated */
    size_t out_len;
    char *err; /* captured stderr, NUL-terminated */
    size_t err_len;
    double wall; /* seconds from fork to exit */
    double user; /* CPU seconds of the child and its reaped descendants */
    double sys;
    int status;    /* waitpid status */
    int timed_out; /* killed by the timeout */
    size_t out_total, err_total; /* bytes written; more than out_len/err_len: truncated */
    unsigned escaped;            /* processes that had left the run's group, killed after it */
    char escaped_names[400];     /* "sleep (pid 123), ..." */
} tally__run_output;

struct tally__wl;

/* A long-lived server around the sweep (server.c). */
typedef struct tally__server {
    pid_t pid;              /* process group leader; 0: none */
    int pidfd;              /* exit notification, -1 when the kernel has none */
    int err_fd;             /* memory file holding its stderr, or -1 */
    int netns_fd;           /* its private network namespace (runs join it), or -1 */
    long port;
    int relisten;           /* TALLY__SERVER_RELISTEN */
    unsigned long listener; /* socket inode of the listener the last run was given */
    const char *what;       /* names it in messages */
    char *warning;          /* why it is less isolated than asked, or NULL */
} tally__server;

typedef struct tally__workload {
    tally_workload kind;
    const char *name;
    const char *sweep_name;    /* "groups", "workers", ...; NULL: no sweep */
    const char *default_sweep; /* used when the caller gives none */
    const char *tool;          /* executable that must be on PATH, or NULL */
    const char *const *keys;   /* accepted parameter keys, NULL-terminated */
    /* Check parameters, fill wl->cfg and the metrics. */
    int (*configure)(struct tally__wl *wl, const tally__params *p);
    void (*release)(struct tally__wl *wl);
    /* Runs in the forked child (built-ins, and tools that need several processes per run);
     * fills values[metric_count] and, for each histogram metric m, hists[m] (metric_count
     * recorders, zeroed; a body with no histogram metric ignores them). Returns 0 or writes a
     * reason to `why` (size 256) and returns -1. Takes precedence over `command`. */
    int (*body)(const struct tally__wl *wl, const char *sweep_value, double *values,
                tally__hdr_recorder *hists, char *why);
    /* External: the argv to exec (NULL-terminated, tally__free_argv). */
    int (*command)(char ***argv, const struct tally__wl *wl, const char *sweep_value);
    /* External: values from the output; records why on failure. */
    int (*parse)(double *values, const struct tally__wl *wl, const tally__run_output *o);
    /* Optional: start and stop a server around the sweep. */
    int (*start)(struct tally__wl *wl);
    void (*stop)(struct tally__wl *wl);
} tally__workload;

typedef struct tally__wl {
    const tally__workload *w;
    void *cfg;
    tally__metric *metrics;
    size_t metric_count;
    char *const *command; /* exec: the argv of the configuration being run */
    int several;          /* exec: several configurations (the benchmark name cannot be one
                           * command's name) */
    tally__server server; /* a server started by `start` */
} tally__wl;

extern const tally__workload tally__workload_hackbench;
extern const tally__workload tally__workload_stream;
extern const tally__workload tally__workload_schbench;
extern const tally__workload tally__workload_tcp_rr;
extern const tally__workload tally__workload_exec;
extern const tally__workload tally__workload_rt_hackbench;
extern const tally__workload tally__workload_perf_messaging;
extern const tally__workload tally__workload_tbench;
extern const tally__workload tally__workload_iperf3;
extern const tally__workload tally__workload_netperf;

/* The importers whose parsers the external-tool workloads reuse: formats/importer.h. */
struct tally__importer;
/* Parse `o->out` with an importer and return its only sample (the last one when the output
 * holds several). */
/* "Total time: X [sec]" of perf bench sched messaging (workload_perf_messaging.c). */
int tally__parse_perf_messaging(double *value, const char *out);
/* end.sum_received.bits_per_second of iperf3 -J, in Mbit/s; an "error" member is a failure
 * (workload_iperf3.c). */
int tally__parse_iperf3(double *mbits, const char *data, size_t len);
int tally__parse_with_importer(double *value, const struct tally__importer *imp,
                               const char *what, const tally__run_output *o);

const tally__workload *tally__workload_find(tally_workload kind);

/* ---- runner_util.c ---- */
int tally__wl_add_metric(tally__wl *wl, const char *benchmark, const char *case_name,
                         const char *unit, tally_direction direction, tally_statistic stat);
const char *tally__param_get(const tally__params *p, const char *key);
/* Integer parameter in [min, max]; `def` when absent. */
int tally__param_long(long *out, const tally__params *p, const char *key, long def, long min,
                      long max);
/* Positive finite double parameter; `def` when absent. */
int tally__param_double(double *out, const tally__params *p, const char *key, double def);
/* One of `choices` (NULL-terminated); returns its index in *out. */
int tally__param_choice(int *out, const tally__params *p, const char *key,
                        const char *const *choices, int def);
/* Parse a sweep value as a positive integer in [1, max]. */
int tally__sweep_long(long *out, const char *value, const char *what, long max);
/* NULL-terminated argv from printf-free pieces; NULL pieces are skipped. */
int tally__argv_new(char ***out, const char *const *pieces, size_t n);
void tally__free_argv(char **argv);
/* Is `name` an executable on PATH (or a path to one)? */
int tally__find_executable(const char *name);
/* Monotonic seconds. */
double tally__now(void);
/* Last `max` bytes of s, starting at a line start when possible. */
const char *tally__tail(const char *s, size_t len, size_t max);

/* ---- latency_hist.c: histogram=1 of the latency workloads (docs/runners.md) ---- */
/* Significant digits of the latency histograms: 1 part in 1024 (HdrHistogram's common 3). */
#define TALLY__LATENCY_DIGITS 3
/* Read `histogram` (0 or 1, default 0) into *on; when 1, add the histogram metric `benchmark`
 * in usec, lower is better. */
int tally__latency_hist_configure(int *on, tally__wl *wl, const tally__params *p,
                                  const char *benchmark);
/* Initialise n recorders of TALLY__LATENCY_DIGITS digits (one per thread). */
int tally__latency_recorders_init(tally__hdr_recorder *r, size_t n);
/* Record one latency in usec (as whole nanoseconds). */
void tally__latency_record(tally__hdr_recorder *r, double usec);
/* Merge (and free) the n threads' recorders into `into`; -1 with a reason in `why` when a
 * latency was lost or the histogram does not hold exactly `requests` requests. */
int tally__latency_merge(tally__hdr_recorder *into, tally__hdr_recorder *threads, size_t n,
                         uint64_t requests, char *why);
/* The built-in body's stdout: the values of the metrics that are not histograms, one per line,
 * then for each histogram metric m a line "histogram M N RESOLUTION" and N lines "VALUE COUNT"
 * (usec, ascending). */
int tally__body_output_write(tally__buf *b, const tally__wl *wl, const double *values,
                             const tally__hdr_recorder *hists);
/* Parse that output into values and (when the workload has histogram metrics) hists, zeroed
 * metric_count entries the caller frees (tally__journal_hists_free). */
int tally__body_output_parse(double *values, tally__journal_hist *hists, const tally__wl *wl,
                             const char *out);

/* ---- runner_proc.c ---- */
typedef int (*tally__poll_fn)(void *user);

/* Run one run: a keeper process (a child subreaper) forks the run's leader in a process group
 * of its own, running `body` (when argv is NULL) or exec'ing argv; stdout and stderr are
 * captured (the first and last TALLY__CAPTURE_MAX / 2 bytes of each); at most `timeout`
 * seconds (then the group is killed); `poll` is called about every 100 ms (non-zero cancels:
 * kill, TALLY_EINTERRUPTED). When the leader exits, its group is killed before it is reaped,
 * and processes that had left the group are killed and counted in o->escaped. */
int tally__run_child(tally__run_output *o, const tally__wl *wl, const char *sweep_value,
                     char *const *argv, double timeout, tally__poll_fn poll, void *poll_user);
void tally__run_output_free(tally__run_output *o);
/* Parameters shared by the built-in hackbench and rt-tests' hackbench (workload_hackbench.c). */
enum { TALLY__HB_PROCESS, TALLY__HB_THREAD };
enum { TALLY__HB_PIPE, TALLY__HB_SOCKET };
typedef struct tally__hackbench_params {
    int mode, ipc;
    long loops, datasize, fds;
} tally__hackbench_params;
extern const char *const tally__hackbench_keys[];
/* Read mode, ipc, loops, datasize (at most max_datasize) and fds, and register the metric
 * hackbench-{process|thread}-{pipes|sockets} in seconds, lower is better. */
int tally__hackbench_configure(tally__hackbench_params *c, tally__wl *wl, const tally__params *p,
                               long max_datasize);

/* Settings of a client/server tool on loopback (iperf3, netperf): a port and a runtime, also
 * as argument text. */
typedef struct tally__loopback_cfg {
    long port;
    char port_s[16], runtime_s[24];
} tally__loopback_cfg;
/* Allocate wl->cfg as a tally__loopback_cfg from the `runtime` (default 10 s) and `port`
 * parameters. */
int tally__loopback_configure(tally__loopback_cfg **out, tally__wl *wl, const tally__params *p,
                              long default_port);

/* ---- server.c ---- */
/* Whether something accepts TCP connections on 127.0.0.1:port (connects to it: use only for
 * "port already in use", never on a server of ours). */
int tally__loopback_port_open(long port);
enum {
    TALLY__SERVER_RELISTEN = 1, /* re-creates its listener after every client (iperf3) */
    TALLY__SERVER_NETNS = 2     /* wants a private network namespace (binds every address) */
};
void tally__server_init(tally__server *s);
/* Start a server (argv) that listens on `port` (127.0.0.1, or any address in its private
 * namespace): refuse when the port is taken (the message ends with `busy_hint`, what to do),
 * then wait until the server's own socket is in LISTEN state, without connecting to it. A
 * refused namespace leaves a warning in s->warning and starts the server in the host's. */
int tally__server_start(tally__server *s, char *const *argv, long port, const char *what,
                        unsigned flags, const char *busy_hint);
/* Before a run: the server is alive and listening (with RELISTEN: on a listener other than the
 * one the previous run was given). A dead server is an error quoting its stderr. */
int tally__server_ready(tally__server *s);
/* Stop the server: its whole process group, killed before the leader is reaped. */
void tally__server_stop(tally__server *s);
void tally__server_init_fds(tally__server *s);
/* Stop, and free the warning. */
void tally__server_free(tally__server *s);
/* Stop the workload's server, if any (a workload's `stop`). */
void tally__wl_stop_server(tally__wl *wl);
/* Reset every signal disposition to its default and unblock every signal (in a fresh child:
 * the caller's handlers and ignored signals are not the workload's). */
void tally__reset_signals(void);
/* A pidfd for a child (poll() says when it exits), or -1 when the kernel has none. */
int tally__pidfd_open(pid_t pid);
/* Set prctl(PR_SET_PDEATHSIG) in a freshly forked process so it dies with its parent. */
void tally__die_with_parent(void);

/* ---- workload_tcp_rr.c ---- */
#define TALLY__ACCEPT_STRANGERS_MAX 64
/* Accept, on listening socket lfd, the connection whose peer is client_fd's own address and
 * port, closing (and counting in *strangers) the connections of anyone else that came first;
 * -1 with errno on error or after TALLY__ACCEPT_STRANGERS_MAX strangers. */
int tally__accept_own(int lfd, int client_fd, unsigned *strangers);

/* ---- runner_sysinfo.c ---- */
int tally__sysinfo_record(tally_resultset *rs);
/* One fact about this machine by its metadata key ("governor", "smt", "load_avg", ...; the list
 * in runner_sysinfo.c) into out: 1 when it could be read, 0 when not (never guessed). */
int tally__sys_probe(char *out, size_t cap, const char *key);
/* Bytes of the largest CPU cache listed in sysfs, or 0 when unknown. */
size_t tally__llc_bytes(void);

/* ---- journal.c ---- */
/* The journal file of a sweep and the runs recorded in it. */
typedef struct tally__journal {
    int fd; /* -1: memory only (no output path) */
    char *path;
    tally__journal_data d;
} tally__journal;

/* An empty journal with no file. */
void tally__journal_memory(tally__journal *j);
/* A journal in memory only, from its header text. */
int tally__journal_open_memory(tally__journal *j, const char *header);
/* Create the journal (never following a link), lock it and write its header. An existing one
 * is TALLY_EEXISTS unless `force` (then it is removed, unless another process holds it:
 * TALLY_EBUSY). */
int tally__journal_create(tally__journal *j, const char *path, const char *header, int force);
/* Close a journal this sweep created and remove its file, while still under its lock: for a
 * sweep refused before its first run (a port in use), whose header-only journal would
 * otherwise make the same command ask for --resume or --force. */
void tally__journal_discard(tally__journal *j);
/* Open an existing journal under its lock: check that its header matches `header` (the keys
 * that differ are named; another host, kernel or boot is refused unless `force`, then noted in
 * the journal), load its runs (an incomplete last line, from a crash mid-write, is cut off),
 * and position for append. */
int tally__journal_resume(tally__journal *j, const char *path, const char *header, int force);
/* Record a run (copied), append it as one line and fsync before returning; a (case, slot)
 * already recorded is refused. Without a file only memory is updated. */
int tally__journal_append(tally__journal *j, const tally__journal_run *run);
/* Append an adaptive sweep's stop of `point` (a "stop" line, fsync'd). */
int tally__journal_append_stop(tally__journal *j, size_t point, const tally__journal_stop *stop);
void tally__journal_close(tally__journal *j);

#endif /* TALLY_RUNNER_INTERNAL_H */
