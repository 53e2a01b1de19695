#!/bin/sh
# WebRTC interop: intercomd's own PeerConnection (ICE/DTLS/SRTP, VP8 + Opus) played by headless Chromium.
# Usage: Tests/webrtc-interop/run.sh   (build first: swift build)
# Binaries: $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, else .build/debug/{intercom-server,intercomd}.
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v python3 >/dev/null 2>&1; then
    echo "FAIL prerequisites — python3 is not installed" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
exec python3 "$here/interop_test.py" "$@"
