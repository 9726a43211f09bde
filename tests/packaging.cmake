# Release checks (docs/releasing.md): one version number everywhere, the stable and experimental
# API tiers and their symbol versions. The wheel, the Debian packages and the ABI check are the
# packaging stage of .ci/test (they build the project again and take minutes).
if(TARGET tally_cli)
  set(_tally_version_args "${PROJECT_VERSION}" "$<TARGET_FILE:tally_cli>" "${PROJECT_SOURCE_DIR}"
      "${PROJECT_BINARY_DIR}/tally.pc")
  if(TALLY_BUILD_PYTHON AND EXISTS "${PROJECT_SOURCE_DIR}/bindings/python/CMakeLists.txt")
    list(APPEND _tally_version_args "${TALLY_PYTHON_EXECUTABLE}"
         "${PROJECT_BINARY_DIR}/bindings/python" "$<TARGET_FILE:tally>")
  endif()
  add_test(NAME versions_agree
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_versions.sh" ${_tally_version_args})
endif()
# The compiler gets no sanitizer flags here: the consumer links the library like a user's program.
if(NOT TALLY_SANITIZE)
  add_test(NAME api_tiers
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_api_tiers.sh" "${CMAKE_C_COMPILER}"
                   "${PROJECT_SOURCE_DIR}" "${TALLY_GENERATED_INCLUDE}" "$<TARGET_FILE_DIR:tally>"
                   "${TALLY_SOVERSION}" "${CMAKE_CURRENT_BINARY_DIR}/api_tiers")
endif()
