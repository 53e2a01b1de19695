#!/usr/bin/env python3
"""End-to-end: the call a user sees, from the web caller in headless Chromium to `intercomd demo`.

Starts `intercomd demo --port 0 --video test-pattern` (intercom-server as its child process plus the device agent),
reads the web caller's URL from its stdout, and drives headless Chromium through chromedriver (the shared
stdlib-only client in Tests/support/webdriver.py):

  1. auto answer: sign in as "Visitor" ~2 km from the device; the nearby list shows "Intercom demo" at a
     plausible distance; call it; the device answers by sending the SDP offer, the page answers it; the page
     reaches in-call; over 10 s getStats shows >= 20 fps of 640x480 video and audio packets; a screenshot of
     the in-call page (also copied to docs/images/web-caller-in-call.png);
  2. hang up from the page: the page ends, the device logs the outcome (and the caller's audio it received),
     goes back to idle and its ActiveUsers row is still listed;
  3. benchmark: N calls in a row (call → first decoded frame → hang up), time from the click to the first
     decoded frame, p50/p95 (each call must connect within 10 s);
  4. the door: during the call the page's door button makes the device pulse its (simulated) door relay;
     after the call /metrics counts it (and its first frame, encoded frames) and /health says ok;
     a viewer: during the call the page's "Invite a viewer" makes a viewing link; a second Chromium opens it
     without signing in, decodes the device's video and sends nothing, the device counts 2 media peers;
     "Stop watching" ends only the viewer;
  5. `--answer button`: the page rings and keeps ringing while nobody presses the button, hangs up after a
     few seconds, and the device logs the call as unanswered (missed); then the accept button (a key on the
     demo's standard input, which drives its simulated GPIO lines through the real button watcher) answers
     a ringing call exactly once, a second press changes nothing, and the hangup button ends it;
  6. the device's call button calls "Visitor": the page rings (incoming), accepts, decodes the device's
     video, hangs up, and the device logs the outgoing call as answered.

The demo is always stopped with SIGINT (SIGKILL after 10 s); not exiting with status 0 within 5 s is a failure.
Prints one PASS/FAIL line per check, a BENCH line, and a final `N passed, M failed`; exits non-zero on failure.

Usage: demo_call_test.py [INTERCOMD_BINARY]
  INTERCOMD_BINARY defaults to $INTERCOMD_BIN, then <repo>/.build/debug/intercomd. The demo runs
  $INTERCOM_SERVER_BIN when set (`intercomd demo --server`), else the intercom-server next to intercomd.
Environment: CHROMIUM_BIN, CHROMEDRIVER_BIN (defaults /usr/bin/chromium, /usr/bin/chromedriver),
  E2E_CALLS (benchmark calls, default 10), E2E_SCREENSHOT (default /tmp/intercom-demo-in-call.png),
  E2E_DOC_SCREENSHOT (unset: no copy; set it to docs/images/web-caller-in-call.png to refresh the README's picture),
  E2E_SETTLE (seconds between a call's logged outcome and the next benchmark call, default 2.5),
  E2E_KEEP=1 keeps the temporary directory (demo stdout/stderr logs, chromedriver log).
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from webdriver import (PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser, free_port, log,  # noqa: E402
                       missing_browser, wait_for)
from calls import LoggedProcess, demo_server_arguments, percentile, scrape_metrics  # noqa: E402

APP_ID = "intercom"
DEVICE_TITLE = "Intercom demo"
DEVICE = {"lat": 52.52, "lon": 13.405}             # the demo's default location
VISITOR = {"name": "Visitor", "lat": 52.538, "lon": 13.405}  # 2.0 km north of it
TERMINAL_OR_IDLE = {"idle", "ended"}
MEASURE_SECONDS = 10
MIN_FPS = 20.0
CONNECT_LIMIT = 10.0  # seconds from clicking call to the first decoded frame
RING_HOLD = 5.0       # how long the button-mode call must keep ringing before the page hangs up
# After a call the device stays in `ending` until its media reports down, at most CallPolicy.teardownTimeout
# (2 s by default); a call arriving meanwhile is refused as busy. intercomd logs no line when it is idle again,
# so the benchmark places each call this long after the previous call's outcome was logged.
SETTLE_AFTER_CALL = float(os.environ.get("E2E_SETTLE", "2.5"))
CALLS = int(os.environ.get("E2E_CALLS", "10"))
SCREENSHOT = os.environ.get("E2E_SCREENSHOT", "/tmp/intercom-demo-in-call.png")
# Tests must not rewrite tracked files: the README's screenshot is refreshed only on request.
DOC_SCREENSHOT = os.environ.get("E2E_DOC_SCREENSHOT", "")

# Installed before the page's own scripts: records the SDP descriptions the page sets (who offered) and,
# from the capture-phase click on a call button, the time to the first decoded video frame (getStats via
# window.intercom.stats(), polled every 20 ms inside the page, so WebDriver round trips do not count).
PAGE_PROBE = r"""
(() => {
  const probe = window.__e2e = { descriptions: [], clickAt: null, firstFrameAt: null, times: {} };
  const P = window.RTCPeerConnection && window.RTCPeerConnection.prototype;
  if (P) {
    const setRemote = P.setRemoteDescription, setLocal = P.setLocalDescription;
    P.setRemoteDescription = function (d) {
      probe.descriptions.push({ side: 'remote', type: d && d.type, sdp: d && d.sdp });
      if (!probe.times.offer) probe.times.offer = performance.now();
      const pc = this;
      if (!pc.__e2eWatched) {
        pc.__e2eWatched = true;
        pc.addEventListener('iceconnectionstatechange', () => {
          if (pc.iceConnectionState === 'connected' && !probe.times.ice) probe.times.ice = performance.now();
        });
        pc.addEventListener('connectionstatechange', () => {
          if (pc.connectionState === 'connected' && !probe.times.dtls) probe.times.dtls = performance.now();
        });
      }
      return setRemote.apply(this, arguments);
    };
    P.setLocalDescription = function (d) {
      probe.descriptions.push({ side: 'local', type: d ? d.type : 'implicit' });
      return setLocal.apply(this, arguments);
    };
  }
  document.addEventListener('click', (event) => {
    if (!event.target || !event.target.closest || !event.target.closest('button.call')) return;
    const started = performance.now();
    probe.clickAt = started; probe.firstFrameAt = null; probe.descriptions = []; probe.times = {};
    const poll = async () => {
      if (probe.clickAt !== started) return; // a newer click took over
      try {
        const s = await window.intercom.stats();
        if (s && s.framesDecoded > 0) { probe.firstFrameAt = performance.now(); return; }
      } catch (e) { /* not yet */ }
      if (performance.now() - started < 30000) setTimeout(poll, 20);
    };
    setTimeout(poll, 0); // after the page's own click handler has created the call
  }, true);
})();
"""

DEVICE_LIST = """
return [...document.querySelectorAll('#devices li[data-user-id]')].map((li) => ({
  id: li.dataset.userId, km: Number(li.dataset.distanceKm),
  title: (li.querySelector('.device-title') || {}).textContent || null,
  meta: (li.querySelector('.device-meta') || {}).textContent || null,
  callable: !!li.querySelector('button.call:not([disabled])'),
}));
"""

STATS_AT = "window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))"

REMOTE_VIDEO = """
const v = document.getElementById('remote-video');
return v ? {width: v.videoWidth, height: v.videoHeight, time: v.currentTime, paused: v.paused,
            visible: !v.closest('[hidden]') && v.getClientRects().length > 0} : null;
