/* Helpers shared by the importers of other harnesses' files (import_*.c): the result set every
 * importer starts with, find-or-add of benchmarks and cases, metadata numbers, whitespace
 * fields with their columns, and cheap content probes for sniffing. */
#ifndef TALLY_IMPORT_UTIL_H
#define TALLY_IMPORT_UTIL_H

#include <stddef.h>

#include "formats/importer.h"
#include "util/json_split.h"
#include "util/json_util.h"
#include "util/text.h"

/* The Google Benchmark importer's cJSON path alone, without its row scanner (the fuzz target
 * checks that both give the same results and messages). */
int tally__gbench_parse_tree(tally_results *into, const char *data, size_t len, const char *name,
                             const tally_load_options *opts);

/* Create the one result set of an imported file, labelled opts->label or else the file name
 * without directory and extension, with metadata harness=<harness>, and add it to `into`
 * (which owns it). */
int tally__import_begin(tally_resultset **out, tally_results *into, const char *name,
                        const tally_load_options *opts, const char *harness);

/* The result set labelled `label` in `into`, added (with metadata harness=<harness>) when there
 * is none yet: the importers that split a file into configurations (docs/importers.md). */
int tally__import_config(tally_resultset **out, tally_results *into, const char *label,
                         const char *harness);

/* 1 when the caller's opts->config_key is `key`. */
int tally__import_config_key_is(const tally_load_options *opts, const char *key);

/* When `into` (a fresh list: one file's sets) holds several configurations, the note
 * "NAME: N configurations by BY: 'a', 'b'" on it, so that the output says how the file was
 * split. */
int tally__import_note_split(tally_results *into, const char *name, const char *by);

/* opts->benchmark when given, else `fallback`. */
const char *tally__import_name(const tally_load_options *opts, const char *fallback);

/* Find the benchmark `bench` or add it with this unit and direction. An existing benchmark
 * with another unit or direction is TALLY_EMISMATCH (recorded by the caller, who knows where). */
int tally__import_benchmark(tally_benchmark **out, tally_resultset *rs, const char *bench,
                            const char *unit, tally_direction direction);

/* Find or add a case. */
int tally__import_case(tally_case **out, tally_benchmark *b, const char *name);

/* Find or add benchmark and case, then append one sample. */
int tally__import_sample(tally_resultset *rs, const char *bench, const char *unit,
                         tally_direction direction, const char *casename, double value);

/* Case metadata `key` = v on case `casename` of benchmark `bench` in rs when both exist (a
 * run's closing figure kept next to its interval samples); nothing otherwise. */
int tally__import_case_meta_number(tally_resultset *rs, const char *bench, const char *casename,
                                   const char *key, double v);

/* Set case metadata to a number, in shortest round-trip form. */
int tally__import_meta_number(tally_case *c, const char *key, double value);

/* A whitespace-separated field of a line and its 1-based column. */
typedef struct tally__field {
    const char *s;
    size_t len;
    unsigned long col;
} tally__field;

/* Split line[0..len) at blanks (space, tab); returns the number of fields found, at most max
 * are stored. */
size_t tally__split_fields(tally__field *f, size_t max, const char *line, size_t len);

/* Field f of line `line` of file `name` as a finite number in *v; else the error at the field:
 * "WHAT 'TEXT' is not finite" (TALLY_ENONFINITE) or "expected EXPECTED, found 'TEXT'"
 * (TALLY_EPARSE), e.g. what "time", expected "a time". The one number check of the text
 * importers. */
int tally__field_number(double *v, const tally__field *f, const char *name, unsigned long line,
                        const char *what, const char *expected);

/* The next line of l (in *line, *n) split at blanks into f[0..max), *nf fields found: the loop
 * of the line importers. Returns as tally__lines_next: 1 with a line, 0 at the end, or a
 * negative error already recorded. */
int tally__fields_next(tally__lines *l, const char **line, size_t *n, tally__field *f, size_t max,
                       size_t *nf);

/* 1 when field f equals the NUL-terminated word. */
int tally__field_is(const tally__field *f, const char *word);

