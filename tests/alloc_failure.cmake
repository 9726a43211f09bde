# test_alloc_failure needs a library built with -DTALLY_FAULT_INJECTION=ON; elsewhere it exits
# with 77, which CTest reports as skipped. .ci/test runs it in build-fault/ under ASan and LSan.
if(TARGET test_alloc_failure)
  set_tests_properties(test_alloc_failure PROPERTIES SKIP_RETURN_CODE 77 LABELS alloc)
endif()
