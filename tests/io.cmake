# End-to-end checks of the command's outputs and inputs (tests/io_cli.sh).
if(TARGET tally_cli)
  add_test(NAME io_cli
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/io_cli.sh" "$<TARGET_FILE:tally_cli>"
                   "${CMAKE_CURRENT_SOURCE_DIR}/data" "${CMAKE_CURRENT_BINARY_DIR}/io-cli")
  set_tests_properties(io_cli PROPERTIES TIMEOUT 120)
  if(TALLY_SANITIZE)
    # One step runs the command under strace, where LeakSanitizer cannot work (it needs ptrace).
    set_tests_properties(io_cli PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
  endif()
endif()
