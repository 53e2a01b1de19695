#!/bin/sh
# WebRTC interop: the device's own PeerConnection (ICE/DTLS/SRTP, VP8 + Opus; `intercom-dev webrtc-send`)
# played by headless Chromium.
# Usage: Tests/webrtc-interop/run.sh [--server BIN] [--intercomd BIN] [--dev BIN]   (build first: swift build)
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN /
# $INTERCOM_DEV_BIN, else .build/debug/{intercom-server,intercomd} and intercom-dev next to intercomd).
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/interop_test.py" --server "$server" --intercomd "$intercomd" --dev "$dev" "$@"
