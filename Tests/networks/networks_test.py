#!/usr/bin/env python3
"""Networks (issue #20): the web caller (headless Chromium) calls `intercomd run` across real topologies built
from network namespaces by Tests/support/topology.py, instead of between this machine's own addresses.

Hosts: `device` (intercomd run) behind its NAT router, `caller` (chromedriver and the Chromium it starts, run
with `ip netns exec`; the test reaches chromedriver through topology.forward, a TCP forwarder into the
namespace's loopback) behind another NAT router, `backend` (intercom-server on the public segment, port 8080,
the page opened at its public address) and `relay` (Debian's coturn: STUN, and TURN with a REST secret).

  a. both NATs endpoint-independent (plain masquerade), STUN from coturn, no TURN: the call connects directly
     (Chromium's selected pair has no relay candidate; the device's side is its NAT's public address) and
     video is decoded;
  b. both NATs symmetric (masquerade fully-random): without TURN (STUN only) no media path comes up within
     BLOCKED_SECONDS — the topology is real; with TURN (INTERCOM_TURN_URLS/SECRET) the call connects through
     a relay candidate pair and video is decoded;
  c. IPv6 only (no IPv4 on any veth, ULA addresses, routers forward without NAT): the call connects.

Each call prints its selected pair, the time from the click to the first decoded frame and the frames
decoded over MEASURE_SECONDS. A missing tool is a failure, never a skip. Needs root, ip, nft, turnserver,
chromium and chromedriver.
Usage: networks_test.py [--server BIN] [--intercomd BIN]; NETWORKS_KEEP=1 keeps the temporary directory.
"""

import os
import secrets
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from calls import (CALL_PROBE, OUTCOME, PAIR_STATS, PC_PROBE, LoggedProcess, agent_environment,  # noqa: E402
                   binary_arguments, call_button, first_frame, keep_or_remove, start_intercom_server,
                   wait_callable, write_agent_config)
from topology import Topology, missing_tools  # noqa: E402
from webdriver import (CHROMEDRIVER, PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser,  # noqa: E402
                       free_port, log, missing_browser, wait_for)

PREFIX = "icnet"
SERVER_PORT = 8080
TURN_PORT = 3478
RELAY_PORTS = (49152, 49251)
REALM = "intercom.test"
TITLE = "Networks gate"
DEVICE = {"lat": 52.52, "lon": 13.405}
CALLER = {"name": "Networks caller", "lat": 52.538, "lon": 13.405}
# Connect: the first frame normally comes within ~2 s of the click; 25 s leaves room for a loaded 2-core CI
# machine (ICE over a relay, Chromium start). Catches: no media path at all.
CONNECT_SECONDS = 25
# No TURN across two symmetric NATs: ICE gives up on its own only after ~30 s, so the check is "no frame
# within 10 s" (a working path decodes within ~2 s here). Catches: a topology that does not really block.
BLOCKED_SECONDS = 10
# Over MEASURE_SECONDS the page must keep decoding: >= MIN_FPS (the test pattern runs at ~30 fps; 10 leaves
# a 3x margin for a busy machine). Catches: a path that connects and then stalls (e.g. consent freshness lost
# through the NAT, or media on another path than the checks).
MEASURE_SECONDS = 5
MIN_FPS = 10.0


