/* STREAM output (stream.c 5.x), one or more runs concatenated. Of each run's table
 *   Function    Best Rate MB/s  Avg time     Min time     Max time
 *   Copy:           29504.7     0.005493     0.005423     0.005606
 * the best rate of Copy, Scale, Add and Triad is a sample (MB/s, higher is better) of the case
 * of that name, benchmark "stream" (or the load option's name), preferred statistic HMean as in
 * the posted tables. A run that printed "Failed Validation" is an error: its rates are not
 * trustworthy. */
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static const char *const kernels[] = {"Copy:", "Scale:", "Add:", "Triad:"};

static int sniff(const char *data, size_t len)
{
    if (tally__sniff_line_starts(data, len, "Function    Best Rate MB/s", 16384))
        return 95;
    if (tally__sniff_has(data, len, "STREAM version", 1024) &&
        tally__sniff_line_starts(data, len, "Triad:", 16384))
        return 80;
    return 0;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    tally__line_import t;
    int rc = tally__line_import_begin(&t, into, data, len, name, opts, "stream");
    if (rc != TALLY_OK)
        return rc;
    const char *bench = tally__import_name(opts, "stream");
    tally_benchmark *b;
    rc = tally_resultset_benchmark_add(&b, t.rs, bench, "MB/s", TALLY_HIGHER_IS_BETTER);
    if (rc == TALLY_OK)
        rc = tally_benchmark_set_statistic(b, TALLY_STAT_HMEAN);
    if (rc != TALLY_OK)
        return rc;
    int in_table = 0;
    size_t samples = 0;
    while ((rc = tally__line_import_next(&t)) > 0) {
        if (t.nf >= 2 && tally__field_is(&t.f[0], "Function") && tally__field_is(&t.f[1], "Best")) {
            in_table = 1;
            continue;
        }
        if (t.nf >= 2 && tally__field_is(&t.f[0], "Failed") && tally__field_is(&t.f[1], "Validation"))
            return tally__error_at(TALLY_EFORMAT, name, t.lines.lineno, t.f[0].col,
                                   "STREAM reported a failed validation; its rates are not valid");
        size_t k = 0;
        while (t.nf > 0 && k < 4 && !tally__field_is(&t.f[0], kernels[k]))
            k++;
        if (!in_table || k == 4) {
            in_table = in_table && t.nf > 0 && t.line[0] != '-';
            continue;
        }
        if (t.nf < 2)
            return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[0].col + t.f[0].len,
                                   "expected the best rate after '%s' (truncated file?)",
                                   kernels[k]);
        double v;
        rc = tally__field_number(&v, &t.f[1], name, t.lines.lineno, "rate", "a rate in MB/s");
        if (rc != TALLY_OK)
            return rc;
        char casename[8];
        size_t cl = strlen(kernels[k]) - 1;
        memcpy(casename, kernels[k], cl);
        casename[cl] = '\0';
        rc = tally__import_sample(t.rs, bench, "MB/s", TALLY_HIGHER_IS_BETTER, casename, v);
        if (rc != TALLY_OK)
            return rc;
        samples++;
    }
    return tally__import_end(rc, samples, &t.lines,
                             "STREAM result table (Function    Best Rate MB/s ...)");
}

const tally__importer tally__importer_stream = {
    .kind = TALLY_INPUT_STREAM, .name = "stream", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
};
