"""`Report.plot()`: the HTML report's plot kinds drawn with matplotlib, for users who want to
restyle them. Thin on purpose: the numbers come from the report (its rows and, for the raw runs,
its JSON rendering); the HTML report (`Report.to_html()`) stays the one full implementation."""

import json

KINDS = ("distribution", "runs", "sweep", "change", "spectrum")
THEMES = ("auto", "light", "dark")

# Colours that read on a white page and on the dark themes of JupyterLab (#111111), VS Code
# (#1e1e1e) and GitHub (#0d1117) alike: each has a contrast ratio of at least 3 (WCAG 2's
# large-text and graphics level) against all four, since a notebook's kernel cannot know which
# theme shows its figures. The highest ratio one grey reaches against white and #1e1e1e at
# once is about 4.1; #7b7b7b has 4.2 on white and 3.9 on #1e1e1e.
NEUTRAL = "#7b7b7b"
PALETTE = ("#2f81f7", "#d97706", "#a855f7", "#0d9488", "#db2777", "#9a6700")
_VERDICT_STYLE = {  # (colour, filled): the shape says what the colour says, as in the HTML
    "improvement": ("#1f9d55", True), "regression": ("#e5534b", True),
    "insufficient": ("#b45309", False)}

# theme: (background, foreground). "auto" leaves the backgrounds transparent, so the figure
# takes the page's colour, and draws text, axes and ticks in the neutral grey.
_THEMES = {"auto": ("none", NEUTRAL), "light": ("#ffffff", "#24292f"),
           "dark": ("#0d1117", "#c9d1d9")}


def _axes(ax, theme):
    if ax is not None:
        return ax
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError("Report.plot() needs matplotlib (Debian: apt-get install "
                          "python3-matplotlib)") from exc
    background = _THEMES[theme][0]
    fig, ax = plt.subplots(facecolor=background)
    ax.set_facecolor(background)
    return ax


def _style(ax, theme):
    """Text, spines, ticks and legend in the theme's foreground (after drawing: the title and
    labels exist then); a legend's frame takes the background."""
    background, foreground = _THEMES[theme]
    ax.title.set_color(foreground)
    ax.xaxis.label.set_color(foreground)
    ax.yaxis.label.set_color(foreground)
    ax.tick_params(colors=foreground, which="both")
    for spine in ax.spines.values():
        spine.set_edgecolor(foreground)
    legend = ax.get_legend()
    if legend is not None:
        legend.get_frame().set_facecolor(background)
        legend.get_frame().set_edgecolor(foreground)
        for text in legend.get_texts():
            text.set_color(foreground)
        legend.get_title().set_color(foreground)


def _unit(row):
    return f" ({row.unit})" if row.unit else ""


def _rows(report, benchmark):
    rows = [r for r in report.rows if benchmark is None or r.benchmark == benchmark]
    if not rows:
        raise KeyError(f"no benchmark {benchmark!r} in this report")
    first = rows[0].benchmark
    return [r for r in rows if r.benchmark == first]


def _samples(report, row):
    """The raw runs of every configuration of one row, from the report's JSON."""
    doc = json.loads(report.to_json())
    for r in doc["rows"]:
        if r["benchmark"] == row.benchmark and r["case"] == row.case:
            return [c.get("samples") or [] if c["present"] else [] for c in r["cells"]]
    return [[] for _ in row.cells]


def _spectrum(ax, report, row, samples, labels):
    """The HTML report's percentile spectrum (plot_spectrum.c): each configuration's
    percentiles against log10(1 / (1 - p)), p from 0 to 1 - 1/n in steps of 1/8 decade, with
    the band of the order-statistic interval where the runs give one. Pooled histogram runs
    are drawn from their merged buckets, without a band unless the report takes their requests
    as independent (a run's requests are not independent draws: docs/statistics.md)."""
    import math

    from .stats import percentile_interval, percentiles
    from .errors import NotEnoughData
    doc = json.loads(report.to_json())
    options = doc["options"]
    method, confidence = options["percentile_method"], options["confidence"]
    banded = not any(c.get("level") == "pooled" for r in doc["rows"] for c in r["cells"]) \
        or bool(options.get("independent_requests"))
    cells = next(r["cells"] for r in doc["rows"]
                 if r["benchmark"] == row.benchmark and r["case"] == row.case)
    top = 1
    for j, (label, s, cell) in enumerate(zip(labels, samples, cells)):
        pooled = cell.get("pooled_histogram") if cell["present"] else None
        values, counts = (pooled["values"], pooled["counts"]) if pooled else (s, None)
        n = sum(counts) if pooled else len(s)
        if n < 2:
            continue
        last = math.log10(n)
        xs = [k / 8 for k in range(0, 49) if k / 8 <= last + 1e-9]
        ps = [100 * (1 - 10 ** -x) for x in xs]
        colour = PALETTE[j % len(PALETTE)]
        ax.plot(xs, percentiles(values, ps, method=method, counts=counts), color=colour,
                label=label)
        band = []
        for x, p in zip(xs, ps):
            try:
                if p > 0 and banded:
                    band.append((x,) + percentile_interval(values, p, confidence=confidence,
                                                           counts=counts)[:2])
            except NotEnoughData:
                pass  # too few runs to bound this percentile
        if len(band) >= 2:
            ax.fill_between([b[0] for b in band], [b[1] for b in band], [b[2] for b in band],
                            color=colour, alpha=0.15, linewidth=0)
        top = max(top, math.ceil(last - 1e-9))
    ticks = [math.log10(2)] + list(range(1, top + 1))
    names = ["50%"] + [f"{100 - 10 ** (2 - d):g}%" for d in range(1, top + 1)]
    ax.set_xticks(ticks, names)
    ax.set_xlim(0, top)
    ax.set_xlabel(f"percentile (axis: 1 / (1 - p), logarithmic; {method})")
    ax.set_ylabel(f"value{_unit(row)}")
    ax.legend()


