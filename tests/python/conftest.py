"""Shared fixtures of the Python package's tests.

Run from the source tree with the staged package on the path (what CTest does):
    PYTHONPATH=build/bindings/python /usr/bin/python3 -m pytest -q tests/python
"""

import os
import pathlib

import pytest

import tally
from tally._native import lib

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
PACKAGE_DIR = pathlib.Path(tally.__file__).resolve().parent


def has_symbol(name):
    try:
        getattr(lib, name)
        return True
    except AttributeError:
        return False


def requires(*symbols):
    """Skip a test whose library functions are not in this build of libtally."""
    missing = [s for s in symbols if not has_symbol(s)]
    return pytest.mark.skipif(bool(missing), reason=f"libtally lacks {', '.join(missing)}")


def results_of(configs, benchmark="bench", unit="s", better="lower"):
    """configs: {label: {case: samples}} in order; the first is the baseline."""
    results = tally.Results()
    for label, cases in configs.items():
        b = results.add(label).add_benchmark(benchmark, unit=unit, better=better)
        for case, samples in cases.items():
            b.add_case(case, samples)
    return results


@pytest.fixture
def source_dir():
    return SOURCE_DIR


@pytest.fixture
def csv_file(tmp_path):
    """A long-form CSV with two configurations of one lower-is-better benchmark."""
    path = tmp_path / "runs.csv"
    lines = ["benchmark,case,config,value,unit,better"]
    base = {"1-groups": [0.38, 0.41, 0.39, 0.40, 0.42], "4-groups": [1.10, 1.05, 1.12, 1.08, 1.11]}
    new = {"1-groups": [0.45, 0.47, 0.46, 0.48, 0.44], "4-groups": [1.09, 1.07, 1.10, 1.06, 1.12]}
    for config, cases in (("base", base), ("new", new)):
        for case, values in cases.items():
            lines += [f"hackbench,{case},{config},{v},s,lower" for v in values]
    path.write_text("\n".join(lines) + "\n")
    return path


def pytest_report_header(config):
    return f"tally {tally.__version__} from {tally.library_path}; package {PACKAGE_DIR}; " \
           f"cwd {os.getcwd()}"
