#!/usr/bin/env bash
# Attack and load tests against a real xiangqi-server on 127.0.0.1, one command, one table.
# Each scenario starts its own server (build/bin/xiangqi-server) with the limits it needs.
# Usage: tools/attack.sh [--full] [--kill-rounds N] [scenario ...]
#   default: every scenario at the CI sizes (soak 60 s, 30 kill -9 rounds), about 4 minutes
#   --full:  the documented long run (soak 10 minutes with 30 bot games and 30 spectators)
# Scenarios: oversized garbage chat_cut slowloris nonreader caps floods forged soak kill9
set -euo pipefail
cd "$(dirname "$0")/.."

scale=ci
args=()
for a in "$@"; do
  case "$a" in
    --full) scale=full ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) args+=("$a") ;;
  esac
done

bash tools/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target xiangqi-server xiangqi-attack -j2 >/dev/null
# A thousand sockets on our side, a thousand on the server's.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec build/bin/xiangqi-attack --server build/bin/xiangqi-server --work-dir build/attack --scale "$scale" "${args[@]}"
