#!/bin/sh
# WebRTC under 10 % packet loss, and glass-to-glass latency: see loss_latency_test.py. Needs root (nftables
# drops a tenth of the UDP datagrams arriving on the loopback), python3, chromium and chromedriver.
# Stays on the host, not on Tests/support/topology.py: its 120 s at 10 % random loss on the loopback isolates NACK
# repair from routing, and its figures compare run to run; loss with delay and jitter across NATs is networks (e).
# Usage: Tests/loss/run.sh [--intercomd BIN] [--server BIN]
#   or:  Tests/loss/run.sh [INTERCOMD_BINARY]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOMD_BIN / $INTERCOM_SERVER_BIN, else
# .build/debug/intercomd). Without --server or $INTERCOM_SERVER_BIN the demo runs the intercom-server next to intercomd.
# The test removes its nftables table itself; this catches a test killed on the way.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
if [ $# -gt 0 ]; then intercomd=$1; case $intercomd in /*) ;; *) intercomd=$(pwd)/$intercomd ;; esac; fi
# The test passes $INTERCOM_SERVER_BIN to `intercomd demo --server` when it is set.
if [ -n "$server_given" ]; then export INTERCOM_SERVER_BIN="$server"; else unset INTERCOM_SERVER_BIN; fi
trap 'nft delete table inet intercom_loss_test 2>/dev/null || true' EXIT INT TERM
python3 "$here/loss_latency_test.py" "$intercomd"
