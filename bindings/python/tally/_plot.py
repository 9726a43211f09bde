"""`Report.plot()`: the HTML report's plot kinds drawn with matplotlib, for users who want to
restyle them. Thin on purpose: the numbers come from the report (its rows and, for the raw runs,
its JSON rendering); the HTML report (`Report.to_html()`) stays the one full implementation."""

import json

KINDS = ("distribution", "runs", "sweep", "change")

_VERDICT_STYLE = {  # (colour, filled): the shape says what the colour says, as in the HTML
    "improvement": ("#1a7f37", True), "regression": ("#cf222e", True),
    "insufficient": ("#9a6700", False)}


def _axes(ax):
    if ax is not None:
        return ax
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError("Report.plot() needs matplotlib (Debian: apt-get install "
                          "python3-matplotlib)") from exc
    return plt.subplots()[1]


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


def plot(report, kind, benchmark, case, ax):
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    rows = _rows(report, benchmark)
    labels = report.labels
    if kind in ("distribution", "runs"):
        row = rows[0] if case is None else next((r for r in rows if r.case == case), None)
        if row is None:
            raise KeyError(f"no case {case!r} in benchmark {rows[0].benchmark!r}")
        samples = _samples(report, row)
        ax = _axes(ax)
        if kind == "distribution":
            present = [i for i, s in enumerate(samples) if s]
            ax.boxplot([samples[i] for i in present], vert=False, positions=present,
                       widths=0.5, showfliers=False)
            for i in present:
                n = len(samples[i])
                jitter = [((k + 1) * 0.6180339887498949 % 1 - 0.5) * 0.4 for k in range(n)]
                ax.plot(samples[i], [i + j for j in jitter], "o", alpha=0.55, markersize=4)
            ax.set_yticks(range(len(labels)), labels)
            ax.set_xlabel(f"{row.statistic} runs{_unit(row)}")
        else:
            for label, s in zip(labels, samples):
                if s:
                    ax.plot(range(1, len(s) + 1), s, marker="o", markersize=3, label=label)
            ax.set_xlabel("run")
            ax.set_ylabel(f"value{_unit(row)}")
            ax.legend()
        ax.set_title(f"{row.benchmark} {row.case}")
        return ax
    ax = _axes(ax)
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
            ax.errorbar(xs, ys, yerr=err, marker="o", markersize=3, capsize=2, label=label)
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
                colour, filled = _VERDICT_STYLE.get(c.verdict, ("#59636e", False))
                y = i + (j - 1 - (len(compared) - 1) / 2) * step
                if c.pct_imp_interval:
                    low, high = c.pct_imp_interval
                    ax.plot([low, high], [y, y], color=colour, linewidth=1, alpha=0.8)
                ax.plot([c.pct_imp], [y], "s" if c.verdict == "insufficient" else shape,
                        color=colour, markerfacecolor=colour if filled else "none")
            # One legend entry per configuration (its marker shape), in a neutral colour.
            ax.plot([], [], shape, color="#59636e", markerfacecolor="none", label=label)
        ax.axvline(0, color="0.3", linewidth=1)
        if len(compared) > 1:
            ax.legend(title="filled: significant; red: regression, green: improvement",
                      fontsize="small", title_fontsize="small")
        ax.set_yticks(range(len(rows)), [r.case for r in rows])
        ax.invert_yaxis()
        ax.set_xlabel("change, positive is better (%)")
    ax.set_title(rows[0].benchmark)
    return ax
