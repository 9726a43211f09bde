/* Long-form CSV/TSV: one sample per row, columns benchmark,case,config,value[,unit,better] in
 * any order. Rows may come in any order; configurations, benchmarks and cases keep the order in
 * which they first appear. docs/formats.md describes the format. With the load option `columns`
 * ("case=name,value=time_ms,config=build"; docs/importers.md, "Column mapping") any header
 * names the columns: case and value are required, a file without a config column is one
 * configuration (the loader's label), one without a benchmark column benchmark "values". */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "formats/csv_tokenizer.h"
#include "model/units.h"
#include "formats/import_util.h"
#include "formats/importer.h"
#include "util/internal.h"
#include "util/text.h"
#include "util/utf8.h"

enum column { COL_BENCHMARK, COL_CASE, COL_CONFIG, COL_VALUE, COL_UNIT, COL_BETTER, COL_COUNT };

static const char *const column_names[COL_COUNT] = {
    "benchmark", "case", "config", "value", "unit", "better",
};

#define REQUIRED_COLUMNS 4 /* benchmark, case, config, value; unit and better are optional */
#define HEADER_HINT "a header needs benchmark,case,config,value; unit and better are optional"

typedef struct csv_reader {
    tally__csv tok;
    const char *name;
    const tally_load_options *opts;
    tally_results *into;
    long col_of[COL_COUNT]; /* field index of each column, -1 when absent */
    size_t width;           /* fields per record, from the header */
    /* Rows usually come grouped, so the last configuration, benchmark and case are tried first. */
    tally_resultset *rs;
    tally_benchmark *bench;
    tally_case *cas;
    tally__buf text;        /* NUL-terminated copy of the name being looked up */
    /* The last row read field by field, as the bytes before and after its number (after: up to
     * and with its line break). A row of the same bytes around another number has the same
     * fields but the value, so the same configuration, benchmark, case, unit and direction:
     * repeat_rows takes such rows without tokenizing them. */
    const char *before;
    size_t before_len;
    const char *after;
    size_t after_len; /* 0: no row to repeat */
    /* Read as it arrives (src not NULL): the tokenizer sees the complete lines of
     * src->buf[0..have), the first on line buf_line; the bytes from `checked` on are not
     * checked for UTF-8 yet. */
    tally__chunks *src;
    size_t have;
    size_t checked;
    unsigned long buf_line;
    int row_in_buf;   /* before and after point into src->buf, not into `kept` */
    tally__buf kept;  /* the remembered row, once the bytes it was read from are gone */
    int final;        /* the error returned is the one to report: the rest needs no reading */
} csv_reader;

static const char *skip_bom(const char *data, size_t *len)
{
    if (*len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        *len -= 3;
        return data + 3;
    }
    return data;
}

/* ---- detection ---- */

static int header_score(const char *data, size_t len, char sep)
{
    data = skip_bom(data, &len);
    data = tally__csv_after_preamble(data, &len);
    const char *nl = memchr(data, '\n', len);
    size_t line_len = nl ? (size_t)(nl - data) : len;
    unsigned seen = 0;
    const char *p = data, *end = data + line_len;
    while (p <= end) {
        const char *q = memchr(p, sep, (size_t)(end - p));
        const char *stop = q ? q : end;
        size_t n = (size_t)(stop - p);
        const char *f = tally__trim(p, &n);
        if (n >= 2 && f[0] == '"' && f[n - 1] == '"') {
            f++;
            n -= 2;
        }
        for (int i = 0; i < REQUIRED_COLUMNS; i++)
            if (n == strlen(column_names[i]) && strncasecmp(f, column_names[i], n) == 0)
                seen |= 1u << i;
        p = stop + 1;
    }
    return seen == (1u << REQUIRED_COLUMNS) - 1 ? 90 : 0;
}

static int sniff_csv(const char *data, size_t len)
{
    return header_score(data, len, ',');
}

static int sniff_tsv(const char *data, size_t len)
{
    return header_score(data, len, '\t');
}

