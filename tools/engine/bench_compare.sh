#!/usr/bin/env bash
# Search speed of two builds of xiangqi-engine in one run: both search the bench positions
# alternately, several rounds; prints each build's best nodes/s, the ratio new/base, and the
# node counts (equal counts mean the two builds search the same tree).
# Usage: tools/engine/bench_compare.sh BASE_ENGINE NEW_ENGINE [rounds=5] [depth=9]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BASE_ENGINE NEW_ENGINE [rounds] [depth]" >&2; exit 2; }
base=$1
new=$2
rounds=${3:-5}
depth=${4:-9}
for e in "$base" "$new"; do
  [ -x "$e" ] || { echo "not an executable: $e" >&2; exit 1; }
done
field() { awk -F: -v k="$1" '$1 ~ k { gsub(/ /, "", $2); print $2 }'; }
best_b=0; best_n=0
for _ in $(seq "$rounds"); do
  out_b=$("$base" bench "$depth"); out_n=$("$new" bench "$depth")
  b=$(field 'Nodes/second' <<<"$out_b"); n=$(field 'Nodes/second' <<<"$out_n")
  [ "$b" -gt "$best_b" ] && best_b=$b
  [ "$n" -gt "$best_n" ] && best_n=$n
done
nodes_b=$(field 'Nodes searched' <<<"$out_b"); nodes_n=$(field 'Nodes searched' <<<"$out_n")
printf 'load: %s\n' "$(uptime | sed 's/.*load average: //')"
printf '%-5s %12s %12s\n' build nodes best_nps
printf '%-5s %12s %12s\n' base "$nodes_b" "$best_b"
printf '%-5s %12s %12s\n' new "$nodes_n" "$best_n"
awk -v a="$best_n" -v b="$best_b" 'BEGIN { printf "speed ratio new/base: %.2f\n", a / b }'
