/* Rendering entry points: format dispatch, atomic files, format and style names. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report_internal.h"
#include "report/report_display.h"
#include "util/count.h"
#include "util/names.h"
#include "util/options.h"
#include "util/result.h"

static const tally__name formats[] = {
    { "text", TALLY_FORMAT_TEXT }, { "json", TALLY_FORMAT_JSON }, { "csv", TALLY_FORMAT_CSV },
    { "md", TALLY_FORMAT_MARKDOWN }, { "xlsx", TALLY_FORMAT_XLSX }, { "html", TALLY_FORMAT_HTML },
    { "markdown", TALLY_FORMAT_MARKDOWN },
};

static const tally__name styles[] = {
    { "table", TALLY_STYLE_TABLE },
    { "mmtests", TALLY_STYLE_MMTESTS },
    { "normalized", TALLY_STYLE_NORMALIZED },
    { "pct", TALLY_STYLE_PCT },
};

TALLY__NAME_FUNCTIONS(tally_format, formats, "format")
TALLY__NAME_FUNCTIONS(tally_style, styles, "style")

/* Version 1 ended before `histogram`, version 2 before `diagnose`, version 3 before
 * `only_changed`, version 4 before `only_statistic`, version 5 before `case_label`. */
TALLY__OPTIONS_FUNCTIONS(tally_render_options, TALLY_RENDER_OPTIONS, sizeof(tally_render_options))

/* The caller's options (NULL: the defaults) read into *out, and checked. */
int tally__render_options_read(tally_render_options *out, const tally_render_options *given)
{
    int rc = tally__options_read(out, given, &tally_render_options_kind);
    if (rc != TALLY_OK)
        return rc;
    if (tally_format_name(out->format) == NULL || tally_style_name(out->style) == NULL)
        return tally__error(TALLY_EINVAL, "render options: unknown format or style");
    if (out->width < 0)
        return tally__error(TALLY_EINVAL, "render options: negative width %d", out->width);
    return TALLY_OK;
}

/* The text layouts end with how the rows paired (the seed layouts, which stay as posted, only
 * when some row did not pair or paired under another name), the notes about partial sets and
 * failed runs, and the diagnostics (the seed layouts only when asked). */
static int with_notes(int rc, tally__buf *b, const tally_report *r, const char *prefix,
                      int diagnose, int seed, int width)
{
    if (rc != TALLY_OK)
        return rc;
    tally__buf notes = TALLY__BUF_INIT;
    tally__render_pairing_notes(&notes, r, prefix, !seed);
    tally__render_run_notes(&notes, r, prefix);
    tally__render_env_notes(&notes, r, prefix);
    tally__render_block_notes(&notes, r, prefix);
    tally__render_exact_notes(&notes, r, prefix);
    tally__render_summary_only_notes(&notes, r, prefix);
    tally__render_histogram_notes(&notes, r, prefix);
    if (diagnose)
        tally__render_diag_notes(&notes, r, prefix);
    if (notes.len > 0) {
        tally__buf_puts(b, "\n");
        size_t start = b->len;
        tally__buf_append(b, notes.data, notes.len);
        /* Within the terminal's width like the tables above them. */
        if (width > 0)
            tally__reflow(b, start, (size_t)width);
    }
    rc = notes.failed ? tally__oom() : TALLY_OK;
    tally__buf_dispose(&notes);
    return rc;
}

/* The system-details block (render option `system`): the recorded machine facts of every
 * configuration side by side in aligned columns, keys none recorded left out. */
static const char *const system_keys[][2] = {
    {"kernel", "kernel"},     {"cpu_model", "CPU"},  {"cpu_count", "CPUs"}, {"smt", "SMT"},
    {"memory", "memory"},     {"governor", "governor"}, {"boost", "boost"}, {"thp", "THP"},
};

static void render_system(tally__buf *b, const tally_report *r)
{
    size_t key_width = strlen("System details:"), width[64] = {0};
    size_t configs = r->config_count < TALLY__COUNT(width) ? r->config_count : TALLY__COUNT(width);
    int any = 0;
    for (size_t k = 0; k < TALLY__COUNT(system_keys); k++)
        for (size_t j = 0; j < configs; j++) {
            const char *v = tally__report_meta(r, j, system_keys[k][0]);
            if (v == NULL)
                continue;
            any = 1;
            if (strlen(v) > width[j])
                width[j] = strlen(v);
        }
    if (!any)
        return;
    for (size_t j = 0; j < configs; j++)
        if (strlen(r->configs[j].label) > width[j])
            width[j] = strlen(r->configs[j].label);
    tally__buf_printf(b, "%-*s", (int)key_width, "System details:");
    for (size_t j = 0; j < configs; j++)
        tally__buf_printf(b, "  %-*s", j + 1 < configs ? (int)width[j] : 0, r->configs[j].label);
    tally__buf_end_line(b);
    for (size_t k = 0; k < TALLY__COUNT(system_keys); k++) {
        int recorded = 0;
        for (size_t j = 0; j < configs; j++)
            recorded |= tally__report_meta(r, j, system_keys[k][0]) != NULL;
        if (!recorded)
            continue;
        tally__buf_printf(b, "  %-*s", (int)key_width - 2, system_keys[k][1]);
        for (size_t j = 0; j < configs; j++) {
            const char *v = tally__report_meta(r, j, system_keys[k][0]);
            tally__buf_printf(b, "  %-*s", j + 1 < configs ? (int)width[j] : 0, v ? v : "-");
        }
        tally__buf_end_line(b);
    }
}

