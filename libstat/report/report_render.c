/* Rendering entry points: format dispatch, atomic files, format and style names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report_internal.h"

static const char *const format_names[] = { "text", "json", "csv", "md", "xlsx" };
static const char *const style_names[] = { "table", "mmtests", "normalized", "pct" };

const char *tally_format_name(tally_format format)
{
    return (unsigned)format < sizeof(format_names) / sizeof(*format_names) ? format_names[format]
                                                                          : NULL;
}

int tally_format_from_name(tally_format *out, const char *name)
{
    if (out && name) {
        for (size_t i = 0; i < sizeof(format_names) / sizeof(*format_names); i++)
            if (strcasecmp(name, format_names[i]) == 0) {
                *out = (tally_format)i;
                return TALLY_OK;
            }
        if (strcasecmp(name, "markdown") == 0) {
            *out = TALLY_FORMAT_MARKDOWN;
            return TALLY_OK;
        }
    }
    return tally__error(TALLY_EINVAL, "unknown format '%s' (text, json, csv, md, xlsx)",
                        name ? name : "(null)");
}

const char *tally_style_name(tally_style style)
{
    return (unsigned)style < sizeof(style_names) / sizeof(*style_names) ? style_names[style]
                                                                        : NULL;
}

int tally_style_from_name(tally_style *out, const char *name)
{
    if (out && name)
        for (size_t i = 0; i < sizeof(style_names) / sizeof(*style_names); i++)
            if (strcasecmp(name, style_names[i]) == 0) {
                *out = (tally_style)i;
                return TALLY_OK;
            }
    return tally__error(TALLY_EINVAL, "unknown style '%s' (table, mmtests, normalized, pct)",
                        name ? name : "(null)");
}

static int check_render_options(const tally_render_options *o)
{
    if (o->version != TALLY_RENDER_OPTIONS_VERSION)
        return tally__error(TALLY_EINVAL, "render options: unsupported version %u", o->version);
    if (tally_format_name(o->format) == NULL || tally_style_name(o->style) == NULL)
        return tally__error(TALLY_EINVAL, "render options: unknown format or style");
    return TALLY_OK;
}

static int render_to(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    switch (o->format) {
    case TALLY_FORMAT_TEXT:
        switch (o->style) {
        case TALLY_STYLE_TABLE: return tally__render_table(b, r, o);
        case TALLY_STYLE_MMTESTS: return tally__render_mmtests(b, r, o);
        case TALLY_STYLE_NORMALIZED: return tally__render_normalized(b, r, o);
        case TALLY_STYLE_PCT: return tally__render_pct(b, r, o);
        }
        break;
    case TALLY_FORMAT_JSON: return tally__render_json(b, r, o);
    case TALLY_FORMAT_CSV: return tally__render_csv(b, r, o);
    case TALLY_FORMAT_MARKDOWN: return tally__render_markdown(b, r, o);
    case TALLY_FORMAT_XLSX:
        return tally__error(TALLY_EINVAL, "XLSX reports can only be written to a file");
    }
    return tally__error(TALLY_EINVAL, "render options: unknown format or style");
}

int tally_report_render(char **out, size_t *len, const tally_report *r,
                        const tally_render_options *opts)
{
    tally_render_options defaults = TALLY_RENDER_OPTIONS_INIT;
    if (out == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_render: NULL argument");
    *out = NULL;
    if (len)
        *len = 0;
    if (opts == NULL)
        opts = &defaults;
    int rc = check_render_options(opts);
    if (rc != TALLY_OK)
        return rc;
    tally__buf b = TALLY__BUF_INIT;
    rc = render_to(&b, r, opts);
    if (rc != TALLY_OK) {
        tally__buf_dispose(&b);
        return rc;
    }
    return tally__buf_detach(out, len, &b);
}

/* The spreadsheet is written to a file of its own, moved over (or copied to) the output once
 * complete (tally__output). */
static int write_xlsx(const tally_report *r, const char *path, const tally_render_options *o)
{
    tally__output out;
    const char *file = NULL;
    int rc = tally__output_open(&out, path);
    if (rc == TALLY_OK)
        rc = tally__output_stage(&out, &file);
    if (rc == TALLY_OK)
        rc = tally__render_xlsx(file, path, r, o);
    if (rc == TALLY_OK)
        return tally__output_commit(&out);
    tally__output_abort(&out);
    return rc;
}

int tally_report_write(const tally_report *r, const char *path, const tally_render_options *opts)
{
    tally_render_options defaults = TALLY_RENDER_OPTIONS_INIT;
    if (r == NULL || path == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_write: NULL argument");
    if (path[0] == '\0')
        return tally__error(TALLY_EINVAL, "the output path is empty: give a file name");
    if (opts == NULL)
        opts = &defaults;
    int rc = check_render_options(opts);
    if (rc != TALLY_OK)
        return rc;
    if (opts->format == TALLY_FORMAT_XLSX)
        return write_xlsx(r, path, opts);
    char *text;
    size_t len;
    rc = tally_report_render(&text, &len, r, opts);
    if (rc != TALLY_OK)
        return rc;
    rc = tally__write_file_atomic(path, text, len);
    tally_free(text);
    return rc;
}
