/* Per-request latency histograms of the built-in latency workloads (schbench, tcp_rr) when asked
 * with `histogram=1` (docs/runners.md, "Latency histograms"): the parameter and the histogram
 * metric, recording, the merge of the threads' recorders at the end of a run, and the run's
 * histograms as the child writes them after its values and as the runner reads them back.
 *
 * A request's latency is recorded in whole nanoseconds in an HdrHistogram-style recorder of
 * TALLY__LATENCY_DIGITS significant digits (stats/hdr_histogram.h), one per worker thread, so a
 * run of 10^8 requests costs the non-empty buckets (a few thousand), not a sample each. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/runner_internal.h"
#include "util/number.h"
#include "util/text.h"

int tally__latency_hist_configure(int *on, tally__wl *wl, const tally__params *p,
                                  const char *benchmark)
{
    long flag;
    int rc = tally__param_long(&flag, p, "histogram", 0, 0, 1);
    *on = rc == TALLY_OK && flag == 1;
    if (rc != TALLY_OK || !*on)
        return rc;
    rc = tally__wl_add_metric(wl, benchmark, NULL, "usec", TALLY_LOWER_IS_BETTER,
                              TALLY_STAT_MEDIAN);
    if (rc == TALLY_OK)
        wl->metrics[wl->metric_count - 1].histogram = 1;
    return rc;
}

int tally__latency_recorders_init(tally__hdr_recorder *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int rc = tally__hdr_recorder_init(&r[i], TALLY__LATENCY_DIGITS);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}

void tally__latency_record(tally__hdr_recorder *r, double usec)
{
    /* The clock is monotonic, so a latency is never below 0; rounding to whole nanoseconds
     * moves it by at most half of one, within the lowest bucket's width. */
    double ns = usec * 1e3;
    tally__hdr_record(r, ns > 0 ? (uint64_t)llround(ns) : 0);
}

int tally__latency_merge(tally__hdr_recorder *into, tally__hdr_recorder *threads, size_t n,
                         uint64_t requests, char *why)
{
    for (size_t i = 0; i < n; i++) {
        if (tally__hdr_recorder_merge(into, &threads[i]) != TALLY_OK) {
            snprintf(why, 256, "out of memory merging the latency histograms");
            return -1;
        }
        tally__hdr_recorder_free(&threads[i]);
    }
    if (into->lost > 0) {
        snprintf(why, 256, "%" PRIu64 " latencies could not be recorded in the histogram (out "
                 "of memory, or above 2^62 ns)", into->lost);
        return -1;
    }
    /* Every completed request is in the histogram: a lost one would be silent otherwise. */
    if (into->total != requests) {
        snprintf(why, 256, "the latency histogram holds %" PRIu64 " requests of %" PRIu64,
                 into->total, requests);
        return -1;
    }
    return 0;
}

/* ---- the child's output: values, then one block per histogram metric ---- */

int tally__body_output_write(tally__buf *b, const tally__wl *wl, const double *values,
                             const tally__hdr_recorder *hists)
{
    for (size_t m = 0; m < wl->metric_count; m++) {
        if (wl->metrics[m].histogram)
            continue;
        char num[TALLY__NUMBER_BUF];
        tally__number_format(num, values[m]);
        tally__buf_printf(b, "%s\n", num);
    }
    for (size_t m = 0; m < wl->metric_count; m++) {
        if (!wl->metrics[m].histogram)
            continue;
        double *v = NULL, resolution = 0;
        uint64_t *k = NULL;
        size_t n = 0;
        /* Values in usec: the recorder counts nanoseconds. */
        int rc = tally__hdr_recorder_export(&v, &k, &n, &resolution, &hists[m], 1e3);
        if (rc != TALLY_OK)
            return rc;
        char num[TALLY__NUMBER_BUF];
        tally__number_format(num, resolution);
        tally__buf_printf(b, "histogram %zu %zu %s\n", m, n, num);
        for (size_t i = 0; i < n; i++) {
            tally__number_format(num, v[i]);
            tally__buf_printf(b, "%s %" PRIu64 "\n", num, k[i]);
        }
        tally__free_mem(v);
        tally__free_mem(k);
    }
    return b->failed ? tally__oom() : TALLY_OK;
}

static int bad_output(const char *what)
{
    return tally__error(TALLY_ERUN, "workload output: %s", what);
}

/* The next line of the output at *p as [start, end); 0 at the end of the text. */
static int next_line(const char **start, size_t *len, const char **p)
{
    const char *nl = strchr(*p, '\n');
    if (nl == NULL)
        return 0;
    *start = *p;
    *len = (size_t)(nl - *p);
    *p = nl + 1;
    return 1;
}

/* One histogram block: "histogram M N RESOLUTION" and N lines "VALUE COUNT". */
static int parse_block(tally__journal_hist *hists, const tally__wl *wl, const char **p)
{
    const char *line;
    size_t len;
    unsigned long m, n;
    char res_text[48];
    if (!next_line(&line, &len, p) || len >= 200)
        return bad_output("a histogram missing");
    char head[200];
    memcpy(head, line, len);
    head[len] = '\0';
    double resolution;
    if (sscanf(head, "histogram %lu %lu %47s", &m, &n, res_text) != 3 ||
        m >= wl->metric_count || !wl->metrics[m].histogram || hists[m].n != 0 || n == 0 ||
        n > strlen(*p) / 4 || /* a bucket line takes at least 4 bytes: "1 1\n" */
        tally__parse_double(&resolution, res_text, strlen(res_text)) != TALLY_OK ||
        !(resolution >= 0))
        return bad_output("not a histogram header");
    hists[m].values = tally__reallocarray(NULL, n, sizeof(double));
    hists[m].counts = tally__reallocarray(NULL, n, sizeof(uint64_t));
    if (hists[m].values == NULL || hists[m].counts == NULL)
        return tally__oom();
    hists[m].resolution = resolution;
    for (size_t i = 0; i < n; i++) {
        const char *sp = next_line(&line, &len, p) ? memchr(line, ' ', len) : NULL;
        double v;
        uint64_t k = 0;
        int ok = sp != NULL && tally__parse_double(&v, line, (size_t)(sp - line)) == TALLY_OK &&
                 (i == 0 || v > hists[m].values[i - 1]) && sp + 1 < line + len;
        for (const char *d = sp ? sp + 1 : NULL; ok && d < line + len; d++) {
            ok = *d >= '0' && *d <= '9' && k <= (UINT64_MAX - 9) / 10;
            k = k * 10 + (uint64_t)(*d - '0');
        }
        if (!ok || k == 0)
            return bad_output("not a histogram bucket (value ascending, count > 0)");
        hists[m].values[i] = v;
        hists[m].counts[i] = k;
        hists[m].n = i + 1;
    }
    return TALLY_OK;
}

int tally__body_output_parse(double *values, tally__journal_hist *hists, const tally__wl *wl,
                             const char *out)
{
    const char *p = out, *line;
    size_t len, blocks = 0;
    for (size_t m = 0; m < wl->metric_count; m++)
        blocks += wl->metrics[m].histogram != 0;
    for (size_t m = 0; m < wl->metric_count; m++)
        if (!wl->metrics[m].histogram &&
            (!next_line(&line, &len, &p) ||
             tally__parse_double(&values[m], line, len) != TALLY_OK))
            return tally__error(TALLY_ERUN, "workload output: expected %zu numbers",
                                wl->metric_count - blocks);
    for (size_t i = 0; i < blocks; i++) {
        int rc = parse_block(hists, wl, &p);
        if (rc != TALLY_OK)
            return rc;
    }
    return TALLY_OK;
}
