#!/bin/sh
# PostgreSQL storage: one throwaway PostgreSQL 15 cluster (pg-cluster.sh) for two parts.
#  1. fleet_test.py: two intercom-server instances on one database behind nginx (round robin, WebSocket upgrade):
#     queries answered by both, LiveQuery events across instances exactly once, shared sessions, signaling rooms
#     across instances (relay, viewers, the room's owner SIGKILLed), a real call between `intercomd run` on one
#     instance and the web caller in headless Chromium on the other (then the device on nginx: an instance killed
#     while idle and one mid-call), failover after a SIGKILL, /health.
#  2. When $INTERCOM_TEST_BUNDLE names the test bundle (scripts/test.sh postgres sets it to the build's
#     intercomPackageTests.xctest): the IntercomServerTests and ParseClientTests suites with
#     INTERCOM_TEST_DATABASE_URL pointing at a database of the same cluster (every test server in a fresh schema;
#     CrashSafetyTests SIGKILLs the real binary mid-write on PostgreSQL too).
# Needs python3, Debian's postgresql (PostgreSQL 15), nginx, chromium and chromium-driver; root, or a user
# PostgreSQL accepts (as root the cluster runs as the postgres user through runuser).
# Usage: Tests/postgres/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh. Environment: INTERCOM_TEST_BUNDLE (above); INTERCOM_POSTGRES_TEST_WIDTH
# (tests at once in part 2, default 16: each holds PostgreSQL connections); INTERCOM_POSTGRES_TEST_TIMEOUT (part 2's
# limit in seconds, default 1800); POSTGRES_FLEET_KEEP=1 keeps the fleet's logs, PG_CLUSTER_KEEP=1 the cluster's
# directory; TEST_LOG_DIR (default <repo>/.build/test-logs) gets part 2's full output as postgres-server-tests.log.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
. "$here/pg-cluster.sh"

# What pg_cluster_start says goes into the FAIL line too (the stage summary repeats FAIL lines).
pg_messages=$(mktemp)
if ! pg_cluster_start 2> "$pg_messages"; then
    echo "FAIL prerequisites — no throwaway PostgreSQL cluster: $(tr '\n' ' ' < "$pg_messages")"
    echo "0 passed, 1 failed"
    rm -f "$pg_messages"
    exit 1
fi
cat "$pg_messages" >&2
rm -f "$pg_messages"
pg_cluster_trap
status=0

# ── 1. the fleet ──
if fleet_url=$(pg_cluster_createdb intercom_fleet); then
    python3 "$here/fleet_test.py" --server "$server" --intercomd "$intercomd" --database-url "$fleet_url" "$@" || status=1
else
    echo "FAIL postgres fleet — CREATE DATABASE intercom_fleet failed (the reason is above)"
    echo "0 passed, 1 failed"
    status=1
fi

# ── 2. the in-process server tests on PostgreSQL ──
if [ -z "${INTERCOM_TEST_BUNDLE:-}" ]; then
    echo "IntercomServerTests and ParseClientTests on PostgreSQL: not run (INTERCOM_TEST_BUNDLE is not set; scripts/test.sh postgres sets it)"
    exit "$status"
fi
bundle=$INTERCOM_TEST_BUNDLE
logs=${TEST_LOG_DIR:-$repo/.build/test-logs}
case $logs in /*) ;; *) logs=$repo/$logs ;; esac
mkdir -p "$logs"
log=$logs/postgres-server-tests.log
if [ ! -x "$bundle" ]; then
    echo "FAIL IntercomServerTests on PostgreSQL — no test bundle at $bundle (swift build --build-tests)"
    echo "0 passed, 1 failed"
    exit 1
fi
if ! tests_url=$(pg_cluster_createdb intercom_server_tests); then
    echo "FAIL IntercomServerTests on PostgreSQL — CREATE DATABASE intercom_server_tests failed (the reason is above)"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "IntercomServerTests and ParseClientTests on PostgreSQL ($(pg_cluster_url intercom_server_tests | sed 's/:[0-9a-f]*@/:…@/')), running $bundle"
started=$(date +%s)
tests_status=0
# The bundle runs like the harness-tests stage runs it (swift-testing's entry point, a filter); scripts/test.sh's
# unit stage runs the same tests through `swift test --skip-build`. From the repository, as `swift test` does.
(cd "$repo" && NO_COLOR=1 INTERCOM_TEST_DATABASE_URL=$tests_url \
    timeout -k 30 "${INTERCOM_POSTGRES_TEST_TIMEOUT:-1800}" "$bundle" --testing-library swift-testing \
    --filter '^(IntercomServerTests|ParseClientTests)\.' \
    --experimental-maximum-parallelization-width "${INTERCOM_POSTGRES_TEST_WIDTH:-16}") > "$log" 2>&1 || tests_status=$?
took=$(( $(date +%s) - started ))
# swift-testing: `✘ Test name() failed after …` once per failed test, `Test run with N tests … passed|failed` last.
grep -E "^✘ " "$log" | grep -v "Test run with" | head -n 40 || true
total=$(grep -Eo "Test run with [0-9]+ tests?" "$log" | tail -n 1 | grep -Eo "[0-9]+" || true)
failed=$(grep -E "^✘ Test .* failed after" "$log" | grep -vc "Test run with" || true)
if [ "$tests_status" -eq 0 ] && [ "${total:-0}" -gt 0 ]; then
    echo "PASS IntercomServerTests on PostgreSQL — $total tests in $took s (full output: $log)"
    echo "$total passed, 0 failed"
else
    echo "FAIL IntercomServerTests on PostgreSQL — exit status $tests_status, ${total:-no} tests, $failed failed, $took s (full output: $log)"
    [ "$failed" -gt 0 ] || failed=1
    passed=$(( ${total:-0} - failed ))
    echo "$(( passed < 0 ? 0 : passed )) passed, $failed failed"
    status=1
fi
exit "$status"
