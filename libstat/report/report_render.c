/* Rendering entry points: format dispatch, atomic files, format and style names. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report_internal.h"

static const char *const format_names[] = { "text", "json", "csv", "md", "xlsx", "html" };
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
    return tally__error(TALLY_EINVAL, "unknown format '%s' (text, json, csv, md, xlsx, html)",
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

/* The caller's options in the current layout: version 1 options end before `histogram`, so
 * only their own fields are read and the later ones keep their defaults. */
static int check_render_options(tally_render_options *out, const tally_render_options *o)
{
    tally_render_options defaults = TALLY_RENDER_OPTIONS_INIT;
    if (o->version == 1) {
        *out = defaults;
        memcpy(out, o, offsetof(tally_render_options, histogram));
        out->version = TALLY_RENDER_OPTIONS_VERSION;
    } else if (o->version == TALLY_RENDER_OPTIONS_VERSION) {
        *out = *o;
    } else {
        return tally__error(TALLY_EINVAL, "render options: unsupported version %u", o->version);
    }
    if (tally_format_name(out->format) == NULL || tally_style_name(out->style) == NULL)
        return tally__error(TALLY_EINVAL, "render options: unknown format or style");
    if (out->width < 0)
        return tally__error(TALLY_EINVAL, "render options: negative width %d", out->width);
    return TALLY_OK;
}

static int render_text(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    int rc = TALLY_EINVAL;
    switch (o->style) {
    case TALLY_STYLE_TABLE: rc = tally__render_table(b, r, o); break;
    case TALLY_STYLE_MMTESTS: rc = tally__render_mmtests(b, r, o); break;
    case TALLY_STYLE_NORMALIZED: rc = tally__render_normalized(b, r, o); break;
    case TALLY_STYLE_PCT: rc = tally__render_pct(b, r, o); break;
    }
    if (rc == TALLY_OK && o->histogram)
        rc = tally__render_histograms(b, r, o);
    return rc;
}

static int render_to(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    switch (o->format) {
    case TALLY_FORMAT_TEXT: return render_text(b, r, o);
    case TALLY_FORMAT_HTML: return tally__render_html(b, r, o);
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
    tally_render_options defaults = TALLY_RENDER_OPTIONS_INIT, o;
    if (out == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_render: NULL argument");
    *out = NULL;
    if (len)
        *len = 0;
    if (opts == NULL)
        opts = &defaults;
    int rc = check_render_options(&o, opts);
    if (rc != TALLY_OK)
        return rc;
    tally__buf b = TALLY__BUF_INIT;
    rc = render_to(&b, r, &o);
    if (rc != TALLY_OK) {
        tally__buf_dispose(&b);
        return rc;
    }
    return tally__buf_detach(out, len, &b);
}

/* The spreadsheet goes to a temporary file next to `path`, renamed over it once complete. */
static int write_xlsx(const tally_report *r, const char *path, const tally_render_options *o)
{
    char *tmp = NULL;
    int fd = -1;
    int created = tally__create_temp(&tmp, &fd, path);
    if (created != TALLY_OK)
        return created;
    close(fd);
    int rc = tally__render_xlsx(tmp, path, r, o);
    if (rc == TALLY_OK && rename(tmp, path) != 0)
        rc = tally__error_at(TALLY_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
    if (rc != TALLY_OK)
        unlink(tmp);
    tally__free_mem(tmp);
    return rc;
}

int tally_report_write(const tally_report *r, const char *path, const tally_render_options *opts)
{
    tally_render_options defaults = TALLY_RENDER_OPTIONS_INIT, o;
    if (r == NULL || path == NULL || path[0] == '\0')
        return tally__error(TALLY_EINVAL, "tally_report_write: NULL argument");
    if (opts == NULL)
        opts = &defaults;
    int rc = check_render_options(&o, opts);
    if (rc != TALLY_OK)
        return rc;
    if (o.format == TALLY_FORMAT_XLSX)
        return write_xlsx(r, path, &o);
    char *text;
    size_t len;
    rc = tally_report_render(&text, &len, r, &o);
    if (rc != TALLY_OK)
        return rc;
    rc = tally__write_file_atomic(path, text, len);
    tally_free(text);
    return rc;
}
