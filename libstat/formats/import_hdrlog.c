/* HdrHistogram interval logs (`.hlog`: wrk2, YCSB, jHiccup, cassandra-stress, HdrHistogram's
 * HistogramLogWriter), log format versions 1.0 to 1.3:
 *   #[Histogram log format version 1.3]
 *   #[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 08:24:39 PDT 2015]
 *   #[BaseTime: 0.000 (seconds since epoch)]
 *   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
 *   Tag=reads,0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT4GBgdnN...
 *   0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT4GBgdnN...
 * Each interval line holds one encoded histogram (hdr_decode.c). One benchmark ("latency", or
 * the load option's name), one case per tag ("all" for untagged lines); a log carries no unit,
 * so the caller's --unit applies. The intervals of a tag are pooled into one histogram run, or
 * each is a run of its own (load option interval_runs); the time range keeps the intervals that
 * start within it, in seconds since the log's start. Timestamps are absolute, or relative to
 * BaseTime, or (without BaseTime) relative to StartTime when they lie more than a year before
 * it, as HdrHistogram's HistogramLogReader decides. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/hdr_decode.h"
#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

#define CASE_UNTAGGED "all"
#define MAX_TAGS 256
/* HistogramLogReader: a timestamp this far before StartTime is relative to it. */
#define YEAR_SECONDS (365.0 * 24 * 3600)

typedef struct tag_run {
    tally_case *c;
    tally__buckets pooled;
} tag_run;

typedef struct state {
    const char *name;
    const tally_load_options *opts;
    tally_benchmark *bench;
    tag_run tags[MAX_TAGS];
    size_t ntags;
    double start_time, base_time, first_abs;
    int have_start, have_base, have_first;
    size_t intervals, kept, empty;
    double resolution;
} state;

static int sniff(const char *data, size_t len)
{
    if (tally__sniff_line_starts(data, len, "#[Histogram log format version", 4096))
        return 100;
    if (tally__sniff_has(data, len, "\"StartTimestamp\",\"Interval_Length\"", 4096))
        return 95;
    return 0;
}

/* The number after "#[Key: " of a header line, or an error at its column. */
static int header_number(double *out, const char *line, size_t len, size_t skip, const char *name,
                         unsigned long lineno)
{
    const char *p = line + skip, *end = line + len, *stop;
    while (p < end && *p == ' ')
        p++;
    if (tally__number_scan(out, &stop, p, end, TALLY__NUMBER_TEXT) != TALLY__NUMBER_OK ||
        !isfinite(*out))
        return tally__error_at(TALLY_EPARSE, name, lineno, (unsigned long)(p - line) + 1,
                               "expected a time in seconds");
    return TALLY_OK;
}

static int tag_case(tag_run **out, state *s, const char *tag, size_t n, unsigned long lineno)
{
    char casename[256];
    if (n == 0 || n >= sizeof casename)
        return tally__error_at(TALLY_EPARSE, s->name, lineno, 5,
                               "a tag of 1 to 255 characters, not %zu", n);
    snprintf(casename, sizeof casename, "%.*s", (int)n, tag);
    for (size_t i = 0; i < s->ntags; i++)
        if (strcmp(tally_case_name(s->tags[i].c), casename) == 0) {
            *out = &s->tags[i];
            return TALLY_OK;
        }
    if (s->ntags == MAX_TAGS)
        return tally__error_at(TALLY_ELIMIT, s->name, lineno, 1, "more than %d tags",
                               MAX_TAGS);
    tag_run *t = &s->tags[s->ntags];
    memset(t, 0, sizeof *t);
    int rc = tally__import_case(&t->c, s->bench, casename);
    if (rc != TALLY_OK)
        return rc;
    s->ntags++;
    *out = t;
    return TALLY_OK;
}

