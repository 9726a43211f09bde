"""Small HTML helpers for the notebook representations (`_repr_html_`) the package renders
itself (Summary, Comparison, Validation, the plain Results table); Report's comes from the
library's HTML renderer."""

import html
import math
from typing import Optional

# One stylesheet for every table the package renders. Text and background are inherited from
# the notebook, so the table reads in light and dark themes alike; lines and the header are
# translucent grey, and the verdict colours are mid-tones readable on white and on black. The
# verdict is always written as a word too: the colour only repeats it.
STYLE = """<style>
table.tally {border-collapse: collapse; font-variant-numeric: tabular-nums; color: inherit;
  background: transparent;}
table.tally caption {text-align: left; font-weight: bold; color: inherit; padding: 2px 0;}
table.tally th, table.tally td {padding: 2px 8px; text-align: right; color: inherit;
  border: none; border-bottom: 1px solid rgba(128, 128, 128, 0.35); white-space: nowrap;}
table.tally th {background: rgba(128, 128, 128, 0.12); font-weight: 600;}
table.tally tbody tr, table.tally tbody tr:nth-child(odd) {background: transparent;}
table.tally tbody tr:nth-child(even) {background: rgba(128, 128, 128, 0.06);}
table.tally .tally-key {text-align: left;}
table.tally td.tally-regression {color: #d1242f; background: rgba(209, 36, 47, 0.12);
  font-weight: bold;}
table.tally td.tally-improvement {color: #2da44e; background: rgba(45, 164, 78, 0.12);
  font-weight: bold;}
table.tally td.tally-insufficient {color: #bf8700;}
table.tally td.tally-equivalent {color: #3e8fe8;}
</style>"""

EM_DASH = "\u2014"


def escape(value) -> str:
    return html.escape(str(value), quote=True)


def number(value: Optional[float], digits: int = 4) -> str:
    """A number for display; None (undefined) as an em dash."""
    if value is None:
        return EM_DASH
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    return f"{value:.{digits}g}" if abs(value) >= 1e6 or (value and abs(value) < 1e-3) \
        else f"{value:.{digits}f}"


def pvalue(p: Optional[float]) -> str:
    """A p-value as the library's text table and Markdown write it: four decimals, "<0.0001"
    below that (never a mix of fixed and exponent forms); None as an em dash."""
    if p is None:
        return EM_DASH
    return "<0.0001" if p < 0.0001 else f"{p:.4f}"


def verdict_class(verdict: Optional[str]) -> Optional[str]:
    """The CSS class of a verdict word (None for the neutral ones)."""
    return {"regression": "tally-regression", "improvement": "tally-improvement",
            "insufficient": "tally-insufficient",
            "equivalent": "tally-equivalent"}.get(verdict)


def table(header, rows, caption=None, left=(0,)) -> str:
    """An HTML table. `rows` are lists of cells; a cell is a value or (value, css_class). The
    columns listed in `left` (text: the key, names, words) are left-aligned, header and cells
    alike; the others (numbers) right-aligned."""
    out = [STYLE, '<table class="tally">']
    if caption:
        out.append(f"<caption>{escape(caption)}</caption>")
    out.append("<thead><tr>")
    for i, name in enumerate(header):
        cls = ' class="tally-key"' if i in left else ""
        out.append(f'<th{cls} scope="col">{escape(name)}</th>')
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>")
        for i, cell in enumerate(row):
            value, cls = cell if isinstance(cell, tuple) else (cell, None)
            classes = " ".join(c for c in ("tally-key" if i in left else None, cls) if c)
            attr = f' class="{classes}"' if classes else ""
            out.append(f"<td{attr}>{escape(value)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)
