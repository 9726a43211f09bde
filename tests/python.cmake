# The Python package's pytest suite, run against the package staged in the build tree
# (bindings/python/CMakeLists.txt) and the freshly built libtally.
if(TALLY_BUILD_PYTHON AND EXISTS "${PROJECT_SOURCE_DIR}/bindings/python/CMakeLists.txt")
  set(_tally_py_env
      "PYTHONPATH=${PROJECT_BINARY_DIR}/bindings/python"
      "TALLY_LIBRARY=$<TARGET_FILE:tally>"
      "TALLY_GENERATED_INCLUDE=${TALLY_GENERATED_INCLUDE}"
      "TALLY_BINARY_DIR=${PROJECT_BINARY_DIR}"
      "TALLY_CMAKE=${CMAKE_COMMAND}"
      "PYTHONDONTWRITEBYTECODE=1")
  if(TALLY_SANITIZE MATCHES "address")
    # An ASan-instrumented libtally loads into an uninstrumented interpreter only when the
    # runtime is preloaded; the interpreter's own allocations are not ours to leak-check, and
    # resident-memory checks mean nothing under ASan's quarantine (TALLY_SANITIZED skips them).
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE _tally_asan OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND _tally_py_env "LD_PRELOAD=${_tally_asan}" "ASAN_OPTIONS=detect_leaks=0"
         "TALLY_SANITIZED=1")
  endif()
  add_test(NAME python
           COMMAND "${TALLY_PYTHON_EXECUTABLE}" -m pytest -q -p no:cacheprovider tests/python
           WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  set_tests_properties(python PROPERTIES ENVIRONMENT "${_tally_py_env}" TIMEOUT 600)
endif()

# tally.dask at the full size of its acceptance test: 10^7 samples over 10^3 cases in 200 files
# on a LocalCluster of 2 worker processes (minutes on 2 cores; the regular `python` test runs the
# same checks on fewer samples). Labelled `large` and skipped unless TALLY_LARGE_TESTS=1:
#   TALLY_LARGE_TESTS=1 ctest -L large
if(TALLY_BUILD_PYTHON AND EXISTS "${PROJECT_SOURCE_DIR}/bindings/python/CMakeLists.txt")
  add_test(NAME python_dask_large
           COMMAND sh -c "[ \"$TALLY_LARGE_TESTS\" = 1 ] || exit 77; exec \"$0\" -m pytest -q -p no:cacheprovider tests/python/test_dask.py"
                   "${TALLY_PYTHON_EXECUTABLE}"
           WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  set_tests_properties(python_dask_large PROPERTIES
                       ENVIRONMENT "${_tally_py_env};TALLY_DASK_SAMPLES=10000000"
                       LABELS large TIMEOUT 1800 SKIP_RETURN_CODE 77)
endif()
