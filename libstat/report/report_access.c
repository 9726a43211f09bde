/* Read access to a finished report: configurations, rows, cells, and the figures across rows. */
#include "report/report_internal.h"

size_t tally_report_config_count(const tally_report *r)
{
    return r ? r->config_count : 0;
}

const char *tally_report_config_label(const tally_report *r, size_t i)
{
    return r && i < r->config_count ? r->configs[i].label : NULL;
}

size_t tally_report_row_count(const tally_report *r)
{
    return r ? r->row_count : 0;
}

int tally_report_row_get(tally_report_row *out, const tally_report *r, size_t i)
{
    if (out == NULL || r == NULL || i >= r->row_count)
        return tally__error(TALLY_EINVAL, "tally_report_row_get: row %zu out of range", i);
    const tally__row *row = &r->rows[i];
    out->benchmark = row->benchmark;
    out->case_name = row->case_name;
    out->unit = row->unit;
    out->direction = row->direction;
    out->statistic = row->statistic;
    return TALLY_OK;
}

int tally_report_cell_get(tally_report_cell *out, const tally_report *r, size_t row,
                          size_t config)
{
    if (out == NULL || r == NULL || row >= r->row_count || config >= r->config_count)
        return tally__error(TALLY_EINVAL, "tally_report_cell_get: cell (%zu, %zu) out of range",
                            row, config);
    *out = r->rows[row].cells[config].pub;
    return TALLY_OK;
}

int tally_report_geomean(double *out, const tally_report *r, size_t config)
{
    if (out == NULL || r == NULL || config >= r->config_count)
        return tally__error(TALLY_EINVAL, "tally_report_geomean: invalid argument");
    if (config == 0)
        return tally__error(TALLY_ENODATA, "the baseline has no ratio against itself");
    double *ratios = tally__reallocarray(NULL, r->row_count, sizeof(double));
    if (ratios == NULL)
        return tally__oom();
    size_t count = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__cell *base = &r->rows[i].cells[0], *cur = &r->rows[i].cells[config];
        if (base->value_defined && cur->value_defined && base->pub.value != 0)
            ratios[count++] = cur->pub.value / base->pub.value;
    }
    int rc = count ? tally_geomean_ratio(out, ratios, count)
                   : tally__error(TALLY_ENODATA, "'%s' shares no rows with the baseline",
                                  r->configs[config].label);
    tally__free_mem(ratios);
    return rc;
}

int tally_report_worst_regression(double *out_pct, const tally_report *r)
{
    if (out_pct == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_worst_regression: NULL argument");
    double worst = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally_report_cell *c = &r->rows[i].cells[j].pub;
            if (c->compared && c->comparison.verdict == TALLY_VERDICT_REGRESSION &&
                -c->comparison.pct_imp > worst)
                worst = -c->comparison.pct_imp;
        }
    *out_pct = worst;
    return TALLY_OK;
}
