/* The libxlsxwriter function table, resolved with dlopen/dlsym (see xlsx_api.h for why). */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "util/internal.h"
#include "report/xlsx_api.h"

#ifndef TALLY_XLSX_SONAME
#define TALLY_XLSX_SONAME "libxlsxwriter.so"
#endif

/* Kept mapped after the last dlclose, so a program writing many workbooks loads it once. */
#ifdef RTLD_NODELETE
#define LOAD_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
#else
#define LOAD_FLAGS (RTLD_NOW | RTLD_LOCAL)
#endif

#define ENTRY(name) { #name, offsetof(tally__xlsx_api, name) }

static const struct {
    const char *name;
    size_t offset;
} functions[] = {
    ENTRY(workbook_new), ENTRY(workbook_new_opt),
    ENTRY(workbook_close), ENTRY(workbook_add_worksheet),
    ENTRY(workbook_add_format), ENTRY(workbook_add_chart),
    ENTRY(worksheet_write_string), ENTRY(worksheet_write_number),
    ENTRY(worksheet_write_blank), ENTRY(worksheet_set_column),
    ENTRY(worksheet_insert_chart_opt), ENTRY(worksheet_conditional_format_range),
    ENTRY(worksheet_freeze_panes), ENTRY(worksheet_autofilter),
    ENTRY(worksheet_set_landscape), ENTRY(worksheet_fit_to_pages),
    ENTRY(worksheet_repeat_rows), ENTRY(worksheet_print_area), ENTRY(format_set_bold),
    ENTRY(format_set_num_format), ENTRY(format_set_bg_color),
    ENTRY(format_set_font_color), ENTRY(format_set_align),
    ENTRY(format_set_bottom), ENTRY(format_set_indent), ENTRY(chart_title_set_name),
    ENTRY(chart_add_series), ENTRY(chart_series_set_name),
    ENTRY(chart_series_set_marker_type), ENTRY(chart_series_set_fill),
    ENTRY(chart_series_set_line), ENTRY(chart_series_set_points),
    ENTRY(chart_axis_set_name), ENTRY(chart_axis_set_num_format), ENTRY(chart_axis_set_min), ENTRY(chart_axis_set_max), ENTRY(chart_axis_set_major_unit),
    ENTRY(chart_axis_set_label_position), ENTRY(chart_legend_set_position),
    ENTRY(chart_axis_set_reverse), ENTRY(chart_set_series_gap),
    ENTRY(chart_axis_set_interval_unit), ENTRY(chart_axis_set_log_base),
    ENTRY(chart_axis_set_num_font),
    ENTRY(lxw_strerror), ENTRY(inflateInit2_), ENTRY(inflate), ENTRY(inflateEnd), ENTRY(crc32),
};

int tally__xlsx_open_named(tally__xlsx_api *api, const char *soname)
{
    memset(api, 0, sizeof *api);
    api->handle = dlopen(soname, LOAD_FLAGS);
    if (api->handle == NULL) {
        const char *why = dlerror();
        return tally__error(TALLY_EXLSX, "XLSX output needs libxlsxwriter (%s): %s", soname,
                            why ? why : "cannot load it");
    }
    for (size_t i = 0; i < TALLY__COUNT(functions); i++) {
        void *symbol = dlsym(api->handle, functions[i].name);
        if (symbol == NULL) {
            tally__xlsx_close(api);
            return tally__error(TALLY_EXLSX, "%s has no function %s (too old a libxlsxwriter?)",
                                soname, functions[i].name);
        }
        /* POSIX guarantees a function pointer survives the round trip through void *. */
        memcpy((char *)api + functions[i].offset, &symbol, sizeof symbol);
    }
    return TALLY_OK;
}

int tally__xlsx_open(tally__xlsx_api *api)
{
    return tally__xlsx_open_named(api, TALLY_XLSX_SONAME);
}

void tally__xlsx_close(tally__xlsx_api *api)
{
    if (api->handle != NULL)
        dlclose(api->handle);
    memset(api, 0, sizeof *api);
}