class Networks:
    def __init__(self, server_bin, intercomd_bin, turnserver_bin):
        self.server_bin, self.intercomd_bin, self.turnserver_bin = server_bin, intercomd_bin, turnserver_bin
        self.checks = Checks()
        self.workdir = None
        self.processes = []
        self.driver = self.browser = None
        self.topology = None

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    # ---- pieces, each in its namespace ----

    def start_turn(self, label):
        """coturn in `relay`: STUN on TURN_PORT, TURN with a REST secret; returns the secret or None."""
        t = self.topology
        secret = secrets.token_hex(24)
        conf = os.path.join(self.workdir, f"{label}-turnserver.conf")
        log_file = os.path.join(self.workdir, f"{label}-turnserver.log")
        with open(conf, "w", encoding="utf-8") as f:
            f.write(f"listening-ip={t.address('relay')}\nlistening-port={TURN_PORT}\nrelay-ip={t.address('relay')}\n"
                    f"min-port={RELAY_PORTS[0]}\nmax-port={RELAY_PORTS[1]}\nuse-auth-secret\n"
                    f"static-auth-secret={secret}\nrealm={REALM}\nfingerprint\nno-multicast-peers\nno-tls\n"
                    f"no-dtls\nno-tcp\nno-cli\nno-software-attribute\n"
                    f"userdb={os.path.join(self.workdir, label + '-turndb.sqlite')}\n"
                    f"pidfile={os.path.join(self.workdir, label + '-turnserver.pid')}\n"
                    f"log-file={log_file}\nsimple-log\nverbose\n")
        turn = LoggedProcess([*t.exec_prefix("relay"), self.turnserver_bin, "-c", conf], self.workdir,
                             f"{label}-turnserver")
        self.processes.append(turn)

        def listening():
            return f":{TURN_PORT:04X}" in t.run("relay", "cat", "/proc/net/udp", check=False)

        ready = wait_for(lambda: turn.process.poll() is None and listening(), 15)
        self.check(f"[{label}] coturn in relay listens (STUN, TURN REST secret)", ready,
                   f"{t.address('relay')}:{TURN_PORT}, relay ports {RELAY_PORTS[0]}-{RELAY_PORTS[1]}" if ready
                   else f"status {turn.process.poll()}: " + " | ".join(turn.tail(5)))
        return secret if ready else None

    def start_server(self, label, stun=False, turn_secret=None, settings=None):
        """`settings`: more INTERCOM_* variables (e.g. a short INTERCOM_HEARTBEAT_SECONDS)."""
        t = self.topology
        env = {k: v for k, v in os.environ.items() if not k.startswith("INTERCOM_")}
        env.update(settings or {})
        relay = t.address("relay")
        if stun:
            env["INTERCOM_STUN_URLS"] = f"stun:{relay}:{TURN_PORT}"
        if turn_secret:
            env["INTERCOM_TURN_URLS"] = f"turn:{relay}:{TURN_PORT}?transport=udp"
            env["INTERCOM_TURN_SECRET"] = turn_secret
        # Calls carry the signaling room's URL, derived from the public URL (never from a request's Host); the
        # device only joins rooms on its backend's host, which it knows by name.
        env["INTERCOM_PUBLIC_URL"] = f"http://{t.hostname('backend')}:{SERVER_PORT}"
        host = t.address("backend")
        listen = f"[{host}]:{SERVER_PORT}" if ":" in host else f"{host}:{SERVER_PORT}"
        server, base, detail = start_intercom_server(self.server_bin, self.workdir, f"{label}-server", env=env,
                                                     listen=listen, prefix=t.exec_prefix("backend"))
        self.processes.append(server)
        # The agent and the page use the backend's name (every namespace's hosts file): the agent's WebSocket
        # client cannot parse an IPv6 literal URL (see Tests/support/topology.py).
        base = base and f"http://{t.hostname('backend')}:{SERVER_PORT}"
        what = ", ".join(k for k in ("INTERCOM_STUN_URLS", "INTERCOM_TURN_URLS") if k in env) or "no STUN/TURN"
        self.check(f"[{label}] intercom-server in backend at its public address ({what})", base,
                   f"{detail}, reached as {base}" if base else detail)
        return server, base

    def start_agent(self, label, base, extra=""):
        """`extra`: whole config sections appended (e.g. `[presence]`)."""
        t = self.topology
        config = write_agent_config(os.path.join(self.workdir, f"{label}-agent.toml"), base, TITLE, DEVICE["lat"],
                                    DEVICE["lon"], os.path.join(self.workdir, f"{label}-state"), free_port(),
                                    extra=extra)
        agent = LoggedProcess([*t.exec_prefix("device"), self.intercomd_bin, "run", "--config", config],
                              self.workdir, f"{label}-agent", env=agent_environment())
        self.processes.append(agent)
        ready = agent.wait_line(r"ready: (.*)", 30)
        user = agent.find(r"logged in to the backend userID=(\w+)")
        self.check(f"[{label}] intercomd run in device (behind its router) logs in to {base}", ready and user,
                   f"userID {user.group(1)}" if ready and user else " | ".join(agent.tail(6)))
        return agent, (user.group(1) if ready and user else None)

    def start_browser(self, base):
        """chromedriver (and so Chromium) in the caller's namespace; the page's origin treated as secure so
        that getUserMedia works over plain http to a non-loopback address."""
        t = self.topology
        wrapper = os.path.join(self.workdir, f"chromedriver-in-{t.ns('caller')}")
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\nexec ip netns exec "{t.ns("caller")}" "{CHROMEDRIVER}" "$@"\n')
        os.chmod(wrapper, 0o755)
        self.driver = ChromeDriver(self.workdir, binary=wrapper, url_for=lambda port: t.forward("caller", port))
        if not self.check("chromedriver runs in the caller namespace, reached through a forwarder",
                          self.driver.ready, f"{self.driver.url} → {t.ns('caller')} 127.0.0.1:{self.driver.port}"):
            return False
        self.browser = WebCallerBrowser(self.driver.url, os.path.join(self.workdir, f"profile-{t.family}-{time.monotonic_ns()}"),
                                        label="caller", window_size="900,1000", browser_log=True,
                                        extra_args=[PLAIN_IP_CANDIDATES,
                                                    f"--unsafely-treat-insecure-origin-as-secure={base}"])
        self.browser.add_script_on_new_document(PC_PROBE)
        self.browser.add_script_on_new_document(CALL_PROBE)
        return True

    def stop_browser(self):
        if self.browser:
            self.browser.quit()
        if self.driver:
            self.driver.stop()
        self.browser = self.driver = None

    def open_page(self, label, base, device_id):
        b = self.browser
        b.open(base + "/")
        loaded = wait_for(b.loaded, 15)
        user = b.sign_in(CALLER["name"], CALLER["lat"], CALLER["lon"]) if loaded else None
        ok = loaded and user and wait_callable(b, device_id, 20)
        self.check(f"[{label}] the web caller in the caller namespace opens {base}/, signs in, lists the device",
                   ok, f"page userID {user}, status {b.text('#status')!r}")
        return ok

    def hang_up(self, agent, since):
        b = self.browser
        if b.visible("#hangup"):
            b.click("#hangup")
        b.wait_state({"ended", "idle"}, 10)
        return agent.wait_line(OUTCOME, 15, since)

    @staticmethod
    def pair_text(pairs):
        pair = (pairs or {}).get("pair") or {}
        if not pair:
            return f"no selected pair (ICE {(pairs or {}).get('iceConnectionState')})"
        return (f"pair {pair.get('local')} {pair.get('localAddress')} ↔ {pair.get('remote')} "
                f"{pair.get('remoteAddress')}")

    def call(self, label, agent, device_id, expect):
        """Clicks the device's call button. expect: "direct", "relay" or "none". Returns True if it went as
        expected."""
        b = self.browser
        since = agent.mark()
        b.click(call_button(device_id))
        if expect == "none":
            connected = wait_for(lambda: (b.stats() or {}).get("framesDecoded", 0) > 0, BLOCKED_SECONDS)
            pairs = b.promise(PAIR_STATS) or {}
            stats = b.stats() or {}
            outcome = self.hang_up(agent, since)
            return self.check(f"[{label}] without TURN no media path comes up within {BLOCKED_SECONDS} s (the NATs "
                              f"really block)", not connected and pairs.get("remote")
                              and pairs.get("iceConnectionState") in ("new", "checking", "failed", "disconnected"),
                              f"ICE {pairs.get('iceConnectionState')}, frames {stats.get('framesDecoded', 0)}; page "
                              f"candidates {sorted(pairs.get('local') or [])}, device's "
                              f"{sorted(pairs.get('remote') or [])}; device: "
                              + (outcome.group(0) if outcome else "no outcome line"))
        record = first_frame(b, CONNECT_SECONDS)
        took = (record["firstFrameAt"] - record["clickAt"]) / 1000 if record else None
        ok = True
        if not self.check(f"[{label}] the call connects and video is decoded in the page", record,
                          f"first decoded frame {took:.2f} s after the click" if record else
                          f"page {b.state()}, {b.text('#call-status')!r}; " + " | ".join(agent.stderr(since)[-4:])):
            self.hang_up(agent, since)
            return False
        first = b.promise("window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))")
        time.sleep(MEASURE_SECONDS)
        last = b.promise("window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))")
        seconds = (last["at"] - first["at"]) / 1000
        frames = last["framesDecoded"] - first["framesDecoded"]
        fps = frames / seconds if seconds > 0 else 0
        ok &= self.check(f"[{label}] video keeps decoding: >= {MIN_FPS:.0f} fps over {MEASURE_SECONDS} s",
                         fps >= MIN_FPS and b.state() == "in-call",
                         f"{frames} frames in {seconds:.1f} s = {fps:.1f} fps ({last['framesDecoded']} decoded in "
                         f"all), {last.get('frameWidth')}x{last.get('frameHeight')}, "
                         f"{last.get('audioPacketsReceived', 0)} audio packets")
        pairs = b.promise(PAIR_STATS) or {}
        pair = pairs.get("pair") or {}
        types = (pair.get("local"), pair.get("remote"))
        if expect == "direct":
            nat = self.topology.address("rdevice")
            ok &= self.check(f"[{label}] the selected candidate pair is direct (no relay), through the device's NAT",
                             pair and "relay" not in types and str(pair.get("remoteAddress", "")).startswith(nat + ":"),
                             self.pair_text(pairs) + f" (device NAT public address {nat})")
        elif expect == "relay":
            ok &= self.check(f"[{label}] the selected candidate pair is relayed through coturn", "relay" in types,
                             self.pair_text(pairs) + f"; device's candidates {sorted(set(pairs.get('remote') or []))}")
        else:  # "any": any pair, reported
            ok &= self.check(f"[{label}] the selected candidate pair", pair and pair.get("state") == "succeeded",
                             self.pair_text(pairs))
        outcome = self.hang_up(agent, since)
        ok &= self.check(f"[{label}] the page hangs up; the device logs the call answered",
                         outcome and outcome.group(2).startswith("answered"),
                         outcome.group(0) if outcome else " | ".join(agent.tail(4)))
        return ok

    def stop(self, *processes):
        for p in processes:
            if p:
                p.stop(signal.SIGINT)

    # ---- scenarios ----

    def scenario(self, label, family, nat, phases):
        """phases: [(server options, expect)] run in one topology with one browser."""
        started = time.monotonic()
        try:
            with Topology(PREFIX, family, nat) as t:
                self.topology = t
                self.check(f"[{label}] topology up", True, t.describe())
                secret = self.start_turn(label) if family == "ipv4" else None
                if family == "ipv4" and not secret:
                    return
                for options, expect in phases:
                    phase = f"{label}{', ' + options['name'] if options.get('name') else ''}"
                    server, base = self.start_server(phase, stun=options.get("stun", False),
                                                     turn_secret=secret if options.get("turn") else None)
                    agent, device_id = self.start_agent(phase, base) if base else (None, None)
                    # A fresh browser per phase: the same origin would restore the last phase's signed-in page.
                    if device_id and self.start_browser(base) and self.open_page(phase, base, device_id):
                        self.call(phase, agent, device_id, expect)
                    self.stop_browser()
                    self.stop(agent)
                    if server:
                        server.stop(signal.SIGTERM)
                for p in reversed(self.processes):
                    p.stop(signal.SIGTERM)
                self.processes = []
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure with its reason, never a skip
            self.check(f"[{label}] harness", False, f"{type(e).__name__}: {e}")
        finally:
            if self.checks.failed and self.browser:
                for line in self.browser.page_log(15):
                    log(f"  page: {line}")
            self.stop_browser()
            for p in reversed(self.processes):
                p.stop(signal.SIGTERM)
            self.processes = []
            left = self.topology.leftovers() if self.topology else []
            self.check(f"[{label}] topology torn down (no namespace left)", not left,
                       f"{time.monotonic() - started:.0f} s" if not left else f"left: {left}")
            self.topology = None

    def run(self):
        missing = missing_tools() + missing_browser()
        if not self.turnserver_bin:
            missing.append("turnserver not found (apt-get install coturn, or set TURNSERVER_BIN)")
        for label, path in (("intercom-server", self.server_bin), ("intercomd", self.intercomd_bin)):
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                missing.append(f"{label} not found or not executable at {path}")
        if missing:
            for problem in missing:
                self.check("prerequisites", False, problem)
            return self.checks
        stale = Topology.clean_stale(PREFIX)
        if stale:
            log(f"  removed namespaces of an earlier run: {' '.join(stale)}")
        self.workdir = tempfile.mkdtemp(prefix="intercom-networks-")
        started = time.monotonic()
        try:
            only = os.environ.get("NETWORKS_ONLY", "abc")  # e.g. NETWORKS_ONLY=b to run one scenario
            if "a" in only:
                self.scenario("a: both NATs endpoint-independent, STUN", "ipv4", {"device": "eim", "caller": "eim"},
                              [({"stun": True}, "direct")])
            if "b" in only:
                self.scenario("b: both NATs symmetric", "ipv4", {"device": "symmetric", "caller": "symmetric"},
                              [({"name": "STUN, no TURN", "stun": True}, "none"),
                               ({"name": "TURN", "stun": True, "turn": True}, "relay")])
            if "c" in only:
                self.scenario("c: IPv6 only", "ipv6", None, [({}, "any")])
        finally:
            log(f"  stage took {time.monotonic() - started:.0f} s")
            keep_or_remove(self.workdir, "NETWORKS_KEEP", self.checks.failed)
        return self.checks


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    # SIGTERM (a CI timeout) unwinds like an error: the topology's context manager and atexit tear it down.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    turnserver = os.environ.get("TURNSERVER_BIN") or shutil.which("turnserver")
    log(f"Networks: the web caller in the caller namespace calls intercomd run behind NAT, through symmetric NATs "
        f"with and without coturn, and over IPv6 only; intercom-server {server}, intercomd {intercomd}")
    checks = Networks(server, intercomd, turnserver).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