/* ---- fields ---- */

/* A field's text; unquoted fields lose surrounding blanks, quoted ones are taken verbatim. */
static const char *field_text(const tally__csv_field *f, size_t *len)
{
    *len = f->len;
    return f->quoted ? f->text : tally__trim(f->text, len);
}

static const tally__csv_field *field(const csv_reader *r, enum column col)
{
    return r->col_of[col] >= 0 ? &r->tok.fields[r->col_of[col]] : NULL;
}

static int field_error(const csv_reader *r, int code, const tally__csv_field *f, const char *what)
{
    size_t n;
    const char *s = field_text(f, &n);
    return tally__error_at(code, r->name, f->line, f->col, "%s, found '%.*s'", what,
                           (int)(n > 40 ? 40 : n), s);
}

/* A NUL-terminated copy of a non-empty name field, in r->text. */
static int name_of(const char **out, csv_reader *r, enum column col)
{
    const tally__csv_field *f = field(r, col);
    size_t n;
    const char *s = field_text(f, &n);
    if (n == 0)
        return tally__error_at(TALLY_EPARSE, r->name, f->line, f->col, "empty %s name",
                               column_names[col]);
    r->text.len = 0;
    if (tally__buf_append(&r->text, s, n) != TALLY_OK)
        return tally__error(TALLY_ENOMEM, "out of memory");
    *out = r->text.data;
    return TALLY_OK;
}

static int same_name(const tally__csv_field *f, const char *name)
{
    size_t n;
    const char *s = field_text(f, &n);
    return strlen(name) == n && memcmp(s, name, n) == 0;
}

/* ---- header ---- */

static int refill(csv_reader *r);

/* The load option `columns`: ROLE=COLUMN pairs naming the header's columns, case and value
 * required (the header is the tokenizer's current record, on line `line`). */
static int map_columns(csv_reader *r, unsigned long line)
{
    const char *spec = r->opts->columns;
    for (const char *p = spec; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        int role = -1;
        for (int c = 0; eq && c < COL_COUNT; c++)
            if ((size_t)(eq - p) == strlen(column_names[c]) &&
                strncmp(p, column_names[c], (size_t)(eq - p)) == 0)
                role = c;
        if (role < 0 || eq + 1 == p + n)
            return tally__error(TALLY_EINVAL, "--columns '%s': expected ROLE=COLUMN pairs, "
                                              "ROLE one of case, value, config, benchmark, "
                                              "unit, better; found '%.*s'",
                                spec, (int)n, p);
        if (r->col_of[role] >= 0)
            return tally__error(TALLY_EINVAL, "--columns '%s': %s is given twice", spec,
                                column_names[role]);
        const char *want = eq + 1;
        size_t wn = (size_t)(p + n - want);
        for (size_t i = 0; i < r->tok.count; i++) {
            size_t fn;
            const char *fs = field_text(&r->tok.fields[i], &fn);
            if (fn == wn && memcmp(fs, want, wn) == 0) {
                r->col_of[role] = (long)i;
                break;
            }
        }
        if (r->col_of[role] < 0) {
            tally__buf have = TALLY__BUF_INIT;
            for (size_t i = 0; i < r->tok.count && i < 12; i++) {
                size_t fn;
                const char *fs = field_text(&r->tok.fields[i], &fn);
                tally__buf_printf(&have, "%s'%.*s'", i ? ", " : "", (int)fn, fs);
            }
            int rc = tally__error_at(TALLY_EFORMAT, r->name, line, 1,
                                     "--columns %s=%.*s: no column '%.*s' in the header (its "
                                     "columns: %s)",
                                     column_names[role], (int)wn, want, (int)wn, want,
                                     have.data ? have.data : "");
            tally__buf_dispose(&have);
            return rc;
        }
        p = comma ? comma + 1 : p + n;
    }
    if (r->col_of[COL_CASE] < 0 || r->col_of[COL_VALUE] < 0)
        return tally__error(TALLY_EINVAL, "--columns '%s': case=COLUMN and value=COLUMN are "
                                          "required", spec);
    return TALLY_OK;
}

