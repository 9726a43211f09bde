/* Compact distributions after a text report (render option `histogram`): per case a line per
 * configuration of block characters (Unicode eighths, or ASCII), all configurations of a case
 * binned on one shared range so their positions compare, within the given width. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"

#define MIN_BARS 10
#define MAX_LABEL 32

static const char *const unicode_levels[9] = {
    " ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
    "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"};
static const char *const ascii_levels[9] = {" ", ".", ":", "-", "=", "+", "*", "#", "@"};

static size_t display_width(const char *s)
{
    size_t w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        w += (*p & 0xC0) != 0x80;
    return w;
}

/* The first `max` characters of s (whole UTF-8 sequences). */
static void put_cut(tally__buf *b, const char *s, size_t max)
{
    size_t bytes = 0, chars = 0;
    while (s[bytes] && chars < max) {
        bytes++;
        while ((s[bytes] & 0xC0) == 0x80)
            bytes++;
        chars++;
    }
    tally__buf_append(b, s, bytes);
    tally__buf_pad(b, max - chars);
}

static void render_case(tally__buf *b, const tally_report *r, const tally_render_options *o,
                        const tally__row *row, const tally__si *si, size_t *counts, size_t bars,
                        size_t label_w, size_t width)
{
    const char *const *levels = o->ascii ? ascii_levels : unicode_levels;
    double lo, hi;
    size_t nmax;
    tally__row_sample_range(&lo, &hi, &nmax, r, row);
    /* The case's name, cut to the width like every other line. */
    tally__buf name = TALLY__BUF_INIT;
    tally__buf_printf(&name, "%s %s", row->benchmark, row->case_name);
    if (name.failed)
        b->failed = 1;
    else
        put_cut(b, name.data, display_width(name.data) < width ? display_width(name.data) : width);
    tally__buf_dispose(&name);
    tally__buf_end_line(b);
    size_t max_count = 0;
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        size_t *k = counts + j * bars;
        memset(k, 0, bars * sizeof(*k));
        if (!c->pub.present || !c->samples)
            continue;
        for (size_t i = 0; i < c->n; i++) {
            size_t bin = hi > lo ? (size_t)((c->samples[i] - lo) / (hi - lo) * (double)bars) : bars / 2;
            if (bin >= bars)
                bin = bars - 1;
            if (++k[bin] > max_count)
                max_count = k[bin];
        }
    }
    const char *edge = o->ascii ? "|" : "\xe2\x94\x82";
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        tally__buf_puts(b, "  ");
        put_cut(b, r->configs[j].label, label_w);
        tally__buf_puts(b, " ");
        if (!c->pub.present || !c->samples) {
            tally__buf_puts(b, "(missing)");
            tally__buf_end_line(b);
            continue;
        }
        tally__buf_puts(b, edge);
        for (size_t k = 0; k < bars; k++) {
            size_t n = counts[j * bars + k];
            /* Any run shows: one run is at least the lowest block. */
            size_t level = n == 0 ? 0 : (size_t)ceil(8.0 * (double)n / (double)max_count);
            tally__buf_puts(b, levels[level > 8 ? 8 : level]);
        }
        tally__buf_puts(b, edge);
        tally__buf_printf(b, " n=%zu", c->n);
        tally__buf_end_line(b);
    }
    /* The range under the bars: its low end at the left edge, its high end at the right. */
    /* In the prefixed unit and with the decimals of the table above (the benchmark's unit,
     * the row's digits), so "4400 ms" of the table is not "4.400 s" here. */
    tally__numfmt f;
    tally__row_numfmt(&f, r, row, si, o->precision);
    char a[80], z[80];
    size_t la = tally__numfmt_number(a, sizeof(a), &f, lo);
    size_t lz = tally__numfmt_number(z, sizeof(z), &f, hi);
    if (f.si.unit[0]) {
        snprintf(a + la, sizeof(a) - la, " %s", f.si.unit);
        snprintf(z + lz, sizeof(z) - lz, " %s", f.si.unit);
    }
    size_t start = 2 + label_w + 1, wa = display_width(a), wz = display_width(z);
    tally__buf_pad(b, start);
    tally__buf_puts(b, a);
    size_t span = bars + 2;
    tally__buf_pad(b, span > wa + wz + 1 ? span - wa - wz : 1);
    tally__buf_puts(b, z);
    tally__buf_end_line(b);
}

int tally__render_histograms(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    int any = 0;
    for (size_t i = 0; i < r->row_count && !any; i++)
        for (size_t j = 0; j < r->config_count && !any; j++)
            any = r->rows[i].cells[j].samples != NULL;
    if (!any)
        return tally__error(TALLY_EINVAL, "histograms need the raw samples, and this report "
                                          "was made without them (omit_samples)");
    size_t width = o->width > 0 ? (size_t)o->width : 80;
    size_t label_w = 1;
    for (size_t j = 0; j < r->config_count; j++) {
        size_t w = display_width(r->configs[j].label);
        if (w > label_w)
            label_w = w;
    }
    if (label_w > MAX_LABEL)
        label_w = MAX_LABEL;
    /* "  label |bars| n=NNNN": 2 + label + 1 + 2 edges + 7. */
    size_t fixed = 2 + label_w + 1 + 2 + 7;
    size_t bars = width > fixed + MIN_BARS ? width - fixed : MIN_BARS;
    size_t *counts = tally__calloc(r->config_count * bars, sizeof(size_t));
    if (counts == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    tally__buf_puts(b, "\nDistributions (runs per bin):\n");
    size_t pos = 0;
    tally__group g;
    while (tally__report_next_group(&g, r, &pos)) {
        tally__si si;
        tally__group_si(&si, r, &g);
        for (size_t i = g.first; i < g.first + g.count; i++) {
            tally__buf_puts(b, "\n");
            render_case(b, r, o, &r->rows[i], &si, counts, bars, label_w, width);
        }
    }
    tally__free_mem(counts);
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}
