#!/usr/bin/env bash
# Real mouse clicks for the GUI tests (run inside their xvfb-run): gui_clicks.sh LOG CLIENT ARGS...
# starts the client with its output in LOG, then clicks, in order, the controls named in
# $CLICKS (separated by ';') where the client's `locate CONTROL X Y` lines say, on the
# $SCREEN_SIZE x $SCREEN_SIZE screen. Exits non-zero when a control never shows, lies off the
# screen, or the client fails.
set -euo pipefail
log=$1
shift
"$@" >"$log" 2>&1 &
pid=$!
# click CONTROL: waits up to 150 s for "locate CONTROL X Y" in the log, then moves the pointer
# there and clicks (screen coordinates of this X display).
click() {
  local line=""
  for _ in $(seq 1 1500); do
    line=$(grep -m1 -F -- "locate $1 " "$log" || true)
    [ -n "$line" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "the client ended before showing $1"; return 1; }
    sleep 0.1
  done
  [ -n "$line" ] || { echo "the client never showed $1"; return 1; }
  read -r -a f <<<"${line#"locate $1 "}"
  if [ "${f[0]}" -lt 0 ] || [ "${f[1]}" -lt 0 ] || [ "${f[0]}" -ge "$SCREEN_SIZE" ] || [ "${f[1]}" -ge "$SCREEN_SIZE" ]; then
    echo "$1 is at ${f[0]},${f[1]}, off the ${SCREEN_SIZE}x$SCREEN_SIZE screen"
    return 1
  fi
  xdotool mousemove "${f[0]}" "${f[1]}"
  sleep 0.3
  xdotool click 1
  echo "clicked $1 at ${f[0]},${f[1]}"
}
status=0
IFS=';' read -r -a controls <<<"$CLICKS"
for c in "${controls[@]}"; do click "$c" || { status=1; break; }; done
wait "$pid" || status=$?
exit "$status"
