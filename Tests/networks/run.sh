#!/bin/sh
# Networks (issue #20): the web caller (headless Chromium in its own network namespace, behind a NAT router) calls
# intercomd run (in another namespace, behind its own NAT router) through intercom-server and coturn on a "public"
# segment, all built by Tests/support/topology.py: direct through endpoint-independent NATs, relayed (and blocked
# without TURN) through symmetric NATs, and over IPv6 only. See networks_test.py.
# Needs root (network namespaces, nftables), python3, ip, nft, turnserver (coturn), chromium and chromedriver.
# Usage: Tests/networks/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN,
# else .build/debug/{intercom-server,intercomd}).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
# The test tears its namespaces down itself (context manager, atexit) and removes those of a crashed earlier run
# when it starts; this catches a test killed on the way (SIGKILL of python leaves them until the next run).
cleanup() {
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^icnet${child:-none}-" || true); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
        ip netns delete "$ns" 2>/dev/null || true
        rm -rf "/etc/netns/$ns"
    done
}
trap cleanup EXIT INT TERM
python3 "$here/networks_test.py" --server "$server" --intercomd "$intercomd" "$@" &
child=$!
wait "$child"
