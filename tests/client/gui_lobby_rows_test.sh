#!/usr/bin/env bash
# The lobby's table list at every window size (640x480, 1100x700, 1300x480, 1920x1080) in
# English and Chinese: each table one line in the wide list (name, status, seats, clock,
# spectators side by side: at 1920x1080 the status used to wrap under the name) and three
# lines in the narrow one, a text too long for its cell cut with "…" (`expect lobby_rows
# fit`), the buttons in their columns; a window smaller than the screen wholly on it. The tables (terminal clients): a long name with an
# Asian clock, no takebacks and hints; a Fischer game between long names; a finished game.
# Usage: gui_lobby_rows_test.sh CLIENT SERVER WORKDIR CLI
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
cli=${4:?usage: gui_lobby_rows_test.sh CLIENT SERVER WORKDIR CLI}

start_server --name "Lobby rows test"

# player NAME SCRIPT: a terminal client running SCRIPT in the background (NAME.log).
pids=()
player() {
  printf '%b' "$2" >"$1.txt"
  "$cli" --connect "127.0.0.1:$port" --name "$1" --script "$1.txt" --wait-timeout 60 >"$1.log" 2>&1 &
  pids+=($!)
}
stay='sleep 600000\n'
player ann "create red clock=asian:1200/120/60 takebacks=off hints=on A very long table name that runs past any column\nwait table_snapshot\n$stay"
wait_for_line ann.log '"type":"table_snapshot"' 30 || { cat ann.log; echo "FAIL: ann has no table"; exit 1; }
player Bartholomew_Long "create red clock=fischer:300+5 欧阳的周五夜晚长名字棋桌欢迎大家来观战\nwait table_snapshot\n$stay"
wait_for_line Bartholomew_Long.log '"type":"table_snapshot"' 30 || { echo "FAIL: no table 2"; exit 1; }
player 欧阳长名字的棋手 "join 2 black\nwait table_snapshot\n$stay"
player cy "create black\nwait table_snapshot\nwait player_joined name=dee timeout=60\n$stay"
wait_for_line cy.log '"type":"table_snapshot"' 30 || { echo "FAIL: no table 3"; exit 1; }
player dee "join 3 red\nwait table_snapshot\nresign\nwait game_over\n$stay"
wait_for_line dee.log '"type":"game_over"' 30 || { cat dee.log; echo "FAIL: the game at table 3 did not end"; exit 1; }
wait_for_line 欧阳长名字的棋手.log '"type":"table_snapshot"' 30 || { echo "FAIL: table 2 has no Black"; exit 1; }

client_timeout=60
for size in 640x480 1100x700 1300x480 1920x1080; do
  for lang in en zh; do
    tag="${size}_$lang"
    cat >"rows_$tag.txt" <<SCRIPT
lang $lang
grace 20000
expect screen lobby
locate window
sleep 500
expect lobby_rows fit
expect row_buttons aligned
expect fits yes
screenshot rows_$tag.png
quit
SCRIPT
    status=0
    run_client "viewer_$lang" "${size%x*}" "${size#*x}" "rows_$tag.txt" || status=$?
    if [ "$status" -ne 0 ]; then
      cat "rows_$tag.log"
      echo "FAIL: the lobby's rows at $size ($lang)"
      exit 1
    fi
    require_in "rows_$tag.log" "ok lobby_rows = fit" "ok row_buttons = aligned" "ok fits = yes"
    # A window smaller than the 1400x900 screen lies wholly on it (SFML 2.5 put a window's top
    # at (screen width - height) / 2: 1100x700 hung 150 px below the bottom edge).
    read -r wx wy < <(grep -m1 "^locate window " "rows_$tag.log" | cut -d' ' -f3,4)
    w=${size%x*}
    h=${size#*x}
    if [ "$w" -le 1400 ] && [ "$h" -le 900 ]; then
      if [ "$wx" -lt 0 ] || [ "$wy" -lt 0 ] || [ $((wx + w)) -gt 1400 ] || [ $((wy + h)) -gt 900 ]; then
        echo "FAIL: the ${size} window at $wx,$wy is not wholly on the 1400x900 screen"
        exit 1
      fi
      echo "$size: the window at $wx,$wy lies on the screen"
    fi
    check_screenshots "rows_$tag.png"
  done
done
kill "${pids[@]}" 2>/dev/null || true
wait "${pids[@]}" 2>/dev/null || true
echo "GUI lobby rows test passed"
