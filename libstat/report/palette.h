/* The colours of the reports, one definition for every format that draws them: the series
 * colours of the configurations (Okabe-Ito, distinguishable with colour-vision deficiencies;
 * configuration j takes colour j modulo TALLY__PALETTE_SIZE) and the verdict colours, each for
 * a light and a dark page. The HTML style sheet (html_page.c) is built from these literals, so
 * a workbook or a terminal that takes its colours from here matches the HTML report. */
#ifndef TALLY_PALETTE_H
#define TALLY_PALETTE_H

#define TALLY__PALETTE_SIZE 8

/* Series colours on a light page ("#rrggbb"), configuration j % 8. */
#define TALLY__PALETTE_C0 "#0072b2"
#define TALLY__PALETTE_C1 "#d55e00"
#define TALLY__PALETTE_C2 "#009e73"
#define TALLY__PALETTE_C3 "#cc79a7"
#define TALLY__PALETTE_C4 "#e69f00"
#define TALLY__PALETTE_C5 "#56b4e9"
#define TALLY__PALETTE_C6 "#555555"
#define TALLY__PALETTE_C7 "#8c6d00"

/* The same on a dark page. */
#define TALLY__PALETTE_DARK_C0 "#56b4e9"
#define TALLY__PALETTE_DARK_C1 "#ff8c42"
#define TALLY__PALETTE_DARK_C2 "#3fd0a4"
#define TALLY__PALETTE_DARK_C3 "#e3a6cc"
#define TALLY__PALETTE_DARK_C4 "#ffc14d"
#define TALLY__PALETTE_DARK_C5 "#9ad3f5"
#define TALLY__PALETTE_DARK_C6 "#bbbbbb"
#define TALLY__PALETTE_DARK_C7 "#e8dc6a"

/* Verdict colours on a light page: improvement, regression, no significant change
 * (inconclusive, identical), too few samples, equivalent, within the noise floor. */
#define TALLY__PALETTE_IMP "#1a7f37"
#define TALLY__PALETTE_REG "#cf222e"
#define TALLY__PALETTE_NONE "#59636e"
#define TALLY__PALETTE_INSUF "#9a6700"
#define TALLY__PALETTE_EQUIV "#0969da"
#define TALLY__PALETTE_NOISE "#8250df"

#define TALLY__PALETTE_DARK_IMP "#3fb950"
#define TALLY__PALETTE_DARK_REG "#ff7b72"
#define TALLY__PALETTE_DARK_NONE "#9198a1"
#define TALLY__PALETTE_DARK_INSUF "#d29922"
#define TALLY__PALETTE_DARK_EQUIV "#58a6ff"
#define TALLY__PALETTE_DARK_NOISE "#bc8cff"

#endif /* TALLY_PALETTE_H */
