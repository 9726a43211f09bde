/* Growable text buffer used by the writers and renderers. */
#include <stdio.h>
#include <string.h>

#include "util/internal.h"

static int grow(tally__buf *b, size_t extra)
{
    if (b->failed)
        return TALLY_ENOMEM;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return TALLY_OK;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        if (cap > ((size_t)-1) / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *data = tally__realloc(b->data, cap);
    if (data == NULL) {
        b->failed = 1;
        return TALLY_ENOMEM;
    }
    b->data = data;
    b->cap = cap;
    return TALLY_OK;
}

int tally__buf_reserve(tally__buf *b, size_t extra)
{
    return grow(b, extra);
}

int tally__buf_append(tally__buf *b, const char *s, size_t n)
{
    if (grow(b, n) != TALLY_OK)
        return TALLY_ENOMEM;
    if (n > 0)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return TALLY_OK;
}

int tally__buf_puts(tally__buf *b, const char *s)
{
    return tally__buf_append(b, s, strlen(s));
}

int tally__snprintf_c(char *out, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    void *locale = tally__locale_c_begin();
    int n = vsnprintf(out, size, fmt, ap);
    tally__locale_c_end(locale);
    va_end(ap);
    return n;
}

int tally__buf_vprintf(tally__buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    char small[256];
    /* Numbers in formats (%g, %.2f) print with '.' whatever the process's locale. */
    void *locale = tally__locale_c_begin();
    int n = vsnprintf(small, sizeof(small), fmt, copy);
    va_end(copy);
    if (n < 0) {
        tally__locale_c_end(locale);
        return tally__error(TALLY_ERROR, "formatting failed");
    }
    if ((size_t)n < sizeof(small)) {
        tally__locale_c_end(locale);
        return tally__buf_append(b, small, (size_t)n);
    }
    if (grow(b, (size_t)n) != TALLY_OK) {
        tally__locale_c_end(locale);
        return TALLY_ENOMEM;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    tally__locale_c_end(locale);
    b->len += (size_t)n;
    return TALLY_OK;
}

int tally__buf_printf(tally__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = tally__buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

int tally__buf_detach(char **out, size_t *len, tally__buf *b)
{
    if (b->failed || grow(b, 0) != TALLY_OK) {
        tally__buf_dispose(b);
        return tally__error(TALLY_ENOMEM, "out of memory");
    }
    *out = b->data;
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return TALLY_OK;
}

void tally__buf_dispose(tally__buf *b)
{
    tally__free_mem(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void tally__buf_json_string(tally__buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    tally__buf_append(b, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        tally__buf_append(b, run, (size_t)(s - run));
        run = s + 1;
        switch (ch) {
        case '"': tally__buf_append(b, "\\\"", 2); break;
        case '\\': tally__buf_append(b, "\\\\", 2); break;
        case '\n': tally__buf_append(b, "\\n", 2); break;
        case '\r': tally__buf_append(b, "\\r", 2); break;
        case '\t': tally__buf_append(b, "\\t", 2); break;
        default: {
            char esc[6] = { '\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15] };
            tally__buf_append(b, esc, sizeof(esc));
        }
        }
    }
    tally__buf_append(b, run, (size_t)(s - run));
    tally__buf_append(b, "\"", 1);
}

void tally__buf_double(tally__buf *b, double x)
{
    char text[TALLY__NUMBER_BUF];
    tally__buf_append(b, text, tally__number_format(text, x));
}

void tally__buf_end_line(tally__buf *b)
{
    while (b->len > 0 && !b->failed && b->data[b->len - 1] == ' ')
        b->data[--b->len] = '\0';
    tally__buf_puts(b, "\n");
}

void tally__buf_pad(tally__buf *b, size_t count)
{
    for (size_t i = 0; i < count; i++)
        tally__buf_puts(b, " ");
}