static int read_header(csv_reader *r)
{
    for (int i = 0; i < COL_COUNT; i++)
        r->col_of[i] = -1;
    unsigned long line;
    int rc;
    do {
        tally__csv_skip_preamble(&r->tok);
        line = r->tok.line;
        rc = tally__csv_next(&r->tok);
    } while (rc == TALLY__CSV_MORE && (rc = refill(r)) == TALLY_OK);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return tally__error_at(TALLY_EFORMAT, r->name, line > 1 ? line - 1 : 1, 1,
                               line > 1 ? "only comments, no header: %s" : "empty file: %s",
                               HEADER_HINT);
    r->width = r->tok.count;
    if (r->opts && r->opts->columns)
        return map_columns(r, line);
    for (size_t i = 0; i < r->tok.count; i++) {
        const tally__csv_field *f = &r->tok.fields[i];
        size_t n;
        const char *s = field_text(f, &n);
        for (int c = 0; c < COL_COUNT; c++) {
            if (n != strlen(column_names[c]) || strncasecmp(s, column_names[c], n) != 0)
                continue;
            if (r->col_of[c] >= 0)
                return tally__error_at(TALLY_EPARSE, r->name, f->line, f->col,
                                       "column '%s' appears twice in the header",
                                       column_names[c]);
            r->col_of[c] = (long)i;
        }
    }
    for (int c = 0; c < REQUIRED_COLUMNS; c++)
        if (r->col_of[c] < 0)
            return tally__error_at(TALLY_EFORMAT, r->name, line, 1,
                                   "no column '%s' in the header (%s)", column_names[c],
                                   HEADER_HINT);
    return TALLY_OK;
}

/* ---- rows ---- */

static int read_value(double *out, const csv_reader *r)
{
    const tally__csv_field *f = field(r, COL_VALUE);
    size_t n;
    const char *s = field_text(f, &n);
    if (n == 0)
        return tally__error_at(TALLY_EPARSE, r->name, f->line, f->col, "empty value");
    const char *problem;
    int rc = tally__parse_double_why(out, s, n, &problem);
    if (rc == TALLY_ENONFINITE || (rc != TALLY_OK && n > TALLY__NUMBER_MAX))
        return field_error(r, rc, f, problem);
    if (rc != TALLY_OK)
        return field_error(r, TALLY_EPARSE, f, "expected a number");
    return TALLY_OK;
}

static int read_better(tally_direction *out, const csv_reader *r)
{
    const tally__csv_field *f = field(r, COL_BETTER);
    size_t n;
    const char *s = field_text(f, &n);
    char word[24];
    if (n > 0 && n < sizeof(word)) {
        memcpy(word, s, n);
        word[n] = '\0';
        if (tally_direction_from_name(out, word) == TALLY_OK)
            return TALLY_OK;
    }
    return field_error(r, TALLY_EPARSE, f, "expected 'lower' or 'higher' in column 'better'");
}

static int find_config(csv_reader *r)
{
    /* Mapped columns without a config column: the file is one configuration. */
    if (r->col_of[COL_CONFIG] < 0) {
        if (r->rs)
            return TALLY_OK;
        return tally__import_begin(&r->rs, r->into, r->name, r->opts, "csv");
    }
    if (r->rs && same_name(field(r, COL_CONFIG), tally_resultset_label(r->rs)))
        return TALLY_OK;
    const char *label;
    int rc = name_of(&label, r, COL_CONFIG);
    if (rc != TALLY_OK)
        return rc;
    r->bench = NULL;
    r->cas = NULL;
    r->rs = tally_results_find(r->into, label);
    if (r->rs)
        return TALLY_OK;
    tally_resultset *rs;
    if ((rc = tally_resultset_new(&rs, label)) != TALLY_OK)
        return rc;
    if ((rc = tally_results_add(r->into, rs)) != TALLY_OK) {
        tally_resultset_free(rs);
        return rc;
    }
    r->rs = rs;
    return TALLY_OK;
}