/* The case name "<field f><suffix>" ("8-clients") into out[0..room), room > strlen(suffix); a
 * field too long for it is TALLY_ELIMIT at its column in line `line` of file `name`: "a WHAT of
 * N bytes: longer than the M this reader keeps" (what "number of clients"). */
int tally__field_case_name(char *out, size_t room, const tally__field *f, const char *suffix,
                           const char *what, const char *name, unsigned long line);

/* 1 when the first byte of data[0..len) after blanks opens a JSON object: the first test of the
 * JSON importers' sniffers. */
int tally__sniff_json_object(const char *data, size_t len);

/* 1 when needle occurs within the first `limit` bytes of data[0..len). */
int tally__sniff_has(const char *data, size_t len, const char *needle, size_t limit);

/* 1 when a line of data[0..len) within the first `limit` bytes starts, after blanks, with
 * `prefix`. */
int tally__sniff_line_starts(const char *data, size_t len, const char *prefix, size_t limit);

/* 1 when s[0..len) starts with the NUL-terminated prefix. */
int tally__starts_with(const char *s, size_t len, const char *prefix);

/* Check the end of a text report: the first sample-free input is TALLY_EFORMAT naming the file
 * with a hint of what was expected. */
int tally__import_none_found(const char *name, unsigned long lines, const char *what);

/* The end of a line importer's loop: the reader's error (rc < 0), else
 * tally__import_none_found() when `found` is 0, else TALLY_OK. */
int tally__import_end(int rc, size_t found, const tally__lines *l, const char *what);

/* Parse data[0..len) as the JSON document of file `name`, cutting the arrays `cut` names
 * (util/json_split.h), and read it with read(into, doc, opts, p), the path at "$"; the document
 * is freed after. The start and end of the JSON importers that read through a tally__json_doc. */
int tally__json_import(tally_results *into, const char *data, size_t len, const char *name,
                       const tally_load_options *opts, const tally__json_cut *cut,
                       int (*read)(tally_results *into, tally__json_doc *doc,
                                   const tally_load_options *opts, tally__jpath *p));

/* A run's histogram built from several (the intervals of a latency log pooled into one run):
 * bucket values ascending with their counts, the widest resolution of its parts. */
typedef struct tally__buckets {
    double *values;
    uint64_t *counts;
    size_t n, cap;
    double resolution;
} tally__buckets;

/* Add the n buckets values[]/counts[] (values strictly ascending, counts > 0) to `b`: counts of
 * an equal value add up, the others are merged in order. TALLY_ELIMIT when a count would pass
 * 2^64 - 1 (recorded without a position: the caller's message says where), TALLY_ENOMEM. */
int tally__buckets_add(tally__buckets *b, const double *values, const uint64_t *counts, size_t n,
                       double resolution);

/* Append `b` as one histogram run of case `c` (nothing when b is empty) and empty it. */
int tally__buckets_flush(tally__buckets *b, tally_case *c);

void tally__buckets_free(tally__buckets *b);

/* How an interval log's intervals became runs (hdrlog, fio-hist), appended to its note:
 * ", each a run" (load option interval_runs) or ", pooled into one run per PER", then
 * " (N empty left out)" when `empty`. */
void tally__intervals_note(tally__buf *b, const tally_load_options *opts, const char *per,
                           size_t empty);

/* TALLY_OK when the time range kept some of an interval log's intervals (kept > 0), else
 * TALLY_ENODATA: "none of the N intervals WHERE the time range A to B s after the START's
 * start" (where "starts within", start "log"). */
int tally__intervals_kept(const char *name, size_t intervals, size_t kept,
                          const tally_load_options *opts, const char *where, const char *start);
/* The scalar members of the JSON object `obj` (strings, numbers, booleans; arrays of scalars
 * joined by commas; nested objects flattened with ".") as metadata `prefix` + name, on the result
 * set `rs` or, when rs is NULL, on the case `c`; nulls and arrays holding objects are left
 * out. The harnesses' machine and environment blocks (pytest-benchmark's machine_info, JMH's
 * run settings, BenchmarkDotNet's HostEnvironmentInfo). `only`, when not NULL, is the
 * NULL-terminated list of the members taken (the others are left out). */
