/* The HTML page around a report or a history: the document head with the style sheet (the
 * colours of verdicts and configurations, light and dark, and a notebook's themes) and its end.
 * Both HTML documents open and close through here, so they look alike. */
#include "report/palette.h"
#include "report/report_internal.h"
#include "report/svg.h"

/* The verdict and series colours of palette.h as the style sheet's custom properties. */
#define COLOURS(P)                                                                               \
    "--imp:" P##IMP ";--reg:" P##REG ";--none:" P##NONE ";--insuf:" P##INSUF ";--equiv:" P##EQUIV \
    ";--noise:" P##NOISE ";--c0:" P##C0 ";--c1:" P##C1 ";--c2:" P##C2 ";--c3:" P##C3 ";--c4:" P##C4 \
    ";--c5:" P##C5 ";--c6:" P##C6 ";--c7:" P##C7 ";"
#define LIGHT_COLOURS COLOURS(TALLY__PALETTE_)
#define DARK_COLOURS COLOURS(TALLY__PALETTE_DARK_)

/* Every rule is scoped to .tally-report, so a fragment embedded in a notebook styles only
 * itself. The palette is Okabe-Ito (distinguishable with colour-vision deficiencies). */
static const char css[] =
    ".tally-report{--fg:#1f2328;--bg:#fff;--muted:#59636e;--line:#d0d7de;--grid:#eaeef2;"
    "--panel:#f6f8fa;" LIGHT_COLOURS
    "color:var(--fg);background:var(--bg);font:14px/1.45 system-ui,-apple-system,'Segoe UI',"
    "Roboto,sans-serif;margin:0;padding:16px 24px}\n"
    "@media screen and (prefers-color-scheme:dark){.tally-report{--fg:#e6edf3;--bg:#0d1117;"
    "--muted:#9198a1;--line:#3d444d;--grid:#262c36;--panel:#151b23;" DARK_COLOURS "}}\n"
    ".tally-report h1{font-size:1.5em;margin:.2em 0}"
    ".tally-report h2{font-size:1.25em;margin:1.6em 0 .3em;padding-top:.4em;"
    "border-top:2px solid var(--line)}"
    ".tally-report h3{font-size:1.05em;margin:1.2em 0 .3em}"
    ".tally-report .muted,.tally-report figcaption{color:var(--muted)}"
    ".tally-report figure{margin:.6em 0 1em}"
    ".tally-report figcaption{font-size:.9em;max-width:640px}.tally-report header p{max-width:1000px}"
    ".tally-report dl.facts{display:grid;grid-template-columns:max-content auto;gap:1px 14px;"
    "margin:.4em 0}"
    ".tally-report dl.facts dt{color:var(--muted)}.tally-report dl.facts dd{margin:0}"
    ".tally-report .scroll{overflow-x:auto}"
    /* The case column stays in view while a wide table scrolls sideways. */
    ".tally-report table.compare th.key:first-child{position:sticky;left:0;z-index:1;"
    "box-shadow:1px 0 0 var(--line)}"
    /* A plot keeps its size (its labels 11-12 px) on a narrow screen and scrolls sideways
     * instead of shrinking (a 640 px plot at 400 px would set 12 px labels in 7 px). */
    ".tally-report figure>.scroll>svg.plot{max-width:none}"
    ".tally-report ol.changes{margin:.3em 0 .6em;padding-left:1.6em;max-width:1000px}"
    ".tally-report ol.changes li{margin:.1em 0}"
    ".tally-report ol.changes .v-reg{color:var(--reg);font-weight:600}"
    ".tally-report ol.changes .v-imp{color:var(--imp);font-weight:600}"
    ".tally-report ol.changes .where{overflow-wrap:anywhere}"
    ".tally-report table{border-collapse:collapse;font-variant-numeric:tabular-nums;"
    "margin:.4em 0}"
    ".tally-report th,.tally-report td{padding:3px 10px;border-bottom:1px solid var(--line);"
    "text-align:right;white-space:nowrap;vertical-align:top}"
    ".tally-report th{background:var(--panel)}"
    ".tally-report th.key,.tally-report td.key,.tally-report td.verdict{text-align:left}"
    ".tally-report td.v-reg{color:var(--reg);font-weight:600}"
    ".tally-report td.v-imp{color:var(--imp);font-weight:600}"
    ".tally-report td.v-insuf{color:var(--insuf)}"
    ".tally-report td.v-equiv{color:var(--equiv)}"
    ".tally-report td.v-same{color:var(--none)}"
    ".tally-report td.v-noise{color:var(--noise)}"
    ".tally-report td.differs{font-weight:600}"
    ".tally-report details{margin:.3em 0}"
    ".tally-report summary{cursor:pointer}"
    ".tally-report details.case{border-left:3px solid var(--line);padding-left:10px}"
    ".tally-report details.case>summary{font-weight:600}"
    ".tally-report .verdicts{font-weight:400;color:var(--muted)}"
    ".tally-report .verdicts .v-reg{color:var(--reg)}"
    ".tally-report .verdicts .v-imp{color:var(--imp)}"
    ".tally-report .verdicts .v-equiv{color:var(--equiv)}"
    ".tally-report .verdicts .v-noise{color:var(--noise)}"
    ".tally-report .headline{font-size:1.05em}"
    ".tally-report .headline .v-reg{color:var(--reg);font-weight:600}"
    ".tally-report .notes{font-size:.9em;color:var(--muted)}"
    ".tally-report .warn{border-left:4px solid var(--insuf);padding:2px 12px;margin:.6em 0;max-width:900px;"
    "background:var(--panel)}"
    ".tally-report .warn ul{margin:.2em 0;padding-left:1.4em}"
    ".tally-report .verdicts .diag,.tally-report .warn strong{color:var(--insuf)}"
    ".tally-report svg.plot .diag-mark{stroke:var(--insuf);stroke-width:1.5;"
    "stroke-dasharray:4 3;fill:none}"
    ".tally-report svg.plot .diag-label{fill:var(--insuf);font-size:11px}"
    /* Plots. */
    ".tally-report svg.plot{display:block;max-width:100%;height:auto;overflow:visible}"
    ".tally-report svg.plot text{fill:var(--fg);font-size:12px}"
    ".tally-report svg.plot .tick-label,.tally-report svg.plot .axis-title,"
    ".tally-report svg.plot .note{fill:var(--muted);font-size:11px}"
    ".tally-report svg.plot .note{font-style:italic}"
    ".tally-report svg.plot .tick line,.tally-report svg.plot .domain{stroke:var(--muted);"
    "fill:none}"
    ".tally-report svg.plot .grid{stroke:var(--grid);fill:none}"
    ".tally-report svg.plot .zero{stroke:var(--fg);stroke-width:1}"
    ".tally-report .c0{color:var(--c0)}.tally-report .c1{color:var(--c1)}"
    ".tally-report .c2{color:var(--c2)}.tally-report .c3{color:var(--c3)}"
    ".tally-report .c4{color:var(--c4)}.tally-report .c5{color:var(--c5)}"
    ".tally-report .c6{color:var(--c6)}.tally-report .c7{color:var(--c7)}"
    ".tally-report svg.plot .pts{stroke:currentColor;stroke-width:6;stroke-linecap:round;"
    "fill:none;opacity:.8}"
    ".tally-report svg.plot-dist .pts{stroke-width:5;opacity:.55}"
    ".tally-report svg.plot-runs .pts{stroke-width:4}"
    ".tally-report svg.plot .line{stroke:currentColor;fill:none;stroke-width:1.6}"
    ".tally-report svg.plot-runs .line{stroke-width:1.2;stroke-linejoin:round;opacity:.8}"
    ".tally-report svg.plot .d1 .line{stroke-dasharray:7 3}"
    ".tally-report svg.plot .d2 .line{stroke-dasharray:2 3}"
    ".tally-report svg.plot .d3 .line{stroke-dasharray:9 3 2 3}"
    ".tally-report svg.plot .d4 .line{stroke-dasharray:14 4}"
    ".tally-report svg.plot .box{fill:currentColor;fill-opacity:.14;stroke:currentColor}"
    ".tally-report svg.plot .whisker{stroke:currentColor;fill:none}"
    ".tally-report svg.plot .median{stroke:var(--fg);stroke-width:2.5}"
    ".tally-report svg.plot .ci{stroke:currentColor;fill:none;stroke-width:1.3}"
    ".tally-report svg.plot .mark{stroke-width:1.5}"
    ".tally-report svg.plot .v-imp{fill:var(--imp);stroke:var(--imp)}"
    ".tally-report svg.plot .v-reg{fill:var(--reg);stroke:var(--reg)}"
    ".tally-report svg.plot .v-none{fill:var(--bg);stroke:var(--none)}"
    ".tally-report svg.plot .v-insuf{fill:none;stroke:var(--insuf)}"
    ".tally-report svg.plot .v-equiv{fill:var(--equiv);stroke:var(--equiv)}"
    ".tally-report svg.plot .v-nt{fill:var(--bg);stroke:var(--none);stroke-dasharray:2 2}"
    ".tally-report svg.plot .v-same{fill:var(--none);stroke:var(--none)}"
    ".tally-report svg.plot .v-noise{fill:var(--bg);stroke:var(--noise);stroke-width:2}"
    ".tally-report svg.plot path.ci{fill:none;stroke-width:1.5}"
    ".tally-report svg.plot .ci.v-none,.tally-report svg.plot .ci.v-nt,"
    ".tally-report svg.plot .ci.v-same{stroke:var(--none);opacity:.55}"
    ".tally-report svg.plot .band{fill:var(--equiv);fill-opacity:.12;stroke:none}"
    /* The history's trend plots (plot_history.c). */
    ".tally-report svg.plot .spread{stroke:currentColor;stroke-width:1;opacity:.45;fill:none}"
    ".tally-report svg.plot .pt{fill:currentColor;stroke:none}"
    ".tally-report svg.plot .pt.outlier{fill:var(--bg);stroke:var(--insuf);stroke-width:1.5}"
    ".tally-report svg.plot .seg{stroke:var(--fg);stroke-width:2;fill:none}"
    ".tally-report svg.plot .seg-ci{fill:var(--fg);fill-opacity:.1;stroke:none}"
    ".tally-report svg.plot .cp-line{stroke-width:1.5;stroke-dasharray:5 3;fill:none}"
    ".tally-report svg.plot .cp.v-reg .cp-line{stroke:var(--reg)}"
    ".tally-report svg.plot .cp.v-imp .cp-line{stroke:var(--imp)}"
    ".tally-report svg.plot .cp{fill:none}"
    ".tally-report svg.plot .cp.v-reg .cp-label{fill:var(--reg)}"
    ".tally-report svg.plot .cp.v-imp .cp-label{fill:var(--imp)}\n"
    "@media print{.tally-report{max-width:none;padding:0}"
    ".tally-report table{font-size:9px}.tally-report th,.tally-report td{padding:1px 4px}"
    ".tally-report figure,.tally-report tr,.tally-report details.case{break-inside:avoid}"
    ".tally-report .scroll{overflow:visible}.tally-report summary{cursor:auto}}\n";

