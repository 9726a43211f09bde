# The results store on both back ends (tests/store_db.sh makes an empty store for each run):
# test_store (the library; registered with the unit tests, on SQLite) again on PostgreSQL, and
# the command's scenario (tests/store_cli.sh) on each. The PostgreSQL tests need the server that
# TALLY_TEST_PG_URL names (.ci/test starts one: tests/pg_cluster.sh); without it they are
# skipped on a workstation and fail in CI.
set(_store_db "${CMAKE_CURRENT_SOURCE_DIR}/store_db.sh")
set(_store_scratch "${CMAKE_CURRENT_BINARY_DIR}/store")
if(TARGET test_store)
  add_test(NAME test_store_pg
           COMMAND sh "${_store_db}" pg "${_store_scratch}" "$<TARGET_FILE:test_store>")
  set_tests_properties(test_store_pg PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
if(TARGET tally_cli)
  foreach(backend sqlite pg)
    add_test(NAME store_cli_${backend}
             COMMAND sh "${_store_db}" ${backend} "${_store_scratch}"
                     sh "${CMAKE_CURRENT_SOURCE_DIR}/store_cli.sh" "$<TARGET_FILE:tally_cli>"
                        "${_store_scratch}/cli-${backend}")
    set_tests_properties(store_cli_${backend} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()
endif()
