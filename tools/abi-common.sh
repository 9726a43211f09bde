# Shared by tools/abi-baseline and tools/abi-check (sourced from the top of the tree).

# The public headers: only the types they declare are described and compared.
build_dir="${TALLY_BUILD_DIR:-build}"
abi_headers=(--headers-dir include/tally --header-file include/tally.h
             --header-file "$build_dir/include/tally/version.h")

# abi_library [PATH]: PATH, or the shared library of the build tree, built first (it needs
# debug information: the default RelWithDebInfo build has it).
abi_library() {
    if [[ -n "$1" ]]; then
        readlink -f "$1"
        return
    fi
    if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
        cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    fi
    cmake --build "$build_dir" -j "$(nproc)" --target tally >/dev/null
    readlink -f "$build_dir/libtally.so"
}

# abi_soname LIBRARY: its DT_SONAME.
abi_soname() {
    local soname
    soname="$(objdump -p "$1" | sed -n 's/^ *SONAME *//p')"
    [[ -n "$soname" ]] || { echo "abi: $1 has no SONAME" >&2; return 1; }
    echo "$soname"
}
