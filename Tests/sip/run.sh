#!/bin/sh
# SIP registration against a real kamailio (digest auth) started by the test, and a SIPp OPTIONS ping: see
# sip_test.py. Needs python3, kamailio (kamcmd) and sip-tester (sipp) (Debian packages; scripts/debian-packages.txt).
# Usage: Tests/sip/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/sip_test.py" --server "$server" --intercomd "$intercomd" "$@"
