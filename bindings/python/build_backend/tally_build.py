"""The PEP 517 build backend of the Python package `tally`: setuptools, plus libtally from CMake.

Every hook runs setuptools (setuptools.build_meta) in a scratch copy of the sources the sdist
holds (SOURCES), so that building leaves nothing in the source tree (no egg-info, no build/
folder) and a wheel built from the repository and one built from the unpacked sdist come from
the same files. `pip install .` at the top of the tree and `pip install bindings/python` run
this same module (bindings/python/pyproject.toml points here) and build from the top-level
pyproject.toml.

The package version is CMake's project(VERSION) in CMakeLists.txt, the one number of the project
(docs/releasing.md): it is written to build_backend/VERSION in the scratch copy, where the
pyproject's dynamic version reads it.

BuildPy builds the shared library and the generated modules (the cffi declarations, the
exception classes) with CMake in setuptools' build folder, and puts libtally.so.N next to the
package's modules; the package loads that copy first (tally/_native.py), so the wheel works from
any directory without an installed libtally. BdistWheel tags the wheel py3-none-PLATFORM: it
carries a native library but no extension module, so it fits any Python 3 of the platform.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import build_meta as _setuptools
from setuptools.command.build_py import build_py as _build_py

try:
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # the wheel package is a build requirement; only BdistWheel needs it
    _bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))

# What the sdist holds and the scratch copy is made of (MANIFEST.in says the same to setuptools).
SOURCES = ["CMakeLists.txt", "pyproject.toml", "MANIFEST.in", "README.md", "NEWS.md", "cmake",
           "include", "libstat", "bindings/python"]
_IGNORED = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.egg-info", "build", "dist")


def project_root():
    """The folder holding the project's CMakeLists.txt: two levels above bindings/python."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
    if not os.path.isfile(os.path.join(root, "CMakeLists.txt")):
        raise RuntimeError(f"tally_build: no CMakeLists.txt in {root}: the Python package builds "
                           "from the whole tally source tree (or its sdist)")
    return root


def project_version(root=None):
    """CMake's project(tally VERSION x.y.z) of the top-level CMakeLists.txt."""
    with open(os.path.join(root or project_root(), "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"\bproject\s*\(\s*tally\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", f.read())
    if not m:
        raise RuntimeError("tally_build: no project(tally VERSION x.y.z) in CMakeLists.txt")
    return m.group(1)


class _ScratchCopy:
    """A copy of SOURCES in a temporary folder, made the working directory while in use."""

    def __enter__(self):
        root = project_root()
        self._tmp = tempfile.TemporaryDirectory(prefix="tally-build-")
        self.path = os.path.join(self._tmp.name, "src")
        for name in SOURCES:
            src, dst = os.path.join(root, name), os.path.join(self.path, name)
            if os.path.isdir(src):
                shutil.copytree(src, dst, ignore=_IGNORED)
            elif os.path.isfile(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
            else:
                raise RuntimeError(f"tally_build: {name} is missing from {root}")
        with open(os.path.join(self.path, "bindings/python/build_backend/VERSION"), "w",
                  encoding="utf-8") as f:
            f.write(project_version(root) + "\n")
        self._cwd = os.getcwd()
        os.chdir(self.path)
        return self

    def __exit__(self, *exc):
        os.chdir(self._cwd)
        self._tmp.cleanup()


def _in_copy(hook, *paths, **kwargs):
    """Run a setuptools hook in a scratch copy; `paths` (output folders) made absolute first."""
    paths = [os.path.abspath(p) if p else p for p in paths]
    with _ScratchCopy():
        return hook(*paths, **kwargs)


# ---- PEP 517 hooks ------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return _in_copy(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_sdist(config_settings=None):
    return _in_copy(_setuptools.get_requires_for_build_sdist, config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _in_copy(_setuptools.prepare_metadata_for_build_wheel, metadata_directory,
                    config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    # The metadata is made again from the same pyproject.toml in the copy.
    return _in_copy(_setuptools.build_wheel, wheel_directory, config_settings)


def build_sdist(sdist_directory, config_settings=None):
    return _in_copy(_setuptools.build_sdist, sdist_directory, config_settings)


# ---- setuptools commands (pyproject.toml [tool.setuptools.cmdclass]) ----------------------

_PATHS = '''"""Where the package looks for libtally: the wheel's copy, next to this file."""

SONAME = "{soname}"
LIBRARY_DIRS = []
'''


class BuildPy(_build_py):
    """build_py, then libtally and the generated modules from CMake into the package."""

    def run(self):
        super().run()
        if self.editable_mode:
            raise RuntimeError("tally_build: editable installs are not supported; build the "
                               "tree with CMake and use PYTHONPATH=build/bindings/python")
        root = os.getcwd()  # the scratch copy (setuptools runs from the project root)
        build_dir = os.path.join(os.path.abspath(self.get_finalized_command("build").build_base),
                                 "cmake")
        configure = ["cmake", "-S", root, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                     "-DTALLY_BUILD_CLI=OFF", "-DTALLY_BUILD_TESTS=OFF",
                     "-DTALLY_BUILD_FUZZERS=OFF", "-DTALLY_BUILD_PYTHON=ON",
                     f"-DTALLY_PYTHON_EXECUTABLE={sys.executable}"]
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        build = ["cmake", "--build", build_dir, "-j", jobs, "--target", "tally", "tally_python"]
        for cmd in (configure, build):
            self.announce(" ".join(cmd), level=2)
            subprocess.run(cmd, check=True)
        staged = os.path.join(build_dir, "bindings", "python", "tally")
        package = os.path.join(self.build_lib, "tally")
        for name in ("_cdef.py", "errors.py"):
            shutil.copyfile(os.path.join(staged, name), os.path.join(package, name))
        sonames = [n for n in os.listdir(build_dir) if re.fullmatch(r"libtally\.so\.[0-9]+", n)]
        if len(sonames) != 1:
            raise RuntimeError(f"tally_build: expected one libtally.so.N in {build_dir}, "
                               f"found {sonames}")
        # The real file under the soname (the symlink chain of the build tree is not kept).
        shutil.copyfile(os.path.join(build_dir, sonames[0]), os.path.join(package, sonames[0]))
        with open(os.path.join(package, "_paths.py"), "w", encoding="utf-8") as f:
            f.write(_PATHS.format(soname=sonames[0]))


if _bdist_wheel is not None:
    class BdistWheel(_bdist_wheel):
        """A platform wheel (it carries libtally) that any Python 3 can use (cffi ABI mode)."""

        def finalize_options(self):
            # A native library in the package: the wheel's root is platlib (no .data/purelib).
            self.distribution.has_ext_modules = lambda: True
            super().finalize_options()

        def get_tag(self):
            _, _, platform = super().get_tag()
            return "py3", "none", platform
