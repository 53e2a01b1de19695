#!/bin/sh
# WebRTC interop: intercomd's own PeerConnection (ICE/DTLS/SRTP, VP8 + Opus) played by headless Chromium.
# Usage: Tests/webrtc-interop/run.sh   (build first: swift build)
# Binaries: $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, else .build/debug/{intercom-server,intercomd}.
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../support/require-python3.sh"
exec python3 "$here/interop_test.py" "$@"
