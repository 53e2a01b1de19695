#!/bin/sh
# Two intercomd instances call each other through intercom-server, our WebRTC stack on both ends: see
# two_devices_test.py. Usage: Tests/two-devices/run.sh [--server BIN] [--intercomd BIN]
# Binaries: the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, else .build/debug/{intercom-server,intercomd}.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v python3 >/dev/null 2>&1; then
    echo "FAIL prerequisites — python3 is not installed" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
exec python3 "$here/two_devices_test.py" "$@"
