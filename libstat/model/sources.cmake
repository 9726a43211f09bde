# Sources of libstat/model/ (see README.md here for what lives in this module).
set(TALLY_MODULE_SOURCES
  merge.c
  resultset.c
  units.c
  validate.c
  validate_bdn.c
  validate_perf.c
)
