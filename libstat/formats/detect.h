/* Choosing the importer of a file from its content (detect.c). */
#ifndef TALLY_FORMATS_DETECT_H
#define TALLY_FORMATS_DETECT_H

#include <stddef.h>

#include "formats/importer.h"

/* The importer for data[0..len) (a BOM already skipped), or an error naming `name`: empty,
 * binary, mixed formats, or nothing plausible. */
int tally__detect(const tally__importer **out, const char *data, size_t len, const char *name);

#endif /* TALLY_FORMATS_DETECT_H */