/* The unit and direction this row gives, with the unit copied NUL-terminated. */
typedef struct row_kind {
    char unit[128];
    int has_unit;
    tally_direction better;
    int has_better;
} row_kind;

static int row_kind_of(row_kind *k, const csv_reader *r)
{
    k->has_unit = k->has_better = 0;
    k->unit[0] = '\0';
    const tally__csv_field *f = field(r, COL_UNIT);
    if (f) {
        size_t n;
        const char *s = field_text(f, &n);
        if (n >= sizeof(k->unit))
            return tally__error_at(TALLY_ELIMIT, r->name, f->line, f->col,
                                   "unit longer than %zu bytes", sizeof(k->unit) - 1);
        memcpy(k->unit, s, n);
        k->unit[n] = '\0';
        k->has_unit = 1;
    }
    if (field(r, COL_BETTER)) {
        int rc = read_better(&k->better, r);
        if (rc != TALLY_OK)
            return rc;
        k->has_better = 1;
    }
    return TALLY_OK;
}

/* A row's unit and direction must match what the benchmark already has, in every configuration. */
static int check_kind(const csv_reader *r, const tally_benchmark *b, const row_kind *k)
{
    if (k->has_unit && strcmp(tally_benchmark_unit(b), k->unit) != 0) {
        const tally__csv_field *f = field(r, COL_UNIT);
        return tally__error_at(TALLY_EMISMATCH, r->name, f->line, f->col,
                               "mixed units in benchmark '%s': '%s' here, '%s' in earlier rows",
                               tally_benchmark_name(b), k->unit, tally_benchmark_unit(b));
    }
    if (k->has_better && tally_benchmark_direction(b) != k->better) {
        const tally__csv_field *f = field(r, COL_BETTER);
        return tally__error_at(TALLY_EMISMATCH, r->name, f->line, f->col,
                               "conflicting 'better' for benchmark '%s': '%s' here, '%s' in "
                               "earlier rows",
                               tally_benchmark_name(b), tally_direction_name(k->better),
                               tally_direction_name(tally_benchmark_direction(b)));
    }
    return TALLY_OK;
}

static int find_benchmark(csv_reader *r, const row_kind *k)
{
    int fixed = r->col_of[COL_BENCHMARK] < 0; /* mapped columns without one: "values" */
    if (!(r->bench && (fixed || same_name(field(r, COL_BENCHMARK),
                                          tally_benchmark_name(r->bench))))) {
        const char *name = "values";
        int rc = fixed ? TALLY_OK : name_of(&name, r, COL_BENCHMARK);
        if (rc != TALLY_OK)
            return rc;
        r->cas = NULL;
        r->bench = tally_resultset_benchmark_find(r->rs, name);
        if (r->bench == NULL) {
            /* The same benchmark in another configuration fixes the unit and direction. */
            const tally_benchmark *other = NULL;
            for (size_t i = 0; other == NULL && i < tally_results_count(r->into); i++)
                other = tally_resultset_benchmark_find(tally_results_at(r->into, i), name);
            if (other && (rc = check_kind(r, other, k)) != TALLY_OK)
                return rc;
            const char *unit = other ? tally_benchmark_unit(other) : k->unit;
            tally_direction dir = other ? tally_benchmark_direction(other)
                                  : k->has_better ? k->better
                                                  : tally__direction_for_unit(k->unit);
            return tally_resultset_benchmark_add(&r->bench, r->rs, name, unit, dir);
        }
    }
    return check_kind(r, r->bench, k);
}

static int find_case(csv_reader *r)
{
    if (r->cas && same_name(field(r, COL_CASE), tally_case_name(r->cas)))
        return TALLY_OK;
    const char *name;
    int rc = name_of(&name, r, COL_CASE);
    if (rc != TALLY_OK)
        return rc;
    r->cas = tally_benchmark_case_find(r->bench, name);
    if (r->cas)
        return TALLY_OK;
    return tally_benchmark_case_add(&r->cas, r->bench, name);
}

