#!/usr/bin/env bash
# GUI test of the Tournaments window (issue #18): Alice (English, 1400x900) creates a
# round-robin with one AI entrant (level 1) and directs it; Bob (Chinese, 800x600) finds it in
# the lobby's list and enters with a real mouse click (xdotool under his Xvfb). Alice clicks
# Start; the server seats Bob at the board. In the pairings Alice clicks Pause (Bob's client
# shows the game paused), Resume, then Watch: she watches the board, goes back to the lobby,
# opens the board's Arbiter tools and adjudicates it (Red wins, with a reason, confirmed: all
# real clicks; Bob's game ends by adjudication). Both see the
# standings (points, Buchholz, S-B, wins) and the crosstable of the finished tournament, in
# their language (screenshots at both sizes). Alice clicks Save PGN: the tournament's games,
# fetched page by page, go to the file she names in the chooser.
# The form's no-show forfeit and spectator delay are refused out of range in words (both
# languages) and reach the server (the tournament line carries them).
# Usage: gui_tournament_test.sh CLIENT SERVER WORKDIR
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
command -v xdotool >/dev/null || { echo "FAIL: xdotool is missing (tools/setup.sh installs it)"; exit 1; }
client_timeout=200
# A square screen: SFML centres a new window vertically by the display's width (see
# gui_analysis_test.sh), so every part of the window stays in the mouse's reach.
export SCREEN_SIZE=1400

start_server --name "Tournament test"

mkdir -p home-alice
cat >alice.txt <<SCRIPT
lang en
grace 30000
expect screen lobby
dialog tournaments
expect tourney Tournament name
tournament ai 1 1
tournament forfeit 0
expect tourney The no-show forfeit time must be 1 to 3600 seconds
tournament forfeit 300
tournament delay 2
tournament create Club night
expect tourney You direct this tournament
expect tourney A player absent 300 s after the pairing loses by forfeit · Spectators see the boards 2 moves late
expect tourney 2 entrants
locate tourney start
expect tourney Round 1 of 1
locate tourney tab pairings
expect tourney Board 1:
expect tourney AI level 1
sleep 300
expect fits yes
screenshot pairings_en.png
locate tourney pause 1
sleep 1500
locate tourney resume 1
sleep 1000
locate tourney watch 1
expect screen table
expect seat spectator
sleep 2000
leave
expect screen lobby
dialog tournaments
expect tourney Board 1: AI level 1 - bob
locate tourney arbiter 1
expect tourney Arbiter at board 1: AI level 1 - bob
expect tourney (x) Draw
tournament reason Bob's phone rang
locate tourney result red
expect tourney (x) Red wins
locate tourney adjudicate
expect tourney Adjudicate board 1: Red wins ("Bob's phone rang")?
sleep 300
screenshot arbiter_en.png
locate tourney confirm
tournament view last
expect tourney finished
tournament tab crosstable
expect tourney 1 AI level 1: x | 2 = 2
expect tourney 2 bob: 0 | x = 0
sleep 300
screenshot crosstable_en.png
tournament tab standings
expect tourney Player | Points | Buchholz | S-B | Wins | Games
expect tourney 1 | AI level 1 | 2 | 0 | 0 | 1 | 1
expect tourney 2 | bob | 0 | 2 | 0 | 0 | 1
sleep 300
expect fits yes
screenshot standings_en.png
locate tourney save pgn
expect file_chooser $work/home-alice
choose club.pgn
quit
SCRIPT

cat >bob.txt <<'SCRIPT'
lang zh
grace 30000
expect screen lobby
dialog tournaments
expect tourney Club night
tournament delay 21
expect tourney 观战延迟须在 0 到 20 步之间。
tournament delay 0
locate tourney view 1
expect tourney 裁判长：alice
expect tourney 配对后 300 秒未到者判负 · 观战延迟 2 步
locate tourney join
expect tourney 你已报名
sleep 300
screenshot entered_zh.png
expect screen table
expect paused yes
expect paused no
expect spectators 1
expect result adjudication
sleep 1000
screenshot adjudicated_zh.png
leave
expect screen lobby
dialog tournaments
tournament view last
expect tourney 已结束
tournament tab crosstable
expect tourney 1 电脑 1 级: x | 2 = 2
expect tourney 2 bob: 0 | x = 0
sleep 300
expect fits yes
screenshot crosstable_zh.png
tournament tab standings
expect tourney 选手 | 积分 | 对手分 | 索伯分 | 胜局 | 对局
expect tourney 1 | 电脑 1 级 | 2 | 0 | 0 | 1 | 1
expect tourney 2 | bob | 0 | 2 | 0 | 0 | 1
sleep 300
screenshot standings_zh.png
quit
SCRIPT

run_clicking() {
  local name=$1 width=$2 height=$3 clicks=$4
  CLICKS="$clicks" XDG_CONFIG_HOME="$work/config-$name" HOME="$work/home-$name" timeout "$client_timeout" \
    xvfb-run -a -s "-screen 0 ${SCREEN_SIZE}x${SCREEN_SIZE}x24" \
    "$gui_dir/gui_clicks.sh" "$name.log" "$client" --connect "127.0.0.1:$port" --name "$name" --mute \
    --width "$width" --height "$height" --script "$name.txt" >"clicks-$name.log" 2>&1
}

mkdir -p home-bob
run_clicking alice 1400 900 "tourney start;tourney tab pairings;tourney pause 1;tourney resume 1;tourney watch 1;tourney arbiter 1;tourney result red;tourney adjudicate;tourney confirm;tourney save pgn" &
alice=$!
sleep 2
status=0
run_clicking bob 800 600 "tourney view 1;tourney join" || { echo "bob's client failed:"; cat clicks-bob.log bob.log; status=1; }
wait "$alice" || { echo "alice's client failed:"; cat clicks-alice.log alice.log; status=1; }
[ "$status" -eq 0 ] || { tail -n 40 server.log; exit 1; }
cat clicks-alice.log clicks-bob.log
require_in clicks-alice.log "clicked tourney start at" "clicked tourney tab pairings at" "clicked tourney pause 1 at" \
  "clicked tourney resume 1 at" "clicked tourney watch 1 at" "clicked tourney arbiter 1 at" "clicked tourney result red at" \
  "clicked tourney adjudicate at" "clicked tourney confirm at" "clicked tourney save pgn at"
require_in clicks-bob.log "clicked tourney view 1 at" "clicked tourney join at"
require_in alice.log "ok tourney = 1 AI level 1: x | 2 = 2" "ok tourney = 2 | bob | 0 | 2 | 0 | 0 | 1" "ok seat = spectator" \
  "ok fits = yes"
require_in bob.log "ok paused = yes" "ok paused = no" "ok result = adjudication" "ok tourney = 1 电脑 1 级: x | 2 = 2" \
  "ok tourney = 1 | 电脑 1 级 | 2 | 0 | 0 | 1 | 1" "ok fits = yes"
# Save PGN fetched the tournament's games over the wire (get_tournament_pgn) into one file.
require_in home-alice/club.pgn '[Result "1-0"]' 'AI level 1' '[Black "bob"]' "Bob's phone rang"
grep -q "tournament 1 finished" server.log || { echo "FAIL: the server never finished the tournament"; tail -n 30 server.log; exit 1; }
check_screenshots arbiter_en.png adjudicated_zh.png pairings_en.png crosstable_en.png standings_en.png entered_zh.png crosstable_zh.png standings_zh.png
echo "GUI tournament test passed"
