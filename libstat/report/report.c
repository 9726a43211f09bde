/* The report's lifetime: options checked, result sets copied, rows aligned
 * (report_align.c), statistics computed (report_stats.c); freeing. */
#include <stddef.h>
#include <string.h>

#include "report/report_internal.h"
#include "util/options.h"

void tally_report_free(tally_report *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->row_count; i++)
        tally__report_free_row(&r->rows[i], r->config_count);
    tally__free_mem(r->rows);
    for (size_t j = 0; j < r->config_count; j++) {
        tally__config *c = &r->configs[j];
        tally__free_mem(c->label);
        for (size_t k = 0; k < c->meta_count; k++) {
            tally__free_mem(c->meta[k].key);
            tally__free_mem(c->meta[k].value);
        }
        tally__free_mem(c->meta);
    }
    tally__free_mem(r->configs);
    tally__free_mem(r->filter_copy);
    tally__free_mem(r->case_map_copy);
    tally__report_free_environment(r);
    tally__free_mem(r);
}

static int copy_config(tally__config *c, const tally_resultset *rs)
{
    c->label = tally__strdup(tally_resultset_label(rs));
    size_t count = tally_resultset_meta_count(rs);
    c->meta = count ? tally__calloc(count, sizeof(*c->meta)) : NULL;
    if (c->label == NULL || (count && c->meta == NULL))
        return tally__oom();
    for (size_t k = 0; k < count; k++) {
        const char *key, *value;
        tally_resultset_meta_at(&key, &value, rs, k);
        c->meta[k].key = tally__strdup(key);
        c->meta[k].value = tally__strdup(value);
        c->meta_count = k + 1;
        if (c->meta[k].key == NULL || c->meta[k].value == NULL)
            return tally__oom();
    }
    return TALLY_OK;
}

/* *field copied into *copy, and pointed at it (NULL stays NULL): 0 when out of memory. */
static int copy_option(char **copy, const char **field)
{
    if (*field != NULL && (*copy = tally__strdup(*field)) == NULL)
        return 0;
    *field = *copy;
    return 1;
}

static void drop_borrowed(tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            r->rows[i].cells[j].part = NULL;
            if (r->rows[i].cells[j].borrowed) {
                r->rows[i].cells[j].samples = NULL;
                r->rows[i].cells[j].borrowed = 0;
            }
        }
}

/* Version 1 ended before omit_samples, version 2 before equivalence_pct, 3 before expect_diff,
 * 4 before noise, 5 before case_map, 6 before baseline. */
TALLY__OPTIONS_FUNCTIONS(tally_report_options, TALLY_REPORT_OPTIONS, sizeof(tally_report_options))

int tally__report_options_read(tally_report_options *out, const tally_report_options *given)
{
    return tally__options_read(out, given, &tally_report_options_kind);
}

/* The index of the result set labelled opts->baseline (0 without one). */
static int find_baseline(size_t *out, const tally_results *results, const char *label)
{
    *out = 0;
    if (label == NULL)
        return TALLY_OK;
    size_t count = tally_results_count(results);
    for (size_t i = 0; i < count; i++)
        if (strcmp(tally_resultset_label(tally_results_at(results, i)), label) == 0) {
            *out = i;
            return TALLY_OK;
        }
    tally__buf known = TALLY__BUF_INIT;
    for (size_t i = 0; i < count; i++)
        tally__buf_printf(&known, "%s'%s'", i ? ", " : "",
                          tally_resultset_label(tally_results_at(results, i)));
    int rc = known.failed ? tally__oom()
                          : tally__error(TALLY_ENOTFOUND, "baseline '%s': no configuration of "
                                                          "that label (the configurations: %s)",
                                         label, known.data);
    tally__buf_dispose(&known);
    return rc;
}