static int read_row(csv_reader *r)
{
    const tally__csv *t = &r->tok;
    if (t->count != r->width) {
        const tally__csv_field *f = &t->fields[t->count > r->width ? r->width : t->count - 1];
        return tally__error_at(TALLY_EPARSE, r->name, f->line,
                               t->count > r->width ? f->col : f->end_col,
                               "expected %zu fields as in the header, found %zu", r->width,
                               t->count);
    }
    double value;
    row_kind kind;
    int rc = read_value(&value, r);
    if (rc == TALLY_OK)
        rc = row_kind_of(&kind, r);
    if (rc == TALLY_OK)
        rc = find_config(r);
    if (rc == TALLY_OK)
        rc = find_benchmark(r, &kind);
    if (rc == TALLY_OK)
        rc = find_case(r);
    if (rc == TALLY_OK)
        rc = tally_case_append(r->cas, &value, 1);
    return rc;
}

/* Remember the row just read (from `start`, on line `line`) for repeat_rows, when it was one
 * line. The bytes around the number are those around what read_value parsed: the field's text
 * without its blanks, inside the quotes if quoted (a number holds no quote, so its text lies in
 * the input, not in the tokenizer's scratch buffer). */
static void remember_row(csv_reader *r, const char *start, unsigned long line)
{
    const tally__csv_field *f = field(r, COL_VALUE);
    r->after_len = 0;
    if (r->tok.line != line + 1 || r->tok.cur[-1] != '\n')
        return;
    size_t n = f->len;
    const char *s = tally__trim(f->text, &n);
    r->before = start;
    r->before_len = (size_t)(s - start);
    r->after = s + n;
    r->after_len = (size_t)(r->tok.cur - r->after);
    r->row_in_buf = 1;
}

/* memcmp(a, b, n) == 0 for the few dozen bytes of a row's names, inline: 8 bytes a step, the
 * last step overlapping the one before. */
static inline int same_bytes(const char *a, const char *b, size_t n)
{
    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i])
                return 0;
        return 1;
    }
    uint64_t x, y;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            return 0;
    }
    memcpy(&x, a + n - 8, 8);
    memcpy(&y, b + n - 8, 8);
    return x == y;
}

/* Take the rows that repeat the remembered one but for their number, appending the numbers to
 * its case; stops at the first other row (left to the tokenizer, which then also reports a
 * number the scan refused). *taken counts the rows. */
static int repeat_rows(csv_reader *r, size_t *taken)
{
    const char *p = r->tok.cur, *end = r->tok.end, *line_start = r->tok.line_start;
    unsigned long lines = 0;
    size_t room, n = 0, rows = 0;
    double *out = tally__case_spare(r->cas, &room);
    int rc = TALLY_OK;
    while ((size_t)(end - p) > r->before_len && same_bytes(p, r->before, r->before_len)) {
        double v;
        const char *stop;
        if (tally__number_scan(&v, &stop, p + r->before_len, end, TALLY__NUMBER_TEXT) !=
            TALLY__NUMBER_OK)
            break;
        size_t left = (size_t)(end - stop);
        const char *next;
        if (left >= r->after_len && same_bytes(stop, r->after, r->after_len))
            next = stop + r->after_len;
        else if (left == r->after_len - 1 && memcmp(stop, r->after, left) == 0)
            next = end; /* the last row, without its line break */
        else
            break;
        if ((size_t)(next - p) > TALLY__MAX_LINE)
            break;
        if (n == room) {
            tally__case_commit(r->cas, n);
            n = 0;
            if ((rc = tally__case_reserve(r->cas, 1)) != TALLY_OK)
                break;
            out = tally__case_spare(r->cas, &room);
        }
        out[n++] = v;
        rows++;
        if (next[-1] == '\n') {
            lines++;
            line_start = next;
        }
        p = next;
    }
    tally__case_commit(r->cas, n);
    tally__csv_resume(&r->tok, p, lines, line_start);
    *taken = rows;
    return rc;
}

