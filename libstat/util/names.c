/* Enum <-> name tables (names.h). */
#include "util/names.h"
#include "util/internal.h"

static int fold(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 'a';
    return c == '_' ? '-' : c;
}

int tally__name_equal(const char *a, const char *b)
{
    for (;; a++, b++) {
        if (fold(*a) != fold(*b))
            return 0;
        if (*a == '\0')
            return 1;
    }
}

const char *tally__name_array_row(const void *table, size_t i, int *value)
{
    const tally__name *row = (const tally__name *)table + i;
    *value = row->value;
    return row->name;
}

const char *tally__name_of(const void *table, size_t count, tally__name_row_fn row, int value)
{
    for (size_t i = 0; i < count; i++) {
        int v;
        const char *name = row(table, i, &v);
        if (v == value)
            return name;
    }
    return NULL;
}

/* A row names its value canonically when no earlier row has the same value. */
static int canonical(const void *table, size_t i, tally__name_row_fn row)
{
    int v, w;
    row(table, i, &v);
    for (size_t k = 0; k < i; k++) {
        row(table, k, &w);
        if (w == v)
            return 0;
    }
    return 1;
}

int tally__name_lookup(int *out, const void *table, size_t count, tally__name_row_fn row,
                       const char *what, const char *name)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "%s from a name: NULL output pointer", what);
    for (size_t i = 0; name != NULL && i < count; i++) {
        int v;
        if (tally__name_equal(row(table, i, &v), name)) {
            *out = v;
            return TALLY_OK;
        }
    }
    tally__buf known = TALLY__BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        int v;
        const char *n = row(table, i, &v);
        if (canonical(table, i, row))
            tally__buf_printf(&known, "%s%s", known.len ? ", " : "", n);
    }
    int rc = known.failed ? tally__oom()
                          : tally__error(TALLY_EINVAL, "unknown %s '%s' (%s)", what,
                                         name ? name : "(null)", known.data ? known.data : "");
    tally__buf_dispose(&known);
    return rc;
}
