"""docs/examples/tally.ipynb runs headless from top to bottom (`python3 -m nbconvert --execute`,
Debian's python3-nbconvert and ipykernel) and shows what its text promises."""

import base64
import io
import json
import os
import re
import subprocess
import sys

import pytest

import tally

from conftest import PACKAGE_DIR, SOURCE_DIR, requires

NOTEBOOK = SOURCE_DIR / "docs" / "examples" / "tally.ipynb"
DATA = SOURCE_DIR / "docs" / "examples" / "hackbench-process-pipes.csv"


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    pytest.importorskip("nbconvert")
    pytest.importorskip("ipykernel")
    if not DATA.exists():
        pytest.skip(f"{DATA.name} is not in docs/examples")
    out = tmp_path_factory.mktemp("notebook")
    # The kernel inherits this environment, so it imports the package and library under test
    # (absolute paths: the kernel runs in the notebook's own directory).
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR.parent), TALLY_LIBRARY=tally.library_path,
               PYDEVD_DISABLE_FILE_VALIDATION="1")
    env.pop("MPLBACKEND", None)  # the kernel's inline backend draws the plots as PNG outputs
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                    "--ExecutePreprocessor.timeout=180", "--output-dir", str(out),
                    "--output", "executed.ipynb", str(NOTEBOOK)],
                   check=True, env=env, cwd=NOTEBOOK.parent, capture_output=True)
    return json.loads((out / "executed.ipynb").read_text(encoding="utf-8"))


def outputs(nb):
    return [o for cell in nb["cells"] if cell["cell_type"] == "code" for o in cell["outputs"]]


def joined(value):
    return "".join(value) if isinstance(value, list) else value


@requires("tally_load_file", "tally_report_new", "tally_report_render", "tally_compare",
          "tally_summarize", "tally_report_cell_spread")
def test_example_notebook_runs_and_tells_its_story(executed):
    outs = outputs(executed)
    assert not [o for o in outs if o["output_type"] == "error"]
    html = [joined(o["data"]["text/html"]) for o in outs if "text/html" in o.get("data", {})]
    text = "".join(joined(o.get("text", "")) for o in outs if o["output_type"] == "stream")
    text += "".join(joined(o["data"]["text/plain"]) for o in outs
                    if "text/plain" in o.get("data", {}))
    # The report's notebook table: verdict words, the legend, the adjusted p labelled.
    report = next(h for h in html if "tally-report" in h)
    assert 'class="verdict v-reg">regression<' in report
    assert "<dt>adjustment</dt><dd>holm" in report and "p (adj)" in report
    # docs/examples/README.md: the vanilla kernel's 1-group mean is the posted table's 0.3800
    # (0.371, 0.396, 0.373 -> 1.140 / 3), printed in the mmtests layout.
    assert re.search(r"Amean\s+1\s+0\.3800 \(   0\.00%\)", text)
    assert "hackbench.xlsx" in text and "hackbench.html" in text
    # A plot was drawn (matplotlib's PNG output), with a transparent background so the
    # notebook's theme, light or dark, shows through (Report.plot's "auto" theme).
    pngs = [o["data"]["image/png"] for o in outs if "image/png" in o.get("data", {})]
    assert pngs
    image = pytest.importorskip("PIL.Image")
    plot = image.open(io.BytesIO(base64.b64decode(pngs[-1]))).convert("RGBA")
    assert plot.getpixel((0, 0))[3] == 0
    # 135 runs: 3 kernels x 15 group counts x 3 runs (docs/examples/README.md).
    assert "135 runs" in text


def test_example_notebook_text_matches_its_data():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    prose = " ".join(joined(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    # The data holds three configurations (docs/examples/README.md): the text must not say two.
    assert "three kernels" in prose and "two kernels" not in prose
    for step in ("Load", "Compare", "Look", "Export"):
        assert re.search(rf"^## \d\. {step}$", prose.replace(" ## ", "\n## "), re.M), step
