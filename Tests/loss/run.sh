#!/bin/sh
# WebRTC under 10 % packet loss, and glass-to-glass latency: see loss_latency_test.py. Needs root (nftables
# drops a tenth of the UDP datagrams arriving on the loopback), python3, chromium and chromedriver.
# Usage: Tests/loss/run.sh [INTERCOMD_BINARY]   (default $INTERCOMD_BIN, then .build/debug/intercomd)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v python3 >/dev/null 2>&1; then
    echo "FAIL prerequisites — python3 is not installed" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
# The test removes its nftables table itself; this catches a test killed on the way.
trap 'nft delete table inet intercom_loss_test 2>/dev/null || true' EXIT INT TERM
python3 "$here/loss_latency_test.py" "$@"
