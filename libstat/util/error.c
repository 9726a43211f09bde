/* Error codes, messages and the thread-local last error. */
#include <stdio.h>
#include <string.h>

#include "util/error_codes.h"
#include "util/internal.h"

#define MESSAGE_MAX 1024
#define LOCATION_MAX 512

typedef struct error_state {
    tally_error info;
    char message[MESSAGE_MAX];
    char file[LOCATION_MAX];
    char json_path[LOCATION_MAX];
} error_state;

/* Thread-local by design: each thread reads only the errors of its own calls. */
static _Thread_local error_state last_error;

/* Indexed by -code; a code missing from the table would leave a hole (NULL), and two rows of
 * one code are a duplicate initializer (-Woverride-init). */
#define MESSAGE_ROW(code, text, py_class, py_base, py_doc) [-(code)] = text,
static const char *const messages[] = { TALLY__ERROR_CODES(MESSAGE_ROW) };
#undef MESSAGE_ROW

const char *tally_strerror(int code)
{
    size_t index = code <= 0 ? (size_t)(-(long)code) : (size_t)-1;
    if (index < TALLY__COUNT(messages) && messages[index] != NULL)
        return messages[index];
    return "unknown error code";
}

const tally_error *tally_error_last(void)
{
    if (last_error.info.message == NULL)
        last_error.info.message = last_error.message;
    return &last_error.info;
}

void tally_error_clear(void)
{
    memset(&last_error, 0, sizeof(last_error));
    last_error.info.message = last_error.message;
}

static void copy_text(char *dst, size_t cap, const char *src)
{
    if (src == NULL) {
        dst[0] = '\0';
        return;
    }
    snprintf(dst, cap, "%s", src);
}

static int record(int code, const char *file, unsigned long line, unsigned long column,
                  const char *json_path, const char *fmt, va_list ap)
{
    char text[MESSAGE_MAX];
    void *locale = tally__locale_c_begin(); /* "%g" with '.', whatever the locale */
    vsnprintf(text, sizeof(text), fmt, ap);
    tally__locale_c_end(locale);

    /* Keep the location strings before the message: the caller may pass pointers into them. */
    char file_copy[LOCATION_MAX], path_copy[LOCATION_MAX];
    copy_text(file_copy, sizeof(file_copy), file);
    copy_text(path_copy, sizeof(path_copy), json_path);

    tally_error_clear();
    error_state *e = &last_error;
    e->info.code = code;
    memcpy(e->file, file_copy, sizeof(e->file));
    memcpy(e->json_path, path_copy, sizeof(e->json_path));
    e->info.file = file ? e->file : NULL;
    e->info.json_path = json_path ? e->json_path : NULL;
    e->info.line = line;
    e->info.column = column;

    /* Over-long messages are cut at MESSAGE_MAX; the length is only checked to say so. */
    int written;
    if (file && json_path)
        written = snprintf(e->message, sizeof(e->message), "%s: %s: %s", e->file, e->json_path, text);
    else if (file && line > 0 && column > 0)
        written = snprintf(e->message, sizeof(e->message), "%s:%lu:%lu: %s", e->file, line, column,
                           text);
    else if (file && line > 0)
        written = snprintf(e->message, sizeof(e->message), "%s:%lu: %s", e->file, line, text);
    else if (file)
        written = snprintf(e->message, sizeof(e->message), "%s: %s", e->file, text);
    else
        written = snprintf(e->message, sizeof(e->message), "%s", text);
    if (written >= (int)sizeof(e->message))
        memcpy(e->message + sizeof(e->message) - 4, "...", 4);
    return code;
}

int tally__error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(code, NULL, 0, 0, NULL, fmt, ap);
    va_end(ap);
    return code;
}

int tally__error_at(int code, const char *file, unsigned long line, unsigned long column,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(code, file ? file : "<input>", line, column, NULL, fmt, ap);
    va_end(ap);
    return code;
}

int tally__error_json(int code, const char *file, const char *json_path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(code, file ? file : "<input>", 0, 0, json_path ? json_path : "$", fmt, ap);
    va_end(ap);
    return code;
}

int tally__error_keep(int code)
{
    if (last_error.info.code == code && last_error.message[0] != '\0')
        return code;
    return tally__error(code, "%s", tally_strerror(code));
}

int tally__oom(void)
{
    return tally__error(TALLY_ENOMEM, "out of memory");
}
