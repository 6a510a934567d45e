#!/usr/bin/env bash
# GUI test of copy and save (issue #12): a player against the AI copies the game as PGN and the
# position as FEN (the clipboard through SFML, as a paste reads it), saves both through the
# file chooser, resigns, saves the finished game, opens it again with the Open PGN chooser,
# sees its result in Review and flips the board there. At 640x480 in English and at 1280x800
# in Chinese; the saved files must read back (PGN tags, moves and result, a 10-rank FEN).
# Usage: gui_export_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

start_server --name "Export test"
run=0
for case in "640 480 en Black wins · resignation" "1280 800 zh 黑方胜 · 认输"; do
  run=$((run + 1))
  read -r w h lang result <<<"$case"
  mkdir -p "home$run"
  cat >"export$run.txt" <<SCRIPT
lang $lang
grace 30000
create red
expect seat red
ai black 1
wait_turn 30000
move h2e2
wait move_made
wait_turn 30000
expect captured red 0
copy pgn
expect clipboard [Red "exp$run"]
expect clipboard 1. 
copy fen
expect clipboard  w - - 
dialog save_pgn
expect file_chooser $work/home$run
choose game
dialog save_fen
choose position
resign
expect result resignation
dialog save_pgn
choose over.pgn
dialog open_pgn
choose over.pgn
expect screen review
expect review_result $result
flip
expect review_flipped yes
sleep 300
expect fits yes
screenshot review$run.png
quit
SCRIPT
  status=0
  HOME="$work/home$run" run_client "exp$run" "$w" "$h" "export$run.txt" || status=$?
  cat "export$run.log"
  [ "$status" -eq 0 ] || { echo "FAIL: the client ($lang, ${w}x$h) exited with $status"; exit 1; }
  require_in "home$run/game.pgn" '[Game "Chinese Chess"]' "[Red \"exp$run\"]" '[Result "*"]' '1. '
  require_in "home$run/over.pgn" '[Result "0-1"]' '[Termination "resignation"]'
  fen=$(cat "home$run/position.fen")
  ranks=$(printf '%s\n' "${fen%% *}" | awk -F/ '{print NF}')
  [ "$ranks" -eq 10 ] || { echo "FAIL: position.fen is no FEN: $fen"; exit 1; }
  [ ! -e "home$run/game.pgn.part" ] || { echo "FAIL: a partial file was left"; exit 1; }
  check_screenshots "review$run.png"
done
echo "GUI export test passed"
