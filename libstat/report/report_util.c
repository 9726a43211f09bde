/* Helpers shared by the report renderers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"
#include "util/utf8.h"
#include "stats/cluster_boot.h"
#include "stats/compare_impl.h"
#include "stats/quantile.h"
#include "stats/stats_internal.h"

int tally__report_next_group(tally__group *g, const tally_report *r, size_t *pos)
{
    if (*pos >= r->row_count)
        return 0;
    size_t first = *pos, end = first + 1;
    while (end < r->row_count && strcmp(r->rows[end].benchmark, r->rows[first].benchmark) == 0)
        end++;
    g->first = first;
    g->count = end - first;
    *pos = end;
    return 1;
}

int tally__each_group(tally__buf *b, const tally_report *r, const char *separator,
                      int (*each)(tally__buf *b, const tally_report *r, const tally__group *g,
                                  void *ctx),
                      void *ctx)
{
    tally__group g;
    size_t pos = 0;
    for (int first = 1; tally__report_next_group(&g, r, &pos); first = 0) {
        if (!first)
            tally__buf_puts(b, separator);
        int rc = each(b, r, &g, ctx);
        if (rc != TALLY_OK)
            return rc;
    }
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}

/* What a seed layout's groups are rendered with (tally__render_groups). */
typedef struct seed_layout {
    const char *separator;
    tally__group_renderer render;
    const tally_render_options *o;
} seed_layout;

static int fitted_group(tally__buf *b, const tally_report *r, const tally__group *g, void *ctx)
{
    const seed_layout *s = ctx;
    return tally__render_group_fitted(b, r, g, s->separator, s->render, s->o);
}

int tally__render_groups(tally__buf *b, const tally_report *r, const char *separator,
                         tally__group_renderer render, const tally_render_options *o)
{
    seed_layout s = { separator, render, o };
    return tally__each_group(b, r, separator, fitted_group, &s);
}

const char *tally__report_not_tested_note(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        if (r->rows[i].exact)
            return "not-tested: no test concerns this statistic, or the unit is exact "
                   "(assume=exact: repeated runs add no confidence; docs/importers.md)";
    return "not-tested: no test concerns this statistic (docs/statistics.md)";
}

const char *tally__report_meta(const tally_report *r, size_t config, const char *key)
{
    const tally__config *c = &r->configs[config];
    for (size_t k = 0; k < c->meta_count; k++)
        if (strcmp(c->meta[k].key, key) == 0)
            return c->meta[k].value;
    return NULL;
}

/* The baseline's metadata `report.<benchmark>.<field>`, or NULL. */
static const char *benchmark_meta(const tally_report *r, const char *benchmark, const char *field)
{
    const tally__config *c = &r->configs[0];
    static const char prefix[] = "report.";
    size_t lb = strlen(benchmark), lf = strlen(field);
    for (size_t k = 0; k < c->meta_count; k++) {
        const char *key = c->meta[k].key;
        if (strlen(key) == sizeof(prefix) - 1 + lb + 1 + lf &&
            strncmp(key, prefix, sizeof(prefix) - 1) == 0 &&
            strncmp(key + sizeof(prefix) - 1, benchmark, lb) == 0 &&
            key[sizeof(prefix) - 1 + lb] == '.' &&
            strcmp(key + sizeof(prefix) + lb, field) == 0)
            return c->meta[k].value;
    }
    return NULL;
}

const char *tally__report_case_label(const tally_report *r, const char *benchmark)
{
    return tally__shown_case_label(r, NULL, benchmark);
}

const char *tally__shown_case_label(const tally_report *r, const tally_render_options *o,
                                    const char *benchmark)
{
    const char *own = benchmark_meta(r, benchmark, "case_label");
    if (own)
        return own;
    if (o && o->case_label)
        return o->case_label;
    const char *all = tally__report_meta(r, 0, "report.case_label");
    return all ? all : "Case";
}

const char *tally__shown_units_text(const tally_report *r, const tally_render_options *o,
                                    const tally__row *first)
{
    const char *own = benchmark_meta(r, first->benchmark, "units_text");
    if (own)
        return own;
    if (o && o->units_text && o->units_text[0])
        return o->units_text;
    return first->unit;
}

