/* Blocks of runs (docs/reports.md, "Blocks of runs"): configurations measured in separate
 * blocks, after another boot or in another sweep, differ by more than the run-to-run noise
 * their intervals account for. Without a noise profile the report says so. */
#include <string.h>

#include "report/report_internal.h"

/* 1 when some row takes its margin from a noise profile (the report option noise). */
static int has_noise_profile(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        if (r->rows[i].noise_pct > 0)
            return 1;
    return 0;
}

/* Whether configuration j's runs and the baseline's came in separate blocks by the times of
 * their runs (`first_run`, `last_run`: the span of the measured runs, from inputs that stamp
 * each run, such as pyperf's): 1 when the spans do not overlap, 0 when they do (the runs
 * interleaved), -1 when either lacks them. */
static int runs_apart(const tally_report *r, size_t j)
{
    const char *f0 = tally__report_meta(r, 0, "first_run");
    const char *l0 = tally__report_meta(r, 0, "last_run");
    const char *fj = tally__report_meta(r, j, "first_run");
    const char *lj = tally__report_meta(r, j, "last_run");
    if (!f0 || !l0 || !fj || !lj)
        return -1;
    return strcmp(lj, f0) < 0 || strcmp(l0, fj) < 0;
}

/* Why configuration j was measured in another block than the baseline: "another boot" when
 * both recorded a boot_id and they differ; else, when both carry the times of their runs,
 * "runs not interleaved" when one's runs all came before the other's (and nothing when they
 * interleaved, whatever else differs); else "another sweep" when both recorded the start of
 * their sweep (`date`: tally run's, Google Benchmark's context date) and they differ (the
 * configurations of one interleaved sweep share it); NULL when none can be told. */
static const char *block_change(const tally_report *r, size_t j)
{
    const char *b0 = tally__report_meta(r, 0, "boot_id"), *bj = tally__report_meta(r, j, "boot_id");
    if (b0 && bj && strcmp(b0, bj) != 0)
        return "another boot";
    int apart = runs_apart(r, j);
    if (apart >= 0)
        return apart ? "runs not interleaved" : NULL;
    const char *d0 = tally__report_meta(r, 0, "date"), *dj = tally__report_meta(r, j, "date");
    if (d0 && dj && strcmp(d0, dj) != 0)
        return "another sweep";
    return NULL;
}

void tally__render_block_notes(tally__buf *b, const tally_report *r, const char *prefix)
{
    if (r->opts.summaries_only || has_noise_profile(r))
        return;
    int any = 0;
    for (size_t j = 1; j < r->config_count; j++) {
        const char *why = block_change(r, j);
        if (why == NULL)
            continue;
        any = 1;
        const char *d0 = tally__report_meta(r, 0, "date"), *dj = tally__report_meta(r, j, "date");
        tally__buf_printf(b, "%sblocks: %s was measured in another block than %s (%s", prefix,
                          r->configs[j].label, r->configs[0].label, why);
        if (runs_apart(r, j) == 1)
            tally__buf_printf(b, "; its runs from %s to %s, %s's from %s to %s",
                              tally__report_meta(r, j, "first_run"),
                              tally__report_meta(r, j, "last_run"), r->configs[0].label,
                              tally__report_meta(r, 0, "first_run"),
                              tally__report_meta(r, 0, "last_run"));
        else if (d0 && dj)
            tally__buf_printf(b, "; started %s and %s", d0, dj);
        tally__buf_puts(b, ")\n");
    }
    if (any)
        tally__buf_printf(b, "%s%sthe intervals cover the run-to-run noise within a block "
                             "only, not the noise between blocks (boots, hours): measure it with "
                             "an A/A run of the same build in two blocks (tally calibrate) and "
                             "give the profile with --noise\n", prefix, prefix[0] ? "" : "  ");
}
