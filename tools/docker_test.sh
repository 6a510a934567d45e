#!/usr/bin/env bash
# Proves the Docker image for real: installs and starts the Docker engine if needed, makes
# the Debian 12 base images from this machine's own Debian mirror (Docker Hub is not
# needed), builds docker/Dockerfile, runs the image with host networking bound to
# 127.0.0.1 (every test packet stays on loopback), plays a short game over the wire, asks
# discovery, restarts the container and finds the game again from the volume, waits for the
# healthcheck on a non-default port, checks the refusal of an unwritable data folder and the
# compose file (with Debian's docker-compose), then removes every container and volume it
# made. It fails, never skips, when something it needs cannot be had.
# Usage: tools/docker_test.sh   (as root, or as a user of the docker group with sudo for
#        the package install and the engine start). Environment: XQ_CLI=path/to/xiangqi-cli.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
t0=$SECONDS
say() { echo "docker_test: [$((SECONDS - t0))s] $*"; }
fail() { echo "docker_test: FAIL: $*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else fail "'$*' needs root (run as root or install sudo)"; fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/xq-docker-test.XXXXXX")
tag=$$
container=xq-test-$tag
bad_container=xq-test-baddir-$tag
volume=xq-test-data-$tag
image=xiangqi-server:test
dockerd_pid=
cleanup() {
  local rc=$?
  set +e
  if [ $rc -ne 0 ] && docker inspect "$container" >/dev/null 2>&1; then
    echo "== container log" >&2; docker logs "$container" 2>&1 | tail -40 >&2
  fi
  docker rm -f "$container" "$bad_container" >/dev/null 2>&1
  docker volume rm -f "$volume" >/dev/null 2>&1
  if [ -n "$dockerd_pid" ]; then
    as_root kill "$dockerd_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.2; done
  fi
  as_root rm -rf "$work"
  exit $rc
}
trap cleanup EXIT

# ---- packages -----------------------------------------------------------------------------
missing=()
# A docker client alone (some machine images ship one in /usr/local/bin, without an engine)
# cannot start one: docker.io brings dockerd when no engine answers and dockerd is missing.
if ! command -v docker >/dev/null || { ! docker info >/dev/null 2>&1 && ! command -v dockerd >/dev/null; }; then
  missing+=(docker.io)
fi
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" ||
    fail "could not install ${missing[*]}"
fi

# ---- engine -------------------------------------------------------------------------------
if ! docker info >/dev/null 2>&1; then
  say "no Docker engine answers; starting dockerd"
  as_root bash -c 'dockerd >"$1" 2>&1 & echo $!' _ "$work/dockerd.log" >"$work/dockerd.pid"
  dockerd_pid=$(cat "$work/dockerd.pid")
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { tail -20 "$work/dockerd.log" >&2; fail "the Docker engine did not start"; }
fi
say "engine: $(docker version --format '{{.Server.Version}}' 2>/dev/null), storage $(docker info --format '{{.Driver}}')"

# ---- base images from the machine's Debian mirror -----------------------------------------
if ! docker image inspect debian:12 >/dev/null 2>&1; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '/^deb / && /debian/ && !/security/ {print $2; exit}
         /^URIs:/ && /debian/ && !/security/ {print $2; exit}' || true)
  [ -n "$mirror" ] || fail "no Debian mirror found in /etc/apt/sources.list*"
  say "making debian:12 with debootstrap --variant=minbase bookworm from $mirror"
  rootfs="$work/rootfs"
  as_root debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
  as_root tar -C "$rootfs" -c . | docker import - debian:12 >/dev/null || fail "docker import failed"
  as_root rm -rf "$rootfs"
fi
docker image inspect debian:12-slim >/dev/null 2>&1 || docker tag debian:12 debian:12-slim

