/* Row alignment: every case of every result set into rows keyed by (benchmark, case), in the
 * baseline's order, filtered, with the samples each cell summarises. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/stats_internal.h"

/* The index in `results` of the report's configuration j: the chosen baseline first, then the
 * others in their order. */
size_t tally__report_source(const tally_report *r, size_t j)
{
    size_t b = r->baseline_index;
    return j == 0 ? b : j <= b ? j - 1 : j;
}

void tally__report_free_row(tally__row *row, size_t configs)
{
    tally__free_mem(row->benchmark);
    tally__free_mem(row->case_name);
    tally__free_mem(row->unit);
    if (row->cells)
        for (size_t j = 0; j < configs; j++) {
            if (!row->cells[j].borrowed)
                tally__free_mem(row->cells[j].samples);
            tally__free_mem(row->cells[j].paired_from);
            tally__cell_free_histograms(&row->cells[j]);
        }
    tally__free_mem(row->cells);
}

static int row_is(const tally__row *row, const char *benchmark, const char *case_name)
{
    return strcmp(row->case_name, case_name) == 0 && strcmp(row->benchmark, benchmark) == 0;
}

/* The row of (benchmark, case), trying `hint` first: result sets usually list their cases in the
 * baseline's order, which keeps alignment linear. */
static long find_row(const tally_report *r, const char *benchmark, const char *case_name,
                     size_t hint)
{
    if (hint < r->row_count && row_is(&r->rows[hint], benchmark, case_name))
        return (long)hint;
    for (size_t i = 0; i < r->row_count; i++)
        if (row_is(&r->rows[i], benchmark, case_name))
            return (long)i;
    return -1;
}

/* Rows stay grouped by benchmark: a case missing from the baseline goes after the last row of
 * its benchmark, a benchmark missing from the baseline after every row. */
static size_t insert_position(const tally_report *r, const char *benchmark)
{
    for (size_t i = r->row_count; i > 0; i--)
        if (strcmp(r->rows[i - 1].benchmark, benchmark) == 0)
            return i;
    return r->row_count;
}

static int matches_filter(const tally_report *r, const char *benchmark, const char *case_name,
                          int *keep)
{
    *keep = 1;
    if (r->opts.filter == NULL)
        return TALLY_OK;
    size_t lb = strlen(benchmark), lc = strlen(case_name);
    char *name = tally__malloc(lb + lc + 2);
    if (name == NULL)
        return tally__oom();
    memcpy(name, benchmark, lb);
    name[lb] = '/';
    memcpy(name + lb + 1, case_name, lc + 1);
    *keep = fnmatch(r->opts.filter, name, 0) == 0;
    tally__free_mem(name);
    return TALLY_OK;
}

static tally_statistic row_statistic(const tally_report *r, const tally_benchmark *b)
{
    if (r->opts.statistic != TALLY_STAT_DEFAULT)
        return r->opts.statistic;
    tally_statistic preferred = tally_benchmark_statistic(b);
    if (preferred != TALLY_STAT_DEFAULT)
        return preferred;
    return tally_benchmark_direction(b) == TALLY_HIGHER_IS_BETTER ? TALLY_STAT_HMEAN
                                                                   : TALLY_STAT_AMEAN;
}

static int add_row(tally_report *r, const tally_benchmark *b, const char *case_name,
                   int baseline, size_t *index)
{
    if (r->row_count == r->row_cap) {
        size_t cap = r->row_cap ? r->row_cap * 2 : 16;
        tally__row *grown = tally__reallocarray(r->rows, cap, sizeof(*grown));
        if (grown == NULL)
            return tally__oom();
        r->rows = grown;
        r->row_cap = cap;
    }
    tally__row row;
    memset(&row, 0, sizeof(row));
    row.benchmark = tally__strdup(tally_benchmark_name(b));
    row.case_name = tally__strdup(case_name);
    row.unit = tally__strdup(tally_benchmark_unit(b));
    row.cells = tally__calloc(r->config_count, sizeof(*row.cells));
    if (!row.benchmark || !row.case_name || !row.unit || !row.cells) {
        tally__report_free_row(&row, r->config_count);
        return tally__oom();
    }
    row.direction = tally_benchmark_direction(b);
    row.statistic = row_statistic(r, b);
    row.percentile = row.statistic == TALLY_STAT_PERCENTILE ? r->opts.percentile : 0;
    tally_statistic_label(row.stat_name, sizeof row.stat_name, row.statistic, row.percentile);
    snprintf(row.stat_title, sizeof row.stat_title, "%s",
             row.statistic == TALLY_STAT_PERCENTILE ? row.stat_name
                                                    : tally__stat_title(row.statistic));
    /* The baseline's rows come in its own order; later ones join their benchmark's rows. */
    size_t pos = baseline ? r->row_count : insert_position(r, row.benchmark);
    memmove(&r->rows[pos + 1], &r->rows[pos], (r->row_count - pos) * sizeof(*r->rows));
    r->rows[pos] = row;
    r->row_count++;
    *index = pos;
    return TALLY_OK;
}

