/* fio's latency histogram logs (`--write_hist_log=NAME --log_hist_msec=MS`, files
 * NAME_clat_hist.N.log), one line per interval and direction:
 *   msec, ddir, bs, bin0, bin1, ..., binN-1
 * the time (ms since the job's start, at the end of the interval), the direction (0 read, 1
 * write, 2 trim), the block size, then the interval's request count in each of fio's latency
 * bins. fio 3.x has 1856 bins (FIO_IO_U_PLAT_GROUP_NR 29) of nanoseconds, fio 2.x 1216 (19)
 * of microseconds; log_hist_coarseness=C sums each 2^C neighbours (C from 0 to 6), so the
 * number of bins tells the version and C apart. Benchmarks "read clat", "write clat", "trim
 * clat" (ns, lower is better; fio 2.x's microseconds read as ns x 1000), case "all"; the
 * intervals of a direction are pooled into one histogram run, or each is a run of its own (load
 * option interval_runs); the time range keeps the intervals whose time lies within it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/number.h"
#include "util/text.h"

#define PLAT_BITS 6 /* FIO_IO_U_PLAT_BITS */
#define GROUPS_V3 29
#define GROUPS_V2 19
#define MAX_COARSENESS 6

static const char *const directions[] = { "read", "write", "trim" };

typedef struct state {
    const char *name;
    const tally_load_options *opts;
    tally_resultset *rs;
    size_t nbins;
    int v3, coarseness;
    double *bin_value, *bin_res; /* per (coarse) bin: its value and half width, ns */
    double *values;              /* one line's buckets */
    uint64_t *counts;
    tally_case *cases[3];
    tally__buckets pooled[3];
    size_t lines, kept, empty;
    double resolution;
} state;

/* The bin layout of a line of n bins: 1 with fio's version and the coarseness. */
static int layout(size_t n, int *v3, int *coarseness)
{
    for (int c = 0; c <= MAX_COARSENESS; c++) {
        if (n == ((size_t)GROUPS_V3 << PLAT_BITS) >> c) {
            *v3 = 1;
            *coarseness = c;
            return 1;
        }
        if (n == ((size_t)GROUPS_V2 << PLAT_BITS) >> c) {
            *v3 = 0;
            *coarseness = c;
            return 1;
        }
    }
    return 0;
}

/* The number of comma-separated fields of the first line of data[0..len), and whether its first
 * three are whole numbers. */
static size_t first_line_fields(const char *data, size_t len, int *numeric)
{
    const char *nl = memchr(data, '\n', len);
    size_t n = nl ? (size_t)(nl - data) : len, fields = 1;
    *numeric = 1;
    for (size_t i = 0; i < n; i++) {
        char ch = data[i];
        if (ch == ',')
            fields++;
        else if (fields <= 3 && !(ch >= '0' && ch <= '9') && ch != ' ' && ch != '\r')
            *numeric = 0;
        else if (fields > 3 && !(ch >= '0' && ch <= '9') && ch != ' ' && ch != '\r')
            return 0;
    }
    return fields;
}

static int sniff(const char *data, size_t len)
{
    int numeric, v3, c;
    size_t nf = first_line_fields(data, len, &numeric);
    return numeric && nf > 3 && layout(nf - 3, &v3, &c) ? 95 : 0;
}

/* fio's bin idx (plat_idx_to_val's layout): idx < 128 holds the value idx itself; above, group
 * g = idx / 64 - 1 starts at 2^(g + 6) and holds 64 bins of width 2^g. lo and hi are the
 * smallest and largest whole values of the bin. */
static void fine_bin(size_t idx, double *lo, double *hi)
{
    if (idx < (2u << PLAT_BITS)) {
        *lo = *hi = (double)idx;
        return;
    }
    int g = (int)(idx >> PLAT_BITS) - 1;
    double base = ldexp(1.0, g + PLAT_BITS), w = ldexp(1.0, g);
    *lo = base + (double)(idx & ((1u << PLAT_BITS) - 1)) * w;
    *hi = *lo + w - 1;
}

/* Each (coarse) bin's value: fio's plat_idx_to_val for a fine bin (the midpoint of its range,
 * lo + width / 2; the value itself below 128), the same midpoint over a coarse bin's fine bins;
 * its resolution is half the range's width. */
