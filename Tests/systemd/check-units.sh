#!/usr/bin/env bash
# Offline checks of the shipped systemd files (reliability matrix row 34). No systemd PID 1
# needed: only systemd-analyze and systemd-sysusers.
#
# Usage: Tests/systemd/check-units.sh [INTERCOMD_BIN [SERVER_BIN]]
#
# `systemd-analyze verify` fails when ExecStart='s binary does not exist, and the binaries
# are only in /usr/local/bin after installation. So each unit is copied to a temporary
# directory with the first word of ExecStart= replaced by INTERCOMD_BIN / SERVER_BIN (default
# /bin/true, which exists everywhere). Pass built binaries, e.g. .build/debug/intercomd, to
# check them too; pass the installed paths after installation.
#
# Checks, per unit:
#   1. the settings the project relies on are present with the agreed values (static);
#   2. `systemd-analyze verify` exits 0 AND prints nothing (it exits 0 on "Unknown key" and
#      "Invalid syntax" warnings, which silently drop a setting);
#   3. `systemd-analyze security --offline=true --threshold=30` passes (exposure <= 3.0);
# and systemd/sysusers.d/intercom.conf parses (`systemd-sysusers --dry-run`).
# Exit status: 0 when every check passes, 1 otherwise (each failure says why).
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
intercomd_bin=${1:-/bin/true}
server_bin=${2:-/bin/true}
threshold=30 # exposure x 10

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/      /'; }

for tool in systemd-analyze systemd-sysusers; do
    command -v "$tool" >/dev/null || { echo "FAIL  $tool not found (Debian package: systemd)"; exit 1; }
