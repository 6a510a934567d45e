#!/usr/bin/env bash
# The desktop client under real X input (xdotool under the client's Xvfb), at the 640x480
# minimum in Chinese:
# - a piece held by the mouse and carried over the side panel (to 500,300) stays in sight,
#   drawn over the panel: the panel's pixels there change while it is held, and letting it
#   go back on its own point plays nothing;
# - keys typed while a dialog has the focus do not act on the board: F pressed under the
#   opponent's takeback question does not turn the board; after a click beside the board it does;
# - an offer that comes while the result band is shown opens clear of it; opening the invite
#   list at a table asks the server for the users (one who came after we sat is offered),
#   also when nobody was free as we sat (then the Invite button reaches him);
# - the lobby list's Sit and Watch buttons are of one width, in their columns inside the list,
#   and Watch stays put when the table fills (640x480 Chinese, 1280x800 English).
# Usage: gui_input_test.sh CLIENT SERVER WORKDIR CLI (the opponent is a terminal client)
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
xinput_prologue "$@"

start_server --name "Input test"

# differs A.png B.png X Y: the 40x40 squares around X,Y of the two screenshots differ in
# more than a quarter of their pixels.
differs() {
  local n crop=40x40+$(($3 - 20))+$(($4 - 20))
  convert "$1" -crop "$crop" +repage crop_a.png
  convert "$2" -crop "$crop" +repage crop_b.png
  n=$(compare -metric AE -fuzz 8% crop_a.png crop_b.png null: 2>&1 || true)
  echo "$1 and $2 differ in $n of 1600 pixels around $3,$4"
  [ "${n%% *}" -gt 400 ]
}

# 1. A piece dragged over the side panel is drawn on top of it.
cat >drag.txt <<'SCRIPT'
lang zh
grace 30000
create red
ai black 1
wait_turn 30000
sleep 500
screenshot drag_before.png
locate square h2
locate window
expect dragging yes
expect drag_point 500,300
sleep 300
screenshot drag_held.png
expect dragging no
expect ply 0
expect fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
quit
SCRIPT
xinput dragger 640 480 drag.txt "press square h2; moveto 0 -30 square h2; moveto 245 -20 square h2; \
moveto 500 300 window; await screenshot drag_held.png; moveto 0 0 square h2; release"
require_in dragger-x.log "moved to" "released"
check_screenshots drag_before.png drag_held.png
differs drag_before.png drag_held.png 500 300 || { echo "FAIL: the held piece is not drawn over the side panel"; exit 1; }
echo "the held piece shows over the panel"

# 2. Keys typed while a dialog has the focus are the dialog's: F under bob's takeback
#    question leaves the board as it is; after a click beside the board (the top plate, no
#    window there) F turns it. Then alice resigns and bob at once asks for a new game: the
#    question opens clear of the result band. Last, carol was in the lobby when alice sat, and
#    dave comes after: a click opening alice's invite list asks the server, and offers dave.
stop_server
rm -rf data
start_server --name "Input test"
cat >bob.txt <<'SCRIPT'
create black
wait player_joined name=alice timeout=60
wait move_made ply=1 timeout=60
h9g7
wait move_made ply=2
takeback
wait answer_takeback timeout=60
wait game_over timeout=60
new
sleep 8000
SCRIPT
"$cli" --connect "127.0.0.1:$port" --name bob --script bob.txt --wait-timeout 60 >bob.log 2>&1 &
bob_pid=$!
printf 'sleep 25000\n' >idle.txt
"$cli" --connect "127.0.0.1:$port" --name carol --script idle.txt >carol.log 2>&1 &
carol_pid=$!
cat >keys.txt <<'SCRIPT'
lang zh
grace 30000
join last red
expect seat red
locate window
wait_turn 30000
move h2e2
expect ply 2
expect offer takeback
locate square e5
locate offer decline
expect offer none
expect flipped no
expect fits yes
expect flipped yes
sleep 300
screenshot keys_flipped.png
resign
expect result resignation
expect offer new_game
expect offer_clear yes
sleep 300
screenshot offer_band.png
locate invitee
expect invitees dave
sleep 300
screenshot invite_list.png
quit
SCRIPT
# dave logs in once alice sits (she hears of him only when she asks).
(wait_for_line keys.log "locate window " 60 && sleep 0.5 &&
  "$cli" --connect "127.0.0.1:$port" --name dave --script idle.txt >dave.log 2>&1) &
