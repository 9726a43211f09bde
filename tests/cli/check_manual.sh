#!/bin/sh
# The manual documents every option that some --help shows, and the reverse.
set -u
tally="$1"; manual="$2"
help=$( { "$tally" --help; for c in compare summary import validate merge run; do "$tally" $c --help; done; } 2>/dev/null |
        grep -o -E -- '--[a-z][a-z-]+' | sort -u)
man=$(grep -o -E -- '--[a-z][a-z-]+' "$manual" | sort -u)
missing_in_manual=$(printf '%s\n' "$help" | grep -v -x -F "$man" || true)
missing_in_help=$(printf '%s\n' "$man" | grep -v -x -F "$help" || true)
status=0
if [ -n "$missing_in_manual" ]; then echo "options in --help but not in $manual:"; echo "$missing_in_manual"; status=1; fi
if [ -n "$missing_in_help" ]; then echo "options in $manual but in no --help:"; echo "$missing_in_help"; status=1; fi
if [ $status = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $status
