#!/usr/bin/env bash
# The packaging test (issue #17; the restart lockout of issue #23, item 2): the Debian packages from
# scripts/build-deb.sh installed, run, upgraded, removed and purged in a clean Debian 12 booted under its own
# systemd (systemd-nspawn --boot), the way an installer does it on a board:
#   - lintian finds no errors in either package;
#   - apt installs both with only Debian's packages as dependencies, and no Swift library is on the system
#     or named by `ldd /usr/bin/intercomd`;
#   - intercom-server is enabled and started by its postinst and serves the web caller from
#     /usr/share/intercom/web; intercomd is enabled but not started (it needs a configuration);
#   - a fleet base in /etc/intercom/intercom.toml and an overlay written by `intercomd provision` in
#     /etc/intercom/conf.d/ (the backend password as the unit's credential): intercomd reaches READY under
#     the packaged unit, its STATUS= says it is registered, and its ActiveUsers row is on the server;
#   - 12 `systemctl kill -s KILL intercomd` as fast as the restarts allow: the start limit is hit, the
#     retry timer starts it again, and it ends active, READY and registered (issue #23);
#   - `systemd-analyze security intercomd.service` of the installed unit is at most 2.0;
#   - an upgrade to a higher version keeps the operator's edited conffile and the device identity (userID,
#     installation id) and restarts the agent; `apt-get remove` stops it and keeps config and identity;
#     `apt-get purge` removes config and state;
#   - figures (not tests): package and binary sizes beside the dynamically linked build (--intercomd).
#
# The Debian system is debootstrapped once into $INTERCOM_PACKAGING_CACHE (default
# /var/cache/intercom-packaging, never /tmp) and booted with --volatile=overlay: every run starts from the
# same fresh tree and writes only to a tmpfs. apt's lists and downloaded packages are kept in the cache too.
# The container has its own network namespace (loopback only), so its server and agent never meet the
# host's ports; packages are downloaded before it boots.
#
# Usage: Tests/packaging/run.sh [--intercomd PATH] [--server PATH]   (Tests/support/binary-flags.sh; the
#        packages are built from the release build by scripts/build-deb.sh, --intercomd is only the dynamic
#        build whose size is printed beside the package's)
# Needs: root, debootstrap, systemd-nspawn (systemd-container), lintian, dpkg-dev, curl, python3, and the
# Swift toolchain for the release build.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/binary-flags.sh"
. "$here/../support/nspawn-boot.sh"
. "$here/../support/require-python3.sh"

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/      /'; }
# Background jobs and the container; cleanup() (on every exit) ends whichever still runs.
base_job=''
lintian_job=''
lintian_reported=0
nspawn=''
finish() {
    [ -n "$lintian_job" ] && [ "$lintian_reported" -eq 0 ] && lintian_result
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

[ "$(id -u)" -eq 0 ] || { echo "FAIL  must run as root (debootstrap, systemd-nspawn)"; echo "0 passed, 1 failed"; exit 1; }
missing=()
for tool in debootstrap:debootstrap systemd-nspawn:systemd-container nsenter:util-linux lintian:lintian \
    dpkg-shlibdeps:dpkg-dev curl:curl strip:binutils; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool%%:*} (Debian package ${tool#*:})")
done
if [ ${#missing[@]} -ne 0 ]; then
    for tool in "${missing[@]}"; do echo "FAIL  $tool not found"; done
    echo "0 passed, ${#missing[@]} failed"
    exit 1
fi

cleanup() {
    local job
    # Each background job runs in its own process group (setsid), so its children (debootstrap, lintian's
    # workers) end with it.
    for job in "$lintian_job" "$base_job"; do [ -n "$job" ] && kill -- "-$job" 2>/dev/null; done
    if [ -n "$nspawn" ] && kill -0 "$nspawn" 2>/dev/null; then
        kill "$nspawn" # nspawn powers the container off on SIGTERM and releases its mounts
        for _ in $(seq 30); do kill -0 "$nspawn" 2>/dev/null || break; sleep 1; done
        kill -0 "$nspawn" 2>/dev/null && kill -KILL "$nspawn"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cache=${INTERCOM_PACKAGING_CACHE:-/var/cache/intercom-packaging}
case $cache in /tmp/*) echo "FAIL  INTERCOM_PACKAGING_CACHE must be outside /tmp (it is kept between runs)"; exit 1 ;; esac
work="$repo/.build/packaging-test"
rm -rf "$work"
mkdir -p "$work/debs" "$work/upgrade" "$cache/apt-lists" "$cache/apt-archives"

started=$SECONDS
step_started=$SECONDS
timing() { echo "--- $1: $((SECONDS - step_started)) s (total $((SECONDS - started)) s)"; step_started=$SECONDS; }

# ── The base system, in the background while the packages build (it waits on the network, not the CPU) ──
setsid "$here/debian-base.sh" "$cache" > "$work/base.path" 2> "$work/debootstrap.log" &
base_job=$!

# ── Packages ────────────────────────────────────────────────────────────────────────────────────────────
if ! "$repo/scripts/build-deb.sh" "$work/debs" > "$work/build-deb.log" 2>&1; then
    tail -n 30 "$work/build-deb.log"
    fail "scripts/build-deb.sh builds both packages"
    wait "$base_job"
    finish
fi
grep -E " took |\.deb " "$work/build-deb.log"
agent_deb=$(ls "$work"/debs/intercomd_*.deb)
server_deb=$(ls "$work"/debs/intercom-server_*.deb)
version=$(dpkg-deb -f "$agent_deb" Version)
arch=$(dpkg-deb -f "$agent_deb" Architecture)
pass "scripts/build-deb.sh: $(basename "$agent_deb"), $(basename "$server_deb")"
[ "$("$repo/.build/release/intercomd" --version)" = "$version" ] &&
    pass "Version: is what intercomd --version prints ($version)" ||
    fail "Version: is what intercomd --version prints" "package $version, binary $("$repo/.build/release/intercomd" --version)"
timing "release build and packages"

# The upgrade: the same packages with a higher version (a rebuild would take minutes and test nothing more).
upgrade_version="$version+upgradetest"
for deb in "$agent_deb" "$server_deb"; do
    package=$(dpkg-deb -f "$deb" Package)
    rm -rf "$work/repack" && dpkg-deb -R "$deb" "$work/repack"
    sed -i "s/^Version: .*/Version: $upgrade_version/" "$work/repack/DEBIAN/control"
    # Uncompressed: xz-compressing 80 MB again would cost a minute and test nothing.
    dpkg-deb --root-owner-group -Znone --build "$work/repack" "$work/upgrade/${package}_${upgrade_version}_$arch.deb" >/dev/null
done
dpkg --compare-versions "$upgrade_version" gt "$version" &&
    pass "upgrade packages: $upgrade_version sorts after $version" || fail "upgrade version sorts after $version"
timing "upgrade packages (the same files, a higher version)"

# ── lintian, in the background (a minute of CPU on the two large binaries); read before the end ─────────
setsid lintian --tag-display-limit 0 "$agent_deb" "$server_deb" > "$work/lintian.log" 2>&1 &
lintian_job=$!
lintian_result() {
    local status errors warnings
    wait "$lintian_job"
    status=$?
    lintian_reported=1
    errors=$(grep -c '^E:' "$work/lintian.log")
    warnings=$(grep -c '^W:' "$work/lintian.log")
    grep -E '^(E|W):' "$work/lintian.log" | sed 's/^/      lintian: /'
    if [ "$errors" -eq 0 ] && [ "$status" -eq 0 ]; then pass "lintian: no errors ($warnings warnings, listed above)"
    else fail "lintian: no errors" "$errors errors, exit $status"; fi
}

if ! wait "$base_job"; then
    tail -n 20 "$work/debootstrap.log"
    fail "debootstrap a minimal Debian 12 (log: $work/debootstrap.log)"
    finish
fi
base=$(cat "$work/base.path")
pass "minimal Debian 12 at $base"
timing "Debian 12 base system (debootstrap, or the cached tree)"

# ── Downloads, with the host's network, into the cache (the booted container has none) ─────────────────
binds=("--bind-ro=$work/debs:/debs" "--bind-ro=$work/upgrade:/upgrade"
    "--bind=$cache/apt-lists:/var/lib/apt/lists" "--bind=$cache/apt-archives:/var/cache/apt/archives")
in_base() { systemd-nspawn -q -D "$base" --volatile=overlay --register=no --keep-unit "${binds[@]}" "$@"; }
in_base sh -c 'apt-get -q update && apt-get install -y -q --download-only /debs/*.deb && apt-get install -s /debs/*.deb' \
    > "$work/apt-download.log" 2>&1
download_status=$?
if [ "$download_status" -ne 0 ]; then
    tail -n 20 "$work/apt-download.log"
    fail "apt-get downloads the packages' dependencies"
    finish
fi
# apt -s prints "Inst NAME (VERSION ORIGINS [ARCH])" per package; ours come from /debs, everything else must
# come from Debian's archive.
foreign=$(grep '^Inst ' "$work/apt-download.log" | grep -vE '^Inst (intercomd|intercom-server) ' | grep -v ' Debian' || true)
count=$(grep -c '^Inst ' "$work/apt-download.log")
if [ -z "$foreign" ] && [ "$count" -gt 2 ]; then
    pass "apt resolves the dependencies from Debian alone ($((count - 2)) packages besides ours)"
else
    fail "apt resolves the dependencies from Debian alone" "${foreign:-only $count packages}"
fi
timing "apt downloads"

# ── Boot ────────────────────────────────────────────────────────────────────────────────────────────────
nspawn_log="$work/nspawn.log"
setsid systemd-nspawn -D "$base" --volatile=overlay --private-network --register=no --keep-unit \
    "${binds[@]}" -b -- systemd.firstboot=off > "$nspawn_log" 2>&1 &
nspawn=$!

wait_for_container_boot "$nspawn"
case "$state" in
    running | degraded) pass "the container boots under systemd ($state)" ;;
    *) fail "the container boots under systemd" "state '$state'; $(tail -n 20 "$nspawn_log")"; finish ;;
esac
timing "boot"

ct() { nsenter -t "$init" -a "$@"; }
# Host tools in the container's network namespace: its loopback is where its server listens.
on_container_network() { nsenter -t "$init" -n "$@"; }
show() { ct systemctl show -p "$2" --value "$1"; }
wait_for() {  # wait_for SECONDS COMMAND...
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do [ "$SECONDS" -ge "$deadline" ] && return 1; sleep 0.5; done
}
apt_in_container() { ct env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0 "$@" >> "$work/apt.log" 2>&1; }
agent_ready() { [ "$(show intercomd.service ActiveState)" = active ] && [ "$(show intercomd.service SubState)" = running ]; }
agent_registered() { agent_ready && case $(show intercomd.service StatusText) in idle,* | ringing,* | in\ call,*) true ;; *) false ;; esac; }
log_of() { ct journalctl --no-pager -o cat -u "$1"; }

# ── Install ─────────────────────────────────────────────────────────────────────────────────────────────
if apt_in_container install "/debs/$(basename "$agent_deb")" "/debs/$(basename "$server_deb")"; then
    pass "apt-get install ./intercomd_*.deb ./intercom-server_*.deb"
else
    fail "apt-get install ./intercomd_*.deb ./intercom-server_*.deb" "$(tail -n 20 "$work/apt.log")"
    finish
fi
toolchain_files=$(ct find / -xdev \( -name 'libswift*' -o -name 'libFoundation*' -o -name 'libdispatch.so*' -o -name 'libBlocksRuntime*' -o -name 'swift-*' \) -print | head -n 5)
[ -z "$toolchain_files" ] && pass "no file of the Swift toolchain on the system" ||
    fail "no file of the Swift toolchain on the system" "$toolchain_files"
ldd_output=$(ct ldd /usr/bin/intercomd 2>&1)
if [ -n "$ldd_output" ] && ! printf '%s\n' "$ldd_output" | grep -qE 'libswift|libFoundation|libdispatch|not found'; then
    pass "ldd /usr/bin/intercomd: $(printf '%s\n' "$ldd_output" | wc -l) libraries, all found, no libswift*/libFoundation*"
else
    fail "ldd /usr/bin/intercomd names no Swift library and misses none" "$(printf '%s\n' "$ldd_output" | grep -E 'libswift|libFoundation|libdispatch|not found')"
fi
[ "$(ct /usr/bin/intercomd --version)" = "$version" ] && pass "installed intercomd --version: $version" ||
    fail "installed intercomd --version is $version" "$(ct /usr/bin/intercomd --version 2>&1)"
man_page=$(ct man -w intercomd 2>&1)
man_text=$(ct env MANWIDTH=80 man -P cat intercomd 2>/dev/null | tr -s ' ' | head -n 20)
if [ "$man_page" = /usr/share/man/man1/intercomd.1.gz ] && printf '%s\n' "$man_text" | grep -q 'intercomd'; then
    pass "man intercomd: $man_page"
else
    fail "man intercomd" "$man_page"
fi
timing "install"

# ── intercom-server ─────────────────────────────────────────────────────────────────────────────────────
server_up() { on_container_network curl -sf -o /dev/null http://127.0.0.1:1337/; }
if wait_for 30 server_up && [ "$(show intercom-server.service UnitFileState)" = enabled ]; then
    pass "intercom-server: enabled and started by its postinst, listening on 127.0.0.1:1337"
else
    fail "intercom-server: enabled and started by its postinst" "$(ct systemctl status --no-pager intercom-server 2>&1 | tail -n 15)"
fi
page=$(on_container_network curl -sf http://127.0.0.1:1337/)
if [ -n "$page" ] && [ "$page" = "$(cat "$repo/Sources/IntercomServer/WebCaller/index.html")" ]; then
    pass "the web caller is served at / from /usr/share/intercom/web"
else
    fail "the web caller is served at / from /usr/share/intercom/web" "$(printf '%s\n' "$page" | head -n 3)"
fi
master_key="packaging-test-master-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
printf 'INTERCOM_MASTER_KEY=%s\n' "$master_key" | ct sh -c 'umask 077 && cat > /etc/intercom/secrets/server.env'
ct systemctl restart intercom-server
wait_for 30 server_up || fail "intercom-server restarts with /etc/intercom/secrets/server.env"

# rest METHOD PATH [JSON]: the server's REST API from inside the container (master key: loopback only).
rest() {
    on_container_network curl -s -X "$1" -H 'X-Parse-Application-Id: intercom' -H "X-Parse-Master-Key: $master_key" \
        -H 'Content-Type: application/json' ${3:+--data "$3"} "http://127.0.0.1:1337/parse$2"
}
# The device's ActiveUsers rows as "objectId userID updatedAt" lines.
device_title="Packaging test gate"
active_rows() {
    rest GET "/classes/ActiveUsers?where=$(python3 -c 'import json,sys,urllib.parse; print(urllib.parse.quote(json.dumps({"userTitle": sys.argv[1]})))' "$device_title")" |
        python3 -c 'import json,sys; [print(r["objectId"], r["userID"], r.get("updatedAt", "")) for r in json.load(sys.stdin).get("results", [])]'
}
timing "server"

# ── intercomd: enabled, not started, then configured the way a fleet is rolled out ─────────────────────
if [ "$(show intercomd.service UnitFileState)" = enabled ] && [ "$(show intercomd.service ActiveState)" = inactive ]; then
    pass "intercomd: enabled but not started by its postinst (it has no configuration yet)"
else
    fail "intercomd: enabled but not started by its postinst" \
        "UnitFileState=$(show intercomd.service UnitFileState) ActiveState=$(show intercomd.service ActiveState)"
fi
device_password="pw-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
signup=$(rest POST /users "{\"username\":\"gate-pkg\",\"password\":\"$device_password\"}")
device_user=$(printf '%s' "$signup" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("objectId", ""))' 2>/dev/null)
[ -n "$device_user" ] && pass "the device's backend user gate-pkg exists ($device_user)" || fail "create the device's backend user" "$signup"
# The fleet base goes into the conffile (an operator's edit), the device overlay comes from `intercomd provision`.
# No camera, sound card or GPIO in the container: video "auto" falls back to the test pattern, audio is off.
ct sh -c 'mkdir -p /root/fleet && cat > /root/fleet/base.toml' <<'EOF'
# Fleet base for the packaging test (edited by the operator over the packaged example).
[backend]
server_url = "http://127.0.0.1:1337/parse"
[call]
answer = "auto"
[video]
source = "auto"
[audio]
enabled = false
EOF
printf 'title,latitude,longitude,username,password_file\n%s,52.52,13.405,gate-pkg,backend.password\n' "$device_title" |
    ct sh -c 'cat > /root/fleet/inventory.csv'
if provision=$(ct /usr/bin/intercomd provision --base /root/fleet/base.toml --inventory /root/fleet/inventory.csv --out /root/fleet/out 2>&1); then
    pass "intercomd provision writes the device overlay"
else
    fail "intercomd provision writes the device overlay" "$provision"
fi
ct sh -c 'cp /root/fleet/base.toml /etc/intercom/intercom.toml && install -m 0644 /root/fleet/out/gate-pkg.toml /etc/intercom/conf.d/50-device.toml'
printf '%s' "$device_password" | ct sh -c 'umask 077 && cat > /etc/intercom/secrets/backend.password'
check_output=$(ct /usr/bin/intercomd check --skip-secrets 2>&1) && pass "intercomd check --skip-secrets accepts it" ||
    fail "intercomd check --skip-secrets accepts it" "$check_output"

ct systemctl start intercomd.service # Type=notify: returns once READY=1 arrived (or the start failed)
if wait_for 30 agent_registered; then
    pass "intercomd: active (READY=1) under the packaged unit, STATUS=\"$(show intercomd.service StatusText)\""
else
    fail "intercomd: READY and registered under the packaged unit" "$(ct systemctl status --no-pager intercomd 2>&1 | tail -n 20)"
fi
log_of intercomd.service | grep -q 'test pattern until a camera appears' && pass "no camera: the agent streams the test pattern" ||
    fail "no camera: the agent streams the test pattern" "$(log_of intercomd.service | tail -n 10)"
# The container's root is an overlay in RAM (--volatile=overlay), like a Pi with the overlay file system: the
# provisioned agent keeps its userID through its credentials and says so (issue #23, item 6).
if log_of intercomd.service | grep -q 'the state directory is in RAM: the userID comes from the provisioned credentials'; then
    pass "state in RAM (overlay root): the provisioned agent notices and keeps its userID through its credentials"
else
    fail "state in RAM (overlay root): the provisioned agent notices" "$(log_of intercomd.service | grep -i 'state' | tail -n 5)"
fi
rows=$(active_rows)
if [ "$(printf '%s\n' "$rows" | grep -c "^[^ ]* $device_user ")" -eq 1 ]; then
    pass "its ActiveUsers row is on the server (userID $device_user)"
else
    fail "its ActiveUsers row is on the server" "rows: ${rows:-none}"
fi
identity() { ct cat /var/lib/private/intercom/identity.json 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("installationID", ""), d.get("userID", ""))' 2>/dev/null; }
identity_before=$(identity)
[ "${identity_before#* }" = "$device_user" ] && pass "identity stored in /var/lib/private/intercom (installation ${identity_before%% *})" ||
    fail "identity stored in /var/lib/private/intercom" "identity.json: ${identity_before:-unreadable}"
timing "provision and start"

# ── Restart lockout (issue #23): 12 KILLs within 5 minutes ───────────────────────────────────────────────
kills=0
kill_started=$SECONDS
while [ "$kills" -lt 12 ]; do
    # Wait for the agent to be back (the retry timer waits a minute after the start limit), then kill it.
    wait_for 150 agent_ready || break
    ct systemctl kill -s KILL intercomd.service
    kills=$((kills + 1))
    last_kill_epoch=$(date +%s)
    sleep 0.5
done
kill_seconds=$((SECONDS - kill_started))
if [ "$kills" -eq 12 ] && [ "$kill_seconds" -le 300 ]; then
    pass "12 x systemctl kill -s KILL intercomd in ${kill_seconds} s"
else
    fail "12 x systemctl kill -s KILL intercomd within 300 s" "$kills kills in ${kill_seconds} s; state $(show intercomd.service ActiveState)"
fi
log_of intercomd.service | grep -q 'Start request repeated too quickly' &&
    pass "the kills hit the start limit ('Start request repeated too quickly')" ||
    fail "the kills hit the start limit" "$(log_of intercomd.service | tail -n 5)"
retry_ran() { ct journalctl --no-pager -o cat -u intercomd-retry.service | grep -q 'intercomd-retry.service: Deactivated successfully\|Finished intercomd-retry.service\|Finished Start the Intercom device agent again'; }
retry_ran && pass "intercomd-retry.timer started the agent again after the start limit" ||
    fail "intercomd-retry.timer started the agent again" "$(ct journalctl --no-pager -o cat -u intercomd-retry.service -u intercomd-retry.timer | tail -n 5)"
if wait_for 150 agent_registered; then
    pass "after the kills: active, READY and registered (STATUS=\"$(show intercomd.service StatusText)\", NRestarts $(show intercomd.service NRestarts))"
else
    fail "after the kills: active, READY and registered" "$(ct systemctl status --no-pager intercomd 2>&1 | tail -n 15)"
fi
row_back() {
    active_rows | python3 -c '
import sys, datetime
user, since = sys.argv[1], float(sys.argv[2])
for line in sys.stdin:
    _, row_user, updated = (line.split() + ["", "", ""])[:3]
    if row_user == user and updated and datetime.datetime.fromisoformat(updated.replace("Z", "+00:00")).timestamp() >= since:
        sys.exit(0)
sys.exit(1)' "$device_user" "$last_kill_epoch"
}
wait_for 30 row_back && pass "its ActiveUsers row is back, updated after the last kill" ||
    fail "its ActiveUsers row is back after the kills" "rows: $(active_rows)"
timing "12 kills and the restart lockout"

# ── The installed unit's sandbox ──────────────────────────────────────────────────────────────────────────
security=$(ct systemd-analyze security --no-pager intercomd.service 2>&1)
score=$(printf '%s\n' "$security" | sed -n 's/.*Overall exposure level for intercomd.service: \([0-9.]*\).*/\1/p')
if [ -n "$score" ] && python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= 2.0 else 1)' "$score"; then
    pass "systemd-analyze security intercomd.service (installed): $score <= 2.0"
else
    fail "systemd-analyze security intercomd.service (installed) <= 2.0" "$(printf '%s\n' "$security" | tail -n 3)"
fi

# ── Upgrade ───────────────────────────────────────────────────────────────────────────────────────────────
conffile_sum() { ct sha256sum /etc/intercom/intercom.toml /etc/intercom/conf.d/50-device.toml | cut -d' ' -f1 | tr '\n' ' '; }
sums_before=$(conffile_sum)
invocation_before=$(show intercomd.service InvocationID)
if apt_in_container install "/upgrade/intercomd_${upgrade_version}_$arch.deb" "/upgrade/intercom-server_${upgrade_version}_$arch.deb"; then
    pass "apt-get install of the $upgrade_version packages (upgrade)"
else
    fail "apt-get install of the $upgrade_version packages (upgrade)" "$(tail -n 20 "$work/apt.log")"
fi
[ "$(ct dpkg-query -W -f '${Version}' intercomd)" = "$upgrade_version" ] && pass "dpkg: intercomd $upgrade_version installed" ||
    fail "dpkg: intercomd $upgrade_version installed" "$(ct dpkg-query -W -f '${Version}' intercomd)"
leftovers=$(ct find /etc/intercom -name '*.dpkg-*')
[ "$(conffile_sum)" = "$sums_before" ] && [ -z "$leftovers" ] &&
    pass "upgrade keeps the operator's /etc/intercom/intercom.toml and conf.d/50-device.toml (no .dpkg-* files)" ||
    fail "upgrade keeps the operator's configuration" "before $sums_before, after $(conffile_sum); $leftovers"
if wait_for 60 agent_registered && [ "$(show intercomd.service InvocationID)" != "$invocation_before" ]; then
    pass "upgrade restarted the running agent; registered again"
else
    fail "upgrade restarted the running agent" "$(ct systemctl status --no-pager intercomd 2>&1 | tail -n 10)"
fi
[ "$(identity)" = "$identity_before" ] && pass "upgrade keeps the identity (installation and userID $device_user)" ||
    fail "upgrade keeps the identity" "before '$identity_before', after '$(identity)'"
rows=$(active_rows)
[ "$(printf '%s\n' "$rows" | awk '{print $2}' | sort -u)" = "$device_user" ] &&
    pass "after the upgrade its ActiveUsers row has the same userID" || fail "after the upgrade the row has the same userID" "rows: $rows"
timing "upgrade"

# ── What a reboot of the overlay root loses (issue #23, item 6) ─────────────────────────────────────────
# With the root in RAM, every boot starts with an empty /var/lib/intercom. The same loss without a second boot
# (which would also lose the installed packages): stop the agent, empty its state directory, start it again.
# The documented setting for such roots, provisioned credentials, must give the same userID.
ct systemctl stop intercomd.service
ct find /var/lib/private/intercom -mindepth 1 -delete
ct test -e /var/lib/private/intercom/identity.json && fail "the state directory is emptied" "identity.json is still there"
ct systemctl start intercomd.service
if wait_for 60 agent_registered; then
    identity_after=$(identity)
    if [ "${identity_after#* }" = "$device_user" ] && [ "${identity_after%% *}" != "${identity_before%% *}" ]; then
        pass "state lost as at an overlay root's reboot: a new installation (${identity_after%% *}), the same userID $device_user"
        identity_before=$identity_after  # what `apt-get remove` must keep below
    else
        fail "state lost as at an overlay root's reboot: the same userID" "before '$identity_before', after '${identity_after:-unreadable}'"
    fi
    rows=$(active_rows)
    [ "$(printf '%s\n' "$rows" | awk '{print $2}' | sort -u)" = "$device_user" ] &&
        pass "after the lost state its ActiveUsers rows all have userID $device_user" ||
        fail "after the lost state the rows have the same userID" "rows: $rows"
else
    fail "after its state directory was emptied the agent starts and registers" "$(ct systemctl status --no-pager intercomd 2>&1 | tail -n 10)"
fi
timing "state lost at a reboot of the overlay root"

# ── Figures (not tests) ───────────────────────────────────────────────────────────────────────────────────
installed_kib=$(ct dpkg-query -W -f '${Installed-Size}' intercomd)
packaged_bytes=$(ct stat -c %s /usr/bin/intercomd)
echo "figure: intercomd package: $(( $(stat -c %s "$agent_deb") / 1024 )) KiB .deb, $installed_kib KiB installed; intercom-server: $(( $(stat -c %s "$server_deb") / 1024 )) KiB .deb, $(ct dpkg-query -W -f '${Installed-Size}' intercom-server) KiB installed"
echo "figure: /usr/bin/intercomd (release, Swift runtime linked in, stripped): $((packaged_bytes / 1024)) KiB"
if [ -x "$intercomd" ]; then
    strip -o "$work/intercomd.dynamic.stripped" "$intercomd" 2>/dev/null
    runtime_kib=$(ldd "$intercomd" | awk '/libswift|libFoundation|libdispatch|libBlocksRuntime|lib_FoundationICU/ {print $3}' | sort -u |
        xargs -r du -kL | awk '{sum += $1} END {print sum + 0}')
    echo "figure: $intercomd (dynamically linked): $(( $(stat -c %s "$intercomd") / 1024 )) KiB, $(( $(stat -c %s "$work/intercomd.dynamic.stripped") / 1024 )) KiB stripped, plus $runtime_kib KiB of Swift runtime libraries it loads"
else
    echo "figure: no dynamically linked intercomd at $intercomd to compare"
fi

# ── Remove, then purge ──────────────────────────────────────────────────────────────────────────────────
if apt_in_container remove intercomd; then pass "apt-get remove intercomd"; else fail "apt-get remove intercomd" "$(tail -n 20 "$work/apt.log")"; fi
agent_state=$(show intercomd.service ActiveState)
[ "$agent_state" = inactive ] && ! ct test -e /usr/bin/intercomd && ! ct pgrep -x intercomd >/dev/null &&
    pass "remove stops the agent (inactive, no process, binary gone)" ||
    fail "remove stops the agent" "ActiveState=$agent_state; $(ct pgrep -a intercomd)"
enabled_state=$(ct systemctl is-enabled intercomd.service 2>&1)
[ "$enabled_state" != enabled ] && pass "remove disables the agent (is-enabled: $enabled_state)" || fail "remove disables the agent" "$enabled_state"
[ "$(identity)" = "$identity_before" ] && ct test -f /etc/intercom/conf.d/50-device.toml &&
    pass "remove keeps the identity and the configuration" ||
    fail "remove keeps the identity and the configuration" "identity '$(identity)'; $(ct ls -la /etc/intercom/conf.d 2>&1)"
[ -z "$(active_rows)" ] && pass "the stopping agent deleted its ActiveUsers row" || fail "the stopping agent deleted its ActiveUsers row" "$(active_rows)"

if apt_in_container purge intercomd intercom-server; then pass "apt-get purge intercomd intercom-server"; else fail "apt-get purge" "$(tail -n 20 "$work/apt.log")"; fi
leftovers=$(ct sh -c 'ls -d /etc/intercom /var/lib/intercom /var/lib/private/intercom /var/lib/intercom-server /var/lib/private/intercom-server 2>/dev/null; find /etc/systemd/system -name "intercom*" 2>/dev/null')
[ -z "$leftovers" ] && pass "purge removes configuration, secrets, state and unit links" || fail "purge removes configuration and state" "$leftovers"
timing "remove and purge"

lintian_result
timing "lintian (what was left of its run)"
echo "packaging test took $((SECONDS - started)) s"
finish
