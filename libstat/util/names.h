/* Enum <-> name tables: the one lookup every tally_*_name() / tally_*_from_name() pair uses, with
 * one case rule and one message for an unknown name. */
#ifndef TALLY_NAMES_H
#define TALLY_NAMES_H

#include <stddef.h>

/* A row of a table. A value's first row holds its canonical name (what tally_*_name returns and
 * messages list); later rows with the same value are accepted spellings ("fdr" for "bh"). */
typedef struct tally__name {
    const char *name;
    int value;
} tally__name;

/* Row i of a table: its name, with its value in *value. Tables that are not arrays of
 * tally__name (the workload and importer registries) bring their own. */
typedef const char *(*tally__name_row_fn)(const void *table, size_t i, int *value);

/* The row function of a tally__name array. */
const char *tally__name_array_row(const void *table, size_t i, int *value);

/* Whether two names are the same: ASCII letters compare without case, '_' and '-' are alike,
 * nothing else folds. Independent of the locale (no tolower/strcasecmp). */
int tally__name_equal(const char *a, const char *b);

/* The canonical name of `value`, or NULL when the table has none. */
const char *tally__name_of(const void *table, size_t count, tally__name_row_fn row, int value);

/* The value named `name` into *out. Otherwise TALLY_EINVAL, recorded as
 * "unknown WHAT 'NAME' (a, b, c)" listing the canonical names in table order (a NULL `name`
 * reads "(null)"); a NULL `out` is TALLY_EINVAL too. */
int tally__name_lookup(int *out, const void *table, size_t count, tally__name_row_fn row,
                       const char *what, const char *name);

/* Define the public pair `const char *TYPE_name(TYPE)` and
 * `int TYPE_from_name(TYPE *out, const char *name)` over a table of COUNT rows read by ROW;
 * WHAT names the kind of value in messages ("statistic", "test", ...). */
#define TALLY__NAME_FUNCTIONS_ROWS(TYPE, TABLE, COUNT, ROW, WHAT)                              \
    const char *TYPE##_name(TYPE value)                                                       \
    {                                                                                         \
        return tally__name_of(TABLE, COUNT, ROW, (int)value);                                 \
    }                                                                                         \
    int TYPE##_from_name(TYPE *out, const char *name)                                         \
    {                                                                                         \
        int v = 0;                                                                            \
        int rc = tally__name_lookup(out ? &v : NULL, TABLE, COUNT, ROW, WHAT, name);          \
        if (rc == TALLY_OK)                                                                   \
            *out = (TYPE)v;                                                                   \
        return rc;                                                                            \
    }

/* The same over an array of tally__name. */
#define TALLY__NAME_FUNCTIONS(TYPE, TABLE, WHAT)                                              \
    TALLY__NAME_FUNCTIONS_ROWS(TYPE, TABLE, TALLY__COUNT(TABLE), tally__name_array_row, WHAT)

#endif /* TALLY_NAMES_H */
