/* The run journal as data (docs/runners.md, "Journal and resume"): JSON Lines, a header line
 * describing the sweep, then one line per finished run. This module reads journals (complete
 * or interrupted) and turns them into result sets; the runner (run/journal.c) writes them and
 * builds its result set through the same code, so a journal read as an input and the result set
 * the runner writes from it are the same. */
#ifndef TALLY_FORMATS_JOURNAL_H
#define TALLY_FORMATS_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "tally.h"

#define TALLY__JOURNAL_VERSION 2 /* and 3: an adaptive sweep, its rule and "stop" lines; 4: a
                                  * sweep with histogram metrics (never adaptive) */
#define TALLY__JOURNAL_VERSION_HIST 4

/* One value a run produces: a (benchmark, case) cell of the result set. */
typedef struct tally__metric {
    char *benchmark;
    char *case_name; /* NULL: the sweep value names the case */
    char *unit;
    tally_direction direction;
    tally_statistic statistic;
    int histogram; /* each run gives a histogram of its requests, not one value */
} tally__metric;

/* One run's histogram of a histogram metric: its non-empty buckets, ascending (the shape of a
 * case's histogram run, tally_case_histogram_append). */
typedef struct tally__journal_hist {
    double *values;
    uint64_t *counts;
    size_t n;
    double resolution;
} tally__journal_hist;

/* One finished run. */
typedef struct tally__journal_run {
    size_t case_index;
    size_t slot; /* 0-based; slot < warmup: a warm-up run */
    int ok;
    double *values; /* metric_count values when ok (those of histogram metrics unused) */
    char *failure;  /* "exit status 1; stderr: ..." when not ok */
    tally__journal_hist *hists; /* when ok and the sweep has histogram metrics: metric_count
                                 * entries, filled for the histogram metrics; else NULL */
} tally__journal_run;

/* Why an adaptive sweep stopped one point (a "stop" line, docs/runners.md). */
typedef struct tally__journal_stop {
    char *reason;  /* "precision", "significant", "equivalent", "max-runs"; NULL: still running */
    size_t runs;   /* counted runs at the stop */
    size_t look;   /* the look that stopped it (1-based) */
    char *detail;  /* e.g. "±1.7 % <= 2 % (95 % interval) at look 3 of 10" */
} tally__journal_stop;

/* A journal in memory: its header and the runs recorded so far. */
typedef struct tally__journal_data {
    cJSON *header;            /* the parsed header (owned) */
    tally__metric *metrics;   /* from the header */
    size_t metric_count;
    size_t sweep_count, config_count, points; /* points = configurations x sweep values */
    size_t warmup, runs, slots;               /* slots = warmup + runs per point */
    tally__journal_run *runs_done;
    size_t count, cap;
    unsigned char *seen; /* points x slots: which runs are recorded */
    size_t keep;         /* bytes of complete lines read (a torn last line starts here) */
    unsigned long lines; /* complete lines read */
    int torn;            /* the last line was cut off mid-write */
    cJSON *resumes;      /* "resumed" notes: where a forced resume continued (owned), or NULL */
    tally__journal_stop *stops; /* adaptive journals (version 3): one per point, else NULL */
} tally__journal_data;

/* 1 when data starts like a journal header. */
int tally__journal_sniff(const char *data, size_t len);

/* Take ownership of a parsed header and check its shape; errors name `name`, line 1. */
int tally__journal_init(tally__journal_data *d, cJSON *header, const char *name);

/* Read a whole journal text: header and run lines (errors name `name` and the real line). A
 * last line without its newline was cut off by a crash and is dropped (d->torn). */
int tally__journal_read(tally__journal_data *d, const char *data, size_t len, const char *name);

/* Record a run (copied). A run of a (case, slot) already recorded is TALLY_EMISMATCH naming
 * `name` and `line` (0: no line). */
int tally__journal_add(tally__journal_data *d, const tally__journal_run *run, const char *name,
                       unsigned long line);

/* Record that point `stop->...` of an adaptive sweep stopped (copied); a second stop of one
 * point, or a stop in a journal without a rule, is TALLY_EPARSE naming `name` and `line`. */
int tally__journal_add_stop(tally__journal_data *d, size_t point, const tally__journal_stop *stop,
                            const char *name, unsigned long line);

/* Record a `{"resumed":{...}}` line (a forced resume on another host, kernel or boot). */
int tally__journal_note_resume(tally__journal_data *d, const char *line, size_t len,
                               const char *name);

/* Result sets (one per configuration) from the header and the runs recorded, in sweep order.
 * When some runs are missing, each set carries `partial` metadata ("12 of 30 runs"). `source`
 * (may be NULL) names the journal in that note. */
int tally__journal_build(tally_results *into, const tally__journal_data *d, const char *source);

/* The runs the sweep makes: points x slots, less what its stopped points leave out. */
size_t tally__journal_expected(const tally__journal_data *d);

/* Failed runs recorded (warm-ups included). */
size_t tally__journal_failed(const tally__journal_data *d);

void tally__journal_data_free(tally__journal_data *d);

/* Whether the sweep has histogram metrics (a version 4 journal). */
int tally__journal_has_histograms(const tally__journal_data *d);

/* Free the arrays of `count` histograms and the array itself. */
void tally__journal_hists_free(tally__journal_hist *h, size_t count);

#endif /* TALLY_FORMATS_JOURNAL_H */
