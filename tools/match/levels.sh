#!/usr/bin/env bash
# Measures the strength levels: each level against the level below (ordering), and each
# level against a Fairy-Stockfish skill level; then full strength against Skill Level 10
# and 20 at 200 ms/move. Bounded: every match has a fixed number of games.
# Usage: tools/match/levels.sh [games_ladder=10] [games_fsf=8] [movetime=100] [games_goal=24]
# Results are appended to build/levels.txt (one summary line per match). Environment:
# XQ_PARTS (default "ladder fsf goal"), XQ_ENGINE / XQ_MATCH (binaries; copy them aside to
# keep a long run independent of rebuilds), XQ_LEVELS_OUT (result file).
set -euo pipefail
cd "$(dirname "$0")/../.."
g_ladder=${1:-10}
g_fsf=${2:-8}
mt=${3:-100}
g_goal=${4:-24}
ours=${XQ_ENGINE:-./build/bin/xiangqi-engine}
fsf=/usr/games/fairy-stockfish
match=${XQ_MATCH:-./build/bin/xiangqi-match}
out=${XQ_LEVELS_OUT:-build/levels.txt}
parts=${XQ_PARTS:-ladder fsf goal}
ladder_levels=${XQ_LADDER:-2 3 4 5 6 7 8 9 10}
# Our level L against FSF skill level S, as L:S pairs.
skill_pairs=${XQ_SKILLS:-1:-5 2:-2 3:0 4:2 5:4 6:6 7:8 8:10 9:15 10:20}
has() { [[ " $parts " == *" $1 "* ]]; }

summary() {  # label, then the match's arguments
  local label=$1
  shift
  local res
  res=$("$match" --quiet "$@" | tail -2 | tr '\n' ' ')
  echo "$label | $res" | tee -a "$out"
}

echo "# $(date -u +%FT%TZ) ladder=$g_ladder fsf=$g_fsf movetime=$mt goal=$g_goal" >>"$out"
has ladder && for lv in $ladder_levels; do
  summary "level $lv vs level $((lv - 1))" --engine1 "$ours" --option1 "Level=$lv" \
    --engine2 "$ours" --option2 "Level=$((lv - 1))" --games "$g_ladder" --movetime "$mt"
done
has fsf && for pair in $skill_pairs; do
  lv=${pair%%:*}
  skill=${pair#*:}
  summary "level $lv vs FSF skill $skill" --engine1 "$ours" --option1 "Level=$lv" \
    --engine2 "$fsf" --option2 "Skill Level=$skill" --games "$g_fsf" --movetime "$mt"
done
has goal && for skill in 10 20; do
  summary "level 10 vs FSF skill $skill at 200 ms" --engine1 "$ours" --engine2 "$fsf" \
    --option2 "Skill Level=$skill" --games "$g_goal" --movetime 200
done