static int bin_table(state *s)
{
    s->bin_value = tally__reallocarray(NULL, s->nbins, sizeof *s->bin_value);
    s->bin_res = tally__reallocarray(NULL, s->nbins, sizeof *s->bin_res);
    s->values = tally__reallocarray(NULL, s->nbins, sizeof *s->values);
    s->counts = tally__reallocarray(NULL, s->nbins, sizeof *s->counts);
    if (!s->bin_value || !s->bin_res || !s->values || !s->counts)
        return tally__oom();
    double scale = s->v3 ? 1.0 : 1000.0;
    for (size_t j = 0; j < s->nbins; j++) {
        double lo, hi, unused;
        fine_bin(j << s->coarseness, &lo, &unused);
        fine_bin(((j + 1) << s->coarseness) - 1, &unused, &hi);
        s->bin_value[j] = (lo == hi ? lo : (lo + hi + 1) / 2) * scale;
        s->bin_res[j] = (lo == hi ? 0 : (hi + 1 - lo) / 2) * scale;
    }
    return TALLY_OK;
}

/* The next ", "-separated field of line[0..len) from *at: its text (blanks trimmed), column. */
static int next_field(const char **f, size_t *n, unsigned long *col, const char *line, size_t len,
                      size_t *at)
{
    if (*at > len)
        return 0;
    size_t i = *at;
    while (i < len && line[i] == ' ')
        i++;
    size_t start = i;
    while (i < len && line[i] != ',')
        i++;
    size_t end = i;
    while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\r'))
        end--;
    *f = line + start;
    *n = end - start;
    *col = (unsigned long)start + 1;
    *at = i + 1;
    return 1;
}

static int whole(double *v, const char *f, size_t n, unsigned long col, const char *what,
                 const state *s, unsigned long lineno)
{
    const char *stop;
    if (n == 0 ||
        tally__number_scan(v, &stop, f, f + n, TALLY__NUMBER_TEXT) != TALLY__NUMBER_OK ||
        stop != f + n || !(*v >= 0) || *v != floor(*v) || *v > 9007199254740992.0)
        return tally__error_at(TALLY_EPARSE, s->name, lineno, col,
                               "expected %s (a whole number >= 0), found '%.*s'", what,
                               (int)(n > 40 ? 40 : n), f);
    return TALLY_OK;
}

static int interval_line(state *s, const char *line, size_t len, unsigned long lineno)
{
    size_t at = 0, n = 0, nf = 1;
    for (size_t i = 0; i < len; i++)
        nf += line[i] == ',';
    if (s->nbins == 0) {
        if (nf <= 3 || !layout(nf - 3, &s->v3, &s->coarseness))
            return tally__error_at(TALLY_EPARSE, s->name, lineno, 1,
                                   "%zu fields: expected time, direction, block size and fio's "
                                   "latency bins (1856 for fio 3.x, 1216 for 2.x, or either "
                                   "halved 1 to 6 times by log_hist_coarseness)",
                                   nf);
        s->nbins = nf - 3;
        int rc = bin_table(s);
        if (rc != TALLY_OK)
            return rc;
    } else if (nf != s->nbins + 3) {
        return tally__error_at(TALLY_EPARSE, s->name, lineno, 1,
                               "%zu fields, the first line %zu (time, direction, block size "
                               "and %zu bins)",
                               nf, s->nbins + 3, s->nbins);
    }
    const char *f = NULL;
    unsigned long col = 1;
    double t, ddir, bs;
    int rc;
    next_field(&f, &n, &col, line, len, &at);
    if ((rc = whole(&t, f, n, col, "a time in ms", s, lineno)) != TALLY_OK)
        return rc;
    next_field(&f, &n, &col, line, len, &at);
    if ((rc = whole(&ddir, f, n, col, "a direction", s, lineno)) != TALLY_OK)
        return rc;
    if (ddir > 2)
        return tally__error_at(TALLY_EPARSE, s->name, lineno, col,
                               "expected a direction 0 (read), 1 (write) or 2 (trim), found %.0f",
                               ddir);
    next_field(&f, &n, &col, line, len, &at);
    if ((rc = whole(&bs, f, n, col, "a block size", s, lineno)) != TALLY_OK)
        return rc;
    s->lines++;
    /* the bins are checked even on a line the time range leaves out */
    size_t k = 0;
    double res = 0;
    for (size_t j = 0; j < s->nbins; j++) {
        double c;
        next_field(&f, &n, &col, line, len, &at);
        if ((rc = whole(&c, f, n, col, "a bin's count", s, lineno)) != TALLY_OK)
            return rc;
        if (c > 0) {
            s->values[k] = s->bin_value[j];
            s->counts[k] = (uint64_t)c;
            if (s->bin_res[j] > res)
                res = s->bin_res[j];
            k++;
        }
    }
    double sec = t / 1000;
    if (s->opts->time_range_given && !(sec >= s->opts->time_start && sec < s->opts->time_end))
        return TALLY_OK;
    s->kept++;
    size_t d = (size_t)ddir;
    if (s->cases[d] == NULL) {
        char bench[32];
        tally_benchmark *b;
        snprintf(bench, sizeof bench, "%s clat", directions[d]);
        rc = tally__import_benchmark(&b, s->rs, bench, "ns", TALLY_LOWER_IS_BETTER);
        if (rc == TALLY_OK)
            rc = tally__import_case(&s->cases[d], b, "all");
        if (rc != TALLY_OK)
            return rc;
    }
    if (k == 0) {
        s->empty++;
        return TALLY_OK;
    }
    if (res > s->resolution)
        s->resolution = res;
    if (s->opts->interval_runs)
        rc = tally_case_histogram_append(s->cases[d], s->values, s->counts, k, res);
    else
        rc = tally__buckets_add(&s->pooled[d], s->values, s->counts, k, res);
    if (rc == TALLY_ELIMIT) {
        char why[256]; /* the message lives where the new one goes */
        snprintf(why, sizeof why, "%s", tally_error_last()->message);
        rc = tally__error_at(rc, s->name, lineno, 1, "%s", why);
    }
    return rc;
}

