# Sources of libstat/store/ (see README.md here for what lives in this module).
set(TALLY_MODULE_SOURCES
  db_pg.c
  db_sqlite.c
  db_value.c
  record.c
  schema.c
  select.c
  store.c
  transaction.c
  url.c
)
