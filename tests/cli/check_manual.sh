#!/bin/sh
# The manual documents every option that some --help shows, and the reverse. The commands are
# read from `tally --help`, so a new command is checked without editing this script.
set -u
tally="$1"; manual="$2"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
commands=$("$tally" --help 2>/dev/null | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
if [ -z "$commands" ]; then echo "no commands found in '$tally --help'"; echo "0 passed, 1 failed"; exit 1; fi
{ "$tally" --help; for c in $commands; do "$tally" "$c" --help; done; } 2>/dev/null |
    grep -o -E -- '--[a-z][a-z-]+' | sort -u > "$tmp/help"
# Other tools' options that the manual names (hyperfine --export-json) are not tally's.
grep -o -E -- '--[a-z][a-z-]+' "$manual" | grep -v -x -e '--export-json' | sort -u > "$tmp/man"
# Patterns come from a file (-f): a pattern list starting with "--" given as an argument would be
# read as an option by grep.
missing_in_manual=$(grep -v -x -F -f "$tmp/man" "$tmp/help")
missing_in_help=$(grep -v -x -F -f "$tmp/help" "$tmp/man")
status=0
if [ -n "$missing_in_manual" ]; then echo "options in --help but not in $manual:"; echo "$missing_in_manual"; status=1; fi
if [ -n "$missing_in_help" ]; then echo "options in $manual but in no --help:"; echo "$missing_in_help"; status=1; fi
if [ $status = 0 ]; then echo "1 passed, 0 failed ($(wc -l < "$tmp/help") options in $(echo $commands | wc -w) commands)"; else echo "0 passed, 1 failed"; fi
exit $status
