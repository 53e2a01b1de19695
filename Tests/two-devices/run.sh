#!/bin/sh
# Two intercomd instances call each other through intercom-server, our WebRTC stack on both ends: see
# two_devices_test.py. Usage: Tests/two-devices/run.sh [--server BIN] [--intercomd BIN]
# Stays on the host, not on Tests/support/topology.py: it tests our stack against itself (both ends `intercomd`);
# the NAT traversal it would add is the same libnice path the networks stage covers with Chromium.
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN,
# else .build/debug/{intercom-server,intercomd}).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/two_devices_test.py" --server "$server" --intercomd "$intercomd" "$@"
