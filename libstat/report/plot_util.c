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

int tally__plot_shorten(char *out, size_t size, const char *s, double max_px, double px)
{
    size_t len = strlen(s);
    if (tally__svg_text_width(s, px) <= max_px && len < size) {
        memcpy(out, s, len + 1);
        return 0;
    }
    /* Characters the ellipsis leaves room for, split between head and tail (the tail keeps
     * the case's last, most specific part). */
    size_t chars = 0;
    for (size_t k = 0; k < len; k++)
        chars += ((unsigned char)s[k] & 0xC0) != 0x80;
    double per_char = tally__svg_text_width("x", px);
    size_t keep = max_px > per_char ? (size_t)(max_px / per_char) - 1 : 1;
    /* The output holds the kept bytes (4 per character at most) and the ellipsis. */
    while (keep > 1 && keep * 4 + 4 > size)
        keep--;
    if (keep >= chars)
        keep = chars > 1 ? chars - 1 : 1;
    size_t head = keep / 2, tail = keep - head;
    size_t hb = 0;
    for (size_t c = 0; c < head && hb < len; c++) {
        hb++;
        while (hb < len && ((unsigned char)s[hb] & 0xC0) == 0x80)
            hb++;
    }
    size_t tb = len;
    for (size_t c = 0; c < tail && tb > hb; c++) {
        tb--;
        while (tb > hb && ((unsigned char)s[tb] & 0xC0) == 0x80)
            tb--;
    }
    tally__snprintf_c(out, size, "%.*s\xe2\x80\xa6%s", (int)hb, s, s + tb);
    return 1;
}

void tally__plot_case_label(tally__buf *b, const char *cls, double x, double y,
                            const char *anchor, const char *shown, const char *full, int rotate)
{
    tally__buf_printf(b, "<text class=\"%s\" x=\"", cls);
    tally__svg_num(b, x);
    tally__buf_puts(b, "\" y=\"");
    tally__svg_num(b, y);
    tally__buf_printf(b, "\" text-anchor=\"%s\"", anchor);
    if (rotate) {
        tally__buf_puts(b, " transform=\"rotate(-90 ");
        tally__svg_num(b, x);
        tally__buf_puts(b, " ");
        tally__svg_num(b, y);
        tally__buf_puts(b, ")\"");
    }
    tally__buf_puts(b, ">");
    tally__svg_text(b, shown);
    if (strcmp(shown, full) != 0) {
        tally__buf_puts(b, "<title>");
        tally__svg_text(b, full);
        tally__buf_puts(b, "</title>");
    }
    tally__buf_puts(b, "</text>");
}

/* The word after a case's number ("groups" of "16-groups", "" of "16"), or NULL when the case
 * is not named by a number. */
static const char *number_word(const char *name)
{
    double v;
    if (!tally__case_number(&v, name))
        return NULL;
    const char *p = name + (*name == '-');
    while ((*p >= '0' && *p <= '9') || *p == '.')
        p++;
    while (*p == '-' || *p == '_' || *p == ' ')
        p++;
    return p;
}

/* The value of key `key` (length klen) in a name of key=value parts separated by '/', as
 * [*v, *v + *vlen); 0 when the name has no such part. */
static int part_value(const char **v, size_t *vlen, const char *name, const char *key,
                      size_t klen)
{
    for (const char *p = name; *p;) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > klen && memcmp(p, key, klen) == 0 && p[klen] == '=') {
            *v = p + klen + 1;
            *vlen = len - klen - 1;
            return 1;
        }
        p += len + (end != NULL);
    }
    return 0;
}

void tally__case_axis_title(char *out, size_t size, const tally_report *r, const tally__group *g)
{
    const char *given = tally__report_case_label(r, r->rows[g->first].benchmark);
    if (strcmp(given, "Case") != 0 && given[0]) { /* "Case" is the unset default */
        tally__snprintf_c(out, size, "%s", given);
        return;
    }
    const char *word = number_word(r->rows[g->first].case_name);
    for (size_t i = g->first + 1; word && word[0] && i < g->first + g->count; i++) {
        const char *w = number_word(r->rows[i].case_name);
        if (w == NULL || strcmp(w, word) != 0)
            word = NULL;
    }
    if (word && word[0]) {
        tally__snprintf_c(out, size, "%s", word);
        return;
    }
    /* The keys of the first case's key=value parts whose values differ between cases. */
    tally__buf keys = TALLY__BUF_INIT;
    const char *first = r->rows[g->first].case_name;
    for (const char *p = first; *p;) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq && eq > p) {
            size_t klen = (size_t)(eq - p);
            const char *v0 = eq + 1, *v;
            size_t v0len = len - klen - 1, vlen;
            int differs = 0;
            for (size_t i = g->first + 1; i < g->first + g->count && !differs; i++)
                differs = !part_value(&v, &vlen, r->rows[i].case_name, p, klen) ||
                          vlen != v0len || memcmp(v, v0, vlen) != 0;
            if (differs) {
                tally__buf_puts(&keys, keys.len ? " / " : "");
                tally__buf_append(&keys, p, klen);
            }
        }
        p += len + (end != NULL);
    }
    tally__snprintf_c(out, size, "%s", keys.len && !keys.failed ? keys.data : "case");
    tally__buf_dispose(&keys);
}
