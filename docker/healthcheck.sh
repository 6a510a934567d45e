#!/bin/bash
# The image's HEALTHCHECK: connects to the TCP port xiangqi-server really listens on, found
# through /proc (the server's own sockets in LISTEN state), so it follows any --port or
# --bind given to the container, host networking included. Exit 0 = healthy.
set -u
shopt -s nullglob

# Socket inodes of every xiangqi-server process (same uid as this check, so /proc/PID/fd
# is readable; with `docker run --init` the server is not PID 1, hence the scan).
declare -A inodes=()
for comm in /proc/[0-9]*/comm; do
  [ "$(cat "$comm" 2>/dev/null)" = xiangqi-server ] || continue
  for fd in "${comm%/comm}"/fd/*; do
    link=$(readlink "$fd" 2>/dev/null) || continue
    [[ $link == socket:\[*\] ]] && inodes[${link:8:-1}]=1
  done
done
[ ${#inodes[@]} -gt 0 ] || { echo "health: no xiangqi-server process" >&2; exit 1; }

# /proc/net/tcp: "sl local_address rem_address st ... inode"; st 0A = LISTEN, addresses are
# hex (IPv4 in host byte order). An unspecified address (0.0.0.0, ::) is probed on loopback.
probe_host() {
  local hex=$1
  case $hex in
    00000000|00000000000000000000000000000000) echo 127.0.0.1 ;;
    ????????) printf '%d.%d.%d.%d\n' 0x${hex:6:2} 0x${hex:4:2} 0x${hex:2:2} 0x${hex:0:2} ;;
    *) echo 127.0.0.1 ;;  # an IPv6 address: probe the IPv4 loopback of a dual-stack socket
  esac
}
found=0
for table in /proc/net/tcp /proc/net/tcp6; do
  [ -r "$table" ] || continue
  while read -r _ local _ st _ _ _ _ _ inode _; do
    [ "$st" = 0A ] && [ -n "${inodes[$inode]:-}" ] || continue
    found=1
    host=$(probe_host "${local%:*}")
    port=$((16#${local#*:}))
    if timeout 3 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null; then
      echo "health: xiangqi-server accepts connections on $host:$port"
      exit 0
    fi
    echo "health: no answer on $host:$port" >&2
  done < <(tail -n +2 "$table")
done
[ $found = 1 ] || echo "health: xiangqi-server listens on no TCP port" >&2
exit 1
