/* RFC 4180 tokenizer. */
#include <string.h>

#include "formats/csv_tokenizer.h"
#include "util/internal.h"
#include "util/text.h"

#define NOT_IN_SCRATCH ((size_t)-1)

void tally__csv_init(tally__csv *c, const char *name, const char *data, size_t len, char sep)
{
    memset(c, 0, sizeof(*c));
    c->name = name;
    c->cur = data;
    c->end = data + len;
    c->line_start = data;
    c->line = 1;
    c->sep = sep;
    c->stop[(unsigned char)sep] = 1;
    c->stop['\n'] = 1;
    c->stop['"'] = 1;
    c->stop['\0'] = 1;
}

/* The length of the preamble line at `p` (with its '\n'), or 0 when the line holds data. */
static size_t preamble_line(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
    if (q >= end || (*q != '#' && *q != '\n'))
        return 0; /* data, or blanks up to the end (left to the tokenizer) */
    const char *nl = memchr(q, '\n', (size_t)(end - q));
    if (nl == NULL)
        return (size_t)(end - p); /* a last comment line without '\n' */
    return (size_t)(nl + 1 - p);
}

void tally__csv_skip_preamble(tally__csv *c)
{
    size_t n;
    while (c->cur < c->end && (n = preamble_line(c->cur, c->end)) > 0) {
        c->cur += n;
        c->line_start = c->cur;
        c->line++;
    }
}

const char *tally__csv_after_preamble(const char *data, size_t *len)
{
    const char *end = data + *len;
    size_t n;
    while (data < end && (n = preamble_line(data, end)) > 0)
        data += n;
    *len = (size_t)(end - data);
    return data;
}

void tally__csv_resume(tally__csv *c, const char *next, unsigned long lines,
                       const char *line_start)
{
    c->cur = next;
    c->line += lines;
    c->line_start = line_start;
}

void tally__csv_dispose(tally__csv *c)
{
    tally__free_mem(c->fields);
    tally__free_mem(c->scratch);
    c->fields = NULL;
    c->scratch = NULL;
    c->count = c->cap = c->scratch_len = c->scratch_cap = 0;
}

static unsigned long column_of(const tally__csv *c, const char *at)
{
    return (unsigned long)(at - c->line_start) + 1;
}

