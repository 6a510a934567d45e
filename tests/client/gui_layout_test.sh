#!/usr/bin/env bash
# Layouts that hold: the real client at three window sizes (the 640x480 minimum, wide and
# short 1300x480, and 1280x800), in Chinese and in English, in the lobby and at a table
# against the AI. At each it asks the interface itself whether every window lies inside the
# client window with nothing cut and the chat with room for three lines (`expect fits yes`:
# during the game, with an offer out and after it), and the screenshots must show drawn
# content in each quarter (no blank area) at the requested size.
# A player waits in the lobby all along (a terminal client), so the table's invite list has
# someone to offer: with it, waiting for an opponent at 640x480 squeezed the chat to a sliver.
# Usage: gui_layout_test.sh CLIENT SERVER WORKDIR CLI
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
cli=${4:?usage: gui_layout_test.sh CLIENT SERVER WORKDIR CLI}

start_server --name "Layout test"
printf 'sleep 600000\n' >idle.txt
"$cli" --connect "127.0.0.1:$port" --name idler --script idle.txt >idler.log 2>&1 &
idler_pid=$!

client_timeout=120
run=0
for size in 640x480 1300x480 1280x800; do
  for lang in zh en; do
    run=$((run + 1))
    w=${size%x*}
    h=${size#*x}
    tag="${size}_${lang}"
    # The AI answers a draw offer at once, and takes it when its last search saw itself lost
    # (300 cp down): a level-1 AI on a loaded machine sometimes did, and the game ended by
    # agreement before the resignation. Either way the game is over for the last layouts.
    cat >"layout_$tag.txt" <<SCRIPT
lang $lang
grace 30000
expect screen lobby
sleep 300
expect fits yes
screenshot lobby_$tag.png
create red
expect seat red
sleep 300
expect fits yes
screenshot waiting_$tag.png
ai black 1
wait_turn 30000
move h2e2
wait move_made
chat 你好 hello
sleep 300
expect fits yes
screenshot table_$tag.png
draw
sleep 300
expect fits yes
screenshot offer_$tag.png
resign
expect status over
sleep 300
expect fits yes
screenshot over_$tag.png
leave
expect screen lobby
sleep 300
expect fits yes
quit
SCRIPT
    status=0
    run_client "lay$run" "$w" "$h" "layout_$tag.txt" || status=$?
    cat "layout_$tag.log"
    if [ "$status" -ne 0 ]; then
      echo "FAIL: the client at $size ($lang) exited with $status"; exit 1
    fi
    [ "$(grep -cF "ok fits = yes" "layout_$tag.log")" -eq 6 ] || { echo "FAIL: layout checks at $size ($lang)"; exit 1; }
    for png in "lobby_$tag.png" "waiting_$tag.png" "table_$tag.png" "offer_$tag.png" "over_$tag.png"; do
      [ -s "$png" ] || { echo "FAIL: $png missing"; exit 1; }
      got=$(identify -format '%wx%h' "$png")
      [ "$got" = "$size" ] || { echo "FAIL: $png is $got, not $size"; exit 1; }
      # Each quarter of the window shows something drawn (text, board, panels), not one
      # flat colour.
      for q in "0 0" "1 0" "0 1" "1 1"; do
        set -- $q
        spread=$(convert "$png" -crop "$((w / 2))x$((h / 2))+$(($1 * w / 2))+$(($2 * h / 2))" +repage \
          -format '%[fx:int(1000*standard_deviation)]' info:)
        [ "$spread" -gt 20 ] || { echo "FAIL: quarter ($1,$2) of $png is blank (spread $spread)"; exit 1; }
      done
      echo "$png: $got, every quarter drawn"
    done
  done
done
kill "$idler_pid" 2>/dev/null || true
wait "$idler_pid" 2>/dev/null || true
echo "GUI layout test passed"
