/* Loading inputs: pick the format, parse into a fresh list, label, then merge all or nothing. */
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/detect.h"
#include "formats/importer.h"
#include "formats/load_rename.h"
#include "util/internal.h"
#include "util/utf8.h"
#include "util/names.h"
#include "util/options.h"

/* Metadata key naming the file a result set was loaded from (docs/formats.md). */
#define SOURCE_KEY "source_file"

/* A file is read in pieces: the first, which detection looks at, then pieces that stay in the
 * processor's cache while the plain reader parses them, instead of a buffer of the whole file
 * (whose fresh pages the kernel would zero first). */
#define LOAD_FIRST_READ ((size_t)256 << 10)
#define LOAD_PIECE ((size_t)256 << 10)

/* ---- choosing an importer ---- */

/* A UTF-8 byte-order mark is accepted by every text reader. */
static size_t bom_length(const char *data, size_t len)
{
    return len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

int tally_detect_kind(tally_input_kind *out, const char *data, size_t len)
{
    if (out == NULL || (data == NULL && len > 0))
        return tally__error(TALLY_EINVAL, "tally_detect_kind: NULL argument");
    const char *text = data ? data : "";
    /* The checks loading runs before it detects, so that both refuse an input alike (UTF-16
     * text: TALLY_EPARSE, naming the encoding). */
    int rc = tally__check_not_utf16(text, len, "input");
    if (rc != TALLY_OK)
        return rc;
    size_t bom = bom_length(text, len);
    const tally__importer *imp = NULL;
    rc = tally__detect(&imp, text + bom, len - bom, "input");
    if (rc != TALLY_OK)
        return rc;
    *out = tally__importer_kind(imp);
    return TALLY_OK;
}

/* ---- labels ---- */

/* The file name without directory and extension: "runs/tip.csv" -> "tip". */
static char *stem_of(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (len == 0) {
        base = "input";
        len = strlen(base);
    }
    return tally__strndup(base, len);
}

/* ---- loading ---- */

TALLY__OPTIONS_FUNCTIONS(tally_load_options, TALLY_LOAD_OPTIONS, sizeof(tally_load_options))

static int check_options(const tally_load_options *opts)
{
    if (tally_input_kind_name(opts->kind) == NULL)
        return tally__error(TALLY_EINVAL, "tally_load_options: unknown input kind %d",
                            (int)opts->kind);
    if (opts->label && opts->label[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_load_options: empty label");
    if (opts->benchmark && opts->benchmark[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_load_options: empty benchmark name");
    if (opts->config_key && opts->config_key[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_load_options: empty config_key");
    if (opts->time_range_given && !(opts->time_start >= 0 && opts->time_end > opts->time_start))
        return tally__error(TALLY_EINVAL, "tally_load_options: a time range needs 0 <= start < "
                                          "end, not %g to %g", opts->time_start, opts->time_end);
    if ((opts->case_name && opts->case_name[0] == '\0') ||
        (opts->case_format && strstr(opts->case_format, "{}") == NULL))
        return tally__error(TALLY_EINVAL, "tally_load_options: an empty case name, or a case "
                                          "format without {}");
    return TALLY_OK;
}

static const tally__importer *choose_importer(const char *data, size_t len, const char *name,
                                              tally_input_kind kind, int *rc)
{
    const tally__importer *imp;
    if (kind == TALLY_INPUT_AUTO) {
        *rc = tally__detect(&imp, data, len, name);
    } else {
        imp = tally__importer_for(kind);
        if (imp == NULL)
            *rc = tally__error_at(TALLY_EFORMAT, name, 0, 0,
                                  "no importer for the format '%s' in this build",
                                  tally_input_kind_name(kind));
    }
    return imp;
}

/* Apply the caller's label and record the source, then refuse labels already in `into`. */
static int finish_sets(tally_results *fresh, const tally_results *into, const char *name,
                       const char *label, const tally__importer *imp)
{
    size_t count = tally_results_count(fresh);
    if (label && count != 1)
        return tally__error_at(TALLY_EINVAL, name, 0, 0,
                               "a label ('%s') was given but the file holds %zu configurations "
                               "(%s)%s",
                               label, count, imp->configs ? imp->configs : "",
                               imp->config_key ? "; --config-key none reads it as one "
                                                 "configuration when that pools no samples"
                                               : "");
    for (size_t i = 0; i < count; i++) {
        tally_resultset *rs = tally_results_at(fresh, i);
        int rc = label ? tally_resultset_set_label(rs, label) : TALLY_OK;
        if (rc == TALLY_OK)
            rc = tally_resultset_meta_set(rs, SOURCE_KEY, name);
        if (rc != TALLY_OK)
            return rc;
        const tally_resultset *taken = tally_results_find(into, tally_resultset_label(rs));
        if (taken) {
            const char *other = tally_resultset_meta_get(taken, SOURCE_KEY);
            return tally__error_at(TALLY_EEXISTS, name, 0, 0,
                                   "result set label '%s' is already taken by %s%s%s%s",
                                   tally_resultset_label(rs), other ? "'" : "",
                                   other ? other : "a result set loaded earlier",
                                   other ? "'" : "",
                                   imp->config_key && count > 1
                                       ? " (the file's configurations are its own; "
                                         "--config-key none reads each file as one where that "
                                         "pools no samples)"
                                       : "");
        }
    }
    return TALLY_OK;
}

/* The caller's options, read and checked. */
static int read_options(tally_load_options *options, const tally_load_options *opts)
{
    int rc = tally__options_read(options, opts, &tally_load_options_kind);
    if (rc != TALLY_OK)
        return rc;
    /* The JSON paths choose the generic JSON reader (import_json_path.c) for any JSON file. */
    tally_input_kind generic = tally__importer_kind(&tally__importer_json_path);
    if ((options->case_path || options->unit_path) && !options->samples_path)
        return tally__error(TALLY_EINVAL, "a case or unit path needs the samples' path too "
                                          "(--samples PATH)");
    if (options->samples_path) {
        if (options->kind != TALLY_INPUT_AUTO && options->kind != TALLY_INPUT_NATIVE_JSON &&
            options->kind != generic)
            return tally__error(TALLY_EINVAL, "--samples reads JSON files by their paths; "
                                              "--from %s reads its own format",
                                tally_input_kind_name(options->kind));
        options->kind = generic;
    }
    return check_options(options);
}

/* ---- a last line without its line end ---- */

/* The input's last line (number `line`, its last byte `last` at column `col`, 0 when unknown)
 * has no line end: the file may have been cut there, by a full disk, a killed tool or a copy
 * stopped short. A tool's output cut in a number (hackbench's "Time: 0.598" cut to "Time:
 * 0.5") would give a wrong sample: an error. Any other line, and the last line of a CSV or
 * plain file (hand-written ones often lack the final line end), is read, and every result set
 * of the file carries the warning in its metadata `cut_last_line`, which every report shows. */
static int cut_last_line(tally_results *fresh, const tally__importer *imp, const char *name,
                         unsigned long line, unsigned long col, char last)
{
    int tool = (imp->flags & TALLY__IMPORT_TOOL_TEXT) != 0;
    if (last == '\n' || last == ' ' || last == '\t' || last == '\r' ||
        !(tool || (imp->flags & TALLY__IMPORT_TEXT_LINES)))
        return TALLY_OK;
    if (tool && ((last >= '0' && last <= '9') || last == '.'))
        return tally__error_at(TALLY_EPARSE, name, line, col,
                               "the last line has no line end and ends in a number, which may "
                               "have been cut: the output looks incomplete (run the tool again, "
                               "or end the line if it is whole)");
    tally__buf note = TALLY__BUF_INIT;
    tally__buf_printf(&note, "%s:%lu: the last line has no line end: the file may have been cut "
                             "there",
                      name, line);
    int rc = note.failed ? tally__oom() : TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < tally_results_count(fresh); i++)
        rc = tally_resultset_meta_set(tally_results_at(fresh, i), "cut_last_line", note.data);
    tally__buf_dispose(&note);
    return rc;
}

/* cut_last_line for data[0..len) read whole. */
static int cut_last_line_of(tally_results *fresh, const tally__importer *imp, const char *data,
                            size_t len, const char *name)
{
    if (len == 0 || data[len - 1] == '\n')
        return TALLY_OK;
    const char *start = data + len;
    while (start > data && start[-1] != '\n')
        start--;
    unsigned long line = 1;
    for (const char *p = data; (p = memchr(p, '\n', (size_t)(start - p))) != NULL; p++)
        line++;
    return cut_last_line(fresh, imp, name, line, (unsigned long)(data + len - start),
                         data[len - 1]);
}

/* Parse with `imp` into a fresh list (the whole of data[0..len), or the input `src` as it
 * arrives when not NULL), label, then merge all or nothing. */
static int load_parsed(tally_results *into, const tally__importer *imp, const char *data,
                       size_t len, tally__chunks *src, const char *name,
                       const tally_load_options *opts)
{
    /* "file" (each file one configuration where that pools nothing) suits every format. */
    if (opts->config_key && !imp->config_key && strcmp(opts->config_key, "file") != 0)
        return tally__error_at(TALLY_EINVAL, name, 0, 0,
                               "--config-key %s: a %s file %s%s", opts->config_key, imp->name,
                               imp->configs ? "names its configurations by "
                                            : "is one configuration",
                               imp->configs ? imp->configs : "");
    if (opts->columns && !(imp->flags & TALLY__IMPORT_TAKES_COLUMNS))
        return tally__error_at(TALLY_EINVAL, name, 0, 0,
                               "--columns maps the columns of CSV and TSV files; this is a %s "
                               "file", imp->name);
    if (opts->runs && !(imp->flags & TALLY__IMPORT_TAKES_RUNS))
        return tally__error_at(TALLY_EINVAL, name, 0, 0,
                               "--runs %zu: a %s file says how many runs it holds", opts->runs,
                               imp->name);
    char *stem = stem_of(name);
    tally_results *fresh = NULL;
    if (stem == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    int rc = tally_results_new(&fresh);
    if (rc == TALLY_OK) {
        tally_load_options resolved = *opts;
        resolved.kind = tally__importer_kind(imp);
        resolved.label = opts->label ? opts->label : stem;
        rc = src ? imp->read_input(fresh, src, name, &resolved)
                 : imp->parse(fresh, data, len, name, &resolved);
    }
    if (rc == TALLY_OK && src == NULL)
        rc = cut_last_line_of(fresh, imp, data, len, name);
    else if (rc == TALLY_OK && src->in->eof)
        rc = cut_last_line(fresh, imp, name, src->last_line, 0, src->in->last);
    if (rc == TALLY_OK)
        rc = tally__load_rename(&fresh, imp, name, opts);
    if (rc == TALLY_OK)
        rc = finish_sets(fresh, into, name, opts->label, imp);
    if (rc == TALLY_OK)
        rc = tally_results_merge(into, fresh);
    tally_results_free(fresh);
    tally__free_mem(stem);
    return rc;
}

static int load_data(tally_results *into, const char *data, size_t len, const char *name,
                     const tally_load_options *opts)
{
    tally_load_options options;
    int rc = read_options(&options, opts);
    if (rc != TALLY_OK)
        return rc;
    if ((rc = tally__check_not_utf16(data, len, name)) != TALLY_OK)
        return rc;
    size_t bom = bom_length(data, len);
    data += bom;
    len -= bom;
    const tally__importer *imp = choose_importer(data, len, name, options.kind, &rc);
    if (imp == NULL)
        return rc;
    if ((rc = tally__check_utf8(data, len, name)) != TALLY_OK)
        return rc;
    return load_parsed(into, imp, data, len, NULL, name, &options);
}

int tally_load_buffer(tally_results *into, const char *data, size_t len, const char *name,
                      const tally_load_options *opts)
{
    if (into == NULL || (data == NULL && len > 0))
        return tally__error(TALLY_EINVAL, "tally_load_buffer: NULL argument");
    return load_data(into, data ? data : "", len, name ? name : "<input>", opts);
}

/* The importer that reads a file whose first bytes are data[0..len) (after any byte-order mark;
 * more follow) as it arrives, or NULL to read it whole: one with a read_input slot, given, or
 * detected from these bytes when they decide it as the whole file would (its decided_by). */
static const tally__importer *read_as_it_arrives(const char *data, size_t len,
                                                  size_t first_read,
                                                  const tally_load_options *opts)
{
    const tally__importer *imp = NULL;
    if (opts->kind != TALLY_INPUT_AUTO) {
        imp = tally__importer_for(opts->kind);
        return imp && imp->read_input ? imp : NULL;
    }
    if (first_read <= TALLY__SNIFF_MAX || len <= TALLY__SNIFF_MAX)
        return NULL;
    if (tally__detect(&imp, data, len, "input") != TALLY_OK)
        return NULL;
    return imp->read_input && imp->decided_by(data, len) ? imp : NULL;
}

int tally__load_file_pieces(tally_results *into, const char *path, const tally_load_options *opts,
                            size_t first_read, size_t piece)
{
    if (into == NULL || path == NULL || path[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_load_file: NULL or empty argument");
    /* The first read holds all that the UTF-16 check looks at, as a whole read does. */
    if (first_read < TALLY__UTF16_WINDOW)
        first_read = TALLY__UTF16_WINDOW;
    tally__input in;
    int rc = tally__input_open(&in, path);
    if (rc != TALLY_OK)
        return rc;
    /* One byte more for the NUL of a file read whole by this first read. */
    tally__chunks src = { &in, tally__malloc(first_read + 1), 0, first_read + 1, piece, 0 };
    if (src.buf == NULL) {
        tally__input_close(&in);
        return tally__error(TALLY_ENOMEM, "out of memory reading %s", in.path);
    }
    size_t got = 0;
    rc = tally__input_read(&in, src.buf, first_read, &got);
    if (rc == TALLY_OK)
        rc = tally__check_not_utf16(src.buf, got, in.path);
    tally_load_options options;
    size_t bom = bom_length(src.buf, got);
    /* Three bytes at least, so that a byte-order mark is seen whole. */
    const tally__importer *imp = NULL;
    if (rc == TALLY_OK && !in.eof && got >= 3 && read_options(&options, opts) == TALLY_OK &&
        (imp = read_as_it_arrives(src.buf + bom, got - bom, first_read, &options)) != NULL) {
        memmove(src.buf, src.buf + bom, got - bom);
        src.have = got - bom;
        rc = load_parsed(into, imp, NULL, 0, &src, in.path, &options);
    } else if (rc == TALLY_OK && in.eof) {
        src.buf[got] = '\0';
        rc = load_data(into, src.buf, got, in.path, opts);
    } else if (rc == TALLY_OK) {
        char *data = NULL;
        size_t len = 0;
        rc = tally__input_read_rest(&in, &data, &len, src.buf, got);
        tally__free_mem(src.buf);
        src.buf = NULL;
        if (rc == TALLY_OK)
            rc = load_data(into, data, len, in.path, opts);
        tally__free_mem(data);
    }
    tally__free_mem(src.buf);
    tally__input_close(&in);
    return rc;
}

int tally_load_file(tally_results *into, const char *path, const tally_load_options *opts)
{
    return tally__load_file_pieces(into, path, opts, LOAD_FIRST_READ, LOAD_PIECE);
}

int tally_load_spec(tally_results *into, const char *spec, const tally_load_options *opts)
{
    if (into == NULL || spec == NULL || spec[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_load_spec: NULL or empty argument");
    struct stat st;
    const char *eq = strchr(spec, '=');
    if (eq == NULL || stat(spec, &st) == 0)
        return tally_load_file(into, spec, opts);
    if (eq == spec || eq[1] == '\0')
        return tally__error(TALLY_EINVAL, "input '%s': expected label=path with both parts", spec);
    /* Read through the version reader: a caller's older struct is shorter than ours. */
    tally_load_options with_label;
    int rc = tally__options_read(&with_label, opts, &tally_load_options_kind);
    if (rc != TALLY_OK)
        return rc;
    char *label = tally__strndup(spec, (size_t)(eq - spec));
    if (label == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    with_label.label = label;
    rc = tally_load_file(into, eq + 1, &with_label);
    tally__free_mem(label);
    return rc;
}
