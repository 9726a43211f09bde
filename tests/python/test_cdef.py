"""The generated cffi declarations must describe the public headers exactly."""

import importlib.util
import os
import pathlib
import re

import pytest

import tally
from tally import _cdef, errors
from tally._native import ffi, lib, new_options

from conftest import PACKAGE_DIR, SOURCE_DIR

INCLUDE = SOURCE_DIR / "include"
GENERATED_INCLUDE = pathlib.Path(os.environ.get(
    "TALLY_GENERATED_INCLUDE", PACKAGE_DIR.parents[2] / "include"))


def load_generator():
    spec = importlib.util.spec_from_file_location(
        "gen_cdef", SOURCE_DIR / "bindings" / "python" / "gen_cdef.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def header_functions():
    """Every TALLY_API function declared in include/tally/*.h, read independently of the
    generator; test hooks exist only in fault-injection builds and are not part of the API."""
    names = set()
    for header in sorted((INCLUDE / "tally").glob("*.h")):
        text = header.read_text()
        text = re.sub(r"#ifdef TALLY_FAULT_INJECTION.*?#endif", "", text, flags=re.S)
        names |= set(re.findall(r"\bTALLY_API\b[^;(]*?\b(tally_\w+)\s*\(", text))
    return names


def cdef_functions():
    return set(re.findall(r"\b(tally_\w+)\s*\(", _cdef.CDEF))


def test_generated_cdef_is_up_to_date():
    generated = load_generator().generate(str(INCLUDE / "tally.h"),
                                          [str(INCLUDE), str(GENERATED_INCLUDE)])
    staged = (PACKAGE_DIR / "_cdef.py").read_text()
    assert staged == generated, "rebuild: the headers changed since _cdef.py was generated"


def test_every_header_function_is_declared():
    headers = header_functions()
    assert len(headers) > 50
    assert headers == cdef_functions()


def test_cdef_keeps_no_preprocessor_or_export_macro():
    assert "TALLY_API" not in _cdef.CDEF
    assert "#include" not in _cdef.CDEF and "#if" not in _cdef.CDEF
    assert "__cplusplus" not in _cdef.CDEF and "extern" not in _cdef.CDEF


def test_every_declared_function_is_exported_by_the_library():
    missing = []
    for name in sorted(cdef_functions()):
        try:
            getattr(lib, name)
        except AttributeError:
            missing.append(name)
    assert missing == [], "declared in the headers but not exported by libtally"


def test_struct_sizes_follow_the_c_abi():
    # Sizes on x86-64/aarch64 (LP64), by hand from the headers: tally_error = int (4) + pad (4)
    # + 3 pointers and 2 unsigned longs (8 each) = 48; tally_summary_options = 4 unsigned/enum
    # fields (3 x 4 + pad 4) + 4 doubles = 48.
    assert ffi.sizeof("tally_error") == 48
    assert ffi.sizeof("tally_summary_options") == 48


def test_version_constants_come_from_the_generated_header():
    version = f"{lib.TALLY_VERSION_MAJOR}.{lib.TALLY_VERSION_MINOR}.{lib.TALLY_VERSION_PATCH}"
    assert version == tally.__version__
    assert lib.tally_version_number() == (lib.TALLY_VERSION_MAJOR * 10000
                                          + lib.TALLY_VERSION_MINOR * 100
                                          + lib.TALLY_VERSION_PATCH)


def test_options_defaults_come_from_the_init_macros():
    # Values written in include/tally/stats.h and compare.h: TALLY_SUMMARY_OPTIONS_INIT and
    # TALLY_COMPARE_OPTIONS_INIT.
    s = new_options("tally_summary_options")
    assert s.version == lib.TALLY_SUMMARY_OPTIONS_VERSION
    assert (s.confidence, s.bamean_percent, s.mad_threshold, s.tukey_k) == (0.95, 95.0, 3.5, 1.5)
    c = new_options("tally_compare_options")
    assert c.test == lib.TALLY_TEST_WELCH and c.alpha == 0.05
    assert c.summary.version == lib.TALLY_SUMMARY_OPTIONS_VERSION
    r = new_options("tally_report_options")
    assert r.filter == ffi.NULL and r.confidence == 0.95


def test_every_error_code_has_its_exception_class():
    codes = ffi.typeof("tally_error_code").elements
    names = {name for value, name in codes.items() if value < 0}
    assert names == set(errors.BY_CODE_NAME)
    for name, cls in errors.BY_CODE_NAME.items():
        assert issubclass(cls, tally.TallyError)
        assert getattr(tally, cls.__name__) is cls


def test_error_message_comes_from_the_library():
    results = tally.Results()
    with pytest.raises(tally.InvalidArgument) as info:
        results.add("")
    assert info.value.code == lib.TALLY_EINVAL
    assert info.value.message
    assert isinstance(info.value, ValueError)
