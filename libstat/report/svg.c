/* SVG primitives, scales, nice ticks and axes for the HTML report's plots (see svg.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/svg.h"

double tally__svg_scale_map(const tally__svg_scale *s, double v)
{
    double a = s->d0, z = s->d1;
    if (s->log) {
        a = log(a);
        z = log(z);
        v = v > 0 ? log(v) : a;
    }
    if (z == a)
        return (s->r0 + s->r1) / 2;
    return s->r0 + (v - a) * (s->r1 - s->r0) / (z - a);
}

double tally__nice_number(double x, int round)
{
    if (!(x > 0) || !isfinite(x))
        return 1;
    double e = floor(log10(x));
    double f = x / pow(10, e), nice;
    if (round)
        nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    else
        nice = f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10; /* 2.1 - 1.9 is 0.2 */
    return nice * pow(10, e);
}

void tally__nice_ticks(tally__ticks *t, double min, double max, int target)
{
    if (!isfinite(min) || !isfinite(max)) {
        min = 0;
        max = 1;
    }
    if (min > max) {
        double s = min;
        min = max;
        max = s;
    }
    if (min == max) {
        double pad = min != 0 ? fabs(min) * 0.05 : 1;
        min -= pad;
        max += pad;
    }
    if (target < 2)
        target = 2;
    if (!isfinite(max - min)) {
        /* Data spanning more than the double range (-1e308 .. 1e308): no nice step exists;
         * three ticks at the ends and the middle, each step half the span (finite). */
        t->step = max / 2 - min / 2;
        t->lo = min;
        t->hi = max;
        t->count = 3;
        return;
    }
    double range = tally__nice_number(max - min, 0);
    double step = tally__nice_number(range / (target - 1), 1);
    t->step = step;
    /* Whole steps around the data, forgiving the rounding of min / step (1.9 / 0.05 is
     * 37.99999...): a bound within a millionth of a step of the data counts as on it. */
    t->lo = floor(min / step + 1e-6) * step;
    t->hi = ceil(max / step - 1e-6) * step;
    double steps = floor((t->hi - t->lo) / step + 0.5);
    /* Rounding at the ends of the double range can leave a bound non-finite: keep the count a
     * small finite number whatever happens. */
    t->count = steps >= 0 && steps < 1000 ? (int)steps + 1 : 2;
}

double tally__svg_text_width(const char *s, double px)
{
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        chars += (*p & 0xC0) != 0x80;
    return (double)chars * px * 0.6;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when it is not valid. */
static size_t utf8_length(const unsigned char *p)
{
    unsigned c = p[0];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                                : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || (len == 2 && c < 0xC2) || (len == 4 && c > 0xF4))
        return 0;
    for (size_t k = 1; k < len; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    if (len == 3) {
        unsigned cp = ((c & 0x0F) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
        if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
    }
    if (len == 4) {
        unsigned cp = ((c & 0x07) << 18) | ((p[1] & 0x3Fu) << 12);
        if (cp < 0x10000 || cp > 0x10FFFF)
            return 0;
    }
    return len;
}

void tally__svg_text(tally__buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        const unsigned char *run = p;
        while (*p && *p >= 0x20 && *p < 0x80 && !strchr("&<>\"'", *p))
            p++;
        if (p > run)
            tally__buf_append(b, (const char *)run, (size_t)(p - run));
        if (!*p)
            break;
        switch (*p) {
        case '&': tally__buf_puts(b, "&amp;"); p++; continue;
        case '<': tally__buf_puts(b, "&lt;"); p++; continue;
        case '>': tally__buf_puts(b, "&gt;"); p++; continue;
        case '"': tally__buf_puts(b, "&quot;"); p++; continue;
        case '\'': tally__buf_puts(b, "&#39;"); p++; continue;
        case '\t': case '\n': case '\r': tally__buf_puts(b, " "); p++; continue;
        default: break;
        }
        size_t len = *p < 0x20 || *p == 0x7F ? 0 : utf8_length(p);
        if (len == 0) {
            tally__buf_puts(b, "\xEF\xBF\xBD"); /* U+FFFD */
            p++;
        } else {
            tally__buf_append(b, (const char *)p, len);
            p += len;
        }
    }
}

void tally__svg_num(tally__buf *b, double v)
{
    char text[32];
    char *end = text + sizeof(text), *p = end;
    if (!isfinite(v))
        v = 0;
    if (v > 1e9)
        v = 1e9;
    if (v < -1e9)
        v = -1e9;
    long long tenths = llround(v * 10);
    int negative = tenths < 0;
    unsigned long long u = (unsigned long long)(negative ? -tenths : tenths);
    if (u % 10) {
        *--p = (char)('0' + u % 10);
        *--p = '.';
    }
    u /= 10;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (negative)
        *--p = '-';
    tally__buf_append(b, p, (size_t)(end - p));
}

void tally__svg_open(tally__buf *b, const char *kind, double width, double height,
                     const char *title, const char *desc)
{
    tally__buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot %s\" "
                         "role=\"img\" viewBox=\"0 0 ", kind);
    tally__svg_num(b, width);
    tally__buf_puts(b, " ");
    tally__svg_num(b, height);
    tally__buf_puts(b, "\" width=\"");
    tally__svg_num(b, width);
    tally__buf_puts(b, "\" height=\"");
    tally__svg_num(b, height);
    tally__buf_puts(b, "\"><title>");
    tally__svg_text(b, title);
    tally__buf_puts(b, "</title><desc>");
    tally__svg_text(b, desc);
    tally__buf_puts(b, "</desc>\n");
}

