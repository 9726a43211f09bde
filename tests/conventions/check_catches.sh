#!/bin/sh
# .ci/check-conventions must fail on each kind of violation: a copy of the real tree with one
# deliberate fault at a time (an include that goes up a layer, a printf in the library, an
# unprefixed public function, an options struct embedded by value, a test in the old flat place
# or a public-API test reaching internals), and pass on the untouched copy.
# Usage: check_catches.sh SOURCE_DIR WORK_DIR
set -eu
src=$1 work=$2
check="$src/.ci/check-conventions"
fresh() { rm -rf "$work" && mkdir -p "$work" && cp -R "$src/libstat" "$src/include" "$work/"; }
expect_fail() {  # label, pattern
    if out=$("$check" "$work"); then echo "not caught: $1"; exit 1; fi
    echo "$out" | grep -q "$2" || { echo "wrong message for $1: $out"; exit 1; }
    echo "caught: $1: $(echo "$out" | head -n 1)"
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
rm -rf "$work"
echo "all violations caught"
