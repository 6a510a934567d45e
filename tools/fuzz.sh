#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan) in build-fuzz/ and
# runs each for a bounded time, then prints a table: executions, speed, corpus, crashes.
# Usage: tools/fuzz.sh [--seconds N] [target ...]
#   default N=4 (the short CI run called by ./test.sh); the documented long run is
#   tools/fuzz.sh --seconds 600   (10 minutes per target)
# Seeds live in tests/fuzz/corpus/<target>/ (committed, small); inputs found during a run
# stay in build-fuzz/corpus/<target>/, crash reproducers in build-fuzz/crashes/<target>/.
# Every file in tests/fuzz/regress/<target>/ (inputs that once crashed) is replayed first.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=4
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done

CXX_FUZZ=${CXX_FUZZ:-clang++}
if ! command -v "$CXX_FUZZ" >/dev/null; then
  echo "fuzz: $CXX_FUZZ not found (Debian package clang, installed by tools/setup.sh)" >&2
  exit 1
fi

B=build-fuzz
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="$CXX_FUZZ" -DXQ_FUZZ=ON -DXQ_WERROR=OFF \
  -DXQ_BUILD_TESTS=OFF -DXQ_BUILD_CLIENT=OFF >/dev/null
if ! cmake --build "$B" --target fuzz_all -j2 >"$B/build.log" 2>&1; then
  grep -E 'error|Error' "$B/build.log" | head -20 >&2
  echo "fuzz: build failed, see $B/build.log" >&2
  exit 1
fi

if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do
    t=$(basename "$f" .cpp)
    [ -x "$B/bin/$t" ] && targets+=("$t")
  done
fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

status=0
rows=()
stamp="$B/.run-stamp"
touch "$stamp"
for t in "${targets[@]}"; do
  exe="$B/bin/$t"
  seeds="tests/fuzz/corpus/${t#fuzz_}"
  work="$B/corpus/$t"
  crashes="$B/crashes/$t"
  log="$B/logs/$t.log"
  mkdir -p "$work" "$crashes" "$(dirname "$log")"
  dict=()
  [ -f "tests/fuzz/dict/${t#fuzz_}.dict" ] && dict=(-dict="tests/fuzz/dict/${t#fuzz_}.dict")

  # Replay known crashers first: each must now pass.
  regress="tests/fuzz/regress/${t#fuzz_}"
  nreg=0
  if [ -d "$regress" ] && [ -n "$(ls -A "$regress")" ]; then
    nreg=$(ls -A "$regress" | wc -l)
    if ! "$exe" "$regress"/* >"$B/logs/$t.regress.log" 2>&1; then
      echo "fuzz: $t fails on a regression input, see $B/logs/$t.regress.log" >&2
      status=1
    fi
  fi

  result=ok
  if ! "$exe" -max_total_time="$seconds" -max_len=20000 -rss_limit_mb=1536 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "${dict[@]}" \
        "$work" "$seeds" >"$log" 2>&1; then
    result="CRASH"
    status=1
  fi
  execs=$( (grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" || true) | grep -o '[0-9]*$' | tail -1)
  speed=$( (grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" || true) | grep -o '[0-9]*$' | tail -1)
  corpus=$(ls -A "$work" | wc -l)
  ncrash=$(find "$crashes" -type f -newer "$stamp" | wc -l)
  rows+=("$(printf '%-20s %6s %12s %10s %8s %8s %8s  %s' "$t" "$seconds" "${execs:-?}" "${speed:-?}" "$corpus" "$nreg" "$ncrash" "$result")")
  if [ "$result" != ok ]; then
    echo "fuzz: $t crashed; reproducer(s) in $crashes, log $log:" >&2
    (grep -E 'ERROR|SUMMARY|runtime error|deadly signal|error' "$log" || tail -n 5 "$log") | head -5 >&2
  fi
done

printf '%-20s %6s %12s %10s %8s %8s %8s  %s\n' target seconds executions exec/s corpus regress crashes result
printf '%s\n' "${rows[@]}"
exit $status
