#!/usr/bin/env bash
# GUI test of the arbiter's pause at the table: a real xiangqi-server with a Fischer clock,
# Carl (the command-line client) creates a table and only watches it, so he is its arbiter;
# Alice (English) and Bob (Chinese) play in desktop clients under Xvfb. After the first move
# Carl pauses the game: both clients show "paused by the arbiter" over the board with the
# clocks stopped (screenshots), and the band goes once Carl resumes.
# Usage: gui_arbiter_test.sh CLIENT SERVER WORKDIR CLI
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
cli=${4:?usage: gui_arbiter_test.sh CLIENT SERVER WORKDIR CLI}

start_server --name "Arbiter test" --clock fischer:300+0

cat >carl.txt <<'SCRIPT'
create spectator Club
wait move_made timeout=90
arbiter pause
sleep 9000
arbiter resume
sleep 2000
quit
SCRIPT

cat >alice.txt <<'SCRIPT'
lang en
grace 60000
expect screen lobby
join last red
expect seat red
expect seat_label black bob
move h2e2
grace 30000
expect paused yes
sleep 1500
clock_check 100
screenshot paused_en.png
expect paused no
quit
SCRIPT

cat >bob.txt <<'SCRIPT'
grace 60000
lang zh
sleep 1500
join last black
expect seat black
expect ply 1
grace 30000
expect paused yes
sleep 1500
clock_check 100
screenshot paused_zh.png
expect paused no
quit
SCRIPT

timeout 120 "$cli" --connect "127.0.0.1:$port" --name carl --script carl.txt >carl.log 2>&1 &
carl=$!
sleep 1
run_client alice 1000 720 alice.txt &
alice=$!
status=0
run_client bob 1000 720 bob.txt || { echo "bob's script failed:"; cat bob.log; status=1; }
wait "$alice" || { echo "alice's script failed:"; cat alice.log; status=1; }
wait "$carl" || { echo "carl's script failed:"; cat carl.log; status=1; }
[ "$status" -eq 0 ] || { tail -n 30 server.log; exit 1; }
grep -q '"action":"pause".*"type":"arbiter_action"' carl.log || { echo "carl saw no pause"; cat carl.log; exit 1; }
check_screenshots paused_en.png paused_zh.png
echo "arbiter test passed"
