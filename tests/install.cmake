# The installed package works for a consumer: find_package(tally) and pkg-config, from a prefix
# given only at install time (tests/install/check_install.sh).
# Sanitizer builds are left out: a consumer built without the sanitizer cannot load an
# instrumented library (the runtime must come first).
if(TALLY_SANITIZE)
  return()
endif()
add_test(NAME install_consumer
         COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/install/check_install.sh" "${PROJECT_BINARY_DIR}"
                 "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/install-check")
set_tests_properties(install_consumer PROPERTIES PASS_REGULAR_EXPRESSION "pkg-config: .* mean 3.0")
