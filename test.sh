#!/usr/bin/env bash
# Builds everything and runs every test: first a normal Release build, then (unless
# --fast) the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Usage: ./test.sh [--fast]
set -euo pipefail
cd "$(dirname "$0")"
bash tools/setup.sh

jobs=$(nproc)
fast=0
[ "${1:-}" = "--fast" ] && fast=1

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs" -LE 'perft5|slow')

if [ "$fast" -eq 0 ]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  (cd build-asan && ctest --output-on-failure -j"$jobs" -LE 'perft5|slow|nosan')
fi
