#!/bin/sh
# Install the build tree into a fresh prefix with `cmake --install --prefix`, then build and run a
# consumer twice from a clean project: once with find_package(tally), once with pkg-config.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
# CMake package, with only the prefix given.
cmake -S "$src/tests/install/consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
out=$(LD_LIBRARY_PATH="$(dirname "$(find "$prefix" -name 'libtally.so' | head -n 1)")" "$work/cmake-build/consumer")
echo "find_package: $out"
# pkg-config, from the installed tally.pc only.
pc=$(dirname "$(find "$prefix" -name tally.pc | head -n 1)")
cflags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags tally)
libs=$(PKG_CONFIG_PATH="$pc" pkg-config --libs tally)
libdir=$(PKG_CONFIG_PATH="$pc" pkg-config --variable=libdir tally)
case "$libdir" in "$prefix"/*|"$pc"/*) ;; *) echo "tally.pc libdir $libdir is outside $prefix"; exit 1 ;; esac
cc $cflags -o "$work/pc-consumer" "$src/tests/install/consumer/main.c" $libs
out=$(LD_LIBRARY_PATH="$libdir" "$work/pc-consumer")
echo "pkg-config: $out"
rm -rf "$work"