dave_pid=$!
xinput alice 640 480 keys.txt "key f square e5; pause 800; click offer decline; await ok flipped = no; \
clickat 100 10 window; key f square e5; await screenshot offer_band.png; click invitee"
cli_done "$bob_pid" bob
kill "$carol_pid" "$dave_pid" 2>/dev/null || true
wait "$carol_pid" "$dave_pid" 2>/dev/null || true
require_in keys.log "ok flipped = no" "ok flipped = yes" "ok offer_clear = yes" "ok invitees = dave"
check_screenshots keys_flipped.png offer_band.png invite_list.png
echo "F under the dialog left the board; F after a click beside it turned it; the new-game" \
  "question clear of the result band; the invite list asked afresh"

# 3. The lobby list's buttons stay put: a table's Sit and Watch buttons are of one width, in
#    their columns inside the list (one above the other in the narrow list of 640x480), and
#    Watch does not move when the table fills; a quick click on it right after still watches.
#    At 640x480 in Chinese and at 1280x800 in English.
for case in "640 480 zh" "1280 800 en"; do
  read -r w h lang <<<"$case"
  stop_server
  rm -rf data  # a fresh server: carol's table is table 1
  start_server --name "Input test"
  cat >carol.txt <<'SCRIPT'
create red
wait player_joined name=dave timeout=60
wait player_joined name=watcher timeout=60
sleep 500
SCRIPT
  "$cli" --connect "127.0.0.1:$port" --name carol --script carol.txt --wait-timeout 60 >carol.log 2>&1 &
  carol_pid=$!
  cat >rows_$lang.txt <<SCRIPT
lang $lang
grace 30000
expect row 1 black shown
sleep 300
expect row_buttons aligned
locate row 1 black
locate row 1 watch
screenshot rows_open_$lang.png
expect row 1 black none
expect row_buttons aligned
locate row 1 watch
screenshot rows_full_$lang.png
expect seat spectator
expect screen table
quit
SCRIPT
  # dave sits as Black once the watcher has found the table's buttons.
  (wait_for_line rows_$lang.log "locate row 1 watch " 60 &&
    printf 'join 1 black
sleep 3000
' >dave.txt &&
    "$cli" --connect "127.0.0.1:$port" --name dave --script dave.txt --wait-timeout 60 >dave.log 2>&1) &
  dave_pid=$!
  xinput watcher "$w" "$h" "rows_$lang.txt" "await ok row = none; pause 400; click row 1 watch"
  cli_done "$dave_pid" dave
  cli_done "$carol_pid" carol
  [ "$(grep -c '^ok row_buttons = aligned' "rows_$lang.log")" -eq 2 ] || { echo "FAIL: the buttons are not aligned ($lang)"; exit 1; }
  watch_at=$(grep '^locate row 1 watch ' "rows_$lang.log" | sort -u | wc -l)
  [ "$watch_at" -eq 1 ] || { echo "FAIL: Watch moved when the table filled ($lang)"; exit 1; }
  check_screenshots "rows_open_$lang.png" "rows_full_$lang.png"
  echo "${w}x$h $lang: the row's buttons aligned, Watch stayed put and took the quick click"
done

# 4. The invite list is there also when nobody was free as we sat: alice (English, 1280x800)
#    sits alone; dave logs in after; a click opens her list, which asks the server and offers
#    dave; a click picks him, one on Invite reaches him, and he sits as Black.
stop_server
rm -rf data
start_server --name "Input test"
cat >alone.txt <<'SCRIPT'
lang en
grace 30000
create red
expect seat red
locate window
locate invitee
expect invitees dave
sleep 300
screenshot invite_alone.png
locate pick dave
locate invite_button
expect seat_label black dave
quit
SCRIPT
invited dave alice alone.log
xinput alice 1280 800 alone.txt "awaitfile dave.log welcome; click invitee; await ok invitees = dave; \
click pick dave; click invite_button"
cli_done "$invited_pid" dave
require_in alone.log "ok invitees = dave" "ok seat_label = dave"
check_screenshots invite_alone.png
echo "alone at her table, alice found dave in the invite list and he took the seat"

echo "GUI input test passed"
