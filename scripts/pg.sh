# Source this file: starts a throwaway PostgreSQL server on loopback and
# exports DATABASE_URL; the server and its files go away when the shell exits.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
if [ -z "${PGPORT:-}" ]; then
    # A free loopback port, so that several runs can share a machine.
    PGPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
export PGPORT PGHOST=127.0.0.1 PGUSER=postgres PGDATABASE=mafiatab
PGROOT=$(mktemp -d)
chown postgres:postgres "$PGROOT"
stop_pg() {
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGROOT/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PGROOT"
}
trap stop_pg EXIT
runuser -u postgres -- "$PGBIN/initdb" -D "$PGROOT/data" -U postgres --auth=trust -E UTF8 \
    --locale=C.UTF-8 >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGROOT/data" -l "$PGROOT/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGROOT -c fsync=off -c synchronous_commit=off" \
    start >/dev/null
"$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres "$PGDATABASE"
export DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/$PGDATABASE"
