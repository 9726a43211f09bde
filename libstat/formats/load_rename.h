/* Renaming at load time (load_rename.c): the load options benchmark, case_name, case_format,
 * unit and direction applied to a freshly parsed list. */
#ifndef TALLY_FORMATS_LOAD_RENAME_H
#define TALLY_FORMATS_LOAD_RENAME_H

#include "formats/importer.h"
#include "tally.h"

/* Replace *fresh (parsed from `file` by `imp`) by a renamed copy when the options ask for it;
 * on error *fresh is unchanged and the error names `file`. */
int tally__load_rename(tally_results **fresh, const tally__importer *imp, const char *file,
                       const tally_load_options *o);

#endif /* TALLY_FORMATS_LOAD_RENAME_H */
