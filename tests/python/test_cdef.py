"""The generated cffi declarations must describe the public headers exactly."""

import importlib.util
import os
import pathlib
import re
import shutil
import subprocess

import pytest

import tally
from tally import _cdef, errors
from tally._native import ffi, lib

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


def public_structs():
    """Names of the structs the cdef defines with their fields (opaque handles excluded)."""
    return re.findall(r"typedef struct (tally_\w+) \{", _cdef.CDEF)


def test_struct_layouts_match_the_c_compiler(tmp_path):
    # cffi's ABI mode lays structs out itself; a C compiler given the real headers is the
    # independent oracle for every size and field offset.
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        pytest.skip("no C compiler to compare struct layouts with")
    lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <tally.h>", "int main(void) {"]
    expected = {}
    for name in public_structs():
        ctype = ffi.typeof(name)
        lines.append(f'printf("{name} %zu\\n", sizeof({name}));')
        expected[name] = ffi.sizeof(ctype)
        for field, info in ctype.fields:
            lines.append(f'printf("{name}.{field} %zu\\n", offsetof({name}, {field}));')
            expected[f"{name}.{field}"] = info.offset
    lines += ["return 0;", "}"]
    source = tmp_path / "layout.c"
    source.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    # The package binds the experimental tier too (gen_cdef.py keeps its declarations).
    subprocess.run([compiler, "-std=c11", "-DTALLY_EXPERIMENTAL_API", f"-I{INCLUDE}",
                    f"-I{GENERATED_INCLUDE}", str(source), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    actual = dict((key, int(value)) for key, value in (line.split() for line in out.splitlines()))
    assert len(expected) > 50
    assert actual == expected


def test_version_constants_come_from_the_generated_header():
    version = f"{lib.TALLY_VERSION_MAJOR}.{lib.TALLY_VERSION_MINOR}.{lib.TALLY_VERSION_PATCH}"
    assert version == tally.__version__
    assert lib.tally_version_number() == (lib.TALLY_VERSION_MAJOR * 10000
                                          + lib.TALLY_VERSION_MINOR * 100
                                          + lib.TALLY_VERSION_PATCH)


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
