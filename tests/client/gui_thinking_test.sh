#!/usr/bin/env bash
# The AI thinking area at the smallest window (640x480): against the full-strength AI (no
# opening book, so it searches from the first move) the thinking side's plate shows depth,
# score and at least two moves of the AI's line, in English with Chinese moves and in
# Chinese with WXF moves, inside the window; screenshots of both. Then hints (提示) against
# the AI: a real mouse clicks the table's Hint button, in English and in Chinese, and the
# board shows the hint as an arrow, a legal move; screenshots of both. Before that the mouse
# clicks the lobby's Sound box: under Xvfb there is no audio device, and the click that finds
# none must leave the client running (it aborted Dear ImGui once).
# Usage: gui_thinking_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

start_server --name "Thinking test" --no-book

cat >think.txt <<'SCRIPT'
lang en
create red Thinking table
expect seat red
ai black 10
grace 30000
wait_turn 30000
move h2e2
wait move_made
expect thinking depth
expect thinking_moves 2
expect fits yes
screenshot think_en.png
wait_turn 30000
lang zh
notation wxf
move c3c4
wait move_made
expect thinking 深度
expect thinking_moves 2
expect fits yes
screenshot think_zh.png
quit
SCRIPT

run_client thinker 640 480 think.txt || { cat think.log; cat server.log; exit 1; }
cat think.log
require_in think.log "ok thinking = depth" "ok thinking = 深度" "ok thinking_moves = 2" "ok fits = yes"
check_screenshots think_en.png think_zh.png

export SCREEN_SIZE=1400
for case in "en 800 600" "zh 640 480"; do
  read -r lang w h <<<"$case"
  cat >"hint_$lang.txt" <<SCRIPT
lang $lang
grace 30000
sleep 1000
locate sound
sleep 1500
create red Hint table
expect seat red
ai black 1
wait_turn 30000
expect hint_arrow none
locate hint
expect hint_arrow legal
sleep 300
screenshot hint_$lang.png
quit
SCRIPT
  status=0
  CLICKS="sound;hint" XDG_CONFIG_HOME="$work/config-hint-$lang" timeout "$client_timeout" xvfb-run -a -s "-screen 0 ${SCREEN_SIZE}x${SCREEN_SIZE}x24" \
    "$gui_dir/gui_clicks.sh" "hint_$lang.log" "$client" --connect "127.0.0.1:$port" --name "hinter_$lang" --mute \
    --width "$w" --height "$h" --script "hint_$lang.txt" >"hint_clicks_$lang.log" 2>&1 || status=$?
  cat "hint_clicks_$lang.log" "hint_$lang.log"
  [ "$status" -eq 0 ] || { echo "FAIL: the client ($lang, ${w}x$h) exited with $status"; cat server.log; exit 1; }
  require_in "hint_clicks_$lang.log" "clicked sound at" "clicked hint at"
  require_in "hint_$lang.log" "ok hint_arrow = none" "ok hint_arrow = legal"
  check_screenshots "hint_$lang.png"
done
echo "PASS"