void tally__svg_close(tally__buf *b)
{
    tally__buf_puts(b, "</svg>\n");
}

void tally__svg_label(tally__buf *b, const char *cls, double x, double y, const char *anchor,
                      const char *text)
{
    tally__buf_printf(b, "<text class=\"%s\" x=\"", cls);
    tally__svg_num(b, x);
    tally__buf_puts(b, "\" y=\"");
    tally__svg_num(b, y);
    if (strcmp(anchor, "start") != 0)
        tally__buf_printf(b, "\" text-anchor=\"%s", anchor);
    tally__buf_puts(b, "\">");
    tally__svg_text(b, text);
    tally__buf_puts(b, "</text>");
}

void tally__axis_label(char *out, size_t size, double v, double step, const tally__si *si)
{
    double shown = v / si->factor, shown_step = step / si->factor;
    int decimals = 0;
    if (shown_step > 0 && isfinite(shown_step)) {
        double d = ceil(-log10(shown_step) - 1e-9);
        decimals = d > 0 ? (int)d : 0;
        /* A step of 2.5 or 0.25 needs one more decimal than its power of ten. */
        double scaled = shown_step * pow(10, decimals);
        if (fabs(scaled - floor(scaled + 0.5)) > 1e-6)
            decimals++;
        if (decimals > 12)
            decimals = 12;
    }
    if (fabs(shown) < shown_step * 1e-6)
        shown = 0; /* no "-0" or "1e-17" at the origin */
    tally__snprintf_c(out, size, "%.*f", decimals, shown);
    for (char *p = out; *p; p++)
        if (*p == ',')
            *p = '.'; /* the decimal separator of a non-C LC_NUMERIC */
}

static void axis_title(tally__buf *b, const tally__axis *a, const tally__si *si, double x,
                       double y)
{
    if (a->title == NULL && (a->unit == NULL || a->unit[0] == '\0'))
        return;
    tally__buf_puts(b, "<text class=\"axis-title\" x=\"");
    tally__svg_num(b, x);
    tally__buf_puts(b, "\" y=\"");
    tally__svg_num(b, y);
    tally__buf_puts(b, "\" text-anchor=\"middle\"");
    if (a->vertical) {
        tally__buf_puts(b, " transform=\"rotate(-90 ");
        tally__svg_num(b, x);
        tally__buf_puts(b, " ");
        tally__svg_num(b, y);
        tally__buf_puts(b, ")\"");
    }
    tally__buf_puts(b, ">");
    const char *unit = si->unit;
    if (a->title)
        tally__svg_text(b, a->title);
    if (unit[0]) {
        tally__buf_puts(b, a->title ? " (" : "");
        tally__svg_text(b, unit);
        tally__buf_puts(b, a->title ? ")" : "");
    }
    tally__buf_puts(b, "</text>");
}

static void tick(tally__buf *b, const tally__axis *a, double v, const char *label)
{
    double at = tally__svg_scale_map(&a->scale, v);
    tally__buf_puts(b, "<g class=\"tick\"><line ");
    if (a->vertical) {
        tally__buf_puts(b, "x1=\"");
        tally__svg_num(b, a->pos - 4);
        tally__buf_puts(b, "\" x2=\"");
        tally__svg_num(b, a->pos);
        tally__buf_puts(b, "\" y1=\"");
        tally__svg_num(b, at);
        tally__buf_puts(b, "\" y2=\"");
        tally__svg_num(b, at);
        tally__buf_puts(b, "\"/>");
        tally__svg_label(b, "tick-label", a->pos - 6, at + 4, "end", label);
    } else {
        tally__buf_puts(b, "x1=\"");
        tally__svg_num(b, at);
        tally__buf_puts(b, "\" x2=\"");
        tally__svg_num(b, at);
        tally__buf_puts(b, "\" y1=\"");
        tally__svg_num(b, a->pos);
        tally__buf_puts(b, "\" y2=\"");
        tally__svg_num(b, a->pos + 4);
        tally__buf_puts(b, "\"/>");
        tally__svg_label(b, "tick-label", at, a->pos + 15, "middle", label);
    }
    tally__buf_puts(b, "</g>");
}

