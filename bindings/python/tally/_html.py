"""Small HTML helpers for the notebook representations (`_repr_html_`)."""

import html
import math

# One stylesheet for every table the package renders; classes instead of inline colours so that
# notebooks with dark themes can override them.
STYLE = """<style>
table.tally {border-collapse: collapse; font-variant-numeric: tabular-nums;}
table.tally th, table.tally td {padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: right;}
table.tally th.tally-key, table.tally td.tally-key {text-align: left;}
table.tally td.tally-regression {background: #fdd; color: #900; font-weight: bold;}
table.tally td.tally-improvement {background: #dfd; color: #060; font-weight: bold;}
table.tally caption {text-align: left; font-weight: bold;}
</style>"""


def escape(value):
    return html.escape(str(value), quote=True)


def number(value, digits=4):
    """A number for display; None (undefined) as an em dash."""
    if value is None:
        return "\u2014"
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    return f"{value:.{digits}g}" if abs(value) >= 1e6 or (value and abs(value) < 1e-3) \
        else f"{value:.{digits}f}"


def table(header, rows, caption=None):
    """An HTML table. `rows` are lists of cells; a cell is a value or (value, css_class)."""
    out = [STYLE, '<table class="tally">']
    if caption:
        out.append(f"<caption>{escape(caption)}</caption>")
    out.append("<thead><tr>")
    for i, name in enumerate(header):
        cls = ' class="tally-key"' if i == 0 else ""
        out.append(f"<th{cls}>{escape(name)}</th>")
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>")
        for cell in row:
            value, cls = cell if isinstance(cell, tuple) else (cell, None)
            attr = f' class="{cls}"' if cls else ""
            out.append(f"<td{attr}>{escape(value)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)
