# The live external-tool test exits 77 when none of the tools is installed: a skip, not a pass.
set_tests_properties(test_runner_live PROPERTIES SKIP_RETURN_CODE 77)

# `tally run` through a driver of its own (cli/cmd_run.c linked alone), so the command is
# tested independently of the dispatcher.
if(TALLY_BUILD_CLI)
  add_executable(runner_cli_driver "${CMAKE_CURRENT_SOURCE_DIR}/runner_cli_driver.c"
                 "${PROJECT_SOURCE_DIR}/cli/cmd_run.c" "${PROJECT_SOURCE_DIR}/cli/common.c")
  target_include_directories(runner_cli_driver PRIVATE "${PROJECT_SOURCE_DIR}/cli")
  target_compile_definitions(runner_cli_driver PRIVATE _POSIX_C_SOURCE=200809L TALLY_EXPERIMENTAL_API)
  target_link_libraries(runner_cli_driver PRIVATE tally)
  add_test(NAME runner_cli
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/runner_cli.sh"
                   "$<TARGET_FILE:runner_cli_driver>" "${CMAKE_CURRENT_BINARY_DIR}")
endif()
set_tests_properties(test_runner_netperf PROPERTIES SKIP_RETURN_CODE 77)

# Adaptive runs with the exec workload on seeded synthetic noise (tests/adaptive_noise.sh).
if(TALLY_BUILD_CLI)
  add_test(NAME runner_adaptive_cli
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/runner_adaptive_cli.sh"
                   "$<TARGET_FILE:runner_cli_driver>" "${CMAKE_CURRENT_BINARY_DIR}"
                   "${CMAKE_CURRENT_SOURCE_DIR}")
endif()
