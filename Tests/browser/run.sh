#!/bin/sh
# Real-browser end-to-end test of the web caller (two headless Chromium sessions via chromedriver).
# Usage: Tests/browser/run.sh [--server BIN] [--intercomd BIN]   (intercomd is not used here)
#   or:  Tests/browser/run.sh [path/to/intercom-server]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN, else .build/debug/intercom-server).
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
if [ $# -gt 0 ]; then server=$1; case $server in /*) ;; *) server=$(pwd)/$server ;; esac; fi
exec python3 "$here/web_caller_test.py" "$server"
