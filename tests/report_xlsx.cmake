# The spreadsheet report read back cell by cell with openpyxl: test_report_xlsx writes
# report.xlsx and report_sweep.xlsx into the build's test directory, report_xlsx_check.py
# checks them.
if(TARGET test_report_xlsx)
  set_tests_properties(test_report_xlsx PROPERTIES FIXTURES_SETUP report_xlsx)
  add_test(NAME report_xlsx_readback
           COMMAND /usr/bin/python3 "${CMAKE_CURRENT_SOURCE_DIR}/report_xlsx_check.py"
                   "${CMAKE_CURRENT_BINARY_DIR}/report.xlsx"
                   "${CMAKE_CURRENT_BINARY_DIR}/report_sweep.xlsx")
  set_tests_properties(report_xlsx_readback PROPERTIES FIXTURES_REQUIRED report_xlsx)
endif()
