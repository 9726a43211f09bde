/* netperf TCP_RR output, one or more runs concatenated, in any of its three forms:
 *  - the classic table (with or without banners, -P 0): the first line of numbers of a run
 *      16384  131072 1        1       10.00    35123.45
 *    has six fields (ten with -c/-C CPU columns) and the sixth is the transaction rate; the
 *    second line (remote socket sizes, two fields) is skipped;
 *  - omni CSV output (-- -o ...): a header line with a "Throughput" column, then a value line;
 *    with -P 0 there is no header, and a line "<number>,Trans/s" is taken;
 *  - omni key=value output (-- -k ...): THROUGHPUT=<number>.
 * Every run is a sample (transactions/s, higher is better) of case "all" of benchmark
 * "netperf-tcp_rr" (the runner's name, or the load option's; the output does not say how many
 * clients ran: name the case at load time, --case 4-clients). A run whose throughput units are not transactions
 * (a stream test) is an error. */
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static int sniff(const char *data, size_t len)
{
    if (tally__sniff_has(data, len, "TCP REQUEST/RESPONSE TEST", 4096))
        return 95;
    if (tally__sniff_has(data, len, "Trans.", 4096) && tally__sniff_has(data, len, "per sec", 4096))
        return 80;
    if (tally__sniff_has(data, len, "Throughput Units", 4096) ||
        tally__sniff_line_starts(data, len, "THROUGHPUT=", 4096) ||
        tally__sniff_has(data, len, ",Trans/s", 4096))
        return 70;
    return 0;
}

static int all_numbers(const tally__field *f, size_t nf)
{
    for (size_t i = 0; i < nf; i++) {
        double v;
        /* nan/inf count as numbers here so that the row is reported, not skipped */
        int rc = tally__parse_double(&v, f[i].s, f[i].len);
        if (rc != TALLY_OK && rc != TALLY_ENONFINITE)
            return 0;
    }
    return nf > 0;
}

static int number_at(double *v, const tally__lines *l, const char *s, size_t len,
                     unsigned long col)
{
    tally__field f = { s, len, col };
    return tally__field_number(v, &f, l->name, l->lineno, "transaction rate",
                               "a transaction rate");
}

/* The n-th comma-separated cell of a line (0-based), trimmed. */
static int csv_cell(const char *line, size_t len, size_t n, const char **cell, size_t *clen,
                    unsigned long *col)
{
    size_t start = 0, k = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || line[i] == ',') {
            if (k++ == n) {
                *clen = i - start;
                *cell = tally__trim(line + start, clen);
                *col = (unsigned long)(*cell - line) + 1;
                return 1;
            }
            start = i + 1;
        }
    }
    return 0;
}

static int units_ok(const tally__lines *l, const char *s, size_t len, unsigned long col)
{
    if (len >= 5 && memcmp(s, "Trans", 5) == 0)
        return TALLY_OK;
    return tally__error_at(TALLY_EMISMATCH, l->name, l->lineno, col,
                           "throughput in '%.*s', not transactions/s: not a TCP_RR result",
                           (int)len, s);
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    tally__line_import t;
    int rc = tally__line_import_begin(&t, into, data, len, name, opts, "netperf");
    if (rc != TALLY_OK)
        return rc;
    const char *bench = tally__import_name(opts, "netperf-tcp_rr");
    size_t samples = 0;
    long csv_column = -1, units_column = -1; /* from an omni CSV header */
    while ((rc = tally__line_import_next(&t)) > 0) {
        /* a table row has at most ten fields; only the first TALLY__LINE_FIELDS are stored */
        int numeric_row = t.nf <= TALLY__LINE_FIELDS && all_numbers(t.f, t.nf);
        double v;
        int have = 0;
        if (t.nf == 0)
            continue;
        if (csv_column >= 0) {
            const char *cell;
            size_t clen;
            unsigned long col;
            if (!csv_cell(t.line, t.len, (size_t)csv_column, &cell, &clen, &col))
                return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.len + 1,
                                       "expected a value in the Throughput column %ld",
                                       csv_column + 1);
            rc = number_at(&v, &t.lines, cell, clen, col);
            if (rc == TALLY_OK && units_column >= 0 &&
                csv_cell(t.line, t.len, (size_t)units_column, &cell, &clen, &col))
                rc = units_ok(&t.lines, cell, clen, col);
            if (rc != TALLY_OK)
                return rc;
            csv_column = -1;
            have = 1;
        } else if (memchr(t.line, ',', t.len) != NULL) {
            const char *cell;
            size_t clen;
            unsigned long col;
            for (size_t k = 0; csv_cell(t.line, t.len, k, &cell, &clen, &col); k++) {
                if (clen == 10 && memcmp(cell, "Throughput", 10) == 0)
                    csv_column = (long)k;
                if (clen == 16 && memcmp(cell, "Throughput Units", 16) == 0)
                    units_column = (long)k;
            }
            /* -P 0 CSV without a header: "35123.45,Trans/s" */
            if (csv_column < 0 && csv_cell(t.line, t.len, 0, &cell, &clen, &col) &&
                tally__parse_double(&v, cell, clen) == TALLY_OK &&
                csv_cell(t.line, t.len, 1, &cell, &clen, &col)) {
                rc = units_ok(&t.lines, cell, clen, col);
                if (rc != TALLY_OK)
                    return rc;
                have = 1;
            }
        } else if (tally__starts_with(t.line, t.len, "THROUGHPUT=")) {
            rc = number_at(&v, &t.lines, t.line + 11, t.len - 11, 12);
            if (rc != TALLY_OK)
                return rc;
            have = 1;
        } else if (tally__starts_with(t.line, t.len, "THROUGHPUT_UNITS=")) {
            rc = units_ok(&t.lines, t.line + 17, t.len - 17, 18);
            if (rc != TALLY_OK)
                return rc;
        } else if (numeric_row && (t.nf == 6 || t.nf == 10)) {
            rc = number_at(&v, &t.lines, t.f[5].s, t.f[5].len, t.f[5].col);
            if (rc != TALLY_OK)
                return rc;
            have = 1;
        } else if (numeric_row && t.nf >= 3 && t.nf != 6 && t.nf != 10) {
            return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[0].col,
                                   "a result row of %zu numbers: expected 6 (or 10 with CPU "
                                   "columns), as TCP_RR prints (truncated file?)", t.nf);
        }
        if (have) {
            rc = tally__import_sample(t.rs, bench, "trans/s", TALLY_HIGHER_IS_BETTER, "all", v);
            if (rc != TALLY_OK)
                return rc;
            samples++;
        }
    }
    if (rc < 0)
        return rc;
    if (csv_column >= 0)
        return tally__error_at(TALLY_EPARSE, name, t.lines.lineno + 1, 1,
                               "the file ends after the omni header line (truncated file?)");
    if (samples == 0)
        return tally__import_none_found(name, t.lines.lineno, "netperf TCP_RR result");
    /* The runner's preferred statistic for this workload (docs/runners.md). */
    return tally_benchmark_set_statistic(tally_resultset_benchmark_find(t.rs, bench),
                                         TALLY_STAT_AMEAN);
}

const tally__importer tally__importer_netperf = {
    .kind = TALLY_INPUT_NETPERF, .name = "netperf", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
};
