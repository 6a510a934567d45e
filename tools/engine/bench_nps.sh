#!/usr/bin/env bash
# Search speed: our engine and Fairy-Stockfish search the same positions for the same time,
# alternating, in one run; prints nodes/s of each and the ratio ours/FSF.
# Usage: tools/engine/bench_nps.sh [movetime_ms=2000] [rounds=2]
set -euo pipefail
cd "$(dirname "$0")/../.."
mt=${1:-2000}
rounds=${2:-2}
ours=./build/bin/xiangqi-engine
fsf=/usr/games/fairy-stockfish
[ -x "$ours" ] || { echo "build first: $ours missing" >&2; exit 1; }
[ -x "$fsf" ] || { echo "Fairy-Stockfish missing: run tools/setup.sh" >&2; exit 1; }

# name | FEN (ours and FSF read the same FEN)
positions=(
  "start|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
  "middlegame|r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"
  "ending|5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1"
)

last_nps() { grep -o ' nps [0-9]*' | tail -1 | awk '{print $2}'; }

run_ours() {
  { printf 'position fen %s\ngo movetime %s\n' "$1" "$mt"; sleep $(( mt / 1000 + 1 )); printf 'quit\n'; } |
    "$ours" | last_nps
}
run_fsf() {
  { printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo movetime %s\n' "$1" "$mt";
    sleep $(( mt / 1000 + 1 )); printf 'quit\n'; } | "$fsf" | last_nps
}

printf '%-11s %12s %12s %7s\n' position ours_nps fsf_nps ratio
for entry in "${positions[@]}"; do
  name=${entry%%|*}
  fen=${entry#*|}
  best_o=0; best_f=0
  for _ in $(seq "$rounds"); do
    o=$(run_ours "$fen"); f=$(run_fsf "$fen")
    [ "${o:-0}" -gt "$best_o" ] && best_o=$o
    [ "${f:-0}" -gt "$best_f" ] && best_f=$f
  done
  ratio=$(awk -v a="$best_o" -v b="$best_f" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
  printf '%-11s %12s %12s %7s\n' "$name" "$best_o" "$best_f" "$ratio"
done
