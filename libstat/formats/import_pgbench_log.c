/* pgbench -l per-transaction logs (PostgreSQL 15; docs/importers.md, "pgbench"): a line per
 * transaction, "client_id transaction_no time script_no time_epoch time_us [schedule_lag]
 * [retries]", `time` the transaction's latency in microseconds, or "skipped" (--rate with
 * --latency-limit) or "failed". Each latency is a sample, in log order, of benchmark
 * pgbench-transaction (us, lower is better), case "all"; skipped and failed transactions are
 * dropped and counted in a note. Aggregated logs (--aggregate-interval) are refused. */
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

/* 1 when f is a whole number (digits only). */
static int whole(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static int log_line(const char *s, size_t n)
{
    tally__field f[9];
    size_t nf = tally__split_fields(f, 9, s, n);
    if (nf < 6 || nf > 8)
        return 0;
    for (size_t i = 0; i < nf && i < 9; i++)
        if (!whole(f[i].s, f[i].len) &&
            !(i == 2 && (tally__field_is(&f[i], "skipped") || tally__field_is(&f[i], "failed"))))
            return 0;
    return 1;
}

static int sniff(const char *data, size_t len)
{
    size_t end = len < 4096 ? len : 4096, lines = 0;
    for (const char *p = data; p < data + end;) {
        const char *nl = memchr(p, '\n', (size_t)(data + end - p));
        if (nl == NULL && lines > 0)
            break; /* a cut last line */
        size_t n = (size_t)((nl ? nl : data + end) - p);
        if (!log_line(p, n))
            return 0;
        lines++;
        p = nl ? nl + 1 : data + end;
    }
    return lines > 0 ? 80 : 0;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    tally__line_import t;
    int rc = tally__line_import_begin(&t, into, data, len, name, opts, "pgbench");
    if (rc != TALLY_OK)
        return rc;
    tally_benchmark *b = NULL;
    tally_case *c = NULL;
    rc = tally__import_benchmark(&b, t.rs, tally__import_name(opts, "pgbench-transaction"), "us",
                                 TALLY_LOWER_IS_BETTER);
    if (rc == TALLY_OK)
        rc = tally__import_case(&c, b, "all");
    if (rc != TALLY_OK)
        return rc;
    size_t samples = 0, skipped = 0, failed = 0;
    while ((rc = tally__line_import_next(&t)) > 0) {
        if (t.nf == 0)
            continue;
        if (t.nf < 6 || t.nf > 8)
            return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, 1,
                                   "expected a pgbench -l line 'client_id transaction_no time "
                                   "script_no time_epoch time_us [schedule_lag] [retries]' "
                                   "(aggregated logs, --aggregate-interval, are not read)");
        if (tally__field_is(&t.f[2], "skipped")) {
            skipped++;
            continue;
        }
        if (tally__field_is(&t.f[2], "failed")) {
            failed++;
            continue;
        }
        double v;
        rc = tally__field_number(&v, &t.f[2], name, t.lines.lineno, "latency",
                                 "a latency in microseconds, 'skipped' or 'failed'");
        if (rc == TALLY_OK)
            rc = tally_case_append(c, &v, 1);
        if (rc != TALLY_OK)
            return rc;
        samples++;
    }
    rc = tally__import_end(rc, samples, &t.lines, "pgbench -l transactions with a latency");
    if (rc == TALLY_OK && (skipped || failed)) {
        tally__buf note = TALLY__BUF_INIT;
        tally__buf_printf(&note, "%s: %zu pgbench transactions skipped and %zu failed have no "
                                 "latency: left out of the %zu samples",
                          name, skipped, failed, samples);
        rc = note.failed ? tally__oom() : tally_results_note_add(into, note.data);
        tally__buf_dispose(&note);
    }
    return rc;
}

const tally__importer tally__importer_pgbench_log = {
    .name = "pgbench-log", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_TOOL_TEXT,
};
