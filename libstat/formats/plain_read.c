/* Plain numbers, ministat style: one number per line; blank lines and `#` comments (whole line or
 * after the number) are skipped. One configuration, one benchmark, one case. */

/* Names when the caller gives no benchmark: fixed, so that two files compare row against row. */
#define DEFAULT_BENCHMARK "values"
#define CASE_NAME "all"

#include <string.h>

#include "formats/importer.h"
#include "util/internal.h"
#include "util/text.h"
#include "util/utf8.h"

#define SNIFF_WINDOW 4096
#define SNIFF_LINES 20

/* The number text of a line: comment cut, blanks trimmed. Sets *len to 0 for nothing. */
static const char *content_of(const char *line, size_t *len)
{
    const char *hash = memchr(line, '#', *len);
    if (hash)
        *len = (size_t)(hash - line);
    return tally__trim(line, len);
}

static int sniff_plain(const char *data, size_t len)
{
    size_t window = len < SNIFF_WINDOW ? len : SNIFF_WINDOW;
    const char *p = data, *end = data + window;
    int numbers = 0;
    while (p < end && numbers < SNIFF_LINES) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL && window < len)
            break; /* the last line in the window may be cut short */
        size_t n = (size_t)((nl ? nl : end) - p);
        const char *s = content_of(p, &n);
        double v;
        if (n > 0) {
            if (memchr(s, '\0', n) || tally__parse_double(&v, s, n) == TALLY_EPARSE)
                return 0;
            numbers++;
        }
        p = nl ? nl + 1 : end;
    }
    /* Weak on purpose: any format with a signature wins over "a column of numbers". */
    return numbers > 0 ? 20 : 0;
}

/* One line the fast loop below declined (blank, comment, blanks around the number, a number
 * it cannot read exactly, or an error): the general path, which reports exact positions. */
static int general_line(tally__lines *lines, tally_case *cas)
{
    const char *line;
    size_t n;
    int rc = tally__lines_next(lines, &line, &n);
    if (rc != 1)
        return rc;
    const char *s = content_of(line, &n);
    if (n == 0)
        return TALLY_OK;
    double v;
    const char *problem;
    int prc = tally__parse_double_why(&v, s, n, &problem);
    unsigned long col = (unsigned long)(s - line) + 1;
    if (prc == TALLY_ENONFINITE || (prc != TALLY_OK && n > TALLY__NUMBER_MAX))
        return tally__error_at(prc, lines->name, lines->lineno, col, "%s, found '%.*s'", problem,
                               (int)(n > 40 ? 40 : n), s);
    if (prc != TALLY_OK)
        return tally__error_at(TALLY_EPARSE, lines->name, lines->lineno, col,
                               "expected one number per line, found '%.*s'",
                               (int)(n > 40 ? 40 : n), s);
    return tally_case_append(cas, &v, 1);
}

/* The lines being read: the whole input, or (read as it arrives) the complete lines read so
 * far. */
typedef struct reader {
    tally__lines lines;
    tally_case *cas;
    size_t later;          /* bytes still expected after these lines (the samples' reserve) */
    /* Read as it arrives, the loader has not checked the text's UTF-8: the lines the bulk path
     * takes are ASCII (digits, sign, point, "\r\n"), and the others are checked here, once per
     * piece, up to `checked`. NULL when the loader checked the whole input. */
    const char *checked;
    int invalid_utf8;      /* the error returned is invalid UTF-8 */
} reader;

/* Before a line that is not just a number: the rest of the piece must be UTF-8 (its first
 * invalid byte, anywhere, is the error the loader would have reported before any other). */
static int check_rest(reader *r, const char *p)
{
    if (r->checked == NULL || p < r->checked)
        return TALLY_OK;
    r->checked = r->lines.end;
    int rc = tally__check_utf8_lines(p, (size_t)(r->lines.end - p), r->lines.name,
                                     r->lines.lineno + 1);
    r->invalid_utf8 = rc != TALLY_OK;
    return rc;
}

/* All lines: runs of lines holding just a number (nearly all of a large file) in bulk, straight
 * into the case's storage; the rest through general_line. */
