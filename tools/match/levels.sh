#!/usr/bin/env bash
# Measures the strength levels: each level against the level below (ordering), and each
# level against a Fairy-Stockfish skill level; then full strength against Skill Level 10
# and 20 at 200 ms/move. Bounded: every match has a fixed number of games.
# Usage: tools/match/levels.sh [games_ladder=10] [games_fsf=8] [movetime=100] [games_goal=24]
# Results are appended to build/levels.txt (one summary line per match).
set -euo pipefail
cd "$(dirname "$0")/../.."
g_ladder=${1:-10}
g_fsf=${2:-8}
mt=${3:-100}
g_goal=${4:-24}
ours=./build/bin/xiangqi-engine
fsf=/usr/games/fairy-stockfish
match=./build/bin/xiangqi-match
out=build/levels.txt

summary() {  # label, then the match's arguments
  local label=$1
  shift
  local res
  res=$("$match" --quiet "$@" | tail -2 | tr '\n' ' ')
  echo "$label | $res" | tee -a "$out"
}

echo "# $(date -u +%FT%TZ) ladder=$g_ladder fsf=$g_fsf movetime=$mt goal=$g_goal" >>"$out"
for lv in 2 3 4 5 6 7 8 9 10; do
  summary "level $lv vs level $((lv - 1))" --engine1 "$ours" --option1 "Level=$lv" \
    --engine2 "$ours" --option2 "Level=$((lv - 1))" --games "$g_ladder" --movetime "$mt"
done
# Our level L against FSF skill level SKILL[L].
declare -A SKILL=([1]=-20 [2]=-15 [3]=-10 [4]=-5 [5]=0 [6]=3 [7]=6 [8]=10 [9]=15 [10]=20)
for lv in 1 2 3 4 5 6 7 8 9 10; do
  summary "level $lv vs FSF skill ${SKILL[$lv]}" --engine1 "$ours" --option1 "Level=$lv" \
    --engine2 "$fsf" --option2 "Skill Level=${SKILL[$lv]}" --games "$g_fsf" --movetime "$mt"
done
for skill in 10 20; do
  summary "level 10 vs FSF skill $skill at 200 ms" --engine1 "$ours" --engine2 "$fsf" \
    --option2 "Skill Level=$skill" --games "$g_goal" --movetime 200
done