size_t tally__shown_case(const char **start, const tally_report *r, const tally_render_options *o,
                         const tally__row *row)
{
    const char *name = row->case_name;
    size_t len = strlen(name);
    *start = name;
    const char *cut = benchmark_meta(r, row->benchmark, "case_strip");
    if (cut == NULL)
        cut = o && o->case_strip ? o->case_strip : tally__report_meta(r, 0, "report.case_strip");
    size_t lc = cut ? strlen(cut) : 0;
    /* Never strip a name to nothing: "-workers" alone stays. */
    if (lc == 0 || len <= lc)
        return len;
    if (memcmp(name + len - lc, cut, lc) == 0)
        return len - lc;
    if (memcmp(name, cut, lc) == 0) {
        *start = name + lc;
        return len - lc;
    }
    return len;
}

/* The baseline's metadata `report.<benchmark>.<field>`, else `report.<field>`, when it is a
 * whole number from `min` to TALLY__CASE_WIDTH_MAX; else `fallback`. */
static size_t group_columns(const tally_report *r, const tally__group *g, const char *field,
                            unsigned long min, size_t fallback)
{
    char all[64];
    const char *text = benchmark_meta(r, r->rows[g->first].benchmark, field);
    snprintf(all, sizeof all, "report.%s", field);
    if (text == NULL)
        text = tally__report_meta(r, 0, all);
    if (text) {
        /* A whole number of columns in range; anything else is not one. */
        unsigned long n = 0;
        const char *p = text;
        while (*p >= '0' && *p <= '9' && n <= TALLY__CASE_WIDTH_MAX)
            n = n * 10 + (unsigned long)(*p++ - '0');
        if (*p == '\0' && p != text && n >= min && n <= TALLY__CASE_WIDTH_MAX)
            return (size_t)n;
    }
    return fallback;
}

size_t tally__group_case_column(const tally_report *r, const tally_render_options *o,
                                const tally__group *g, size_t extra)
{
    return group_columns(r, g, "case_width", 1, tally__group_case_width(r, o, g) + extra);
}

size_t tally__group_case_gap(const tally_report *r, const tally__group *g, size_t fallback)
{
    return group_columns(r, g, "case_gap", 1, fallback);
}

size_t tally__group_title_indent(const tally_report *r, const tally__group *g, size_t fallback)
{
    return group_columns(r, g, "title_indent", 0, fallback);
}

int tally__default_precision(const tally_report *r, const tally_render_options *o,
                             const tally__row *row)
{
    (void)r;
    if (o->precision >= 0)
        return o->precision > 17 ? 17 : o->precision;
    return row->direction == TALLY_HIGHER_IS_BETTER ? 2 : 4;
}

int tally__seed_precision(const tally_report *r, const tally_render_options *o,
                          const tally__group *g, int fixed)
{
    if (o->precision >= 0)
        return o->precision > 17 ? 17 : o->precision;
    double smallest = 0;
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &r->rows[i].cells[j];
            double v = fabs(c->pub.value);
            if (c->pub.present && c->value_defined && v > 0 && isfinite(v) &&
                (smallest == 0 || v < smallest))
                smallest = v;
        }
    if (smallest == 0 || tally__numfmt_sig_decimals(smallest, 3) <= fixed)
        return fixed;
    /* Beyond 17 decimals, scientific notation with 4 significant digits (tally__format_fixed's
     * negative decimals), which reaches the smallest double. */
    int decimals = tally__numfmt_sig_decimals_raw(smallest, TALLY__NUMFMT_DIGITS);
    return decimals > 17 ? -TALLY__NUMFMT_DIGITS : decimals;
}

void tally__group_si(tally__si *si, const tally_report *r, const tally__group *g)
{
    double smallest = 0, largest = 0;
    for (size_t i = g->first; i < g->first + g->count; i++)
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &r->rows[i].cells[j];
            double v = fabs(c->pub.value);
            if (!c->pub.present || !c->value_defined || !(v > 0) || !isfinite(v))
                continue;
            if (smallest == 0 || v < smallest)
                smallest = v;
            if (v > largest)
                largest = v;
        }
    tally__si_choose(si, smallest > largest / 1e5 ? smallest : largest / 1e5,
                     r->rows[g->first].unit);
}

void tally__row_numfmt(tally__numfmt *f, const tally_report *r, const tally__row *row,
                       const tally__si *si, int precision)
{
    double magnitude = 0, narrowest = 0;
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        double lo, hi;
        if (!c->pub.present || !c->value_defined || !isfinite(c->pub.value))
            continue;
        if (fabs(c->pub.value) > magnitude)
            magnitude = fabs(c->pub.value);
        if (tally__cell_interval(&lo, &hi, row, c) && hi > lo && isfinite(hi - lo)) {
            /* The half-width: for the median's asymmetric interval, the nearer side. */
            double half = row->statistic == TALLY_STAT_MEDIAN ||
                                  row->statistic == TALLY_STAT_PERCENTILE
                              ? fmin(c->pub.value - lo, hi - c->pub.value)
                              : (hi - lo) / 2;
            if (half > 0 && (narrowest == 0 || half < narrowest))
                narrowest = half;
        }
    }
    /* The decimals count in the group's prefix: choose them on the scaled values. */
    tally__numfmt_choose(f, magnitude / si->factor, narrowest / si->factor, "", 0, precision);
    f->si = *si;
}