static int check_benchmark(const tally__row *row, const tally_benchmark *b, const char *label)
{
    if (strcmp(row->unit, tally_benchmark_unit(b)) != 0)
        return tally__error(TALLY_EMISMATCH,
                            "benchmark '%s': unit '%s' in '%s' differs from '%s' in the baseline",
                            row->benchmark, tally_benchmark_unit(b), label, row->unit);
    if (row->direction != tally_benchmark_direction(b))
        return tally__error(TALLY_EMISMATCH,
                            "benchmark '%s': direction in '%s' differs from the baseline's",
                            row->benchmark, label);
    return TALLY_OK;
}

/* With omit_samples the cell borrows the results' samples while the report is computed (they
 * are dropped before tally_report_new returns); otherwise it keeps a copy. */
static int copy_samples(tally__cell *cell, const tally_case *c, int borrow)
{
    size_t n = tally_case_sample_count(c);
    if (borrow) {
        cell->samples = (double *)tally_case_samples(c);
        cell->borrowed = 1;
        cell->n = n;
        cell->pub.present = 1;
        return TALLY_OK;
    }
    cell->samples = tally__reallocarray(NULL, n ? n : 1, sizeof(double));
    if (cell->samples == NULL)
        return tally__oom();
    if (n)
        memcpy(cell->samples, tally_case_samples(c), n * sizeof(double));
    cell->n = n;
    cell->pub.present = 1;
    return TALLY_OK;
}

static int copy_case(tally__cell *cell, const tally_case *c, const tally_report *r)
{
    int borrow = r->opts.omit_samples;
    const char *failed = tally_case_meta_get(c, "failed_runs");
    cell->failed_runs = failed ? strtoul(failed, NULL, 10) : 0;
    if (tally_case_is_summary_only(c)) {
        cell->summary_only = 1;
        cell->reported.size = sizeof cell->reported;
        int rc = tally_case_summary_result(&cell->reported, c);
        cell->n = cell->reported.n;
        cell->pub.present = rc == TALLY_OK;
        return rc;
    }
    if (tally_case_histogram_count(c) > 0)
        return tally__cell_histograms(cell, c, r);
    return copy_samples(cell, c, borrow);
}

/* A cell of tally_report_new_from_partitions: its summary comes from `part`, it has no samples. */
static int attach_part(tally__cell *cell, const tally_partition_summary *part, size_t k)
{
    const tally_summary_options *so;
    const double *percents, *bameans;
    size_t count;
    const tally_summary *s =
        part ? tally__partition_summary_parts(part, &so, &percents, &bameans, &count) : NULL;
    if (s == NULL)
        return tally__error(TALLY_EINVAL, "partition summary %zu is missing or not complete", k);
    cell->part = part;
    cell->n = s->n;
    cell->pub.present = 1;
    return TALLY_OK;
}

/* Align every case of every result set into rows; with `parts` (one per case of `results`, in
 * order) the cells take their summaries from them instead of samples, and with `rank_sums` and
 * `tie_terms` (the same order) the compared cells their Mann-Whitney ranks. */
/* The cell of a compared configuration's case under the row name `name` (its own name
 * `own` when that differs: paired by the case map or by position), refusing a second case of
 * the configuration in the same row. */
