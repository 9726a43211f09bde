/* `perf stat` output written with -x, (CSV) or -j (one JSON object a line), docs/importers.md.
 * Each event is a benchmark (lower is better) with one case "all". Its samples are, by the
 * shape of the file:
 *   - -I: each interval line a sample;
 *   - -r N -v: the raw count of each run ("[ perf stat: executing run #k ... ]" then
 *     "EVENT: COUNT ENABLED RUNNING"), scaled to the printed unit; the printed counter and its
 *     "variance" column (100 x the standard error of the mean over the printed counter) are
 *     kept as reported.perf_counter and reported.perf_variance for tally validate;
 *   - otherwise each block ("# started on ..."; perf stat --append adds one per invocation)
 *     one sample, its printed value.
 * A -r summary without its runs is refused: the file does not say how many runs it averages.
 * "<not counted>" samples are dropped and "<not supported>" events left out, each said in a
 * note. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

#define STARTED "# started on "
#define RUN_MARK "[ perf stat: executing run #"

/* perf stat -x,: every content line is [INTERVAL,]VALUE,UNIT,EVENT,... with VALUE a number or
 * "<not counted>" / "<not supported>", and EVENT a name (perf-stat(1), "CSV FORMAT"). */
static int csv_line(const char *s, size_t n)
{
    const char *c1 = memchr(s, ',', n);
    const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(s + n - c1 - 1)) : NULL;
    const char *c3 = c2 ? memchr(c2 + 1, ',', (size_t)(s + n - c2 - 1)) : NULL;
    if (c3 == NULL || c3 == c2 + 1)
        return 0;
    double v;
    int value = (c1 > s && tally__parse_double(&v, s, (size_t)(c1 - s)) == TALLY_OK) ||
                (c1 - s > 5 && memcmp(s, "<not ", 5) == 0);
    for (const char *e = c2 + 1; value && e < c3; e++)
        if (!(*e == '-' || *e == '_' || *e == ':' || *e == '/' || *e == '.' ||
              (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9')))
            return 0;
    return value;
}

/* Every content line of the first piece a perf stat -x, line (the file perf stat -x, 2> FILE
 * writes holds no header); the last line may be cut. */
static int csv_lines(const char *data, size_t len)
{
    size_t end = len < TALLY__SNIFF_MAX ? len : TALLY__SNIFF_MAX, lines = 0;
    for (const char *p = data; p < data + end;) {
        const char *nl = memchr(p, '\n', (size_t)(data + end - p));
        size_t n = (size_t)((nl ? nl : data + end) - p);
        const char *s = tally__trim(p, &n);
        if (n > 0 && s[0] != '#') {
            if (!csv_line(s, n))
                return nl == NULL && lines > 0;
            lines++;
        }
        p = nl ? nl + 1 : data + end;
    }
    return lines > 0;
}

static int sniff(const char *data, size_t len)
{
    if (tally__sniff_line_starts(data, len, STARTED, 1024) &&
        (tally__sniff_has(data, len, "{\"counter-value\" : ", 8192) ||
         tally__sniff_has(data, len, RUN_MARK, 8192) ||
         tally__sniff_has(data, len, ",msec,", 8192) || tally__sniff_has(data, len, ",,", 8192)))
        return 95;
    /* Without the header (perf stat -x, 2> FILE keeps it; a cut file may not). */
    if (tally__sniff_line_starts(data, len, "{\"counter-value\" : ", 1024) ||
        tally__sniff_line_starts(data, len, "{\"interval\" : ", 1024))
        return 80;
    return csv_lines(data, len) ? 85 : 0;
}

/* One data line, from CSV fields or a JSON object. */
typedef struct perf_line {
    const char *value;   /* the counter as printed: a number, "<not counted>", "<not supported>" */
    size_t value_len;
    const char *unit, *event;
    size_t unit_len, event_len;
    int has_interval;
    double interval;
    int has_variance;
    const char *variance; /* its text, "2.36" of "2.36%" */
    size_t variance_len;
    unsigned long value_col, event_col;
} perf_line;

/* The raw counts of the -v runs of the current block, per event, until its summary line. */
typedef struct pending {
    char *event;
    double *raw;
    size_t n, cap;
    unsigned long line; /* of the first run line, for messages */
} pending;

typedef struct reader {
    tally_results *into;
    tally_resultset *rs;
    const char *name;
    const tally_load_options *opts;
    tally__lines lines;
    pending *pend;
    size_t npend, cappend;
    size_t samples;
    size_t not_counted;       /* samples dropped */
    char *not_counted_events; /* their events, for the note */
    tally__buf unsupported;   /* events left out */
    int mode;                 /* 0 unknown, 'I' intervals, 'r' -r runs, 'b' one run a block */
} reader;

static void pending_clear(reader *r)
{
    for (size_t i = 0; i < r->npend; i++) {
        tally__free_mem(r->pend[i].event);
        tally__free_mem(r->pend[i].raw);
    }
    r->npend = 0;
}

static int set_mode(reader *r, int mode, unsigned long col)
{
    if (r->mode == 0 || r->mode == mode) {
        r->mode = mode;
        return TALLY_OK;
    }
    return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno, col,
                           "this line is of another kind of perf stat output (%s) than the "
                           "lines before (%s): read one kind a file",
                           mode == 'I' ? "-I intervals" : mode == 'r' ? "-r with its runs"
                                                                      : "one run",
                           r->mode == 'I' ? "-I intervals" : r->mode == 'r' ? "-r with its runs"
                                                                            : "one run");
}

/* "EVENT: COUNT ENABLED RUNNING" of a -v run. */
static int run_line(reader *r, const char *s, size_t n)
{
    const char *colon = memchr(s, ':', n);
    if (colon == NULL)
        return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno, 1,
                               "expected a perf stat -x, or -j line");
    tally__field f[4];
    const char *rest = colon + 1;
    size_t nf = tally__split_fields(f, 4, rest, (size_t)(s + n - rest));
    if (nf < 1)
        return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno,
                               (unsigned long)(rest - s) + 1, "expected the run's count");
    f[0].col += (unsigned long)(rest - s);
    double v;
    int rc = tally__field_number(&v, &f[0], r->name, r->lines.lineno, "count", "a count");
    if (rc != TALLY_OK)
        return rc;
    size_t elen = (size_t)(colon - s);
    pending *p = NULL;
    for (size_t i = 0; i < r->npend && p == NULL; i++)
        if (strlen(r->pend[i].event) == elen && memcmp(r->pend[i].event, s, elen) == 0)
            p = &r->pend[i];
    if (p == NULL) {
        if (r->npend == r->cappend) {
            size_t cap = r->cappend ? 2 * r->cappend : 8;
            pending *grown = tally__reallocarray(r->pend, cap, sizeof *grown);
            if (grown == NULL)
                return tally__oom();
            r->pend = grown;
            r->cappend = cap;
        }
        p = &r->pend[r->npend];
        memset(p, 0, sizeof *p);
        if ((p->event = tally__strndup(s, elen)) == NULL)
            return tally__oom();
        p->line = r->lines.lineno;
        r->npend++;
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 8;
        double *grown = tally__reallocarray(p->raw, cap, sizeof *grown);
        if (grown == NULL)
            return tally__oom();
        p->raw = grown;
        p->cap = cap;
    }
    p->raw[p->n++] = v;
    return TALLY_OK;
}

