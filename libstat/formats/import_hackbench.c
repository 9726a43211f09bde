/* hackbench (rt-tests) output, one or more runs concatenated:
 *   Running in process mode with 2 groups using 40 file descriptors each (== 80 tasks)
 *   Each sender will pass 100 messages of 100 bytes
 *   Time: 0.267
 * Each "Time:" line is a sample (seconds, lower is better) of the case "<groups>-groups" of
 * the benchmark "hackbench-process-sockets" or "hackbench-thread-sockets", from the "Running
 * in" line before it (the runner's and mmtests' names; the output does not show whether -p
 * made it pipes, so the tool's default, sockets, is named unless the load option's benchmark
 * name says otherwise). Times not preceded by such a line go to benchmark "hackbench", case
 * "time". A load option benchmark name replaces the benchmark names. */
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

static int sniff(const char *data, size_t len)
{
    if (!tally__sniff_line_starts(data, len, "Time:", 8192))
        return 0;
    if (tally__sniff_has(data, len, "Running in ", 4096) &&
        tally__sniff_has(data, len, " groups using ", 4096))
        return 95;
    return 30;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    tally__line_import t;
    int rc = tally__line_import_begin(&t, into, data, len, name, opts, "hackbench");
    if (rc != TALLY_OK)
        return rc;
    char bench[128] = "hackbench", casename[64] = "time";
    size_t samples = 0;
    while ((rc = tally__line_import_next(&t)) > 0) {
        if (t.nf >= 6 && tally__field_is(&t.f[0], "Running") && tally__field_is(&t.f[1], "in") &&
            tally__field_is(&t.f[4], "with")) {
            /* Running in {process|threaded} mode with G groups ... */
            /* The output does not say pipes or sockets: hackbench's default, sockets, unless
             * the load option names the benchmark (hackbench-process-pipes for -p runs). */
            snprintf(bench, sizeof bench, "hackbench-%s-sockets",
                     tally__field_is(&t.f[2], "threaded") ? "thread" : "process");
            double groups;
            if (tally__parse_double(&groups, t.f[5].s, t.f[5].len) != TALLY_OK)
                return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[5].col,
                                       "expected the number of groups, found '%.*s'",
                                       (int)t.f[5].len, t.f[5].s);
            rc = tally__field_case_name(casename, sizeof casename, &t.f[5], "-groups",
                                        "number of groups", name, t.lines.lineno);
            if (rc != TALLY_OK)
                return rc;
        } else if (t.nf >= 1 && tally__field_is(&t.f[0], "Time:")) {
            double v;
            if (t.nf < 2)
                return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[0].col + 5,
                                       "expected a time after 'Time:' (truncated file?)");
            rc = tally__field_number(&v, &t.f[1], name, t.lines.lineno, "time", "a time");
            if (rc != TALLY_OK)
                return rc;
            rc = tally__import_sample(t.rs, tally__import_name(opts, bench), "s",
                                      TALLY_LOWER_IS_BETTER, casename, v);
            if (rc != TALLY_OK)
                return rc;
            samples++;
        }
    }
    return tally__import_end(rc, samples, &t.lines, "hackbench 'Time:' lines");
}

const tally__importer tally__importer_hackbench = {
    .kind = TALLY_INPUT_HACKBENCH, .name = "hackbench", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
};
