# Numbers under a comma-decimal locale: number_locale_setup builds de_DE.UTF-8 into the build
# tree with localedef, test_number_locale runs every reader and writer under it (through LOCPATH)
# and number_locale_xlsx compares the two spreadsheets it wrote.
if(TARGET test_number_locale)
  set(TALLY_LOCALE_DIR "${CMAKE_CURRENT_BINARY_DIR}/locales")
  add_test(NAME number_locale_setup
           COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/make_locale.sh" "${TALLY_LOCALE_DIR}")
  set_tests_properties(number_locale_setup PROPERTIES FIXTURES_SETUP comma_locale)
  set_tests_properties(test_number_locale PROPERTIES FIXTURES_REQUIRED comma_locale
                       FIXTURES_SETUP number_locale_xlsx ENVIRONMENT "LOCPATH=${TALLY_LOCALE_DIR}")
  add_test(NAME number_locale_xlsx
           COMMAND /usr/bin/python3 "${CMAKE_CURRENT_SOURCE_DIR}/number_locale_xlsx_check.py"
                   "${CMAKE_CURRENT_BINARY_DIR}/number_locale_c.xlsx"
                   "${CMAKE_CURRENT_BINARY_DIR}/number_locale_de.xlsx")
  set_tests_properties(number_locale_xlsx PROPERTIES FIXTURES_REQUIRED number_locale_xlsx)
endif()
