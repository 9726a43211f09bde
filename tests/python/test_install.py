"""`cmake --install` puts a package that finds the installed library by itself."""

import os
import pathlib
import subprocess
import sys

import pytest

BINARY_DIR = os.environ.get("TALLY_BINARY_DIR")
CMAKE = os.environ.get("TALLY_CMAKE", "cmake")


@pytest.mark.skipif(not BINARY_DIR, reason="TALLY_BINARY_DIR (the build tree) is not set")
def test_installed_package_loads_the_installed_library(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run([CMAKE, "--install", BINARY_DIR, "--prefix", str(prefix)], check=True,
                   stdout=subprocess.DEVNULL)
    packages = [p.parent.parent for p in prefix.rglob("tally/_paths.py")]
    assert len(packages) == 1
    env = {k: v for k, v in os.environ.items() if k not in ("TALLY_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = str(packages[0])
    out = subprocess.run([sys.executable, "-c", "import tally; print(tally.library_path); "
                          "print(tally.__file__)"], env=env, cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout.split()
    library, module = map(pathlib.Path, out)
    assert library.is_relative_to(prefix) and library.name.startswith("libtally.so")
    assert module.is_relative_to(prefix)


def test_explicit_library_that_does_not_load_is_an_import_error(tmp_path):
    env = dict(os.environ, TALLY_LIBRARY=str(tmp_path / "libnothing.so"))
    proc = subprocess.run([sys.executable, "-c", "import tally"], env=env, capture_output=True,
                          text=True)
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr and "TALLY_LIBRARY" in proc.stderr
