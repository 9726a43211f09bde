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

static const tally__importer *importer_for(tally_input_kind kind)
{
    for (size_t i = 0; i < tally__importer_count; i++)
        if (tally__importers[i]->kind == kind)
            return tally__importers[i];
    return NULL;
}

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

/* The importers that read a tool's text output and pass over lines they do not know. */
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
    /* Nothing recognised it outright: the one format it plausibly is reads it, and reports
     * where it goes wrong. */
    if (sh.numbers > 0 && sh.numbers * 2 >= sh.content)
        best = importer_for(TALLY_INPUT_PLAIN);
    else if (sh.commas >= 2 && sh.commas >= sh.tabs)
        best = importer_for(TALLY_INPUT_CSV);
    else if (sh.tabs >= 2)
        best = importer_for(TALLY_INPUT_TSV);
    if (best != NULL) {
        *out = best;
        return TALLY_OK;
    }
    tally__buf known = TALLY__BUF_INIT;
    for (size_t i = 0; i < tally__importer_count; i++)
        tally__buf_printf(&known, "%s%s", i ? ", " : "", tally__importers[i]->name);
    int rc = tally__error_at(TALLY_EFORMAT, name, 0, 0,
                             "not a recognised input format (known: %s); choose one with --from "
                             "to see where the file departs from it",
                             known.data ? known.data : "");
    tally__buf_dispose(&known);
    return rc;
}
