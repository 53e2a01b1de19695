# A throwaway PostgreSQL cluster for the tests (Tests/postgres): Debian's PostgreSQL 15 binaries, password
# authentication (scram-sha-256) for the superuser `intercom`, TCP on 127.0.0.1 and a free port, the unix socket
# in the cluster's own directory, durable like a production cluster (fsync and synchronous_commit on: the
# server tests check both). Its directory is made with mktemp under
# $PG_CLUSTER_PARENT (default /var/tmp, not /tmp) and owned by the `postgres` user: PostgreSQL refuses to run as
# root, so when we are root initdb, pg_ctl and the server run through `runuser -u postgres --`.
#
# Sourced (POSIX sh, works under `set -eu`):
#     . Tests/postgres/pg-cluster.sh
#     pg_cluster_start || exit 1      # says what is missing or what failed on stderr; sets PG_CLUSTER_DIR,
#                                     # PG_CLUSTER_PORT, PG_CLUSTER_USER, PG_CLUSTER_PASSWORD
#     pg_cluster_trap                 # stop and remove the cluster on exit, Ctrl-C or SIGTERM
#     url=$(pg_cluster_createdb NAME) # a new database; prints postgres://intercom:PASSWORD@127.0.0.1:PORT/NAME
#     pg_cluster_psql NAME 'SQL'      # psql over TCP with the password
#     pg_cluster_stop                 # fast shutdown, then the directory is removed
# Run:
#     sh Tests/postgres/pg-cluster.sh start [DBNAME...]  prints the cluster directory, then one URL per database;
#                                                        the cluster keeps running until `stop`
#     sh Tests/postgres/pg-cluster.sh stop DIR
#     sh Tests/postgres/pg-cluster.sh selftest           start, connect with the password, a wrong password and
#                                                        a non-loopback address refused, stop, nothing left
# Environment: PG_CLUSTER_BINDIR (default /usr/lib/postgresql/15/bin), PG_CLUSTER_PARENT (default /var/tmp),
# PG_CLUSTER_MAX_CONNECTIONS (default 800: every in-process test server keeps a pool and a LISTEN connection),
# PG_CLUSTER_KEEP=1 keeps the directory (its postgres.log) after the stop.

PG_CLUSTER_BINDIR=${PG_CLUSTER_BINDIR:-/usr/lib/postgresql/15/bin}
PG_CLUSTER_USER=intercom
PG_CLUSTER_DIR=${PG_CLUSTER_DIR:-}
PG_CLUSTER_PORT=${PG_CLUSTER_PORT:-}
PG_CLUSTER_PASSWORD=${PG_CLUSTER_PASSWORD:-}

# Prints one line per missing tool (with the package that installs it); fails when anything is missing.
pg_cluster_missing() {
    pg_cluster_missing_found=0
    for pg_cluster_tool in initdb pg_ctl postgres psql; do
        if [ ! -x "$PG_CLUSTER_BINDIR/$pg_cluster_tool" ]; then
            echo "pg-cluster.sh: $pg_cluster_tool not found at $PG_CLUSTER_BINDIR/$pg_cluster_tool (apt-get install postgresql; or set PG_CLUSTER_BINDIR)"
            pg_cluster_missing_found=1
        fi
    done
    if ! command -v python3 >/dev/null 2>&1; then
        echo "pg-cluster.sh: python3 not found (apt-get install python3): it picks the free port"
        pg_cluster_missing_found=1
    fi
    if [ "$(id -u)" -eq 0 ]; then
        if ! command -v runuser >/dev/null 2>&1 && [ ! -x /usr/sbin/runuser ]; then
            echo "pg-cluster.sh: runuser not found (apt-get install util-linux): PostgreSQL refuses to run as root"
            pg_cluster_missing_found=1
        fi
        if ! id postgres >/dev/null 2>&1; then
            echo "pg-cluster.sh: no user postgres (apt-get install postgresql creates it): PostgreSQL refuses to run as root"
            pg_cluster_missing_found=1
        fi
    fi
    return "$pg_cluster_missing_found"
}

