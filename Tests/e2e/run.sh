#!/bin/sh
# End-to-end: the web caller in headless Chromium calls `intercomd demo` (intercom-server + device agent):
# auto answer with test-pattern video, hang up, a 10-call first-frame benchmark, and `--answer button` ringing.
# Stays on the host, not on Tests/support/topology.py: it tests `intercomd demo`, the one-machine tool whose server
# and agent share the loopback by design; calls across NATs, LANs and links are the networks stage's.
# Usage: Tests/e2e/run.sh [--intercomd BIN] [--server BIN]
#   or:  Tests/e2e/run.sh [path/to/intercomd]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOMD_BIN / $INTERCOM_SERVER_BIN, else
# .build/debug/intercomd). Without --server or $INTERCOM_SERVER_BIN the demo runs the intercom-server next to intercomd.
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
if [ $# -gt 0 ]; then intercomd=$1; case $intercomd in /*) ;; *) intercomd=$(pwd)/$intercomd ;; esac; fi
# The test passes $INTERCOM_SERVER_BIN to `intercomd demo --server` when it is set.
if [ -n "$server_given" ]; then export INTERCOM_SERVER_BIN="$server"; else unset INTERCOM_SERVER_BIN; fi
exec python3 "$here/demo_call_test.py" "$intercomd"
