#!/usr/bin/env bash
# The invite list at a table follows the lobby while it is open (a player at a table hears
# nothing of the lobby, so the open list asks the server again every second; it used to be
# asked only as it opened). Alice (1000x700, English, real X input) waits for an opponent with
# the list open; terminal clients: erin is in the lobby from the start, fay logs in, sits down
# at a table of her own, gus logs in, erin leaves. The list shows each change without being
# closed and opened again.
# Usage: gui_invitees_test.sh CLIENT SERVER WORKDIR CLI
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
xinput_prologue "$@"

start_server --name "Invitees test"

# cli_after LOG TEXT NAME: in the background, once LOG holds TEXT, the terminal client NAME runs
# NAME.txt (NAME.log); its pid is stored in NAME_pid.
cli_after() {
  local log=$1 text=$2 name=$3
  (wait_for_line "$log" "$text" 90 &&
    exec "$cli" --connect "127.0.0.1:$port" --name "$name" --script "$name.txt" --wait-timeout 60 >"$name.log" 2>&1) &
  printf -v "${name}_pid" '%s' "$!"
}

cat >alice.txt <<'SCRIPT'
lang en
grace 30000
expect screen lobby
create red
expect seat red
locate invitee
expect invitees erin
expect invitees -fay
expect invitees fay
expect invitees -fay
expect invitees gus
expect invitees -erin
sleep 300
screenshot open_list.png
quit
SCRIPT
printf 'sleep 90000\n' >erin.txt
# fay sits down at a table of her own once gus logs in (lobby members hear user_joined).
printf 'wait user_joined name=gus timeout=60\ncreate red\nwait table_snapshot\nsleep 90000\n' >fay.txt
printf 'sleep 90000\n' >gus.txt

"$cli" --connect "127.0.0.1:$port" --name erin --script erin.txt --wait-timeout 60 >erin.log 2>&1 &
erin_pid=$!
wait_for_line erin.log welcome 30 || { echo "FAIL: erin did not log in"; exit 1; }
cli_after alice.log "ok invitees = -fay" fay
cli_after alice.log "ok invitees = fay" gus
(wait_for_line alice.log "ok invitees = gus" 90 && kill "$erin_pid") &
xinput alice 1000 700 alice.txt "click invitee"
require_in alice-x.log "clicked invitee"
require_in alice.log "ok invitees = erin" "ok invitees = fay" "ok invitees = -fay" "ok invitees = gus" "ok invitees = -erin"
kill "$fay_pid" "$gus_pid" 2>/dev/null || true
wait "$fay_pid" "$gus_pid" "$erin_pid" 2>/dev/null || true
require_in fay.log '"type":"table_snapshot"'
check_screenshots open_list.png
echo "GUI invitees test passed: the open invite list showed an arrival, a player sitting down and one leaving"
