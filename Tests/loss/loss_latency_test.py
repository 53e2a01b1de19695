#!/usr/bin/env python3
"""WebRTC under 10 % packet loss, and glass-to-glass latency, with the web caller in headless Chromium.

Starts `intercomd demo --video test-pattern` (its test pattern carries a timestamp band: the wall-clock
millisecond of capture, 64 cells of 16x16 pixels with a CRC-16, Sources/Media/Video/TimestampBand.swift) and
calls it from the web caller. A script in the page reads the band of every displayed frame
(requestVideoFrameCallback → canvas) and subtracts it from the frame's expected display time: glass to glass,
camera stand-in to screen, on one machine and one clock.

  1. no loss, 20 s: latency p50/p95, frame rate;
  2. 10 % loss for 120 s: nftables drops every tenth UDP datagram (at random) arriving on the loopback, in
     both directions. The call must stay up for the whole 120 s; in every 10 s window the page must still
     decode >= 15 fps (NACK retransmissions and PLI keyframes repair the video); Chromium must have sent
     NACKs and the device must have retransmitted; latency p50/p95 under loss;
  3. the loss is lifted, the page hangs up, the device logs the call as answered and ended by the page.

Prints PASS/FAIL lines, BENCH lines with the command, and `N passed, M failed`. Needs root for nft.
Environment: LOSS_SECONDS (default 120), LOSS_PERCENT (default 10), LOSS_KEEP=1 keeps the logs.
"""

import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from prerequisites import missing_prerequisites  # noqa: E402
from webdriver import (PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser, free_port, log,  # noqa: E402
                       missing_browser, wait_for)
from calls import (G2G_READER, OUTCOME, LoggedProcess, call_button, demo_server_arguments, latency_figures,  # noqa: E402
                   percentile, split_measurements, wait_callable)
from nftables import delete_table, dropped_packets, replace_table  # noqa: E402

LOSS_SECONDS = int(os.environ.get("LOSS_SECONDS", "120"))
LOSS_PERCENT = int(os.environ.get("LOSS_PERCENT", "10"))
CLEAN_SECONDS = 20
WINDOW = 10
MIN_WINDOW_FPS = 15.0
TABLE = "intercom_loss_test"
VISITOR = {"name": "Visitor", "lat": 52.538, "lon": 13.405}

STATS_AT = "window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))"


def start_loss(percent):
    """Drops `percent` % of the UDP datagrams that arrive on lo (input hook: the sender sees no error)."""
    return replace_table(TABLE, [
        ("add", "table", "inet", TABLE),
        ("add", "chain", "inet", TABLE, "input", "{ type filter hook input priority 0; }"),
        ("add", "rule", "inet", TABLE, "input", "iifname", "lo", "meta", "l4proto", "udp",
         "numgen", "random", "mod", "100", "<", str(percent), "counter", "drop")])