/* Markdown: the same block in a fenced code block (longer than any backquote run inside, so
 * no recorded value can close it), folded under "System details". */
static int render_system_markdown(tally__buf *b, const tally_report *r)
{
    tally__buf text = TALLY__BUF_INIT;
    render_system(&text, r);
    if (text.len > 0) {
        size_t run = 0, longest = 0;
        for (size_t i = 0; i < text.len; i++) {
            run = text.data[i] == '`' ? run + 1 : 0;
            longest = run > longest ? run : longest;
        }
        size_t fence = longest < 3 ? 3 : longest + 1;
        tally__buf_puts(b, "<details><summary>System details</summary>\n\n");
        for (size_t i = 0; i < fence; i++)
            tally__buf_puts(b, "`");
        tally__buf_puts(b, "text\n");
        tally__buf_append(b, text.data, text.len);
        for (size_t i = 0; i < fence; i++)
            tally__buf_puts(b, "`");
        tally__buf_puts(b, "\n\n</details>\n\n");
    }
    int rc = text.failed ? tally__oom() : TALLY_OK;
    tally__buf_dispose(&text);
    return rc;
}

static int render_text(tally__buf *b, const tally_report *shown, const tally_render_options *o)
{
    /* Names from the inputs reach a terminal: escaped first (report_display.c). */
    tally_report *escaped = NULL;
    int rc = tally__report_for_terminal(&escaped, shown);
    if (rc != TALLY_OK)
        return rc;
    const tally_report *r = escaped ? escaped : shown;
    if (o->system) {
        size_t before = b->len;
        render_system(b, r);
        if (b->len > before)
            tally__buf_puts(b, "\n");
    }
    rc = TALLY_EINVAL;
    switch (o->style) {
    case TALLY_STYLE_TABLE: rc = tally__render_table(b, r, o); break;
    case TALLY_STYLE_MMTESTS: rc = tally__render_mmtests(b, r, o); break;
    case TALLY_STYLE_NORMALIZED: rc = tally__render_normalized(b, r, o); break;
    case TALLY_STYLE_PCT: rc = tally__render_pct(b, r, o); break;
    }
    if (rc == TALLY_OK && o->histogram)
        rc = tally__render_histograms(b, r, o);
    rc = with_notes(rc, b, r, "", o->style == TALLY_STYLE_TABLE || o->diagnose,
                    o->style != TALLY_STYLE_TABLE, o->fit_width);
    tally__report_for_terminal_free(escaped);
    return rc;
}

/* Markdown places its notes itself: they count towards its length limit. */
static int render_markdown(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    if (o->system && render_system_markdown(b, r) != TALLY_OK)
        return TALLY_ENOMEM;
    return tally__render_markdown(b, r, o);
}

/* The renderers, one row per tally_format in its order: what each needs and where it goes
 * (tally_format_info_at), and the function that appends it to a buffer (NULL: written to a
 * file only, by tally_report_write). */
static const struct renderer {
    tally_format format;
    const char *title; /* for messages */
    int needs_samples, file_only, terminal;
    int (*render)(tally__buf *b, const tally_report *r, const tally_render_options *o);
} renderers[] = {
    { TALLY_FORMAT_TEXT, "text", 0, 0, 1, render_text },
    { TALLY_FORMAT_JSON, "JSON", 1, 0, 0, tally__render_json },
    { TALLY_FORMAT_CSV, "CSV", 0, 0, 0, tally__render_csv },
    { TALLY_FORMAT_MARKDOWN, "Markdown", 0, 0, 0, render_markdown },
    { TALLY_FORMAT_XLSX, "XLSX", 1, 1, 0, NULL },
    { TALLY_FORMAT_HTML, "HTML", 1, 0, 0, tally__render_html },
};

size_t tally_format_count(void)
{
    return TALLY__COUNT(renderers);
}

int tally_format_info_at(tally_format_info *out, size_t i)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_format_info");
    if (rc)
        return rc;
    if (i >= TALLY__COUNT(renderers))
        return tally__error(TALLY_EINVAL, "tally_format_info_at: no format %zu (%zu formats)", i,
                            TALLY__COUNT(renderers));
    const struct renderer *row = &renderers[i];
    tally_format_info f = { sizeof f, row->format, tally_format_name(row->format),
                            row->needs_samples, row->file_only, row->terminal };
    tally__result_put(out, size, &f, sizeof f);
    return TALLY_OK;
}

static int render_to(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    for (size_t i = 0; i < TALLY__COUNT(renderers); i++) {
        if (renderers[i].format != o->format)
            continue;
        if (renderers[i].render == NULL)
            return tally__error(TALLY_EINVAL, "%s reports can only be written to a file",
                                renderers[i].title);
        return renderers[i].render(b, r, o);
    }
    return tally__error(TALLY_EINVAL, "render options: unknown format or style");
}

int tally_report_render(char **out, size_t *len, const tally_report *r,
                        const tally_render_options *opts)
{
    if (out == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_render: NULL argument");
    *out = NULL;
    if (len)
        *len = 0;
    tally_render_options o;
    int rc = tally__render_options_read(&o, opts);
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
    if (r == NULL || path == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_write: NULL argument");
    if (path[0] == '\0')
        return tally__error(TALLY_EINVAL, "the output path is empty: give a file name");
    tally_render_options o;
    int rc = tally__render_options_read(&o, opts);
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
