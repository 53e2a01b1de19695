#!/usr/bin/env python3
"""TURN: a call from the web caller (headless Chromium) to `intercomd run` goes through Debian's coturn when
direct UDP between the two peers is blocked.

Starts its own `turnserver` (coturn) from a generated configuration: TURN REST credentials (`use-auth-secret`,
a random `static-auth-secret`), the relay ports in a range outside the kernel's ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range), `allow-loopback-peers`, no TLS/DTLS/TCP, no CLI, its log in the
temporary directory. It listens and relays on the machine's first global IPv4 address, not on 127.0.0.1:
libnice pins each host candidate's socket to its interface (IP_UNICAST_IF), so the device's datagrams to a
TURN server on lo would leave through eth0 and never arrive (Chromium has no such restriction).

The block: the agent and Chromium (through wrapper scripts around intercomd and chromedriver) run in a cgroup v2
of their own; an nftables table (`inet intercom_turn_test`) drops every UDP datagram delivered to a socket of
that cgroup unless it comes from the TURN server's listening port or from its relay range. So the peers cannot
reach each other directly on any address (host candidates on lo or on other interfaces alike), coturn can reach
both, and nothing else on the machine is affected (other test stages may run at the same time).

  1. without TURN (intercom-server with no TURN settings): the page calls the device, the device answers and
     candidates are exchanged, but no media path comes up within BLOCKED_SECONDS while the block drops the
     connectivity checks: this proves that the rule blocks the direct paths;
  2. with TURN (intercom-server with INTERCOM_TURN_URLS and INTERCOM_TURN_SECRET): the page's RTCPeerConnection
     gets the TURN server with REST credentials (`<expiry>:<userID>`); the call connects; over MEASURE_SECONDS
     Chromium decodes >= MIN_FPS fps of video and receives audio; getStats' selected candidate pair has a
     `relay` candidate and the device trickled a relayed candidate of its own; coturn logged an allocation for
     the device's username and for the page's; after the page hangs up the device logs the call answered and
     ended by the page, and coturn logs the device's allocation released (refresh with lifetime 0 / session
     closed) within RELEASE_SECONDS; the agent exits with status 0 within 5 s of SIGINT.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Needs root (nftables, cgroups), turnserver (apt-get install coturn), nft, chromium and chromedriver.
Usage: turn_test.py [--server BIN] [--intercomd BIN]
  Binaries default to $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, then <repo>/.build/debug/{intercom-server,intercomd}.
Environment: TURNSERVER_BIN (default: turnserver on PATH), TURN_KEEP=1 keeps the temporary directory.
"""

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from calls import (OUTCOME, PAIR_STATS, PC_PROBE, LoggedProcess, agent_environment, binary_arguments, call_button,  # noqa: E402
                   keep_or_remove, start_intercom_server, wait_callable, write_agent_config)
from nftables import delete_table, dropped_packets, replace_table  # noqa: E402
from prerequisites import missing_prerequisites  # noqa: E402
from webdriver import (CHROMEDRIVER, PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser,  # noqa: E402
                       free_port, log, missing_browser, wait_for)

TABLE = "intercom_turn_test"
REALM = "intercom.test"
TITLE = "TURN gate"
DEVICE = {"lat": 52.52, "lon": 13.405}
CALLER = {"name": "TURN caller", "lat": 52.538, "lon": 13.405}
BLOCKED_SECONDS = 12
CONNECT_SECONDS = 25
MEASURE_SECONDS = 10
MIN_FPS = 20.0
MIN_FRAMES = 200
MIN_AUDIO_PACKETS = 300
RELEASE_SECONDS = 5
RELAY_SPAN = 200

def cgroup2_mount():
    """The cgroup v2 mount point (/sys/fs/cgroup on a unified host, /sys/fs/cgroup/unified on a hybrid one)."""
    with open("/proc/mounts", encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) > 2 and fields[2] == "cgroup2":
                return fields[1]
    return None