class Run:
    def __init__(self, binary):
        self.binary = binary
        self.checks = Checks()
        self.workdir = tempfile.mkdtemp(prefix="intercom-loss-")
        self.demo = self.driver = self.browser = None

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def g2g(self):
        """The page's readings: latencies (ms), misread bands, measurement errors (negative readings) and how far
        the page's performance.timeOrigin had drifted from its wall clock."""
        raw = self.browser.js("return window.__g2g ? {samples: window.__g2g.samples, misreads: window.__g2g.misreads,"
                              " drift: window.__g2g.timeOriginDrift} : null;") or {"samples": [], "misreads": 0}
        latencies, errors = split_measurements(raw["samples"])
        return {"samples": latencies, "misreads": raw["misreads"], "errors": errors, "drift": raw.get("drift")}

    def measure(self, seconds, label):
        """Windows of WINDOW s: fps per window, the page's state, and the latency samples of the whole span."""
        b = self.browser
        b.js(G2G_READER)
        windows, states = [], set()
        start = previous = b.promise(STATS_AT)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(min(WINDOW, max(0.1, deadline - time.monotonic())))
            now = b.promise(STATS_AT)
            states.add(now.get("callState"))
            elapsed = (now["at"] - previous["at"]) / 1000
            windows.append((now["framesDecoded"] - previous["framesDecoded"]) / elapsed if elapsed > 0 else 0)
            previous = now
        reading = self.g2g()
        log(f"  {label}: fps per {WINDOW} s window: " + ", ".join(f"{w:.1f}" for w in windows))
        return start, previous, windows, states, reading

    def run(self):
        missing = missing_browser() + missing_prerequisites(
            binaries=(("intercomd", self.binary),), tools=(("nft", "nftables", "it injects the packet loss"),),
            root_for="nftables needs CAP_NET_ADMIN to inject the packet loss")
        if missing:
            for problem in missing:
                self.check("prerequisites", False, problem)
            return self.checks
        try:
            self.scenario()
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure, never a skip
            self.check("loss harness", False, f"{type(e).__name__}: {e}")
        finally:
            delete_table(TABLE)
            if self.browser:
                self.browser.quit()
            if self.driver:
                self.driver.stop()
            if self.demo:
                self.demo.stop()
            if os.environ.get("LOSS_KEEP") == "1" or self.checks.failed:
                log(f"  logs kept in {self.workdir}")
            else:
                shutil.rmtree(self.workdir, ignore_errors=True)
        return self.checks

    def scenario(self):
        self.demo = LoggedProcess([self.binary, "demo", "--port", "0", "--video", "test-pattern", "--buttons", "none",
                                   "--metrics", f"127.0.0.1:{free_port()}",
                                   "--directory", os.path.join(self.workdir, "demo")] + demo_server_arguments(),
                                  self.workdir, "demo")
        url = self.demo.wait_line(r"web caller:\s+(http://\S+)", 30, stdout=True)
        device = self.demo.wait_line(r"logged in to the backend userID=(\w+)", 30)
        ready = self.demo.wait_line(r"ready: ", 30)
        if not self.check("intercomd demo starts and registers", url and device and ready,
                          " | ".join(self.demo.tail(5))):
            return
        device_id = device.group(1)
        self.driver = ChromeDriver(self.workdir)
        if not self.check("chromedriver starts", self.driver.ready, self.driver.url):
            return
        b = self.browser = WebCallerBrowser(self.driver.url, os.path.join(self.workdir, "profile"), label="Visitor",
                                            extra_args=[PLAIN_IP_CANDIDATES], window_size="900,1000", browser_log=True)
        b.open(url.group(1))
        user = b.sign_in(VISITOR["name"], VISITOR["lat"], VISITOR["lon"]) if wait_for(b.loaded, 15) else None
        if not self.check("the web caller signs in and lists the device", user and wait_callable(b, device_id, 20),
                          f"userID {user}, status {b.text('#status')!r}"):
            return
        since = self.demo.mark()
        b.click(call_button(device_id))
        connected = b.wait_state("in-call", 20) == "in-call" and wait_for(
            lambda: (b.stats() or {}).get("framesDecoded", 0) > 30, 15)
        if not self.check("the device answers and the page decodes video", connected,
                          f"page {b.state()}, {b.text('#call-status')!r}"):
            return

        # 1. No loss.
        start, end, windows, states, clean = self.measure(CLEAN_SECONDS, "no loss")
        fps = (end["framesDecoded"] - start["framesDecoded"]) / ((end["at"] - start["at"]) / 1000)
        # requestVideoFrameCallback reports the frames composited, not every frame decoded: about 80 % here.
        decoded = end["framesDecoded"] - start["framesDecoded"]
        self.check("glass-to-glass method: a frame stamped after it was shown is a measurement error, not a latency",
                   split_measurements([-22.0, 0.0, 35.0]) == ([0.0, 35.0], [-22.0]))
        # A reading below zero remains possible: the canvas draws the video element's current picture, which can
        # already be the next frame when the callback for the previous one runs (seen: 2 to 5 of ~500, min
        # -13 ms). That artefact is at most one frame interval early; such readings are excluded from the
        # latency and must stay rare, and anything earlier than one frame is a broken method.
        readings = len(clean["samples"]) + len(clean["errors"])
        frame_ms = 1000 / 30
        next_frame = [e for e in clean["errors"] if e >= -frame_ms]
        broken = [e for e in clean["errors"] if e < -frame_ms]
        self.check("[no loss] frames that read as shown before they were stamped are measurement errors, excluded "
                   "from the latency: at most 3 % of the readings within one frame interval (the next frame "
                   "drawn), at most 1 % earlier",
                   len(next_frame) <= 0.03 * max(1, readings) and len(broken) <= 0.01 * max(1, readings),
                   f"{len(clean['errors'])} of {readings} readings negative ({len(broken)} earlier than one frame; min "
                   f"{min(clean['errors'], default=0):.0f} ms); the page's timeOrigin had drifted "
                   f"{clean.get('drift') or 0:.1f} ms from Date.now()")
        self.check("[no loss] the timestamp band reads back (CRC-checked) from >= half of the frames decoded, "
                   "latency p50 < 400 ms", len(clean["samples"]) >= 0.5 * decoded
                   and clean["misreads"] <= 0.01 * max(1, len(clean["samples"]))
                   and clean["samples"] and percentile(clean["samples"], 50) < 400,
                   f"{latency_figures(clean['samples'])} of {decoded} decoded, {clean['misreads']} misread; {fps:.1f} fps")
        log(f"BENCH glass-to-glass (test pattern band → displayed frame in Chromium), no loss: "
            f"{latency_figures(clean['samples'])}; {fps:.1f} fps")

        # 2. Loss.
        ok, problem = start_loss(LOSS_PERCENT)
        if not self.check(f"[loss] nftables drops {LOSS_PERCENT} % of the UDP datagrams arriving on lo", ok, problem):
            return
        started = time.monotonic()
        start, end, windows, states, lossy = self.measure(LOSS_SECONDS, f"{LOSS_PERCENT} % loss")
        lost = dropped_packets(TABLE)
        delete_table(TABLE)
        seconds = time.monotonic() - started
        self.check(f"[loss] the call stays up for {LOSS_SECONDS} s under {LOSS_PERCENT} % loss",
                   states == {"in-call"} and b.state() == "in-call",
                   f"page states {sorted(str(s) for s in states)} over {seconds:.0f} s; {lost} datagrams dropped")
        self.check(f"[loss] video keeps recovering: every {WINDOW} s window decodes >= {MIN_WINDOW_FPS:.0f} fps",
                   windows and min(windows) >= MIN_WINDOW_FPS and lost and lost > 100,
                   "fps " + ", ".join(f"{w:.1f}" for w in windows) + f"; {lost} datagrams dropped")
        nacks = end.get("nackCount", 0) - start.get("nackCount", 0)
        plis = end.get("pliCount", 0) - start.get("pliCount", 0)
        freezes = end.get("freezeCount", 0) - start.get("freezeCount", 0)
        lost_video = end.get("videoPacketsLost", 0) - start.get("videoPacketsLost", 0)
        concealed = end.get("concealedSamples", 0) - start.get("concealedSamples", 0)
        samples = end.get("totalSamplesReceived", 0) - start.get("totalSamplesReceived", 0)
        self.check("[loss] Chromium asks for retransmissions (NACK)", nacks > 0,
                   f"{nacks} NACKs, {plis} PLIs, {freezes} freezes "
                   f"({end.get('totalFreezesDuration', 0) - start.get('totalFreezesDuration', 0):.1f} s), "
                   f"video packets lost after repair {lost_video}, audio concealed "
                   f"{100 * concealed / samples if samples else 0:.1f} %")
        log(f"BENCH glass-to-glass under {LOSS_PERCENT} % loss: {latency_figures(lossy['samples'])}; "
            f"{lossy['misreads']} misread, {len(lossy['errors'])} measurement errors; {nacks} NACKs, {plis} PLIs, {freezes} freezes")

        # 3. Hang up.
        b.click("#hangup")
        b.wait_state({"ended", "idle"}, 10)
        outcome = self.demo.wait_line(OUTCOME, 15, since)
        media = self.demo.wait_line(r"call media ended.*", 10, since)
        text = media.group(0) if media else ""
        retransmitted = next((int(part.split("=")[1].strip('"')) for part in text.split()
                              if part.startswith("retransmissionsSent=")), 0)
        self.check("[loss] the device retransmitted the lost video packets Chromium asked for",
                   retransmitted > 0, text or "no 'call media ended' line")
        self.check("the page hangs up; the device logs the call answered and ended by the page",
                   outcome and outcome.group(2).startswith("answered"),
                   outcome.group(0) if outcome else " | ".join(self.demo.tail(4)))
        log(f"  reproduce: sudo {os.path.relpath(__file__, REPO)} {self.binary}")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "INTERCOMD_BIN", os.path.join(REPO, ".build", "debug", "intercomd"))
    log(f"loss and latency: the web caller calls intercomd demo; {LOSS_PERCENT} % loss for {LOSS_SECONDS} s")
    checks = Run(binary).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
