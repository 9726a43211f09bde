/* An RFC 4180 record reader: fields separated by one character (',' or '\t'), optional double
 * quotes around a field, "" for a quote inside one, quoted fields may hold separators and line
 * breaks, records end at "\n" or "\r\n". Fields point into the input (or, when they held "",
 * into a scratch buffer reused record after record), so reading allocates nothing per value. */
#ifndef TALLY_CSV_TOKENIZER_H
#define TALLY_CSV_TOKENIZER_H

#include <stddef.h>

typedef struct tally__csv_field {
    const char *text;     /* contents without the quotes; not NUL-terminated */
    size_t len;
    unsigned long line;   /* position of the field's first byte (its opening quote if quoted) */
    unsigned long col;
    unsigned long end_col; /* column just after the field */
    int quoted;
    size_t scratch_at;    /* internal: offset into the scratch buffer, or (size_t)-1 */
} tally__csv_field;

typedef struct tally__csv {
    const char *name;       /* file name for messages */
    const char *cur;        /* next byte to read */
    const char *end;
    const char *line_start; /* first byte of the current line, for columns */
    unsigned long line;     /* line of `cur` (1-based) */
    char sep;
    /* More input follows `end` (which then is just after a line break): a record that reaches
     * `end` inside quotes, or a read at `end`, waits for it (TALLY__CSV_MORE). */
    int more;
    unsigned char stop[256];  /* bytes that end or spoil an unquoted field */
    tally__csv_field *fields; /* the record last read */
    size_t count;
    size_t cap;
    char *scratch;
    size_t scratch_len;
    size_t scratch_cap;
} tally__csv;

void tally__csv_init(tally__csv *c, const char *name, const char *data, size_t len, char sep);

/* What tally__csv_next returns when c->more is set and the record at c->cur does not end before
 * c->end: nothing is taken (c->cur and the line are as before the call); once the caller has
 * moved c->cur..c->end elsewhere and appended the next bytes, the record is read again. */
#define TALLY__CSV_MORE 2

/* Read the next record into c->fields[0..c->count). Returns 1 with a record, 0 at the end of the
 * input, TALLY__CSV_MORE, or a negative error already recorded as name:line:col (unterminated
 * quote, stray quote, NUL byte, record longer than TALLY__MAX_LINE). A blank line is a record of
 * one empty field. */
int tally__csv_next(tally__csv *c);

/* Step over the lines before the first record that are blank or whose first non-blank byte is
 * '#' (comments a script wrote on top: the command, the kernel), keeping line numbers right.
 * Only before the header: further down, '#' may start a name ("#workers"). */
void tally__csv_skip_preamble(tally__csv *c);

/* Where the data starts once tally__csv_skip_preamble's lines are passed over (for sniffing). */
const char *tally__csv_after_preamble(const char *data, size_t *len);

/* Go on reading at `next`, `lines` line breaks further on, in the line that starts at
 * `line_start`: for a caller that took the records up to there without tally__csv_next. */
void tally__csv_resume(tally__csv *c, const char *next, unsigned long lines,
                       const char *line_start);

void tally__csv_dispose(tally__csv *c);

#endif /* TALLY_CSV_TOKENIZER_H */