def udp_ports_in_use():
    ports = set()
    for path in ("/proc/net/udp", "/proc/net/udp6"):
        try:
            with open(path, encoding="utf-8") as f:
                for line in f.readlines()[1:]:
                    ports.add(int(line.split()[1].rsplit(":", 1)[1], 16))
        except OSError:
            pass
    return ports


def relay_range():
    """RELAY_SPAN free UDP ports above the kernel's ephemeral range (the peers' own sockets are never there)."""
    with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="utf-8") as f:
        _, high = (int(x) for x in f.read().split())
    used = udp_ports_in_use()
    low = high + 1
    while low + RELAY_SPAN - 1 <= 65535:
        if not any(p in used for p in range(low, low + RELAY_SPAN)):
            return low, low + RELAY_SPAN - 1
        low += RELAY_SPAN
    return None


def global_ipv4():
    """The machine's first global IPv4 address (`ip -4 -o addr show scope global`), or None."""
    try:
        text = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True,
                              text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"\binet (\d+\.\d+\.\d+\.\d+)/", text)
    return match.group(1) if match else None


def free_udp_port(host):
    """A port free for UDP on `host` (and TCP on the loopback, where free_port looks)."""
    for _ in range(50):
        port = free_port()
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.bind((host, port))
                return port
            except OSError:
                continue
    raise RuntimeError("no free UDP port")


