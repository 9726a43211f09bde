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

/* Why configuration j was measured in another block than the baseline: "another boot" when
 * both recorded a boot_id and they differ, "another sweep" when both recorded the start of
 * their sweep (`date`) and they differ (the configurations of one interleaved sweep share
 * it); NULL when neither can be told. */
static const char *block_change(const tally_report *r, size_t j)
{
    const char *b0 = tally__report_meta(r, 0, "boot_id"), *bj = tally__report_meta(r, j, "boot_id");
    if (b0 && bj && strcmp(b0, bj) != 0)
        return "another boot";
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
        if (d0 && dj)
            tally__buf_printf(b, "; started %s and %s", d0, dj);
        tally__buf_puts(b, ")\n");
    }
    if (any)
        tally__buf_printf(b, "%s%sthe intervals cover the run-to-run noise within a block "
                             "only, not the noise between blocks (boots, hours): measure it with "
                             "an A/A run of the same build in two blocks (tally calibrate) and "
                             "give the profile with --noise\n", prefix, prefix[0] ? "" : "  ");
}