/* The fields of a -x, line: [interval,] value, unit, event, [variance%,] runtime, ... */
static int csv_fields(perf_line *pl, reader *r, const char *s, size_t n)
{
    const char *f[12];
    size_t len[12], nf = 0;
    unsigned long col[12];
    for (const char *p = s; nf < 12;) {
        const char *comma = memchr(p, ',', (size_t)(s + n - p));
        f[nf] = p;
        len[nf] = (size_t)((comma ? comma : s + n) - p);
        col[nf] = (unsigned long)(p - s) + 1;
        nf++;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    /* An interval line starts with the time stamp, blank-padded ("     0.125809320"). */
    size_t at = 0;
    memset(pl, 0, sizeof *pl);
    if (nf >= 4) {
        size_t tl = len[0];
        const char *t = tally__trim(f[0], &tl);
        double ts;
        const char *dot = memchr(t, '.', tl);
        if (dot && (size_t)(t + tl - dot) == 10 && tally__parse_double(&ts, t, tl) == TALLY_OK &&
            len[3] > 0 && !(len[3] > 0 && f[3][len[3] - 1] == '%')) {
            /* value, unit, event follow: the event is never a number or empty */
            double x;
            if (tally__parse_double(&x, f[3], len[3]) != TALLY_OK) {
                pl->has_interval = 1;
                pl->interval = ts;
                at = 1;
            }
        }
    }
    if (nf < at + 3)
        return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno, 1,
                               "expected a perf stat -x, line: value,unit,event,... (an -x "
                               "separator other than ',', or -A/--per-* columns, are not read)");
    pl->value = f[at];
    pl->value_len = len[at];
    pl->value_col = col[at];
    pl->unit = f[at + 1];
    pl->unit_len = len[at + 1];
    pl->event = f[at + 2];
    pl->event_len = len[at + 2];
    pl->event_col = col[at + 2];
    if (nf > at + 3 && len[at + 3] > 0 && f[at + 3][len[at + 3] - 1] == '%') {
        pl->has_variance = 1;
        pl->variance = f[at + 3];
        pl->variance_len = len[at + 3] - 1;
    }
    return TALLY_OK;
}

