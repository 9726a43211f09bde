/* Line cursor and strict number parsing for text inputs. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "text.h"

void tally__lines_init(tally__lines *l, const char *name, const char *data, size_t len)
{
    l->name = name;
    l->cur = data;
    l->end = data + len;
    l->lineno = 0;
}

int tally__lines_next(tally__lines *l, const char **line, size_t *len)
{
    if (l->cur >= l->end)
        return 0;
    const char *start = l->cur;
    const char *nl = memchr(start, '\n', (size_t)(l->end - start));
    const char *stop = nl ? nl : l->end;
    l->lineno++;
    l->cur = nl ? nl + 1 : l->end;
    size_t n = (size_t)(stop - start);
    if (n > 0 && start[n - 1] == '\r')
        n--;
    if (n > TALLY__MAX_LINE)
        return tally__error_at(TALLY_ELIMIT, l->name, l->lineno, 1,
                               "line longer than %u bytes", TALLY__MAX_LINE);
    const char *nul = memchr(start, '\0', n);
    if (nul)
        return tally__error_at(TALLY_EFORMAT, l->name, l->lineno, (unsigned long)(nul - start) + 1,
                               "NUL byte in a text file (is this a binary file?)");
    *line = start;
    *len = n;
    return 1;
}

const char *tally__trim(const char *s, size_t *len)
{
    size_t n = *len;
    while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r')) {
        s++;
        n--;
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    *len = n;
    return s;
}

int tally__parse_double(double *out, const char *s, size_t len)
{
    s = tally__trim(s, &len);
    if (len == 0 || len > 64)
        return TALLY_EPARSE;
    char tmp[65];
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    /* strtod accepts hex floats, "nan" and "inf"; numbers in benchmark files are decimal. */
    for (size_t i = 0; i < len; i++) {
        char c = tmp[i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
            if (c == 'n' || c == 'N' || c == 'i' || c == 'I')
                return TALLY_ENONFINITE;
            return TALLY_EPARSE;
        }
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(tmp, &end);
    if (end != tmp + len)
        return TALLY_EPARSE;
    if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
        return TALLY_ENONFINITE;
    *out = v;
    return TALLY_OK;
}