class Run:
    def __init__(self, server_bin, intercomd_bin, turnserver_bin):
        self.server_bin, self.intercomd_bin, self.turnserver_bin = server_bin, intercomd_bin, turnserver_bin
        self.checks = Checks()
        self.workdir = None
        self.cgroup = None        # absolute path of our cgroup v2 directory
        self.cgroup_rel = None    # the same relative to /sys/fs/cgroup, as nft wants it
        self.turn = None
        self.turn_log = None
        self.turn_port = None
        self.turn_host = None
        self.relay = None
        self.processes = []
        self.driver = self.browser = None

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    # ---- prerequisites ----

    def missing(self):
        missing = missing_prerequisites(
            binaries=(("intercom-server", self.server_bin, "swift build, or set INTERCOM_SERVER_BIN"),
                      ("intercomd", self.intercomd_bin, "swift build, or set INTERCOMD_BIN"),
                      ("turnserver", self.turnserver_bin, "apt-get install coturn, or set TURNSERVER_BIN")),
            tools=(("nft", "nftables", "it blocks direct UDP between the peers"),),
            root_for="nftables and cgroups need CAP_NET_ADMIN / CAP_SYS_ADMIN")
        mount = cgroup2_mount()
        if not mount:
            missing.append("no cgroup v2 hierarchy mounted: the block matches the peers' sockets by cgroup")
        elif not (mount == "/sys/fs/cgroup" or mount.startswith("/sys/fs/cgroup/")):
            missing.append(f"cgroup v2 is mounted at {mount}; nft resolves cgroup paths under /sys/fs/cgroup")
        missing += missing_browser()
        return missing, mount

    # ---- the pieces ----

    def make_cgroup(self, mount):
        name = f"intercom-turn-test-{os.getpid()}"
        self.cgroup = os.path.join(mount, name)
        os.makedirs(self.cgroup, exist_ok=True)
        self.cgroup_rel = os.path.relpath(self.cgroup, "/sys/fs/cgroup")

    def in_cgroup(self, binary, label):
        """A wrapper script that moves itself into our cgroup, then execs `binary` (same pid)."""
        path = os.path.join(self.workdir, f"in-cgroup-{label}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\necho $$ > "{self.cgroup}/cgroup.procs" || exit 97\nexec "{binary}" "$@"\n')
        os.chmod(path, 0o755)
        return path

    def start_turn(self):
        self.relay = relay_range()
        if not self.check("a relay port range above the ephemeral range is free", self.relay,
                          f"{self.relay[0]}-{self.relay[1]}" if self.relay else "none free up to 65535"):
            return None
        self.turn_host = global_ipv4()
        if not self.check("the machine has a global IPv4 address for coturn", self.turn_host,
                          self.turn_host or "none in `ip -4 addr show scope global`: libnice's host sockets are bound "
                          "to their interface, so the device cannot reach a TURN server on lo"):
            return None
        self.turn_port = free_udp_port(self.turn_host)
        secret = secrets.token_hex(24)
        self.turn_log = os.path.join(self.workdir, "turnserver.log")
        conf = os.path.join(self.workdir, "turnserver.conf")
        with open(conf, "w", encoding="utf-8") as f:
            f.write(f"""# generated by Tests/turn/turn_test.py
listening-ip={self.turn_host}
listening-port={self.turn_port}
relay-ip={self.turn_host}
min-port={self.relay[0]}
max-port={self.relay[1]}
use-auth-secret
static-auth-secret={secret}
realm={REALM}
fingerprint
allow-loopback-peers
no-multicast-peers
no-tls
no-dtls
no-tcp
no-rfc5780
no-cli
no-software-attribute
userdb={os.path.join(self.workdir, "turndb.sqlite")}
pidfile={os.path.join(self.workdir, "turnserver.pid")}
log-file={self.turn_log}
simple-log
verbose
""")
        # -c: our file instead of /etc/turnserver.conf (coturn's -n would ignore every file).
        self.turn = LoggedProcess([self.turnserver_bin, "-c", conf], self.workdir, "turnserver")
        self.processes.append(self.turn)
        ready = wait_for(lambda: self.turn.process.poll() is None and self.turn_listening(), 15)
        self.check("coturn (turnserver) starts with a TURN REST secret and listens on UDP",
                   ready, f"turn:{self.turn_host}:{self.turn_port}, relay ports {self.relay[0]}-{self.relay[1]}" if ready
                   else f"status {self.turn.process.poll()}: " + " | ".join(self.turn.tail(5) + self.turn.tail(5, True)))
        return secret if ready else None

    def turn_listening(self):
        wanted = f"{socket.inet_aton(self.turn_host)[::-1].hex().upper()}:{self.turn_port:04X}"
        with open("/proc/net/udp", encoding="utf-8") as f:
            return any(line.split()[1] == wanted for line in f.readlines()[1:])

    def turn_lines(self):
        try:
            with open(self.turn_log, encoding="utf-8", errors="replace") as f:
                return f.read().splitlines()
        except OSError:
            return []

    def block(self):
        """Drops UDP delivered to the peers' sockets unless it comes from coturn's listening port or relay range."""
        ok, detail = replace_table(TABLE, [
            ("add", "table", "inet", TABLE),
            ("add", "chain", "inet", TABLE, "input", "{ type filter hook input priority 0; policy accept; }"),
            ("add", "rule", "inet", TABLE, "input", "meta", "l4proto", "udp",
             "socket", "cgroupv2", "level", "1", f'"{self.cgroup_rel}"',
             "udp", "sport", "!=", f"{{ {self.turn_port}, {self.relay[0]}-{self.relay[1]} }}", "counter", "drop")])
        if not ok:
            return False, detail
        return True, f"table inet {TABLE}: UDP to cgroup {self.cgroup_rel} dropped unless from port {self.turn_port} " \
                     f"or {self.relay[0]}-{self.relay[1]}"

    def start_server(self, label, turn_secret=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("INTERCOM_")}
        if turn_secret:
            env["INTERCOM_TURN_URLS"] = f"turn:{self.turn_host}:{self.turn_port}?transport=udp"
            env["INTERCOM_TURN_SECRET"] = turn_secret
        server, base, detail = start_intercom_server(self.server_bin, self.workdir, label, env=env)
        self.processes.append(server)
        self.check(f"[{label}] intercom-server starts" + (" with INTERCOM_TURN_URLS and INTERCOM_TURN_SECRET"
                                                           if turn_secret else " without TURN"), base, detail)
        return server, base

    def start_agent(self, label, base):
        config = write_agent_config(os.path.join(self.workdir, f"{label}.toml"), base, TITLE, DEVICE["lat"],
                                    DEVICE["lon"], os.path.join(self.workdir, f"state-{label}"), free_port())
        env = agent_environment()
        agent = LoggedProcess([self.in_cgroup(self.intercomd_bin, "intercomd"), "run", "--config", config],
                              self.workdir, label, env=env)
        self.processes.append(agent)
        ready = agent.wait_line(r"ready: (.*)", 30)
        user = agent.find(r"logged in to the backend userID=(\w+)")
        self.check(f"[{label}] intercomd run (in the blocked cgroup) logs in and is ready", ready and user,
                   (ready.group(0) + f"; userID {user.group(1)}") if ready and user else " | ".join(agent.tail(6)))
        return agent, (user.group(1) if ready and user else None)

    def open_page(self, label, base, device_id):
        b = self.browser
        b.open(base + "/")
        loaded = wait_for(b.loaded, 15)
        user = b.sign_in(CALLER["name"], CALLER["lat"], CALLER["lon"]) if loaded else None
        ok = loaded and user and wait_callable(b, device_id, 20)
        self.check(f"[{label}] the web caller signs in and lists the device", ok,
                   f"page userID {user}, status {b.text('#status')!r}")
        return user if ok else None

    def pair_stats(self):
        return self.browser.promise(PAIR_STATS) or {}

    def hang_up(self, agent, since):
        b = self.browser
        if b.visible("#hangup"):
            b.click("#hangup")
        ended = b.wait_state({"ended", "idle"}, 10)
        return ended, agent.wait_line(OUTCOME, 15, since)

    # ---- the two phases ----

    def without_turn(self):
        server, base = self.start_server("no-turn")
        if not base:
            return False
        agent, device_id = self.start_agent("agent-no-turn", base)
        if not device_id or not self.open_page("no TURN", base, device_id):
            return False
        b = self.browser
        before = dropped_packets(TABLE) or 0
        since = agent.mark()
        b.click(call_button(device_id))
        connected = wait_for(lambda: (b.stats() or {}).get("framesDecoded", 0) > 0, BLOCKED_SECONDS)
        stats = b.stats() or {}
        pairs = self.pair_stats()
        dropped = (dropped_packets(TABLE) or 0) - before
        answered = agent.find(r"call incoming .*|answer", since)
        ended, outcome = self.hang_up(agent, since)
        self.check(f"[no TURN] the block holds: the device answers and candidates are exchanged, but no media path "
                   f"comes up within {BLOCKED_SECONDS} s", not connected and pairs.get("remote")
                   and pairs.get("iceConnectionState") in ("checking", "failed", "disconnected") and dropped > 0,
                   f"page {stats.get('callState')}, ICE {pairs.get('iceConnectionState')}, frames "
                   f"{stats.get('framesDecoded', 0)}; page candidates {sorted(pairs.get('local') or [])}, device's "
                   f"{sorted(pairs.get('remote') or [])}; {dropped} datagrams dropped by nftables; device: "
                   + (outcome.group(0) if outcome else (answered.group(0) if answered else "no call line")))
        agent.stop()
        server.stop(signal.SIGTERM)
        return True

    def with_turn(self, secret):
        server, base = self.start_server("turn", secret)
        if not base:
            return
        agent, device_id = self.start_agent("agent-turn", base)
        if not device_id:
            return
        page_user = self.open_page("TURN", base, device_id)
        if not page_user:
            return
        b = self.browser
        before = dropped_packets(TABLE) or 0
        turn_since = len(self.turn_lines())
        since = agent.mark()
        b.click(call_button(device_id))
        connected = b.wait_state("in-call", CONNECT_SECONDS) == "in-call" and wait_for(
            lambda: (b.stats() or {}).get("framesDecoded", 0) > 30, CONNECT_SECONDS)
        config = b.js("return window.__turnProbe ? window.__turnProbe.config : null;") or {}
        turn_entries = [s for s in config.get("iceServers", [])
                        if any(str(u).startswith("turn:") for u in ([s.get("urls")] if isinstance(s.get("urls"), str)
                                                                     else s.get("urls") or []))]
        username = (turn_entries[0].get("username") or "") if turn_entries else ""
        self.check("[TURN] the page's RTCPeerConnection gets the TURN server with REST credentials "
                   "(username <expiry>:<userID>)", turn_entries and re.fullmatch(rf"\d+:{page_user}", username)
                   and turn_entries[0].get("credential"),
                   json.dumps(turn_entries)[:300] if turn_entries else f"iceServers {config.get('iceServers')}")
        if not self.check("[TURN] the call connects through the blocked network: page in-call, video decoded",
                          connected, f"page {b.state()}, {b.text('#call-status')!r}; "
                          + " | ".join(agent.stderr(since)[-4:])):
            self.hang_up(agent, since)
            return
        first = b.promise("window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))")
        time.sleep(MEASURE_SECONDS)
        last = b.promise("window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))")
        seconds = (last["at"] - first["at"]) / 1000
        frames = last["framesDecoded"] - first["framesDecoded"]
        audio = last["audioPacketsReceived"] - first["audioPacketsReceived"]
        fps = frames / seconds if seconds > 0 else 0
        self.check(f"[TURN] over {MEASURE_SECONDS} s Chromium decodes >= {MIN_FPS:.0f} fps of "
                   f"{last.get('frameWidth')}x{last.get('frameHeight')} video and receives audio",
                   frames >= MIN_FRAMES and fps >= MIN_FPS and audio >= MIN_AUDIO_PACKETS and b.state() == "in-call",
                   f"{frames} frames in {seconds:.1f} s = {fps:.1f} fps, {audio} audio packets, "
                   f"{last.get('videoPacketsLost', 0)} video packets lost, RTT "
                   f"{(last.get('roundTripTime') or 0) * 1000:.1f} ms")
        pairs = self.pair_stats()
        pair = pairs.get("pair") or {}
        self.check("[TURN] Chromium's selected candidate pair is relayed (candidateType relay)",
                   "relay" in (pair.get("local"), pair.get("remote")),
                   f"local {pair.get('local')} {pair.get('localAddress')} ({pair.get('relayProtocol')}) ↔ remote "
                   f"{pair.get('remote')} {pair.get('remoteAddress')}, {pair.get('bytesReceived')} bytes received"
                   if pair else f"no selected pair: {pairs}")
        self.check("[TURN] the device gathered a relayed candidate through coturn and trickled it to the page",
                   "relay" in (pairs.get("remote") or []),
                   f"the device's candidates in Chromium: {sorted(pairs.get('remote') or [])}; the page's own: "
                   f"{sorted(pairs.get('local') or [])}")
        dropped = (dropped_packets(TABLE) or 0) - before
        lines = self.turn_lines()[turn_since:]
        allocated = set(re.findall(r"new, realm=<[^>]*>, username=<(\d+:\w+)>", "\n".join(lines)))
        device_allocation = next((u for u in allocated if u.endswith(f":{device_id}")), None)
        page_allocation = next((u for u in allocated if u.endswith(f":{page_user}")), None)
        self.check("[TURN] coturn allocated relays for the device's and the page's REST usernames",
                   device_allocation and page_allocation,
                   f"allocations {sorted(allocated)} (device {device_id}, page {page_user}); {dropped} direct "
                   f"datagrams dropped by nftables during the call")

        # Hang up: the device's teardown (nice_agent_close_async) must release its allocation.
        hung_up_at = time.monotonic()
        turn_mark = len(self.turn_lines())
        ended, outcome = self.hang_up(agent, since)
        self.check("[TURN] the page hangs up; the device logs the call answered and ended by the page",
                   ended in ("ended", "idle") and outcome and outcome.group(2).startswith("answered"),
                   f"page {ended}; " + (outcome.group(0) if outcome else " | ".join(agent.tail(4))))

        def released(user):
            text = "\n".join(self.turn_lines()[turn_mark:])
            sessions = set(re.findall(rf"session (\d+): new, realm=<[^>]*>, username=<{re.escape(user)}>",
                                      "\n".join(self.turn_lines())))
            return any(re.search(rf"session {s}: (refreshed, realm=<[^>]*>, username=<[^>]*>, lifetime=0|"
                                 rf"closed \(2nd stage\))", text) for s in sessions)

        device_released = wait_for(lambda: device_allocation and released(device_allocation), RELEASE_SECONDS, 0.1)
        took = time.monotonic() - hung_up_at
        page_released = wait_for(lambda: page_allocation and released(page_allocation), 2, 0.1)
        usage = [line for line in self.turn_lines() if "peer usage" in line and f":{device_id}>" in line]
        # One Refresh(lifetime=0) per allocation is the norm; more are retransmissions the agent did not see
        # answered (a weakness, reported, not a failure: the allocation is gone with the first one).
        refreshes = len([line for line in self.turn_lines()[turn_mark:]
                         if f":{device_id}>, lifetime=0" in line and "refreshed" in line])
        self.check(f"[TURN] coturn logs the device's allocation released within {RELEASE_SECONDS} s of the hang-up",
                   device_released, (f"after {took:.1f} s (page hang-up to coturn's log line); the device sent "
                                     f"{refreshes} Refresh(lifetime=0); page's allocation released: {bool(page_released)}"
                                     + (f"; relayed {usage[-1].split('peer usage: ', 1)[-1]}" if usage else ""))
                   if device_released
                   else "no refresh with lifetime 0 / closed session for " + str(device_allocation) + ": "
                   + " | ".join(self.turn_lines()[turn_mark:][-4:]))
        result = agent.stop()
        self.check("[TURN] intercomd run exits with status 0 within 5 s of SIGINT", result and result[0],
                   result[1] if result else "")
        errors = [line for line in agent.stderr() if re.search(r"\b(error|critical)\b", line.split(" intercomd")[0])]
        self.check("[TURN] the agent logged no error lines", not errors, " | ".join(errors[-3:]) or
                   f"{len(agent.stderr())} log lines")

    def run(self):
        missing, mount = self.missing()
        if missing:
            for problem in missing:
                self.check("prerequisites", False, problem)
            return self.checks
        self.workdir = tempfile.mkdtemp(prefix="intercom-turn-")
        started = time.monotonic()
        try:
            self.make_cgroup(mount)
            secret = self.start_turn()
            if secret:
                ok, detail = self.block()
                if self.check("nftables blocks direct UDP between the peers (all but coturn's ports)", ok, detail):
                    self.driver = ChromeDriver(self.workdir, binary=self.in_cgroup(CHROMEDRIVER, "chromedriver"))
                    if self.check("chromedriver starts (in the blocked cgroup)", self.driver.ready, self.driver.url):
                        self.browser = WebCallerBrowser(self.driver.url, os.path.join(self.workdir, "profile"),
                                                        label="caller", extra_args=[PLAIN_IP_CANDIDATES],
                                                        window_size="900,1000", browser_log=True)
                        self.browser.add_script_on_new_document(PC_PROBE)
                        if self.without_turn():
                            self.with_turn(secret)
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure with its reason, never a skip
            self.check("TURN harness", False, f"{type(e).__name__}: {e}")
        finally:
            delete_table(TABLE)
            if self.checks.failed and self.browser:
                log("---- page log ----")
                for line in self.browser.page_log(25):
                    log(f"  {line}")
            if self.browser:
                self.browser.quit()
            if self.driver:
                self.driver.stop()
            for process in reversed(self.processes):
                process.stop(signal.SIGTERM if process is self.turn else signal.SIGINT)
            if self.cgroup:
                wait_for(lambda: not open(os.path.join(self.cgroup, "cgroup.procs")).read().strip(), 10)
                try:
                    os.rmdir(self.cgroup)
                except OSError as e:
                    log(f"  could not remove {self.cgroup}: {e}")
            log(f"  stage took {time.monotonic() - started:.0f} s")
            keep_or_remove(self.workdir, "TURN_KEEP", self.checks.failed)
        return self.checks


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    turnserver = os.environ.get("TURNSERVER_BIN") or shutil.which("turnserver")
    log(f"TURN: the web caller in headless Chromium calls intercomd run through coturn, direct UDP blocked; "
        f"intercom-server {server}, intercomd {intercomd}, turnserver {turnserver}")
    checks = Run(server, intercomd, turnserver).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