void tally__buf_number(tally__buf *b, const tally__numfmt *f, double x)
{
    /* The order statistics of a summary-only case (docs/formats.md): not known. */
    if (isnan(x)) {
        tally__buf_puts(b, "-");
        return;
    }
    char text[400];
    size_t n = tally__numfmt_number(text, sizeof(text), f, x);
    tally__buf_append(b, text, n);
}

int tally__render_cell_value(tally__buf *b, const tally__numfmt *f, const tally__row *row,
                             const tally__cell *c, const char *sep)
{
    double lo, hi;
    int interval = 0;
    if (!c->pub.present || !c->value_defined) {
        tally__buf_puts(b, "n/a");
        return 0;
    }
    tally__buf_number(b, f, c->pub.value);
    if (tally__cell_interval(&lo, &hi, row, c)) {
        interval = 1;
        if (row->statistic == TALLY_STAT_AMEAN) {
            tally__buf_puts(b, " \xc2\xb1 ");
            tally__buf_number(b, f, (hi - lo) / 2);
        } else {
            tally__buf_puts(b, " [");
            tally__buf_number(b, f, lo);
            tally__buf_puts(b, ", ");
            tally__buf_number(b, f, hi);
            tally__buf_puts(b, "]");
        }
    }
    if (sep && f->si.unit[0])
        tally__buf_printf(b, "%s%s", sep, f->si.unit);
    return interval;
}

size_t tally__group_case_width(const tally_report *r, const tally_render_options *o,
                              const tally__group *g)
{
    size_t w = 0;
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const char *start;
        size_t len = tally__shown_case(&start, r, o, &r->rows[i]);
        if (len > w)
            w = len;
    }
    return w;
}

void tally__render_missing_notes(tally__buf *b, const tally_report *r, const tally__group *g,
                                 const char *prefix)
{
    for (size_t i = g->first; i < g->first + g->count; i++) {
        const tally__row *row = &r->rows[i];
        for (size_t j = r->first_shown; j < r->config_count; j++)
            if (!row->cells[j].pub.present)
                tally__buf_printf(b, "%s%s has no %s/%s\n", prefix, r->configs[j].label,
                                  row->benchmark, row->case_name);
    }
}

int tally__render_geomean(double *out, tally__buf *b, const tally_report *r, size_t j)
{
    int rc = tally_report_geomean(out, r, j);
    if (rc == TALLY_OK)
        return 1;
    if (rc == TALLY_ENOMEM)
        b->failed = 1;
    else
        tally_error_clear();
    return 0;
}

void tally__render_run_notes(tally__buf *b, const tally_report *r, const char *prefix)
{
    for (size_t j = 0; j < r->config_count; j++) {
        const char *partial = tally__report_meta(r, j, "partial");
        if (partial)
            tally__buf_printf(b, "%spartial: %s holds %s\n", prefix, r->configs[j].label, partial);
        const char *running = tally__report_meta(r, j, "running");
        if (running)
            tally__buf_printf(b, "%srunning: %s: its sweep is still running (%s): more runs will "
                                 "follow\n",
                              prefix, r->configs[j].label, running);
        const char *cut = tally__report_meta(r, j, "cut_last_line");
        if (cut)
            tally__buf_printf(b, "%swarning: %s: %s\n", prefix, r->configs[j].label, cut);
    }
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &row->cells[j];
            if (c->pub.present && c->failed_runs > 0)
                tally__buf_printf(b, "%sfailed runs: %s %s/%s: %lu failed; computed from the %zu "
                                     "that succeeded\n",
                                  prefix, r->configs[j].label, row->benchmark, row->case_name,
                                  c->failed_runs, c->n);
        }
    }
    /* A sweep value whose runs all failed has no case: the runner names it in the set's
     * metadata as failed_runs.<case>. */
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__config *cfg = &r->configs[j];
        for (size_t k = 0; k < cfg->meta_count; k++)
            if (strncmp(cfg->meta[k].key, "failed_runs.", 12) == 0)
                tally__buf_printf(b, "%sfailed: %s %s: all %s runs failed, no samples (reasons in "
                                     "its failed_run.%s.N metadata)\n",
                                  prefix, cfg->label, cfg->meta[k].key + 12, cfg->meta[k].value,
                                  cfg->meta[k].key + 12);
    }
}