void tally__svg_axis(tally__buf *b, const tally__axis *a)
{
    tally__si si;
    double magnitude = fmax(fabs(a->ticks.lo), fabs(a->ticks.hi));
    if (a->prefix && a->si)
        si = *a->si;
    else if (a->prefix)
        tally__si_choose(&si, magnitude, a->unit);
    else {
        si.factor = 1;
        snprintf(si.unit, sizeof(si.unit), "%s", a->unit ? a->unit : "");
    }
    tally__buf_printf(b, "<g class=\"axis %s\">", a->vertical ? "y" : "x");
    size_t count = a->values ? a->value_count : (size_t)(a->ticks.count > 0 ? a->ticks.count : 0);
    if (a->grid > 0 && count > 0) {
        tally__svg_path_open(b, "grid");
        for (size_t i = 0; i < count; i++) {
            double v = a->values ? a->values[i] : a->ticks.lo + (double)i * a->ticks.step;
            double at = tally__svg_scale_map(&a->scale, v);
            if (a->vertical)
                tally__svg_hline(b, a->pos, a->pos + a->grid, at);
            else
                tally__svg_vline(b, at, a->pos - a->grid, a->pos);
        }
        tally__svg_path_close(b);
    }
    /* The domain line along the scale's range. */
    tally__svg_path_open(b, "domain");
    if (a->vertical)
        tally__svg_vline(b, a->pos, a->scale.r0, a->scale.r1);
    else
        tally__svg_hline(b, a->scale.r0, a->scale.r1, a->pos);
    tally__svg_path_close(b);
    for (size_t i = 0; i < count; i++) {
        char text[64];
        if (a->values) {
            tick(b, a, a->values[i], a->labels ? a->labels[i] : "");
        } else {
            double v = a->ticks.lo + (double)i * a->ticks.step;
            tally__axis_label(text, sizeof(text), v, a->ticks.step, &si);
            tick(b, a, v, text);
        }
    }
    if (a->vertical)
        axis_title(b, a, &si, a->title_pos, (a->scale.r0 + a->scale.r1) / 2);
    else
        axis_title(b, a, &si, (a->scale.r0 + a->scale.r1) / 2, a->title_pos);
    tally__buf_puts(b, "</g>\n");
}

void tally__svg_path_open(tally__buf *b, const char *cls)
{
    tally__buf_printf(b, "<path class=\"%s\" d=\"", cls);
}

void tally__svg_dot(tally__buf *b, double x, double y)
{
    tally__buf_puts(b, "M");
    tally__svg_num(b, x);
    tally__buf_puts(b, " ");
    tally__svg_num(b, y);
    tally__buf_puts(b, "h0");
}

void tally__svg_move(tally__buf *b, double x, double y)
{
    tally__buf_puts(b, "M");
    tally__svg_num(b, x);
    tally__buf_puts(b, " ");
    tally__svg_num(b, y);
}

void tally__svg_line_to(tally__buf *b, double x, double y)
{
    tally__buf_puts(b, " ");
    tally__svg_num(b, x);
    tally__buf_puts(b, " ");
    tally__svg_num(b, y);
}

void tally__svg_vline(tally__buf *b, double x, double y0, double y1)
{
    tally__svg_move(b, x, y0);
    tally__buf_puts(b, "V");
    tally__svg_num(b, y1);
}

void tally__svg_hline(tally__buf *b, double x0, double x1, double y)
{
    tally__svg_move(b, x0, y);
    tally__buf_puts(b, "H");
    tally__svg_num(b, x1);
}

void tally__svg_path_close(tally__buf *b)
{
    tally__buf_puts(b, "\"/>");
}

void tally__svg_rect(tally__buf *b, const char *cls, double x0, double y0, double x1, double y1)
{
    double x = fmin(x0, x1), y = fmin(y0, y1);
    tally__buf_printf(b, "<rect class=\"%s\" x=\"", cls);
    tally__svg_num(b, x);
    tally__buf_puts(b, "\" y=\"");
    tally__svg_num(b, y);
    tally__buf_puts(b, "\" width=\"");
    tally__svg_num(b, fabs(x1 - x0));
    tally__buf_puts(b, "\" height=\"");
    tally__svg_num(b, fabs(y1 - y0));
    tally__buf_puts(b, "\"/>");
}
