#!/bin/sh
# SIP against real peers started by the tests: registration against kamailio (digest auth) and a SIPp OPTIONS
# ping (sip_test.py); the address of an agent in a network namespace replaced mid-run and its new contact in
# kamailio's table within 5 s, behind an nftables NAT the public contact (netchange_test.py, root, ip, nft);
# then calls from SIPp straight to the device's SIP port: G.711 both ways, the door code
# by RFC 4733 keys, busy, CANCEL, the allow-list and a 488 (calls_test.py), and over TCP (tcp_test.py); then baresip, a real SIP phone, calls
# the device through kamailio: two-way audio checked by frequency at both ends, the door code, 486, BYE
# (baresip_test.py); the device's call button calls baresip through kamailio (outgoing_test.py); and baresip's
# audio + VP8 call gets the device's video, a snapshot of it checked (video_test.py). Needs python3, kamailio (kamcmd), sip-tester (sipp) and baresip (Debian packages;
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
python3 "$here/tcp_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
python3 "$here/baresip_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
python3 "$here/outgoing_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
python3 "$here/video_test.py" --server "$server" --intercomd "$intercomd" "$@" || status=1
exit $status