"""


def haversine_km(a, b):
    r = math.pi / 180
    dlat = (b["lat"] - a["lat"]) * r
    dlon = (b["lon"] - a["lon"]) * r
    h = math.sin(dlat / 2) ** 2 + math.cos(a["lat"] * r) * math.cos(b["lat"] * r) * math.sin(dlon / 2) ** 2
    return 2 * 6371 * math.asin(min(1, math.sqrt(h)))


class Demo(LoggedProcess):
    """`intercomd demo` with its stdout (the banner) and stderr (the log) collected line by line, its keyboard
    buttons on stdin, and its metrics port."""

    def __init__(self, binary, workdir, label, answer):
        self.directory = os.path.join(workdir, f"demo-{label}")
        os.makedirs(self.directory, exist_ok=True)
        self.metrics_url = f"http://127.0.0.1:{free_port()}"
        super().__init__([binary, "demo", "--port", "0", "--answer", answer, "--video", "test-pattern",
                          "--directory", self.directory, "--metrics", self.metrics_url[len("http://"):],
                          "--call-name", VISITOR["name"]] + demo_server_arguments(), workdir, f"demo-{label}",
                         stdin=subprocess.PIPE)
        self.label = label

    def press(self, key):
        """A button of the demo's simulated GPIO panel: a, A (long accept), h or c, as a user types them."""
        self.process.stdin.write(key + "\n")
        self.process.stdin.flush()

    def metrics(self):
        return scrape_metrics(self.metrics_url + "/metrics")

    def health(self):
        try:
            with urllib.request.urlopen(self.metrics_url + "/health", timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()
        except OSError as e:
            return None, str(e)

    def stop(self):
        """SIGINT, SIGKILL after 10 s. Returns (clean, detail): clean = exit status 0 within 5 s of SIGINT, and
        no error lines in the log."""
        result = super().stop()
        if result is None:
            return None
        clean, detail = result
        if not clean:
            # The shutdown's own account (the agent's "stopped", how long intercom-server took), to tell a slow
            # agent from a slow server.
            detail += f"; last log lines: {' | '.join(self.tail(6))}"
        # The level (and label) before the message: "TIME LEVEL LABEL: message"; a line that is not a log line
        # (a crash report) is searched whole.
        errors = [line for line in self.stderr() if re.search(r"\b(error|critical)\b", line.split(": ")[0])]
        if errors:
            detail += f"; error lines in the log: {' | '.join(errors[-3:])}"
        return clean, detail


def rest_find(base, class_name, where):
    query = urllib.parse.urlencode({"where": json.dumps(where)})
    request = urllib.request.Request(f"{base}/parse/classes/{class_name}?{query}",
                                     headers={"X-Parse-Application-Id": APP_ID})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read()).get("results", [])


