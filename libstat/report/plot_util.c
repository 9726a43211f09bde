/* Helpers shared by the plots (report/plot.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"

int tally__case_number(double *out, const char *case_name)
{
    const char *p = case_name;
    if (!((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9') || *p == '.'))
        return 0;
    /* Digits, one point and digits; no exponent, so "1e" names stay names. */
    char digits[64];
    size_t k = 0;
    if (*p == '-')
        digits[k++] = *p++;
    int point = 0, any = 0;
    while (k + 1 < sizeof(digits) && ((*p >= '0' && *p <= '9') || (*p == '.' && !point))) {
        point |= *p == '.';
        any |= *p != '.';
        digits[k++] = *p++;
    }
    digits[k] = '\0';
    if (!any || (*p != '\0' && *p != '-' && *p != ' ' && *p != '_' && !(*p >= 'a' && *p <= 'z') &&
                 !(*p >= 'A' && *p <= 'Z')))
        return 0;
    double v = 0, scale = 1;
    int neg = digits[0] == '-', frac = 0;
    for (const char *d = digits + neg; *d; d++) {
        if (*d == '.') {
            frac = 1;
            continue;
        }
        if (frac)
            v += (*d - '0') * (scale /= 10);
        else
            v = v * 10 + (*d - '0');
    }
    *out = neg ? -v : v;
    return isfinite(*out);
}

double tally__config_label_width(const tally_report *r, double px, double lo, double hi)
{
    double w = 0;
    for (size_t j = 0; j < r->config_count; j++)
        w = fmax(w, tally__svg_text_width(r->configs[j].label, px));
    return fmin(fmax(w, lo), hi);
}

void tally__plot_value(char *out, size_t size, double v, const char *unit)
{
    tally__si_format(out, size, v, 4, unit);
}

void tally__plot_open(tally__buf *b, const char *kind, double width, double height,
                      const char *title, tally__buf *desc)
{
    if (desc->failed)
        b->failed = 1;
    tally__svg_open(b, kind, width, height, title, desc->data && !desc->failed ? desc->data : "");
    tally__buf_dispose(desc);
}

const char *tally__verdict_class(tally_verdict v)
{
    switch (v) {
    case TALLY_VERDICT_IMPROVEMENT: return "v-imp";
    case TALLY_VERDICT_REGRESSION: return "v-reg";
    case TALLY_VERDICT_INSUFFICIENT: return "v-insuf";
    case TALLY_VERDICT_EQUIVALENT: return "v-equiv";
    case TALLY_VERDICT_NOT_TESTED: return "v-nt";
    case TALLY_VERDICT_IDENTICAL: return "v-same";
    case TALLY_VERDICT_WITHIN_NOISE: return "v-noise";
    case TALLY_VERDICT_INCONCLUSIVE: break;
    }
    return "v-none";
}

int tally__row_sample_range(double *lo, double *hi, size_t *nmax, const tally_report *r,
                            const tally__row *row)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    *nmax = 0;
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        if (!c->pub.present || c->samples == NULL || c->n == 0)
            continue;
        *lo = fmin(*lo, c->pub.summary.min);
        *hi = fmax(*hi, c->pub.summary.max);
        if (c->n > *nmax)
            *nmax = c->n;
    }
    return *nmax > 0;
}