# ---- the client that plays over the wire ----------------------------------------------------
cli=${XQ_CLI:-build/bin/xiangqi-cli}
if [ ! -x "$cli" ]; then
  say "building xiangqi-cli"
  [ -f build/CMakeCache.txt ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build --target xiangqi-cli -j2 >/dev/null || fail "could not build xiangqi-cli"
  cli=build/bin/xiangqi-cli
fi

# ---- image --------------------------------------------------------------------------------
old_id=$(docker image inspect -f '{{.Id}}' "$image" 2>/dev/null || true)
say "building $image"
docker build --network host -q -f docker/Dockerfile -t "$image" . >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log" >&2; fail "docker build failed"; }
new_id=$(docker image inspect -f '{{.Id}}' "$image")
# The image this run replaced is ours to drop (an image in use elsewhere stays).
[ -n "$old_id" ] && [ "$old_id" != "$new_id" ] && docker rmi "$old_id" >/dev/null 2>&1 || true
say "image $(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1e6}')"

# ---- flags the Dockerfile and the compose file pass are accepted by the image's server ----
help=$(docker run --rm --network none "$image" --help 2>&1) || fail "the image's server --help failed"
for f in $( (grep -E '^CMD' docker/Dockerfile; grep -E '^\s*command:' docker/compose.yaml) |
            grep -oE -- '--[a-z][a-z-]*' | sort -u) --advertise-port; do
  grep -qF -- "$f" <<<"$help" || fail "flag $f is not in the image's xiangqi-server --help"
done
say "flags of CMD and compose.yaml accepted"

# ---- compose file with Debian's docker-compose ---------------------------------------------
docker-compose -f docker/compose.yaml config -q 2>"$work/compose.err" ||
  { cat "$work/compose.err" >&2; fail "docker-compose $(docker-compose version --short) refuses docker/compose.yaml"; }
say "docker/compose.yaml accepted by docker-compose $(docker-compose version --short)"

# ---- run ------------------------------------------------------------------------------------
free_port() {  # a free loopback port of the given kind (tcp or udp)
  python3 -c 'import socket,sys
k = socket.SOCK_STREAM if sys.argv[1] == "tcp" else socket.SOCK_DGRAM
s = socket.socket(socket.AF_INET, k); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' "$1"
}
port=$(free_port tcp)
dport=$(free_port udp)
advertised=6123
[ "$port" != 5050 ] || port=$(free_port tcp)

start_args=(--bind 127.0.0.1 --port "$port" --data-dir /data --name "docker test"
            --discovery-bind 127.0.0.1 --discovery-port "$dport" --advertise-port "$advertised")
docker volume create "$volume" >/dev/null
docker run -d --name "$container" --network host -v "$volume:/data" \
  --health-interval 2s --health-start-period 30s --health-timeout 5s \
  "$image" "${start_args[@]}" >/dev/null || fail "docker run failed"

wait_listening() {  # $1: how many "listening on" lines the log must have
  for _ in $(seq 100); do
    [ "$(docker logs "$container" 2>&1 | grep -c "listening on 127.0.0.1:$port")" -ge "$1" ] && return 0
    [ "$(docker inspect -f '{{.State.Running}}' "$container")" = true ] || break
    sleep 0.2
  done
  fail "the server in the container did not start listening on 127.0.0.1:$port"
}
wait_listening 1
[ "$(docker exec "$container" id -u)" = 10001 ] || fail "the server does not run as uid 10001"
say "server up on 127.0.0.1:$port (uid 10001)"

# A short game: alice (red) and bob (black) play four moves; both then drop their connection.
cat >"$work/alice.txt" <<'S'
create red docker test
wait table_snapshot
wait player_joined name=bob
h2e2
wait move_made ply=1
wait move_made ply=2
h0g2
wait move_made ply=3
wait move_made ply=4
S
cat >"$work/bob.txt" <<'S'
wait table_update
join 1 black
wait table_snapshot
wait move_made ply=1
h9g7
wait move_made ply=2
wait move_made ply=3
i9h9
wait move_made ply=4
S
"$cli" --connect "127.0.0.1:$port" --name bob --script "$work/bob.txt" >"$work/bob.out" 2>&1 &
bob=$!
for _ in $(seq 50); do grep -q '"welcome"' "$work/bob.out" 2>/dev/null && break; sleep 0.1; done
grep -q '"welcome"' "$work/bob.out" || fail "no welcome for bob: $(cat "$work/bob.out")"
"$cli" --connect "127.0.0.1:$port" --name alice --script "$work/alice.txt" >"$work/alice.out" 2>&1 ||
  fail "alice's game script failed: $(tail -5 "$work/alice.out")"
wait "$bob" || fail "bob's game script failed: $(tail -5 "$work/bob.out")"
grep -q '"move":"i9h9"' "$work/alice.out" || fail "alice did not see bob's i9h9"
say "played h2e2 h9g7 h0g2 i9h9 over the wire"

# Discovery, asked on loopback: the answer names the server and the advertised port.
reply=$(python3 - "$dport" <<'P'
import json, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(3)
s.sendto(json.dumps({"type": "xq_discover", "version": 1, "nonce": "dockertest1"}).encode(), ("127.0.0.1", int(sys.argv[1])))
print(s.recvfrom(2048)[0].decode())
P
) || fail "no discovery answer on 127.0.0.1:$dport/udp"
python3 -c 'import json,sys
r = json.loads(sys.argv[1])
sys.exit(0 if r.get("port") == int(sys.argv[2]) and r.get("name") == "docker test" and r.get("tables") == 1 else 1)' \
  "$reply" "$advertised" || fail "discovery answer does not advertise port $advertised: $reply"
say "discovery answers with port $advertised (--advertise-port)"

# Health: the image's own check must find the server on the non-default port.
for _ in $(seq 60); do
  health=$(docker inspect -f '{{.State.Health.Status}}' "$container")
  [ "$health" = healthy ] && break
  [ "$health" = unhealthy ] && break
  sleep 1
done
[ "$health" = healthy ] ||
  fail "container is '$health' on port $port: $(docker inspect -f '{{json .State.Health.Log}}' "$container")"
say "healthcheck: healthy on port $port"

# Stop (SIGTERM) and start again: the unfinished game comes back from the volume.
docker stop -t 20 "$container" >/dev/null
[ "$(docker inspect -f '{{.State.ExitCode}}' "$container")" = 0 ] ||
  fail "the server did not stop cleanly (exit $(docker inspect -f '{{.State.ExitCode}}' "$container"))"
docker start "$container" >/dev/null
wait_listening 2
# The server says how many games it restored a few milliseconds after it starts listening.
restored=no
for _ in $(seq 50); do
  docker logs "$container" 2>&1 | grep -q "1 unfinished game(s) restored" && { restored=yes; break; }
  sleep 0.2
done
[ "$restored" = yes ] || fail "no game restored after restart"
printf 'wait tables\nwatch 1\nwait table_snapshot\n' >"$work/carol.txt"
"$cli" --connect "127.0.0.1:$port" --name carol --script "$work/carol.txt" >"$work/carol.out" 2>&1 ||
  fail "carol could not watch the restored table: $(tail -5 "$work/carol.out")"
grep '"type":"table_snapshot"' "$work/carol.out" | grep -qF '"moves":["h2e2","h9g7","h0g2","i9h9"]' ||
  fail "the restored game does not have the four moves: $(grep table_snapshot "$work/carol.out")"
say "after docker stop/start the game is back with its four moves"

# A bind-mounted folder the server cannot write: it exits and says how to fix it.
mkdir "$work/rootowned"
chmod 755 "$work/rootowned"
set +e
docker run --name "$bad_container" --network host -v "$work/rootowned:/data" "$image" \
  --bind 127.0.0.1 --port 0 --data-dir /data --discovery-port 0 >"$work/bad.out" 2>&1
rc=$?
set -e
[ $rc -ne 0 ] || fail "the server started on a data folder it cannot write"
grep -qF "chown 10001:10001" "$work/bad.out" ||
  fail "the unwritable-folder error does not say 'chown 10001:10001': $(cat "$work/bad.out")"
say "unwritable data folder: exit $rc, the message says chown 10001:10001"

say "all Docker checks passed in $((SECONDS - t0)) s"
