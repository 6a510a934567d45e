#!/usr/bin/env bash
# GUI test of the automatic reconnect: a real xiangqi-server on a loopback port and four
# desktop clients under Xvfb. Alice (Red) and Bob (Black) play a move and chat; Dave watches
# their table; Carol looks at an archived game in Review. The server is stopped (SIGTERM) and started again on the same
# port with the same data: every client must show "reconnecting" (Alice's own plate still
# "alice (you)" after failed attempts, the banner clear of both plates and the side panel),
# come back by itself (no click), Alice and Bob to their seats with the table chat kept, and play on, Dave to his
# place as a spectator; Carol, back
# from Review, must find a working lobby (her lobby chat goes through).
# Usage: gui_reconnect_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

start_server --name "Reconnect test"

cat >alice.txt <<'SCRIPT'
lang en
grace 60000
create red Reconnect
expect seat_label black bob
chat hello before the restart
move h2e2
expect connection reconnecting
# The server stays away until this is checked: by now a reconnect attempt or two have failed,
# and the own plate still says "(you)".
sleep 1500
grace 3000
expect seat_label red alice (you)
expect banner_clear yes
expect connection reconnecting
grace 60000
screenshot alice_reconnecting.png
expect connection ready
expect screen table
expect seat red
expect chat hello before the restart
expect ply 2
screenshot alice_back.png
quit
SCRIPT

cat >bob.txt <<'SCRIPT'
lang zh
grace 60000
join last black
expect seat black
expect ply 1
expect connection reconnecting
expect connection ready
expect seat black
expect chat hello before the restart
move h9g7
expect ply 2
screenshot bob_back.png
quit
SCRIPT

cat >dave.txt <<'SCRIPT'
lang en
grace 60000
join last spectator
expect seat spectator
expect chat hello before the restart
expect connection reconnecting
expect connection ready
expect screen table
expect seat spectator
expect chat hello before the restart
expect ply 2
screenshot dave_back.png
quit
SCRIPT

cat >carol.txt <<'SCRIPT'
lang en
grace 60000
expect screen lobby
dialog archive
archive first
expect screen review
expect connection reconnecting
expect connection ready
back
expect screen lobby
chat carol is back
expect lobby_chat carol is back
screenshot carol_lobby.png
quit
SCRIPT

client_timeout=170
run() { run_client "$1" 1000 720 "$1.txt"; }
run alice &
alice=$!
sleep 1
run bob &
bob=$!
wait_for_line bob.log "ok ply = 1" || { echo "bob did not see the first move"; cat alice.log bob.log; exit 1; }
run carol &
carol=$!
run dave &
dave=$!
wait_for_line carol.log "ok screen = review" || { echo "carol did not reach Review"; cat carol.log; exit 1; }
wait_for_line dave.log "ok chat = hello before the restart" || { echo "dave did not see the chat"; cat dave.log; exit 1; }
sleep 1
# The restart: the same port and data folder, a few seconds of absence.
kill -TERM "$server_pid"
wait "$server_pid" 2>/dev/null || true
wait_for_line alice.log "ok banner_clear = yes" 30 ||
  { echo "FAIL: alice's plate lost (you), or the banner covered it, while reconnecting"; cat alice.log; exit 1; }
mv server.log server1.log
"$server" --port "$port" --bind 127.0.0.1 --data-dir data --discovery-port 0 --log-level info --name "Reconnect test" \
  >server.log 2>&1 &
server_pid=$!
status=0
for who in alice bob carol dave; do
  pid_var=$who
  wait "${!pid_var}" || { echo "$who's script failed:"; cat "$who.log"; status=1; }
done
[ "$status" -eq 0 ] || { tail -n 30 server.log; exit 1; }
grep -c "(resumed)" server.log | grep -q "^2$" || { echo "expected two resumed sessions"; cat server.log; exit 1; }
check_screenshots alice_reconnecting.png alice_back.png bob_back.png carol_lobby.png dave_back.png
echo "reconnect test passed"
