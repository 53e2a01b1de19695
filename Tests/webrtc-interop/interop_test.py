#!/usr/bin/env python3
"""WebRTC interop: the device's own PeerConnection (intercom-dev webrtc-send) streaming to real Chromium.

Starts `intercom-server` on a free loopback port and `intercom-dev webrtc-send` against it, serves
caller.html from a local http.server, and drives headless Chromium through chromedriver's W3C WebDriver
HTTP API (urllib only). The page signs in anonymously, creates the ActiveSessions row to the device's
userID, joins the signaling room with the subscriber token and offers recvonly video + sendrecv audio;
the device answers and streams VP8 640x480@30 and a 440 Hz Opus tone. The test then reads getStats over
10 s and checks the decoded frame rate and size, that audio packets keep arriving with little concealment,
and that the device received and decoded the browser's audio.

Prints one PASS/FAIL line per check and a final `N passed, M failed`; exits non-zero on any failure.

Usage: interop_test.py [--server BIN] [--intercomd BIN] [--dev BIN]
  Binaries default to $INTERCOM_SERVER_BIN / $INTERCOMD_BIN / $INTERCOM_DEV_BIN, then the debug build; intercom-dev
  (which runs webrtc-send, the device side here) defaults to the one next to --intercomd.
Environment: CHROMIUM_BIN (default /usr/bin/chromium), CHROMEDRIVER_BIN (default /usr/bin/chromedriver),
  INTEROP_KEEP=1 keeps the temporary directory (logs of both processes).
"""

import argparse
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webdriver  # noqa: E402
from webdriver import CHROMEDRIVER, CHROMIUM, PLAIN_IP_CANDIDATES, Checks, ChromeDriver, log  # noqa: E402

MEASURE_SECONDS = 10
MIN_FPS = 25.0
MAX_CONCEALMENT = 0.02


# Polls a little faster than the shared default.
wait_for = functools.partial(webdriver.wait_for, interval=0.2)


class ProcessLog:
    """A child process whose stdout+stderr lines are collected by a thread (and written to a file)."""

    def __init__(self, argv, path, cwd=None):
        self.lines = []
        self.lock = threading.Lock()
        self.file = open(path, "w", encoding="utf-8")
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                                        text=True, bufsize=1)
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def _pump(self):
        for line in self.process.stdout:
            with self.lock:
                self.lines.append(line.rstrip("\n"))
            self.file.write(line)
            self.file.flush()

    def snapshot(self):
        with self.lock:
            return list(self.lines)

    def find(self, pattern):
        regex = re.compile(pattern)
        for line in self.snapshot():
            match = regex.search(line)
            if match:
                return match
        return None

    def stop(self, grace=5):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.thread.join(2)
        self.file.close()


class Browser(webdriver.Browser):
    """Headless Chromium on caller.html (window.caller), with plain IP host candidates."""

    def __init__(self, driver_url, profile_dir):
        # Real host candidates instead of mDNS names (libnice 0.1.21 cannot resolve `.local`).
        super().__init__(driver_url, profile_dir, extra_args=[PLAIN_IP_CANDIDATES])

    def stats(self):
        return self.promise("window.caller.stats()")


