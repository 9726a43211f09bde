/*
 * Private helpers shared by the library's modules. Nothing here is exported: symbols are hidden
 * by default and carry the `tally__` prefix.
 */
#ifndef TALLY_INTERNAL_H
#define TALLY_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>

#include "tally.h"
#include "util/count.h"

#if defined(__GNUC__)
#define TALLY__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TALLY__PRINTF(f, a)
#endif

/* ---- errors (error.c) ---- */

/* Record an error for the calling thread and return `code`, so callers can write
 * `return tally__error(TALLY_EINVAL, "...")`. */
int tally__error(int code, const char *fmt, ...) TALLY__PRINTF(2, 3);

/* The same with an input location: the message becomes "file:line:col: text". */
int tally__error_at(int code, const char *file, unsigned long line, unsigned long column,
                    const char *fmt, ...) TALLY__PRINTF(5, 6);

/* The same with a JSON path: the message becomes "file: $.a.b[2]: text". */
int tally__error_json(int code, const char *file, const char *json_path, const char *fmt, ...)
    TALLY__PRINTF(4, 5);

/* tally__error(TALLY_ENOMEM, "out of memory"). */
int tally__oom(void);

/* Record `code` with its tally_strerror() text unless the thread already holds a message for
 * the same code (used when passing an error up). */
int tally__error_keep(int code);

/* ---- memory (alloc.c): every library allocation goes through these, so that fault-injection
 * builds can make the Nth one fail. ---- */
void *tally__malloc(size_t size);
void *tally__calloc(size_t count, size_t size);
void *tally__realloc(void *ptr, size_t size);
/* realloc for arrays, failing (NULL) on count * size overflow. */
void *tally__reallocarray(void *ptr, size_t count, size_t size);
/* Fault in the pages of a block about to be written whole, in one call instead of one fault per
 * page (large blocks only; a hint that may do nothing). */
void tally__prefault(void *p, size_t size);
char *tally__strdup(const char *s);
char *tally__strndup(const char *s, size_t n);
void tally__free_mem(void *ptr);

/* ---- growable text buffer (buf.c) ---- */
typedef struct tally__buf {
    char *data;  /* NUL-terminated when len > 0 or after any append */
    size_t len;
    size_t cap;
    int failed;  /* an append ran out of memory; later appends are no-ops */
} tally__buf;

#define TALLY__BUF_INIT { NULL, 0, 0, 0 }

int tally__buf_append(tally__buf *b, const char *s, size_t n);
/* Room for `extra` more bytes and a NUL after len, for a caller that writes them at
 * data + len itself (TALLY_ENOMEM, and the buffer failed, when there is none). */
int tally__buf_reserve(tally__buf *b, size_t extra);
int tally__buf_puts(tally__buf *b, const char *s);
int tally__buf_printf(tally__buf *b, const char *fmt, ...) TALLY__PRINTF(2, 3);
int tally__buf_vprintf(tally__buf *b, const char *fmt, va_list ap);
/* snprintf with '.' as the decimal separator whatever the locale a host program set (buf.c):
 * for the fixed-size texts (tooltips, labels) that do not go through a tally__buf. */
int tally__snprintf_c(char *out, size_t size, const char *fmt, ...) TALLY__PRINTF(3, 4);
/* Hand the contents to the caller (free with tally_free); the buffer is reset. Returns
 * TALLY_ENOMEM if any append failed. */
int tally__buf_detach(char **out, size_t *len, tally__buf *b);
void tally__buf_dispose(tally__buf *b);
/* Append `s` as a JSON string literal: quotes, backslash and control characters escaped
 * (\n \r \t, else \u00XX); other bytes (UTF-8) as they are. */
void tally__buf_json_string(tally__buf *b, const char *s);
/* Append the shortest text that reads back as exactly `x` (tally__number_format). */
void tally__buf_double(tally__buf *b, double x);
/* Strip trailing spaces, then append a newline: text lines never end in blanks. */
void tally__buf_end_line(tally__buf *b);
/* Append `count` spaces. */
void tally__buf_pad(tally__buf *b, size_t count);

/* ---- files (file.c) ---- */

/* The largest input read (TALLY_ELIMIT beyond it): 1 GiB. */
#define TALLY__INPUT_MAX ((size_t)1 << 30)

/* An input read in pieces (file.c): opened and checked as tally__read_file says; a regular
 * file whose size or modification time moves before its end is read is refused (TALLY_EIO),
 * since what was read may mix its old and new contents. */
typedef struct tally__input {
    int fd;
    const char *path;  /* for messages */
    int regular;       /* a regular file */
    size_t size;       /* a regular file's size when opened (what to expect), else 0 */
    size_t total;      /* bytes read so far */
    size_t max;        /* the most it may hold: TALLY__INPUT_MAX, or TALLY_INPUT_MAX's lower one */
    int eof;           /* its end was read */
    char last;         /* the last byte read so far (the input's last once eof) */
    struct stat opened; /* as it was when opened */
} tally__input;

int tally__input_open(tally__input *in, const char *path);

