#!/bin/sh
# The two tiers of the public API (docs/releasing.md, "API tiers"), through a C compiler:
#   - a stable-only program builds without TALLY_EXPERIMENTAL_API, links, runs, and binds its
#     symbols to the version node TALLY_<soversion>;
#   - an experimental function is not declared without the define, and is with it;
#   - an experimental header read without the define stops with an #error naming the define;
#   - the library binds every experimental function to TALLY_EXPERIMENTAL_<soversion> and the
#     others to TALLY_<soversion>.
# Usage: check_api_tiers.sh CC SOURCE_DIR GENERATED_INCLUDE LIBRARY_DIR SOVERSION SCRATCH
set -u
cc="$1" src="$2" gen="$3" libdir="$4" so="$5" tmp="$6"
here="$src/tests/packaging"
flags="-std=c11 -Wall -Wextra -pedantic -Werror=implicit-function-declaration -I$src/include -I$gen"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAILED: $1"; }
mkdir -p "$tmp"

if $cc $flags -Werror "$here/stable_consumer.c" -L"$libdir" -ltally -o "$tmp/stable_consumer" &&
   LD_LIBRARY_PATH="$libdir" "$tmp/stable_consumer"; then
    ok "the stable-only program builds without TALLY_EXPERIMENTAL_API and runs"
else
    bad "the stable-only program"
fi
refs=$(objdump -T "$tmp/stable_consumer" 2>/dev/null | grep -c "(TALLY_$so) *tally_")
if [ "$refs" -ge 2 ]; then ok "its $refs references to libtally name the version node TALLY_$so"
else bad "its references to libtally carry no TALLY_$so version (found $refs)"; fi

if $cc $flags -c "$here/experimental_use.c" -o "$tmp/exp.o" 2>/dev/null; then
    bad "an experimental function is declared without TALLY_EXPERIMENTAL_API"
else
    ok "an experimental function is not declared without TALLY_EXPERIMENTAL_API"
fi
if $cc $flags -Werror -DTALLY_EXPERIMENTAL_API -c "$here/experimental_use.c" -o "$tmp/exp.o"; then
    ok "it is declared with TALLY_EXPERIMENTAL_API"
else
    bad "an experimental function is not declared with TALLY_EXPERIMENTAL_API"
fi
for h in runner noise; do
    printf '#include "tally/%s.h"\n' "$h" > "$tmp/direct_$h.c"
    if $cc $flags -c "$tmp/direct_$h.c" -o "$tmp/direct.o" 2>"$tmp/direct_$h.err"; then
        bad "tally/$h.h builds without TALLY_EXPERIMENTAL_API"
    elif grep -q "define TALLY_EXPERIMENTAL_API" "$tmp/direct_$h.err"; then
        ok "tally/$h.h without the define stops with an error naming TALLY_EXPERIMENTAL_API"
    else
        bad "tally/$h.h failed without naming the define: $(head -n 3 "$tmp/direct_$h.err")"
    fi
done

syms=$(nm -D --defined-only "$libdir/libtally.so" | awk '$2 == "T" {print $3}')
for name in tally_summarize tally_report_new tally_version; do
    echo "$syms" | grep -qx "$name@@TALLY_$so" && ok "$name is in TALLY_$so" ||
        bad "$name is not bound to TALLY_$so"
done
for name in tally_runner_new tally_noise_load tally_partition_scan tally_accumulator_serialize \
            tally_report_new_from_partitions; do
    echo "$syms" | grep -qx "$name@@TALLY_EXPERIMENTAL_$so" &&
        ok "$name is in TALLY_EXPERIMENTAL_$so" ||
        bad "$name is not bound to TALLY_EXPERIMENTAL_$so"
done
unversioned=$(echo "$syms" | grep '^tally_' | grep -v "@@TALLY_\(EXPERIMENTAL_\)\{0,1\}$so\$")
[ -z "$unversioned" ] && ok "every exported function has a version" ||
    bad "functions without a version: $unversioned"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