# Runs a PostgreSQL server-side tool as the cluster's owner: `postgres` when we are root, else ourselves.
pg_cluster_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        PATH="$PATH:/usr/sbin:/sbin" runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pg_cluster_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pg_cluster_start() {
    if ! pg_cluster_missing >&2; then
        return 1
    fi
    if ! PG_CLUSTER_DIR=$(mktemp -d "${PG_CLUSTER_PARENT:-/var/tmp}/intercom-pg.XXXXXX"); then
        echo "pg-cluster.sh: cannot make a directory under ${PG_CLUSTER_PARENT:-/var/tmp}" >&2
        PG_CLUSTER_DIR=''
        return 1
    fi
    mkdir "$PG_CLUSTER_DIR/socket"
    # Hex: nothing to escape in a URL or a TOML string.
    PG_CLUSTER_PASSWORD=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
    (umask 077 && printf '%s\n' "$PG_CLUSTER_PASSWORD" > "$PG_CLUSTER_DIR/pwfile")
    [ "$(id -u)" -ne 0 ] || chown -R postgres:postgres "$PG_CLUSTER_DIR"
    if ! pg_cluster_as_owner "$PG_CLUSTER_BINDIR/initdb" -D "$PG_CLUSTER_DIR/data" -U "$PG_CLUSTER_USER" \
            --auth=scram-sha-256 --pwfile="$PG_CLUSTER_DIR/pwfile" -E UTF8 --no-locale --no-sync \
            > "$PG_CLUSTER_DIR/initdb.log" 2>&1; then
        echo "pg-cluster.sh: initdb failed:" >&2
        tail -n 20 "$PG_CLUSTER_DIR/initdb.log" >&2
        pg_cluster_remove
        return 1
    fi
    rm -f "$PG_CLUSTER_DIR/pwfile"
    # A port found free can be taken before the server binds it: a few tries.
    for pg_cluster_attempt in 1 2 3; do
        PG_CLUSTER_PORT=$(pg_cluster_free_port)
        if pg_cluster_as_owner "$PG_CLUSTER_BINDIR/pg_ctl" -D "$PG_CLUSTER_DIR/data" -l "$PG_CLUSTER_DIR/postgres.log" \
                -w -t 60 -o "-c listen_addresses=127.0.0.1 -c port=$PG_CLUSTER_PORT \
-c unix_socket_directories='$PG_CLUSTER_DIR/socket' -c max_connections=${PG_CLUSTER_MAX_CONNECTIONS:-800}" start > "$PG_CLUSTER_DIR/pg_ctl.log" 2>&1; then
            break
        fi
        if [ "$pg_cluster_attempt" -eq 3 ] || ! grep -q "could not bind\|Address already in use" "$PG_CLUSTER_DIR/postgres.log" 2>/dev/null; then
            echo "pg-cluster.sh: the server did not start (pg_ctl start, port $PG_CLUSTER_PORT):" >&2
            tail -n 20 "$PG_CLUSTER_DIR/pg_ctl.log" "$PG_CLUSTER_DIR/postgres.log" >&2 2>/dev/null
            pg_cluster_stop
            return 1
        fi
    done
    # What `pg-cluster.sh stop DIR` needs (root-only file in the cluster's directory).
    (umask 077 && printf 'PG_CLUSTER_PORT=%s\nPG_CLUSTER_PASSWORD=%s\n' "$PG_CLUSTER_PORT" "$PG_CLUSTER_PASSWORD" \
        > "$PG_CLUSTER_DIR/cluster.env")
    echo "pg-cluster.sh: PostgreSQL $("$PG_CLUSTER_BINDIR/postgres" -V | awk '{ print $3 }') on 127.0.0.1:$PG_CLUSTER_PORT, data in $PG_CLUSTER_DIR" >&2
}

pg_cluster_url() {  # pg_cluster_url DBNAME [QUERY]
    echo "postgres://$PG_CLUSTER_USER:$PG_CLUSTER_PASSWORD@127.0.0.1:$PG_CLUSTER_PORT/$1${2:+?$2}"
}

pg_cluster_psql() {  # pg_cluster_psql DBNAME SQL [psql options]: over TCP with the password, as `intercom`
    pg_cluster_psql_db=$1 pg_cluster_psql_sql=$2
    shift 2
    PGPASSWORD=$PG_CLUSTER_PASSWORD PGCONNECT_TIMEOUT=10 "$PG_CLUSTER_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 \
        -h 127.0.0.1 -p "$PG_CLUSTER_PORT" -U "$PG_CLUSTER_USER" -d "$pg_cluster_psql_db" "$@" -c "$pg_cluster_psql_sql"
}

pg_cluster_createdb() {  # pg_cluster_createdb NAME: prints the database's URL
    case $1 in
        ''|[!a-z_]*|*[!a-z0-9_]*) echo "pg-cluster.sh: database name \"$1\": use a-z, 0-9 and _" >&2; return 1 ;;
    esac
    pg_cluster_psql postgres "CREATE DATABASE $1" || return 1
    pg_cluster_url "$1"
}

pg_cluster_remove() {
    if [ "${PG_CLUSTER_KEEP:-}" = 1 ]; then
        echo "pg-cluster.sh: kept $PG_CLUSTER_DIR" >&2
    else
        rm -rf "$PG_CLUSTER_DIR"
    fi
    PG_CLUSTER_DIR=''
}

pg_cluster_stop() {
    [ -n "$PG_CLUSTER_DIR" ] && [ -d "$PG_CLUSTER_DIR" ] || return 0
    if [ -f "$PG_CLUSTER_DIR/data/postmaster.pid" ]; then
        if ! pg_cluster_as_owner "$PG_CLUSTER_BINDIR/pg_ctl" -D "$PG_CLUSTER_DIR/data" -m fast -w -t 30 stop > /dev/null 2>&1; then
            # Our own postmaster, by its pid, when a fast shutdown did not finish in 30 s.
            pg_cluster_pid=$(head -n 1 "$PG_CLUSTER_DIR/data/postmaster.pid" 2>/dev/null || true)
            if [ -n "$pg_cluster_pid" ]; then
                echo "pg-cluster.sh: PostgreSQL (pid $pg_cluster_pid) did not stop in 30 s: SIGKILL" >&2
                kill -KILL "$pg_cluster_pid" 2>/dev/null || true
                sleep 1
            fi
        fi
    fi
    pg_cluster_remove
}

