/* Line cursor and strict number parsing for text inputs. Numbers take an exact fast path when
 * they are plain decimals of up to 15-16 digits, and strtod otherwise. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
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

/* Exact powers of ten: every 10^k with k <= 22 is a double (5^22 < 2^53). */
static const double exact_pow10[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

#define MAX_EXACT_MANTISSA (UINT64_C(1) << 53)

/* The common case of benchmark files, "123.456789" or "-1.5e3", without strtod: Clinger's fast
 * path (1990). A decimal w * 10^e with w <= 2^53 and |e| <= 22 has both w and 10^|e| exact in a
 * double, so one IEEE multiplication or division rounds the exact value once, correctly: the same
 * double strtod returns. Only valid under strict double evaluation (FLT_EVAL_METHOD 0; x87's
 * extended precision would round twice). */
int tally__parse_decimal_fast(double *out, const char *s, size_t len)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    const char *p = s, *end = s + len;
    int negative = 0;
    if (*p == '-' || *p == '+')
        negative = *p++ == '-';
    uint64_t w = 0;
    int digits = 0, seen = 0;
    long exp10 = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++, seen++) {
        if (w == 0 && *p == '0')
            continue; /* leading zeros carry no precision */
        if (++digits > 19)
            return 0;
        w = w * 10 + (uint64_t)(*p - '0');
    }
    if (p < end && *p == '.') {
        for (p++; p < end && *p >= '0' && *p <= '9'; p++, seen++) {
            exp10--;
            if (w == 0 && *p == '0')
                continue;
            if (++digits > 19)
                return 0;
            w = w * 10 + (uint64_t)(*p - '0');
        }
    }
    if (seen == 0)
        return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int exp_negative = 0;
        if (p < end && (*p == '-' || *p == '+'))
            exp_negative = *p++ == '-';
        if (p == end)
            return 0;
        long e = 0;
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
            if (e > 100000)
                return 0;
            e = e * 10 + (*p - '0');
        }
        exp10 += exp_negative ? -e : e;
    }
    if (p != end)
        return 0;
    double v;
    if (w == 0)
        v = 0.0;
    else if (w > MAX_EXACT_MANTISSA || exp10 < -22 || exp10 > 22)
        return 0;
    else if (exp10 < 0)
        v = (double)w / exact_pow10[-exp10];
    else
        v = (double)w * exact_pow10[exp10];
    *out = negative ? -v : v;
    return 1;
#else
    (void)out;
    (void)s;
    (void)len;
    return 0;
#endif
}

/* Everything else, through strtod on a NUL-terminated copy. */
static int parse_with_strtod(double *out, const char *s, size_t len)
{
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

int tally__parse_double(double *out, const char *s, size_t len)
{
    s = tally__trim(s, &len);
    if (len == 0 || len > 64)
        return TALLY_EPARSE;
    if (tally__parse_decimal_fast(out, s, len))
        return TALLY_OK;
    return parse_with_strtod(out, s, len);
}