def origin(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class Run:
    def __init__(self, binary):
        self.binary = binary
        self.checks = Checks()
        self.workdir = None
        self.demos = []
        self.driver = None
        self.browser = None
        self.outcome_at = None

    # ── helpers ──

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def text_messages(self, demo, b, since):
        """Issue #22 item 1: a message from the page reaches the device (its log line, its counter, the
        acknowledgement the page shows as delivered); the demo's reply key puts its canned reply on the page."""
        status, samples = demo.metrics()
        before = samples.get("intercom_messages_received_total") if status == 200 else None
        b.type("#chat-input", "Parcel for Gate 3, <i>fragile</i>")
        b.click("#chat-send")
        line = demo.wait_line(r"message from Visitor: Parcel for Gate 3, <i>fragile</i>", 5, since)
        self.check("[auto] a message from the page is logged by the device with the caller's name", line,
                   line.group(0) if line else "no 'message from Visitor: …' line within 5 s")
        delivered = wait_for(lambda: b.js("const s = document.querySelector('#chat-list .own .chat-state');"
                                          "return s ? s.textContent : '';") == "delivered", 5, 0.05)
        self.check("[auto] the page shows its message delivered (the device's text-ack)", delivered,
                   repr(b.text("#chat-list")))
        status, samples = demo.metrics()
        after = samples.get("intercom_messages_received_total") if status == 200 else None
        self.check("[auto] /metrics counts the message (intercom_messages_received_total +1)",
                   before is not None and after == before + 1, f"{before} → {after}")
        demo.press("r")
        reply = wait_for(lambda: b.js("const m = [...document.querySelectorAll('#chat-list .theirs .chat-text')].pop();"
                                      "return m ? m.textContent : '';") == "Please leave the parcel at the door", 5, 0.05)
        self.check("[auto] the demo's reply key puts its canned reply on the page, with the device's name", reply
                   and DEVICE_TITLE in (b.text("#chat-list .theirs .chat-from") or ""), repr(b.text("#chat-list")))

    def start_demo(self, label, answer):
        demo = Demo(self.binary, self.workdir, label, answer)
        self.demos.append(demo)
        url = demo.wait_line(r"web caller:\s+(http://\S+)", 30, stdout=True)
        if not self.check(f"[{label}] intercomd demo starts and prints the web caller URL", url,
                          url.group(1) if url else f"no 'web caller:' line on stdout within 30 s (exit status "
                          f"{demo.process.poll()}); stderr: {' | '.join(demo.tail(8))}"):
            return demo, None, None
        ready = demo.wait_line(r"ready: (.*)", 30)
        user = demo.find(r"logged in to the backend userID=(\w+)")
        registered = demo.find(r"registered objectId=")
        self.check(f"[{label}] the device agent logs in, registers its ActiveUsers row and reports ready",
                   ready and user and registered, (ready.group(0) if ready else "no 'ready:' line within 30 s")
                   + (f"; device userID {user.group(1)}" if user else "; no 'userID=' line")
                   + ("" if registered else "; no 'registered' line"))
        if ready and not ready.group(1).startswith("idle"):
            log(f"NOTE [{label}] the ready line reports {ready.group(1)!r} although login and registration "
                "had succeeded (intercomd's status is sampled before the backend state is set)")
        return demo, url.group(1), (user.group(1) if user else None)

    def stop_demo(self, demo):
        result = demo.stop()
        if result is not None:
            clean, detail = result
            self.check(f"[{demo.label}] intercomd demo exits cleanly within 5 s of SIGINT", clean, detail)

    def open_page(self, label, url):
        b = self.browser
        b.open(url)
        loaded = wait_for(b.loaded, 15)
        self.check(f"[{label}] the web caller loads (window.intercom, state idle)", loaded, url)
        user_id = b.sign_in(VISITOR["name"], VISITOR["lat"], VISITOR["lon"])
        self.check(f"[{label}] the page signs in as Visitor", user_id,
                   f"userID {user_id}" if user_id else f"sign-in error {b.text('#signin-error')!r}, status {b.text('#status')!r}")
        return user_id

    def find_device(self, label, device_id, timeout=20):
        b = self.browser

        def listed():
            for item in self.browser.js(DEVICE_LIST) or []:
                if item["title"] == DEVICE_TITLE:
                    return item
            return None

        item = wait_for(listed, timeout)
        if not item:  # the list refreshes itself, but do not wait for the timer
            b.click("#refresh")
            item = wait_for(listed, 10)
        expected = haversine_km(VISITOR, DEVICE)
        ok = bool(item) and item["id"] == device_id and abs(item["km"] - expected) <= 0.05 * expected
        self.check(f"[{label}] the nearby list shows \"{DEVICE_TITLE}\" at a plausible distance", ok,
                   f"{item} (expected userID {device_id}, ≈{expected:.2f} km)" if item else
                   f"not listed; list: {b.js(DEVICE_LIST)}, status {b.text('#status')!r}")
        return item

    def call_button(self, device_id):
        return f'#devices button.call[data-user-id="{device_id}"]'

    def ready_to_call(self, device_id, timeout=15):
        b = self.browser
        if b.visible("#dismiss"):
            b.click("#dismiss")
        css = self.call_button(device_id)
        return wait_for(lambda: b.js("const e = document.querySelector(arguments[0]); return !!e && !e.disabled;", css),
                        timeout)

    def probe(self):
        return self.browser.js("return window.__e2e ? {clickAt: window.__e2e.clickAt, firstFrameAt: "
                               "window.__e2e.firstFrameAt, descriptions: window.__e2e.descriptions, "
                               "times: window.__e2e.times} : null;")

    def phases(self):
        """Milliseconds from the click to the offer arriving, ICE connected, DTLS connected (page side)."""
        p = self.probe() or {}
        times = p.get("times") or {}
        return {k: times[k] - p["clickAt"] for k in ("offer", "ice", "dtls") if times.get(k) and p.get("clickAt")}

    def first_frame_ms(self, timeout):
        p = wait_for(lambda: (lambda p: p if p and p.get("firstFrameAt") else None)(self.probe()), timeout, 0.1)
        if not p:
            return None
        return p["firstFrameAt"] - p["clickAt"]

    def outcome(self, demo, since, timeout):
        match = demo.wait_line(r"call incoming (.+?): (.+?)(?= \w+=|$).*", timeout, since)
        if match:
            self.outcome_at = time.monotonic()
        return match

    def settle(self):
        """Waits until SETTLE_AFTER_CALL has passed since the last logged call outcome."""
        if self.outcome_at is not None:
            time.sleep(max(0.0, self.outcome_at + SETTLE_AFTER_CALL - time.monotonic()))

    def dump(self):
        b = self.browser
        if b:
            log("---- page log (window.intercom.log, last lines) ----")
            for line in b.page_log(30):
                log(f"  {line}")
            log("---- page console ----")
            for line in b.console_log(30):
                log(f"  {line}")
        for demo in self.demos:
            log(f"---- device log ({demo.label}, last lines of stderr) ----")
            for line in demo.tail(40):
                log(f"  {line}")

    # ── scenarios ──

    def auto_answer(self):
        demo, url, device_id = self.start_demo("auto", "auto")
        if not url or not device_id:
            return
        base = origin(url)
        b = self.browser
        if not self.open_page("auto", url):
            return
        if not self.find_device("auto", device_id):
            return

        # Call; the device answers by itself.
        since = demo.mark()
        b.click(self.call_button(device_id))
        seen = []

        def reached():
            s = b.state()
            if not seen or seen[-1] != s:
                seen.append(s)
            return s == "in-call"

        wait_for(reached, 20, 0.05)
        self.check("[auto] the device auto-answers and the page reaches in-call", seen and seen[-1] == "in-call",
                   "page states " + " → ".join(seen) + f"; call status {b.text('#call-status')!r}")
        incoming = demo.find(r"incoming call.*", since)
        self.check("[auto] the device logs the incoming call", incoming, incoming.group(0) if incoming else
                   "no 'incoming call' line")
        probe = self.probe() or {}
        kinds = [f"{d['side']}:{d['type']}" for d in probe.get("descriptions") or []]
        offer = next((d.get("sdp") or "" for d in probe.get("descriptions") or []
                      if d["side"] == "remote" and d["type"] == "offer"), "")
        ok = kinds[:2] == ["remote:offer", "local:answer"] and "VP8/90000" in offer and "opus/48000" in offer
        self.check("[auto] the device sends the SDP offer (VP8 + Opus) and the page answers it", ok,
                   f"descriptions {' → '.join(kinds) or 'none'}; offer has VP8 {'VP8/90000' in offer}, "
                   f"Opus {'opus/48000' in offer}")
        first = self.first_frame_ms(15)
        self.check("[auto] first video frame decoded", first is not None,
                   f"{first:.0f} ms after clicking call" if first is not None else json.dumps(b.stats()))
        if b.state() != "in-call" or first is None:
            return

        time.sleep(1)  # keep the first-keyframe start-up out of the measurement window
        start = b.promise(STATS_AT)
        time.sleep(MEASURE_SECONDS)  # the measurement window itself
        end = b.promise(STATS_AT)
        elapsed = (end["at"] - start["at"]) / 1000
        fps = (end["framesDecoded"] - start["framesDecoded"]) / elapsed
        self.check(f"[auto] video decoded at >= {MIN_FPS:.0f} fps", fps >= MIN_FPS,
                   f"{fps:.1f} fps over {elapsed:.1f} s ({end['framesDecoded']} frames in total, dropped "
                   f"{end.get('framesDropped')}, video packets lost {end.get('videoPacketsLost')})")
        size = (end.get("frameWidth"), end.get("frameHeight"))
        self.check("[auto] video frames are 640x480", size == (640, 480), f"{size[0]}x{size[1]}")
        audio = end["audioPacketsReceived"] - start["audioPacketsReceived"]
        self.check("[auto] audio packets keep arriving", audio > 0,
                   f"{audio} packets in {elapsed:.1f} s ({audio / elapsed:.0f}/s), {end['audioPacketsReceived']} in total, "
                   f"lost {end.get('audioPacketsLost')}, audio level {end.get('audioLevel')}; page sent "
                   f"{end.get('audioPacketsSent')} audio packets")
        video = b.js(REMOTE_VIDEO) or {}
        self.check("[auto] the page shows the remote video (playing, 640x480)",
                   video.get("visible") and not video.get("paused") and video.get("width") == 640
                   and video.get("height") == 480 and video.get("time", 0) > 5, json.dumps(video))
        self.check("[auto] hang-up is offered during the call", b.visible("#hangup") and b.text("#hangup") == "Hang up",
                   f"#hangup visible {b.visible('#hangup')}, text {b.text('#hangup')!r}")
        state = b.js("return [document.body.dataset.remoteAudio, document.body.dataset.remoteVideo];")
        self.check("[auto] the device announces its microphone and camera on (media signal) and the page shows no "
                   "camera-off card", state == ["true", "true"] and not b.visible("#remote-camera-off"),
                   f"page's remote audio/video {state}, camera-off card {b.visible('#remote-camera-off')}")
        b.click("#mute")
        heard = demo.wait_line(r"the other side's microphone is off, its camera on", 5, since)
        self.check("[auto] the page mutes → the device logs the caller's microphone off", heard,
                   heard.group(0) if heard else "no 'the other side's microphone is off' line within 5 s")
        b.click("#mute")
        self.text_messages(demo, b, since)
        b.screenshot(SCREENSHOT)
        log(f"  screenshot: {SCREENSHOT}")
        if DOC_SCREENSHOT:
            os.makedirs(os.path.dirname(DOC_SCREENSHOT), exist_ok=True)
            shutil.copyfile(SCREENSHOT, DOC_SCREENSHOT)
            log(f"  screenshot copied to {DOC_SCREENSHOT}")

        self.open_door(demo)
        self.invite_viewer(demo)

        # Hang up from the page.
        since = demo.mark()
        b.click("#hangup")
        state = b.wait_state(TERMINAL_OR_IDLE, 10)
        self.check("[auto] hanging up returns the page to ended/idle", state in TERMINAL_OR_IDLE,
                   f"state {state}, call status {b.text('#call-status')!r}")
        outcome = self.outcome(demo, since, 15)
        self.check("[auto] the device logs the call's outcome (answered, ended by the page's bye)",
                   outcome and outcome.group(2).startswith("answered") and "bye" in outcome.group(2).lower(),
                   outcome.group(0) if outcome else "no 'call incoming …: <outcome>' line within 15 s")
        media = demo.wait_line(r"call media ended.*", 5, since)
        heard = re.search(r"callerAudioPackets=(\d+)", media.group(0)) if media else None
        self.check("[auto] the device received the page's audio", heard and int(heard.group(1)) > 0,
                   media.group(0) if media else "no 'call media ended' line")
        # Chromium's fake microphone beeps: its packets carry RFC 6464 levels, loud during beeps, quiet between.
        levels = re.search(r"callerAudioLevelPackets=(\d+)", media.group(0)) if media else None
        spoke = re.search(r'callerSpoke="?([\d.]+) s', media.group(0)) if media else None
        audio_packets = int(heard.group(1)) if heard else 0
        spoken = float(spoke.group(1)) if spoke else -1.0
        self.check("[auto] the page's audio packets carry their level (RFC 6464) and the device counts speech in "
                   "them: some, and less than the audio it received",
                   levels and int(levels.group(1)) > 0 and 0 < spoken < audio_packets * 0.02,
                   f"level packets {levels.group(1) if levels else '-'}, spoke {spoken} s, "
                   f"audio packets {audio_packets} (≈ {audio_packets * 0.02:.1f} s)")
        # The same figure reaches the call's outcome line (and with it the visitor log's CallLog row).
        logged = re.search(r'callerSpoke="?([\d.]+) s', outcome.group(0)) if outcome else None
        self.check("[auto] the call's outcome line says how long the caller spoke, as its media measured",
                   logged and spoke and logged.group(1) == spoke.group(1),
                   f"outcome line {logged.group(0) if logged else '-'}, media {spoke.group(0) if spoke else '-'}")
        later = demo.stderr(since)
        trouble = [line for line in later if re.search(r"\b(error|warning)\b", line[:40])]
        self.check("[auto] the device logs no errors or warnings for the call's end", not trouble,
                   " | ".join(trouble[-3:]) or f"{len(later)} log line(s) since the hang-up")
        rows = rest_find(base, "ActiveUsers", {"userID": device_id})
        self.check("[auto] the device's ActiveUsers row is still listed after the call",
                   len(rows) == 1 and rows[0].get("userTitle") == DEVICE_TITLE,
                   json.dumps([{k: r.get(k) for k in ("objectId", "userTitle", "deviceKind", "answerMode")}
                               for r in rows]))
        b.click("#refresh")
        still = wait_for(lambda: any(i["id"] == device_id for i in b.js(DEVICE_LIST) or []), 10)
        self.check("[auto] the page's nearby list still shows the device", still)
        self.scrape_after_call(demo)

        self.benchmark(demo, device_id)
        self.redial(demo, device_id)
        self.answered_calls_counted(demo)
        self.stop_demo(demo)

    def open_door(self, demo):
        """The page asks the device to open its door; the demo wires a simulated relay and logs its pulse."""
        b = self.browser
        since = demo.mark()
        shown = b.visible("#door")
        if shown:
            b.click("#door")
        opened = demo.wait_line(r"door relay energised.*", 5, since)
        released = demo.wait_line(r"door relay released", 5, since)
        self.check("[auto] the page's door button (shown for a device that allows it) pulses the device's door "
                   "relay for 1 s", shown and opened and released,
                   f"#door visible {shown}; " + (f"{opened.group(0)}, then released" if opened and released else
                                                 f"relay energised {bool(opened)}, released {bool(released)}; "
                                                 f"device log since: {' | '.join(demo.stderr(since)[-4:])}"))

    def invite_viewer(self, demo):
        """The page invites a viewer; a second Chromium opens the viewing link and watches the device's video
        (view only, no sign-in) while the call goes on, then stops watching."""
        b = self.browser
        shown = b.visible("#invite")
        if shown:
            b.click("#invite")
        link = wait_for(lambda: b.js("return document.getElementById('invite-link').value;") or None, 10)
        self.check("[auto] in a call with a device the page offers \"Invite a viewer\" and shows a viewing link",
                   shown and link and "#watch=" in link, f"#invite visible {shown}; link {link!r}")
        if not link:
            return
        watcher = WebCallerBrowser(self.driver.url, os.path.join(self.workdir, "watcher-profile"), label="Watcher",
                                   extra_args=[PLAIN_IP_CANDIDATES], window_size="900,1000", browser_log=True)
        try:
            watcher.open(link.split("#")[0] + "#watch=" + link.split("#watch=")[1][:20])
            damaged = wait_for(lambda: watcher.visible("#error") and watcher.text("#error-text"), 10)
            self.check("[auto] a cut-off viewing link is reported on the page, and nothing is joined",
                       damaged and "damaged" in damaged and watcher.state() == "idle",
                       f"banner {damaged!r}, state {watcher.state()}")
            watcher.open(link)
            state = watcher.wait_state("in-call", 20)
            playing = wait_for(lambda: (lambda s: s if s.get("framesDecoded", 0) >= 30 else None)(watcher.stats()), 15)
            title = watcher.text("#call-title")
            signed_in = watcher.js("return document.body.dataset.signedIn;")
            ok = (state == "in-call" and playing and (playing.get("frameWidth"), playing.get("frameHeight")) == (640, 480)
                  and playing.get("audioPacketsSent", 0) == 0 and playing.get("videoPacketsSent", 0) == 0
                  and title == f"Watching {DEVICE_TITLE}" and signed_in == "false")
            self.check("[auto] the viewing link opens the call in a second browser without signing in: it decodes the "
                       "device's 640x480 video and sends nothing", ok,
                       f"state {state}, title {title!r}, signed in {signed_in}, stats "
                       + (json.dumps({k: playing.get(k) for k in ("framesDecoded", "frameWidth", "frameHeight",
                                                                   "audioPacketsSent", "videoPacketsSent")})
                          if playing else json.dumps(watcher.stats())) + f"; page log {watcher.page_log(6)}")
            peers = wait_for(lambda: demo.metrics()[1].get("intercom_media_peers") == 2, 10)
            before = b.stats()["framesDecoded"]
            time.sleep(1)
            caller = b.stats()
            self.check("[auto] the device streams to the viewer as a second media peer while the caller's call goes on",
                       peers and b.state() == "in-call" and caller["framesDecoded"] - before >= 15,
                       f"media peers {demo.metrics()[1].get('intercom_media_peers')}, caller {b.state()}, "
                       f"{caller['framesDecoded'] - before} frames in 1 s")
            stop_text = watcher.text("#hangup")
            watcher.click("#hangup")
            state = watcher.wait_state({"ended", "idle"}, 10)
            peers = wait_for(lambda: demo.metrics()[1].get("intercom_media_peers") == 1, 10)
            time.sleep(1)
            still = b.state()
            self.check("[auto] \"Stop watching\" ends only the viewer: the device drops its peer, the call goes on",
                       stop_text == "Stop watching" and state in {"ended", "idle"} and peers and still == "in-call",
                       f"button {stop_text!r}, viewer {state}, media peers {demo.metrics()[1].get('intercom_media_peers')}, "
                       f"caller {still}")
        finally:
            watcher.quit()

    def scrape_after_call(self, demo):
        status, samples = demo.metrics()
        if status != 200:
            self.check("[auto] /metrics answers", False, f"HTTP {status}: {str(samples)[:200]}")
            return
        answered = samples.get('intercom_calls_total{direction="incoming",outcome="answered",route="webrtc"}')
        first_frames = samples.get("intercom_call_answer_to_first_frame_seconds_count")
        encoded = samples.get("intercom_video_encode_seconds_count")
        sent = samples.get("intercom_media_sent_bytes_total")
        self.check("[auto] /metrics counts the answered call, its answer→first-frame time, the encoded frames and "
                   "the bytes sent", answered == 1 and first_frames == 1 and encoded and encoded > 100
                   and sent and sent > 100_000,
                   f"answered {answered}, answer→first frame count {first_frames} (sum "
                   f"{samples.get('intercom_call_answer_to_first_frame_seconds_sum')} s), frames encoded {encoded}, "
                   f"bytes sent {sent}, peers now {samples.get('intercom_media_peers')}")
        # Right after the outcome the device may still be tearing the media down ("ending call with …").
        seen = []

        def idle():
            code, health = demo.health()
            seen.append((code, health))
            return code == 200 and isinstance(health, dict) and health.get("call") == "idle"

        wait_for(idle, 5, 0.2)
        code, health = seen[-1]
        self.check("[auto] /health is 200 with status ok, registered, and idle within 5 s of the call's end",
                   code == 200 and isinstance(health, dict) and health.get("status") == "ok"
                   and health.get("registered") is True and health.get("call") == "idle",
                   f"HTTP {code}: {health} (first answer: {seen[0][1].get('line') if isinstance(seen[0][1], dict) else seen[0]})")

    def answered_calls_counted(self, demo):
        status, samples = demo.metrics()
        logged = sum(1 for line in demo.stderr() if re.search(r"call incoming .+?: answered", line))
        counted = samples.get('intercom_calls_total{direction="incoming",outcome="answered",route="webrtc"}') if status == 200 else None
        self.check("[auto] /metrics counts exactly the answered calls the device logged", counted == logged,
                   f"intercom_calls_total answered {counted}, outcome lines {logged}")

    def benchmark(self, demo, device_id):
        b = self.browser
        times, problems, phases = [], [], []
        for n in range(1, CALLS + 1):
            if not self.ready_to_call(device_id):
                problems.append(f"call {n}: the call button is not enabled (state {b.state()})")
                break
            self.settle()
            since = demo.mark()
            b.click(self.call_button(device_id))
            ms = self.first_frame_ms(CONNECT_LIMIT)
            state = b.wait_state("in-call", 5) if ms is not None else b.state()
            if n == 1:
                refused = demo.find(r"call incoming .*: unanswered.*", since)
                self.check(f"[auto] the device is back to idle {SETTLE_AFTER_CALL} s after the call's outcome "
                           "(the next call is answered)", state == "in-call" and not refused,
                           refused.group(0) if refused else f"page state {state}")
            if ms is None or ms > CONNECT_LIMIT * 1000 or state != "in-call":
                problems.append(f"call {n}: no first frame within {CONNECT_LIMIT:.0f} s (state {state})"
                                if ms is None else f"call {n}: {ms:.0f} ms, state {state}")
            if ms is not None:
                times.append(ms)
                phases.append(self.phases())
            if b.visible("#hangup"):
                b.click("#hangup")
            state = b.wait_state(TERMINAL_OR_IDLE, 10)
            outcome = self.outcome(demo, since, 10)
            if state not in TERMINAL_OR_IDLE or not outcome:
                problems.append(f"call {n}: after hanging up the page is {state}, device outcome "
                                f"{outcome.group(2) if outcome else 'not logged'}")
            if problems and ms is None:
                break
        self.check(f"[bench] {CALLS} calls in a row each show their first frame within {CONNECT_LIMIT:.0f} s",
                   len(times) == CALLS and not problems,
                   "; ".join(problems) or "all connected, all hung up, every outcome logged by the device")
        if times:
            log(f"BENCH click→first decoded frame over {len(times)} calls: p50 {percentile(times, 50):.0f} ms, "
                f"p95 {percentile(times, 95):.0f} ms (min {min(times):.0f}, max {max(times):.0f}; "
                + ", ".join(f"{t:.0f}" for t in times) + ")")
            medians = {k: percentile([p[k] for p in phases if k in p], 50) for k in ("offer", "ice", "dtls")}
            log(f"BENCH median phases after the click: offer received {medians['offer']:.0f} ms, ICE connected "
                f"{medians['ice']:.0f} ms, DTLS connected {medians['dtls']:.0f} ms, first frame "
                f"{percentile(times, 50):.0f} ms; device setup times (answer→media up): "
                + ", ".join(self.setups(demo)[-len(times):]))

    def setups(self, demo):
        return [m.group(1) for m in (re.search(r'setup="([\d.]{1,5})', line) for line in demo.stderr()) if m]

    def redial(self, demo, device_id):
        """What a user sees who calls again right after hanging up: a call, or at least `busy`, never silence."""
        b = self.browser
        name = (f"[auto] calling again right after hanging up connects, or the page is told busy, "
                f"within {CONNECT_LIMIT:.0f} s")
        self.settle()
        since = demo.mark()
        if not self.ready_to_call(device_id):
            self.check(name, False, f"call button not enabled (state {b.state()})")
            return
        b.click(self.call_button(device_id))
        if b.wait_state("in-call", CONNECT_LIMIT) != "in-call":
            self.check(name, False, f"the first call did not connect (state {b.state()})")
            return
        b.click("#hangup")
        b.wait_state(TERMINAL_OR_IDLE, 10)
        first = self.outcome(demo, since, 10)
        since = demo.mark()
        if not self.ready_to_call(device_id):  # as soon as the page lets the user call again
            self.check(name, False, f"call button not enabled (state {b.state()})")
            return
        gap = time.monotonic() - self.outcome_at if first else float("nan")
        started = time.monotonic()
        b.click(self.call_button(device_id))
        state = b.wait_state({"in-call", "busy", "error", "no-answer", "declined", "ended"}, CONNECT_LIMIT)
        waited = time.monotonic() - started
        outcome = demo.find(r"call incoming .*: .*", since)
        self.check(name, state in {"in-call", "busy"},
                   f"called again {gap:.1f} s after the device logged the previous outcome; page {state} after "
                   f"{waited:.1f} s ({b.text('#call-status')!r}); device: "
                   + (outcome.group(0) if outcome else "no outcome logged yet"))
        if b.visible("#hangup"):
            b.click("#hangup")
        b.wait_state(TERMINAL_OR_IDLE, 10)
        self.outcome(demo, since, 10)

    def button_answer(self):
        demo, url, device_id = self.start_demo("button", "button")
        if not url or not device_id:
            return
        b = self.browser
        if not self.open_page("button", url):
            return
        item = self.find_device("button", device_id)
        if not item:
            return
        since = demo.mark()
        b.click(self.call_button(device_id))
        state = b.wait_state("ringing", 15)
        self.check("[button] the page shows ringing", state == "ringing",
                   f"state {state}, call status {b.text('#call-status')!r}")
        incoming = demo.wait_line(r"incoming call.*", 5, since)
        self.check("[button] the device logs the incoming call", incoming,
                   incoming.group(0) if incoming else "no 'incoming call' line")
        states = set()
        held = time.monotonic()
        while time.monotonic() - held < RING_HOLD:
            states.add(b.state())
            time.sleep(0.25)
        early = self.outcome(demo, since, 0)
        self.check(f"[button] it keeps ringing for {RING_HOLD:.0f} s (nobody presses the button)",
                   states == {"ringing"} and not early,
                   f"page states {sorted(states)}" + (f"; device already logged {early.group(0)}" if early else ""))
        since_hangup = demo.mark()
        b.click("#hangup")
        state = b.wait_state(TERMINAL_OR_IDLE, 10)
        self.check("[button] the page hangs up while ringing and returns to ended/idle", state in TERMINAL_OR_IDLE,
                   f"state {state}, call status {b.text('#call-status')!r}")
        outcome = self.outcome(demo, since_hangup, 15)
        text = outcome.group(2) if outcome else ""
        self.check("[button] the device logs the call as missed (unanswered, the caller gave up)",
                   text.startswith("unanswered") and ("bye" in text.lower() or "left" in text.lower()
                                                      or "cancel" in text.lower()),
                   outcome.group(0) if outcome else "no 'call incoming …: <outcome>' line within 15 s")
        self.accept_button(demo, device_id)
        self.call_button_rings_page(demo)
        self.stop_demo(demo)

    def accept_button(self, demo, device_id):
        b = self.browser
        self.settle()
        if not self.ready_to_call(device_id):
            self.check("[button] the accept button answers a ringing call", False,
                       f"call button not enabled (state {b.state()})")
            return
        since = demo.mark()
        b.click(self.call_button(device_id))
        ringing = b.wait_state("ringing", 15)
        time.sleep(1.0)  # a second of ringing, so ring→answer is visibly the button's doing
        demo.press("a")
        state = b.wait_state("in-call", 15)
        first = self.first_frame_ms(10)
        pressed = demo.wait_line(r"button accept: press", 2, since)
        self.check("[button] the accept button (simulated GPIO line) answers the ringing call: the page reaches "
                   "in-call and decodes video", ringing == "ringing" and state == "in-call" and first is not None
                   and pressed, f"page {ringing} → {state}; first frame "
                   + (f"{first:.0f} ms after the click" if first is not None else "never")
                   + f"; device {'logged' if pressed else 'did not log'} the press")
        offers = sum(1 for d in (self.probe() or {}).get("descriptions") or []
                     if d["side"] == "remote" and d["type"] == "offer")
        demo.press("a")  # a second press during the call
        time.sleep(1.5)
        again = sum(1 for d in (self.probe() or {}).get("descriptions") or []
                    if d["side"] == "remote" and d["type"] == "offer")
        early = self.outcome(demo, since, 0)
        self.check("[button] one offer for the answer, and a second accept press during the call changes nothing",
                   offers == 1 and again == 1 and b.state() == "in-call" and not early,
                   f"offers {offers} then {again}, page {b.state()}" + (f"; device logged {early.group(0)}" if early else ""))
        demo.press("h")
        state = b.wait_state(TERMINAL_OR_IDLE, 10)
        outcome = self.outcome(demo, since, 10)
        text = outcome.group(0) if outcome else ""
        ring = re.search(r'ringToAnswer="([\d.]+) seconds"', text)
        self.check("[button] the hangup button ends the call: the page ends, the device logs it answered and "
                   "ended by its hangup, ring→answer ≥ 1 s", state in TERMINAL_OR_IDLE
                   and "answered" in text and "localHangup" in text and ring and float(ring.group(1)) >= 1.0,
                   f"page {state} ({b.text('#call-status')!r}); device: {text or 'no outcome line'}")

    def call_button_rings_page(self, demo):
        """The device's call button calls "Visitor" (demo --call-name): the page rings, accepts, sees video."""
        b = self.browser
        self.settle()
        if b.visible("#dismiss"):
            b.click("#dismiss")
        since = demo.mark()
        demo.press("c")
        state = b.wait_state("incoming", 15)
        title = b.text("#incoming-title")
        self.check("[button] the device's call button makes the page ring with the device's name",
                   state == "incoming" and title == DEVICE_TITLE,
                   f"page state {state}, incoming title {title!r}; device: "
                   + " | ".join(line for line in demo.stderr(since)[-4:]))
        if state != "incoming":
            return
        b.click("#accept")
        state = b.wait_state("in-call", 15)
        frames = wait_for(lambda: (b.stats() or {}).get("framesDecoded", 0) > 10, 10)
        self.check("[button] the page accepts the device's call and decodes its video", state == "in-call" and frames,
                   f"page state {state}, stats {json.dumps({k: (b.stats() or {}).get(k) for k in ('framesDecoded', 'audioPacketsReceived')})}")
        b.click("#hangup")
        state = b.wait_state(TERMINAL_OR_IDLE, 10)
        outcome = demo.wait_line(r"call outgoing (.+?): (.+?)(?= \w+=|$).*", 15, since)
        self.check("[button] hanging up on the page ends it; the device logs its outgoing call as answered",
                   state in TERMINAL_OR_IDLE and outcome and outcome.group(1) == VISITOR["name"]
                   and outcome.group(2).startswith("answered"),
                   f"page {state}; device: {outcome.group(0) if outcome else 'no call outgoing outcome line'}")
        if outcome:
            self.outcome_at = time.monotonic()

    def run(self):
        missing = []
        if not (os.path.isfile(self.binary) and os.access(self.binary, os.X_OK)):
            missing.append(f"intercomd not found or not executable at {self.binary} (build it with `swift build "
                           "--product intercomd`, or pass its path / set INTERCOMD_BIN)")
        missing += missing_browser()
        if missing:
            for problem in missing:
                self.check("prerequisites", False, problem)
            return self.checks
        self.workdir = tempfile.mkdtemp(prefix="intercom-e2e-")
        try:
            self.driver = ChromeDriver(self.workdir)
            if not self.check("chromedriver starts", self.driver.ready, self.driver.url):
                return self.checks
            self.browser = WebCallerBrowser(self.driver.url, os.path.join(self.workdir, "profile"), label="Visitor",
                                            extra_args=[PLAIN_IP_CANDIDATES], window_size="900,1000",
                                            browser_log=True)
            self.browser.add_script_on_new_document(PAGE_PROBE)
            self.auto_answer()
            self.button_answer()
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure with its reason, never a skip
            self.check("e2e harness", False, f"{type(e).__name__}: {e}")
        finally:
            if self.checks.failed:
                try:
                    self.dump()
                except Exception as e:  # noqa: BLE001
                    log(f"(could not collect diagnostics: {e})")
            for demo in self.demos:
                self.stop_demo(demo)  # a no-op for the ones already stopped
            if self.browser:
                self.browser.quit()
            if self.driver:
                self.driver.stop()
            if os.environ.get("E2E_KEEP") == "1" or self.checks.failed:
                log(f"  logs kept in {self.workdir}")
            else:
                shutil.rmtree(self.workdir, ignore_errors=True)
        return self.checks


def main():
    binary = (sys.argv[1] if len(sys.argv) > 1 else None) or os.environ.get("INTERCOMD_BIN") \
        or os.path.join(REPO, ".build", "debug", "intercomd")
    binary = os.path.abspath(binary)
    log(f"intercomd demo end-to-end test: intercomd {binary}")
    checks = Run(binary).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
