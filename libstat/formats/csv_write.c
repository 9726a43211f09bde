/* Writing result sets as long-form CSV (docs/formats.md, "CSV"): one row per sample,
 * `benchmark,case,config,value,unit,better`, the shape csv_read.c reads back into the same
 * samples. Numbers are the shortest text that reads back as the same double. */
#include <string.h>

#include "util/internal.h"

/* An RFC 4180 field: quoted when it holds a comma, a quote or a line break, a quote doubled.
 * No spreadsheet-formula guard here (the report's CSV has one): this file is data for tally and
 * its peers, and an apostrophe before a name like "-O2" would change the name read back. */
static void field(tally__buf *b, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        tally__buf_puts(b, s);
        return;
    }
    tally__buf_puts(b, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            tally__buf_puts(b, "\""); /* doubled */
        tally__buf_append(b, p, 1);
    }
    tally__buf_puts(b, "\"");
}

int tally_results_to_csv(char **out, size_t *len, const tally_results *r)
{
    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (out == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_results_to_csv: NULL argument");
    tally__buf b = TALLY__BUF_INIT;
    tally__buf_puts(&b, "benchmark,case,config,value,unit,better\n");
    for (size_t i = 0; i < tally_results_count(r); i++) {
        const tally_resultset *rs = tally_results_at(r, i);
        for (size_t j = 0; j < tally_resultset_benchmark_count(rs); j++) {
            const tally_benchmark *bm = tally_resultset_benchmark_at(rs, j);
            const char *better = tally_direction_name(tally_benchmark_direction(bm));
            for (size_t k = 0; k < tally_benchmark_case_count(bm); k++) {
                const tally_case *c = tally_benchmark_case_at(bm, k);
                const double *x = tally_case_samples(c);
                for (size_t s = 0; s < tally_case_sample_count(c); s++) {
                    field(&b, tally_benchmark_name(bm));
                    tally__buf_puts(&b, ",");
                    field(&b, tally_case_name(c));
                    tally__buf_puts(&b, ",");
                    field(&b, tally_resultset_label(rs));
                    tally__buf_puts(&b, ",");
                    tally__buf_double(&b, x[s]);
                    tally__buf_puts(&b, ",");
                    field(&b, tally_benchmark_unit(bm));
                    tally__buf_printf(&b, ",%s\n", better);
                }
            }
        }
    }
    return tally__buf_detach(out, len, &b);
}
