#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs, only those missing. Idempotent.
# Usage: tools/setup.sh            (everything: build, tests, GUI, referee engine)
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config git
  libboost-dev libboost-system-dev
  libsfml-dev libimgui-dev libgl-dev libfontconfig-dev fonts-wqy-microhei fonts-dejavu-core
  nlohmann-json3-dev libgtest-dev libgmock-dev libcli11-dev libspdlog-dev libfmt-dev libsqlite3-dev
  libicu-dev libsodium-dev
  clang libclang-rt-14-dev
  xvfb xauth x11-utils imagemagick xdotool
  fairy-stockfish
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