const char *tally__color_on(const tally__cell *c, int color)
{
    if (!color || !c->pub.present || !c->pub.compared)
        return "";
    switch (c->pub.comparison.verdict) {
    case TALLY_VERDICT_IMPROVEMENT: return "\033[32m";
    case TALLY_VERDICT_REGRESSION: return "\033[31m";
    default: return "";
    }
}

const char *tally__color_off(const tally__cell *c, int color)
{
    return tally__color_on(c, color)[0] ? "\033[0m" : "";
}

const char *tally__verdict_word(tally_verdict v)
{
    switch (v) {
    case TALLY_VERDICT_IMPROVEMENT: return "improvement";
    case TALLY_VERDICT_REGRESSION: return "regression";
    case TALLY_VERDICT_INSUFFICIENT: return "insufficient";
    case TALLY_VERDICT_EQUIVALENT: return "equivalent";
    case TALLY_VERDICT_NOT_TESTED: return "not tested";
    case TALLY_VERDICT_IDENTICAL: return "no change (identical)";
    case TALLY_VERDICT_WITHIN_NOISE: return "within noise";
    case TALLY_VERDICT_INCONCLUSIVE: break;
    }
    return "inconclusive";
}

static void gain_text(tally__buf *b, const tally_gain *g)
{
    tally__buf_printf(b, "%.4f", g->value);
    if (g->interval_defined)
        tally__buf_printf(b, " [%.4f, %.4f]", g->low, g->high);
    tally__buf_printf(b, " over %zu row%s", g->rows, g->rows == 1 ? "" : "s");
}

/* The gain of configuration j over `benchmark` (NULL: all) in the family of row `family`
 * ((size_t)-1: any) as text, or "n/a". */
static void gain_line(tally__buf *b, const tally_report *r, size_t j, const char *benchmark,
                      size_t family)
{
    tally_gain g = { .size = sizeof g };
    int rc = tally__report_gain_family(&g, r, j, benchmark, family);
    if (rc == TALLY_OK) {
        gain_text(b, &g);
    } else {
        if (rc == TALLY_ENOMEM)
            b->failed = 1;
        tally_error_clear();
        tally__buf_puts(b, "n/a");
    }
    tally__buf_puts(b, "\n");
}

int tally__render_family_gains(tally__buf *b, const tally_report *r, size_t j)
{
    size_t first[64];
    size_t n = tally__gain_families(first, TALLY__COUNT(first), r, NULL);
    if (n < 2)
        return 0;
    for (size_t f = 0; f < n && f < TALLY__COUNT(first); f++) {
        tally_gain g = { .size = sizeof g };
        tally__buf_puts(b, f ? ", " : "");
        if (tally__report_gain_family(&g, r, j, NULL, first[f]) == TALLY_OK) {
            tally__buf_printf(b, "%.4f", g.value);
        } else {
            tally_error_clear();
            tally__buf_puts(b, "n/a");
        }
        tally__buf_puts(b, " (");
        tally__family_name(b, &r->rows[first[f]]);
        tally__buf_puts(b, ")");
    }
    return 1;
}

/* The gain lines of `benchmark` (NULL: "overall"), one per family when it has several. */
static void family_lines(tally__buf *b, const tally_report *r, size_t j, const char *benchmark,
                         const char *indent)
{
    size_t first[64];
    size_t n = tally__gain_families(first, TALLY__COUNT(first), r, benchmark);
    if (n < 2) {
        tally__buf_printf(b, "%s%s: ", indent, benchmark ? benchmark : "overall");
        gain_line(b, r, j, benchmark, (size_t)-1);
        return;
    }
    for (size_t f = 0; f < n && f < TALLY__COUNT(first); f++) {
        tally__buf_printf(b, "%s%s, ", indent, benchmark ? benchmark : "overall");
        tally__family_name(b, &r->rows[first[f]]);
        tally__buf_puts(b, ": ");
        gain_line(b, r, j, benchmark, first[f]);
    }
}

