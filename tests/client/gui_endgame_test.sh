#!/usr/bin/env bash
# Endgame challenges end to end: the Endgames window lists the collection (English, then
# Chinese at 640x480 with nothing cut), Play opens a table at the challenge's position with
# the player on the side to move and the full-strength AI on the other seat, a resignation
# is recorded as tried and not solved, and the progress survives a restart of the client.
# Usage: gui_endgame_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

start_server --name "Endgame test"

cat >first.txt <<'SCRIPT'
lang en
grace 30000
dialog endgames
sleep 300
expect fits yes
screenshot list_en.png
expect endgame r-aa-2 tried=0 solved=0
endgame r-aa-2
expect screen table
expect seat red
expect ply 0
expect fen 3k5/9/3a1aR2/9/9/9/9/9/9/4K4 w - - 0 1
expect seat_label black AI level 10 (2500)
expect endgame r-aa-2 tried=1 solved=0
sleep 300
screenshot table_en.png
resign
expect result resignation
expect toast Not solved this time
expect endgame r-aa-2 tried=1 solved=0
leave
expect screen lobby
# A challenge with Black to move: the player sits Black, the AI Red, nobody has moved.
endgame b-h-a-1
expect seat black
expect seat_label red AI level 10 (2500)
expect ply 0
expect fen 9/5k3/9/9/8n/9/9/5A3/4K4/9 b - - 0 1
wait_turn 30000
screenshot table_black.png
leave
expect screen lobby
quit
SCRIPT

cat >second.txt <<'SCRIPT'
lang zh
grace 30000
dialog endgames
sleep 300
expect endgame r-aa-2 tried=1 solved=0
expect endgame b-h-a-1 tried=1 solved=0
expect fits yes
screenshot list_zh.png
quit
SCRIPT

run_client player 1100 800 first.txt
require_in first.log "ok seat = red" "ok seat_label = AI level 10 (2500)" "ok result = resignation" \
  "ok endgame = tried=1 solved=0" "ok seat = black"
grep -q "^endgame=r-aa-2 1 0$" config-player/xiangqi/client.conf ||
  { echo "FAIL: client.conf does not keep the progress"; cat config-player/xiangqi/client.conf; exit 1; }
# The same player again (same config folder), in Chinese and a small window.
run_client player 640 480 second.txt
require_in second.log "ok fits = yes"
check_screenshots list_en.png table_en.png table_black.png list_zh.png
require_in first.log "ok fen = 3k5/9/3a1aR2/9/9/9/9/9/9/4K4 w - - 0 1" "ok fen = 9/5k3/9/9/8n/9/9/5A3/4K4/9 b - - 0 1"
stop_server
echo "PASS"
