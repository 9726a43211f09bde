/* The values bound to and read from SQL statements (store_internal.h, tally__db_value): apart
 * from store.c, which opens the backends, so that the backends and the schema that use them
 * never call back into it. */
#include <string.h>

#include "store/store_internal.h"

tally__db_value tally__db_int(long long i)
{
    tally__db_value v = {TALLY__DB_INT, i, NULL, 0};
    return v;
}

tally__db_value tally__db_text(const char *s)
{
    tally__db_value v = {s ? TALLY__DB_TEXT : TALLY__DB_NULL, 0, s, s ? strlen(s) : 0};
    return v;
}

tally__db_value tally__db_blob(const void *p, size_t len)
{
    tally__db_value v = {TALLY__DB_BLOB, 0, p, len};
    return v;
}
