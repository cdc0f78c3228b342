#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the fleet ledger's tests and bench (docs/durable-send.md#postgresql):
#
#   scripts/postgres.sh start      initdb in a fresh temporary folder, start on a free port of 127.0.0.1 only,
#                                  print the connection URL on stdout (the only line it prints there)
#   scripts/postgres.sh stop URL   stop the cluster that URL names and delete its folder
#   scripts/postgres.sh restart URL
#                                  restart the cluster that URL names (`pg_ctl restart -m fast`: every connection is
#                                  terminated, as in a failover), on the same port, and wait until it accepts again
#   scripts/postgres.sh ensure     only install PostgreSQL when the machine has none (CI runs it up front)
#
# It uses the machine's PostgreSQL (initdb and pg_ctl on PATH, else the newest /usr/lib/postgresql/*/bin) and installs
# Debian's `postgresql` with apt-get when there is none. Run as root, the cluster runs as the `postgres` user, since
# PostgreSQL refuses to run as root. The server listens on 127.0.0.1 only (its Unix socket stays in its own folder); authentication is
# `trust` for the one local user, which is acceptable only because nothing but loopback can reach it and it lives
# for one test run.
set -euo pipefail

find_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return 0
  fi
  local newest
  newest="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$newest" ] && [ -x "$newest/initdb" ]; then
    echo "$newest"
    return 0
  fi
  return 1
}

install_postgres() {
  echo "postgres.sh: no PostgreSQL found, installing Debian's postgresql" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo apt-get update >&2 && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
  else
    echo "postgres.sh: PostgreSQL is missing; run 'apt-get install -y postgresql' as root" >&2
    exit 1
  fi
}

# Runs a command as the cluster's owner: the postgres user when we are root, ourselves otherwise.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bin
  bin="$(find_bin || true)"
  if [ -z "$bin" ]; then
    install_postgres
    bin="$(find_bin)"
  fi
  local port attempt
  port="$(free_port)"
  # The folder is named after the port, so `stop URL` finds it.
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/surecall-pg-$port-XXXXXX")"
  chmod 700 "$dir"
  local user
  user="$(id -un)"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
    user=postgres
  fi
  as_owner "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    as_owner "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
      cat "$dir/initdb.log" >&2
      exit 1
    }
  for attempt in 1 2 3 4 5; do
    # Loopback only; the socket lives in the cluster's own folder, never in a shared /var/run.
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=on" start >/dev/null 2>&1; then
      echo "postgres://$user@127.0.0.1:$port/postgres"
      return 0
    fi
    # The port was taken meanwhile: move the folder to the next free port's name.
    port="$(free_port)"
    local moved="${TMPDIR:-/tmp}/surecall-pg-$port-${dir##*-}"
    mv "$dir" "$moved"
    dir="$moved"
  done
  cat "$dir/server.log" >&2 || true
  exit 1
}

# The port of the URL `start` printed, or exit 2 naming the verb that needs it.
port_of() {
  local port
  port="$(printf '%s' "${2:-}" | sed -n 's|^postgres://[^@/]*@127\.0\.0\.1:\([0-9]*\)/.*$|\1|p')"
  if [ -z "$port" ]; then
    echo "postgres.sh: $1 needs the URL 'start' printed" >&2
    exit 2
  fi
  echo "$port"
}

restart() {
  local port bin dir
  port="$(port_of restart "${1:-}")"
  bin="$(find_bin)"
  for dir in "${TMPDIR:-/tmp}/surecall-pg-$port-"*; do
    [ -d "$dir/data" ] || continue
    # The options it was started with stay in postmaster.opts, which restart reuses.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null
    return 0
  done
  echo "postgres.sh: no cluster of this script listens on port $port" >&2
  exit 1
}

stop() {
  local port
  port="$(port_of stop "${1:-}")"
  local bin dir
  bin="$(find_bin)"
  for dir in "${TMPDIR:-/tmp}/surecall-pg-$port-"*; do
    [ -d "$dir" ] || continue
    if [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
  done
}

case "${1:-}" in
start) start ;;
ensure) find_bin >/dev/null || install_postgres ;;
stop) stop "${2:-}" ;;
restart) restart "${2:-}" ;;
*)
  echo "usage: scripts/postgres.sh start | stop URL | restart URL | ensure" >&2
  exit 2
  ;;
esac
