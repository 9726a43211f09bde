#!/bin/sh
# The one version number (CMake's project(VERSION)) everywhere it shows (docs/releasing.md):
# `tally --version`, tally.pc, the Debian changelog's upstream version, the Python package's
# tally.__version__ (the library's) and the version its wheel gets (the build backend's).
# Usage: check_versions.sh VERSION TALLY SOURCE_DIR PC_FILE [PYTHON PYTHONPATH LIBRARY]
set -u
version="$1" tally="$2" src="$3" pc="$4" python="${5:-}" pypath="${6:-}" library="${7:-}"
passed=0 failed=0
same() {
    if [ "$2" = "$version" ]; then passed=$((passed + 1)); echo "ok: $1 is $2"
    else failed=$((failed + 1)); echo "FAILED: $1 is '$2', CMake's project(VERSION) is $version"; fi
}
# `tally 0.1.0`, or `tally 0.1.0 (git DESCRIPTION)` when built from a checkout.
line=$("$tally" --version)
same "tally --version" "$(echo "$line" | sed -n 's/^tally \([^ ]*\)\( (git [^)]*)\)\{0,1\}$/\1/p')"
same "tally.pc Version" "$(sed -n 's/^Version: *//p' "$pc")"
# The changelog's first entry, without the epoch and the Debian revision.
upstream='1s/^tally (\([0-9]*:\)\{0,1\}\([^)-]*\)\(-[^)]*\)\{0,1\}).*/\2/p'
same "debian/changelog" "$(sed -n "$upstream" "$src/debian/changelog")"
if [ -n "$python" ]; then
    same "tally.__version__" "$(PYTHONPATH="$pypath" TALLY_LIBRARY="$library" "$python" -c \
        'import tally; print(tally.__version__)')"
    same "the wheel's version (tally_build.project_version)" \
        "$(cd "$src/bindings/python/build_backend" &&
        "$python" -c 'import tally_build; print(tally_build.project_version())')"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
