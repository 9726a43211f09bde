# Sources of libstat/util/ (see README.md here for what lives in this module).
set(TALLY_MODULE_SOURCES
  alloc.c
  buf.c
  error.c
  file.c
  init.c
  json_numbers.c
  json_util.c
  name_index.c
  names.c
  number.c
  number_cxx.cc
  options.c
  si.c
  text.c
  version.c
)
