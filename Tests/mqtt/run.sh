#!/bin/sh
# MQTT with Home Assistant discovery against a real mosquitto started by the test: see mqtt_test.py.
# Needs python3, mosquitto and mosquitto-clients (Debian packages; scripts/debian-packages.txt).
# Usage: Tests/mqtt/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/mqtt_test.py" --server "$server" --intercomd "$intercomd" "$@"
