/* HdrHistogram's percentile distribution text (`.hgrm`, outputPercentileDistribution), alone or
 * as wrk2's "Detailed Percentile spectrum" (`wrk2 --latency`):
 *          Value   Percentile   TotalCount 1/(1-Percentile)
 *
 *          0.921     0.000000            1         1.00
 *          1.235     0.100000         1002         1.11
 *          5.344     1.000000        10000
 *   #[Mean    =        1.291, StdDeviation   =        0.551]
 *   #[Max     =        5.344, Total count    =        10000]
 *   #[Buckets =           27, SubBuckets     =         2048]
 * Each table is one histogram run: the requests a row adds to TotalCount sit at that row's Value
 * (rows of one value merged), so the run's resolution is the widest gap between consecutive row
 * values (a request counted at a row lies above the previous row's value). One benchmark
 * ("latency", or the load option's name), case "all"; wrk2 prints milliseconds, a bare .hgrm
 * says nothing of its unit (--unit). The footer's total must equal the last TotalCount. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

typedef struct table {
    tally__buckets b;
    double last_value;
    uint64_t last_total;
    unsigned long line; /* where the table's header is, 0 outside a table */
    size_t rows;
} table;

static int sniff(const char *data, size_t len)
{
    if (tally__sniff_has(data, len, "Detailed Percentile spectrum:", TALLY__SNIFF_MAX))
        return 95;
    if (tally__sniff_has(data, len, "Percentile TotalCount 1/(1-Percentile)", 4096) ||
        tally__sniff_has(data, len, "Percentile   TotalCount 1/(1-Percentile)", 4096))
        return 95;
    return 0;
}

static int is_header(const tally__line_import *t)
{
    return t->nf == 4 && tally__field_is(&t->f[0], "Value") &&
           tally__field_is(&t->f[1], "Percentile") && tally__field_is(&t->f[2], "TotalCount");
}

static int row(table *tb, const tally__line_import *t, const char *name)
{
    double v, p, total;
    unsigned long ln = t->lines.lineno;
    int rc = tally__field_number(&v, &t->f[0], name, ln, "value", "a value");
    if (rc == TALLY_OK)
        rc = tally__field_number(&p, &t->f[1], name, ln, "percentile", "a fraction from 0 to 1");
    if (rc == TALLY_OK)
        rc = tally__field_number(&total, &t->f[2], name, ln, "total count", "a whole count");
    if (rc != TALLY_OK)
        return rc;
    if (!(p >= 0 && p <= 1))
        return tally__error_at(TALLY_EPARSE, name, ln, t->f[1].col,
                               "expected a fraction from 0 to 1, found %.*s", (int)t->f[1].len,
                               t->f[1].s);
    if (!(total >= (double)tb->last_total && total <= 9007199254740992.0) ||
        total != floor(total))
        return tally__error_at(TALLY_EPARSE, name, ln, t->f[2].col,
                               "expected a whole count of at least the previous row's %llu, "
                               "found %.*s",
                               (unsigned long long)tb->last_total, (int)t->f[2].len, t->f[2].s);
    if (tb->rows > 0 && v < tb->last_value)
        return tally__error_at(TALLY_EPARSE, name, ln, t->f[0].col,
                               "values must not decrease: %.*s follows %.17g", (int)t->f[0].len,
                               t->f[0].s, tb->last_value);
    uint64_t add = (uint64_t)total - tb->last_total;
    double gap = tb->rows > 0 ? v - tb->last_value : 0;
    tb->rows++;
    tb->last_value = v;
    tb->last_total = (uint64_t)total;
    return add ? tally__buckets_add(&tb->b, &v, &add, 1, gap) : TALLY_OK;
}

/* "#[Max     =        5.344, Total count    =        10000]": the total must match. */
static int footer(table *tb, const tally__line_import *t, const char *name)
{
    const char *at = NULL;
    /* only the first TALLY__LINE_FIELDS of a longer line are stored */
    size_t stored = t->nf < TALLY__LINE_FIELDS ? t->nf : TALLY__LINE_FIELDS;
    for (size_t i = 0; i + 1 < stored; i++)
        if (tally__field_is(&t->f[i], "count"))
            at = t->f[i + 2 < stored ? i + 2 : i + 1].s;
    if (at == NULL)
        return TALLY_OK;
    double total = 0;
    const char *stop;
    if (tally__number_scan(&total, &stop, at, t->line + t->len, TALLY__NUMBER_TEXT) !=
            TALLY__NUMBER_OK ||
        total != (double)tb->last_total)
        return tally__error_at(TALLY_EMISMATCH, name, t->lines.lineno,
                               (unsigned long)(at - t->line) + 1,
                               "the footer's total count differs from the last row's %llu "
                               "(a table cut short?)",
                               (unsigned long long)tb->last_total);
    return TALLY_OK;
}

static int close_table(table *tb, tally_case *c, const char *name, double *resolution)
{
    if (tb->line == 0)
        return TALLY_OK;
    if (tb->b.n == 0)
        return tally__error_at(TALLY_ENODATA, name, tb->line, 1,
                               "a percentile table without a count");
    if (tb->b.resolution > *resolution)
        *resolution = tb->b.resolution;
    int rc = tally__buckets_flush(&tb->b, c);
    memset(tb, 0, sizeof *tb);
    return rc;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    tally__line_import t;
    int rc = tally__line_import_begin(&t, into, data, len, name, opts, "hdrhistogram");
    if (rc != TALLY_OK)
        return rc;
    int wrk2 = tally__sniff_has(data, len, "Detailed Percentile spectrum:", len);
    tally_benchmark *b;
    tally_case *c;
    rc = tally_resultset_benchmark_add(&b, t.rs, tally__import_name(opts, "latency"),
                                       wrk2 ? "ms" : "", TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK)
        rc = tally_benchmark_case_add(&c, b, "all");
    table tb;
    memset(&tb, 0, sizeof tb);
    double resolution = 0;
    size_t runs = 0;
    while (rc == TALLY_OK && (rc = tally__line_import_next(&t)) > 0) {
        rc = TALLY_OK;
        if (is_header(&t)) {
            if ((rc = close_table(&tb, c, name, &resolution)) == TALLY_OK) {
                tb.line = t.lines.lineno;
                runs++;
            }
        } else if (tb.line && t.nf >= 3 && t.nf <= 4 && t.f[0].s[0] != '#') {
            rc = row(&tb, &t, name);
        } else if (tb.line && t.nf > 0 && tally__starts_with(t.line, t.len, "#[Max")) {
            rc = footer(&tb, &t, name);
        } else if (tb.line && t.nf > 0 && t.f[0].s[0] != '#') {
            rc = close_table(&tb, c, name, &resolution);
        }
    }
    if (rc == TALLY_OK)
        rc = close_table(&tb, c, name, &resolution);
    tally__buckets_free(&tb.b);
    if (rc < 0)
        return rc;
    if (runs == 0)
        return tally__import_none_found(name, t.lines.lineno, "HdrHistogram percentile tables");
    char res[32], note[512];
    tally__number_format(res, resolution);
    snprintf(note, sizeof note, "%s: %zu percentile table%s as histogram runs; values exact to "
             "within %s (the widest gap between rows)", name, runs, runs == 1 ? "" : "s", res);
    return tally_results_note_add(into, note);
}

const tally__importer tally__importer_hgrm = {
    .name = "hgrm", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TAKES_UNIT,
};
