#!/bin/sh
# HTTPS served by intercom-server itself (issue #20 item 3): the web caller in headless Chromium over https://,
# `intercomd run` with an https server_url and [backend] ca_file, a call that connects both ways, then the
# certificate replaced and reloaded with SIGHUP while the server stays up.
# Usage: Tests/https/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, else .build/debug/…).
# Needs python3, the openssl CLI (Debian package openssl), /usr/bin/chromium and /usr/bin/chromedriver.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/https_test.py" --server "$server" --intercomd "$intercomd"