static int check_options(const tally_report_options *o)
{
    if (!(o->alpha > 0 && o->alpha < 1))
        return tally__error(TALLY_EINVAL, "report options: alpha must lie in (0, 1)");
    if (!(o->confidence > 0 && o->confidence < 1))
        return tally__error(TALLY_EINVAL, "report options: confidence must lie in (0, 1)");
    if (o->test == TALLY_TEST_CLUSTER_BOOTSTRAP)
        return tally__error(TALLY_EINVAL, "report options: the cluster bootstrap is the test of "
                                          "histogram runs at the pooled level, chosen there "
                                          "by the report, not an option");
    if ((unsigned)o->statistic > TALLY_STAT_PERCENTILE ||
        (unsigned)o->test > TALLY_TEST_PRICE_BONETT ||
        (unsigned)o->adjust > TALLY_ADJUST_BONFERRONI ||
        (unsigned)o->percentile_method > TALLY_PERCENTILE_HARRELL_DAVIS)
        return tally__error(TALLY_EINVAL, "report options: value out of range");
    if (o->statistic == TALLY_STAT_PERCENTILE ? !(o->percentile > 0 && o->percentile < 100)
                                              : o->percentile != 0)
        return tally__error(TALLY_EINVAL, "report options: percentile %g: a percentile row needs "
                                          "one in (0, 100), other statistics 0", o->percentile);
    if ((unsigned)o->per_run > TALLY_STAT_PERCENTILE ||
        (o->per_run == TALLY_STAT_PERCENTILE ? !(o->per_run_percentile > 0 &&
                                                 o->per_run_percentile < 100)
                                             : o->per_run_percentile != 0))
        return tally__error(TALLY_EINVAL, "report options: per_run %d with per_run_percentile "
                                          "%g: a percentile needs one in (0, 100), other "
                                          "statistics 0", (int)o->per_run, o->per_run_percentile);
    if (o->resamples < 100 || o->resamples > 10000000)
        return tally__error(TALLY_EINVAL, "report options: resamples %zu: from 100 to 10^7",
                            o->resamples);
    if (tally_pair_by_name(o->pair_by) == NULL)
        return tally__error(TALLY_EINVAL, "report options: pair_by out of range");
    if (!(o->power > 0 && o->power < 1))
        return tally__error(TALLY_EINVAL, "report options: power must lie in (0, 1)");
    if (!(o->equivalence_pct >= 0 && o->equivalence_pct < 100))
        return tally__error(TALLY_EINVAL, "report options: the equivalence margin must lie in "
                                          "[0, 100) percent");
    if (!(o->mde_pct >= 0 && o->mde_pct < 100))
        return tally__error(TALLY_EINVAL, "report options: the effect for the runs needed must "
                                          "lie in [0, 100) percent");
    return TALLY_OK;
}

/* TALLY_ENODATA for a report without rows, naming the cases whose every run failed (the
 * runner keeps them as the result set's failed_runs.<case>, with failed_run.<case>.1 the
 * first reason: docs/runners.md) so that the reason is not one more command away. */
static int no_cases(const tally_report *r)
{
    tally__buf b = TALLY__BUF_INIT;
    tally__buf_puts(&b, "the result sets hold no cases");
    size_t failed = 0;
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__config *cfg = &r->configs[j];
        for (size_t k = 0; k < cfg->meta_count; k++) {
            if (strncmp(cfg->meta[k].key, "failed_runs.", 12) != 0)
                continue;
            const char *name = cfg->meta[k].key + 12;
            tally__buf first = TALLY__BUF_INIT;
            tally__buf_printf(&first, "failed_run.%s.1", name);
            const char *why = first.data ? tally__report_meta(r, j, first.data) : NULL;
            if (failed++ == 0)
                tally__buf_puts(&b, "; every run of these failed:");
            /* The message holds 1 KiB: five cases, each reason cut at 120 bytes. */
            if (why == NULL)
                why = "(no reason recorded)";
            size_t n = strlen(why);
            while (n > 0 && (why[n - 1] == '\n' || why[n - 1] == ' ' || why[n - 1] == '\r'))
                n--;
            if (failed <= 5)
                tally__buf_printf(&b, "\n  %s %s: %s run%s failed, the first: %.*s",
                                  cfg->label, name, cfg->meta[k].value,
                                  strcmp(cfg->meta[k].value, "1") == 0 ? "" : "s",
                                  (int)(n < 120 ? n : 120), why);
            tally__buf_dispose(&first);
        }
    }
    if (failed > 5)
        tally__buf_printf(&b, "\n  and %zu more", failed - 5);
    int rc = b.failed ? tally__oom() : tally__error(TALLY_ENODATA, "%s", b.data);
    tally__buf_dispose(&b);
    return rc;
}

