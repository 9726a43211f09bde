/* UTF-8 text from inputs: validation at load, and the two ways names reach places where some
 * characters are dangerous: a terminal (control characters and bidirectional overrides, which
 * can rewrite what the reader sees) and a spreadsheet (cells read as formulas). */
#ifndef TALLY_UTF8_H
#define TALLY_UTF8_H

#include <stddef.h>

#include "util/internal.h"

/* Length of the valid UTF-8 prefix of s[0..len): len when all of it is valid (shortest forms
 * only, no surrogates, nothing above U+10FFFF). */
size_t tally__utf8_valid_prefix(const char *s, size_t len);

/* Every input is UTF-8 text (names and labels from it reach JSON outputs, which strict readers
 * refuse otherwise): TALLY_OK, or TALLY_EPARSE at name:line:col of the first invalid byte with
 * the way to convert the file. */
int tally__check_utf8(const char *data, size_t len, const char *name);

/* TALLY_EPARSE with the iconv command that converts it when data[0..len) (a file's first bytes)
 * is UTF-16 text: a byte-order mark (FF FE, FE FF), or ASCII text with a NUL byte after (or
 * before) each character. TALLY_OK otherwise. */
/* How many first bytes tally__check_not_utf16 looks at: a reader that checks an input as it
 * arrives reads at least this much before it checks, so that it decides as a whole read would. */
#define TALLY__UTF16_WINDOW 64
int tally__check_not_utf16(const char *data, size_t len, const char *name);

/* The same for data[0..len) that starts a line, numbered first_line. */
int tally__check_utf8_lines(const char *data, size_t len, const char *name,
                            unsigned long first_line);

/* The error of tally__check_utf8 for the invalid `byte` at name:line:col. */
int tally__utf8_error(const char *name, unsigned long line, unsigned long col, unsigned char byte);

/* 1-based line and column (in bytes) of `at` within data. */
void tally__text_position(const char *data, const char *at, unsigned long *line,
                          unsigned long *col);

/* Whether `s` holds a character that tally__buf_put_terminal would escape. */
int tally__needs_terminal_escape(const char *s);

/* Append `s` for a terminal: C0 and C1 controls and DEL as \xHH (ESC is \x1b, BEL \x07), the
 * bidirectional controls U+202A..U+202E, U+2066..U+2069, U+200E, U+200F and U+061C as
 * \u{HHHH}, a backslash doubled only when escapes were needed elsewhere in `s`, so that clean
 * names print unchanged; invalid UTF-8 bytes as \xHH. */
int tally__buf_put_terminal(tally__buf *b, const char *s);

/* Whether a CSV cell with this text would be taken for a formula by a spreadsheet: it starts
 * with =, +, -, @, a tab or a carriage return (OWASP's list), and is not a number. */
int tally__csv_formula_like(const char *s);

#endif /* TALLY_UTF8_H */
