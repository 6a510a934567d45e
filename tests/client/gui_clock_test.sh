#!/usr/bin/env bash
# GUI test of the clocks: a real xiangqi-server on an ephemeral loopback port and two desktop
# clients under Xvfb. Alice creates a table with the server's Fischer 20+0 clock, Bob sits as Black. Each client asks
# the server for its clocks (`clock_check`: a sync whose snapshot carries the server's
# figures) and fails when a clock it shows is more than 100 ms off (a probe whose answer came
# back late enough to explain the excess is taken again, at most three): before the first move
# (Red's time runs from the moment both seats are filled), after moves, under 10 s (the
# low-time warning, screenshot) and after Red's flag falls (the final clocks).
# Usage: gui_clock_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

# Without a database: the server holds each line until the writes queued before it are
# committed, and the clock figures in it are from before that hold, so on a loaded machine
# (load 10-16) they arrived 100-1,000 ms stale and the check failed on the server's hold,
# not on what the client shows.
start_server --name "Clock test" --clock fischer:20+0 --no-persist

cat >alice.txt <<'SCRIPT'
lang en
grace 60000
expect screen lobby
create red Clocked
expect seat red
expect seat_label black bob
grace 10000
# The game started when Bob sat down: Red's time runs before any move.
sleep 1500
clock_check 100
move h2e2
wait_turn 30000
clock_check 100
# Let Red's time run low: the warning shows under 10 s.
sleep 9000
clock_check 100
screenshot low_time.png
grace 30000
expect result timeout
clock_check 100
screenshot final.png
quit
SCRIPT

cat >bob.txt <<'SCRIPT'
grace 60000
lang en
join last black
expect seat black
expect ply 1
grace 10000
sleep 1000
clock_check 100
move h9g7
expect ply 2
grace 30000
expect result timeout
clock_check 100
screenshot bob_final.png
quit
SCRIPT

run_client alice 1000 720 alice.txt &
alice=$!
sleep 1
status=0
run_client bob 1000 720 bob.txt || { echo "bob's script failed:"; cat bob.log; status=1; }
wait "$alice" || { echo "alice's script failed:"; cat alice.log; status=1; }
[ "$status" -eq 0 ] || { tail -n 30 server.log; exit 1; }
grep -h "clock_check" alice.log bob.log
# Six checks passed; a probe whose answer was held back long enough to explain an excess is
# taken again (said so in the log), and only a probe within 100 ms passes a check.
probes=$(cat alice.log bob.log | grep -c "clock_check: clocks shown" || true)
again=$(cat alice.log bob.log | grep -c "measured again" || true)
if [ "$((probes - again))" -ne 6 ]; then echo "expected 6 clock checks, saw $((probes - again))"; exit 1; fi
check_screenshots low_time.png final.png bob_final.png
echo "clock test passed"
