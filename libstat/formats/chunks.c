/* Inputs read as they arrive (importer.h, tally__chunks): the next piece, and the rest of an
 * input after a reader's error. Apart from load.c, which hands the input over, so that the
 * readers (an importer's read_input) never call back into the loader. */
#include <string.h>

#include "formats/importer.h"
#include "util/internal.h"
#include "util/text.h"
#include "util/utf8.h"

/* Where line and column move to over p[0..n). */
static void advance(const char *p, size_t n, unsigned long *line, unsigned long *col)
{
    unsigned long l, c;
    tally__text_position(p, p + n, &l, &c);
    *col = l == 1 ? *col + c - 1 : c;
    *line += l - 1;
}

int tally__chunks_finish(tally__chunks *src, size_t have, unsigned long line, int check, int rc,
                         const char *name)
{
    tally__input *in = src->in;
    unsigned long col = 1;
    int utf8_rc = TALLY_OK;
    for (;;) {
        size_t done = have;
        if (check) {
            size_t ok = tally__utf8_valid_prefix(src->buf, have);
            if (ok < have && !in->eof && have - ok < 4) {
                done = ok; /* perhaps a sequence the read cut: seen again with what follows */
            } else if (ok < have) {
                advance(src->buf, ok, &line, &col);
                utf8_rc = tally__utf8_error(name, line, col, (unsigned char)src->buf[ok]);
                check = 0;
            }
            if (check)
                advance(src->buf, done, &line, &col);
        }
        memmove(src->buf, src->buf + done, have - done);
        have -= done;
        if (in->eof)
            break;
        size_t got = 0;
        int read_rc = tally__input_read(in, src->buf + have, src->cap - have, &got);
        if (read_rc != TALLY_OK)
            return read_rc;
        have += got;
    }
    return utf8_rc != TALLY_OK ? utf8_rc : rc;
}

int tally__chunks_more(tally__chunks *src, size_t *have)
{
    if (*have == src->cap) {
        size_t grown = src->cap * 2 < TALLY__MAX_LINE + 2 ? src->cap * 2 : TALLY__MAX_LINE + 2;
        char *bigger = tally__realloc(src->buf, grown);
        if (bigger == NULL)
            return tally__oom();
        src->buf = bigger;
        src->cap = grown;
    }
    size_t got = 0, room = src->cap - *have;
    int rc = tally__input_read(src->in, src->buf + *have, room < src->piece ? room : src->piece,
                               &got);
    *have += got;
    return rc;
}
