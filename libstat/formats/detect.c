/* Which importer reads a file when the caller does not say (TALLY_INPUT_AUTO). Detection never
 * guesses past an error: an empty or a binary file has its own message; a file that no importer
 * recognises but one format plausibly describes (numbers with one bad line, a CSV with a
 * comment on top) goes to that importer, whose located error is then reported; a file that
 * mixes a tool's output with bare numbers is refused, naming both, rather than read in part. */
#include <string.h>

#include "formats/detect.h"
#include "util/internal.h"
#include "util/text.h"

#define WINDOW TALLY__SNIFF_MAX
#define MAX_LINES 400

/* A line that is one number and nothing else (blanks and a `#` comment aside). */
static int bare_number(const char *line, size_t n)
{
    const char *hash = memchr(line, '#', n);
    if (hash)
        n = (size_t)(hash - line);
    const char *s = tally__trim(line, &n);
    double v;
    return n > 0 && tally__parse_double(&v, s, n) != TALLY_EPARSE;
}

typedef struct shape {
    size_t content;      /* non-blank, non-comment lines looked at */
    size_t numbers;      /* of which bare numbers */
    unsigned long first_number; /* line of the first bare number, or 0 */
    size_t commas, tabs; /* separators on the first content line */
} shape;

static void look(shape *sh, const char *data, size_t len)
{
    memset(sh, 0, sizeof(*sh));
    size_t window = len < WINDOW ? len : WINDOW;
    const char *p = data, *end = data + window;
    unsigned long lineno = 0;
    while (p < end && lineno < MAX_LINES) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        lineno++;
        size_t t = n;
        const char *s = tally__trim(p, &t);
        if (t > 0 && s[0] != '#') {
            if (sh->content++ == 0) {
                for (size_t i = 0; i < t; i++) {
                    sh->commas += s[i] == ',';
                    sh->tabs += s[i] == '\t';
                }
            }
            if (bare_number(s, t)) {
                sh->numbers++;
                if (sh->first_number == 0)
                    sh->first_number = lineno;
            }
        }
        p = nl ? nl + 1 : end;
    }
}

static int binary(const char *data, size_t len)
{
    size_t window = len < 4096 ? len : 4096, odd = 0;
    for (size_t i = 0; i < window; i++) {
        unsigned char c = (unsigned char)data[i];
        if (c == 0)
            return 1;
        odd += c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f';
    }
    return window > 0 && odd * 10 > window;
}

/* ---- files tally recognises but does not read ---- */

/* The top-level keys of a JSON object (or of the first element of a top-level array) in the
 * first WINDOW bytes, ", "-separated into `keys`: 1 for an object,
 * 2 for an array, 0 when the text does not start as JSON. A value is skipped by counting
 * brackets outside strings; a key cut off by the window ends the list. */
