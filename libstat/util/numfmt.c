/* Number formatting that round-trips. */
#include <stdio.h>
#include <stdlib.h>

#include "util/internal.h"

void tally__format_double(char *out, double x)
{
    /* The shortest %.Ng that reads back to the same double: at most 17 digits are needed. */
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(out, 32, "%.*g", precision, x);
        if (strtod(out, NULL) == x)
            return;
    }
}
