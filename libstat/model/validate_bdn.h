/* BenchmarkDotNet's Result rows rebuilt from a case's samples (validate_bdn.c, called by
 * validate.c): what its Statistics, kept by import_bdn.c as reported.bdn_*, describe. */
#ifndef TALLY_VALIDATE_BDN_H
#define TALLY_VALIDATE_BDN_H

#include "tally.h"

/* The rule, named in every entry's note (docs/importers.md, "BenchmarkDotNet"). */
#define TALLY__BDN_RULE                                                                      \
    "BenchmarkDotNet's rule: actual iterations less the median overhead, upper outliers "   \
    "(above Q3 + 1.5 IQR) removed"

/* The case keys import_bdn.c sets: the overhead per operation subtracted (ns) and the number of
 * actual iterations the file's Result rows leave out. */
#define TALLY__BDN_OVERHEAD "benchmarkdotnet.overhead"
#define TALLY__BDN_OUTLIERS "benchmarkdotnet.upper_outliers"

/* The Result rows of case `c` into *out (n of them, to free with tally__free_mem), or *out
 * NULL and *why_not (static) saying why they cannot be rebuilt. Fails only for lack of
 * memory. */
int tally__bdn_result_rows(double **out, size_t *n, const char **why_not, const tally_case *c);

#endif /* TALLY_VALIDATE_BDN_H */