/* Who holds a POSIX write lock on the file open as fd (a running sweep's journal): its pid, -1
 * when the holder is unknown (another machine), 0 when nobody (file.c). */
long tally__lock_holder(int fd);
/* The same for the file at `path` (0 when it cannot be opened). */
long tally__lock_holder_of(const char *path);
/* Read into buf[0..cap) until it is full or the input ends (then in->eof): *got bytes. Errors
 * (recorded with the path): a failed read, more than in->max bytes in all, a regular
 * file changed while read. */
int tally__input_read(tally__input *in, char *buf, size_t cap, size_t *got);
/* The rest of the input after the have_len bytes `have` already read from it, with them, as
 * one NUL-terminated block (free with tally__free_mem). */
int tally__input_read_rest(tally__input *in, char **out, size_t *len, const char *have,
                           size_t have_len);
void tally__input_close(tally__input *in);

/* Read a whole file: a regular file, standard input (/dev/stdin, /dev/fd/0) or an anonymous
 * pipe given by path (/dev/fd/N); devices, named FIFOs, sockets and directories are refused
 * with TALLY_EIO before anything is read. `*out` is NUL-terminated; free with tally__free_mem. */
int tally__read_file(char **out, size_t *len, const char *path);

/* Create `path`.tmp.<pid>.<12 hex digits> next to `path` (same file system, so a rename is
 * atomic), exclusively, with the permissions a plain creat() would give. `*tmp_out` is freed
 * with tally__free_mem. */
int tally__create_temp(char **tmp_out, int *fd_out, const char *path);

/* An output being written (file.c): a regular file, or a path not taken yet, is replaced
 * atomically (temporary file in the same directory with the old file's mode and owner, fsync,
 * rename, fsync of the directory); a symbolic link to a regular file has its target replaced;
 * anything else (terminal, pipe, device, /dev/stdout, /dev/fd/N) is written through and never
 * replaced. Write errors are recorded with the path and what to do. */
typedef struct tally__output {
    const char *shown;  /* the path as given, for messages */
    const char *target; /* the file replaced (shown or resolved) */
    char *resolved;     /* realpath() of a symbolic link, or NULL */
    char *tmp;          /* the temporary file renamed over target */
    char *stage;        /* a writer's file copied to a target written through */
    int fd;
    int through;        /* written through, not replaced */
    int failed;
    int had_old;
    struct stat old;    /* the file replaced, when had_old */
} tally__output;

void tally__output_init(tally__output *o);
int tally__output_open(tally__output *o, const char *path);
int tally__output_write(tally__output *o, const char *data, size_t len);
/* For writers that need a file name (libxlsxwriter): the file to create; the commit moves or
 * copies it to the output. */
int tally__output_stage(tally__output *o, const char **file);
/* Finish: rename into place or flush; always releases `o`. */
int tally__output_commit(tally__output *o);
/* Give up: the temporary files are removed, the target is untouched. */
void tally__output_abort(tally__output *o);

/* tally__output_open + write + commit of one buffer. */
int tally__write_file_atomic(const char *path, const char *data, size_t len);

/* ---- samples written in place (resultset.c), for importers of large inputs ---- */

/* Make room for `extra` more samples in the case (capacity grows geometrically). */
int tally__case_reserve(tally_case *c, size_t extra);
/* Where the next samples go, and how many fit before another tally__case_reserve. */
double *tally__case_spare(tally_case *c, size_t *room);
/* Count `n` samples written at tally__case_spare() as appended; they must be finite and fit. */
void tally__case_commit(tally_case *c, size_t n);
/* Append the n finite samples at x, a tally__malloc block with room for `cap`, and take the
 * block: a case without samples keeps it as its storage (no copy), another appends a copy and
 * frees it. The block is freed on failure too. */
int tally__case_adopt(tally_case *c, double *x, size_t n, size_t cap);
/* Append copies of every histogram run of `from` to `into`, all or nothing (renaming and merging
 * carry a case's histograms along with its single values). */
int tally__case_histograms_copy(tally_case *into, const tally_case *from);

/* ---- metadata in one block (resultset.c), for a store's series of thousands of sets ---- */

/* Set the pairs of `pairs`, len bytes of NUL-terminated texts (key, value, key, value, ...), as
 * tally_resultset_meta_set would one by one, in one copy of the block when the set has no
 * metadata yet and the keys differ. TALLY_EINVAL (nothing set) when the block is not such a
 * list: a text without its NUL, a key without a value, an empty key. */
int tally__resultset_meta_adopt(tally_resultset *rs, const char *pairs, size_t len);

/* Make the empty case `c` summary-only with `s` as another case holds it (from
 * tally_case_summary_result, a derived SD kept as derived): copying and merging (resultset.c). */
int tally__case_copy_summary(tally_case *c, const tally_case_summary *s);

/* ---- numbers: util/number.h (parsing, printing); the C locale: util/locale.h ---- */
#include "util/locale.h"
#include "util/number.h"

/* ---- init (init.c) ---- */
void tally__ensure_init(void);

#endif /* TALLY_INTERNAL_H */
