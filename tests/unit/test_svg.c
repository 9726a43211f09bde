/* The drawing module (libstat/report/svg.h) and the SI prefixes (libstat/util/si.h): nice
 * ticks, scales, axis labels, escaping and number output. Every expected value is worked out by
 * hand in the comment beside it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/svg.h"
#include "util/si.h"

static void test_nice_ticks(void)
{
    tally__ticks t;
    /* [0.372, 0.418], 6 ticks: range 0.046 -> nice (ceiling) 0.05; 0.05 / 5 = 0.01 -> rounded
     * nice 0.01; floor(37.2) = 37, ceil(41.8) = 42: 0.37 .. 0.42, 6 ticks. */
    tally__nice_ticks(&t, 0.372, 0.418, 6);
    CHECK_REL(t.step, 0.01, 1e-12);
    CHECK_REL(t.lo, 0.37, 1e-12);
    CHECK_REL(t.hi, 0.42, 1e-12);
    CHECK_INT(t.count, 6);
    /* [1, 5], 6 ticks: range 4 -> nice 5; 5 / 5 = 1 -> 1: 1..5, 5 ticks. */
    tally__nice_ticks(&t, 5, 1, 6); /* swapped bounds are accepted */
    CHECK_REL(t.step, 1, 1e-12);
    CHECK_REL(t.lo, 1, 1e-12);
    CHECK_REL(t.hi, 5, 1e-12);
    CHECK_INT(t.count, 5);
    /* [-93.2, 7.1], 6 ticks: range 100.3 -> nice 200; 200 / 5 = 40 -> rounded nice 50:
     * floor(-1.864) = -2 -> -100, ceil(0.142) = 1 -> 50: 4 ticks. */
    tally__nice_ticks(&t, -93.2, 7.1, 6);
    CHECK_REL(t.step, 50, 1e-12);
    CHECK_REL(t.lo, -100, 1e-12);
    CHECK_REL(t.hi, 50, 1e-12);
    CHECK_INT(t.count, 4);
    /* One value, 2: widened by 5 % to [1.9, 2.1]; range 0.2 -> 0.2; 0.2 / 5 = 0.04 -> 0.05:
     * 1.9 .. 2.1, 5 ticks. */
    tally__nice_ticks(&t, 2, 2, 6);
    CHECK_REL(t.step, 0.05, 1e-12);
    CHECK_REL(t.lo, 1.9, 1e-12);
    CHECK_REL(t.hi, 2.1, 1e-12);
    CHECK_INT(t.count, 5);
    /* Non-finite input: [0, 1] with step 0.2 (range 1 -> 1; 1 / 5 = 0.2 -> 0.2). */
    tally__nice_ticks(&t, NAN, 1, 6);
    CHECK_REL(t.lo, 0, 1e-12);
    CHECK_REL(t.hi, 1, 1e-12);
    CHECK_INT(t.count, 6);
}

static void test_scales(void)
{
    tally__svg_scale lin = {0, 10, 100, 200, 0};
    CHECK_REL(tally__svg_scale_map(&lin, 2.5), 125, 1e-12); /* 100 + 2.5 * 10 */
    tally__svg_scale flip = {0, 10, 200, 100, 0};           /* y axes run upwards */
    CHECK_REL(tally__svg_scale_map(&flip, 2.5), 175, 1e-12);
    tally__svg_scale lg = {1, 16, 0, 400, 1};
    CHECK_REL(tally__svg_scale_map(&lg, 4), 200, 1e-12); /* log 4 / log 16 = 1/2 */
    CHECK_REL(tally__svg_scale_map(&lg, 2), 100, 1e-12);
}

