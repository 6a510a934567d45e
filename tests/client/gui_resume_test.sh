#!/usr/bin/env bash
# GUI test of a crashed client coming back: a real xiangqi-server on an ephemeral loopback
# port and desktop clients under Xvfb. Alice (Red) and Bob (Black) play a move each way;
# Bob's client is killed with SIGKILL mid-game, then started again with the same name and
# the same config folder: it must log in with the seat token it stored in client.conf, get
# its seat and the game back and play on, and Alice must see him return.
# Usage: gui_resume_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

start_server --name "Resume test"

cat >alice.txt <<'SCRIPT'
lang en
grace 60000
create red Resume
expect seat_label black bob
move h2e2
wait player_left 60000
expect seat_notice bob lost connection — seat kept
screenshot alice_waiting.png
wait player_returned 60000
expect toast bob is back
expect ply 2
screenshot alice_back.png
wait_turn 30000
move h0g2
expect ply 3
quit
SCRIPT

cat >bob1.txt <<'SCRIPT'
lang en
grace 60000
join last black
expect seat black
expect ply 1
move h9g7
expect ply 2
sleep 120000
SCRIPT

cat >bob2.txt <<'SCRIPT'
grace 60000
lang en
expect screen table
expect seat black
expect ply 3
expect move 2 h9g7
screenshot bob_back.png
quit
SCRIPT

run() { run_client "$1" 1000 720 "$2"; }
run alice alice.txt &
alice=$!
sleep 1
run bob bob1.txt &
bob=$!
wait_for_line bob1.log "ok ply = 2" || { echo "bob's first run did not reach ply 2"; cat bob1.log alice.log; exit 1; }
grep -q "^resume=.* 127.0.0.1:$port bob$" config-bob/xiangqi/client.conf ||
  { echo "bob's client.conf holds no seat token:"; cat config-bob/xiangqi/client.conf; exit 1; }
# The crash: SIGKILL to the client itself (xvfb-run's child), no goodbye of any kind.
bob_client=$(pgrep -f -n -- "--connect 127.0.0.1:$port --name bob ") || { echo "bob's client is not running"; exit 1; }
kill -9 "$bob_client"
wait "$bob" || true
status=0
run bob bob2.txt || { echo "bob's second run failed:"; cat bob2.log; status=1; }
wait "$alice" || { echo "alice's script failed:"; cat alice.log; status=1; }
[ "$status" -eq 0 ] || { tail -n 30 server.log; exit 1; }
grep -q "resumed" server.log || { echo "the server did not log a resumed session"; tail -n 30 server.log; exit 1; }
check_screenshots alice_waiting.png alice_back.png bob_back.png
echo "resume test passed"
