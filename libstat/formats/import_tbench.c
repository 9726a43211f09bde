/* dbench's tbench client output. The per-second progress lines are skipped; the closing line
 *   Throughput 442.133 MB/sec  2 clients  2 procs  max_latency=1.780 ms
 * of each run is a sample (MB/s, higher is better) of the case "<N>-clients" of benchmark
 * "tbench" (or the load option's benchmark name). Several runs may be concatenated. */
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static int sniff_window(const char *data, size_t len)
{
    if (!tally__sniff_line_starts(data, len, "Throughput ", len))
        return 0;
    return tally__sniff_has(data, len, " clients", len) && tally__sniff_has(data, len, "MB/sec", len);
}

static int sniff(const char *data, size_t len)
{
    /* The result line comes last, after the operation table: look at both ends. */
    const size_t window = 65536;
    if (len <= window)
        return sniff_window(data, len) ? 90 : 0;
    if (sniff_window(data, window))
        return 90;
    /* Start the tail window at a line start so that line tests stay exact. */
    const char *tail = data + len - window;
    const char *nl = memchr(tail, '\n', window);
    return nl && sniff_window(nl + 1, (size_t)(data + len - nl - 1)) ? 90 : 0;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    tally__line_import t;
    int rc = tally__line_import_begin(&t, into, data, len, name, opts, "tbench");
    if (rc != TALLY_OK)
        return rc;
    size_t samples = 0;
    while ((rc = tally__line_import_next(&t)) > 0) {
        if (t.nf < 1 || !tally__field_is(&t.f[0], "Throughput"))
            continue;
        if (t.nf < 5 || !tally__field_is(&t.f[2], "MB/sec") || !tally__field_is(&t.f[4], "clients"))
            return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.nf > 1 ? t.f[1].col : t.f[0].col,
                                   "expected 'Throughput <MB/s> MB/sec <N> clients' "
                                   "(truncated file?)");
        double v, clients;
        rc = tally__field_number(&v, &t.f[1], name, t.lines.lineno, "throughput", "a throughput");
        if (rc != TALLY_OK)
            return rc;
        if (tally__parse_double(&clients, t.f[3].s, t.f[3].len) != TALLY_OK)
            return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[3].col,
                                   "expected the number of clients, found '%.*s'", (int)t.f[3].len,
                                   t.f[3].s);
        char casename[64];
        rc = tally__field_case_name(casename, sizeof casename, &t.f[3], "-clients",
                                    "number of clients", name, t.lines.lineno);
        if (rc == TALLY_OK)
            rc = tally__import_sample(t.rs, tally__import_name(opts, "tbench"), "MB/s",
                                      TALLY_HIGHER_IS_BETTER, casename, v);
        if (rc != TALLY_OK)
            return rc;
        samples++;
    }
    rc = tally__import_end(rc, samples, &t.lines, "tbench 'Throughput' lines");
    if (rc != TALLY_OK)
        return rc;
    /* The runner's preferred statistic for this workload (docs/runners.md). */
    return tally_benchmark_set_statistic(tally_resultset_benchmark_find(t.rs, tally__import_name(opts, "tbench")),
                                         TALLY_STAT_AMEAN);
}

const tally__importer tally__importer_tbench = {
    .kind = TALLY_INPUT_TBENCH, .name = "tbench", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
};
