#!/usr/bin/env bash
# GUI smoke test: a real xiangqi-server on an ephemeral loopback port, the desktop client
# under Xvfb driven by a script (moves by click and by drag, an illegal click, chat, the AI,
# screenshots). Passes when the client reaches the expected states and the screenshots show
# a drawn board (many colours, real contrast), not a blank window.
# Usage: gui_smoke_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"

start_server --name "Smoke test"

# A second client watches: it joins the first table it sees and must see the first move.
cat >watcher.txt <<'SCRIPT'
grace 60000
join last spectator
expect seat spectator
wait move_made 60000
expect move 1 h2e2
SCRIPT

cat >smoke.txt <<'SCRIPT'
lang en
create red Smoke table
expect seat red
ai black 1
# The watcher starts at the same time; on a loaded machine it may need a while.
grace 60000
expect spectators 1
grace 10000
wait_turn 30000
# At the start position (before the AI's replies make anything vary): a horse cannot move
# straight, so the client refuses locally with the reason and sends nothing.
click b0
click b3
expect toast Horses move
expect ply 0
screenshot start.png
move h2e2
wait move_made
wait_turn 30000
expect ply 2
expect move 1 h2e2
# The AI's replies vary; these moves and clicks stay legal (or illegal) whatever it plays.
drag c3c4
wait_turn 30000
expect ply 4
chat hello 你好
expect chat 你好
lang zh
theme 1
notation wxf
sleep 300
screenshot middle.png
SCRIPT

client_timeout=120
run_client watcher 900 700 watcher.txt --screenshot watcher.png &
watcher=$!
status=0
run_client smoke 1100 800 smoke.txt --screenshot end.png || status=$?
wstatus=0
wait "$watcher" || wstatus=$?
cat smoke.log
echo "--- watcher"
cat watcher.log
if [ "$status" -ne 0 ] || [ "$wstatus" -ne 0 ]; then
  echo "client exited with $status, watcher with $wstatus"; cat server.log; exit 1
fi
grep -qF "ok move = h2e2" watcher.log || { echo "the watcher did not see the first move"; exit 1; }
[ -s watcher.png ] || { echo "watcher.png missing"; exit 1; }
require_in smoke.log "ok seat = red" "ok ply = 2" "ok move = h2e2" "ok ply = 4" "ok toast = Horses move" "ok ply = 0" "ok chat = 你好"
for png in start.png middle.png end.png; do
  [ -s "$png" ] || { echo "$png missing"; exit 1; }
  size=$(identify -format '%wx%h' "$png")
  colours=$(identify -format '%k' "$png")
  spread=$(identify -format '%[fx:int(1000*standard_deviation)]' "$png")
  echo "$png: $size, $colours colours, spread $spread"
  [ "$size" = "1100x800" ] || { echo "$png has the wrong size"; exit 1; }
  [ "$colours" -gt 200 ] || { echo "$png looks blank ($colours colours)"; exit 1; }
  [ "$spread" -gt 50 ] || { echo "$png has no contrast"; exit 1; }
done
# The board is drawn where the board belongs: the middle of the board area is wood, not
# the window background.
board=$(convert end.png -crop 40x40+340+380 +repage -format '%[fx:int(255*mean.r)] %[fx:int(255*mean.g)]' info:)
echo "board sample (r g): $board"
red=${board%% *}
[ "$red" -gt 120 ] || { echo "no board where the board should be"; exit 1; }
echo "GUI smoke test passed"
