#!/usr/bin/env bash
# xiangqi-loadgen's games mode on two threads against a real xiangqi-server on 127.0.0.1:
# 16 games and 16 spectators play random legal moves for 3 measured seconds (about 5 s in
# all). Checks the tool's own lines: every connection up and none failed, both threads used,
# moves made, games finished (and rematched), logins and tables timed, no error. Usage: loadgen_threads_test.sh SERVER LOADGEN
set -euo pipefail
server=$1
loadgen=$2
work=$(mktemp -d)
# The server is stopped with SIGTERM and must exit 0 (tests/lib/server.sh).
# shellcheck source=tests/lib/server.sh
source "$(dirname "$0")/../lib/server.sh"
fail() { echo "FAIL: $*" >&2; for f in "$work"/loadgen.* "$work"/server.log; do echo "== $f"; tail -n 40 "$f"; done >&2; exit 1; }

xq_start_server "$server" --no-persist --discovery-port 0 --no-console --log-level info

# A 5-15 ms think keeps each player well under the server's flood limit (50 lines a second).
"$loadgen" --port "$port" --threads 2 --games 16 --spectators 16 --think-ms 10 --setup 20 --warmup 0.5 \
  --duration 3 --ai-tables 0 --probes 0 --server-pid "$spid" >"$work/loadgen.out" 2>"$work/loadgen.err" ||
  fail "xiangqi-loadgen exited with status $?"
cat "$work/loadgen.out"

grep -qE '^setup: 16 games, 48 connections up \(0 failed\) in [0-9.]+s, 2 thread\(s\)$' "$work/loadgen.out" ||
  fail "not every bot connected on two threads"
grep -qE '^setup: hello->welcome n=[1-9][0-9]* p50=[0-9.]+ms .*create_table->snapshot n=[1-9][0-9]* p50=[0-9.]+ms' \
  "$work/loadgen.out" || fail "no timed welcome or table in the setup"
line=$(grep -E '^no-ai ' "$work/loadgen.out") || fail "no measured phase"
field() { sed -nE "s/.* $1=([0-9]+).*/\1/p" <<<"$line"; }
[ "$(field threads)" = 2 ] || fail "threads=$(field threads), expected 2"
[ "$(field connections)" = 48 ] || fail "connections=$(field connections) at the end, expected 48"
[ "$(field failed)" = 0 ] || fail "failed=$(field failed)"
[ "$(field errors)" = 0 ] || fail "errors=$(field errors)"
[ "$(field moves)" -gt 100 ] || fail "only $(field moves) moves in 3 s"
[ "$(field games_ended)" -ge 1 ] || fail "no game finished in 3 s"
[ ! -s "$work/loadgen.err" ] || fail "xiangqi-loadgen wrote to stderr"
echo "PASS: $(field moves) moves, $(field games_ended) games finished, no error"