/* ---- read as it arrives ---- */

/* The complete lines of src->buf[0..have) (all of it at the end of the input) to the tokenizer,
 * once their UTF-8 is checked: the loader checks the whole input before parsing, so an invalid
 * byte is the error, after any read error further on. */
static int show_lines(csv_reader *r)
{
    tally__chunks *src = r->src;
    size_t complete = r->have;
    if (!src->in->eof)
        while (complete > r->checked && src->buf[complete - 1] != '\n')
            complete--;
    size_t ok = r->checked + tally__utf8_valid_prefix(src->buf + r->checked, complete - r->checked);
    if (ok < complete) {
        unsigned long line, col;
        tally__text_position(src->buf, src->buf + ok, &line, &col);
        int rc = tally__utf8_error(r->name, r->buf_line + line - 1, col,
                                   (unsigned char)src->buf[ok]);
        r->final = 1;
        return tally__chunks_finish(src, 0, 0, 0, rc, r->name);
    }
    r->checked = complete;
    r->tok.end = src->buf + complete;
    r->tok.more = !src->in->eof;
    return TALLY_OK;
}

/* The remembered row into `kept`, before the bytes it points to are reused. */
static int keep_row(csv_reader *r)
{
    if (r->after_len == 0 || !r->row_in_buf)
        return TALLY_OK;
    r->kept.len = 0;
    if (tally__buf_append(&r->kept, r->before, r->before_len) != TALLY_OK ||
        tally__buf_append(&r->kept, r->after, r->after_len) != TALLY_OK)
        return tally__error(TALLY_ENOMEM, "out of memory");
    r->before = r->kept.data;
    r->after = r->kept.data + r->before_len;
    r->row_in_buf = 0;
    return TALLY_OK;
}

/* The tokenizer wants more (TALLY__CSV_MORE): drop the bytes before its record, append the next
 * read. A record that fills the buffer grows it; one longer than any line accepted has the rest
 * of the input read whole after it, which then parses as the whole input does. */
static int refill(csv_reader *r)
{
    tally__chunks *src = r->src;
    int rc = keep_row(r);
    if (rc != TALLY_OK)
        return rc;
    size_t done = (size_t)(r->tok.cur - src->buf);
    size_t line_at = (size_t)(r->tok.line_start - src->buf);
    memmove(src->buf, src->buf + done, r->have - done);
    r->have -= done;
    r->checked -= done;
    r->buf_line = r->tok.line;
    if (r->have == src->cap && src->cap > TALLY__MAX_LINE) {
        char *data = NULL;
        size_t len = 0;
        rc = tally__input_read_rest(src->in, &data, &len, src->buf, r->have);
        if (rc == TALLY_OK) {
            tally__free_mem(src->buf);
            src->buf = data;
            src->cap = len + 1;
            r->have = len;
        }
    } else {
        rc = tally__chunks_more(src, &r->have);
    }
    if (rc != TALLY_OK) {
        r->final = 1;
        return rc;
    }
    /* The tokenizer goes on at the start of the buffer, the line it was in unchanged. */
    tally__csv_resume(&r->tok, src->buf, 0, src->buf + (line_at - done));
    return show_lines(r);
}

/* After the parse error `rc`: the rest of the input, read and checked (tally__chunks_finish). */
static int finish_after_error(csv_reader *r, int rc)
{
    tally__chunks *src = r->src;
    if (src == NULL || r->final || rc == TALLY_ENOMEM)
        return rc;
    unsigned long line = r->buf_line;
    for (size_t i = 0; i < r->checked; i++)
        line += src->buf[i] == '\n';
    memmove(src->buf, src->buf + r->checked, r->have - r->checked);
    return tally__chunks_finish(src, r->have - r->checked, line, 1, rc, r->name);
}

/* The tokenizer's next record, reading on while it wants more; *start and *line are where the
 * record starts. */