void tally__render_geomean_lines(tally__buf *b, const tally_report *r)
{
    size_t groups = 0, pos = 0;
    tally__group g;
    while (tally__report_next_group(&g, r, &pos))
        groups++;
    tally__buf_printf(b, "\nGeometric mean of gains (> 1 is better: new/base where higher is "
                         "better, base/new where lower is better) over paired rows, with its "
                         "%g%% interval:\n", r->opts.confidence * 100);
    size_t families = tally__gain_families(NULL, 0, r, NULL);
    for (size_t j = 1; j < r->config_count; j++) {
        if (groups < 2 && families < 2) {
            tally__buf_printf(b, "  %s: ", r->configs[j].label);
            gain_line(b, r, j, NULL, (size_t)-1);
            continue;
        }
        tally__buf_printf(b, "  %s:\n", r->configs[j].label);
        pos = 0;
        while (tally__report_next_group(&g, r, &pos)) {
            const char *name = r->rows[g.first].benchmark;
            if (groups > 1)
                family_lines(b, r, j, name, "    ");
        }
        family_lines(b, r, j, NULL, "    ");
    }
}

/* What the auto test runs on rows of a statistic. */
static const char *auto_description(tally_statistic stat)
{
    switch (stat) {
    case TALLY_STAT_AMEAN: return "AMean: Welch on x";
    case TALLY_STAT_HMEAN: return "HMean: Welch on 1/x";
    case TALLY_STAT_GMEAN: return "GMean: Welch on log x";
    case TALLY_STAT_MEDIAN: return "Median: Price-Bonett";
    case TALLY_STAT_MIN: return "Min: not tested";
    case TALLY_STAT_MAX: return "Max: not tested";
    case TALLY_STAT_BAMEAN: return "BAmean: not tested";
    case TALLY_STAT_PERCENTILE: return "percentiles: Price-Bonett";
    default: return NULL;
    }
}

void tally__ci_label(char *out, size_t size, const tally_report *r)
{
    if (r->opts.adjust != TALLY_ADJUST_NONE && r->opts.test != TALLY_TEST_MMTESTS_CI &&
        r->opts.test != TALLY_TEST_NONE)
        snprintf(out, size, "adj. CI");
    else
        snprintf(out, size, "%g%% CI", r->opts.confidence * 100);
}

int tally__worst_regression(size_t *row, size_t *config, const tally_report *r)
{
    const tally_comparison *worst = NULL;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            if (c->compared && c->comparison.verdict == TALLY_VERDICT_REGRESSION &&
                c->comparison.ratio_defined &&
                (worst == NULL || c->comparison.pct_imp < worst->pct_imp)) {
                worst = &c->comparison;
                *row = i;
                *config = j;
            }
        }
    return worst != NULL;
}

/* Units of time, in which a larger value is "slower". */
static int time_unit(const char *unit)
{
    static const char *const units[] = { "s", "ms", "us", "\xc2\xb5s", "ns", "sec", "sec/op",
                                         "ns/op", "seconds" };
    for (size_t i = 0; unit && i < TALLY__COUNT(units); i++)
        if (strcmp(unit, units[i]) == 0)
            return 1;
    return 0;
}

void tally__render_regression_size(tally__buf *b, const tally__row *row,
                                   const tally_comparison *cmp)
{
    tally__buf_printf(b, "%+.2f%%", cmp->pct_imp);
    /* Beyond -100 % a percentage no longer reads as a size: the new value is that many times
     * the baseline's (lower is better). */
    if (cmp->pct_imp <= -100 && cmp->direction == TALLY_LOWER_IS_BETTER)
        tally__buf_printf(b, " (%.2fx %s)", cmp->ratio,
                          time_unit(row->unit) ? "slower" : "the baseline");
    if (cmp->interval_defined)
        tally__buf_printf(b, " [%+.2f, %+.2f]", cmp->pct_low, cmp->pct_high);
}

void tally__render_change_factor(tally__buf *b, const tally__row *row,
                                 const tally_comparison *cmp, double min_factor)
{
    if (!cmp->ratio_defined || !(cmp->ratio > 0) || !isfinite(cmp->ratio))
        return;
    double factor = cmp->ratio >= 1 ? cmp->ratio : 1 / cmp->ratio;
    if (factor < min_factor)
        return;
    const char *word = time_unit(row->unit) ? (cmp->ratio > 1 ? "slower" : "faster")
                                            : (cmp->ratio > 1 ? "higher" : "lower");
    tally__buf_printf(b, " (%.2fx %s)", factor, word);
}