static int scratch_append(tally__csv *c, const char *s, size_t n)
{
    if (c->scratch_len + n > c->scratch_cap) {
        size_t cap = c->scratch_cap ? c->scratch_cap : 256;
        while (cap < c->scratch_len + n)
            cap *= 2;
        char *grown = tally__realloc(c->scratch, cap);
        if (grown == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        c->scratch = grown;
        c->scratch_cap = cap;
    }
    memcpy(c->scratch + c->scratch_len, s, n);
    c->scratch_len += n;
    return 0;
}

static int push_field(tally__csv *c, const tally__csv_field *f)
{
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        tally__csv_field *grown = tally__reallocarray(c->fields, cap, sizeof(*grown));
        if (grown == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        c->fields = grown;
        c->cap = cap;
    }
    c->fields[c->count++] = *f;
    return 0;
}

/* Move past the line break at c->cur, counting lines. */
static void newline_seen(tally__csv *c, const char *nl)
{
    c->line++;
    c->line_start = nl + 1;
}

static int nul_error(tally__csv *c, const char *at)
{
    return tally__error_at(TALLY_EFORMAT, c->name, c->line, column_of(c, at),
                           "NUL byte in a text file (is this a binary file?)");
}

static int too_long(tally__csv *c, unsigned long line)
{
    return tally__error_at(TALLY_ELIMIT, c->name, line, 1, "record longer than %u bytes",
                           TALLY__MAX_LINE);
}

/* A quoted field: c->cur is at the opening quote. */
static int read_quoted(tally__csv *c, tally__csv_field *f, const char *record_start,
                       unsigned long record_line)
{
    const char *seg = ++c->cur;
    int escaped = 0;
    for (;;) {
        const char *q = memchr(c->cur, '"', (size_t)(c->end - c->cur));
        const char *stop = q ? q : c->end;
        if (memchr(c->cur, '\0', (size_t)(stop - c->cur))) {
            for (const char *p = c->cur; p < stop; p++) {
                if (*p == '\n')
                    newline_seen(c, p);
                else if (*p == '\0')
                    return nul_error(c, p);
            }
        }
        for (const char *p = memchr(c->cur, '\n', (size_t)(stop - c->cur)); p;
             p = memchr(p + 1, '\n', (size_t)(stop - p - 1)))
            newline_seen(c, p);
        /* The closing quote may follow in the next bytes; the record's length is then known.
         * A NUL before `end` is the error whatever follows, as for the whole input. */
        if (q == NULL && c->more)
            return TALLY__CSV_MORE;
        if ((size_t)(stop - record_start) > TALLY__MAX_LINE)
            return too_long(c, record_line);
        if (q == NULL)
            return tally__error_at(TALLY_EPARSE, c->name, f->line, f->col,
                                   "quoted field never closed (truncated file?)");
        if (q + 1 < c->end && q[1] == '"') {
            /* "" inside quotes: keep one quote, continue. */
            if (!escaped)
                f->scratch_at = c->scratch_len;
            escaped = 1;
            int rc = scratch_append(c, seg, (size_t)(q + 1 - seg));
            if (rc)
                return rc;
            c->cur = seg = q + 2;
            continue;
        }
        if (escaped) {
            int rc = scratch_append(c, seg, (size_t)(q - seg));
            if (rc)
                return rc;
            f->len = c->scratch_len - f->scratch_at;
        } else {
            f->text = seg;
            f->len = (size_t)(q - seg);
        }
        c->cur = q + 1;
        break;
    }
    const char *after = c->cur;
    if (after < c->end && *after != c->sep && *after != '\n' &&
        !(*after == '\r' && (after + 1 == c->end || after[1] == '\n')))
        return tally__error_at(TALLY_EPARSE, c->name, c->line, column_of(c, after),
                               "unexpected character after a closing quote (a quote inside a "
                               "quoted field is written \"\")");
    return 0;
}

static int read_plain(tally__csv *c, tally__csv_field *f, const char *record_start,
                      unsigned long record_line)
{
    /* Scan to the first byte that needs a look, but never past the record length limit. */
    if ((size_t)(c->cur - record_start) > TALLY__MAX_LINE)
        return too_long(c, record_line);
    size_t room = TALLY__MAX_LINE - (size_t)(c->cur - record_start);
    const char *limit = (size_t)(c->end - c->cur) > room ? c->cur + room + 1 : c->end;
    const char *p = c->cur;
    while (p < limit && !c->stop[(unsigned char)*p])
        p++;
    if (p < c->end && *p == '"')
        return tally__error_at(TALLY_EPARSE, c->name, c->line, column_of(c, p),
                               "quote inside an unquoted field (quote the whole field)");
    if (p < c->end && *p == '\0')
        return nul_error(c, p);
    if ((size_t)(p - record_start) > TALLY__MAX_LINE)
        return too_long(c, record_line);
    f->text = c->cur;
    f->len = (size_t)(p - c->cur);
    if (f->len > 0 && (p == c->end || *p == '\n') && f->text[f->len - 1] == '\r')
        f->len--;
    c->cur = p;
    return 0;
}

int tally__csv_next(tally__csv *c)
{
    if (c->cur >= c->end)
        return c->more ? TALLY__CSV_MORE : 0;
    c->count = 0;
    c->scratch_len = 0;
    const char *record_start = c->cur, *record_line_start = c->line_start;
    unsigned long record_line = c->line;
    for (;;) {
        tally__csv_field f = { NULL, 0, c->line, column_of(c, c->cur), 0, 0, NOT_IN_SCRATCH };
        int rc;
        if (c->cur < c->end && *c->cur == '"') {
            f.quoted = 1;
            rc = read_quoted(c, &f, record_start, record_line);
        } else {
            rc = read_plain(c, &f, record_start, record_line);
        }
        if (rc == TALLY__CSV_MORE) {
            c->cur = record_start;
            c->line_start = record_line_start;
            c->line = record_line;
        }
        if (rc)
            return rc;
        f.end_col = column_of(c, c->cur);
        if ((rc = push_field(c, &f)) != 0)
            return rc;
        if (c->cur < c->end && *c->cur == c->sep) {
            c->cur++;
            continue;
        }
        if (c->cur < c->end && *c->cur == '\r')
            c->cur++;
        if (c->cur < c->end && *c->cur == '\n') {
            newline_seen(c, c->cur);
            c->cur++;
        }
        break;
    }
    /* The scratch buffer may have moved while it grew: point escaped fields into it now. */
    for (size_t i = 0; i < c->count; i++)
        if (c->fields[i].scratch_at != NOT_IN_SCRATCH)
            c->fields[i].text = c->scratch + c->fields[i].scratch_at;
    return 1;
}
