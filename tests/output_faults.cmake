# Output files under faults (tests/output_faults.sh): a full temporary or output directory (a
# small tmpfs in a private mount namespace; root only, skipped otherwise), too few file
# descriptors for the spreadsheet's temporary files, a stale temporary file of a killed write.
if(TARGET tally_cli)
  add_test(NAME output_faults
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/output_faults.sh" "$<TARGET_FILE:tally_cli>"
                   "${CMAKE_CURRENT_BINARY_DIR}/output-faults")
  set_tests_properties(output_faults PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
  if(TALLY_SANITIZE)
    # One step runs the command with 24 file descriptors, too few for LeakSanitizer at exit.
    set_tests_properties(output_faults PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
  endif()
endif()