/* A comma-separated field starting at *at: its text and 1-based column. */
static int next_field(const char **f, size_t *n, unsigned long *col, const char *line, size_t len,
                      size_t *at)
{
    if (*at > len)
        return 0;
    size_t start = *at, i = start;
    while (i < len && line[i] != ',')
        i++;
    *f = line + start;
    *n = i - start;
    *col = (unsigned long)start + 1;
    *at = i + 1;
    return 1;
}

static int field_number(double *v, const char *f, size_t n, unsigned long col, const char *what,
                        const state *s, unsigned long lineno)
{
    const char *stop;
    if (n == 0 ||
        tally__number_scan(v, &stop, f, f + n, TALLY__NUMBER_TEXT) != TALLY__NUMBER_OK ||
        stop != f + n || !isfinite(*v) || *v < 0)
        return tally__error_at(TALLY_EPARSE, s->name, lineno, col,
                               "expected %s (a number >= 0), found '%.*s'", what,
                               (int)(n > 40 ? 40 : n), f);
    return TALLY_OK;
}

static int interval_line(state *s, const char *line, size_t len, unsigned long lineno)
{
    size_t at = 0;
    const char *f = NULL;
    size_t n = 0;
    unsigned long col;
    tag_run *t = NULL;
    int rc;
    const char *tag = CASE_UNTAGGED;
    size_t tag_len = strlen(CASE_UNTAGGED);
    next_field(&f, &n, &col, line, len, &at);
    if (tally__starts_with(f, n, "Tag=")) {
        tag = f + 4;
        tag_len = n - 4;
        if (!next_field(&f, &n, &col, line, len, &at))
            return tally__error_at(TALLY_EPARSE, s->name, lineno, (unsigned long)len + 1,
                                   "expected the interval's start time after the tag");
    }
    double start, length, max;
    static const char *const what[] = { "the interval's start time", "the interval's length",
                                        "the interval's maximum" };
    double *into[] = { &start, &length, &max };
    for (size_t i = 0; i < 3; i++) {
        if (i > 0 && !next_field(&f, &n, &col, line, len, &at))
            return tally__error_at(TALLY_EPARSE, s->name, lineno, (unsigned long)len + 1,
                                   "expected %s and the encoded histogram", what[i]);
        if ((rc = field_number(into[i], f, n, col, what[i], s, lineno)) != TALLY_OK)
            return rc;
    }
    if (!next_field(&f, &n, &col, line, len, &at) || n == 0)
        return tally__error_at(TALLY_EPARSE, s->name, lineno, (unsigned long)len + 1,
                               "expected the encoded histogram");
    while (n > 0 && (f[n - 1] == ' ' || f[n - 1] == '\r'))
        n--;
    if (at <= len)
        return tally__error_at(TALLY_EPARSE, s->name, lineno, (unsigned long)at,
                               "more fields than tag, start, length, maximum and histogram");
    s->intervals++;
    double base = s->have_base ? s->base_time
                  : s->have_start && start < s->start_time - YEAR_SECONDS ? s->start_time
                                                                         : 0.0;
    double abs = start + base;
    if (!s->have_first) {
        s->first_abs = abs;
        s->have_first = 1;
    }
    double offset = abs - (s->have_start ? s->start_time : s->first_abs);
    if (s->opts->time_range_given &&
        !(offset >= s->opts->time_start && offset < s->opts->time_end))
        return TALLY_OK;
    s->kept++;
    if ((rc = tag_case(&t, s, tag, tag_len, lineno)) != TALLY_OK)
        return rc;
    tally__hdr_hist h;
    rc = tally__hdr_decode(&h, f, n, s->name, lineno, col);
    if (rc == TALLY_OK && h.resolution > s->resolution)
        s->resolution = h.resolution;
    if (rc == TALLY_OK && h.n == 0)
        s->empty++;
    else if (rc == TALLY_OK && s->opts->interval_runs)
        rc = tally_case_histogram_append(t->c, h.values, h.counts, h.n, h.resolution);
    else if (rc == TALLY_OK)
        rc = tally__buckets_add(&t->pooled, h.values, h.counts, h.n, h.resolution);
    if (rc == TALLY_ELIMIT || rc == TALLY_EMISMATCH) {
        char why[256]; /* the message lives where the new one goes */
        snprintf(why, sizeof why, "%s", tally_error_last()->message);
        rc = tally__error_at(rc, s->name, lineno, col, "%s", why);
    }
    tally__hdr_hist_free(&h);
    return rc;
}

