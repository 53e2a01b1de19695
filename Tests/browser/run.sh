#!/bin/sh
# Real-browser end-to-end test of the web caller (two headless Chromium sessions via chromedriver).
# Usage: Tests/browser/run.sh [path/to/intercom-server]
# The server binary comes from the argument, else $INTERCOM_SERVER_BIN, else .build/debug/intercom-server.
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
server=${1:-${INTERCOM_SERVER_BIN:-$repo/.build/debug/intercom-server}}
case $server in /*) ;; *) server=$(pwd)/$server ;; esac
exec python3 "$here/web_caller_test.py" "$server"
