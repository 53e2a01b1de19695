#!/bin/sh
# SIP against real peers started by the tests: registration against kamailio (digest auth) and a SIPp OPTIONS
# ping (sip_test.py), then calls from SIPp straight to the device's SIP port: G.711 both ways, the door code
# by RFC 4733 keys, busy, CANCEL, the allow-list and a 488 (calls_test.py). Needs python3, kamailio (kamcmd)
# and sip-tester (sipp) (Debian packages; scripts/debian-packages.txt).
# Usage: Tests/sip/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
status=0
python3 "$here/sip_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
python3 "$here/calls_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
exit $status