static int header_line(state *s, const char *line, size_t len, unsigned long lineno)
{
    int rc = TALLY_OK;
    if (tally__starts_with(line, len, "#[StartTime:")) {
        rc = header_number(&s->start_time, line, len, 12, s->name, lineno);
        s->have_start = 1;
    } else if (tally__starts_with(line, len, "#[BaseTime:")) {
        rc = header_number(&s->base_time, line, len, 11, s->name, lineno);
        s->have_base = 1;
    }
    return rc;
}

/* What the reader of the output must know: how many intervals were kept and pooled, and how
 * close to the recorded values the buckets are. */
static int note(tally_results *into, const state *s)
{
    tally__buf b = TALLY__BUF_INIT;
    char res[32];
    tally__number_format(res, s->resolution);
    tally__buf_printf(&b, "%s: HdrHistogram log: %zu of %zu intervals", s->name, s->kept,
                      s->intervals);
    if (s->opts->time_range_given)
        tally__buf_printf(&b, " start within the time range");
    tally__intervals_note(&b, s->opts, "tag", s->empty);
    tally__buf_printf(&b, "; bucket values exact to within %s", res);
    int rc = b.failed ? tally__oom() : tally_results_note_add(into, b.data);
    tally__buf_dispose(&b);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    static state zero;
    state *s = tally__malloc(sizeof *s);
    if (s == NULL)
        return tally__oom();
    *s = zero;
    s->name = name;
    /* The loader always passes options; a direct caller (the tests) may not. */
    static const tally_load_options defaults = TALLY_LOAD_OPTIONS_INIT;
    s->opts = opts = opts ? opts : &defaults;
    tally_resultset *rs;
    int rc = tally__import_begin(&rs, into, name, opts, "hdrhistogram");
    if (rc == TALLY_OK)
        rc = tally_resultset_benchmark_add(&s->bench, rs, tally__import_name(opts, "latency"), "",
                                           TALLY_LOWER_IS_BETTER);
    tally__lines l;
    tally__lines_init(&l, name, data, len);
    const char *line;
    size_t n;
    int more;
    while (rc == TALLY_OK && (more = tally__lines_next(&l, &line, &n)) > 0) {
        if (n == 0 || line[0] == '"')
            continue;
        if (line[0] == '#')
            rc = header_line(s, line, n, l.lineno);
        else
            rc = interval_line(s, line, n, l.lineno);
    }
    if (rc == TALLY_OK && more < 0)
        rc = more;
    for (size_t i = 0; i < s->ntags; i++) {
        if (rc == TALLY_OK)
            rc = tally__buckets_flush(&s->tags[i].pooled, s->tags[i].c);
        tally__buckets_free(&s->tags[i].pooled);
    }
    if (rc == TALLY_OK && s->intervals == 0)
        rc = tally__import_none_found(name, l.lineno, "HdrHistogram interval lines");
    if (rc == TALLY_OK)
        rc = tally__intervals_kept(name, s->intervals, s->kept, opts, "starts within", "log");
    for (size_t i = 0; rc == TALLY_OK && i < s->ntags; i++)
        if (tally_case_histogram_count(s->tags[i].c) == 0)
            rc = tally__error_at(TALLY_ENODATA, name, 0, 0,
                                 "tag '%s': no counts in the intervals kept%s",
                                 tally_case_name(s->tags[i].c),
                                 opts->time_range_given ? " (time range)" : "");
    if (rc == TALLY_OK)
        rc = note(into, s);
    tally__free_mem(s);
    return rc;
}

const tally__importer tally__importer_hdrlog = {
    .name = "hdrlog", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_TAKES_UNIT | TALLY__IMPORT_INTERVALS,
};
