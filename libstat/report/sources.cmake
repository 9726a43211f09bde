# Sources of libstat/report/ (see README.md here for what lives in this module).
set(TALLY_MODULE_SOURCES
  render_csv.c
  render_json.c
  render_markdown.c
  render_mmtests.c
  render_normalized.c
  render_pct.c
  render_table.c
  render_xlsx.c
  report.c
  report_access.c
  report_align.c
  report_render.c
  report_stats.c
  report_util.c
  xlsx_api.c
)
