#!/bin/sh
# Networks (issue #20): the web caller (headless Chromium in its own network namespace, behind a NAT router) calls
# intercomd run (in another namespace, behind its own NAT router) through intercom-server and coturn on a "public"
# segment, all built by Tests/support/topology.py: direct through endpoint-independent NATs, relayed (and blocked
# without TURN) through symmetric NATs, and over IPv6 only (networks_test.py); then backend partitions during a
# call and while idle (partition_test.py). Both run; either failing fails the stage.
# Needs root (network namespaces, nftables), python3, ip, nft, turnserver (coturn), chromium and chromedriver.
# Usage: Tests/networks/run.sh [--server BIN] [--intercomd BIN]  (NETWORKS_ONLY / PARTITION_ONLY pick scenarios)
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN,
# else .build/debug/{intercom-server,intercomd}).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
# Each test tears its namespaces down itself (context manager, atexit) and removes those of a crashed earlier
# run when it starts; this catches a test killed on the way (SIGKILL of python leaves them until the next run).
cleanup() {
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${prefix:-none}${child:-none}-" || true); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
        ip netns delete "$ns" 2>/dev/null || true
        rm -rf "/etc/netns/$ns"
    done
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
# run PREFIX TEST [ARGS]: one test in the background (its pid names its namespaces), cleaned up after; its status.
run() {
    prefix=$1
    script=$2
    shift 2
    python3 "$here/$script" --server "$server" --intercomd "$intercomd" "$@" &
    child=$!
    status=0
    wait "$child" || status=$?
    cleanup
    return "$status"
}
failed=0
run icnet networks_test.py "$@" || failed=1
# Partitions (partition_test.py): the device loses the backend during a call and while idle (half-open
# LiveQuery); the call goes on, the device is listed again after the heal, a call made meanwhile is delivered.
run icpart partition_test.py "$@" || failed=1
exit "$failed"
