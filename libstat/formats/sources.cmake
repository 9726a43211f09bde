# Sources of libstat/formats/ (see README.md here for what lives in this module).
set(TALLY_MODULE_SOURCES
  chunks.c
  csv_read.c
  csv_tokenizer.c
  detect.c
  importers.c
  journal_read.c
  load.c
  load_rename.c
  native_json_read.c
  native_json_write.c
  plain_read.c
)
# The importers of other tools' files, import_NAME.c, found by their name: a new importer is its
# own file and one row of importer_list.h (docs/internals/EXTENDING.md). CONFIGURE_DEPENDS: the
# build looks again when a file is added.
file(GLOB TALLY_IMPORTER_SOURCES CONFIGURE_DEPENDS RELATIVE "${CMAKE_CURRENT_LIST_DIR}"
     "${CMAKE_CURRENT_LIST_DIR}/import_*.c")
list(APPEND TALLY_MODULE_SOURCES ${TALLY_IMPORTER_SOURCES})
list(REMOVE_DUPLICATES TALLY_MODULE_SOURCES)