static int read_lines(reader *r)
{
    tally__lines *lines = &r->lines;
    tally_case *cas = r->cas;
    const char *p = lines->cur, *end = lines->end;
    double *out = NULL;
    size_t room = 0, n = 0;
    int rc = TALLY_OK;
    while (rc == TALLY_OK && p < end) {
        if (n == room) {
            tally__case_commit(cas, n);
            /* About one sample per 8 bytes left: few regrowths, and untouched capacity costs no
             * memory (pages are only backed once written). */
            rc = tally__case_reserve(cas, ((size_t)(end - p) + r->later) / 8 + 16);
            if (rc != TALLY_OK)
                return rc;
            out = tally__case_spare(cas, &room);
            n = 0;
        }
        size_t got = tally__number_lines(&out[n], room - n, &p, end);
        n += got;
        lines->lineno += got;
        if (n == room || p == end)
            continue;
        /* Not a line of just a number: the general path, from p. */
        tally__case_commit(cas, n);
        room = n = 0;
        lines->cur = p;
        rc = check_rest(r, p);
        if (rc == TALLY_OK)
            rc = general_line(lines, cas);
        p = lines->cur;
    }
    tally__case_commit(cas, n);
    return rc;
}

/* The one configuration, benchmark and case of a plain file. */
static int plain_case(tally_case **cas, tally_results *into, const tally_load_options *opts)
{
    tally_resultset *rs = NULL;
    tally_benchmark *bench = NULL;
    int rc = tally_resultset_new(&rs, opts->label);
    if (rc != TALLY_OK)
        return rc;
    if ((rc = tally_results_add(into, rs)) != TALLY_OK) {
        tally_resultset_free(rs);
        return rc;
    }
    rc = tally_resultset_benchmark_add(&bench, rs,
                                       opts->benchmark ? opts->benchmark : DEFAULT_BENCHMARK, "",
                                       TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(cas, bench, CASE_NAME);
    return rc;
}

static int no_numbers(const tally_case *cas, const char *name)
{
    if (tally_case_sample_count(cas) == 0)
        return tally__error_at(TALLY_ENODATA, name, 0, 0, "no numbers in the file");
    return TALLY_OK;
}

static int parse_plain(tally_results *into, const char *data, size_t len, const char *name,
                       const tally_load_options *opts)
{
    reader r = { .later = 0 };
    int rc = plain_case(&r.cas, into, opts);
    tally__lines_init(&r.lines, name, data, len);
    if (rc == TALLY_OK)
        rc = read_lines(&r);
    return rc == TALLY_OK ? no_numbers(r.cas, name) : rc;
}

/* ---- read as it arrives ---- */

static int read_plain(tally_results *into, tally__chunks *src, const char *name,
                      const tally_load_options *opts)
{
    tally__input *in = src->in;
    reader r = { .later = 0 };
    int rc = plain_case(&r.cas, into, opts);
    if (rc != TALLY_OK)
        return rc;
    unsigned long lineno = 0; /* lines read so far */
    size_t have = src->have;
    for (;;) {
        /* The complete lines (all, at the end of the input); the last, partial one waits for
         * the next read. */
        size_t complete = have;
        if (!in->eof)
            while (complete > 0 && src->buf[complete - 1] != '\n')
                complete--;
        if (complete > 0) {
            tally__lines_init(&r.lines, name, src->buf, complete);
            r.lines.lineno = lineno;
            r.checked = src->buf;
            r.later = in->size > in->total ? in->size - in->total : 0;
            rc = read_lines(&r);
            if (rc == TALLY_ENOMEM)
                return rc;
            if (rc != TALLY_OK) {
                /* The lines after the one refused in this piece were checked with it. */
                unsigned long next = r.lines.lineno + 1;
                for (const char *c = r.lines.cur; c < src->buf + complete; c++)
                    next += *c == '\n';
                memmove(src->buf, src->buf + complete, have - complete);
                return tally__chunks_finish(src, have - complete, next, !r.invalid_utf8, rc, name);
            }
            lineno = r.lines.lineno;
        }
        memmove(src->buf, src->buf + complete, have - complete);
        have -= complete;
        if (in->eof) {
            src->last_line = lineno;
            break;
        }
        if (have == src->cap) {
            /* One line fills the buffer: room for the longest line accepted, its "\r\n"
             * included; a line longer than that is the error the line reader reports. */
            if (src->cap >= TALLY__MAX_LINE + 2) {
                rc = tally__line_too_long(name, lineno + 1);
                return tally__chunks_finish(src, have, lineno + 1, 1, rc, name);
            }
        }
        if ((rc = tally__chunks_more(src, &have)) != TALLY_OK)
            return rc;
    }
    return no_numbers(r.cas, name);
}

/* The plain detector decides from the first number line it finds in its first 4 KiB: these
 * bytes decide when they hold one. */
static int number_line_seen(const char *data, size_t len)
{
    return sniff_plain(data, len) > 0;
}

const tally__importer tally__importer_plain = {
    .kind = TALLY_INPUT_PLAIN, .name = "plain", .sniff = sniff_plain, .parse = parse_plain,
    .read_input = read_plain, .decided_by = number_line_seen,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_TAKES_UNIT | TALLY__IMPORT_TEXT_LINES,
};
