/* libxlsxwriter, loaded when a workbook is written rather than linked: the library and what it
 * pulls in (minizip, zlib, libcrypto) cost every process that links them about 5 ms of start-up
 * on our build machine, which every `tally` command and every program using libtally would pay
 * although only the XLSX renderer needs them. The table holds the functions render_xlsx.c
 * calls, typed from xlsxwriter.h itself. Internal. */
#ifndef TALLY_XLSX_API_H
#define TALLY_XLSX_API_H

#include <xlsxwriter.h>
#include <zlib.h>

typedef struct tally__xlsx_api {
    void *handle;
    __typeof__(&workbook_new) workbook_new;
    __typeof__(&workbook_new_opt) workbook_new_opt;
    __typeof__(&workbook_close) workbook_close;
    __typeof__(&workbook_add_worksheet) workbook_add_worksheet;
    __typeof__(&workbook_add_format) workbook_add_format;
    __typeof__(&workbook_add_chart) workbook_add_chart;
    __typeof__(&worksheet_write_string) worksheet_write_string;
    __typeof__(&worksheet_write_number) worksheet_write_number;
    __typeof__(&worksheet_write_blank) worksheet_write_blank;
    __typeof__(&worksheet_set_column) worksheet_set_column;
    __typeof__(&worksheet_insert_chart_opt) worksheet_insert_chart_opt;
    __typeof__(&worksheet_conditional_format_range) worksheet_conditional_format_range;
    __typeof__(&worksheet_freeze_panes) worksheet_freeze_panes;
    __typeof__(&worksheet_autofilter) worksheet_autofilter;
    __typeof__(&worksheet_set_landscape) worksheet_set_landscape;
    __typeof__(&worksheet_fit_to_pages) worksheet_fit_to_pages;
    __typeof__(&worksheet_repeat_rows) worksheet_repeat_rows;
    __typeof__(&worksheet_print_area) worksheet_print_area;
    __typeof__(&format_set_bold) format_set_bold;
    __typeof__(&format_set_num_format) format_set_num_format;
    __typeof__(&format_set_bg_color) format_set_bg_color;
    __typeof__(&format_set_font_color) format_set_font_color;
    __typeof__(&format_set_align) format_set_align;
    __typeof__(&format_set_bottom) format_set_bottom;
    __typeof__(&format_set_indent) format_set_indent;
    __typeof__(&chart_title_set_name) chart_title_set_name;
    __typeof__(&chart_add_series) chart_add_series;
    __typeof__(&chart_series_set_name) chart_series_set_name;
    __typeof__(&chart_series_set_marker_type) chart_series_set_marker_type;
    __typeof__(&chart_series_set_fill) chart_series_set_fill;
    __typeof__(&chart_series_set_line) chart_series_set_line;
    __typeof__(&chart_series_set_points) chart_series_set_points;
    __typeof__(&chart_axis_set_name) chart_axis_set_name;
    __typeof__(&chart_axis_set_num_format) chart_axis_set_num_format;
    __typeof__(&chart_axis_set_min) chart_axis_set_min;
    __typeof__(&chart_axis_set_max) chart_axis_set_max;
    __typeof__(&chart_axis_set_major_unit) chart_axis_set_major_unit;
    __typeof__(&chart_axis_set_label_position) chart_axis_set_label_position;
    __typeof__(&chart_legend_set_position) chart_legend_set_position;
    __typeof__(&chart_axis_set_reverse) chart_axis_set_reverse;
    __typeof__(&chart_set_series_gap) chart_set_series_gap;
    __typeof__(&chart_axis_set_interval_unit) chart_axis_set_interval_unit;
    __typeof__(&chart_axis_set_log_base) chart_axis_set_log_base;
    __typeof__(&chart_axis_set_num_font) chart_axis_set_num_font;
    __typeof__(&lxw_strerror) lxw_strerror;
    /* zlib, which libxlsxwriter loads (through minizip): the written workbook is read back. */
    __typeof__(&inflateInit2_) inflateInit2_;
    __typeof__(&inflate) inflate;
    __typeof__(&inflateEnd) inflateEnd;
    __typeof__(&crc32) crc32;
} tally__xlsx_api;

/* Load the library by the soname found at build time (TALLY_XLSX_SONAME) and resolve every
 * function: TALLY_OK, or TALLY_EXLSX naming the library and dlerror()'s reason (recorded). Each
 * call opens its own reference, so concurrent renders need no shared state. */
int tally__xlsx_open(tally__xlsx_api *api);

/* The same from the library `soname` (tests use it to reach the failure). */
int tally__xlsx_open_named(tally__xlsx_api *api, const char *soname);

void tally__xlsx_close(tally__xlsx_api *api);

/* Read back the workbook libxlsxwriter wrote at `path` (xlsx_verify.c): every part inflates to
 * its recorded size and CRC-32, and every XML part ends with its root element's end tag.
 * libxlsxwriter does not check the writes of its temporary files, so a full disk otherwise
 * gives a valid ZIP of empty parts and no error. TALLY_OK, or TALLY_EIO naming `shown` and the
 * first bad part (recorded). */
int tally__xlsx_verify(const tally__xlsx_api *api, const char *path, const char *shown);

#endif /* TALLY_XLSX_API_H */