void tally__render_delta_note(tally__buf *b, const tally_report *r)
{
    char ci[32];
    tally__ci_label(ci, sizeof ci, r);
    tally__buf_puts(b, "delta: pct-imp (positive = better) with its ");
    if (strcmp(ci, "adj. CI") == 0)
        tally__buf_puts(b, "interval at the row's adjusted level");
    else
        tally__buf_printf(b, "%g%% interval", r->opts.confidence * 100);
    tally__buf_printf(b, "; ± is the half-width of the mean's %g%% interval; MDE: the change the "
                         "test detects with power %g.\n",
                      r->opts.confidence * 100, r->opts.power);
}

static const tally__row *first_percentile_row(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        if (r->rows[i].statistic == TALLY_STAT_PERCENTILE)
            return &r->rows[i];
    return NULL;
}

void tally__render_method_line(tally__buf *b, const tally_report *r)
{
    if (r->opts.test == TALLY_TEST_AUTO) {
        /* The statistics present, in enum order, each once. */
        unsigned seen = 0;
        for (size_t i = 0; i < r->row_count; i++)
            seen |= 1u << (unsigned)r->rows[i].statistic;
        tally__buf_puts(b, "auto test (");
        int first = 1;
        for (unsigned s = 0; s < 16; s++) {
            const char *d = (seen >> s) & 1u ? auto_description((tally_statistic)s) : NULL;
            if (d == NULL)
                continue;
            if (s == TALLY_STAT_PERCENTILE)
                /* One p per report: its rows name it and the method that estimates it. */
                tally__buf_printf(b, "%s%s by %s: Price-Bonett on the log ratio, order-statistic "
                                     "intervals",
                                  first ? "" : "; ", first_percentile_row(r)->stat_name,
                                  tally_percentile_method_name(r->opts.percentile_method));
            else
                tally__buf_printf(b, "%s%s", first ? "" : "; ", d);
            first = 0;
        }
        tally__buf_puts(b, ")");
    } else {
        tally__buf_printf(b, "%s test", tally_test_name(r->opts.test));
        if (r->opts.test == TALLY_TEST_MANN_WHITNEY)
            tally__buf_puts(b, " (its interval: Hodges-Lehmann, of the ratio of locations)");
        else if (r->opts.test == TALLY_TEST_PRICE_BONETT)
            tally__buf_puts(b, " (its interval: of the ratio of medians)");
        else if (r->opts.test != TALLY_TEST_NONE)
            tally__buf_puts(b, " (its interval: of the ratio of the tested means)");
    }
    if (tally__report_has_pooled(r) && !r->opts.independent_requests)
        tally__buf_puts(b, "; pooled histogram runs: t on the log ratio with cluster bootstrap "
                           "standard errors over runs");
    tally__buf_printf(b, ", alpha %g", r->opts.alpha);
    /* A verdict and its interval agree when the interval's level is 1 - alpha. */
    if (r->opts.test != TALLY_TEST_NONE && fabs(r->opts.confidence + r->opts.alpha - 1) > 1e-9)
        tally__buf_printf(b, " (intervals at %g %%, so an interval may exclude no change on a "
                             "row the test does not reject, or include it on one it does)",
                          r->opts.confidence * 100);
    if (r->opts.adjust != TALLY_ADJUST_NONE && r->opts.test != TALLY_TEST_MMTESTS_CI &&
        r->opts.test != TALLY_TEST_NONE)
        tally__buf_printf(b, ", p-values adjusted (%s) across the report and each interval of "
                             "the change at the adjusted level that agrees with its verdict "
                             "(%s)",
                          tally_adjust_name(r->opts.adjust),
                          r->opts.adjust == TALLY_ADJUST_HOLM ? "Holm: the level of its step"
                          : r->opts.adjust == TALLY_ADJUST_BH
                              ? "false coverage rate, Benjamini-Yekutieli"
                              : "Bonferroni: simultaneous");
    if (r->opts.equivalence_pct > 0)
        tally__buf_printf(b, ", equivalence margin ±%g %%", r->opts.equivalence_pct);
    /* The noise profile's margins, once per benchmark (rows are grouped by benchmark). */
    const char *sep = r->opts.equivalence_pct > 0
                          ? ", noise floors (the gate counts only losses beyond them): "
                          : ", noise floors (equivalence margins; the gate counts only losses "
                            "beyond them): ";
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        if (!(row->noise_pct > 0) || (i > 0 && strcmp(r->rows[i - 1].benchmark,
                                                      row->benchmark) == 0))
            continue;
        tally__buf_printf(b, "%s%s ±%g %%", sep, row->benchmark, row->noise_pct);
        sep = ", ";
    }
    tally__buf_puts(b, ".\n");
}

