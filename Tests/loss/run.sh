#!/bin/sh
# WebRTC under 10 % packet loss, and glass-to-glass latency: see loss_latency_test.py. Needs root (nftables
# drops a tenth of the UDP datagrams arriving on the loopback), python3, chromium and chromedriver.
# Usage: Tests/loss/run.sh [INTERCOMD_BINARY]   (default $INTERCOMD_BIN, then .build/debug/intercomd)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../support/require-python3.sh"
# The test removes its nftables table itself; this catches a test killed on the way.
trap 'nft delete table inet intercom_loss_test 2>/dev/null || true' EXIT INT TERM
python3 "$here/loss_latency_test.py" "$@"