/* A -j line: {"interval", "counter-value", "unit", "event", "variance", ...}. Its strings stay
 * in `doc` (freed by the caller). */
static int json_fields(perf_line *pl, cJSON **doc, reader *r, const char *s, size_t n,
                       char *variance, size_t vcap)
{
    memset(pl, 0, sizeof *pl);
    *doc = cJSON_ParseWithLength(s, n);
    if (*doc == NULL || !cJSON_IsObject(*doc))
        return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno, 1,
                               "expected a perf stat -j line (one JSON object)");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(*doc, "counter-value");
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(*doc, "unit");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(*doc, "event");
    if (!cJSON_IsString(v) || !cJSON_IsString(u) || !cJSON_IsString(e))
        return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno, 1,
                               "expected \"counter-value\", \"unit\" and \"event\" strings "
                               "(perf stat -j; --per-* and --metric-only output is not read)");
    pl->value = v->valuestring;
    pl->value_len = strlen(v->valuestring);
    pl->unit = u->valuestring;
    pl->unit_len = strlen(u->valuestring);
    pl->event = e->valuestring;
    pl->event_len = strlen(e->valuestring);
    pl->value_col = pl->event_col = 1;
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(*doc, "interval");
    if (cJSON_IsNumber(iv)) {
        pl->has_interval = 1;
        pl->interval = iv->valuedouble;
    }
    const cJSON *var = cJSON_GetObjectItemCaseSensitive(*doc, "variance");
    /* perf prints the variance with "%.2f": the text keeps the decimals validate compares at. */
    if (cJSON_IsNumber(var) && isfinite(var->valuedouble)) {
        snprintf(variance, vcap, "%.2f", var->valuedouble);
        pl->has_variance = 1;
        pl->variance = variance;
        pl->variance_len = strlen(variance);
    }
    return TALLY_OK;
}

/* perf's units as tally writes them, and the divisor of a -v run's raw count (task-clock and
 * cpu-clock count nanoseconds and print milliseconds). */
static int unit_of(const char **unit, double *scale, const perf_line *pl)
{
    if (pl->unit_len == 0) {
        *unit = "";
        *scale = 1;
        return 1;
    }
    if (pl->unit_len == 4 && memcmp(pl->unit, "msec", 4) == 0) {
        *unit = "ms";
        *scale = 1e6;
        return 1;
    }
    return 0;
}

static int note_unsupported(reader *r, const perf_line *pl)
{
    /* Once per event. */
    tally__buf *u = &r->unsupported;
    tally__buf want = TALLY__BUF_INIT;
    tally__buf_printf(&want, "'%.*s'", (int)pl->event_len, pl->event);
    int seen = !want.failed && u->data && strstr(u->data, want.data) != NULL;
    if (!seen && !want.failed)
        tally__buf_printf(u, "%s%s", u->len ? ", " : "", want.data);
    int rc = want.failed || u->failed ? tally__oom() : TALLY_OK;
    tally__buf_dispose(&want);
    return rc;
}