/* What a fragment adds for the notebook it lands in: the notebook's own text and background
 * (JupyterLab's and VS Code's theme variables, else the palette above), translucent lines and
 * panels that read on light and dark pages, the accent colours of the notebook's theme (its
 * marker beats the system's prefers-color-scheme, which a notebook theme need not follow), and
 * resets of the host's table rules (zebra rows, centred fixed-layout tables). */
static const char fragment_css[] =
    ".tally-report{--fg:var(--jp-content-font-color1,var(--vscode-editor-foreground,#1f2328));"
    "--bg:var(--jp-layout-color0,var(--vscode-editor-background,transparent));"
    "--muted:color-mix(in srgb,var(--fg) 72%,transparent);--line:rgba(128,128,128,.4);"
    "--grid:rgba(128,128,128,.2);--panel:rgba(128,128,128,.12);background:transparent;"
    "padding:8px 0}\n"
    "@media screen and (prefers-color-scheme:dark){.tally-report{"
    "--fg:var(--jp-content-font-color1,var(--vscode-editor-foreground,#e6edf3))}}\n"
    "[data-jp-theme-light=false] .tally-report,body.vscode-dark .tally-report,"
    "body.vscode-high-contrast:not(.vscode-high-contrast-light) .tally-report{"
    DARK_COLOURS "}\n"
    "[data-jp-theme-light=true] .tally-report,body.vscode-light .tally-report{"
    LIGHT_COLOURS "}\n"
    ".tally-report table{color:var(--fg);background:transparent;table-layout:auto;"
    "font-size:inherit;border:none}"
    ".tally-report caption{color:var(--fg);text-align:left;font-weight:600}"
    ".tally-report tbody tr:nth-child(odd),.tally-report tbody tr:nth-child(even){"
    "background:transparent}"
    ".tally-report tbody tr:hover{background:var(--panel)}"
    ".tally-report th,.tally-report td{color:inherit;line-height:1.45;max-width:none}\n";

void tally__html_open(tally__buf *b, int fragment, const char *title)
{
    if (fragment) {
        tally__buf_printf(b, "<div class=\"tally-report\"><style>%s%s</style>\n", css,
                          fragment_css);
        return;
    }
    tally__buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, "
                       "initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n"
                       "<title>");
    tally__svg_text(b, title);
    tally__buf_printf(b, "</title>\n<style>\nhtml{background:#fff}"
                         "@media screen and (prefers-color-scheme:dark){html{background:#0d1117}}"
                         "\n%s</style>\n</head>\n<body class=\"tally-report\">\n", css);
}

void tally__html_close(tally__buf *b, int fragment)
{
    tally__buf_puts(b, fragment ? "</div>\n" : "</body>\n</html>\n");
}

