#!/usr/bin/env bash
# Real X input for the GUI tests (run inside their xvfb-run): gui_xinput.sh LOG CLIENT ARGS...
# starts the client with its output in LOG, then performs the actions in $ACTIONS (separated
# by ';') with xdotool, on the $SCREEN_SIZE x $SCREEN_SIZE screen. A CONTROL is placed where the
# client's last `locate CONTROL X Y` line says (waiting up to 150 s for one):
#   click CONTROL            move there and click (press and release at once)
#   press CONTROL            move there and hold the left button down
#   clickat DX DY CONTROL    click at DX,DY from the control (e.g. "clickat 100 10 window")
#   moveto DX DY CONTROL     glide (in steps, as a hand does) to DX,DY from the control
#   release                  let the left button go where the pointer is
#   key NAME CONTROL         move over the control, then press and release the key NAME
#   wheel up|down N CONTROL  move over the control, then turn the mouse wheel N notches
#   await TEXT               wait until LOG has a line with TEXT (up to 150 s)
#   awaitfile FILE TEXT      the same for another FILE (another client's log)
#   pause MS                 wait MS milliseconds
# Exits non-zero when a control or line never shows, lies off the screen, or the client fails.
set -euo pipefail
log=$1
shift
"$@" >"$log" 2>&1 &
pid=$!
px=0
py=0
# place CONTROL: sets px,py to where the client's last "locate CONTROL X Y" line says.
place() {
  local line=""
  for _ in $(seq 1 1500); do
    line=$(grep -F -- "locate $1 " "$log" | tail -n1 || true)
    [ -n "$line" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "the client ended before showing $1"; return 1; }
    sleep 0.1
  done
  [ -n "$line" ] || { echo "the client never showed $1"; return 1; }
  read -r -a f <<<"${line#"locate $1 "}"
  px=${f[0]}
  py=${f[1]}
}
on_screen() {
  if [ "$1" -lt 0 ] || [ "$2" -lt 0 ] || [ "$1" -ge "$SCREEN_SIZE" ] || [ "$2" -ge "$SCREEN_SIZE" ]; then
    echo "$3 is at $1,$2, off the ${SCREEN_SIZE}x$SCREEN_SIZE screen"
    return 1
  fi
}
act() {
  local verb=${1%% *} rest=""
  [ "$verb" = "$1" ] || rest=${1#* }
  case $verb in
  click | press)
    place "$rest" && on_screen "$px" "$py" "$rest" || return 1
    xdotool mousemove "$px" "$py"
    sleep 0.3
    if [ "$verb" = click ]; then xdotool click 1; else xdotool mousedown 1; fi
    echo "${verb}ed $rest at $px,$py" ;;
  clickat)
    read -r dx dy control <<<"$rest"
    place "$control" || return 1
    on_screen $((px + dx)) $((py + dy)) "$control+$dx,$dy" || return 1
    xdotool mousemove $((px + dx)) $((py + dy))
    sleep 0.3
    xdotool click 1
    echo "clicked $control+$dx,$dy at $((px + dx)),$((py + dy))" ;;
  moveto)
    read -r dx dy control <<<"$rest"
    place "$control" || return 1
    local tx=$((px + dx)) ty=$((py + dy)) x y
    on_screen "$tx" "$ty" "$control+$dx,$dy" || return 1
    eval "$(xdotool getmouselocation --shell)"
    x=$X
    y=$Y
    for i in 1 2 3 4 5 6 7 8; do
      xdotool mousemove $((x + (tx - x) * i / 8)) $((y + (ty - y) * i / 8))
      sleep 0.04
    done
    echo "moved to $tx,$ty ($control+$dx,$dy)" ;;
  release)
    xdotool mouseup 1
    echo "released" ;;
  key)
    read -r name control <<<"$rest"
    place "$control" && on_screen "$px" "$py" "$control" || return 1
    xdotool mousemove "$px" "$py"
    sleep 0.2
    xdotool key "$name"
    echo "pressed key $name over $control" ;;
  wheel)
    read -r dir n control <<<"$rest"
    place "$control" && on_screen "$px" "$py" "$control" || return 1
    xdotool mousemove "$px" "$py"
    sleep 0.2
    for _ in $(seq 1 "$n"); do
      if [ "$dir" = up ]; then xdotool click 4; else xdotool click 5; fi
      sleep 0.05
    done
    echo "turned the wheel $dir $n over $control" ;;
  await | awaitfile)
    local file=$log
    if [ "$verb" = awaitfile ]; then
      file=${rest%% *}
      rest=${rest#* }
    fi
    for _ in $(seq 1 1500); do
      grep -qF -- "$rest" "$file" 2>/dev/null && { echo "saw $rest"; return 0; }
      kill -0 "$pid" 2>/dev/null || { echo "the client ended before $rest"; return 1; }
      sleep 0.1
    done
    echo "never saw $rest"
    return 1 ;;
  pause)
    sleep "$(awk "BEGIN { print $rest / 1000 }")" ;;
  *)
    echo "unknown action $1"
    return 1 ;;
  esac
}
status=0
IFS=';' read -r -a actions <<<"$ACTIONS"
for a in "${actions[@]}"; do
  a=$(echo "$a" | sed -e 's/^ *//' -e 's/ *$//')
  [ -n "$a" ] || continue
  act "$a" || { status=1; break; }
done
[ "$status" -eq 0 ] || kill "$pid" 2>/dev/null || true
wait "$pid" || status=$?
exit "$status"
