/* The importer interface: one per input format. load.c reads the file, picks the importer
 * (given, or the highest sniff score), parses into a fresh list, and only then merges into the
 * caller's list, so a failed load changes nothing. */
#ifndef TALLY_IMPORTER_H
#define TALLY_IMPORTER_H

#include <stddef.h>

#include "tally.h"
#include "util/internal.h"

/* The most bytes detection looks at (detect.c, the detectors): the loader reads a larger first
 * piece of a file before it decides to read the rest as it arrives. */
#define TALLY__SNIFF_MAX 65536

/* An input handed over after its first bytes (load.c) to an importer's read_input: buf[0..have) holds them, after any
 * byte-order mark; buf (cap bytes, a tally__malloc block) is the reader's to refill, move and
 * grow, and the loader frees it. */
typedef struct tally__chunks {
    tally__input *in;
    char *buf;
    size_t have;
    size_t cap;
    size_t piece; /* bytes to read at a time, at most */
    unsigned long last_line; /* set by the reader at the end: the number of the input's last line */
} tally__chunks;

/* What an importer can do (tally__importer.flags), asked by the loader and detection instead of
 * switches over the kinds. */
enum {
    /* The format carries no benchmark names: the importer names its benchmark itself, from
     * opts->benchmark or a fixed name of its own (load_rename.c renames the others'). */
    TALLY__IMPORT_NAMES_BENCHMARK = 1 << 0,
    /* The importer reads its own lines of a tool's output and skips every other line, so a
     * file that also holds bare numbers is refused as mixed (detect.c). */
    TALLY__IMPORT_SKIPS_LINES = 1 << 1,
    /* The samples carry no unit: the caller's `unit` and `direction` apply (plain numbers);
     * other formats refuse them. */
    TALLY__IMPORT_TAKES_UNIT = 1 << 2,
    /* A tool's text output, whose every line ends with a line end when the tool finished: a
     * last line without one that ends in a number may be a cut number and is refused; any other
     * such last line is read with a warning (load.c). */
    TALLY__IMPORT_TOOL_TEXT = 1 << 3,
    /* Text lines often written by hand (CSV, TSV, plain numbers): a last line without a line
     * end is read, with a warning in the metadata of every result set of the file (load.c). */
    TALLY__IMPORT_TEXT_LINES = 1 << 4,
    /* The file holds summaries without their run count: the caller's `runs` gives it (hyperfine
     * CSV); other formats refuse it. */
    TALLY__IMPORT_TAKES_RUNS = 1 << 5,
    /* The caller's `columns` maps any header onto the format's columns (CSV, TSV); other
     * formats refuse it. With it, `unit` and `direction` apply as for plain numbers. */
    TALLY__IMPORT_TAKES_COLUMNS = 1 << 6
};

typedef struct tally__importer {
    /* The constant of io.h for the formats it names; unset (TALLY_INPUT_AUTO) for an importer
     * added since, which callers select by its name (tally_input_kind_from_name). Read it only
     * through tally__importer_kind. */
    tally_input_kind kind;
    const char *name; /* as in tally_input_kind_name() and --from: "csv", "hyperfine", ... */
    /* How sure (0 = not this kind, 100 = certain) that data[0..len) is of this kind, from its
     * first bytes: at most TALLY__SNIFF_MAX of them, but for the first line that is neither
     * blank nor a comment. Must be cheap and never fail. */
    int (*sniff)(const char *data, size_t len);
    /* Parse the whole input into `into` (fresh and empty). Errors are recorded with the file
     * name `name` and a line:col or JSON path. `opts` is never NULL and the loader has filled
     * `opts->label` (the caller's, else the file name without directory and extension), so a
     * format holding one configuration labels its result set `opts->label`; the loader renames
     * or refuses the sets of formats that carry their own labels. `opts->benchmark` is the
     * caller's or NULL: a format without benchmark names then uses a fixed name of its own, so
     * that files of different names still align in a comparison. The loader frees `into` on
     * failure. */
    int (*parse)(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts);
    /* Optional (NULL: the loader reads the whole input and calls parse): the same parse, with
     * the same samples and the same first error (UTF-8 check included), of an input read as it
     * arrives, without a buffer of the whole file. Through tally__chunks_more and
     * tally__chunks_finish (chunks.c). */
    int (*read_input)(tally_results *into, tally__chunks *src, const char *name,
                      const tally_load_options *opts);
    /* With read_input: whether data[0..len), the first bytes of a longer input that detection
     * gave to this importer, decide that as the whole input would (detection reads at most
     * TALLY__SNIFF_MAX bytes, but for what this format allows before its first data line). */
    int (*decided_by)(const char *data, size_t len);
    unsigned flags; /* TALLY__IMPORT_* */
    /* Which configurations a file of this format holds (docs/importers.md), in words for
     * messages ("its labels", "its commands"): NULL when a file is one configuration, labelled
     * opts->label. */
    const char *configs;
    /* 1 when parse reads opts->config_key, the key that separates those configurations; the
     * loader refuses config_key for the others. */
    int config_key;
} tally__importer;


/* Every importer, one file each: one declaration per row of the registry (importer_list.h),
 * for the registry in importers.c, the tests and the runner's workloads that reuse a parser. */
#define TALLY__IMPORTER(name) extern const tally__importer tally__importer_##name;
#include "formats/importer_list.h"
#undef TALLY__IMPORTER

/* For a reader of `src` that failed with `rc`: the rest of the input is read all the same, so
 * that the error reported is the one the whole-input path reports first: a read error or the
 * input limit, then the first invalid UTF-8 byte (which the loader checks before parsing), then
 * rc. buf[0..have) are the first bytes not checked yet, at line `line`, column 1; `check` is 0
 * when rc is itself invalid UTF-8 (or the rest was checked). chunks.c. */
int tally__chunks_finish(tally__chunks *src, size_t have, unsigned long line, int check, int rc,
                         const char *name);

/* The next read of `src` appended to buf[0..*have), *have counting it: at most src->piece
 * bytes, into a buffer grown first when full, towards room for the longest line accepted and
 * its "\r\n" (TALLY__MAX_LINE + 2 bytes). chunks.c. */
int tally__chunks_more(tally__chunks *src, size_t *have);

/* tally_load_file with the sizes of its reads chosen (load.c): the first (detection looks at
 * its bytes; a file that ends within it is read whole), then at most `piece` bytes at a time
 * for a file read as it arrives. The tests read with small pieces. */
int tally__load_file_pieces(tally_results *into, const char *path, const tally_load_options *opts,
                            size_t first_read, size_t piece);

/* The registry (importers.c, from importer_list.h): every importer, in detection-priority order
 * (on equal sniff scores the earlier row wins). */
extern const tally__importer *const tally__importers[];
extern const size_t tally__importer_count;

/* The kind of a registered importer: its io.h constant, else the registry's number for it (the
 * importers without a constant, numbered in registry order after the largest constant). */
tally_input_kind tally__importer_kind(const tally__importer *imp);

/* The kind of row `row` of the table rows[0..count): its `kind` (an io.h constant), else the
 * next number after the largest constant among the rows without one, in table order, so that
 * an importer needs no constant of its own and the kinds stay numbered without a gap
 * (tally__importer_kind over the registry; the tests over tables of their own). */
tally_input_kind tally__registry_kind(const tally__importer *const *rows, size_t count,
                                      size_t row);

/* The importer of `kind`, or NULL when no importer has that kind (TALLY_INPUT_AUTO among them). */
const tally__importer *tally__importer_for(tally_input_kind kind);

#endif /* TALLY_IMPORTER_H */
