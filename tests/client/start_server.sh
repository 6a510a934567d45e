# Sourced by the GUI tests. start_server OPTIONS... starts "$server" on an ephemeral loopback
# port with its own data directory and no discovery responder, logging to server.log in the
# current directory, and sets $server_pid and $port. When the test exits the server is
# stopped with SIGTERM and must exit 0 (a crash, a sanitizer report or a leak found at exit
# fails the test).
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
  "$server" --port 0 --bind 127.0.0.1 --data-dir data --discovery-port 0 --log-level info "$@" >server.log 2>&1 &
  server_pid=$!
  trap stop_server EXIT
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