static int claim_cell(tally_report *r, size_t index, size_t j, const char *name, const char *own)
{
    tally__cell *cell = &r->rows[index].cells[j];
    if (cell->pub.present)
        return tally__error(TALLY_EINVAL, "%s pairs two cases of %s with %s/%s: '%s' and '%s'",
                            r->opts.pair_by == TALLY_PAIR_BY_POSITION ? "pairing by position"
                                                                      : "the case map",
                            r->configs[j].label, r->rows[index].benchmark, name,
                            cell->paired_from ? cell->paired_from : name, own);
    if (strcmp(name, own) != 0 && (cell->paired_from = tally__strdup(own)) == NULL)
        return tally__oom();
    return TALLY_OK;
}

static int align_all(tally_report *r, const tally_results *results, const tally__pairer *pairer,
                     tally__buf *scratch, const tally_partition_summary *const *parts,
                     size_t nparts, const double *rank_sums, const double *tie_terms)
{
    const tally_resultset *base = tally_results_at(results, tally__report_source(r, 0));
    for (size_t j = 0; j < r->config_count; j++) {
        size_t source = tally__report_source(r, j);
        const tally_resultset *rs = tally_results_at(results, source);
        /* `parts` and the ranks follow the cases in the results' own order. */
        size_t k = 0;
        for (size_t s = 0; s < source; s++) {
            const tally_resultset *before = tally_results_at(results, s);
            for (size_t bi = 0; bi < tally_resultset_benchmark_count(before); bi++)
                k += tally_benchmark_case_count(tally_resultset_benchmark_at(before, bi));
        }
        size_t hint = 0;
        for (size_t bi = 0; bi < tally_resultset_benchmark_count(rs); bi++) {
            const tally_benchmark *b = tally_resultset_benchmark_at(rs, bi);
            for (size_t ci = 0; ci < tally_benchmark_case_count(b); ci++) {
                const tally_case *c = tally_benchmark_case_at(b, ci);
                size_t at = k++;
                const char *name = tally_case_name(c);
                int rc = j == 0 || r->opts.summaries_only
                             ? TALLY_OK
                             : tally__pair_name(&name, scratch, pairer, r, base,
                                                tally_benchmark_name(b), ci, name);
                int keep = 0;
                if (rc == TALLY_OK)
                    rc = matches_filter(r, tally_benchmark_name(b), name, &keep);
                if (rc != TALLY_OK)
                    return rc;
                if (!keep)
                    continue;
                /* Names are unique within a result set: the baseline finds no earlier row. */
                long found = j == 0 ? -1 : find_row(r, tally_benchmark_name(b), name, hint);
                size_t index = 0;
                if (found < 0) {
                    rc = add_row(r, b, name, j == 0, &index);
                } else {
                    index = (size_t)found;
                    rc = check_benchmark(&r->rows[index], b, r->configs[j].label);
                }
                if (rc == TALLY_OK && j > 0)
                    rc = claim_cell(r, index, j, name, tally_case_name(c));
                if (rc == TALLY_OK && parts)
                    rc = at < nparts ? attach_part(&r->rows[index].cells[j], parts[at], at)
                                     : tally__error(TALLY_EINVAL, "%zu partition summaries for "
                                                                  "more cases", nparts);
                else if (rc == TALLY_OK)
                    rc = copy_case(&r->rows[index].cells[j], c, r);
                if (rc == TALLY_OK && tally_case_is_summary_only(c))
                    r->rows[index].summary_only = 1;
                const char *assume = tally_case_meta_get(c, "assume");
                if (assume && strcmp(assume, "exact") == 0)
                    r->rows[index].exact = 1;
                if (rc == TALLY_OK && parts && rank_sums && j > 0) {
                    tally__cell *cell = &r->rows[index].cells[j];
                    cell->ranks[0] = rank_sums[at];
                    cell->ranks[1] = tie_terms[at];
                    cell->has_ranks = 1;
                }
                hint = index + 1;
                if (rc != TALLY_OK)
                    return rc;
            }
        }
    }
    return TALLY_OK;
}

int tally__report_align(tally_report *r, const tally_results *results,
                        const tally_partition_summary *const *parts, size_t nparts,
                        const double *rank_sums, const double *tie_terms)
{
    tally__pairer *pairer = NULL;
    int rc = tally__pairer_new(&pairer, r);
    if (rc != TALLY_OK)
        return rc;
    tally__buf scratch = TALLY__BUF_INIT;
    rc = align_all(r, results, pairer, &scratch, parts, nparts, rank_sums, tie_terms);
    tally__buf_dispose(&scratch);
    tally__pairer_free(pairer);
    return rc;
}