static void test_si(void)
{
    tally__si si;
    char text[80];
    tally__si_choose(&si, 0.042, "s"); /* 42 ms */
    CHECK(strcmp(si.unit, "ms") == 0);
    CHECK_REL(si.factor, 1e-3, 1e-12);
    tally__si_choose(&si, 27150, "usec"); /* 27150 us = 27.15 ms */
    CHECK(strcmp(si.unit, "ms") == 0);
    CHECK_REL(si.factor, 1e3, 1e-12);
    tally__si_choose(&si, 40, "usec"); /* 40 us stays us, written with the SI symbol */
    CHECK(strcmp(si.unit, "\xc2\xb5s") == 0);
    CHECK_REL(si.factor, 1, 1e-12);
    tally__si_choose(&si, 1.2e9, "B/s"); /* bytes, binary: 1.2e9 / 2^30 = 1.118 GiB/s */
    CHECK(strcmp(si.unit, "GiB/s") == 0);
    CHECK_REL(si.factor, 1073741824.0, 1e-12);
    tally__si_choose(&si, 45000, "MB/s"); /* 45000 MB/s = 4.5e10 / 2^30 = 41.9 GiB/s */
    CHECK(strcmp(si.unit, "GiB/s") == 0);
    CHECK_REL(si.factor, 1073741824.0 / 1e6, 1e-12); /* shown = MB/s value / (2^30 / 10^6) */
    tally__si_choose(&si, 54000, "trans/s"); /* a unit without prefixes: "k trans/s" */
    CHECK(strcmp(si.unit, "k trans/s") == 0);
    CHECK_REL(si.factor, 1e3, 1e-12);
    tally__si_choose(&si, 0.5, "ops"); /* no milli-ops: counts are only prefixed upwards */
    CHECK(strcmp(si.unit, "ops") == 0);
    tally__si_choose(&si, 2500, "%"); /* percentages take no prefix */
    CHECK(strcmp(si.unit, "%") == 0);
    CHECK_REL(si.factor, 1, 1e-12);
    tally__si_choose(&si, 3e6, ""); /* a plain count: "M" */
    CHECK(strcmp(si.unit, "M") == 0);
    tally__si_format(text, sizeof(text), 0.02715, 4, "s");
    CHECK(strcmp(text, "27.15 ms") == 0);
    tally__si_format(text, sizeof(text), 54000, 4, "trans/s");
    CHECK(strcmp(text, "54.00 k trans/s") == 0);
    tally__si_format(text, sizeof(text), 0.5, 4, "");
    CHECK(strcmp(text, "0.5000") == 0);
    tally__si_format(text, sizeof(text), 1234, 2, "x"); /* 1.234 k x with 2 digits: 1.2 k x */
    CHECK(strcmp(text, "1.2 k x") == 0);
}

static void test_axis_labels(void)
{
    tally__si si;
    char text[64];
    tally__si_choose(&si, 0.042, "s");
    tally__axis_label(text, sizeof(text), 0.037, 0.001, &si); /* 37 ms, step 1 ms */
    CHECK(strcmp(text, "37") == 0);
    tally__si_choose(&si, 2, "s");
    tally__axis_label(text, sizeof(text), 0.5, 0.5, &si); /* step 0.5: one decimal */
    CHECK(strcmp(text, "0.5") == 0);
    tally__axis_label(text, sizeof(text), 0.25, 0.25, &si); /* step 0.25: two decimals */
    CHECK(strcmp(text, "0.25") == 0);
    tally__axis_label(text, sizeof(text), 1e-17, 0.2, &si); /* rounding noise at 0 */
    CHECK(strcmp(text, "0.0") == 0);
}

static void test_text_and_numbers(void)
{
    tally__buf b = TALLY__BUF_INIT;
    tally__svg_text(&b, "<script>&\"'\x01 \xff\xc3\xa9");
    /* Markup characters as references; control 0x01 and the stray byte 0xff as U+FFFD; é kept. */
    CHECK(strcmp(b.data, "&lt;script&gt;&amp;&quot;&#39;\xef\xbf\xbd \xef\xbf\xbd\xc3\xa9") == 0);
    tally__buf_dispose(&b);
    tally__svg_num(&b, 12.54);
    tally__buf_puts(&b, ",");
    tally__svg_num(&b, -3);
    tally__buf_puts(&b, ",");
    tally__svg_num(&b, 0.04);
    tally__buf_puts(&b, ",");
    tally__svg_num(&b, -0.06);
    CHECK(strcmp(b.data, "12.5,-3,0,-0.1") == 0);
    tally__buf_dispose(&b);
    CHECK_REL(tally__svg_text_width("ab\xc3\xa9", 10), 18, 1e-12); /* 3 characters * 6 px */
}

static void test_axis_structure(void)
{
    tally__buf b = TALLY__BUF_INIT;
    tally__axis a;
    memset(&a, 0, sizeof(a));
    tally__nice_ticks(&a.ticks, 0.0372, 0.0418, 6); /* 0.037 .. 0.042 s, step 1 ms */
    a.scale = (tally__svg_scale){a.ticks.lo, a.ticks.hi, 0, 500, 0};
    a.pos = 100;
    a.unit = "s";
    a.prefix = 1;
    a.title = "time";
    a.title_pos = 130;
    tally__svg_axis(&b, &a);
    CHECK(strncmp(b.data, "<g class=\"axis x\">", 18) == 0);
    size_t ticks = 0;
    for (const char *p = b.data; (p = strstr(p, "<g class=\"tick\">")) != NULL; p++)
        ticks++;
    CHECK_INT(ticks, 6);
    /* The tick of 0.040 s sits at 3/5 of 500 px = 300 and reads "40"; the title has the unit. */
    CHECK(strstr(b.data, "<line x1=\"300\" x2=\"300\" y1=\"100\" y2=\"104\"/>"
                         "<text class=\"tick-label\" x=\"300\" y=\"115\" text-anchor=\"middle\">40"
                         "</text>") != NULL);
    CHECK(strstr(b.data, ">time (ms)</text>") != NULL);
    tally__buf_dispose(&b);
}

int main(void)
{
    test_nice_ticks();
    test_scales();
    test_si();
    test_axis_labels();
    test_text_and_numbers();
    test_axis_structure();
    return check_summary();
}
