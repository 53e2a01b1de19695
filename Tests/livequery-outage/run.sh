#!/bin/sh
# LiveQuery outage: nftables silently drops the agent's established LiveQuery TCP flow on lo in both directions
# (a half-open socket: no RST, no FIN reaches either end); the agent must notice, poll, take a call made during
# the outage and subscribe again over a new connection: see livequery_outage_test.py. Needs root (nftables),
# python3, nft and ss (iproute2).
# Usage: Tests/livequery-outage/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
# The test removes its nftables table itself; this catches a test killed on the way.
trap 'nft delete table inet intercom_livequery_outage 2>/dev/null || true' EXIT INT TERM
python3 "$here/livequery_outage_test.py" --server "$server" --intercomd "$intercomd" "$@"