/* Metadata key = s[0..n) on the case, or on the result set when c is NULL: copied whole, since
 * perf's texts (a counter value of many digits, a date) have no bound a buffer could keep, and
 * a cut one would be another value or end inside a UTF-8 character. */
static int meta_span(tally_resultset *rs, tally_case *c, const char *key, const char *s,
                     size_t n)
{
    char *value = tally__strndup(s, n);
    if (value == NULL)
        return tally__oom();
    int rc = c ? tally_case_meta_set(c, key, value) : tally_resultset_meta_set(rs, key, value);
    tally__free_mem(value);
    return rc;
}

static int data_line(reader *r, const perf_line *pl)
{
    char event[256];
    if (pl->event_len == 0 || pl->event_len >= sizeof event)
        return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno, pl->event_col,
                               pl->event_len ? "event name longer than 255 bytes"
                                             : "empty event name");
    memcpy(event, pl->event, pl->event_len);
    event[pl->event_len] = '\0';
    int rc = set_mode(r, pl->has_interval ? 'I' : pl->has_variance ? 'r' : 'b', pl->value_col);
    if (rc != TALLY_OK)
        return rc;
    if (tally__starts_with(pl->value, pl->value_len, "<not supported>"))
        return note_unsupported(r, pl);
    pending *p = NULL;
    for (size_t i = 0; i < r->npend && p == NULL; i++)
        if (strcmp(r->pend[i].event, event) == 0)
            p = &r->pend[i];
    if (tally__starts_with(pl->value, pl->value_len, "<not counted>")) {
        size_t dropped = pl->has_variance ? (p ? p->n : 0) : 1;
        r->not_counted += dropped ? dropped : 1;
        if (r->not_counted_events == NULL || strstr(r->not_counted_events, event) == NULL) {
            tally__buf b = TALLY__BUF_INIT;
            tally__buf_printf(&b, "%s%s'%s'", r->not_counted_events ? r->not_counted_events : "",
                              r->not_counted_events ? ", " : "", event);
            tally__free_mem(r->not_counted_events);
            r->not_counted_events = b.failed ? NULL : tally__strdup(b.data);
            tally__buf_dispose(&b);
            if (r->not_counted_events == NULL)
                return tally__oom();
        }
        return TALLY_OK;
    }
    const char *unit;
    double scale;
    if (!unit_of(&unit, &scale, pl))
        return tally__error_at(TALLY_EPARSE, r->name, r->lines.lineno, pl->value_col,
                               "event '%s' counts in '%.*s', a unit whose scale tally does not "
                               "know (perf prints msec and plain counts)", event,
                               (int)pl->unit_len, pl->unit);
    double value;
    rc = tally__parse_double(&value, pl->value, pl->value_len);
    if (rc != TALLY_OK)
        return tally__error_at(rc, r->name, r->lines.lineno, pl->value_col,
                               "expected the counter value of '%s', found '%.*s'", event,
                               (int)pl->value_len, pl->value);
    tally_benchmark *b;
    rc = tally__import_benchmark(&b, r->rs, event, unit, TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_EMISMATCH)
        return tally__error_at(rc, r->name, r->lines.lineno, pl->value_col,
                               "event '%s' is in '%s' here but in another unit before", event,
                               unit);
    tally_case *c = NULL;
    if (rc == TALLY_OK)
        rc = tally__import_case(&c, b, "all");
    if (rc != TALLY_OK)
        return rc;
    if (!pl->has_variance) {
        /* -v without -r: the raw count of the one run this value prints. */
        if (p != NULL)
            p->n = 0;
        r->samples++;
        return tally_case_append(c, &value, 1);
    }
    if (p == NULL || p->n == 0)
        return tally__error_at(TALLY_ENODATA, r->name, r->lines.lineno, pl->value_col,
                               "the perf stat -r summary of '%s' comes without its runs: the file "
                               "does not say how many runs it summarises, and perf 6.1 prints the "
                               "last run's count there, not the mean (record with perf stat -r N "
                               "-v, which writes each run's count)", event);
    if (tally_case_meta_get(c, "reported.perf_counter") != NULL)
        return tally__error_at(TALLY_EEXISTS, r->name, r->lines.lineno, pl->value_col,
                               "a second perf stat -r summary of '%s': its runs would mix with "
                               "the first's (read each in its own file)", event);
    for (size_t i = 0; i < p->n; i++)
        p->raw[i] /= scale;
    rc = tally_case_append(c, p->raw, p->n);
    r->samples += p->n;
    p->n = 0;
    if (rc == TALLY_OK)
        rc = meta_span(NULL, c, "reported.perf_counter", pl->value, pl->value_len);
    if (rc == TALLY_OK)
        rc = meta_span(NULL, c, "reported.perf_variance", pl->variance, pl->variance_len);
    return rc;
}

