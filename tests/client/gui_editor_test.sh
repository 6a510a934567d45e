#!/usr/bin/env bash
# The position editor (摆棋) end to end: its refusals in words (an elephant across the river,
# a third rook), the board's check (no king, kings facing on an open file), FEN in and out,
# then a legal position played against the AI (the AI takes the other seat, the table starts
# from the set-up position) and another opened at a table for two; English and Chinese,
# 1100x800 and 640x480.
# Usage: gui_editor_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

start_server --name "Editor test"

cat >first.txt <<'SCRIPT'
lang en
grace 30000
dialog editor
expect editor_fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
expect editor_check legal
editor clear
expect editor_check a side has no king
editor place b e5
expect editor_message an elephant stands on a point elephants can never reach
editor place K e0
editor place k e9
expect editor_check the side that is not to move is in check (or the kings face each other)
editor place a e8
expect editor_check legal
editor place R a0
editor place R i0
editor place R e4
expect editor_message a side has more pieces of one kind than the game has
editor place N c6
editor side black
expect editor_fen 4k4/4a4/9/2N6/9/9/9/9/9/R3K3R b - - 0 1
expect editor_check legal
sleep 300
expect fits yes
screenshot editor_en.png
editor play
expect screen table
expect seat black
expect seat_label red AI level 5 (1500)
expect fen 4k4/4a4/9/2N6/9/9/9/9/9/R3K3R b - - 0 1
screenshot editor_table.png
resign
expect result resignation
leave
expect screen lobby
quit
SCRIPT

cat >second.txt <<'SCRIPT'
lang zh
grace 30000
dialog editor
editor fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1
expect editor_fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1
editor fen 4k4/9/9/9/4b4/9/9/9/9/4K4 w - - 0 1
expect editor_message 象在象不可能到达的位置
expect editor_fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1
sleep 300
expect fits yes
screenshot editor_zh.png
editor table
expect screen table
expect seat red
expect ply 0
expect fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1
leave
expect screen lobby
quit
SCRIPT

run_client editor 1100 800 first.txt
require_in first.log "ok editor_check = legal" "ok seat_label = AI level 5 (1500)" "ok result = resignation"
run_client editor2 640 480 second.txt
require_in second.log "ok fits = yes" "ok fen = 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"
check_screenshots editor_en.png editor_table.png editor_zh.png
stop_server
echo "PASS"
