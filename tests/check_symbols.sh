#!/bin/sh
# Fails when the shared library exports a symbol without the tally_ prefix.
lib="$1"
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' |
      grep -v -E '^(tally_|_init$|_fini$|_edata$|_end$|__bss_start$)')
count=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/' | grep -c 'tally_')
if [ -n "$bad" ]; then
    echo "symbols without the tally_ prefix:"; echo "$bad"
    echo "0 passed, 1 failed"
    exit 1
fi
if [ "$count" -lt 5 ]; then
    echo "only $count tally_ symbols exported: is the library built?"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "$count exported symbols, all prefixed tally_"
echo "1 passed, 0 failed"
