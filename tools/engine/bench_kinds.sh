#!/usr/bin/env bash
# Goal 2's figures as a second runner should read them: `xiangqi-engine bench` run ROUNDS times
# on each core of the machine (pinned with taskset, the cores taken in turn), then per core the
# median and the best nodes/s of each kind of position (openings, middle games, endings) and of
# the whole run. The two cores of the build machine can run at different speeds for minutes at
# a time (docs/engine.md, "Bench"): read the faster core, and compare builds on one core.
# Usage: tools/engine/bench_kinds.sh [rounds=10] [engine=./build/bin/xiangqi-engine]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-10}
engine=${2:-./build/bin/xiangqi-engine}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "rounds must be a positive number: $rounds" >&2; exit 2; }
[ -x "$engine" ] || { echo "not an executable: $engine" >&2; exit 1; }
command -v taskset >/dev/null || { echo "taskset (util-linux) is needed" >&2; exit 1; }
cores=$(nproc)
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
# One line per figure: core, kind, nodes/s (tab-separated; "middle games" has a space).
for _ in $(seq "$rounds"); do
  for ((core = 0; core < cores; ++core)); do
    taskset -c "$core" "$engine" bench | awk -v core="$core" '
      /^Nodes\/second/ { printf "%s\ttotal\t%s\n", core, $NF }
      /^Search speed, / {
        kind = $0; sub(/^Search speed, /, "", kind); sub(/ \(positions.*/, "", kind)
        printf "%s\t%s\t%s\n", core, kind, $(NF - 1)
      }' >>"$runs"
  done
done
printf 'bench, %s rounds a core (%s), nodes/s\n' "$rounds" "$engine"
printf '%-5s %-13s %10s %10s\n' core kind median best
for ((core = 0; core < cores; ++core)); do
  for kind in total openings "middle games" endings; do
    values=$(awk -F'\t' -v core="$core" -v kind="$kind" '$1 == core && $2 == kind { print $3 }' "$runs" | sort -n)
    [ -n "$values" ] || { echo "bench printed no '$kind' figure" >&2; exit 1; }
    count=$(wc -l <<<"$values")
    median=$(sed -n "$(((count + 1) / 2))p" <<<"$values")
    best=$(tail -n 1 <<<"$values")
    awk -v c="$core" -v k="$kind" -v m="$median" -v b="$best" \
      'BEGIN { printf "%-5s %-13s %8.3f M %8.3f M\n", c, k, m / 1e6, b / 1e6 }'
  done
done
printf 'load: %s\n' "$(uptime | sed 's/.*load average: //')"
