#!/bin/sh
# Efficiency benchmark: `intercomd run` idle, in a call (per named thread, against the codecs' own cost from
# codec_floor.c in the same run) and after it; RSS, context switches, binary size; then a SIP audio + VP8 call
# from baresip to a second agent, against the WebRTC call (issue #18). EFFICIENCY lines carry the
# figures and the exact commands. Pass the release binaries for figures that mean something
# (scripts/test.sh efficiency does); a debug build runs too, with the same generous guards.
# Usage: Tests/efficiency/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh. Needs python3, cc, pkg-config, strip, libvpx/libopus headers and baresip.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/efficiency_test.py" --server "$server" --intercomd "$intercomd" "$@"
