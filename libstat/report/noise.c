/* Noise profiles (include/tally/noise.h): the profile's accessors and the margins a report takes
 * from a profile (report option `noise`). The A/A calibration that builds a profile from a
 * report is in calibrate.c, the file format in noise_file.c. */
#include <string.h>

#include "report/noise_internal.h"
#include "util/result.h"

void tally_noise_free(tally_noise *noise)
{
    if (noise == NULL)
        return;
    for (size_t i = 0; i < noise->count; i++)
        tally__free_mem((char *)noise->b[i].name);
    tally__free_mem(noise->b);
    tally__free_mem(noise);
}

int tally__noise_add(tally_noise *noise, const tally_noise_benchmark *b)
{
    tally_noise_benchmark *grown =
        tally__reallocarray(noise->b, noise->count + 1, sizeof(*grown));
    if (grown == NULL)
        return tally__oom();
    noise->b = grown;
    char *name = tally__strdup(b->name);
    if (name == NULL)
        return tally__oom();
    grown[noise->count] = *b;
    grown[noise->count].size = sizeof *grown;
    grown[noise->count].name = name;
    noise->count++;
    return TALLY_OK;
}

const tally_noise_benchmark *tally__noise_find(const tally_noise *noise, const char *benchmark)
{
    for (size_t i = 0; noise && i < noise->count; i++)
        if (strcmp(noise->b[i].name, benchmark) == 0)
            return &noise->b[i];
    return NULL;
}

size_t tally_noise_benchmark_count(const tally_noise *noise)
{
    return noise ? noise->count : 0;
}

int tally_noise_benchmark_at(tally_noise_benchmark *out, const tally_noise *noise, size_t i)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_noise_benchmark");
    if (rc)
        return rc;
    if (noise == NULL || i >= noise->count)
        return tally__error(TALLY_EINVAL, "tally_noise_benchmark_at: invalid argument");
    tally__result_put(out, size, &noise->b[i], sizeof noise->b[i]);
    return TALLY_OK;
}

int tally_noise_margin(double *out_pct, const tally_noise *noise, const char *benchmark)
{
    if (out_pct == NULL || noise == NULL || benchmark == NULL)
        return tally__error(TALLY_EINVAL, "tally_noise_margin: NULL argument");
    const tally_noise_benchmark *b = tally__noise_find(noise, benchmark);
    if (b == NULL)
        return tally__error(TALLY_ENOTFOUND, "the noise profile has no benchmark '%s'",
                            benchmark);
    *out_pct = b->margin_pct;
    return TALLY_OK;
}

void tally__report_noise_margins(tally_report *r)
{
    const tally_noise *noise = r->opts.noise;
    for (size_t i = 0; i < r->row_count; i++) {
        const tally_noise_benchmark *b = tally__noise_find(noise, r->rows[i].benchmark);
        r->rows[i].noise_pct = b ? b->margin_pct : 0;
    }
}

double tally__row_equivalence_pct(const tally_report *r, const tally__row *row)
{
    return r->opts.equivalence_pct > 0 ? r->opts.equivalence_pct : row->noise_pct;
}

int tally__report_has_margin(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        if (tally__row_equivalence_pct(r, &r->rows[i]) > 0)
            return 1;
    return 0;
}
