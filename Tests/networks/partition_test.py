#!/usr/bin/env python3
"""Partitions (issue #20): the device loses its backend — and only its backend — on the namespace topology of
Tests/support/topology.py (both NATs endpoint-independent, STUN from coturn, so media is peer to peer).
`Topology.block("device", "backend")` drops every packet between the device and the backend's address at the
device's router: no RST, no ICMP, so the device's LiveQuery, signaling and REST connections go half-open.
The server and the agent run with a 5 s presence heartbeat, so a device cut off for 15 s disappears from
callers' lists, and coming back is observable (presence_watch.py, run in the caller's namespace, queries the
device's ActiveUsers row every 0.5 s as a caller would).

  1. backend partition during a call: the web caller (headless Chromium in the caller namespace) is in a call
     with `intercomd run`; the device loses the backend for PARTITION_SECONDS. Checks: the page's decoded
     frames keep increasing in every SAMPLE_SECONDS sample throughout (>= MIN_FPS each; figures printed); the
     server times out the device's half-open signaling socket and tells the page it left, and the page keeps
     the call while media flows (call.js onPeerLeft; it used to end the call there); after the heal the device is listed again (its row fresh) within REREGISTER_SECONDS; the page hangs up
     and the device logs the call answered; the page places a new call and it connects.
  2. half-open LiveQuery while idle: the same drop for HALF_OPEN_SECONDS, and the page calls the device
     CALL_AFTER seconds into it. Checks: the device notices (a `LiveQuery socket closed`/`LiveQuery down` line)
     within NOTICE_SECONDS of the drop's start; the call made during it reaches the device (`incoming call`)
     within DELIVER_SECONDS of the drop's start — not lost, delivered once the backend is back — and connects.

PASS/FAIL lines carry the figures (frames per sample, re-registration time, detection and delivery times). A
missing tool is a failure, never a skip; the namespaces are torn down on exit, failure included.
Needs root, ip, nft, turnserver, chromium and chromedriver.
Usage: partition_test.py [--server BIN] [--intercomd BIN]; PARTITION_KEEP=1 keeps the temporary directory.
"""

import os
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from calls import (OUTCOME, LoggedProcess, binary_arguments, call_button, first_frame, keep_or_remove,  # noqa: E402
                   wait_callable)
from networks_test import CONNECT_SECONDS, MIN_FPS, Networks  # noqa: E402
from topology import Topology, missing_tools  # noqa: E402
from webdriver import log, missing_browser, wait_for  # noqa: E402

PREFIX = "icpart"
# Presence heartbeat of both the server (rows older than 3 heartbeats are hidden) and the agent: a device cut
# off for 15 s is no longer listed, so "listed again" after the heal is a real re-registration.
HEARTBEAT_SECONDS = 5
# Longer than the 3 heartbeats after which the row is hidden, and than the agent's LiveQuery ping timeout.
PARTITION_SECONDS = 30
# Frames sampled this often during the partition; each sample must show >= MIN_FPS (the pattern runs at ~30).
SAMPLE_SECONDS = 5
# After the heal, the device's row is fresh again within this (issue #20).
REREGISTER_SECONDS = 10
# Half-open: the drop lasts longer than the agent's worst-case detection (2 WebSocket ping intervals, 24 s),
# so it is noticed with the drop still up; the page calls CALL_AFTER s into it.
HALF_OPEN_SECONDS = 25
CALL_AFTER = 2
NOTICE_SECONDS = 30   # issue #20: a half-open LiveQuery noticed within 30 s…
DELIVER_SECONDS = 35  # …and a call made during it delivered within 35 s
NOTICED = r"LiveQuery (socket closed|socket failed|down)"
INCOMING = r"incoming call\b.*"


