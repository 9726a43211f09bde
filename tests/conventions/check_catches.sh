#!/bin/sh
# .ci/check-conventions must fail on each kind of violation: a copy of the real tree with one
# deliberate fault at a time (an include that goes up a layer, a printf in the library, an
# unprefixed public function, an options struct embedded by value, a test in the old flat place
# or a public-API test reaching internals, a file missing from its folder's README.md, a
# hand-written element count, a function over 150 lines, an importer without its registry row
# or a row without its importer), and pass on the untouched copy. The checks of the calls
# between files read objects: small ones compiled here with CC plant a call up a layer, a call
# between two renderers and a cycle.
# Usage: check_catches.sh SOURCE_DIR WORK_DIR [CC]
set -eu
src=$1 work=$2 cc=${3:-cc}
check="$src/.ci/check-conventions"
fresh() { rm -rf "$work" && mkdir -p "$work" && cp -R "$src/libstat" "$src/include" "$work/"; }
expect_fail() {  # label, pattern [checker arguments]
    label=$1 pattern=$2
    shift 2
    if out=$("$check" "$work" "$@"); then echo "not caught: $label"; exit 1; fi
    echo "$out" | grep -q "$pattern" || { echo "wrong message for $label: $out"; exit 1; }
    echo "caught: $label: $(echo "$out" | head -n 1)"
}
# An object of libstat/FILE (as the build names it) defining `defines` and calling `calls`.
object() {  # FILE, defines, calls
    mkdir -p "$work/obj/libstat/$(dirname "$1")"
    printf 'void %s(void);\nvoid %s(void);\nvoid %s(void) { %s(); }\n' "$2" "$3" "$2" "$3" \
        >"$work/obj/src.c"
    "$cc" -c -o "$work/obj/libstat/$1.o" "$work/obj/src.c"
}
fresh
"$check" "$work" >/dev/null || { echo "the untouched tree fails"; exit 1; }
printf '#include "report/report_internal.h"\n' >>"$work/libstat/util/buf.c"
expect_fail "util/ including report/" 'layers: libstat/util/buf.c:[0-9]*: util/ includes "report/report_internal.h" of report/, a higher layer'
fresh
printf 'static void f(void) { printf("x"); }\n' >>"$work/libstat/stats/moments.c"
expect_fail "printf in the library" 'print: libstat/stats/moments.c:[0-9]*: printf()'
fresh
printf 'TALLY_API int helper(void);\n' >>"$work/include/tally/common.h"
expect_fail "unprefixed public function" 'prefix: include/tally/common.h:[0-9]*: helper lacks the tally_ prefix'
fresh
printf 'typedef struct tally_x_options {\n    unsigned int version;\n    tally_summary_options summary;\n} tally_x_options;\n' >>"$work/include/tally/accum.h"
expect_fail "an options struct embedded by value" 'options: include/tally/accum.h:[0-9]*: member summary holds a tally_summary_options by value'
fresh
mkdir -p "$work/tests/api" "$work/tests/cli/cases"
printf 'int main(void) { return 0; }\n' >"$work/tests/test_flat.c"
expect_fail "a test program in the old flat place" 'tests: tests/test_flat.c: a test program goes into tests/api/ or tests/unit/'
rm "$work/tests/test_flat.c"
printf 'compare\n' >"$work/tests/cli/cases/flat.args"
expect_fail "a CLI case in the old flat place" 'tests: tests/cli/cases/flat.args: a CLI case goes into tests/cli/cases/COMMAND/'
rm "$work/tests/cli/cases/flat.args"
printf '#include "util/internal.h"\n' >"$work/tests/api/test_x.c"
expect_fail "a public-API test including a private header" 'tests: tests/api/test_x.c:1: a public-API test includes "util/internal.h"'
fresh
printf 'static int unlisted;\n' >"$work/libstat/stats/unlisted.c"
expect_fail "a file missing from its README" 'readme: libstat/stats/unlisted.c: not named in libstat/stats/README.md'
fresh
printf 'static const int xs[] = {1, 2};\nstatic const unsigned n = sizeof xs / sizeof *xs;\n' >>"$work/libstat/stats/moments.c"
expect_fail "a hand-written element count" 'count: libstat/stats/moments.c:[0-9]*: sizeof xs / sizeof of its element written out'
fresh
{ printf 'int tally__long(void);\nint tally__long(void)\n{\n    int n = 0;\n'
  i=0; while [ $i -lt 150 ]; do printf '    n++;\n'; i=$((i + 1)); done
  printf '    return n;\n}\n'; } >>"$work/libstat/stats/moments.c"
expect_fail "a function over 150 lines" 'length: libstat/stats/moments.c:[0-9]*: tally__long is 154 lines (at most 150'
fresh
printf 'const tally__importer tally__importer_unlisted = { .name = "unlisted" };\n' >"$work/libstat/formats/import_unlisted.c"
expect_fail "an importer without its registry row" 'registry: libstat/formats/import_unlisted.c: tally__importer_unlisted has no row TALLY__IMPORTER(unlisted) in libstat/formats/importer_list.h'
fresh
printf 'TALLY__IMPORTER(missing)\n' >>"$work/libstat/formats/importer_list.h"
expect_fail "a registry row without its importer" 'registry: libstat/formats/importer_list.h:[0-9]*: no file of libstat/formats/ defines tally__importer_missing'

fresh
object util/low.c tally__low tally__high
object report/high.c tally__high tally__other
"$check" "$work" --objects "$work/obj/libstat/report/high.c.o" >/dev/null ||
    { echo "one object that calls nothing of the others fails"; exit 1; }
expect_fail "a call up a layer" 'calls: libstat/util/low.c calls tally__high of libstat/report/high.c, a higher layer' \
    --objects "$work/obj/libstat/util/low.c.o" "$work/obj/libstat/report/high.c.o"
fresh
object report/render_a.c tally__render_a tally__render_b
object report/render_b.c tally__render_b tally__other
expect_fail "a renderer calling another" 'siblings: libstat/report/render_a.c calls tally__render_b of libstat/report/render_b.c' \
    --objects "$work/obj/libstat/report/render_a.c.o" "$work/obj/libstat/report/render_b.c.o"
fresh
object formats/one.c tally__one tally__two
object formats/two.c tally__two tally__three
object formats/three.c tally__three tally__one
expect_fail "a cycle of three files" 'cycles: libstat/formats/one.c, libstat/formats/three.c, libstat/formats/two.c call one another' \
    --objects "$work/obj/libstat/formats/one.c.o" "$work/obj/libstat/formats/two.c.o" \
              "$work/obj/libstat/formats/three.c.o"
rm -rf "$work"
echo "all violations caught"
