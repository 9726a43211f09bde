#!/bin/sh
# Build the comma-decimal locale de_DE.UTF-8 into directory $1 (used through LOCPATH), from the
# sources of Debian's `locales` package, so test_number_locale finds it on any machine.
dir="$1"
mkdir -p "$dir"
if [ ! -f "$dir/de_DE.UTF-8/LC_NUMERIC" ]; then
    # -c: write the locale even when localedef warns about the sources.
    localedef -c -i de_DE -f UTF-8 "$dir/de_DE.UTF-8" || true
fi
if [ ! -f "$dir/de_DE.UTF-8/LC_NUMERIC" ]; then
    echo "localedef could not build de_DE.UTF-8 (is the 'locales' package installed?)"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "de_DE.UTF-8 in $dir"
echo "1 passed, 0 failed"
