# Golden tests of the tally command, grouped by command: tests/cli/cases/COMMAND/NAME.args holds
# one argument per line (the command first); NAME.stdout, NAME.stderr and NAME.status hold what
# the command must print and return, and a missing one means empty output and exit status 0 (as
# zstd's cli-tests do). NAME.env, when present, holds VAR=value lines for the environment;
# NAME.stdin, when present, is the command's standard input. Cases of no command (--help,
# --version, an unknown command) live in cases/tally/. The ctest name is cli_NAME, so a NAME is
# unique across the folders.
if(TARGET tally_cli)
  file(GLOB TALLY_CLI_CASES CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/cli/cases/*/*.args")
  foreach(case ${TALLY_CLI_CASES})
    get_filename_component(name ${case} NAME_WE)
    get_filename_component(dir ${case} DIRECTORY)
    add_test(NAME cli_${name}
             COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/cli/run_case.sh" "$<TARGET_FILE:tally_cli>"
                     "${PROJECT_SOURCE_DIR}" "${dir}/${name}"
                     "${CMAKE_CURRENT_BINARY_DIR}/cli-out")
    set_tests_properties(cli_${name} PROPERTIES LABELS cli)
  endforeach()
  add_test(NAME cli_reference_hackbench
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/cli/check_reference.sh" "$<TARGET_FILE:tally_cli>"
                   "${PROJECT_SOURCE_DIR}")
  add_test(NAME cli_help_matches_manual
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/cli/check_manual.sh" "$<TARGET_FILE:tally_cli>"
                   "${PROJECT_SOURCE_DIR}/docs/tally.1.md")
endif()
# The data-safety workflow of tally run (kill, summarise the journal, refuse reruns and
# overwrites, resume, finish, merge, append), step by step against tests/cli/workflow/.
if(TARGET tally_cli AND TALLY_BUILD_RUNNER)
  add_test(NAME cli_workflow_safety
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/cli/workflow.sh" "$<TARGET_FILE:tally_cli>"
                   "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/cli-workflow")
  set_tests_properties(cli_workflow_safety PROPERTIES LABELS cli)
endif()

# `tally check` reads this machine: its findings vary, but it must always print a finding per
# line and exit 0 (nothing to change) or 1 (warnings), never 2.
if(TARGET tally_cli AND TALLY_BUILD_RUNNER)
  add_test(NAME cli_check_runs
           COMMAND sh -c "\"$1\" check >/dev/null; rc=$?; [ $rc -eq 0 ] || [ $rc -eq 1 ]" sh
                   "$<TARGET_FILE:tally_cli>")
endif()
