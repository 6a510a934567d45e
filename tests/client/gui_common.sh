# shellcheck shell=bash
# Sourced first by every desktop-client GUI test (gui_*_test.sh CLIENT SERVER WORKDIR): the
# shared prologue (strict mode, arguments, a fresh WORKDIR as the current directory, the
# sanitizer's leak report off for the client), the test server and the helpers below.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $(basename "$0") CLIENT SERVER WORKDIR"
  exit 2
fi
client=$1
server=$2
# The folder of the test scripts (the test runs in WORKDIR, so "$0" may no longer resolve).
gui_dir=$(cd "$(dirname "$0")" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
# Under the sanitizer pass, leaks inside Mesa and fontconfig are not ours to fix: keep
# AddressSanitizer's error checks for the client but not its leak report.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# Seconds a client may run before `timeout` stops it (and its test fails); a test may set it.
client_timeout=150
# Every xvfb-run of the test keeps its X authority file under WORKDIR (mktemp -t follows
# TMPDIR), so the Xvfb servers the test started can be told apart from any other: an Xvfb
# whose xvfb-run did not stop it (its xvfb-run killed, or its clean-up failing before the
# kill) is stopped when the test exits (stop_test_xvfbs, from the EXIT trap).
export TMPDIR="$work"
stop_test_xvfbs() {
  pkill -TERM -f -- "^Xvfb .* -auth $work/xvfb-run\\." 2>/dev/null || true
}
trap stop_test_xvfbs EXIT

# start_server OPTIONS... starts "$server" on an ephemeral loopback port with its own data
# directory and no discovery responder, logging to server.log, and sets $server_pid and
# $port. When the test exits the server is stopped with SIGTERM and must exit 0 (a crash, a
# sanitizer report or a leak found at exit fails the test).
stop_server() {
  local rc=0
  [ -n "${server_pid:-}" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || rc=$?
  server_pid=
  if [ "$rc" -ne 0 ]; then
    echo "FAIL: the server exited with status $rc after SIGTERM; server.log ends:"
    tail -n 40 server.log
    exit 1
  fi
}

start_server() {
  # Emptied here, not only by the redirection below: that happens in the child, and a parent
  # quicker than it read the stopped server's port from the old log (the client_gui_input
  # failure "Connection refused" at load 3-5).
  : >server.log
  "$server" --port 0 --bind 127.0.0.1 --data-dir data --discovery-port 0 --log-level info "$@" >server.log 2>&1 &
  server_pid=$!
  trap 'stop_test_xvfbs; stop_server' EXIT
  port=""
  for _ in $(seq 1 100); do
    port=$(grep -oE '127\.0\.0\.1:[0-9]+' server.log | head -n1 | cut -d: -f2 || true)
    [ -n "$port" ] && break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "server did not report its port"; cat server.log; exit 1
  fi
}

# run_client NAME WIDTH HEIGHT SCRIPT [CLIENT ARGS...]: one muted client under its own Xvfb,
# connected to the test server as NAME with a WIDTHxHEIGHT window, running SCRIPT (x.txt)
# and logging to x.log. Its config folder is config-NAME, so a client started again under the
# same name finds what it stored.
run_client() {
  local name=$1 width=$2 height=$3 script=$4
  shift 4
  XDG_CONFIG_HOME="$work/config-$name" timeout "$client_timeout" xvfb-run -a -s "-screen 0 1400x900x24" \
    "$client" --connect "127.0.0.1:$port" --name "$name" --mute --width "$width" --height "$height" \
    --script "$script" "$@" >"${script%.txt}.log" 2>&1
}

# xinput_prologue "$@": for the tests driven by real X input (xdotool) against a terminal
# client: $cli from the fourth argument, xdotool present, and a square screen (SFML centres a
# new window vertically by the display's width, see gui_analysis_test.sh, so every part of the
# window stays in the mouse's reach).
xinput_prologue() {
  cli=${4:?usage: $(basename "$0") CLIENT SERVER WORKDIR CLI}
  command -v xdotool >/dev/null || { echo "FAIL: xdotool is missing (tools/setup.sh installs it)"; exit 1; }
  client_timeout=150
  export SCREEN_SIZE=1400
}

# xinput NAME WIDTH HEIGHT SCRIPT ACTIONS: one client under its own Xvfb (a SCREEN_SIZE square,
# see xinput_prologue) running SCRIPT, driven by ACTIONS (gui_xinput.sh); its log is SCRIPT's name
# with .log, the driver's NAME-x.log.
xinput() {
  local name=$1 w=$2 h=$3 script=$4 status=0
  ACTIONS=$5 XDG_CONFIG_HOME="$work/config-$name" timeout "$client_timeout" \
    xvfb-run -a -s "-screen 0 ${SCREEN_SIZE}x${SCREEN_SIZE}x24" "$gui_dir/gui_xinput.sh" "${script%.txt}.log" \
    "$client" --connect "127.0.0.1:$port" --name "$name" --mute --width "$w" --height "$h" --script "$script" \
    >"$name-x.log" 2>&1 || status=$?
  cat "$name-x.log" "${script%.txt}.log"
  [ "$status" -eq 0 ] || { echo "FAIL: $name's client exited with $status"; exit 1; }
}

# invited NAME FROM HOST_LOG: in the background, once HOST_LOG shows the host's window (its
# script's "locate window"), a terminal client NAME ($cli, the test's fourth argument) logs in,
# waits for FROM's invitation, accepts it and stays a second at the table; its log is NAME.log,
# its pid $invited_pid (see cli_done).
invited() {
  local name=$1 from=$2 host_log=$3
  rm -f "$name.log"  # an earlier NAME's log must not pass for this one's (awaitfile NAME.log welcome)
  printf 'wait invite from=%s timeout=60\naccept\nwait player_joined name=%s timeout=60\nsleep 1000\n' \
    "$from" "$name" >"$name.txt"
  (wait_for_line "$host_log" "locate window " 60 &&
    "$cli" --connect "127.0.0.1:$port" --name "$name" --script "$name.txt" --wait-timeout 60 >"$name.log" 2>&1) &
  invited_pid=$!
}

# cli_done PID NAME: the terminal client NAME (process PID) ended well, else the test fails
# with its log.
cli_done() {
  wait "$1" || { cat "$2.log"; echo "FAIL: $2's terminal client failed"; exit 1; }
}

# wait_for_line FILE TEXT [SECONDS]: waits until FILE holds the line part TEXT (default 60 s);
# fails when it never comes.
wait_for_line() {
  local file=$1 text=$2 tenths=$((${3:-60} * 10))
  for _ in $(seq 1 "$tenths"); do
    grep -qF -- "$text" "$file" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# require_in FILE TEXT...: every TEXT occurs in FILE, else the test fails naming it.
require_in() {
  local file=$1
  shift
  for want in "$@"; do
    grep -qF -- "$want" "$file" || { echo "FAIL: missing in $file: $want"; exit 1; }
  done
}

# check_screenshots PNG...: each screenshot exists and shows a drawn window (more than 200
# colours), not a blank one.
check_screenshots() {
  local colours
  for png in "$@"; do
    [ -s "$png" ] || { echo "FAIL: screenshot $png missing"; exit 1; }
    colours=$(identify -format '%k' "$png")
    echo "$png: $(identify -format '%wx%h' "$png"), $colours colours"
    [ "$colours" -gt 200 ] || { echo "FAIL: $png looks blank ($colours colours)"; exit 1; }
  done
}
