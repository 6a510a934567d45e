#!/usr/bin/env bash
# ThreadSanitizer over client_tests (the desktop client's network thread, session and input
# queue): the part of test.sh's ThreadSanitizer pass that left CI for time (test.sh says
# why). Builds in build-tsan/ like test.sh; any report fails the run.
# Usage: tools/tsan_client.sh
set -euo pipefail
cd "$(dirname "$0")/.."
logs="$PWD/build-tsan/sanitizer-logs-client"
rm -rf "$logs" && mkdir -p "$logs"
export TSAN_OPTIONS="log_path=$logs/tsan:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_SANITIZE=thread >/dev/null
cmake --build build-tsan -j"$(nproc)" --target client_tests
(cd build-tsan && ctest --output-on-failure -j"$(nproc)" -L client -LE gui)
if [ -n "$(ls -A "$logs")" ]; then
  echo "tsan_client: ThreadSanitizer reports:" >&2
  for f in "$logs"/*; do echo "== $f" >&2; head -n 60 "$f" >&2; done
  exit 1
fi
echo "tsan_client: client_tests ran clean under ThreadSanitizer"
