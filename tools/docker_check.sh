#!/usr/bin/env bash
# Checks docker/Dockerfile against the locally built server, in seconds and without a Docker
# engine (tools/docker_test.sh builds and runs the real image):
# 1. every shared library of xiangqi-server comes from a package the runtime stage installs
#    (or from debian:12-slim itself, or as a dependency of an installed package);
# 2. every --flag that the Dockerfile's CMD and compose.yaml's command pass is accepted by
#    the server (it appears in `xiangqi-server --help`).
# Usage: tools/docker_check.sh [path/to/xiangqi-server]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/xiangqi-server}
df=docker/Dockerfile
compose=docker/compose.yaml
fail=0

[ -x "$bin" ] || { echo "docker_check: $bin not built" >&2; exit 1; }

# Packages of the runtime stage's apt-get install line.
runtime_pkgs=$(awk '/^FROM .* AS runtime/{r=1} r' "$df" |
  sed -n '/apt-get install/,/rm -rf/p' | tr ' \\' '\n\n' |
  grep -E '^[a-z0-9][a-z0-9.+-]+$' | grep -vE '^(apt-get|install|rm|rf|y)$' | sort -u)
[ -n "$runtime_pkgs" ] || { echo "docker_check: no runtime packages found in $df" >&2; exit 1; }
# What debian:12-slim already holds (Essential/Required packages the server may use).
base_pkgs="libc6 libgcc-s1 libstdc++6 zlib1g libzstd1 liblzma5 libbz2-1.0 libcrypt1 libselinux1 libpcre2-8-0"
# Everything apt pulls in for the listed packages.
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances $runtime_pkgs 2>/dev/null |
  grep -E '^[a-z0-9]' | sed 's/:.*//' | sort -u)

while read -r lib path; do
  [ -n "$path" ] || continue
  real=$(readlink -f "$path")
  pkg=$(dpkg -S "$real" 2>/dev/null | head -1 | cut -d: -f1 || true)
  [ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1 || true)
  if [ -z "$pkg" ]; then
    echo "docker_check: $lib ($path) belongs to no Debian package" >&2; fail=1; continue
  fi
  if grep -qxF "$pkg" <<<"$runtime_pkgs" || grep -qwF "$pkg" <<<"$base_pkgs" ||
     grep -qxF "$pkg" <<<"$closure"; then
    echo "ok   $lib -> $pkg"
  else
    echo "MISSING $lib -> $pkg (add it to the runtime stage of $df)" >&2; fail=1
  fi
done < <(ldd "$bin" | awk '/=>/ {print $1, $3}')

help=$(timeout 10 "$bin" --help </dev/null 2>&1 || true)
flags=$( (grep -E '^CMD' "$df"; grep -E '^\s*command:' "$compose") | grep -oE -- '--[a-z][a-z-]*' | sort -u)
for f in $flags; do
  if grep -qF -- "$f" <<<"$help"; then
    echo "ok   flag $f"
  else
    echo "MISSING flag $f: not in '$bin --help'" >&2; fail=1
  fi
done
exit $fail