def serve_directory(directory):
    """A background http.server for caller.html; returns (server, base URL)."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=directory, **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def prerequisites(args):
    missing = []
    for label, path in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER),
                        ("intercom-server", args.server), ("intercom-dev", args.dev)):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            missing.append(f"{label} not found or not executable at {path}")
    return missing


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=os.environ.get(
        "INTERCOM_SERVER_BIN", os.path.join(REPO, ".build", "debug", "intercom-server")))
    parser.add_argument("--intercomd", default=os.environ.get(
        "INTERCOMD_BIN", os.path.join(REPO, ".build", "debug", "intercomd")))
    parser.add_argument("--dev", default=os.environ.get("INTERCOM_DEV_BIN"),
                        help="intercom-dev (default: next to --intercomd)")
    args = parser.parse_args()
    if not args.dev:
        args.dev = os.path.join(os.path.dirname(os.path.abspath(args.intercomd)), "intercom-dev")
    checks = Checks()
    missing = prerequisites(args)
    if missing:
        for problem in missing:
            checks.check("prerequisites", False, problem)
        log(f"{checks.passed} passed, {checks.failed} failed")
        return 1

    work = tempfile.mkdtemp(prefix="webrtc-interop-")
    processes = []
    driver = None
    browser = None
    web = None
    try:
        server = ProcessLog([args.server, "--listen", "127.0.0.1:0", "--database", os.path.join(work, "server.sqlite")],
                            os.path.join(work, "server.log"), cwd=work)
        processes.append(server)
        listening = wait_for(lambda: server.find(r"listening on ([\d.]+):(\d+)"), 30)
        if not checks.check("intercom-server starts", listening, listening.group(0) if listening else "no listening line"):
            return 1
        parse_url = f"http://{listening.group(1)}:{listening.group(2)}/parse"

        device = ProcessLog([args.dev, "webrtc-send", "--server", parse_url, "--seconds", "30", "--wait", "90"],
                            os.path.join(work, "device.log"))
        processes.append(device)
        user = wait_for(lambda: device.find(r"userID (\w+)"), 30)
        if not checks.check("device logs in anonymously", user, f"userID {user.group(1)}" if user else
                            "no userID line: " + " | ".join(device.snapshot()[-5:])):
            return 1
        device_id = user.group(1)

        driver = ChromeDriver(work)
        browser = Browser(driver.url, os.path.join(work, "profile"))
        web, page_base = serve_directory(HERE)
        browser.open(page_base + "/caller.html")
        browser.js("window.caller.start(arguments[0], arguments[1]);", parse_url, device_id)

        row = wait_for(lambda: browser.js("return window.caller.rowCreated === true || window.caller.error;"), 20)
        checks.check("page signs in and creates the call row", row is True, "" if row is True else str(row))
        answered = wait_for(lambda: browser.js("return window.caller.answerSDP ? window.caller.answerSDP : window.caller.error;"), 30)
        answer_ok = isinstance(answered, str) and answered.startswith("v=0")
        checks.check("device answers the offer", answer_ok, "" if answer_ok else str(answered))
        if answer_ok:
            sdp = answered
            wanted = ["a=group:BUNDLE", "a=rtcp-mux", "a=setup:active", "a=fingerprint:sha-256", "VP8/90000",
                      "opus/48000/2", "useinbandfec=1", "a=rtcp-fb:", "nack pli", "goog-remb", "a=sendonly", "a=sendrecv",
                      "a=msid:"]
            absent = [w for w in wanted if w not in sdp]
            checks.check("answer carries BUNDLE, rtcp-mux, setup, fingerprint, VP8 feedback, Opus FEC, directions",
                         not absent, "missing " + ", ".join(absent) if absent else "")

        connected = wait_for(lambda: browser.stats().get("connection") == "connected", 30)
        state = browser.stats()
        checks.check("Chromium's RTCPeerConnection reaches connected", connected,
                     f"connectionState {state.get('connection')}, page state {state.get('state')}, error {state.get('error')}")
        first = wait_for(lambda: (lambda s: s if s.get("video", {}).get("framesDecoded", 0) > 0 else None)(browser.stats()), 20)
        if not checks.check("first video frame decoded", first, "" if first else json.dumps(browser.stats())):
            return 1
        time.sleep(1)  # let the first-keyframe start-up settle out of the measurement window
        start = browser.stats()
        time.sleep(MEASURE_SECONDS)  # the measurement window itself, not a synchronisation
        end = browser.stats()
        elapsed = (end["at"] - start["at"]) / 1000
        video_start, video_end = start.get("video", {}), end.get("video", {})
        fps = (video_end.get("framesDecoded", 0) - video_start.get("framesDecoded", 0)) / elapsed
        checks.check(f"video decoded at >= {MIN_FPS:.0f} fps", fps >= MIN_FPS,
                     f"{fps:.1f} fps over {elapsed:.1f} s ({video_end.get('framesDecoded')} frames total, "
                     f"lost {video_end.get('packetsLost')}, nack {video_end.get('nackCount')}, pli {video_end.get('pliCount')}, "
                     f"decoder {video_end.get('decoder')})")
        size = (video_end.get("frameWidth"), video_end.get("frameHeight"))
        checks.check("video is 640x480", size == (640, 480), f"{size[0]}x{size[1]}")
        codecs = ",".join(sorted(set((end.get("codecs") or {}).values())))
        checks.check("codecs are VP8 and Opus", "video/VP8" in codecs and "audio/opus" in codecs, codecs)

        audio_start, audio_end = start.get("audio", {}), end.get("audio", {})
        packets = audio_end.get("packetsReceived", 0) - audio_start.get("packetsReceived", 0)
        checks.check("audio packets keep arriving (>= 40/s)", packets >= 40 * elapsed,
                     f"{packets} packets in {elapsed:.1f} s, lost {audio_end.get('packetsLost')}")
        samples = audio_end.get("totalSamplesReceived", 0) - audio_start.get("totalSamplesReceived", 0)
        concealed = audio_end.get("concealedSamples", 0) - audio_start.get("concealedSamples", 0)
        ratio = concealed / samples if samples else 1.0
        checks.check(f"audio concealment <= {MAX_CONCEALMENT:.0%}", samples > 0 and ratio <= MAX_CONCEALMENT,
                     f"{concealed} of {samples} samples concealed ({ratio:.2%}), level {audio_end.get('audioLevel', 0):.3f}")
        checks.check("Chromium gets RTCP sender reports", (end.get("remoteOutbound") or 0) >= 1,
                     f"{end.get('remoteOutbound') or 0} remote-outbound-rtp entries")

        status = device.snapshot()
        last = [line for line in status if " t=" in line][-1:] or ["(none)"]
        audio_in = [int(m.group(1)) for m in (re.search(r"audio_in_pkts=(\d+)", line) for line in status) if m]
        levels = [float(m.group(1)) for m in (re.search(r"audio_in_level=(-?[\d.]+)dBFS", line) for line in status) if m]
        checks.check("device receives and decodes the browser's audio",
                     audio_in and audio_in[-1] > 100 and levels and max(levels) > -60,
                     f"{audio_in[-1] if audio_in else 0} packets, peak level {max(levels) if levels else -120:.1f} dBFS")
        checks.check("device status reports Chromium's receiver reports", "rr_video_loss=" in last[0], last[0])

        browser.js("window.caller.hangUp();")
        exited = wait_for(lambda: device.process.poll() is not None, 20)
        ended = device.find(r"ended: (.*)")
        checks.check("device ends the call cleanly on bye", exited and device.process.returncode == 0,
                     f"exit {device.process.returncode}, {ended.group(1) if ended else 'no end line'}")
    except Exception as e:  # noqa: BLE001 - any crash of the harness is a failed check, never a skip
        checks.check("interop harness", False, f"{type(e).__name__}: {e}")
    finally:
        if browser:
            try:
                for line in browser.js("return window.caller.log();")[-12:]:
                    log(f"  page: {line}")
            except Exception:  # noqa: BLE001
                pass
            browser.close()
        if web:
            web.shutdown()
        if driver:
            driver.stop()
        for process in reversed(processes):
            process.stop()
        for line in (processes[1].snapshot()[-6:] if len(processes) > 1 else []):
            log(f"  device: {line}")
        if os.environ.get("INTEROP_KEEP") == "1":
            log(f"  logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    log(f"{checks.passed} passed, {checks.failed} failed")
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