/* What the reader of the output must know: the version told by the bins, how many intervals
 * were kept and pooled, and how close to the requests' latencies the bins are. */
static int note(tally_results *into, const state *s)
{
    tally__buf b = TALLY__BUF_INIT;
    char res[TALLY__NUMBER_BUF];
    tally__number_format(res, s->resolution);
    tally__buf_printf(&b, "%s: fio %s histogram log (%zu bins, log_hist_coarseness %d, %s): "
                          "%zu of %zu intervals",
                      s->name, s->v3 ? "3.x" : "2.x", s->nbins, s->coarseness,
                      s->v3 ? "ns" : "microseconds read as ns x 1000", s->kept, s->lines);
    if (s->opts->time_range_given)
        tally__buf_printf(&b, " within the time range");
    tally__intervals_note(&b, s->opts, "direction", s->empty);
    tally__buf_printf(&b, "; bin values exact to within %s ns (a bin's midpoint)", res);
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
    int rc = tally__import_begin(&s->rs, into, name, opts, "fio");
    tally__lines l;
    tally__lines_init(&l, name, data, len);
    const char *line;
    size_t n;
    int more = 0;
    while (rc == TALLY_OK && (more = tally__lines_next(&l, &line, &n)) > 0) {
        size_t m = n;
        tally__trim(line, &m);
        if (m > 0)
            rc = interval_line(s, line, n, l.lineno);
    }
    if (rc == TALLY_OK && more < 0)
        rc = more;
    for (size_t d = 0; d < TALLY__COUNT(s->pooled); d++) {
        if (rc == TALLY_OK && s->cases[d])
            rc = tally__buckets_flush(&s->pooled[d], s->cases[d]);
        tally__buckets_free(&s->pooled[d]);
    }
    if (rc == TALLY_OK && s->lines == 0)
        rc = tally__import_none_found(name, l.lineno, "fio histogram log lines");
    if (rc == TALLY_OK)
        rc = tally__intervals_kept(name, s->lines, s->kept, opts, "lies within", "job");
    for (size_t d = 0; rc == TALLY_OK && d < TALLY__COUNT(s->cases); d++)
        if (s->cases[d] && tally_case_histogram_count(s->cases[d]) == 0)
            rc = tally__error_at(TALLY_ENODATA, name, 0, 0,
                                 "%s: no requests in the intervals kept%s", directions[d],
                                 opts->time_range_given ? " (time range)" : "");
    if (rc == TALLY_OK)
        rc = note(into, s);
    tally__free_mem(s->bin_value);
    tally__free_mem(s->bin_res);
    tally__free_mem(s->values);
    tally__free_mem(s->counts);
    tally__free_mem(s);
    return rc;
}

const tally__importer tally__importer_fio_hist = {
    .name = "fio-hist", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_TOOL_TEXT | TALLY__IMPORT_INTERVALS,
};