static int report_new(tally_report **out, const tally_results *results,
                      const tally_partition_summary *const *parts, size_t nparts,
                      const double *rank_sums, const double *tie_terms,
                      const tally_report_options *opts)
{
    if (out == NULL || results == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_new: NULL argument");
    *out = NULL;
    tally_report_options options;
    int rc = tally__report_options_read(&options, opts);
    if (rc == TALLY_OK)
        rc = check_options(&options);
    if (rc != TALLY_OK)
        return rc;
    size_t configs = tally_results_count(results);
    if (configs == 0)
        return tally__error(TALLY_ENODATA, "no result sets to report");
    size_t baseline = 0;
    if ((rc = find_baseline(&baseline, results, options.baseline)) != TALLY_OK)
        return rc;
    if (rank_sums && baseline != 0)
        return tally__error(TALLY_EINVAL, "the rank sums are those of the first result set's "
                                          "samples: it is the baseline of a report from ranked "
                                          "partitions");
    tally__ensure_init();

    tally_report *r = tally__calloc(1, sizeof(*r));
    if (r == NULL)
        return tally__oom();
    r->opts = options;
    r->opts.baseline = NULL; /* borrowed for this call only; the labels are copied */
    r->baseline_index = baseline;
    r->configs = tally__calloc(configs, sizeof(*r->configs));
    if (r->configs == NULL) {
        tally_report_free(r);
        return tally__oom();
    }
    r->config_count = configs;
    /* The report keeps its own copies of the caller's strings. */
    if (!copy_option(&r->filter_copy, &r->opts.filter) ||
        !copy_option(&r->expect_copy, &r->opts.expect_diff) ||
        !copy_option(&r->case_map_copy, &r->opts.case_map)) {
        tally_report_free(r);
        return tally__oom();
    }
    for (size_t j = 0; j < configs && rc == TALLY_OK; j++)
        rc = copy_config(&r->configs[j], tally_results_at(results, tally__report_source(r, j)));
    if (rc == TALLY_OK && parts) {
        r->opts.omit_samples = 1;
        if (r->opts.test == TALLY_TEST_MANN_WHITNEY && rank_sums == NULL)
            rc = tally__error(TALLY_EINVAL, "a report of partitioned samples runs the "
                                            "Mann-Whitney test only from the pooled ranks "
                                            "(tally_report_new_from_partitions_ranked; "
                                            "docs/statistics.md, \"Partitioned samples\")");
    }
    if (rc == TALLY_OK)
        rc = tally__report_environment(r);
    if (rc == TALLY_OK)
        rc = tally__report_align(r, results, parts, nparts, rank_sums, tie_terms);
    if (rc == TALLY_OK && r->row_count == 0)
        rc = r->opts.filter
                 ? tally__error(TALLY_ENODATA, "no benchmark/case matches the filter '%s'",
                                r->opts.filter)
                 : no_cases(r);
    if (rc == TALLY_OK) {
        tally__report_noise_margins(r);
        r->opts.noise = NULL; /* borrowed for this call only */
        rc = tally__report_compute(r);
    }
    if (rc == TALLY_OK)
        rc = tally__report_diagnose(r);
    drop_borrowed(r);
    if (rc != TALLY_OK) {
        tally_report_free(r);
        return rc;
    }
    *out = r;
    return TALLY_OK;
}

int tally_report_new(tally_report **out, const tally_results *results,
                     const tally_report_options *opts)
{
    return report_new(out, results, NULL, 0, NULL, NULL, opts);
}

int tally_report_new_from_partitions(tally_report **out, const tally_results *shape,
                                     const tally_partition_summary *const *parts, size_t count,
                                     const tally_report_options *opts)
{
    if (parts == NULL) {
        if (out)
            *out = NULL;
        return tally__error(TALLY_EINVAL, "tally_report_new_from_partitions: NULL argument");
    }
    return report_new(out, shape, parts, count, NULL, NULL, opts);
}

int tally_report_new_from_partitions_ranked(tally_report **out, const tally_results *shape,
                                            const tally_partition_summary *const *parts,
                                            size_t count, const double *rank_sums,
                                            const double *tie_terms,
                                            const tally_report_options *opts)
{
    if (parts == NULL || rank_sums == NULL || tie_terms == NULL) {
        if (out)
            *out = NULL;
        return tally__error(TALLY_EINVAL,
                            "tally_report_new_from_partitions_ranked: NULL argument");
    }
    return report_new(out, shape, parts, count, rank_sums, tie_terms, opts);
}
