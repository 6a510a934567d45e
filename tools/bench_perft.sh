#!/usr/bin/env bash
# Perft benchmark: times our `xiangqi-engine go perft N` and Fairy-Stockfish's `go perft N`
# from the start position in the same run and prints both, nodes/s and the ratio ours/FSF
# (goal: <= 1.0). Usage: tools/bench_perft.sh [depth=5] [repeats=1]  (best of `repeats`).
set -euo pipefail
cd "$(dirname "$0")/.."

depth="${1:-5}"
repeats="${2:-1}"
case "$depth" in [1-7]) ;; *) echo "depth must be 1..7" >&2; exit 2 ;; esac
case "$repeats" in [1-9]) ;; *) echo "repeats must be 1..9" >&2; exit 2 ;; esac

ours="build/bin/xiangqi-engine"
fsf="${XQ_FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}"
if [ ! -x "$ours" ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j2 --target xiangqi-engine >/dev/null
fi
if [ ! -x "$fsf" ]; then
  echo "Fairy-Stockfish not found at $fsf: run tools/setup.sh" >&2
  exit 1
fi

now_ns() { date +%s%N; }

# Runs one engine on stdin commands; prints "<nanoseconds> <nodes>".
run_one() {
  local cmds="$1"; shift
  local t0 t1 out nodes
  t0=$(now_ns)
  out=$(printf '%b' "$cmds" | "$@")
  t1=$(now_ns)
  nodes=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: *\([0-9]*\).*/\1/p' | tail -n 1)
  echo "$((t1 - t0)) ${nodes:-0}"
}

best() {  # best (lowest) time of $repeats runs
  local best_ns=0 nodes=0 r ns n
  for ((r = 0; r < repeats; r++)); do
    read -r ns n < <(run_one "$@")
    if [ "$best_ns" -eq 0 ] || [ "$ns" -lt "$best_ns" ]; then best_ns=$ns; fi
    nodes=$n
  done
  echo "$best_ns $nodes"
}

read -r our_ns our_nodes < <(best "position startpos\ngo perft $depth\nquit\n" "$ours")
read -r fsf_ns fsf_nodes < <(best "uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft $depth\nquit\n" "$fsf")

if [ "$our_nodes" != "$fsf_nodes" ] || [ "$our_nodes" = 0 ]; then
  echo "node counts differ: ours $our_nodes, Fairy-Stockfish $fsf_nodes" >&2
  exit 1
fi

awk -v d="$depth" -v n="$our_nodes" -v a="$our_ns" -v b="$fsf_ns" -v r="$repeats" 'BEGIN {
  printf "perft %d from the start position: %d nodes (best of %d)\n", d, n, r
  printf "  xiangqi-engine    %8.3f s  %12.0f nodes/s\n", a / 1e9, n / (a / 1e9)
  printf "  Fairy-Stockfish   %8.3f s  %12.0f nodes/s\n", b / 1e9, n / (b / 1e9)
  printf "  ratio ours/FSF    %8.3f   (goal <= 1.0)\n", a / b
}'
