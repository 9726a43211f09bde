"""docs/examples/tally.ipynb runs headless from top to bottom (nbclient, Debian's ipykernel)."""

import re

import pytest

import tally

from conftest import PACKAGE_DIR, SOURCE_DIR, requires

NOTEBOOK = SOURCE_DIR / "docs" / "examples" / "tally.ipynb"
DATA = SOURCE_DIR / "docs" / "examples" / "hackbench-process-pipes.csv"


@requires("tally_load_file", "tally_report_new", "tally_report_render", "tally_compare",
          "tally_summarize")
@pytest.mark.skipif(not DATA.exists(), reason=f"{DATA.name} is not in docs/examples")
def test_example_notebook_runs(monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # The kernel inherits this process's environment, so it imports the package and library under
    # test (as absolute paths: the kernel runs in the notebook's own directory).
    monkeypatch.setenv("PYTHONPATH", str(PACKAGE_DIR.parent))
    monkeypatch.setenv("TALLY_LIBRARY", tally.library_path)
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o.data["text/html"] for o in outputs if "data" in o and "text/html" in o.data]
    assert any('class="tally"' in h for h in html)
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "hackbench.xlsx" in text
    # docs/examples/README.md: the vanilla kernel's 1-group mean is the posted table's 0.3800
    # (0.371, 0.396, 0.373 -> 1.140 / 3), printed in the mmtests layout.
    assert re.search(r"Amean\s+1\s+0\.3800 \(   0\.00%\)", text)
