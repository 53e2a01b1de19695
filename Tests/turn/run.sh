#!/bin/sh
# TURN: the web caller in headless Chromium calls intercomd run through Debian's coturn while direct UDP between
# the peers is blocked: see turn_test.py. Needs root (nftables, a cgroup of its own), python3, turnserver (coturn),
# nft, chromium and chromedriver.
# Stays on the host, not on Tests/support/topology.py: it proves the relay path alone (direct UDP blocked, a
# cgroup of its own) with REST credentials; TURN forced by two symmetric NATs is networks (b).
# Usage: Tests/turn/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN,
# else .build/debug/{intercom-server,intercomd}).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
# The test removes its nftables table itself; this catches a test killed on the way.
trap 'nft delete table inet intercom_turn_test 2>/dev/null || true; rmdir /sys/fs/cgroup/intercom-turn-test-* /sys/fs/cgroup/unified/intercom-turn-test-* 2>/dev/null || true' EXIT INT TERM
python3 "$here/turn_test.py" --server "$server" --intercomd "$intercomd" "$@"
