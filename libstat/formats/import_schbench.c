/* schbench output: latency percentile blocks
 *   Wakeup Latencies percentiles (usec) runtime 30 (s) (12345 total samples)
 *             50.0th: 7          (7806 samples)
 *           * 99.0th: 175        (2590 samples)
 *             min=1, max=10224
 * with "Request Latencies percentiles (usec)" and "RPS percentiles (requests)" blocks and an
 * "average rps: N" line in recent versions, and "Latency percentiles (usec)" (wakeup latency)
 * in old ones. Each percentile is a benchmark of its own, as the runner names them:
 * "schbench-wakeup-p99", "schbench-request-p50" (usec, lower is better, preferred statistic
 * Median as in the posted tables), "schbench-rps-p20" and "schbench-rps" from the average rps
 * line (requests/s, higher is better), each with the one case "all" (the output does not say
 * how many workers ran: name the case at load time, --case 8-workers); the prefix "schbench"
 * is replaced by the load option's benchmark name.
 * Runs: when the file has "average rps:" lines, each one closes a run and, within a run, a
 * later block of a kind replaces an earlier one (schbench prints interval reports before the
 * final one); otherwise every block is a run of its own. One sample per case per run. */
#include <stdio.h>
#include <string.h>

#include "formats/import_util.h"
#include "util/internal.h"
#include "util/text.h"

enum { WAKEUP, REQUEST, RPS, KINDS };

static const char *const suffix[KINDS] = {"wakeup", "request", "rps"};

#define MAX_PENDING 64
#define CASE_NAME "all"

typedef struct pending {
    int kind;
    char casename[24];
    double value;
} pending;

typedef struct state {
    tally_resultset *rs;
    const char *base;
    pending p[MAX_PENDING];
    size_t count;
} state;

static int sniff(const char *data, size_t len)
{
    if (tally__sniff_has(data, len, "Latencies percentiles (usec)", 8192) ||
        tally__sniff_line_starts(data, len, "Latency percentiles (usec)", 8192))
        return 95;
    if (tally__sniff_line_starts(data, len, "RPS percentiles (requests)", 8192))
        return 90;
    return 0;
}

static int block_kind(const char *line, size_t n)
{
    line = tally__trim(line, &n);
    if (tally__starts_with(line, n, "Wakeup Latencies percentiles") ||
        tally__starts_with(line, n, "Latency percentiles"))
        return WAKEUP;
    if (tally__starts_with(line, n, "Request Latencies percentiles"))
        return REQUEST;
    if (tally__starts_with(line, n, "RPS percentiles"))
        return RPS;
    return -1;
}

static int flush(state *s)
{
    /* Built whole: the base is the caller's benchmark name, of any length. */
    tally__buf bench = TALLY__BUF_INIT;
    int rc = TALLY_OK;
    for (size_t i = 0; rc == TALLY_OK && i < s->count; i++) {
        const pending *q = &s->p[i];
        /* The runner's names (docs/importers.md): one benchmark per percentile, the average
         * rps as "schbench-rps"; the case is the run's configuration, unknown in the output:
         * "all" (name it with --case, e.g. 8-workers). */
        bench.len = 0;
        if (q->kind == RPS && strcmp(q->casename, "average") == 0)
            tally__buf_printf(&bench, "%s-rps", s->base);
        else
            tally__buf_printf(&bench, "%s-%s-%s", s->base, suffix[q->kind], q->casename);
        if (bench.failed) {
            rc = tally__oom();
            break;
        }
        tally_benchmark *b = tally_resultset_benchmark_find(s->rs, bench.data);
        rc = tally__import_sample(s->rs, bench.data, q->kind == RPS ? "requests/s" : "usec",
                                  q->kind == RPS ? TALLY_HIGHER_IS_BETTER : TALLY_LOWER_IS_BETTER,
                                  CASE_NAME, q->value);
        if (rc == TALLY_OK && b == NULL && q->kind != RPS)
            rc = tally_benchmark_set_statistic(tally_resultset_benchmark_find(s->rs, bench.data),
                                               TALLY_STAT_MEDIAN);
    }
    tally__buf_dispose(&bench);
    if (rc == TALLY_OK)
        s->count = 0;
    return rc;
}

static void drop_kind(state *s, int kind)
{
    size_t k = 0;
    for (size_t i = 0; i < s->count; i++)
        if (s->p[i].kind != kind)
            s->p[k++] = s->p[i];
    s->count = k;
}

