/* Plain numbers, ministat style: one number per line; blank lines and `#` comments (whole line or
 * after the number) are skipped. One configuration, one benchmark, one case. */

/* Names when the caller gives no benchmark: fixed, so that two files compare row against row. */
#define DEFAULT_BENCHMARK "values"
#define CASE_NAME "all"

#include <string.h>

#include "importer.h"
#include "internal.h"
#include "text.h"

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

static int parse_plain(tally_results *into, const char *data, size_t len, const char *name,
                       const tally_load_options *opts)
{
    tally_resultset *rs = NULL;
    tally_benchmark *bench = NULL;
    tally_case *cas = NULL;
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
        rc = tally_benchmark_case_add(&cas, bench, CASE_NAME);
    tally__lines lines;
    tally__lines_init(&lines, name, data, len);
    const char *line;
    size_t n;
    while (rc == TALLY_OK && (rc = tally__lines_next(&lines, &line, &n)) == 1) {
        const char *s = content_of(line, &n);
        rc = TALLY_OK;
        if (n == 0)
            continue;
        double v;
        int prc = tally__parse_double(&v, s, n);
        unsigned long col = (unsigned long)(s - line) + 1;
        if (prc == TALLY_ENONFINITE)
            rc = tally__error_at(prc, name, lines.lineno, col, "expected a finite number, found '%.*s'",
                                 (int)(n > 40 ? 40 : n), s);
        else if (prc != TALLY_OK)
            rc = tally__error_at(TALLY_EPARSE, name, lines.lineno, col,
                                 "expected one number per line, found '%.*s'",
                                 (int)(n > 40 ? 40 : n), s);
        else
            rc = tally_case_append(cas, &v, 1);
    }
    if (rc == TALLY_OK && tally_case_sample_count(cas) == 0)
        rc = tally__error_at(TALLY_ENODATA, name, 0, 0, "no numbers in the file");
    return rc;
}

const tally__importer tally__importer_plain = { TALLY_INPUT_PLAIN, "plain", sniff_plain,
                                                parse_plain };
