#!/bin/sh
# SIP against real peers started by the tests: registration against kamailio (digest auth) and a SIPp OPTIONS
# ping (sip_test.py); the agent's address replaced mid-run in a network namespace, kamailio in another, the
# new contact registered within 5 s and reachable, and behind a NAT the public Contact (netchange_test.py,
# root, nft); then calls from SIPp straight to the device's SIP port: G.711 both ways, the door code by RFC 4733
# keys, busy, CANCEL, the allow-list and a 488 (calls_test.py); then baresip, a real SIP phone, calls the device
# through kamailio: two-way audio checked by frequency at both ends, the door code, 486, BYE (baresip_test.py).
# Needs python3, kamailio (kamcmd), sip-tester (sipp) and baresip (Debian packages;
# scripts/debian-packages.txt).
# Usage: Tests/sip/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
status=0
python3 "$here/sip_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
python3 "$here/netchange_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
python3 "$here/calls_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
python3 "$here/baresip_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
exit $status
