#!/usr/bin/env bash
# Lazy SMP gain: time to a fixed depth and nodes/s with Threads 1 and Threads N, alternating
# in one run over the bench's start, opening and middle-game positions (several rounds).
# Prints each search, the summed times and nodes per thread count, and the ratios; the load
# average is printed too, since on a shared machine a second thread may find no free core.
# Usage: tools/engine/smp_compare.sh [ENGINE=build/bin/xiangqi-engine] [depth=11] [rounds=2] [threads=2]
set -euo pipefail
engine=${1:-build/bin/xiangqi-engine}
depth=${2:-11}
rounds=${3:-2}
threads=${4:-2}
[ -x "$engine" ] || { echo "not an executable: $engine" >&2; exit 1; }
fens=(
  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
  "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
  "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"
  "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"
)
declare -A time_sum nodes_sum
time_sum[1]=0; time_sum[$threads]=0; nodes_sum[1]=0; nodes_sum[$threads]=0
printf 'load at the start: %s\n' "$(uptime | sed 's/.*load average: //')"
for r in $(seq "$rounds"); do
  for fen in "${fens[@]}"; do
    for t in 1 "$threads"; do
      line=$(printf 'setoption name Threads value %s\nposition fen %s\ngo depth %s\n' "$t" "$fen" "$depth" |
             "$engine" | grep "^info depth $depth " | tail -1)
      ms=$(awk '{for (i = 1; i < NF; ++i) if ($i == "time") print $(i + 1)}' <<<"$line")
      nodes=$(awk '{for (i = 1; i < NF; ++i) if ($i == "nodes") print $(i + 1)}' <<<"$line")
      [ -n "$ms" ] && [ -n "$nodes" ] || { echo "no 'info depth $depth' line from $engine" >&2; exit 1; }
      printf 'round %s threads %-2s %8s ms %10s nodes  %s\n' "$r" "$t" "$ms" "$nodes" "${fen%% *}"
      time_sum[$t]=$(( ${time_sum[$t]} + ms ))
      nodes_sum[$t]=$(( ${nodes_sum[$t]} + nodes ))
    done
  done
done
printf 'load at the end: %s\n' "$(uptime | sed 's/.*load average: //')"
for t in 1 "$threads"; do
  awk -v t="$t" -v ms="${time_sum[$t]}" -v n="${nodes_sum[$t]}" \
      'BEGIN { printf "threads %-2s total %8d ms %11d nodes %9.0f nodes/s\n", t, ms, n, ms ? n * 1000 / ms : 0 }'
done
awk -v a="${time_sum[1]}" -v b="${time_sum[$threads]}" -v na="${nodes_sum[1]}" -v nb="${nodes_sum[$threads]}" \
    'BEGIN { printf "time-to-depth speed-up (1 thread / %s): %.2f   nodes/s ratio: %.2f\n", "'"$threads"'", b ? a / b : 0, (a && nb) ? (nb / b) / (na / a) : 0 }'
