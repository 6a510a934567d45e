#!/usr/bin/env bash
# The create-table dialog as it opens leaves the clock and the grace to the server, and the
# invite row never names a player who is no longer free. Real X input (xdotool), 1000x700:
# - on a server started with --clock fischer:300+5 --seat-grace 90, alice opens the dialog
#   ("Server's default" chosen for both) and clicks Create without touching anything: her
#   table has the server's clock and grace (it used to get no clock and 60 s, the dialog's own
#   choices, always sent);
# - at her table, with the invite list closed, the row names erin (free in the lobby); erin
#   then sits down at a table of her own and the only other player leaves: the closed row
#   names nobody (it kept naming erin: a player at a table hears nothing of the lobby and
#   only an open list asked the server again);
# - the dialog in Chinese (screenshot).
# Usage: gui_defaults_test.sh CLIENT SERVER WORKDIR CLI
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
xinput_prologue "$@"

start_server --name "Defaults test" --clock fischer:300+5 --seat-grace 90

cat >alice.txt <<'SCRIPT'
lang en
grace 30000
expect screen lobby
locate create_table
locate clock_default
sleep 300
screenshot create_en.png
locate create_button
expect screen table
expect seat red
expect rules fischer:300+5 grace=90 abandon=claim takebacks=1
expect invite_preview erin
screenshot preview_erin.png
grace 20000
expect invite_preview none
screenshot preview_none.png
quit
SCRIPT
# erin sits down at a table of her own once gus logs in (lobby members hear user_joined);
# gus leaves a moment later.
printf 'wait user_joined name=gus timeout=90\ncreate red\nwait table_snapshot\nsleep 90000\n' >erin.txt
printf 'sleep 1500\n' >gus.txt

"$cli" --connect "127.0.0.1:$port" --name erin --script erin.txt --wait-timeout 90 >erin.log 2>&1 &
erin_pid=$!
wait_for_line erin.log welcome 30 || { echo "FAIL: erin did not log in"; exit 1; }
(wait_for_line alice.log "ok invite_preview = erin" 90 &&
  exec "$cli" --connect "127.0.0.1:$port" --name gus --script gus.txt --wait-timeout 60 >gus.log 2>&1) &
gus_pid=$!
xinput alice 1000 700 alice.txt "click create_table; click create_button"
require_in alice-x.log "clicked create_table" "clicked create_button"
require_in alice.log "ok rules = fischer:300+5 grace=90" "ok invite_preview = erin" "ok invite_preview = none"
kill "$erin_pid" 2>/dev/null || true
wait "$gus_pid" "$erin_pid" 2>/dev/null || true
require_in erin.log '"type":"table_snapshot"'

cat >create_zh.txt <<'SCRIPT'
lang zh
grace 30000
expect screen lobby
dialog create
sleep 300
screenshot create_zh.png
quit
SCRIPT
run_client zhao 1000 700 create_zh.txt || { cat create_zh.log; echo "FAIL: the Chinese dialog's client failed"; exit 1; }
check_screenshots create_en.png preview_erin.png preview_none.png create_zh.png
echo "GUI defaults test passed: Create untouched gave the server's fischer:300+5 and 90 s; the closed invite row dropped erin once she sat down"
