#!/usr/bin/env bash
# Real mouse clicks for the GUI tests (run inside their xvfb-run): gui_clicks.sh LOG CLIENT ARGS...
# starts the client with its output in LOG, then clicks, in order, the controls named in
# $CLICKS (separated by ';') where the client's `locate CONTROL X Y` lines say, on the
# $SCREEN_SIZE x $SCREEN_SIZE screen: gui_xinput.sh's `click` action for each. Exits non-zero
# when a control never shows, lies off the screen, or the client fails.
set -euo pipefail
actions=""
IFS=';' read -r -a controls <<<"$CLICKS"
for c in "${controls[@]}"; do actions+="click $c;"; done
ACTIONS=$actions exec "$(dirname "$0")/gui_xinput.sh" "$@"