static int next_record(csv_reader *r, const char **start, unsigned long *line)
{
    for (;;) {
        *start = r->tok.cur;
        *line = r->tok.line;
        int rc = tally__csv_next(&r->tok);
        if (rc != TALLY__CSV_MORE)
            return rc;
        if ((rc = refill(r)) != TALLY_OK)
            return rc;
    }
}

static int parse_separated(tally_results *into, const char *data, size_t len, const char *name,
                           char sep, tally__chunks *src, const tally_load_options *opts)
{
    csv_reader r;
    memset(&r, 0, sizeof(r));
    r.name = name;
    r.opts = opts;
    r.into = into;
    r.src = src;
    int rc = TALLY_OK;
    if (src) {
        tally__csv_init(&r.tok, name, src->buf, 0, sep);
        r.have = src->have;
        r.buf_line = 1;
        rc = show_lines(&r);
    } else {
        data = skip_bom(data, &len);
        tally__csv_init(&r.tok, name, data, len, sep);
    }
    if (rc == TALLY_OK)
        rc = read_header(&r);
    size_t rows = 0;
    while (rc == TALLY_OK) {
        if (r.after_len > 0) {
            size_t taken;
            if ((rc = repeat_rows(&r, &taken)) != TALLY_OK)
                break;
            rows += taken;
        }
        const char *start;
        unsigned long line;
        rc = next_record(&r, &start, &line);
        if (rc <= 0)
            break;
        const tally__csv_field *first = &r.tok.fields[0];
        if (r.tok.count == 1 && first->len == 0 && !first->quoted) {
            rc = TALLY_OK; /* blank line */
            continue;
        }
        rc = read_row(&r);
        rows++;
        if (rc == TALLY_OK)
            remember_row(&r, start, line);
    }
    if (rc == TALLY_OK && rows == 0)
        rc = tally__error_at(TALLY_ENODATA, name, 0, 0, "no data rows after the header");
    if (src)
        src->last_line = r.tok.line;
    if (rc != TALLY_OK)
        rc = finish_after_error(&r, rc);
    tally__csv_dispose(&r.tok);
    tally__buf_dispose(&r.text);
    tally__buf_dispose(&r.kept);
    return rc;
}

static int parse_csv(tally_results *into, const char *data, size_t len, const char *name,
                     const tally_load_options *opts)
{
    return parse_separated(into, data, len, name, ',', NULL, opts);
}

static int parse_tsv(tally_results *into, const char *data, size_t len, const char *name,
                     const tally_load_options *opts)
{
    return parse_separated(into, data, len, name, '\t', NULL, opts);
}

/* The long-form CSV or TSV read as it arrives (importer.h, read_input). */
static int read_csv(tally_results *into, tally__chunks *src, const char *name,
                    const tally_load_options *opts)
{
    return parse_separated(into, NULL, 0, name, ',', src, opts);
}

static int read_tsv(tally_results *into, tally__chunks *src, const char *name,
                    const tally_load_options *opts)
{
    return parse_separated(into, NULL, 0, name, '\t', src, opts);
}

/* Detection reads the whole header line (the preamble before it included): decided once these
 * first bytes hold its end. */
static int header_complete(const char *data, size_t len)
{
    size_t rest = len;
    const char *header = tally__csv_after_preamble(data, &rest);
    return memchr(header, '\n', rest) != NULL;
}

const tally__importer tally__importer_csv = {
    .kind = TALLY_INPUT_CSV, .name = "csv", .sniff = sniff_csv, .parse = parse_csv,
    .read_input = read_csv, .decided_by = header_complete, .flags = TALLY__IMPORT_TEXT_LINES | TALLY__IMPORT_TAKES_COLUMNS,
    .configs = "the labels of its label column",
};
const tally__importer tally__importer_tsv = {
    .kind = TALLY_INPUT_TSV, .name = "tsv", .sniff = sniff_tsv, .parse = parse_tsv,
    .read_input = read_tsv, .decided_by = header_complete, .flags = TALLY__IMPORT_TEXT_LINES | TALLY__IMPORT_TAKES_COLUMNS,
    .configs = "the labels of its label column",
};