# Stops the cluster when the script exits, and turns Ctrl-C, SIGTERM and SIGHUP into an exit (sh runs the EXIT
# trap on `exit`, not on a signal that kills it).
pg_cluster_trap() {
    trap 'pg_cluster_stop' EXIT
    trap 'exit 129' HUP
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

pg_cluster_load() {  # pg_cluster_load DIR: the variables of a cluster that `start` left running
    [ -f "$1/cluster.env" ] || { echo "pg-cluster.sh: $1 is not a running cluster's directory (no cluster.env)" >&2; return 1; }
    PG_CLUSTER_DIR=$1
    . "$1/cluster.env"
}

pg_cluster_selftest() {
    pg_cluster_selftest_failed=0
    pg_cluster_start || return 1
    pg_cluster_trap
    pg_cluster_selftest_dir=$PG_CLUSTER_DIR
    pg_cluster_selftest_check() {  # NAME RESULT(0 = pass) [DETAIL]
        if [ "$2" -eq 0 ]; then echo "PASS $1${3:+ — $3}"; else echo "FAIL $1${3:+ — $3}"; pg_cluster_selftest_failed=1; fi
    }
    url=$(pg_cluster_createdb intercom_selftest) && result=0 || result=1
    pg_cluster_selftest_check "createdb over TCP with the password" "$result" "$(echo "$url" | sed 's/:[0-9a-f]*@/:…@/')"
    answer=$(pg_cluster_psql intercom_selftest "SELECT current_user || ' ' || current_database() || ' ' || version()" -t -A 2>&1) \
        && result=0 || result=1
    pg_cluster_selftest_check "psql connects as intercom with the password (scram-sha-256)" "$result" "$answer"
    answer=$(pg_cluster_psql intercom_selftest "SHOW password_encryption" -t -A 2>&1)
    [ "$answer" = scram-sha-256 ] && result=0 || result=1
    pg_cluster_selftest_check "password_encryption is scram-sha-256" "$result" "$answer"
    answer=$(PGPASSWORD=wrong PGCONNECT_TIMEOUT=5 "$PG_CLUSTER_BINDIR/psql" -X -h 127.0.0.1 -p "$PG_CLUSTER_PORT" \
        -U "$PG_CLUSTER_USER" -d intercom_selftest -c 'SELECT 1' 2>&1) && result=1 || result=0
    pg_cluster_selftest_check "a wrong password is refused" "$result" "$(echo "$answer" | tail -n 1)"
    answer=$(PGPASSWORD=$PG_CLUSTER_PASSWORD PGCONNECT_TIMEOUT=5 "$PG_CLUSTER_BINDIR/psql" -X -w -h "$PG_CLUSTER_DIR/socket" -p "$PG_CLUSTER_PORT" \
        -U "$PG_CLUSTER_USER" -d intercom_selftest -t -A -c 'SELECT 1' 2>&1) && result=0 || result=1
    pg_cluster_selftest_check "the unix socket is in the cluster's directory" "$result" "$PG_CLUSTER_DIR/socket"
    answer=$(pg_cluster_psql intercom_selftest "SHOW listen_addresses" -t -A 2>&1)
    [ "$answer" = 127.0.0.1 ] && result=0 || result=1
    pg_cluster_selftest_check "listens on 127.0.0.1 only" "$result" "$answer"
    answer=$(pg_cluster_psql intercom_selftest "SELECT pg_notify('selftest', 'x')" -t -A 2>&1) && result=0 || result=1
    pg_cluster_selftest_check "NOTIFY works" "$result"
    pg_cluster_stop
    trap - EXIT HUP INT TERM
    [ ! -e "$pg_cluster_selftest_dir" ] && result=0 || result=1
    pg_cluster_selftest_check "stopped and removed" "$result" "$pg_cluster_selftest_dir"
    return "$pg_cluster_selftest_failed"
}

# Run as a command (not sourced): the subcommands above.
case ${0##*/} in
    pg-cluster.sh)
        case ${1:-} in
            start)
                shift
                pg_cluster_start || exit 1
                for pg_cluster_db in "$@"; do
                    pg_cluster_createdb "$pg_cluster_db" > /dev/null || { pg_cluster_stop; exit 1; }
                done
                echo "$PG_CLUSTER_DIR"
                for pg_cluster_db in "$@"; do pg_cluster_url "$pg_cluster_db"; done ;;
            stop)
                [ $# -eq 2 ] || { echo "usage: pg-cluster.sh stop DIR" >&2; exit 2; }
                pg_cluster_load "$2" || exit 1
                pg_cluster_stop ;;
            selftest)
                pg_cluster_selftest ;;
            *)
                echo "usage: pg-cluster.sh start [DBNAME...] | stop DIR | selftest (or source it: see its header)" >&2
                exit 2 ;;
        esac ;;
esac
