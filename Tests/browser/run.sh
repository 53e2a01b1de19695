#!/bin/sh
# Real-browser end-to-end tests of the web caller (headless Chromium sessions via chromedriver):
#   web_caller_test.py  two browsers call each other through intercom-server (intercomd is not used)
#   visits_test.py      the Visits view against a real `intercomd run` (calls from a browser, the owner's list)
#   camera_switch_test.py  "Switch camera" against `intercomd run` with two cameras (issue #22)
# Usage: Tests/browser/run.sh [--server BIN] [--intercomd BIN]
#   or:  Tests/browser/run.sh [path/to/intercom-server]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN, else .build/debug/…).
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
if [ $# -gt 0 ]; then server=$1; case $server in /*) ;; *) server=$(pwd)/$server ;; esac; fi
status=0
python3 "$here/web_caller_test.py" "$server" || status=1
python3 "$here/visits_test.py" --server "$server" --intercomd "$intercomd" || status=1
python3 "$here/camera_switch_test.py" --server "$server" --intercomd "$intercomd" || status=1
exit $status
