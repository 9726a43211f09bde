# The Python package's pytest suite, run against the package staged in the build tree
# (bindings/python/CMakeLists.txt) and the freshly built libtally.
if(TALLY_BUILD_PYTHON AND EXISTS "${PROJECT_SOURCE_DIR}/bindings/python/CMakeLists.txt")
  set(TALLY_PYTHON_EXECUTABLE "/usr/bin/python3" CACHE FILEPATH
      "Python interpreter the package is generated, installed and tested for")
  add_test(NAME python
           COMMAND "${TALLY_PYTHON_EXECUTABLE}" -m pytest -q -p no:cacheprovider tests/python
           WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  set_tests_properties(python PROPERTIES
    ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/bindings/python;TALLY_LIBRARY=$<TARGET_FILE:tally>;TALLY_GENERATED_INCLUDE=${TALLY_GENERATED_INCLUDE};TALLY_BINARY_DIR=${PROJECT_BINARY_DIR};TALLY_CMAKE=${CMAKE_COMMAND};PYTHONDONTWRITEBYTECODE=1"
    TIMEOUT 600)
endif()