size_t tally__order_ci_need(char *what, size_t size, const tally__row *row, double confidence)
{
    if (row->statistic == TALLY_STAT_PERCENTILE) {
        snprintf(what, size, "%s", row->stat_name);
        return (size_t)tally__percentile_ci_min_n(row->percentile, confidence);
    }
    snprintf(what, size, "the median");
    return tally__median_ci_min_n(confidence);
}

void tally__render_insufficient_reason(tally__buf *b, const tally__row *row,
                                       const tally_comparison *c, double alpha)
{
    size_t nb = c->base_n, nc = c->new_n;
    const char *test = tally_test_name(c->test);
    char what[40];
    size_t need = tally__order_ci_need(what, sizeof what, row, c->confidence);
    if (c->test == TALLY_TEST_MANN_WHITNEY)
        tally__buf_printf(b, "%s with %zu and %zu runs reaches p = %.4g at best, not below "
                             "alpha %g", test, nb, nc, c->min_p, alpha);
    else if (c->test == TALLY_TEST_PRICE_BONETT && row->statistic == TALLY_STAT_PERCENTILE)
        tally__buf_printf(b, "%s needs the %g%% distribution-free interval of each side's %s, "
                             "so >= %zu runs per side, has %zu and %zu", test,
                          c->confidence * 100, what, need, nb, nc);
    else if (c->test == TALLY_TEST_CLUSTER_BOOTSTRAP)
        tally__buf_printf(b, "%s needs >= %d runs per side (the histogram runs' note gives "
                             "them)", test, TALLY__CLUSTER_MIN_RUNS);
    else if (c->test == TALLY_TEST_PRICE_BONETT)
        tally__buf_printf(b, "%s needs the %g%% interval of each median, so >= %zu runs per "
                             "side, has %zu and %zu", test, c->confidence * 100, need, nb, nc);
    else
        tally__buf_printf(b, "%s needs >= 2 runs per side, has %zu and %zu", test, nb, nc);
    size_t has = nb < nc ? nb : nc;
    if (c->runs_needed > has && c->runs_needed <= TALLY__RUNS_NEEDED_MAX)
        tally__buf_printf(b, "; ~%zu runs per side would resolve ±%g %%", c->runs_needed,
                          c->runs_target_pct);
}

void tally__render_runs_needed(tally__buf *b, const tally_comparison *cmp)
{
    size_t has = cmp->base_n < cmp->new_n ? cmp->base_n : cmp->new_n;
    if (cmp->runs_needed > TALLY__RUNS_NEEDED_MAX)
        tally__buf_printf(b, ": more than %zu runs per side to resolve ±%g %%",
                          (size_t)TALLY__RUNS_NEEDED_MAX, cmp->runs_target_pct);
    else if (cmp->runs_needed > has)
        tally__buf_printf(b, ": needs ~%zu more runs per side (%zu in all) to resolve ±%g %%",
                          cmp->runs_needed - has, cmp->runs_needed, cmp->runs_target_pct);
    else
        tally__buf_printf(b, ": its runs suffice to detect ±%g %% with power %g (~%zu per side)",
                          cmp->runs_target_pct, cmp->power, cmp->runs_needed);
}

void tally__render_verdict_text(tally__buf *b, const tally_comparison *cmp)
{
    const char *name = tally_verdict_name(cmp->verdict);
    if (cmp->verdict == TALLY_VERDICT_INSUFFICIENT) {
        tally__buf_puts(b, "insufficient [1]");
    } else if (cmp->verdict == TALLY_VERDICT_INCONCLUSIVE && cmp->runs_needed > 0) {
        tally__buf_puts(b, "inconclusive");
        tally__render_runs_needed(b, cmp);
    } else if (cmp->direction_conflict)
        tally__buf_puts(b, "inconclusive (the test disagrees with the shown change)");
    else if (cmp->verdict == TALLY_VERDICT_IDENTICAL || cmp->verdict == TALLY_VERDICT_WITHIN_NOISE)
        tally__buf_puts(b, tally__verdict_word(cmp->verdict));
    else if (cmp->verdict == TALLY_VERDICT_EQUIVALENT && cmp->equivalence_defined)
        /* The interval the verdict used (TOST's), which the delta column's does not show. */
        tally__buf_printf(b, "equivalent: TOST interval [%+.2f, %+.2f] inside ±%g %%",
                          cmp->equivalence_low, cmp->equivalence_high, cmp->equivalence_pct);
    else
        tally__buf_puts(b, name ? name : "?");
}

