#!/usr/bin/env bash
# xiangqi-cli against a real xiangqi-server on 127.0.0.1: two scripted clients play moves
# typed in ICCS, WXF and Chinese, chat, and end by resignation; a third watches in the
# interactive mode and draws the board. Usage: cli_loopback_test.sh SERVER CLI
set -euo pipefail
server=$1
cli=$2
work=$(mktemp -d)
# The server is stopped with SIGTERM and must exit 0 (tests/lib/server.sh).
# shellcheck source=tests/lib/server.sh
source "$(dirname "$0")/../lib/server.sh"
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.out "$work"/server.log; do echo "== $f"; cat "$f"; done >&2; exit 1; }

xq_start_server "$server" --data-dir "$work/data" --log-level info

cat >"$work/bob.txt" <<'S'
wait table_update
join 1 black
wait table_snapshot
wait move_made ply=1
马8进7
wait move_made ply=2
wait move_made ply=3
H2+3
wait move_made ply=4
wait chat from=alice
say hi alice
wait game_over
S
cat >"$work/alice.txt" <<'S'
create red CLI test
wait table_snapshot
wait player_joined name=bob
h2e2
wait move_made ply=1
wait move_made ply=2
a0a5
马二进三
wait move_made ply=3
wait move_made ply=4
say 你好 bob
wait chat from=bob
resign
wait game_over
S
"$cli" --connect "127.0.0.1:$port" --name bob --script "$work/bob.txt" >"$work/bob.out" 2>&1 &
bpid=$!
for _ in $(seq 50); do grep -q '"welcome"' "$work/bob.out" 2>/dev/null && break; sleep 0.1; done
"$cli" --connect "127.0.0.1:$port" --name alice --script "$work/alice.txt" >"$work/alice.out" 2>&1 ||
  fail "alice's script failed (exit $?)"
wait "$bpid" || fail "bob's script failed"

# Moves typed in three notations arrived as the right ICCS moves, in order.
for m in '"ply":1[^}]*"move":"h2e2"|"move":"h2e2"[^}]*"ply":1' '"move":"h9g7"' '"move":"h0g2"' '"move":"b9c7"'; do
  grep -qE "$m" "$work/alice.out" || fail "alice did not see $m"
done
grep -q '"chinese":"马2进3"' "$work/alice.out" || fail "no Chinese notation for b9c7"
# The illegal a0a5 was refused locally, nothing sent.
grep 'cli_error' "$work/alice.out" | grep -q 'a0a5' || fail "a0a5 not refused locally"
grep -q '"text":"你好 bob"' "$work/bob.out" || fail "bob did not get the chat"
grep -q '"type":"game_over"' "$work/bob.out" || fail "bob saw no game_over"
grep -q '"reason":"resignation"' "$work/bob.out" || fail "game_over reason is not resignation"

# Interactive mode (stdin is not a terminal: no colours): a game against the AI.
printf 'create red carol vs AI\nsleep 500\nai black 1\nsleep 500\n炮二平五\nsleep 2500\nboard\nquit\n' >"$work/carol.in"
timeout 20 "$cli" --connect "127.0.0.1:$port" --name carol <"$work/carol.in" >"$work/carol.out" 2>&1 ||
  fail "interactive client failed"
grep -q 'you are red' "$work/carol.out" || fail "interactive mode did not describe the table"
grep -q 'Red played 炮二平五' "$work/carol.out" || fail "interactive mode did not show the move in Chinese"
grep -q 'Black played' "$work/carol.out" || fail "the AI's reply was not shown"
grep -q '帥' "$work/carol.out" || fail "no Unicode board in interactive mode"
grep -q 'ply 2, Red to move - your move' "$work/carol.out" || fail "no move prompt after the AI's reply"
if grep -q $'\x1b\[' "$work/carol.out"; then fail "colours on a non-terminal"; fi
echo "cli loopback: ok"