class Partition(Networks):
    def __init__(self, server_bin, intercomd_bin, turnserver_bin):
        super().__init__(server_bin, intercomd_bin, turnserver_bin)
        self.watch = None

    def start_watch(self, base, device_id):
        t = self.topology
        self.watch = LoggedProcess([*t.exec_prefix("caller"), sys.executable, os.path.join(HERE, "presence_watch.py"),
                                    base, device_id], self.workdir, "presence-watch")
        self.processes.append(self.watch)
        seen = self.watch.wait_line(r"visible", 15, stdout=True)
        return self.check("a caller's query (presence_watch.py in the caller namespace) lists the device", seen,
                          (seen.string if seen else " | ".join(self.watch.tail(3, stdout=True))))

    def watch_lines(self, since_time):
        """(monotonic time, state) of every watch answer at or after `since_time`."""
        rows = []
        for line in self.watch.tail(100000, stdout=True):
            parts = line.split(" ", 2)
            try:
                at = float(parts[0])
            except (ValueError, IndexError):
                continue
            if at >= since_time:
                rows.append((at, parts[1] if len(parts) > 1 else ""))
        return rows

    def frames(self):
        s = self.browser.promise("window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))")
        return s["framesDecoded"], s["at"] / 1000

    def first_seen(self, agent, patterns, since, until):
        """Polls the agent's log from line `since` until monotonic `until`, or until every pattern was seen;
        returns {pattern: (monotonic time first seen, match)}."""
        seen = {}
        while time.monotonic() < until and len(seen) < len(patterns):
            for pattern in patterns:
                if pattern not in seen:
                    match = agent.find(pattern, since)
                    if match:
                        seen[pattern] = (time.monotonic(), match)
            time.sleep(0.1)
        return seen

    # ---- 1. a backend partition during a call ----

    def partition_during_call(self, agent, device_id):
        t, b = self.topology, self.browser
        label = "1: backend partition during a call"
        since = agent.mark()
        b.click(call_button(device_id))
        record = first_frame(b, CONNECT_SECONDS)
        if not self.check(f"[{label}] the call connects and video is decoded", record,
                          f"first frame {(record['firstFrameAt'] - record['clickAt']) / 1000:.2f} s after the click"
                          if record else f"page {b.state()}; " + " | ".join(agent.stderr(since)[-4:])):
            return False
        time.sleep(1)
        t.block("device", "backend")
        blocked_at = time.monotonic()
        samples = [self.frames()]
        while time.monotonic() - blocked_at < PARTITION_SECONDS - 0.5:
            time.sleep(min(SAMPLE_SECONDS, max(0.1, PARTITION_SECONDS - (time.monotonic() - blocked_at))))
            samples.append(self.frames())
        dropped = t.blocked_packets("device")
        t.unblock("device")
        healed_at = time.monotonic()
        rates = [(f2 - f1) / (t2 - t1) for (f1, t1), (f2, t2) in zip(samples, samples[1:]) if t2 > t1]
        figures = ", ".join(f"{r:.0f}" for r in rates)
        self.check(f"[{label}] the device is cut from the backend for {PARTITION_SECONDS} s (packets dropped at its "
                   f"router)", dropped > 0, f"{dropped} packets dropped between the device and {t.address('backend')}")
        self.check(f"[{label}] decoded frames keep increasing throughout the partition (every {SAMPLE_SECONDS} s "
                   f"sample >= {MIN_FPS:.0f} fps)", len(rates) >= PARTITION_SECONDS // SAMPLE_SECONDS - 1
                   and min(rates, default=0) >= MIN_FPS and b.state() == "in-call",
                   f"fps per sample: {figures}; frames {samples[0][0]} → {samples[-1][0]} over "
                   f"{samples[-1][1] - samples[0][1]:.1f} s; page {b.state()}")
        # The server times out the device's half-open signaling socket and tells the page it left: the page
        # keeps the call (media is peer to peer) and says so in its log.
        kept = [line for line in b.page_log(200) if "left the call server" in line]
        self.check(f"[{label}] the server drops the device's signaling meanwhile; the page keeps the call",
                   kept and b.state() == "in-call", kept[-1] if kept else f"no such page log line; page {b.state()}")
        during = self.watch_lines(blocked_at)
        gone = next((at for at, state in during if state == "absent" and at < healed_at), None)
        back = wait_for(lambda: next((at for at, state in self.watch_lines(healed_at) if state == "visible"), None),
                        REREGISTER_SECONDS + 5, 0.2)
        took = back - healed_at if back else None
        self.check(f"[{label}] after the heal the device is listed again (row fresh) within {REREGISTER_SECONDS} s",
                   took is not None and took <= REREGISTER_SECONDS,
                   (f"listed again {took:.1f} s after the heal" if took is not None else "not listed again")
                   + (f"; unlisted {gone - blocked_at:.1f} s into the partition" if gone else
                      "; never unlisted during the partition"))
        if b.visible("#hangup"):
            b.click("#hangup")
        b.wait_state({"ended", "idle"}, 10)
        outcome = agent.wait_line(OUTCOME, 20, since)
        self.check(f"[{label}] the page hangs up after the heal; the device logs the call answered",
                   outcome and outcome.group(2).startswith("answered"),
                   outcome.group(0) if outcome else " | ".join(agent.tail(4)))
        # A new call after the heal.
        since = agent.mark()
        callable_ = wait_callable(b, device_id, 20)
        if callable_:
            b.click(call_button(device_id))
        record = first_frame(b, CONNECT_SECONDS) if callable_ else None
        self.check(f"[{label}] the device takes a new call from the page after the heal", record,
                   f"first frame {(record['firstFrameAt'] - record['clickAt']) / 1000:.2f} s after the click"
                   if record else f"call button enabled: {bool(callable_)}; page {b.state()}")
        self.hang_up(agent, since)
        return True

    # ---- 2. a half-open LiveQuery while idle, and a call made during it ----

    def half_open(self, agent, device_id):
        t, b = self.topology, self.browser
        label = "2: half-open LiveQuery while idle"
        # The last LiveQuery line says subscribed (it came back after the partition of scenario 1).
        subscribed = wait_for(lambda: (agent.find_all(r"LiveQuery (subscribed|down)") or [None])[-1].group(1)
                              == "subscribed", 30, 0.2)
        callable_ = wait_callable(b, device_id, 20)
        if not self.check(f"[{label}] the device is idle with LiveQuery subscribed, the page can call it",
                          subscribed and callable_, f"page {b.state()}"):
            return
        since = agent.mark()
        t.block("device", "backend")
        started = time.monotonic()
        time.sleep(CALL_AFTER)
        b.click(call_button(device_id))
        clicked = time.monotonic() - started
        seen = self.first_seen(agent, [NOTICED], since, started + HALF_OPEN_SECONDS)
        time.sleep(max(0.0, started + HALF_OPEN_SECONDS - time.monotonic()))  # the drop holds its full length
        dropped = t.blocked_packets("device")
        t.unblock("device")
        healed = time.monotonic() - started
        seen.update(self.first_seen(agent, [p for p in (NOTICED, INCOMING) if p not in seen], since,
                                    started + DELIVER_SECONDS + 10))
        noticed = seen.get(NOTICED)
        incoming = seen.get(INCOMING)
        self.check(f"[{label}] the device notices the dead LiveQuery socket within {NOTICE_SECONDS} s",
                   noticed and noticed[0] - started <= NOTICE_SECONDS,
                   (f"noticed {noticed[0] - started:.1f} s after the drop began "
                    f"({'drop still up' if noticed[0] - started < healed else 'after the heal'}): "
                    f"{noticed[1].string.strip()}" if noticed else "not noticed")
                   + f"; drop {healed:.1f} s, {dropped} packets dropped")
        self.check(f"[{label}] the call made {clicked:.0f} s into it reaches the device within {DELIVER_SECONDS} s "
                   f"of the drop's start", incoming and incoming[0] - started <= DELIVER_SECONDS,
                   (f"incoming call {incoming[0] - started:.1f} s after the drop began "
                    f"({incoming[0] - started - healed:.1f} s after the heal): {incoming[1].group(0).strip()}"
                    if incoming else f"no incoming call; page {b.state()} {b.text('#call-status')!r}"))
        record = first_frame(b, CONNECT_SECONDS) if incoming else None
        self.check(f"[{label}] that call connects (video decoded in the page)", record,
                   f"first frame {(record['firstFrameAt'] - record['clickAt']) / 1000:.1f} s after the click"
                   if record else f"page {b.state()} {b.text('#call-status')!r}")
        outcome = self.hang_up(agent, since)
        self.check(f"[{label}] the device logs that call answered (delivered once, not lost)",
                   outcome and outcome.group(2).startswith("answered")
                   and len(agent.find_all(INCOMING, since)) == 1,
                   outcome.group(0) if outcome else " | ".join(agent.tail(4)))

    # ---- running ----

    def scenario(self):
        label = "partition"
        started = time.monotonic()
        try:
            with Topology(PREFIX, "ipv4", {"device": "eim", "caller": "eim"}) as t:
                self.topology = t
                self.check(f"[{label}] topology up", True, t.describe())
                if not self.start_turn(label):
                    return
                server, base = self.start_server(label, stun=True,
                                                 settings={"INTERCOM_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS)})
                agent, device_id = self.start_agent(
                    label, base, extra=f'\n[presence]\nheartbeat = "{HEARTBEAT_SECONDS}s"\n') if base else (None, None)
                if not (device_id and self.start_browser(base) and self.open_page(label, base, device_id)
                        and self.start_watch(base, device_id)):
                    return
                only = os.environ.get("PARTITION_ONLY", "12")
                if "1" in only:
                    self.partition_during_call(agent, device_id)
                if "2" in only:
                    self.half_open(agent, device_id)
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
            if self.topology:
                self.topology.close()
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
        self.workdir = tempfile.mkdtemp(prefix="intercom-partition-")
        started = time.monotonic()
        try:
            self.scenario()
        finally:
            log(f"  stage took {time.monotonic() - started:.0f} s")
            keep_or_remove(self.workdir, "PARTITION_KEEP", self.checks.failed)
        return self.checks


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    # SIGTERM (a CI timeout) unwinds like an error: the topology's context manager and atexit tear it down.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    turnserver = os.environ.get("TURNSERVER_BIN") or shutil.which("turnserver")
    log(f"Partitions: the device loses its backend during a call and while idle (half-open LiveQuery); "
        f"intercom-server {server}, intercomd {intercomd}")
    checks = Partition(server, intercomd, turnserver).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
