#!/usr/bin/env bash
# Where the nodes of a search go: builds xiangqi-engine with -DXQ_SEARCH_STATS in build-stats/
# and searches eight middle games (each a verification opening played on by the engine for 22
# plies at 20,000 nodes a move) to a fixed node count each. The engine prints two lines per
# search on stderr: the quiescence share, table / reverse-futility / null-move cut-offs,
# fail-high nodes and how many of them cut on the first move, check extensions and late-move
# reductions per searched move, and the main-search nodes by remaining depth.
# Usage: tools/engine/search_stats.sh [nodes=300000]
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=${1:-300000}
cmake -S . -B build-stats -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-DXQ_SEARCH_STATS >/dev/null
cmake --build build-stats --target xiangqi-engine >/dev/null
positions=(
  "h2e2 b9c7 h0g2 a9a8 b2c2 c9a7 a0a1 h7e7 a1d1 h9g7 c2c6 b7b5 g3g4 i9h9 b0c2 a8h8 d1d7 b5c5 c2e1 f9e8 d7d4 c5i5 g0i2 i5c5"
  "b2e2 c6c5 h2h4 h7e7 b0c2 b9c7 a0b0 h9g7 h4e4 a9b9 i0i1 i9h9 h0i2 b7b3 b0b1 c5c4 c3c4 b3c3 c2b0 b9b1 i1b1 h9h2 c4c5 e7e4"
  "c3c4 g9e7 h2e2 b7b5 h0g2 h7g7 i0h0 g7g3 a3a4 h9g7 a4a5 a6a5 g2e1 b5g5 h0h3 g3g4 h3h4 g4g1 b0c2 b9c7 c2d4 a5a4 a0b0 a4b4"
  "h0g2 b9c7 b2b4 i6i5 i0i1 b7b5 i1f1 b5g5 b4g4 a9b9 f1f5 c9e7 f5f8 h7i7 b0c2 h9g7 h2i2 i9i8 f8i8 g7i8 i2i5 g5e5 g4e4 i7g7"
  "b0c2 b9c7 b2b4 b7b5 h0i2 h7e7 b4c4 b5c5 a0b0 a9b9 b0b9 c7b9 h2e2 h9i7 e2e6 d9e8 i0h0 i9h9 h0h9 i7h9 c0e2 h9g7 e6a6 g6g5"
  "c0e2 b9c7 b2b4 h9i7 b4c4 c7e8 b0c2 a9b9 h2h6 g6g5 a0b0 b7b2 b0b1 h7a7 h0i2 i9h9 i0h0 b9b6 i3i4 b6b3 h6c6 h9h0 i2h0 a7a3"
  "g0e2 h7e7 b0c2 i9i8 b2b4 c9a7 b4i4 i8f8 a0b0 b9d8 b0b5 h9g7 h2g2 g9i7 i0i1 f8h8 i1d1 i6i5 i4a4 a9b9 b5d5 d8f7 h0f1 g6g5"
  "h2d2 c6c5 d2d4 b7e7 h0g2 b9c7 i0h0 a9b9 b2c2 h7g7 h0h8 i6i5 d4h4 g7g3 c0e2 g3h3 h4g4 h3g3 b0a2 b9b2 a2b0 c7e8 h8h3 g3g0"
)
# One process per position: at the end of its input the engine finishes the search.
for moves in "${positions[@]}"; do
  printf 'position startpos moves %s\ngo nodes %s\n' "$moves" "$nodes" |
    build-stats/bin/xiangqi-engine 2>&1 >/dev/null | grep '^stats'
done
printf 'load: %s\n' "$(uptime | sed 's/.*load average: //')"
