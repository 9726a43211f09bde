/* The drawing module of the HTML report: SVG primitives written into a text buffer, linear and
 * logarithmic scales, nice ticks, and axes whose labels carry SI prefixes. Every plot of
 * report/plot_*.c is built from these; docs/internals/SVG.md describes the output structure
 * (the classes the tests and the stylesheet rely on). Coordinates are written with one decimal
 * and no locale; text is escaped for HTML and XML alike. */
#ifndef TALLY_SVG_H
#define TALLY_SVG_H

#include <stddef.h>

#include "util/internal.h"
#include "util/si.h"

/* A map from data values [d0, d1] to pixels [r0, r1]; `log`: logarithmic (d0, d1 > 0). */
typedef struct tally__svg_scale {
    double d0, d1;
    double r0, r1;
    int log;
} tally__svg_scale;

double tally__svg_scale_map(const tally__svg_scale *s, double v);

/* Nice ticks (Heckbert 1990): a step of 1, 2 or 5 times a power of ten giving about `target`
 * ticks, and the data range widened to whole steps [lo, hi]. */
typedef struct tally__ticks {
    double lo, hi, step;
    int count; /* ticks at lo, lo + step, ..., hi */
} tally__ticks;

/* min > max is swapped; min == max is widened around the value. Non-finite input gives [0, 1]. */
void tally__nice_ticks(tally__ticks *t, double min, double max, int target);

/* "1, 2, 5 times 10^k" not below x (round = 0) or nearest to x (round = 1). */
double tally__nice_number(double x, int round);

/* An axis: a line along the plot edge, ticks with labels, optional grid lines across the plot
 * and a title "title (unit)" where the unit carries the SI prefix chosen for the labels. */
typedef struct tally__axis {
    int vertical;             /* 0: horizontal axis at y = pos; 1: vertical axis at x = pos */
    tally__svg_scale scale;
    tally__ticks ticks;       /* used when `values` is NULL */
    const double *values;     /* explicit tick positions (data values), or NULL */
    const char *const *labels;/* their labels (escaped when written), with `values` */
    size_t value_count;
    double pos;
    double grid;              /* length of grid lines into the plot (0: none) */
    const char *title;        /* quantity shown, e.g. "AMean"; NULL: none */
    const char *unit;         /* unit of the values, SI-prefixed in the title; NULL: none */
    int prefix;               /* 1: scale labels by an SI prefix of `unit` */
    const tally__si *si;      /* with prefix: this prefix (the benchmark's, as its table shows
                                 the values); NULL: the prefix fitting the axis range */
    double title_pos;         /* x of a horizontal axis' title / y of a vertical one */
} tally__axis;

/* Text escaped for HTML and XML: & < > " ' as references, invalid UTF-8 and control characters
 * as U+FFFD, so any input label stays text and every SVG stays well-formed. */
void tally__svg_text(tally__buf *b, const char *s);

/* Estimated width in pixels of s in the plots' font of size `px` (characters, not bytes). */
double tally__svg_text_width(const char *s, double px);

/* A coordinate rounded to one decimal, without locale ("12.5", "-3", "140"). */
void tally__svg_num(tally__buf *b, double v);

/* `<svg class="plot KIND" ...>` with its `<title>` and `<desc>` (escaped) first, as the
 * accessible name and description; close with tally__svg_close(). */
void tally__svg_open(tally__buf *b, const char *kind, double width, double height,
                     const char *title, const char *desc);
void tally__svg_close(tally__buf *b);

/* A label: `<text class="CLS" x y text-anchor>`; anchor "start", "middle" or "end". */
void tally__svg_label(tally__buf *b, const char *cls, double x, double y, const char *anchor,
                      const char *text);

/* An axis as `<g class="axis x|y">`: domain line, `<g class="tick">` per tick (line and label),
 * grid lines as one `<path class="grid">`, and the title `<text class="axis-title">`. */
void tally__svg_axis(tally__buf *b, const tally__axis *a);

/* Label of value v on an axis with the given step, SI prefix and unit: as few decimals as the
 * step needs, without locale. */
void tally__axis_label(char *out, size_t size, double v, double step, const tally__si *si);

/* Marks as one `<path class="CLS">` each: dots (zero-length segments with round caps, drawn
 * by the stylesheet's stroke width), and polylines. Start with tally__svg_path_open(), add
 * points, close with tally__svg_path_close(). */
void tally__svg_path_open(tally__buf *b, const char *cls);
void tally__svg_dot(tally__buf *b, double x, double y);            /* "Mx yh0" */
void tally__svg_move(tally__buf *b, double x, double y);           /* "Mx y" */
void tally__svg_line_to(tally__buf *b, double x, double y);        /* " x y" (implicit lineto) */
void tally__svg_vline(tally__buf *b, double x, double y0, double y1); /* "Mx y0V y1" */
void tally__svg_hline(tally__buf *b, double x0, double x1, double y); /* "Mx0 yH x1" */
void tally__svg_path_close(tally__buf *b);

/* `<rect class="CLS">` from corners (any order). */
void tally__svg_rect(tally__buf *b, const char *cls, double x0, double y0, double x1, double y1);

#endif /* TALLY_SVG_H */