static size_t skip_blanks(const char *data, size_t i, size_t end)
{
    while (i < end && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    return i;
}

static int json_top_keys(tally__buf *keys, const char *data, size_t len)
{
    size_t end = len < WINDOW ? len : WINDOW, i = 0;
    int kind = 1;
    i = skip_blanks(data, i, end);
    if (i < end && data[i] == '[') {
        kind = 2;
        i = skip_blanks(data, i + 1, end);
    }
    if (i >= end || data[i] != '{')
        return kind == 2 && i < end ? 2 : 0;
    i++;
    for (int count = 0; i < end;) {
        i = skip_blanks(data, i, end);
        if (i >= end || data[i] != '"')
            break;
        size_t start = ++i;
        while (i < end && data[i] != '"')
            i += data[i] == '\\' ? 2 : 1;
        if (i >= end)
            break;
        tally__buf_printf(keys, "%s%.*s", count++ ? ", " : "", (int)(i - start), data + start);
        i++;
        int depth = 0, in_string = 0;
        for (; i < end; i++) {
            char c = data[i];
            if (in_string) {
                if (c == '\\')
                    i++;
                else if (c == '"')
                    in_string = 0;
            } else if (c == '"') {
                in_string = 1;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (depth-- == 0)
                    return kind;
            } else if (c == ',' && depth == 0) {
                i++;
                break;
            }
        }
    }
    return kind;
}

/* Formats tally recognises but has no importer for, one row each: what the file is, then how
 * it is recognised (its JSON top-level keys, all present; or its first content line's start;
 * or a detector), and what to do instead. An importer for one of them replaces its row. */
typedef struct foreign_format {
    const char *what;
    const char *json_keys; /* comma-separated, each a top-level key (an array's first element's) */
    const char *header;    /* the first line that is neither blank nor a comment starts so */
    int (*sniff)(const char *data, size_t len);
    const char *instead;
} foreign_format;

static const foreign_format foreign_formats[] = {
    { "criterion's estimates.json", "mean,median,median_abs_dev,std_dev", NULL, NULL,
      "it holds summaries only; the samples are in sample.json" },
    { "go test -json output", "Action,Package", NULL, NULL,
      "tally reads the text of go test -bench (without -json)" },
};

/* 1 when every key of the comma-separated `want` is among `keys` (", "-separated). */
static int has_keys(const char *keys, const char *want)
{
    for (const char *w = want; *w;) {
        const char *comma = strchr(w, ',');
        size_t n = comma ? (size_t)(comma - w) : strlen(w);
        int found = 0;
        for (const char *k = keys; *k && !found;) {
            const char *sep = strstr(k, ", ");
            size_t m = sep ? (size_t)(sep - k) : strlen(k);
            found = m == n && memcmp(k, w, n) == 0;
            k += m + (sep ? 2 : 0);
        }
        if (!found)
            return 0;
        w += n + (comma != NULL);
    }
    return 1;
}

static int first_line_starts(const char *data, size_t len, const char *prefix)
{
    size_t end = len < WINDOW ? len : WINDOW;
    for (const char *p = data; p < data + end;) {
        const char *nl = memchr(p, '\n', (size_t)(data + end - p));
        size_t n = (size_t)((nl ? nl : data + end) - p);
        const char *s = tally__trim(p, &n);
        if (n > 0 && s[0] != '#')
            return n >= strlen(prefix) && memcmp(s, prefix, strlen(prefix)) == 0;
        p = nl ? nl + 1 : data + end;
    }
    return 0;
}

/* TALLY_EFORMAT naming what the file looks like when it is JSON no importer claimed or a
 * format of the table above; TALLY_OK when neither. */
static int refuse_foreign(const char *data, size_t len, const char *name)
{
    tally__buf keys = TALLY__BUF_INIT;
    int json = json_top_keys(&keys, data, len);
    const char *listed = keys.data ? keys.data : "";
    int rc = keys.failed ? tally__oom() : TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < TALLY__COUNT(foreign_formats); i++) {
        const foreign_format *f = &foreign_formats[i];
        int match = f->json_keys ? json && has_keys(listed, f->json_keys)
                    : f->header  ? first_line_starts(data, len, f->header)
                                 : f->sniff(data, len);
        if (match)
            rc = tally__error_at(TALLY_EFORMAT, name, 0, 0,
                                 "looks like %s, which tally does not read%s%s", f->what,
                                 f->instead ? ": " : "", f->instead ? f->instead : "");
    }
    /* The message names the first 12 keys: enough to tell the format. */
    size_t shown = 0;
    for (size_t commas = 0; listed[shown] && commas < 12; shown++)
        commas += listed[shown] == ',';
    if (listed[shown])
        shown--;
    const char *what = json == 2 ? "an array; keys of its first element: " : "top-level keys: ";
    if (!listed[0])
        what = json == 2 ? "an array, its first element no object" : "no keys";
    if (rc == TALLY_OK && json)
        rc = tally__error_at(TALLY_EFORMAT, name, 0, 0,
                             "JSON, but not a format tally reads (%s%.*s%s); tally reads its own "
                             "results and the JSON of hyperfine, Google Benchmark, pyperf, "
                             "pytest-benchmark, JMH, criterion, BenchmarkDotNet and nanobench",
                             what, (int)shown, listed, listed[shown] ? ", ..." : "");
    tally__buf_dispose(&keys);
    return rc;
}

int tally__detect(const tally__importer **out, const char *data, size_t len, const char *name)
{
    *out = NULL;
    size_t blank = 0;
    while (blank < len && (data[blank] == ' ' || data[blank] == '\t' || data[blank] == '\n' ||
                           data[blank] == '\r'))
        blank++;
    if (blank == len)
        return tally__error_at(TALLY_EFORMAT, name, 0, 0,
                               len == 0 ? "empty file: no samples to read"
                                        : "the file holds only blank lines: no samples to read");
    if (binary(data, len))
        return tally__error_at(TALLY_EFORMAT, name, 0, 0,
                               "a binary file, not text: not an input tally reads (results are "
                               "text: JSON, CSV, numbers, or a tool's output)");
    const tally__importer *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < tally__importer_count; i++) {
        int score = tally__importers[i]->sniff(data, len);
        if (score > best_score) {
            best = tally__importers[i];
            best_score = score;
        }
    }
    shape sh;
    look(&sh, data, len);
    if (best != NULL && (best->flags & TALLY__IMPORT_SKIPS_LINES) && sh.numbers > 0)
        return tally__error_at(TALLY_EFORMAT, name, sh.first_number, 1,
                               "the file mixes formats: line %lu is a bare number (plain "
                               "numbers), and the file also holds %s output; reading either "
                               "would drop the other's lines: split the file, or choose with "
                               "--from",
                               sh.first_number, best->name);
    if (best != NULL) {
        *out = best;
        return TALLY_OK;
    }
    /* Nothing recognised it outright: a format tally knows but does not read is named; else
     * the one format it plausibly is reads it, and reports where it goes wrong. */
    int rc = refuse_foreign(data, len, name);
    if (rc != TALLY_OK)
        return rc;
    if (sh.numbers > 0 && sh.numbers * 2 >= sh.content)
        best = tally__importer_for(TALLY_INPUT_PLAIN);
    else if (sh.commas >= 2 && sh.commas >= sh.tabs)
        best = tally__importer_for(TALLY_INPUT_CSV);
    else if (sh.tabs >= 2)
        best = tally__importer_for(TALLY_INPUT_TSV);
    if (best != NULL) {
        *out = best;
        return TALLY_OK;
    }
    tally__buf known = TALLY__BUF_INIT;
    for (size_t i = 0; i < tally__importer_count; i++)
        tally__buf_printf(&known, "%s%s", i ? ", " : "", tally__importers[i]->name);
    rc = tally__error_at(TALLY_EFORMAT, name, 0, 0,
                         "not a recognised input format (known: %s); choose one with --from "
                         "to see where the file departs from it",
                         known.data ? known.data : "");
    tally__buf_dispose(&known);
    return rc;
}
