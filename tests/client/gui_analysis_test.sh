#!/usr/bin/env bash
# GUI test of the review's analysis (issue #14): an archived game with a known blunder
# (1. h2e2 h9g7 2. e2e6?? g7e6: the cannon takes the centre pawn and the horse takes it) is
# opened in Review from the game archive; a real mouse (xdotool, under the client's Xvfb)
# opens the Analysis tab and clicks Analyse, the server analyses the game, the evaluation
# graph is drawn, and a click on the graph's point of ply 3 shows that position: the move
# that led there marked a blunder, the best move (the horse taking the cannon) as the arrow.
# In English at 1280x800, then in Chinese at 640x480 (answered from the stored analysis);
# the stored analysis is then exported as PGN comments. Then the same game opened from a PGN
# file (not in the archive: sent with its moves, analysed again) in English at 800x600.
# In both archive runs the Explorer tab is then clicked open and its one move (2... g7e6,
# the archived game's) clicked: the review steps to ply 4.
# Usage: gui_analysis_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
command -v xdotool >/dev/null || { echo "FAIL: xdotool is missing (tools/setup.sh installs it)"; exit 1; }
client_timeout=240
# A square screen: SFML 2.5.1 centres a new window vertically by the display's width, so on a
# 1400x900 screen the lower part of a 640x480 window lies off the screen, out of the mouse's reach.
export SCREEN_SIZE=1400

cat >game.pgn <<'PGN'
[Event "Analysis test"]
[Red "ann"]
[Black "bob"]
[Result "0-1"]

1. h2e2 h9g7 2. e2e6 g7e6 3. h0g2 i9h9 4. i0h0 b9c7 5. b0c2 h7h3 0-1
PGN
"$server" import --data-dir data game.pgn
start_server --name "Analysis test"
run=0
mkdir -p home
cp game.pgn home/game.pgn
for case in "1280 800 en archive" "640 480 zh archive" "800 600 en file"; do
  run=$((run + 1))
  read -r w h lang from <<<"$case"
  # The archived game's runs then open the Explorer tab at ply 3: the archive's one game
  # played 2... g7e6 there; a click on it steps the review on to ply 4.
  explore=""
  explore_clicks=""
  if [ "$from" = archive ]; then
    open_game=$'dialog archive\narchive first'
    explore=$'locate explorer_tab\nexpect explorer_rows 1\nlocate explorer 0\nexpect review_ply 4\nexpect review_variation no\nsleep 300\nscreenshot explorer'"$run"'.png'
    explore_clicks=";explorer_tab;explorer 0"
  else
    open_game=$'dialog open_pgn\nchoose game.pgn'
  fi
  cat >"analysis$run.txt" <<SCRIPT
lang $lang
grace 30000
$open_game
expect screen review
expect analysis none
locate tab
locate analyse
grace 150000
expect analysis done
grace 30000
locate graph 3
expect review_ply 3
expect mark blunder
expect best_move g7e6
sleep 300
expect fits yes
screenshot analysis$run.png
$explore
quit
SCRIPT
  status=0
  CLICKS="tab;analyse;graph 3$explore_clicks" HOME="$work/home" XDG_CONFIG_HOME="$work/config-$run" timeout "$client_timeout" xvfb-run -a -s "-screen 0 ${SCREEN_SIZE}x${SCREEN_SIZE}x24" \
    "$gui_dir/gui_clicks.sh" "analysis$run.log" "$client" --connect "127.0.0.1:$port" --name "viewer$run" --mute \
    --width "$w" --height "$h" --script "analysis$run.txt" >"clicks$run.log" 2>&1 || status=$?
  cat "clicks$run.log" "analysis$run.log"
  [ "$status" -eq 0 ] || { echo "FAIL: the client ($lang, ${w}x$h) exited with $status"; exit 1; }
  require_in "clicks$run.log" "clicked tab at" "clicked analyse at" "clicked graph 3 at"
  require_in "analysis$run.log" "ok mark = blunder" "ok best_move = g7e6"
  check_screenshots "analysis$run.png"
  if [ -n "$explore" ]; then
    require_in "clicks$run.log" "clicked explorer_tab at" "clicked explorer 0 at"
    require_in "analysis$run.log" "ok explorer_rows = 1" "ok review_ply = 4" "ok review_variation = no"
    check_screenshots "explorer$run.png"
  fi
done
stop_server
"$server" export --data-dir data --game 1 >export.pgn
cat export.pgn
require_in export.pgn "[%eval " "(blunder)"
echo "GUI analysis test passed"
