#!/bin/sh
# Run one golden CLI case: run_case.sh TALLY SOURCE_DIR CASE_PREFIX OUT_DIR
# The command runs in SOURCE_DIR with a clean environment, so paths in messages are relative.
# CASE_PREFIX.stdout, .stderr and .status are the expected outputs; a missing one means empty
# output and exit status 0. With TALLY_UPDATE_GOLDEN=1 the expected files are (re)written
# instead, leaving out the ones that say nothing (empty, or status 0): review them by eye.
set -u
tally="$1"; src="$2"; case="$3"; out_dir="$4"
name=$(basename "$case")
mkdir -p "$out_dir"
out="$out_dir/$name"

set --
while IFS= read -r arg || [ -n "$arg" ]; do
    arg=$(printf '%s' "$arg" | sed "s|@OUT@|$out_dir|g")
    set -- "$@" "$arg"
done < "$case.args"

envs="PATH=/usr/bin:/bin LC_ALL=C"
[ -f "$case.env" ] && envs="$envs $(cat "$case.env")"
rm -f "$out".*
cd "$src" || exit 2
stdin=/dev/null
[ -f "$case.stdin" ] && stdin="$case.stdin"
env -i $envs "$tally" "$@" < "$stdin" > "$out.stdout" 2> "$out.stderr"
echo $? > "$out.status"
# Messages that name a file written to @OUT@ read the same wherever the build is.
for kind in stdout stderr; do
    sed "s|$out_dir|@OUT@|g" "$out.$kind" > "$out.$kind.named" && mv "$out.$kind.named" "$out.$kind"
done

# Outputs written to @OUT@ are compared as NAME.file when NAME.file exists.
if [ "${TALLY_UPDATE_GOLDEN:-0}" = 1 ]; then
    for kind in stdout stderr status; do
        if [ "$kind" = status ] && [ "$(cat "$out.status")" = 0 ] || [ ! -s "$out.$kind" ]; then
            rm -f "$case.$kind"
        else
            cp "$out.$kind" "$case.$kind"
        fi
    done
    echo "updated $name"
    exit 0
fi
# A missing expected file stands for empty output (stdout, stderr) or exit status 0.
printf '' > "$out.expected-empty"
echo 0 > "$out.expected-status"
failed=0
for kind in status stdout stderr; do
    expected="$case.$kind"
    if [ ! -f "$expected" ]; then
        if [ "$kind" = status ]; then expected="$out.expected-status"; else expected="$out.expected-empty"; fi
    fi
    if ! diff -u "$expected" "$out.$kind"; then
        echo "$name: $kind differs from $expected"
        failed=1
    fi
done
if [ -f "$case.file" ] && ! diff -u "$case.file" "$out_dir/$name.out"; then
    echo "$name: written file differs from $case.file"
    failed=1
fi
if [ $failed = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $failed