done
for bin in "$intercomd_bin" "$server_bin"; do
    [ -x "$bin" ] || { echo "FAIL  $bin is not an executable file"; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "Section|Key|Value" for every assignment, in file order (comments and blanks dropped).
assignments() {
    awk '
        /^[ \t]*([#;]|$)/ { next }
        /^\[.*\]$/ { section = substr($0, 2, length($0) - 2); next }
        { i = index($0, "="); if (i > 0) print section "|" substr($0, 1, i - 1) "|" substr($0, i + 1) }
    ' "$1"
}

# expect UNITFILE "Section|Key|Value": that exact assignment exists.
expect() {
    if assignments "$1" | grep -Fxq -- "$2"; then pass "$(basename "$1"): $2"
    else fail "$(basename "$1"): $2" "missing or different; the file has: $(assignments "$1" | grep -F -- "${2%|*}|" | tr '\n' ' ')"; fi
}

# reject UNITFILE "Section|Key|": no such key in that section.
reject() {
    local hits
    hits=$(assignments "$1" | grep -F -- "$2" | grep -E "^${2%%|*}\|" || true)
    if [ -z "$hits" ]; then pass "$(basename "$1"): no ${2%|} ($3)"
    else fail "$(basename "$1"): no ${2%|} ($3)" "found: $hits"; fi
}

# Copy UNITFILE into $work with ExecStart's binary replaced by BIN; prints the copy's path.
testable_copy() {
    local copy="$work/$(basename "$1")"
    awk -v bin="$2" '
        /^ExecStart=/ { sub(/^ExecStart=[^ ]+/, "ExecStart=" bin) }
        { print }
    ' "$1" >"$copy"
    printf '%s\n' "$copy"
}

verify_unit() {
    local copy out rc
    copy=$(testable_copy "$1" "$2")
    out=$(cd "$work" && systemd-analyze verify "$copy" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ] && [ -z "$out" ]; then pass "$(basename "$1"): systemd-analyze verify (ExecStart binary: $2)"
    else fail "$(basename "$1"): systemd-analyze verify (ExecStart binary: $2)" "exit $rc: ${out:-no output}"; fi
}

security_unit() {
    local copy out rc score
    copy=$(testable_copy "$1" "$2")
    out=$(cd "$work" && systemd-analyze security --offline=true --threshold="$threshold" "$copy" 2>&1)
    rc=$?
    score=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    if [ "$rc" -eq 0 ] && [ -n "$score" ]; then
        pass "$(basename "$1"): exposure $score <= $((threshold / 10)).$((threshold % 10))"
    else
        fail "$(basename "$1"): exposure ${score:-unknown} <= $((threshold / 10)).$((threshold % 10))" \
            "exit $rc; settings that cost exposure:
$(printf '%s\n' "$out" | grep '✗')"
    fi
}

agent="$repo/systemd/intercomd.service"
server="$repo/systemd/intercom-server.service"
retry_timer="$repo/systemd/intercomd-retry.timer"
retry_service="$repo/systemd/intercomd-retry.service"
for unit in "$agent" "$server" "$retry_timer" "$retry_service"; do
    [ -f "$unit" ] || { echo "FAIL  $unit does not exist"; exit 1; }
done

echo "== $agent"
for a in \
    'Unit|Wants|network-online.target' \
    'Unit|After|network-online.target' \
    'Unit|StartLimitIntervalSec|300' \
    'Unit|StartLimitBurst|10' \
    'Unit|OnFailure|intercomd-retry.timer' \
    'Service|Type|notify' \
    'Service|NotifyAccess|main' \
    'Service|ExecStart|/usr/local/bin/intercomd run --config /etc/intercom/intercom.toml' \
    'Service|WatchdogSec|20s' \
    'Service|Restart|always' \
    'Service|RestartSec|2s' \
    'Service|TimeoutStopSec|10s' \
    'Service|DynamicUser|yes' \
    'Service|SupplementaryGroups|video audio gpio' \
    'Service|StateDirectory|intercom' \
    'Service|StateDirectoryMode|0700' \
    'Service|ConfigurationDirectory|intercom' \
    'Service|LoadCredential|backend.password:/etc/intercom/secrets/backend.password' \
    'Service|SetCredential|backend.password:\n' \
    'Service|DevicePolicy|closed' \
    'Service|DeviceAllow|char-video4linux rw' \
    'Service|DeviceAllow|char-alsa rw' \
    'Service|DeviceAllow|char-gpiochip rw' \
    'Service|ProtectSystem|strict' \
    'Service|ProtectHome|yes' \
    'Service|PrivateTmp|yes' \
    'Service|NoNewPrivileges|yes' \
    'Service|CapabilityBoundingSet|' \
    'Service|AmbientCapabilities|' \
    'Service|SystemCallFilter|@system-service' \
    'Service|SystemCallArchitectures|native' \
    'Service|RestrictAddressFamilies|AF_UNIX AF_INET AF_INET6 AF_NETLINK' \
    'Service|MemoryMax|256M' \
    'Service|UMask|0077' \
    'Install|WantedBy|multi-user.target'; do
    expect "$agent" "$a"
done
reject "$agent" 'Service|StartLimitIntervalSec|' 'ignored in [Service]'
reject "$agent" 'Service|StartLimitBurst|' 'belongs in [Unit]'
reject "$agent" 'Service|PrivateDevices|' 'would hide camera, sound card and GPIO'
reject "$agent" 'Service|ProcSubset|' 'hides /proc/cpuinfo, libvpx NEON detection on armhf'

# The restart lockout (issue #23): after the start limit, OnFailure= starts the timer, which resets
# the limit and starts the agent a minute later; a stop of the agent cancels it (PartOf=).
echo "== $retry_timer, $retry_service"
for a in \
    'Unit|PartOf|intercomd.service' \
    'Timer|OnActiveSec|1min' \
    'Timer|RemainAfterElapse|no' \
    'Timer|Unit|intercomd-retry.service'; do
    expect "$retry_timer" "$a"
done
reject "$retry_timer" 'Install|WantedBy|' 'started only by OnFailure= of intercomd.service'
for a in \
    'Service|Type|oneshot' \
    'Service|ExecStart|/bin/systemctl reset-failed intercomd.service' \
    'Service|ExecStart|/bin/systemctl start --no-block intercomd.service' \
    'Service|CapabilityBoundingSet|' \
    'Service|PrivateNetwork|yes'; do
    expect "$retry_service" "$a"
done
cp "$retry_timer" "$retry_service" "$work/"
out=$(cd "$work" && systemd-analyze verify "$work/intercomd-retry.timer" "$work/intercomd-retry.service" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ -z "$out" ]; then pass "intercomd-retry.timer and .service: systemd-analyze verify"
else fail "intercomd-retry.timer and .service: systemd-analyze verify" "exit $rc: ${out:-no output}"; fi
verify_unit "$agent" "$intercomd_bin"
security_unit "$agent" "$intercomd_bin"

echo "== $server"
for a in \
    'Unit|Wants|network-online.target' \
    'Unit|After|network-online.target' \
    'Unit|StartLimitIntervalSec|300' \
    'Unit|StartLimitBurst|10' \
    'Service|Type|exec' \
    'Service|ExecStart|/usr/local/bin/intercom-server --listen 127.0.0.1:1337 --database /var/lib/intercom-server/intercom-server.sqlite' \
    'Service|Restart|always' \
    'Service|DynamicUser|yes' \
    'Service|ExecReload|/bin/kill -HUP $MAINPID' \
    'Service|StateDirectory|intercom-server' \
    'Service|WorkingDirectory|/var/lib/intercom-server' \
    'Service|PrivateDevices|yes' \
    'Service|ProtectSystem|strict' \
    'Service|NoNewPrivileges|yes' \
    'Service|CapabilityBoundingSet|' \
    'Service|SystemCallFilter|@system-service' \
    'Service|UMask|0077' \
    'Install|WantedBy|multi-user.target'; do
    expect "$server" "$a"
done
reject "$server" 'Service|DeviceAllow|' 'the server needs no device'
reject "$server" 'Service|SupplementaryGroups|' 'the server needs no device group'
reject "$server" 'Service|StartLimitIntervalSec|' 'ignored in [Service]'
verify_unit "$server" "$server_bin"
security_unit "$server" "$server_bin"

echo "== $repo/systemd/sysusers.d/intercom.conf"
sysusers="$repo/systemd/sysusers.d/intercom.conf"
mkdir -p "$work/root"
out=$(systemd-sysusers --root="$work/root" --dry-run "$sysusers" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "Creating group 'gpio'"; then
    pass "sysusers.d/intercom.conf: creates group gpio on a system without it"
else
    fail "sysusers.d/intercom.conf: creates group gpio on a system without it" "exit $rc: $out"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
