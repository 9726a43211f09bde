# Expected strings for test_number_conversion from /usr/bin/python3 (CPython's repr and float(),
# independent of glibc and of fast_float/Dragonbox), generated into the build tree.
if(TARGET test_number_conversion)
  add_test(NAME number_expected
           COMMAND sh -c "/usr/bin/python3 '${CMAKE_CURRENT_SOURCE_DIR}/number_repr_expected.py' number_repr.txt 1000000 14 && /usr/bin/python3 '${CMAKE_CURRENT_SOURCE_DIR}/number_hard_cases.py' number_hard.txt && echo '1 passed, 0 failed'"
           WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  set_tests_properties(number_expected PROPERTIES FIXTURES_SETUP number_expected)
  set_tests_properties(test_number_conversion PROPERTIES FIXTURES_REQUIRED number_expected)
endif()
