#!/usr/bin/env bash
# Plays the built-in AI's levels against each other (each level against the next one and the
# one after, both colours of each opening) and appends one result line per pairing to a
# file that `xiangqi-rating-fit` turns into the levels' fixed ratings (docs/ratings.md).
# Bounded: every pairing has a fixed number of games.
# Each level thinks as an AI seat on an untimed table does: its own time per move, the
# server's `ai_movetime_ms` (read from server/config/server_config.h), times PACE percent.
# Usage: tools/match/calibrate_levels.sh [games_per_pair=10] [pace_pct=100] [pairs...]
#   pairs as HIGH:LOW (default: every L+1:L and L+2:L for levels 1-10)
# Environment: XQ_ENGINE / XQ_MATCH (binaries; copy them aside to keep a long run independent
# of rebuilds), XQ_CALIBRATION_OUT (result file, default build/level_calibration.txt),
# XQ_OPENINGS (default tools/match/openings_verify.txt).
# Each result line: "level HIGH LOW W D L" (W/D/L counted for HIGH).
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-10}
pace=${2:-100}
shift $(( $# < 2 ? $# : 2 ))
engine=${XQ_ENGINE:-./build/bin/xiangqi-engine}
match=${XQ_MATCH:-./build/bin/xiangqi-match}
out=${XQ_CALIBRATION_OUT:-build/level_calibration.txt}
openings=${XQ_OPENINGS:-tools/match/openings_verify.txt}
pairs=("$@")
if [ ${#pairs[@]} -eq 0 ]; then
  for low in 1 2 3 4 5 6 7 8 9; do
    pairs+=("$((low + 1)):$low")
    [ "$low" -le 8 ] && pairs+=("$((low + 2)):$low")
  done
fi
# The server's times per level (index 0 unused), e.g. "0, 100, 150, ..., 3500".
read -r -a server_ms <<<"$(sed -n 's/.*ai_movetime_ms = {\([0-9, ]*\)}.*/\1/p' server/config/server_config.h | tr -d ',')"
[ ${#server_ms[@]} -eq 11 ] || { echo "calibrate_levels.sh: ai_movetime_ms not found in server/config/server_config.h" >&2; exit 2; }
level_ms() { echo $(( server_ms[$1] * pace / 100 > 0 ? server_ms[$1] * pace / 100 : 1 )); }
for bin in "$engine" "$match"; do
  [ -x "$bin" ] || { echo "calibrate_levels.sh: $bin is missing (build it first)" >&2; exit 2; }
done
echo "# $(date -u +%FT%TZ) games=$games pace=$pace% ms=$(for l in 1 2 3 4 5 6 7 8 9 10; do printf '%s,' "$(level_ms $l)"; done) openings=$openings load=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out"
for pair in "${pairs[@]}"; do
  high=${pair%%:*}
  low=${pair#*:}
  summary=$("$match" --quiet --engine1 "$engine" --option1 "Level=$high" \
    --engine2 "$engine" --option2 "Level=$low" --games "$games" --movetime1 "$(level_ms "$high")" --movetime2 "$(level_ms "$low")" \
    --openings "$openings" | grep -o 'W/D/L [0-9]*/[0-9]*/[0-9]*')
  read -r w d l <<<"$(echo "${summary#W/D/L }" | tr '/' ' ')"
  echo "level $high $low $w $d $l" | tee -a "$out"
done
echo "# end $(date -u +%FT%TZ) load=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out"