def plot(report, kind, benchmark, case, ax, theme="auto"):
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(THEMES)}, not {theme!r}")
    # An Axes of the caller's keeps its own look under "auto"; only the marks take colours
    # that read on any background.
    styled = ax is None or theme != "auto"
    ax = _draw(report, kind, benchmark, case, _axes(ax, theme), theme)
    if styled:
        _style(ax, theme)
    return ax


def _draw(report, kind, benchmark, case, ax, theme):
    foreground = _THEMES[theme][1]
    rows = _rows(report, benchmark)
    labels = report.labels
    if kind in ("distribution", "runs", "spectrum"):
        row = rows[0] if case is None else next((r for r in rows if r.case == case), None)
        if row is None:
            raise KeyError(f"no case {case!r} in benchmark {rows[0].benchmark!r}")
        samples = _samples(report, row)
        if kind == "spectrum":
            _spectrum(ax, report, row, samples, labels)
        elif kind == "distribution":
            present = [i for i, s in enumerate(samples) if s]
            lines = {"color": foreground}
            ax.boxplot([samples[i] for i in present], vert=False, positions=present,
                       widths=0.5, showfliers=False, boxprops=lines, whiskerprops=lines,
                       capprops=lines, medianprops={"color": foreground, "linewidth": 2})
            for i in present:
                n = len(samples[i])
                jitter = [((k + 1) * 0.6180339887498949 % 1 - 0.5) * 0.4 for k in range(n)]
                ax.plot(samples[i], [i + j for j in jitter], "o", alpha=0.7, markersize=4,
                        color=PALETTE[i % len(PALETTE)])
            ax.set_yticks(range(len(labels)), labels)
            ax.set_xlabel(f"{row.statistic} runs{_unit(row)}")
        else:
            for j, (label, s) in enumerate(zip(labels, samples)):
                if s:
                    ax.plot(range(1, len(s) + 1), s, marker="o", markersize=3, label=label,
                            color=PALETTE[j % len(PALETTE)])
            ax.set_xlabel("run")
            ax.set_ylabel(f"value{_unit(row)}")
            ax.legend()
        ax.set_title(f"{row.benchmark} {row.case}")
        return ax
    if kind == "sweep":
        for j, label in enumerate(labels):
            xs, ys, err = [], [], [[], []]
            for i, row in enumerate(rows):
                cell = row.cells[j]
                if not cell.present or cell.value is None:
                    continue
                ci = cell.interval  # the table's interval of the row's statistic, if any
                xs.append(i)
                ys.append(cell.value)
                err[0].append(cell.value - ci[0] if ci else 0)
                err[1].append(ci[1] - cell.value if ci else 0)
            ax.errorbar(xs, ys, yerr=err, marker="o", markersize=3, capsize=2, label=label,
                        color=PALETTE[j % len(PALETTE)])
        ax.set_xticks(range(len(rows)), [r.case for r in rows])
        ax.set_ylabel(f"{rows[0].statistic}{_unit(rows[0])}")
        ax.legend()
    else:  # change
        compared = labels[1:]
        if not compared:
            raise ValueError("a change plot needs a comparison (two configurations or more)")
        step = 0.8 / len(compared)
        shapes = "o^vDP*X"
        for j, label in enumerate(compared, start=1):
            shape = shapes[(j - 1) % len(shapes)]
            for i, row in enumerate(rows):
                c = row.cells[j].comparison
                if c is None or c.pct_imp is None:
                    continue
                colour, filled = _VERDICT_STYLE.get(c.verdict, (NEUTRAL, False))
                y = i + (j - 1 - (len(compared) - 1) / 2) * step
                if c.pct_imp_interval:
                    low, high = c.pct_imp_interval
                    ax.plot([low, high], [y, y], color=colour, linewidth=1, alpha=0.8)
                ax.plot([c.pct_imp], [y], "s" if c.verdict == "insufficient" else shape,
                        color=colour, markerfacecolor=colour if filled else "none")
            # One legend entry per configuration (its marker shape), in a neutral colour.
            ax.plot([], [], shape, color=NEUTRAL, markerfacecolor="none", label=label)
        ax.axvline(0, color=NEUTRAL, linewidth=1)
        if len(compared) > 1:
            ax.legend(title="filled: significant; red: regression, green: improvement",
                      fontsize="small", title_fontsize="small")
        ax.set_yticks(range(len(rows)), [r.case for r in rows])
        ax.invert_yaxis()
        ax.set_xlabel("change, positive is better (%)")
    ax.set_title(rows[0].benchmark)
    return ax
