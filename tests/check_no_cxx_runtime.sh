#!/bin/sh
# libtally holds one C++ file (libstat/util/number_cxx.cc: fast_float and Dragonbox, header-only)
# but must need no C++ runtime: no libstdc++ or libgcc_s among the shared library's NEEDED
# entries, and no undefined C++ runtime symbol (mangled names, __cxa_*, __gxx_personality,
# _Unwind_*; glibc's own __cxa_finalize and __cxa_atexit are C) in the shared or the static library, so C programs link it with a C compiler.
shared="$1"
static="$2"
fail=0
needed=$(readelf -d "$shared" | awk '/NEEDED/ {print $NF}')
case "$needed" in
    *libstdc++*|*libgcc_s*) echo "$shared needs a C++ runtime: $needed"; fail=1 ;;
esac
for lib in "$shared" "$static"; do
    opt=""
    [ "$lib" = "$shared" ] && opt="-D"
    bad=$(nm $opt --undefined-only "$lib" 2>/dev/null | awk '{print $NF}' |
          grep -E '^(_Z|__cxa_|__gxx_|_Unwind_)' |
          grep -v -E '^__cxa_(finalize|atexit|thread_atexit_impl)(@GLIBC.*)?$' | sort -u)
    if [ -n "$bad" ]; then
        echo "$lib refers to C++ runtime symbols:"; echo "$bad"
        fail=1
    fi
done
# The C++ object is really there (the check would pass vacuously without it).
if ! nm "$static" 2>/dev/null | grep -q ' T tally__number_from_chars$'; then
    echo "$static has no tally__number_from_chars: is number_cxx.cc built?"
    fail=1
fi
if [ "$fail" -ne 0 ]; then
    echo "0 passed, 1 failed"
    exit 1
fi
echo "NEEDED: $(echo $needed)"
echo "1 passed, 0 failed"
