#!/usr/bin/env bash
# Invitations to a player in the lobby, under real X input (xdotool) at 640x480 in Chinese; the
# inviters are terminal clients. Erin's dialog shows the newest invitation and how many more
# wait, and keeps only those that can still be taken up:
# - alice and then carol invite her: carol's shows, "1 more" below it;
# - alice's connection is cut (her table closes): carol's alone, with nothing more waiting;
# - dave takes the seat carol offered: no invitation is left;
# - frank invites her: a click on Accept seats her as Black at his table;
# - at his table george's invitation only says it waits for the lobby (no dialog there, where
#   accepting could not work); back in the lobby it shows, and a click on Decline answers it.
# Usage: gui_invite_test.sh CLIENT SERVER WORKDIR CLI
# shellcheck source=gui_common.sh
. "$(dirname "$0")/gui_common.sh"
xinput_prologue "$@"

start_server --name "Invite test"

# cli_after LOG TEXT NAME: in the background, once LOG holds TEXT, the terminal client NAME runs
# NAME.txt (NAME.log); its pid is stored in NAME_pid.
cli_after() {
  local log=$1 text=$2 name=$3
  (wait_for_line "$log" "$text" 90 &&
    exec "$cli" --connect "127.0.0.1:$port" --name "$name" --script "$name.txt" --wait-timeout 60 >"$name.log" 2>&1) &
  printf -v "${name}_pid" '%s' "$!"
}

cat >erin.txt <<'SCRIPT'
lang zh
grace 30000
expect screen lobby
locate window
expect invitation alice 1
expect invitation carol 2 (+1)
sleep 300
expect fits yes
screenshot two.png
expect invitation carol 2
screenshot one.png
expect invitation none
screenshot none.png
expect invitation frank 3
locate invitation accept
expect seat black
expect seat_label red frank
screenshot seated.png
expect toast george 邀请你到第 4 桌
expect invitation none
screenshot waits.png
leave
expect screen lobby
expect invitation george 4
sleep 300
screenshot back.png
locate invitation decline
expect invitation none
quit
SCRIPT
printf 'create red\nwait table_snapshot\ninvite erin black\nsleep 90000\n' >alice.txt
printf 'create red\nwait table_snapshot\ninvite erin black\nsleep 90000\n' >carol.txt
printf 'join 2 black\nsleep 90000\n' >dave.txt
printf 'create red\nwait table_snapshot\ninvite erin\nwait player_joined name=erin timeout=60\nwait player_left name=erin timeout=60\n' >frank.txt
printf 'create red\nwait table_snapshot\ninvite erin\nwait answer_invite timeout=60\n' >george.txt

cli_after erin.log "locate window " alice
cli_after erin.log "ok invitation = alice 1" carol
# alice's connection is cut once erin showed both invitations.
(wait_for_line erin.log "screenshot two.png" 90 && kill -KILL "$alice_pid") &
cli_after erin.log "screenshot one.png" dave
cli_after erin.log "screenshot none.png" frank
cli_after erin.log "screenshot seated.png" george
xinput erin 640 480 erin.txt "click invitation accept; click invitation decline"
require_in erin-x.log "clicked invitation accept" "clicked invitation decline"
cli_done "$frank_pid" frank
cli_done "$george_pid" george
require_in george.log '"accept":false'
kill "$carol_pid" "$dave_pid" 2>/dev/null || true
wait "$carol_pid" "$dave_pid" "$alice_pid" 2>/dev/null || true
check_screenshots two.png one.png none.png seated.png waits.png back.png
echo "the invitation dialog kept only what could be taken up; Accept seated erin, Decline answered george"
echo "GUI invitation test passed"
