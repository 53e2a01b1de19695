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
  d. the caller on the device's LAN (one bridge), the page over plain http (not a secure context: no
     microphone) and Chromium's default of hiding its host addresses behind mDNS `.local` names: the page's
     host candidates carry only `.local` names, the device resolves them with its own mDNS query (logged with
     the address), and its selected pair is host ↔ host on the LAN, not a peer-reflexive one.
  e. an impaired link (Tests/support/impairment.py on a host spliced into the device's LAN cable, both NATs
     endpoint-independent, STUN): once the call is up, 75 ms each way (150 ms RTT), ±15 ms jitter on UDP (a
     30 ms spread, reordering) and 2 % Gilbert-Elliott burst loss (bursts of 4) for IMPAIRED_SECONDS: the page
     decodes >= IMPAIRED_MIN_FPS over the period and stays in call; it prints the audio concealment, the
     glass-to-glass p50/p95 (the test pattern's timestamp band) and the frames the wire dropped each way; then
     the wire capped at CAP_KBPS each way: after CAP_SETTLE_SECONDS the device's video must fit it (glass-to-glass
     p95 under CAP_MAX_P95_MS, no growing queue) at >= CAP_MIN_FPS.
  f. HTTPS (both NATs endpoint-independent, STUN): intercom-server in backend serves TLS itself with a
     certificate for backend.intercom.test from a throwaway CA; the agent trusts it with `[backend] ca_file`
     (REST, wss:// LiveQuery and signaling); Chromium in the caller namespace opens the page as a real secure
     context (no insecure-origin exception), gets its fake microphone, and the device receives its audio.
  g. the device's address changes mid-call (both NATs endpoint-independent, STUN): 192.168.1.2 is replaced by
     192.168.1.5 on its interface; the agent sees it through rtnetlink, restarts ICE (a new gathering and a
     re-offer the page answers on the same connection), and the page decodes video again within
     READDRESS_RESUME_SECONDS of the change, without a new call.

Each call prints its selected pair, the time from the click to the first decoded frame and the frames
decoded over MEASURE_SECONDS. A missing tool is a failure, never a skip. Needs root, ip, nft, turnserver,
chromium and chromedriver.
Usage: networks_test.py [--server BIN] [--intercomd BIN]; NETWORKS_KEEP=1 keeps the temporary directory.
"""

import os
import re
import secrets
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from calls import (CALL_PROBE, G2G_READER, OUTCOME, PAIR_STATS, PC_PROBE, LoggedProcess,  # noqa: E402
                   agent_environment, binary_arguments, call_button, first_frame, keep_or_remove, latency_figures,
                   percentile, split_measurements, start_intercom_server, wait_callable, write_agent_config)
from certificates import make_certificates  # noqa: E402
from impairment import ImpairedWire  # noqa: E402
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
# Scenario e: the figures. >= 25 fps of a 30 fps pattern through 2 % burst loss: NACK repairs within
# one RTT, so frames arrive late rather than not at all. Catches: a receiver that freezes on loss.
IMPAIRED_SECONDS = int(os.environ.get("NETWORKS_IMPAIRED_SECONDS", "60"))
IMPAIRED_MIN_FPS = 25.0
IMPAIRMENT = {"delay_ms": 75, "jitter_ms": 15, "loss_percent": 2, "burst": 4}
# Then a rate cap below what the encoder sends unhindered (~1 Mbit/s of 640x480): the encoder must follow the
# page's estimate down, or the wire's queue (unbounded) makes the delay grow without end. Catches: a sender
# that ignores REMB/loss reports. The first CAP_SETTLE_SECONDS let the estimate converge.
CAP_KBPS = 500
CAP_SETTLE_SECONDS = 10
CAP_MEASURE_SECONDS = 10
CAP_MAX_P95_MS = 1000
CAP_MIN_FPS = 10.0
# Scenario g: the bound; a restart here takes ~0.5 s (250 ms settle, gathering with STUN, one RTT).
READDRESS_RESUME_SECONDS = 3.0
NEW_DEVICE_ADDRESS = "192.168.1.5"


class Networks:
    def __init__(self, server_bin, intercomd_bin, turnserver_bin):
        self.server_bin, self.intercomd_bin, self.turnserver_bin = server_bin, intercomd_bin, turnserver_bin
        self.checks = Checks()
        self.workdir = None
        self.processes = []
        self.driver = self.browser = None
        self.topology = None
        self.wire = None
        self.ca = None

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

    def start_server(self, label, stun=False, turn_secret=None, https=False, settings=None):
        """`settings`: more INTERCOM_* variables (e.g. a short INTERCOM_HEARTBEAT_SECONDS)."""
        t = self.topology
        env = {k: v for k, v in os.environ.items() if not k.startswith("INTERCOM_")}
        env.update(settings or {})
        scheme = "https" if https else "http"
        if https:
            self.ca, issued = make_certificates(os.path.join(self.workdir, f"{label}-tls"), serials=("6001",),
                                                names=(f"DNS:{t.hostname('backend')}",), common_name=t.hostname("backend"))
            env["INTERCOM_TLS_CERT_FILE"], env["INTERCOM_TLS_KEY_FILE"] = issued["6001"]
        relay = t.address("relay")
        if stun:
            env["INTERCOM_STUN_URLS"] = f"stun:{relay}:{TURN_PORT}"
        if turn_secret:
            env["INTERCOM_TURN_URLS"] = f"turn:{relay}:{TURN_PORT}?transport=udp"
            env["INTERCOM_TURN_SECRET"] = turn_secret
        # Calls carry the signaling room's URL, derived from the public URL (never from a request's Host); the
        # device only joins rooms on its backend's host, which it knows by name.
        env["INTERCOM_PUBLIC_URL"] = f"{scheme}://{t.hostname('backend')}:{SERVER_PORT}"
        host = t.address("backend")
        listen = f"[{host}]:{SERVER_PORT}" if ":" in host else f"{host}:{SERVER_PORT}"
        server, base, detail = start_intercom_server(self.server_bin, self.workdir, f"{label}-server", env=env,
                                                     listen=listen, prefix=t.exec_prefix("backend"))
        self.processes.append(server)
        # The agent and the page use the backend's name (every namespace's hosts file): the agent's WebSocket
        # client cannot parse an IPv6 literal URL (see Tests/support/topology.py).
        base = base and f"{scheme}://{t.hostname('backend')}:{SERVER_PORT}"
        what = ", ".join(k for k in ("INTERCOM_STUN_URLS", "INTERCOM_TURN_URLS", "INTERCOM_TLS_CERT_FILE")
                         if k in env) or "no STUN/TURN"
        self.check(f"[{label}] intercom-server in backend at its public address ({what})", base,
                   f"{detail}, reached as {base}" if base else detail)
        return server, base

    def start_agent(self, label, base, extra=""):
        """`extra`: whole config sections appended (e.g. `[presence]`)."""
        t = self.topology
        config = write_agent_config(os.path.join(self.workdir, f"{label}-agent.toml"), base, TITLE, DEVICE["lat"],
                                    DEVICE["lon"], os.path.join(self.workdir, f"{label}-state"), free_port(),
                                    extra=extra)
        if base.startswith("https://"):
            with open(config, encoding="utf-8") as f:
                text = f.read()
            with open(config, "w", encoding="utf-8") as f:
                f.write(text.replace(f'server_url = "{base}/parse"\n', f'server_url = "{base}/parse"\nca_file = "{self.ca}"\n', 1))
        agent = LoggedProcess([*t.exec_prefix("device"), self.intercomd_bin, "run", "--config", config],
                              self.workdir, f"{label}-agent", env=agent_environment())
        self.processes.append(agent)
        ready = agent.wait_line(r"ready: (.*)", 30)
        user = agent.find(r"logged in to the backend userID=(\w+)")
        self.check(f"[{label}] intercomd run in device (behind its router) logs in to {base}", ready and user,
                   f"userID {user.group(1)}" if ready and user else " | ".join(agent.tail(6)))
        return agent, (user.group(1) if ready and user else None)

    def start_browser(self, base, mdns=False):
        """chromedriver (and so Chromium) in the caller's namespace; the page's origin treated as secure so
        that getUserMedia works over plain http to a non-loopback address (over https it is one: the test CA's
        certificate accepted with --ignore-certificate-errors). mdns: Chromium as a user has it (host addresses
        hidden behind `.local` names, plain http not secure)."""
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
                                        extra_args=[] if mdns else [PLAIN_IP_CANDIDATES, "--ignore-certificate-errors"]
                                        if base.startswith("https://") else [PLAIN_IP_CANDIDATES,
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
        if expect == "impaired":
            ok &= self.impaired_period(label, b)
        if expect == "readdress":
            ok &= self.readdress(label, b, agent, since)
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
        elif expect == "https":
            secure = b.js("return [location.protocol, window.isSecureContext, "
                          "!!(window.__turnProbe && window.__turnProbe.pc && window.__turnProbe.pc.getSenders()"
                          ".some((s) => s.track && s.track.kind === 'audio' && s.track.readyState === 'live'))];")
            sent = (b.stats() or {}).get("audioPacketsSent", 0)
            ok &= self.check(f"[{label}] the page is a secure context over https:// and sends its microphone",
                             secure == ["https:", True, True] and sent > 0,
                             f"[protocol, secure context, live audio track] {secure}; {sent} audio packets sent")
        elif expect == "mdns":
            candidates = b.js("return (window.__turnProbe && window.__turnProbe.candidates) || [];") or []
            hosts = [c.split(" ")[4] for c in candidates if " typ host" in c and len(c.split(" ")) > 4]
            ok &= self.check(f"[{label}] the page's host candidates carry only mDNS .local names",
                             hosts and all(h.endswith(".local") for h in hosts), f"host candidate addresses {hosts}")
            caller = self.topology.address("caller")
            resolved = agent.find(rf"the peer's mDNS candidate (\S+\.local) is {re.escape(caller)} .*resolvedIn=\"?(\d+) ms",
                                  since)
            ok &= self.check(f"[{label}] the device resolves the page's .local name to {caller} with its own mDNS query",
                             resolved and resolved.group(1) in hosts,
                             f"{resolved.group(1)} in {resolved.group(2)} ms" if resolved else
                             " | ".join(line for line in agent.stderr(since) if "mDNS" in line)[-600:] or "no mDNS line")
            paths = agent.find_all(r"media path: (\S+) (\S+) ↔ (\S+) (\S+)", since)
            last = paths[-1] if paths else None
            ok &= self.check(f"[{label}] the device's selected pair is host ↔ host on the LAN (the page's address "
                             "from the resolved name, not a peer-reflexive one)",
                             last and last.group(1) == "host" and last.group(3) == "host"
                             and last.group(4).startswith(caller + ":"),
                             last.group(0) if last else "no 'media path' line")
        else:  # "any": any pair, reported
            ok &= self.check(f"[{label}] the selected candidate pair", pair and pair.get("state") == "succeeded",
                             self.pair_text(pairs))
        outcome = self.hang_up(agent, since)
        ok &= self.check(f"[{label}] the page hangs up; the device logs the call answered",
                         outcome and outcome.group(2).startswith("answered"),
                         outcome.group(0) if outcome else " | ".join(agent.tail(4)))
        if expect == "https":
            media = agent.wait_line(r"call media ended.*", 10, since)
            heard = re.search(r"callerAudioPackets=(\d+)", media.group(0)) if media else None
            ok &= self.check(f"[{label}] the device received the page's microphone over the NATs",
                             heard and int(heard.group(1)) > 0, media.group(0)[:300] if media else "no 'call media ended' line")
        return ok

    def impaired_period(self, label, b):
        """Scenario e: IMPAIRED_SECONDS through the impaired wire, measured in the page; the wire is clean after."""
        stats_at = "window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))"
        b.js(G2G_READER)
        before_wire = self.wire.stats()
        self.wire.set(**IMPAIRMENT)
        first = b.promise(stats_at)
        states = set()
        deadline = time.monotonic() + IMPAIRED_SECONDS
        while time.monotonic() < deadline:
            time.sleep(2)
            states.add(b.state())
        last = b.promise(stats_at)
        self.wire.set()
        after_wire = self.wire.stats()
        g2g = b.js("return window.__g2g ? {samples: window.__g2g.samples, misreads: window.__g2g.misreads} : null;") or {}
        latencies, errors = split_measurements(g2g.get("samples") or [])
        seconds = (last["at"] - first["at"]) / 1000
        frames = last["framesDecoded"] - first["framesDecoded"]
        fps = frames / seconds if seconds > 0 else 0
        samples = last.get("totalSamplesReceived", 0) - first.get("totalSamplesReceived", 0)
        concealed = last.get("concealedSamples", 0) - first.get("concealedSamples", 0)
        dropped = {k: after_wire[k]["dropped"] - before_wire[k]["dropped"] for k in after_wire}
        forwarded = {k: after_wire[k]["forwarded"] - before_wire[k]["forwarded"] for k in after_wire}
        wire = ", ".join(f"{k}: {dropped[k]} of {dropped[k] + forwarded[k]} frames dropped "
                         f"({100 * dropped[k] / max(1, dropped[k] + forwarded[k]):.1f} %)" for k in dropped)
        figures = (f"{frames} frames in {seconds:.1f} s = {fps:.1f} fps; audio concealed "
                   f"{100 * concealed / max(1, samples):.2f} % of {samples} samples; glass-to-glass "
                   f"{latency_figures(latencies)}{f', {len(errors)} negative' if errors else ''}; "
                   f"NACKs {last.get('nackCount', 0) - first.get('nackCount', 0)}, freezes "
                   f"{last.get('freezeCount', 0) - first.get('freezeCount', 0)}; wire {wire}")
        log(f"BENCH impaired link ({IMPAIRMENT}) for {IMPAIRED_SECONDS} s: {figures}; command: "
            f"NETWORKS_ONLY=e scripts/test.sh networks")
        ok = self.check(f"[{label}] through 150 ms RTT, ±15 ms jitter and 2 % burst loss for {IMPAIRED_SECONDS} s the "
                        f"page stays in call and decodes >= {IMPAIRED_MIN_FPS:.0f} fps", fps >= IMPAIRED_MIN_FPS
                        and states == {"in-call"}, figures + f"; page states seen {sorted(states)}")
        ok &= self.check(f"[{label}] the wire really impaired the link: UDP frames dropped both ways",
                         all(v > 0 for v in dropped.values()), wire)
        ok &= self.capped_period(label, b, stats_at)
        return ok

    def capped_period(self, label, b, stats_at):
        """The wire capped at CAP_KBPS each way: the device's encoder must come down to it."""
        self.wire.set(rate_kbps=CAP_KBPS)
        time.sleep(CAP_SETTLE_SECONDS)
        b.js(G2G_READER)  # fresh samples for the measured part
        first = b.promise(stats_at)
        wire_first = self.wire.stats()
        time.sleep(CAP_MEASURE_SECONDS)
        last = b.promise(stats_at)
        wire_last = self.wire.stats()
        self.wire.set()
        g2g = b.js("return window.__g2g ? {samples: window.__g2g.samples} : null;") or {}
        latencies, _ = split_measurements(g2g.get("samples") or [])
        seconds = (last["at"] - first["at"]) / 1000
        fps = (last["framesDecoded"] - first["framesDecoded"]) / seconds if seconds > 0 else 0
        kbps = 8 * (wire_last["to device"]["bytes"] - wire_first["to device"]["bytes"]) / 1000 / max(seconds, 0.001)
        kbps_out = 8 * (wire_last["from device"]["bytes"] - wire_first["from device"]["bytes"]) / 1000 / max(seconds, 0.001)
        p95 = percentile(latencies, 95) if latencies else float("inf")
        figures = (f"from the device {kbps_out:.0f} kbit/s, to it {kbps:.0f} kbit/s on the wire; {fps:.1f} fps; glass-to-glass "
                   f"{latency_figures(latencies)}")
        log(f"BENCH rate cap {CAP_KBPS} kbit/s each way, after {CAP_SETTLE_SECONDS} s to settle: {figures}; command: "
            f"NETWORKS_ONLY=e scripts/test.sh networks")
        return self.check(f"[{label}] capped at {CAP_KBPS} kbit/s the device's video comes down to the link: "
                          f"glass-to-glass p95 < {CAP_MAX_P95_MS} ms (no growing queue), >= {CAP_MIN_FPS:.0f} fps, in call",
                          p95 < CAP_MAX_P95_MS and fps >= CAP_MIN_FPS and b.state() == "in-call", figures)

    def readdress(self, label, b, agent, since):
        """Scenario g: replaces the device's address mid-call; video must resume within READDRESS_RESUME_SECONDS."""
        t = self.topology
        old = t.address("device")
        t.run("device", "sysctl", "-qw", "net.ipv4.conf.all.promote_secondaries=1", "net.ipv4.conf.eth0.promote_secondaries=1")
        frames_at = lambda: (b.stats() or {}).get("framesDecoded", 0)  # noqa: E731
        time.sleep(2)  # steady video first, so a stall and its end are plain
        before = frames_at()
        changed = time.monotonic()
        t.run("device", "ip", "addr", "add", f"{NEW_DEVICE_ADDRESS}/24", "dev", "eth0")
        t.run("device", "ip", "addr", "del", f"{old}/24", "dev", "eth0")
        t.run("device", "ip", "route", "replace", "default", "via", "192.168.1.1", "dev", "eth0")
        time.sleep(0.3)
        stalled = frames_at()
        resumed = wait_for(lambda: frames_at() >= stalled + 5, READDRESS_RESUME_SECONDS + 7, 0.05)
        took = time.monotonic() - changed
        restart = agent.find(r"ICE restart: addresses changed \(([^)]*)\)", since)
        paths = agent.find_all(r"media path: (\S+) (\S+) ↔ (\S+) (\S+)", since)
        ok = self.check(f"[{label}] the device notices its new address and restarts ICE (a re-offer)",
                        restart and NEW_DEVICE_ADDRESS in restart.group(1),
                        restart.group(0) if restart else " | ".join(agent.stderr(since)[-4:]))
        ok &= self.check(f"[{label}] after {old} → {NEW_DEVICE_ADDRESS} the page decodes video again within "
                         f"{READDRESS_RESUME_SECONDS:.0f} s, in the same call",
                         resumed and took <= READDRESS_RESUME_SECONDS and b.state() == "in-call"
                         and (b.stats() or {}).get("offersReceived", 2) >= 2,
                         f"frames {before} at the change, {stalled} 0.3 s later, resumed after {took:.2f} s; page "
                         f"{b.state()}, offers received {(b.stats() or {}).get('offersReceived')}; last media path "
                         f"{paths[-1].group(0) if paths else '-'}")
        return ok

    def stop(self, *processes):
        for p in processes:
            if p:
                p.stop(signal.SIGINT)

    # ---- scenarios ----

    def scenario(self, label, family, nat, phases, shared_lan=False, impaired=False):
        """phases: [(server options, expect)] run in one topology with one browser."""
        started = time.monotonic()
        try:
            with Topology(PREFIX, family, nat, shared_lan=shared_lan, impaired=impaired) as t:
                self.topology = t
                # The impaired host forwards nothing until the wire runs (clean until set()).
                self.wire = ImpairedWire(t) if impaired else None
                self.check(f"[{label}] topology up", True, t.describe() + (" (device's LAN through the impairment "
                                                                           "wire)" if impaired else ""))
                secret = self.start_turn(label) if family == "ipv4" else None
                if family == "ipv4" and not secret:
                    return
                for options, expect in phases:
                    phase = f"{label}{', ' + options['name'] if options.get('name') else ''}"
                    server, base = self.start_server(phase, stun=options.get("stun", False),
                                                     turn_secret=secret if options.get("turn") else None,
                                                     https=options.get("https", False))
                    agent, device_id = self.start_agent(phase, base) if base else (None, None)
                    # A fresh browser per phase: the same origin would restore the last phase's signed-in page.
                    if device_id and self.start_browser(base, mdns=expect == "mdns") and \
                            self.open_page(phase, base, device_id):
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
            if self.wire:
                self.wire.close()
                self.wire = None
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
        if not shutil.which("openssl"):
            missing.append("openssl not found (apt-get install openssl): scenario f's throwaway CA")
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
            only = os.environ.get("NETWORKS_ONLY", "abcdefg")  # e.g. NETWORKS_ONLY=b to run one scenario
            if "a" in only:
                self.scenario("a: both NATs endpoint-independent, STUN", "ipv4", {"device": "eim", "caller": "eim"},
                              [({"stun": True}, "direct")])
            if "b" in only:
                self.scenario("b: both NATs symmetric", "ipv4", {"device": "symmetric", "caller": "symmetric"},
                              [({"name": "STUN, no TURN", "stun": True}, "none"),
                               ({"name": "TURN", "stun": True, "turn": True}, "relay")])
            if "c" in only:
                self.scenario("c: IPv6 only", "ipv6", None, [({}, "any")])
            if "d" in only:
                self.scenario("d: caller on the device's LAN, mDNS candidates", "ipv4", None, [({}, "mdns")],
                              shared_lan=True)
            if "e" in only:
                self.scenario("e: impaired link", "ipv4", {"device": "eim", "caller": "eim"},
                              [({"stun": True}, "impaired")], impaired=True)
            if "f" in only:
                self.scenario("f: HTTPS across NATs", "ipv4", {"device": "eim", "caller": "eim"},
                              [({"stun": True, "https": True}, "https")])
            if "g" in only:
                self.scenario("g: the device's address changes mid-call", "ipv4", {"device": "eim", "caller": "eim"},
                              [({"stun": True}, "readdress")])
        finally:
            log(f"  stage took {time.monotonic() - started:.0f} s")
            keep_or_remove(self.workdir, "NETWORKS_KEEP", self.checks.failed)
        return self.checks


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    # SIGTERM (a CI timeout) unwinds like an error: the topology's context manager and atexit tear it down.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    turnserver = os.environ.get("TURNSERVER_BIN") or shutil.which("turnserver")
    log(f"Networks: the web caller in the caller namespace calls intercomd run behind NAT (scenarios a-g in this "
        f"file's docstring); intercom-server {server}, intercomd {intercomd}")
    checks = Networks(server, intercomd, turnserver).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