int tally__import_json_meta(tally_resultset *rs, tally_case *c, const char *prefix,
                            const cJSON *obj, const char *const *only);

/* "n=10,kind=a" from the object {"n": 10, "kind": "a"} (strings, numbers and booleans, in the
 * file's order), the case name of a parametrised benchmark; an empty object gives "". A value
 * of another type is TALLY_EPARSE naming its path (p, extended while it looks). */
int tally__import_params_text(tally__buf *out, const cJSON *params, const char *name,
                              tally__jpath *p);

/* Case metadata reported.<key> = v: a harness's own summary figure for tally_validate(). */
int tally__import_reported(tally_case *c, const char *key, double v);

/* Parse data[0..len) whole as the JSON document of file `name` (tally__json_parse) and read it
 * with read(into, root, name, opts, p), the path at "$"; the tree is freed after. The JSON
 * importers whose files hold no long arrays of numbers. */
int tally__json_import_tree(tally_results *into, const char *data, size_t len, const char *name,
                            const tally_load_options *opts,
                            int (*read)(tally_results *into, const cJSON *root, const char *name,
                                        const tally_load_options *opts, tally__jpath *p));

/* 1 when the first byte of data[0..len) after blanks opens a JSON array. */
int tally__sniff_json_array(const char *data, size_t len);

/* Make `c` a summary-only case (tally_case_set_summary) from `s`; the model's refusal is
 * re-recorded in file `name` at json_path when not NULL, else at line:col. */
int tally__import_case_summary(tally_case *c, const tally_case_summary *s, const char *name,
                               const char *json_path, unsigned long line, unsigned long col);

/* The native JSON form of a summary-only case's summary at obj's member `key`, {"n", "mean",
 * "sd", "interval": [low, high], "interval_level"} ("sd" or the interval with its level may be
 * absent as tally_case_set_summary allows), set on `c`; errors at the JSON path. */
int tally__json_case_summary(tally_case *c, const cJSON *obj, const char *key, const char *name,
                             tally__jpath *p);

/* The fields of a line a line importer keeps: more than any of their lines needs. */
#define TALLY__LINE_FIELDS 16

/* A line importer's file: the result set it fills, its lines, and the current line split at
 * blanks. */
typedef struct tally__line_import {
    tally_resultset *rs;                 /* from tally__import_begin(), owned by `into` */
    tally__lines lines;                  /* the reader: file name and line number for errors */
    const char *line;                    /* the current line, without its line end */
    size_t len;                          /* its length */
    tally__field f[TALLY__LINE_FIELDS];  /* its first TALLY__LINE_FIELDS fields */
    size_t nf;                           /* the number of fields on the line (may exceed those
                                            stored) */
} tally__line_import;

/* The start every line importer makes: tally__import_begin() for the file `name`, and the
 * reader before the first line of data[0..len). */
int tally__line_import_begin(tally__line_import *t, tally_results *into, const char *data,
                             size_t len, const char *name, const tally_load_options *opts,
                             const char *harness);

/* The next line into t->line, t->len, t->f and t->nf, as tally__fields_next(). */
int tally__line_import_next(tally__line_import *t);

/* What a line importer that keeps its state in a reader of its own hands to
 * tally__line_import_run(): the harness (result-set metadata), line(ctx) for each line (t holds
 * it), finish(ctx) (may be NULL) once every line was read, and `what` the importer looks for
 * (tally__import_end's hint). */
typedef struct tally__line_driver {
    const char *harness;
    int (*line)(void *ctx);
    int (*finish)(void *ctx);
    const char *what;
} tally__line_driver;

/* A line importer's whole file: tally__line_import_begin(), d->line for each line until one
 * fails, d->finish at the end, then tally__import_end() with *found (the samples the reader
 * counted, read after the loop). */
int tally__line_import_run(tally__line_import *t, tally_results *into, const char *data,
                           size_t len, const char *name, const tally_load_options *opts,
                           const tally__line_driver *d, void *ctx, const size_t *found);

#endif /* TALLY_IMPORT_UTIL_H */
