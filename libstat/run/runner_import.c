/* The external-tool workloads read their tools' output with the importers of the same formats
 * (import_*.c), so each output format has one parser. */
#include <string.h>

#include "formats/importer.h"
#include "run/runner_internal.h"

int tally__parse_with_importer(double *value, const tally__importer *imp, const char *what,
                               const tally__run_output *o)
{
    tally_results *res = NULL;
    int rc = tally_results_new(&res);
    if (rc != TALLY_OK)
        return rc;
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    lo.label = "run";
    rc = imp->parse(res, o->out, o->out_len, what, &lo);
    const double *last = NULL;
    for (size_t s = 0; rc == TALLY_OK && s < tally_results_count(res); s++) {
        const tally_resultset *rs = tally_results_at(res, s);
        for (size_t b = 0; b < tally_resultset_benchmark_count(rs); b++) {
            const tally_benchmark *bm = tally_resultset_benchmark_at(rs, b);
            for (size_t c = 0; c < tally_benchmark_case_count(bm); c++) {
                const tally_case *tc = tally_benchmark_case_at(bm, c);
                size_t n = tally_case_sample_count(tc);
                if (n > 0)
                    last = &tally_case_samples(tc)[n - 1];
            }
        }
    }
    if (rc == TALLY_OK && last == NULL)
        rc = tally__error(TALLY_EPARSE, "%s: no result in the output", what);
    if (rc == TALLY_OK)
        *value = *last;
    tally_results_free(res);
    return rc;
}
