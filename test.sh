#!/usr/bin/env bash
# Builds everything and runs every test: first a normal Release build, then (unless
# --fast) the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Usage: ./test.sh [--fast]
set -euo pipefail
cd "$(dirname "$0")"
bash tools/setup.sh

# Loopback tests with servers and AI searches are timing-sensitive on a loaded 2-core
# machine: a test that fails is run once more before it counts as failed.
jobs=$(nproc)
fast=0
[ "${1:-}" = "--fast" ] && fast=1

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs" --repeat until-pass:2 -LE 'perft5|slow')

if [ "$fast" -eq 0 ]; then
  # Every ASan/LSan report (from a test or from any process a test starts, such as a
  # server) is written to build-asan/sanitizer-logs/; any file there fails the run, even
  # when the test ignored that process's exit code. UBSan reports stop the process at
  # once (-fno-sanitize-recover), which fails the test that ran it.
  logs="$PWD/build-asan/sanitizer-logs"
  rm -rf "$logs" && mkdir -p "$logs"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:check_initialization_order=1:strict_init_order=1:log_path=$logs/asan"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  san_status=0
  (cd build-asan && ctest --output-on-failure -j"$jobs" --repeat until-pass:2 -LE 'perft5|slow|nosan') || san_status=$?
  if [ -n "$(ls -A "$logs")" ]; then
    echo "test.sh: sanitizer reports found:" >&2
    for f in "$logs"/*; do echo "== $f" >&2; head -n 40 "$f" >&2; done
    san_status=1
  fi
  [ "$san_status" -eq 0 ] || exit "$san_status"
  unset ASAN_OPTIONS UBSAN_OPTIONS

  # A short bounded libFuzzer run of every fuzz target (clang; tools/fuzz.sh --seconds 600
  # is the long run).
  bash tools/fuzz.sh --seconds "${XQ_FUZZ_SECONDS:-4}"
fi
