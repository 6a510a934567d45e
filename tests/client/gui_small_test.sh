#!/usr/bin/env bash
# Every control within reach in the smallest window (640x480), under real X input (xdotool),
# in English and in Chinese:
# - the lobby's side panel fits: it does not scroll and its last control (the Sound box) is
#   wholly in sight (a fixed share for the players' list made it 4 px too tall);
# - the create-table dialog is taller than the window: its form scrolls and Create and Cancel
#   stay in sight below it; End typed over the form brings the last row (Start as: Watch) into
#   sight, a click picks it, the mouse wheel brings the clock choices back, a click picks
#   Fischer, and a click on Create opens the table with those choices;
# - at a full table the invite row is left to the chat, but invitations stay within reach: a
#   small "Invite to watch" button on the chat's heading line opens the players free in the
#   lobby (asked of the server as it opens; one came after we sat), says why they can only
#   watch, and a click on a name invites them (Chinese; the opponent is a terminal client).
# Usage: gui_small_test.sh CLIENT SERVER WORKDIR CLI
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
xinput_prologue "$@"

start_server --name "Small window test"

# 1. The lobby's side panel and the create-table dialog.
for lang in en zh; do
  cat >"create_$lang.txt" <<SCRIPT
lang $lang
grace 30000
expect screen lobby
sleep 300
expect fits yes
expect scrolls people no
locate sound
screenshot lobby_$lang.png
locate create_table
locate create_button
locate create_cancel
locate create_form
sleep 300
expect fits yes
screenshot create_$lang.png
expect create_form end
locate seat_watch
screenshot create_end_$lang.png
expect create_form top
locate clock_fischer
expect screen table
expect seat spectator
expect rules fischer:600+5 grace=60 abandon=claim takebacks=1
quit
SCRIPT
  xinput "maker_$lang" 640 480 "create_$lang.txt" "click create_table; key End create_form; click seat_watch; \
wheel up 10 create_form; click clock_fischer; click create_button"
  require_in "maker_$lang-x.log" "pressed key End over create_form" "clicked seat_watch" "turned the wheel up 10" \
    "clicked clock_fischer" "clicked create_button"
  require_in "create_$lang.log" "ok scrolls = no" "ok seat = spectator" "ok rules = fischer:600+5"
  check_screenshots "lobby_$lang.png" "create_$lang.png" "create_end_$lang.png"
  echo "640x480 $lang: the side panel fits; End and the wheel scrolled the create form, Create stayed in sight"
done

# 2. Invitations at a full table: bob sits as Black, alice (640x480, Chinese) as Red; dave
#    logs in after her (a player at a table hears of no arrivals) and is invited to watch.
stop_server
rm -rf data
start_server --name "Small window test"
cat >bob.txt <<'SCRIPT'
create black
wait player_joined name=alice timeout=60
wait player_joined name=dave timeout=60
sleep 500
SCRIPT
"$cli" --connect "127.0.0.1:$port" --name bob --script bob.txt --wait-timeout 60 >bob.log 2>&1 &
bob_pid=$!
cat >full.txt <<'SCRIPT'
lang zh
grace 30000
join last red
expect seat red
expect seat_label black bob
locate window
locate invitee
expect invitees dave
sleep 300
expect fits yes
screenshot invite_watch.png
locate pick dave
expect spectators 1
quit
SCRIPT
invited dave alice full.log
xinput alice 640 480 full.txt "awaitfile dave.log welcome; click invitee; await ok invitees = dave; click pick dave"
cli_done "$invited_pid" dave
cli_done "$bob_pid" bob
require_in full.log "ok invitees = dave" "ok spectators = 1"
check_screenshots invite_watch.png
echo "640x480 zh, a full table: the chat heading's button invited dave, who came to watch"

echo "GUI small-window test passed"