void tally__md_text(tally__buf *b, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (strchr("\\|*_`<>[]#", *p))
            tally__buf_puts(b, "\\");
        if (*p == '\n' || *p == '\r')
            tally__buf_puts(b, " ");
        else
            tally__buf_append(b, p, 1);
    }
}

void tally__csv_sep(tally__buf *b, int *first)
{
    if (!*first)
        tally__buf_puts(b, ",");
    *first = 0;
}

void tally__csv_text(tally__buf *b, int *first, const char *s)
{
    tally__csv_sep(b, first);
    if (s == NULL)
        return;
    /* A cell a spreadsheet would run as a formula (=, +, -, @ first, and not a number) gets a
     * leading apostrophe inside quotes, as OWASP recommends against CSV injection. */
    int formula = tally__csv_formula_like(s);
    if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
        tally__buf_puts(b, s);
        return;
    }
    tally__buf_puts(b, formula ? "\"'" : "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            tally__buf_puts(b, "\""); /* a quote inside a quoted field is doubled */
        tally__buf_append(b, p, 1);
    }
    tally__buf_puts(b, "\"");
}

size_t tally__case_prefix(const tally_report *r, const tally__group *g)
{
    if (g->count < 2)
        return 0;
    const char *first = r->rows[g->first].case_name;
    size_t n = strlen(first);
    for (size_t i = g->first + 1; i < g->first + g->count && n > 0; i++) {
        const char *name = r->rows[i].case_name;
        size_t k = 0;
        while (k < n && name[k] == first[k])
            k++;
        n = k;
    }
    while (n > 0 && !strchr("/-_:. ", first[n - 1]))
        n--;
    for (size_t i = g->first; i < g->first + g->count && n > 0; i++)
        if (r->rows[i].case_name[n] == '\0')
            return 0;
    return n;
}

size_t tally__case_suffix(const tally_report *r, const tally__group *g, size_t prefix)
{
    if (g->count < 2)
        return 0;
    const char *first = r->rows[g->first].case_name;
    size_t len = strlen(first), n = len - prefix;
    for (size_t i = g->first + 1; i < g->first + g->count && n > 0; i++) {
        const char *name = r->rows[i].case_name;
        size_t ln = strlen(name), k = 0;
        while (k < n && k < ln - prefix && name[ln - 1 - k] == first[len - 1 - k])
            k++;
        n = k;
    }
    /* From a separator on: "-2" of "align=0-2", "-streams" of "4-streams"; never from a
     * "." (the ".5" of "0.5" and "1.5") or a "_" (the "_time" of "real_time", "cpu_time"). */
    while (n > 0 && !strchr("/-: ", first[len - n]))
        n--;
    for (size_t i = g->first; i < g->first + g->count && n > 0; i++)
        if (strlen(r->rows[i].case_name) <= prefix + n)
            return 0;
    return n;
}

/* Columns of the first n bytes of s: UTF-8 lead bytes, colour codes (ESC [ ... m) left out. */
static size_t shown_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
            while (i < n && s[i] != 'm')
                i++;
            continue;
        }
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    }
    return w;
}

void tally__reflow(tally__buf *b, size_t start, size_t width)
{
    if (b->failed || b->len <= start || width < 20)
        return;
    tally__buf out = TALLY__BUF_INIT;
    const char *p = b->data + start, *end = b->data + b->len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *stop = eol ? eol : end;
        /* A continuation goes two columns further in than its line: a note's detail lines
         * ("    bench/case, config: ...") keep reading as one item. */
        size_t lead = strspn(p, " "), indent = 0;
        while (stop - p > 0 && shown_width(p, (size_t)(stop - p)) + indent > width) {
            /* The last space that keeps the piece within the width (past the indentation). */
            const char *cut = NULL;
            for (const char *q = p + (indent ? 0 : lead); q < stop; q++)
                if (*q == ' ' && q > p && shown_width(p, (size_t)(q - p)) + indent <= width)
                    cut = q;
            if (cut == NULL)
                break;
            tally__buf_append(&out, p, (size_t)(cut - p));
            tally__buf_puts(&out, "\n");
            p = cut + 1;
            indent = lead + 2 < width / 2 ? lead + 2 : 2;
            tally__buf_pad(&out, indent);
        }
        tally__buf_append(&out, p, (size_t)(stop - p));
        if (eol)
            tally__buf_puts(&out, "\n");
        p = eol ? eol + 1 : end;
    }
    b->len = start;
    if (out.failed)
        b->failed = 1;
    else
        tally__buf_append(b, out.data ? out.data : "", out.len);
    tally__buf_dispose(&out);
}
