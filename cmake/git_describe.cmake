# Run at build time (cmake -P) by cli/CMakeLists.txt: writes OUTPUT, a header defining
# TALLY_GIT_DESCRIBE as `git describe --tags --always --dirty` of SOURCE_DIR when SOURCE_DIR is
# the top of a git checkout, and as "" otherwise (a release tarball, a Debian source package,
# an sdist, or a tree copied out of its checkout). The file is rewritten only when the
# description changes, so an unchanged checkout rebuilds nothing.
set(describe "")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse --show-toplevel
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE rc ERROR_QUIET)
  # A tree unpacked inside some other checkout must not take that checkout's description.
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(rc EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" describe --tags --always --dirty
                    OUTPUT_VARIABLE describe OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE rc ERROR_QUIET)
    if(NOT rc EQUAL 0)
      set(describe "")
    endif()
  endif()
endif()
file(CONFIGURE OUTPUT "${OUTPUT}" CONTENT
     "/* Generated at build time by cmake/git_describe.cmake; do not edit. */\n#define TALLY_GIT_DESCRIBE \"${describe}\"\n"
     @ONLY)
