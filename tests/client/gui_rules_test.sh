#!/usr/bin/env bash
# GUI test of the table rules: a real xiangqi-server on an ephemeral loopback port and two
# desktop clients under Xvfb. Alice opens the create-table dialog (screenshots in English
# and Chinese), creates a Fischer 5+3 table whose seats are kept 5 s, Bob sees it listed as
# "Fischer 5+3", sits as Black and after Alice's first move loses his connection. Alice sees
# the countdown, then the claim question, claims and wins by abandonment. The server wants a
# password (Carol's wrong one is refused on the connect screen), offers Fairy-Stockfish as an
# external engine (Dave seats it; the seat shows its name), and pings after 1 s of silence
# and cuts after 6 s: every client must answer its pings to get through. Dave's engine table
# is a handicap game: Red without its left horse (让左马).
# Usage: gui_rules_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

engine_args=()
if [ -x /usr/games/fairy-stockfish ]; then engine_args=(--engine fairy-stockfish=/usr/games/fairy-stockfish); fi
export XQ_SERVER_PASSWORD=sesame
start_server --name "Rules test" --idle-ping 1 --idle-timeout 6 "${engine_args[@]}"
unset XQ_SERVER_PASSWORD

cat >alice.txt <<'SCRIPT'
lang en
expect screen lobby
settings clock=fischer:300+3 grace=5 abandon=claim takebacks=0
dialog create
sleep 200
screenshot dialog_en.png
lang zh
sleep 200
screenshot dialog_zh.png
lang en
dialog none
create red Clocked
expect seat red
expect clock_words Fischer 5+3
expect rules fischer:300+3 grace=5 abandon=claim takebacks=0
# Bob starts at the same time; on a loaded machine he may need a while.
grace 60000
expect seat_label black bob
grace 10000
wait_turn 30000
move h2e2
wait player_left 30000
expect seat_notice bob lost connection — seat kept
screenshot countdown.png
# Expectations wait for the state (a `wait` could miss a message that came early).
grace 20000
expect claim open
screenshot claim_en.png
lang zh
sleep 200
screenshot claim_zh.png
lang en
claim
expect result abandonment
SCRIPT

cat >bob.txt <<'SCRIPT'
grace 60000
lang en
expect lobby_clock Fischer 5+3
screenshot lobby.png
join last black
expect seat black
expect ply 1
drop
SCRIPT

cat >carol.txt <<'SCRIPT'
lang zh
expect error bad_password
expect screen connect
sleep 200
screenshot password_zh.png
quit
SCRIPT

cat >dave.txt <<'SCRIPT'
lang en
settings handicap=left_horse
dialog create
sleep 200
screenshot handicap_dialog.png
dialog none
create red Engine table
expect fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w - - 0 1
ai black 1 fairy-stockfish
expect seat_label black fairy-stockfish (level 1)
move h2e2
wait move_made
wait_turn 30000
expect ply 2
SCRIPT

run_client bob 1000 760 bob.txt --password sesame &
bob=$!
status=0
run_client alice 1100 800 alice.txt --password sesame --screenshot end.png || status=$?
bstatus=0
wait "$bob" || bstatus=$?
cstatus=0
client_timeout=60 run_client carol 1000 760 carol.txt --password wrong || cstatus=$?
cat carol.log
[ "$cstatus" -eq 0 ] || { echo "carol exited with $cstatus"; exit 1; }
grep -qF "ok error = bad_password" carol.log || { echo "carol's wrong password was not refused"; exit 1; }
if [ ${#engine_args[@]} -gt 0 ]; then
  dstatus=0
  client_timeout=90 run_client dave 1100 800 dave.txt --password sesame --screenshot engine.png || dstatus=$?
  cat dave.log
  [ "$dstatus" -eq 0 ] || { echo "dave exited with $dstatus"; cat server.log; exit 1; }
  grep -qF "ok seat_label = fairy-stockfish (level 1)" dave.log || { echo "the engine seat is not labelled"; exit 1; }
  grep -qF "ok fen = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w" dave.log || { echo "the handicap table did not start without Red's left horse"; exit 1; }
else
  echo "fairy-stockfish is missing (tools/setup.sh installs it)"; exit 1
fi
cat alice.log
echo "--- bob"
cat bob.log
if [ "$status" -ne 0 ] || [ "$bstatus" -ne 0 ]; then
  echo "alice exited with $status, bob with $bstatus"; cat server.log; exit 1
fi
require_in alice.log "ok clock_words = Fischer 5+3" "ok rules = fischer:300+3 grace=5 abandon=claim takebacks=0" \
  "ok seat_notice = bob lost connection — seat kept" "ok claim = open" "ok result = abandonment"
grep -qF "ok lobby_clock = Fischer 5+3" bob.log || { echo "bob did not see the table's time control"; exit 1; }
# The AI holds a dropped player's seat: Erin's Asian-clock table keeps seats 2 s, then the
# built-in AI (level 1) plays for Frank; Gina watches and sees it too.
cat >erin.txt <<'SCRIPT'
lang en
settings clock=asian:600/60/30 grace=2 abandon=ai hold=1 takebacks=1
create red Held
expect clock_words Asian 10 min/60 s/30 s
grace 60000
expect seat_label black frank
grace 10000
wait_turn 30000
move h2e2
wait player_left 30000
expect seat_notice frank lost connection — seat kept
grace 30000
expect seat_notice AI (level 1) plays for frank until they return
expect claim none
expect ply 2
screenshot held.png
SCRIPT
cat >frank.txt <<'SCRIPT'
grace 60000
lang en
expect lobby_clock Asian 10 min/60 s/30 s
join last black
expect seat black
expect ply 1
drop
SCRIPT
cat >gina.txt <<'SCRIPT'
grace 60000
lang zh
expect lobby_clock 读秒制 10分钟/60秒/30秒
join last spectator
expect seat_notice 电脑（1级）代 frank 下棋
sleep 200
screenshot spectator_zh.png
quit
SCRIPT
run_client frank 1000 760 frank.txt --password sesame &
frank=$!
run_client gina 1000 760 gina.txt --password sesame &
gina=$!
estatus=0
run_client erin 1100 800 erin.txt --password sesame --screenshot held_end.png || estatus=$?
fstatus=0
wait "$frank" || fstatus=$?
gstatus=0
wait "$gina" || gstatus=$?
for who in erin frank gina; do echo "--- $who"; cat "$who.log"; done
if [ "$estatus" -ne 0 ] || [ "$fstatus" -ne 0 ] || [ "$gstatus" -ne 0 ]; then
  echo "erin exited with $estatus, frank with $fstatus, gina with $gstatus"; cat server.log; exit 1
fi
grep -qF "ok seat_notice = AI (level 1) plays for frank until they return" erin.log || { echo "erin did not see the AI hold"; exit 1; }
grep -qF "ok seat_notice = 电脑（1级）代 frank 下棋" gina.log || { echo "the spectator did not see the AI hold"; exit 1; }
grep -qF "ok ply = 2" erin.log || { echo "the AI did not play for frank"; exit 1; }

check_screenshots held.png spectator_zh.png dialog_en.png dialog_zh.png countdown.png claim_en.png claim_zh.png end.png lobby.png \
  password_zh.png
# The dialog screenshots differ between the two languages (the texts really changed).
diff_px=$(compare -metric AE dialog_en.png dialog_zh.png null: 2>&1 || true)
echo "dialog en/zh differing pixels: $diff_px"
[ "${diff_px%%.*}" -gt 1000 ] || { echo "the Chinese dialog looks like the English one"; exit 1; }
echo "GUI rules test passed"