static int add(state *s, const tally__lines *l, int kind, const char *casename, double v,
               unsigned long col)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->p[i].kind == kind && strcmp(s->p[i].casename, casename) == 0)
            return tally__error_at(TALLY_EEXISTS, l->name, l->lineno, col,
                                   "percentile %s appears twice in one block", casename);
    if (s->count == MAX_PENDING)
        return tally__error_at(TALLY_ELIMIT, l->name, l->lineno, col,
                               "more than %d percentiles in one run", MAX_PENDING);
    pending *q = &s->p[s->count++];
    q->kind = kind;
    snprintf(q->casename, sizeof q->casename, "%s", casename);
    q->value = v;
    return TALLY_OK;
}

/* "50.0th:" / "99.9000th:" -> "p50" / "p99.9"; 0 when the field is not a percentile label. */
static int percentile_name(char *out, size_t size, const tally__field *f)
{
    const char *s = f->s;
    size_t n = f->len;
    if (n > 0 && s[0] == '*')
        s++, n--;
    if (n < 4 || memcmp(s + n - 3, "th:", 3) != 0)
        return 0;
    n -= 3;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
            return 0;
    if (memchr(s, '.', n))
        while (n > 0 && (s[n - 1] == '0' || s[n - 1] == '.'))
            if (s[--n] == '.')
                break;
    if (n == 0 || n + 2 > size)
        return 0;
    snprintf(out, size, "p%.*s", (int)n, s);
    return 1;
}

static int parse(tally_results *into, const char *data, size_t len, const char *name,
                 const tally_load_options *opts)
{
    state s;
    s.count = 0;
    s.base = tally__import_name(opts, "schbench");
    tally__line_import t;
    int rc = tally__line_import_begin(&t, into, data, len, name, opts, "schbench");
    s.rs = t.rs;
    if (rc != TALLY_OK)
        return rc;
    const int runs_end_at_rps = tally__sniff_line_starts(data, len, "average rps:", len);
    int kind = -1;
    unsigned long block_line = 0;
    size_t values = 0;
    while ((rc = tally__line_import_next(&t)) > 0) {
        int k = block_kind(t.line, t.len);
        char casename[24];
        if (k >= 0) {
            if (kind >= 0)
                return tally__error_at(TALLY_EPARSE, name, block_line, 1,
                                       "percentile block without its closing min=, max= line");
            if (runs_end_at_rps)
                drop_kind(&s, k);
            else if ((rc = flush(&s)) != TALLY_OK)
                return rc;
            kind = k;
            block_line = t.lines.lineno;
        } else if (t.nf >= 1 && tally__starts_with(t.f[0].s, t.f[0].len, "min=")) {
            kind = -1;
        } else if (t.nf >= 2 && tally__field_is(&t.f[0], "average") && tally__field_is(&t.f[1], "rps:")) {
            double v;
            if (t.nf < 3)
                return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[1].col + 4,
                                       "expected a number after 'average rps:'");
            rc = tally__field_number(&v, &t.f[2], name, t.lines.lineno, "average rps", "a number");
            if (rc != TALLY_OK)
                return rc;
            if ((rc = add(&s, &t.lines, RPS, "average", v, t.f[2].col)) != TALLY_OK ||
                (rc = flush(&s)) != TALLY_OK)
                return rc;
            values++;
        } else if (kind >= 0 && t.nf >= 1) {
            /* "  50.0th: 7  (7806 samples)", "* 99.0th: 175 ...", "*99.0000th: 33" */
            size_t i = tally__field_is(&t.f[0], "*") ? 1 : 0;
            if (i >= t.nf || !percentile_name(casename, sizeof casename, &t.f[i]))
                return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[0].col,
                                       "expected a percentile line such as '50.0th: 12' or "
                                       "'min=, max=' in the block of line %lu", block_line);
            if (i + 1 >= t.nf)
                return tally__error_at(TALLY_EPARSE, name, t.lines.lineno, t.f[i].col + t.f[i].len,
                                       "expected a value after '%.*s'", (int)t.f[i].len, t.f[i].s);
            double v;
            rc = tally__field_number(&v, &t.f[i + 1], name, t.lines.lineno, "percentile value",
                                     "a number");
            if (rc != TALLY_OK)
                return rc;
            if ((rc = add(&s, &t.lines, kind, casename, v, t.f[i + 1].col)) != TALLY_OK)
                return rc;
            values++;
        }
    }
    if (rc < 0)
        return rc;
    if (kind >= 0)
        return tally__error_at(TALLY_EPARSE, name, block_line, 1,
                               "percentile block without its closing min=, max= line "
                               "(truncated file?)");
    if (values == 0)
        return tally__import_none_found(name, t.lines.lineno, "schbench percentile blocks");
    return flush(&s);
}

const tally__importer tally__importer_schbench = {
    .kind = TALLY_INPUT_SCHBENCH, .name = "schbench", .sniff = sniff, .parse = parse,
    .flags = TALLY__IMPORT_NAMES_BENCHMARK | TALLY__IMPORT_SKIPS_LINES | TALLY__IMPORT_TOOL_TEXT,
};