static int one_line(reader *r, const char *line, size_t len)
{
    size_t n = len;
    const char *s = tally__trim(line, &n);
    if (n == 0)
        return TALLY_OK;
    if (tally__starts_with(s, n, STARTED)) {
        /* A new perf stat invocation: the runs of -v start again. */
        if (r->npend && r->pend[0].n)
            return tally__error_at(TALLY_EPARSE, r->name, r->pend[0].line, 1,
                                   "the -v runs of '%s' have no perf stat -r summary line "
                                   "(truncated file?)", r->pend[0].event);
        pending_clear(r);
        if (tally_resultset_meta_get(r->rs, "perf_started") == NULL)
            return meta_span(r->rs, NULL, "perf_started", s + strlen(STARTED),
                             n - strlen(STARTED));
        return TALLY_OK;
    }
    if (s[0] == '#')
        return TALLY_OK;
    if (tally__starts_with(s, n, RUN_MARK))
        return TALLY_OK;
    perf_line pl;
    cJSON *doc = NULL;
    /* "%.2f" of any finite double: a sign, 309 digits, the point and two decimals */
    char variance[320];
    int rc = s[0] == '{' ? json_fields(&pl, &doc, r, s, n, variance, sizeof variance)
             : memchr(s, ',', n) ? csv_fields(&pl, r, s, n)
                                 : run_line(r, s, n);
    if (rc == TALLY_OK && (s[0] == '{' || memchr(s, ',', n)))
        rc = data_line(r, &pl);
    cJSON_Delete(doc);
    return rc;
}

static int finish(reader *r)
{
    if (r->npend && r->pend[0].n)
        return tally__error_at(TALLY_EPARSE, r->name, r->pend[0].line, 1,
                               "the -v runs of '%s' have no perf stat -r summary line "
                               "(truncated file?)", r->pend[0].event);
    int rc = TALLY_OK;
    tally__buf note = TALLY__BUF_INIT;
    if (r->unsupported.len) {
        tally__buf_printf(&note, "%s: perf stat events <not supported>, left out: %s", r->name,
                          r->unsupported.data);
        rc = note.failed ? tally__oom() : tally_results_note_add(r->into, note.data);
    }
    tally__buf_dispose(&note);
    if (rc == TALLY_OK && r->not_counted) {
        tally__buf_printf(&note, "%s: %zu perf stat sample%s <not counted> (the event did not run "
                                 "in that interval or run), dropped: %s",
                          r->name, r->not_counted, r->not_counted == 1 ? "" : "s",
                          r->not_counted_events);
        rc = note.failed ? tally__oom() : tally_results_note_add(r->into, note.data);
    }
    tally__buf_dispose(&note);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.into = into;
    r.name = name;
    r.opts = opts;
    r.unsupported = (tally__buf)TALLY__BUF_INIT;
    tally__lines_init(&r.lines, name, data, len);
    int rc = tally__import_begin(&r.rs, into, name, opts, "perf stat");
    const char *line;
    size_t n;
    while (rc == TALLY_OK && (rc = tally__lines_next(&r.lines, &line, &n)) > 0)
        rc = one_line(&r, line, n);
    if (rc == TALLY_OK)
        rc = finish(&r);
    if (rc == TALLY_OK && r.samples == 0)
        rc = tally__import_none_found(name, r.lines.lineno,
                                      "perf stat counter values (every event <not counted> or "
                                      "<not supported>?)");
    pending_clear(&r);
    tally__free_mem(r.pend);
    tally__free_mem(r.not_counted_events);
    tally__buf_dispose(&r.unsupported);
    return rc;
}

const tally__importer tally__importer_perf_stat = {
    .name = "perf-stat", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_TOOL_TEXT,
};
