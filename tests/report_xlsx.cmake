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

# The diagnostics and environment sheets, written by the tally command from the diagnostics
# fixtures and read back with openpyxl (report_xlsx_trust_check.py recomputes the figures), in
# a directory of their own: test_report_xlsx looks for temporary files left in its own.
if(TARGET tally_cli)
  add_test(NAME report_xlsx_trust
           COMMAND sh -c "mkdir -p \"$3\" && \"$1\" compare \"$2/tests/data/diag/defects.csv\" -f xlsx -o \"$3/trust-diag.xlsx\" &&
                          \"$1\" compare \"$2/tests/data/diag/env-base.json\" \"$2/tests/data/diag/env-new.json\" -f xlsx -o \"$3/trust-env.xlsx\" 2>/dev/null &&
                          /usr/bin/python3 \"$2/tests/report_xlsx_trust_check.py\" \"$3/trust-diag.xlsx\" \"$3/trust-env.xlsx\" \"$2/tests/data/diag/defects.csv\""
                   sh "$<TARGET_FILE:tally_cli>" "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/xlsx-trust")
endif()
