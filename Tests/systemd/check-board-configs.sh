#!/usr/bin/env bash
# Validates the shipped board profiles and the sample fleet with intercomd itself, so that they
# cannot drift from the schema (docs/configuration.md).
#
# Usage: Tests/systemd/check-board-configs.sh INTERCOMD_BIN     e.g. .build/debug/intercomd
#
# Checks:
#   1. every board/*.toml parses as TOML (python3 tomllib) and passes `intercomd check` alone;
#   2. the fleet base plus each hand-written device overlay passes `intercomd check`;
#   3. `intercomd provision` turns board/fleet/inventory.csv into one overlay per row, and the
#      base plus each written overlay passes `intercomd check`;
#   4. control: a profile with an unknown key FAILS `intercomd check` (the checks above can fail).
# Secrets live on the devices, so every check runs with --skip-secrets.
# Exit status: 0 when every check passes, 1 otherwise.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
intercomd=${1:-}
[ -n "$intercomd" ] && [ -x "$intercomd" ] || { echo "usage: $0 INTERCOMD_BIN (an executable intercomd)"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL  python3 not found"; exit 1; }

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/      /'; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# check_config NAME MAIN [OVERLAY...]: MAIN as intercom.toml, overlays in conf.d/, in order.
check_config() {
    local name=$1 main=$2 dir out rc i=10
    shift 2
    dir=$(mktemp -d "$work/config.XXXX")
    cp "$main" "$dir/intercom.toml"
    mkdir "$dir/conf.d"
    for overlay in "$@"; do cp "$overlay" "$dir/conf.d/$i-$(basename "$overlay")"; i=$((i + 10)); done
    out=$("$intercomd" check --skip-secrets "$dir/intercom.toml" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then pass "intercomd check: $name"; else fail "intercomd check: $name (exit $rc)" "$out"; fi
}

echo "== board profiles"
profiles=("$repo"/board/*.toml)
[ -e "${profiles[0]}" ] || { echo "FAIL  no board/*.toml"; exit 1; }
for profile in "${profiles[@]}"; do
    if out=$(python3 -c 'import sys, tomllib; tomllib.load(open(sys.argv[1], "rb"))' "$profile" 2>&1); then
        pass "TOML parses: board/$(basename "$profile")"
    else
        fail "TOML parses: board/$(basename "$profile")" "$out"
    fi
    check_config "board/$(basename "$profile") alone" "$profile"
done

echo "== fleet"
base="$repo/board/fleet/base.toml"
for device in "$repo"/board/fleet/devices/*.toml; do
    check_config "fleet base + devices/$(basename "$device")" "$base" "$device"
done

inventory="$repo/board/fleet/inventory.csv"
rows=$(python3 -c 'import csv, sys; print(len(list(csv.DictReader(open(sys.argv[1], newline="")))))' "$inventory")
out=$("$intercomd" provision --base "$base" --inventory "$inventory" --boards "$repo/board" --out "$work/out" 2>&1)
rc=$?
written=$(find "$work/out" -name '*.toml' 2>/dev/null | wc -l)
if [ "$rc" -eq 0 ] && [ "$written" -eq "$rows" ]; then
    pass "intercomd provision: $written overlays for $rows inventory rows"
else
    fail "intercomd provision: $written overlays for $rows inventory rows (exit $rc)" "$out"
fi
for overlay in "$work"/out/*.toml; do
    [ -e "$overlay" ] && check_config "fleet base + provisioned $(basename "$overlay")" "$base" "$overlay"
done

echo "== control"
sed 's/^\[video\]$/[video]\nframerate = 30/' "$repo/board/rpi4.toml" >"$work/broken.toml"
mkdir -p "$work/broken" && mv "$work/broken.toml" "$work/broken/intercom.toml"
out=$("$intercomd" check --skip-secrets "$work/broken/intercom.toml" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q 'framerate'; then
    pass "an unknown key fails intercomd check (exit 1, names the key)"
else
    fail "an unknown key fails intercomd check" "exit $rc: $out"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
