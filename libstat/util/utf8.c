/* UTF-8 validation (RFC 3629) and escaping of names for terminals and spreadsheets. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

/* Length of the valid sequence at s (at most `left` bytes), or 0 when it is invalid. */
static size_t sequence_length(const unsigned char *s, size_t left, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t n;
    uint32_t min, v;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2, min = 0x80, v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, min = 0x800, v = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, min = 0x10000, v = c & 0x07;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

size_t tally__utf8_valid_prefix(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        /* ASCII eight bytes at a time: inputs are mostly digits and punctuation. */
        while (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & UINT64_C(0x8080808080808080))
                break;
            i += 8;
        }
        if (i >= len)
            break;
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = sequence_length(p + i, len - i, &cp);
        if (n == 0)
            return i;
        i += n;
    }
    return len;
}

/* "UTF-16LE", "UTF-16BE" or NULL: the NUL bytes of ASCII text in UTF-16 are every other one. */
static const char *utf16_order(const unsigned char *p, size_t len)
{
    if (len >= 2 && p[0] == 0xFF && p[1] == 0xFE)
        return "UTF-16LE";
    if (len >= 2 && p[0] == 0xFE && p[1] == 0xFF)
        return "UTF-16BE";
    size_t n = len < TALLY__UTF16_WINDOW ? len & ~(size_t)1 : TALLY__UTF16_WINDOW;
    size_t zero_odd = 0, zero_even = 0;
    for (size_t i = 0; i < n; i += 2) {
        zero_even += p[i] == 0 && p[i + 1] != 0;
        zero_odd += p[i + 1] == 0 && p[i] != 0;
    }
    if (n >= 4 && zero_odd == n / 2)
        return "UTF-16LE";
    if (n >= 4 && zero_even == n / 2)
        return "UTF-16BE";
    return NULL;
}

int tally__check_not_utf16(const char *data, size_t len, const char *name)
{
    const char *order = utf16_order((const unsigned char *)data, len);
    if (order == NULL)
        return TALLY_OK;
    return tally__error_at(TALLY_EPARSE, name, 0, 0,
                           "%s text: tally reads UTF-8; convert the file, e.g. iconv -f %s -t "
                           "UTF-8 FILE > FILE.utf8",
                           order, order);
}

int tally__utf8_error(const char *name, unsigned long line, unsigned long col, unsigned char byte)
{
    return tally__error_at(TALLY_EPARSE, name, line, col,
                           "invalid UTF-8 (byte 0x%02x): tally reads UTF-8 text; convert the "
                           "file, e.g. iconv -f LATIN1 -t UTF-8",
                           byte);
}

int tally__check_utf8_lines(const char *data, size_t len, const char *name,
                            unsigned long first_line)
{
    size_t ok = tally__utf8_valid_prefix(data, len);
    if (ok == len)
        return TALLY_OK;
    unsigned long line, col;
    tally__text_position(data, data + ok, &line, &col);
    return tally__utf8_error(name, first_line + line - 1, col, (unsigned char)data[ok]);
}

int tally__check_utf8(const char *data, size_t len, const char *name)
{
    return tally__check_utf8_lines(data, len, name, 1);
}

void tally__text_position(const char *data, const char *at, unsigned long *line,
                          unsigned long *col)
{
    *line = 1;
    *col = 1;
    for (const char *c = data; c < at; c++) {
        if (*c == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static int is_bidi_control(uint32_t cp)
{
    return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
           cp == 0x200F || cp == 0x061C;
}

/* What the character at s is: 0 printable, 1 a byte to show as \xHH, 2 a code point to show as
 * \u{HHHH}; its length in *n and value in *cp. */
static int classify(const unsigned char *s, size_t left, size_t *n, uint32_t *cp)
{
    *n = sequence_length(s, left, cp);
    if (*n == 0) {
        *n = 1;
        *cp = s[0];
        return 1;
    }
    if (*cp < 0x20 || *cp == 0x7F || (*cp >= 0x80 && *cp < 0xA0))
        return *cp < 0x80 ? 1 : 2;
    return is_bidi_control(*cp) ? 2 : 0;
}

int tally__needs_terminal_escape(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    while (left > 0) {
        size_t n;
        uint32_t cp;
        if (classify(p, left, &n, &cp) != 0)
            return 1;
        p += n;
        left -= n;
    }
    return 0;
}

int tally__buf_put_terminal(tally__buf *b, const char *s)
{
    if (!tally__needs_terminal_escape(s))
        return tally__buf_puts(b, s);
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    while (left > 0) {
        size_t n;
        uint32_t cp;
        int kind = classify(p, left, &n, &cp);
        if (kind == 1)
            tally__buf_printf(b, "\\x%02x", (unsigned)cp);
        else if (kind == 2)
            tally__buf_printf(b, "\\u{%04X}", (unsigned)cp);
        else if (*p == '\\')
            tally__buf_puts(b, "\\\\");
        else
            tally__buf_append(b, (const char *)p, n);
        p += n;
        left -= n;
    }
    return b->failed ? TALLY_ENOMEM : TALLY_OK;
}

/* A number as a spreadsheet reads one: sign, digits with an optional point, exponent. */
static int looks_numeric(const char *s)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    int digits = 0;
    while (*p >= '0' && *p <= '9')
        p++, digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits++;
    if (digits == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == '%')
        p++;
    return *p == '\0';
}

int tally__csv_formula_like(const char *s)
{
    if (s == NULL || strchr("=+-@\t\r", s[0]) == NULL || s[0] == '\0')
        return 0;
    return !looks_numeric(s);
}
