#!/usr/bin/env bash
# run.sh BUILD_DIR: installs the cldnn built in BUILD_DIR into BUILD_DIR/consumer/prefix, then builds
# tests/consumer/consumer.c against that tree three ways and runs each: find_package(cldnn) with
# cldnn::cldnn and cldnn::cldnn_static, and pkg-config (shared). ctest runs it as install_consumer.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
work=$build/consumer
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" \
  > "$work/configure.log"
cmake --build "$work/cmake" > "$work/build.log"
pc=$(find "$work/prefix" -name cldnn.pc | head -n 1)
export PKG_CONFIG_PATH=$(dirname "$pc")
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror -o "$work/consumer_pkgconfig" "$src/consumer.c" $(pkg-config --cflags --libs cldnn)
libdir=$(pkg-config --variable=libdir cldnn)
"$work/cmake/consumer_static"
LD_LIBRARY_PATH=$libdir "$work/cmake/consumer_shared"
LD_LIBRARY_PATH=$libdir "$work/consumer_pkgconfig"
echo "install_consumer: find_package (shared, static) and pkg-config builds ran"
