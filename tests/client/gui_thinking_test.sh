#!/usr/bin/env bash
# The AI thinking area at the smallest window (640x480): against the full-strength AI (no
# opening book, so it searches from the first move) the thinking side's plate shows depth,
# score and at least two moves of the AI's line, in English with Chinese moves and in
# Chinese with WXF moves, inside the window; screenshots of both.
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
echo "PASS"
