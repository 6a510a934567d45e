# shellcheck shell=bash
# Sourced by the shell tests that start a real xiangqi-server. The test sets `work` (its
# temporary folder) and defines fail() before it calls xq_start_server SERVER ARGS..., which
# starts the server on 127.0.0.1 with an ephemeral port (its log in $work/server.log) and sets
# spid and port. On exit the server is stopped with SIGTERM and must exit 0 (a crash, a
# sanitizer report or a leak found at exit fails the test), and $work is removed.
: "${work:?set work (the temporary folder of the test) before sourcing tests/lib/server.sh}"
spid=
port=

xq_stop_server() {
  local rc=0
  if [ -n "$spid" ]; then
    kill -TERM "$spid" 2>/dev/null || true
    wait "$spid" 2>/dev/null || rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "FAIL: the server exited with status $rc after SIGTERM; its log ends:" >&2
      tail -n 40 "$work/server.log" >&2
    fi
  fi
  rm -rf "$work"
  [ "$rc" -eq 0 ] || exit 1
}
trap xq_stop_server EXIT

xq_start_server() {
  local server=$1
  shift
  "$server" --bind 127.0.0.1 --port 0 "$@" >"$work/server.log" 2>&1 &
  spid=$!
  for _ in $(seq 100); do
    port=$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$work/server.log" 2>/dev/null | grep -oE '[0-9]+$' || true)
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  fail "server did not report its port"
}
