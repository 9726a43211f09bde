/* Run-time version of the library. */
#include "util/internal.h"

const char *tally_version(void)
{
    return TALLY_VERSION_STRING;
}

int tally_version_number(void)
{
    return TALLY_VERSION_NUMBER;
}
