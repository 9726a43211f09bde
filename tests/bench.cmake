# Smoke run of the benchmark harness so it cannot rot: bench/run.py --quick generates tiny data
# and runs every contender once. It asserts nothing about speed, only that the harness runs to
# the end and prints its table of ratios (a ratio row and the peak-memory table).
# bench/ is added after tests/, so its target is not known yet here: test for its directory.
if(TALLY_BUILD_CLI AND EXISTS "${PROJECT_SOURCE_DIR}/bench/CMakeLists.txt" AND EXISTS /usr/bin/python3)
  add_test(NAME bench_smoke
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/bench/run.py --quick
                   --build ${PROJECT_BINARY_DIR})
  set_tests_properties(bench_smoke PROPERTIES
    LABELS bench
    TIMEOUT 300
    PASS_REGULAR_EXPRESSION "\\| summary of [^|]+ \\| [0-9.]+ \\| numpy .*\\| tally compare, 2 small files \\|")
endif()
