# tally history --git-order and git bisect run with tally compare --bisect, on a throwaway
# repository (tests/history_git.sh). Needs git.
find_program(TALLY_GIT git)
if(TARGET tally_cli AND TALLY_GIT)
  add_test(NAME history_git
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/history_git.sh" "$<TARGET_FILE:tally_cli>"
                   "${CMAKE_CURRENT_BINARY_DIR}/history-git")
  set_tests_properties(history_git PROPERTIES LABELS cli)
endif()
