"""Shared helpers for the Python tests that place calls from the web caller page to a device agent.

Stdlib only. Used by Tests/soak, Tests/turn and Tests/viewers; the same pieces as in Tests/e2e/demo_call_test.py,
kept here so that a new test imports them instead of copying them.

Import it from a test with:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    import calls

Contents:
  percentile                 p-th percentile, linear interpolation between closest ranks (numpy's default)
  LoggedProcess              a child process whose stdout and stderr lines are collected (and written to files)
  OUTCOME                    regex of the device's one outcome line per call (`call incoming Visitor: answered(…) …`)
  PC_PROBE, PAIR_STATS       page script keeping the RTCPeerConnection; getStats' selected candidate pair
  CALL_PROBE                 page script timing each call from the click on a call button to its first decoded frame
  call_button, wait_callable, probe, first_frame
                             drive a WebCallerBrowser (Tests/support/webdriver.py) through calls
  start_intercom_server      intercom-server on a free loopback port with its own database
  write_agent_config, agent_environment
                             an `intercomd run` config (auto answer, test pattern and tone) and its environment
  binary_arguments, keep_or_remove
                             --server/--intercomd with their defaults; keep a failed test's logs, else remove them
  demo_server_arguments      `--server $INTERCOM_SERVER_BIN` for `intercomd demo` (e2e, loss) when that is set
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request

from webdriver import log, wait_for

# intercomd's outcome line for a call the device received: group 1 the caller, group 2 the outcome
# (`answered(…)`, `unanswered(…)`…), without the `session=… setup=…` metadata that follows it.
OUTCOME = r"call incoming (.+?): (.+?)(?= \w+=|$).*"

# Installed before the page's own scripts (WebCallerBrowser.add_script_on_new_document). From the
# capture-phase click on a call button, polls window.intercom.stats() every 20 ms inside the page (so
# WebDriver round trips do not count) and records, in performance.now() milliseconds: clickAt, firstFrameAt
# (the first stats with framesDecoded > 0) and the page's own phase timings at that moment (stats().timings,
# e.g. rowCreated: the ActiveSessions row exists, from Sources/IntercomServer/WebCaller/call.js).
CALL_PROBE = r"""
(() => {
  const probe = window.__callProbe = { clickAt: null, firstFrameAt: null, timings: {}, calls: 0 };
  document.addEventListener('click', (event) => {
    if (!event.target || !event.target.closest || !event.target.closest('button.call')) return;
    const started = performance.now();
    probe.clickAt = started; probe.firstFrameAt = null; probe.timings = {}; probe.calls += 1;
    const poll = async () => {
      if (probe.clickAt !== started) return; // a newer click took over
      try {
        const s = await window.intercom.stats();
        if (s && s.framesDecoded > 0) {
          probe.firstFrameAt = performance.now();
          probe.timings = s.timings || {};
          return;
        }
      } catch (e) { /* not yet */ }
      if (performance.now() - started < 30000) setTimeout(poll, 20);
    };
    setTimeout(poll, 0); // after the page's own click handler has created the call
  }, true);
})();
"""


# Installed before the page's scripts (Tests/turn, Tests/networks): keeps the page's RTCPeerConnection and the configuration it was built
# with, so the test can read the ICE servers it got and getStats' selected candidate pair.
PC_PROBE = r"""
(() => {
  const Native = window.RTCPeerConnection;
  window.__turnProbe = { pc: null, config: null, candidates: [] };
  window.RTCPeerConnection = function (config, ...rest) {
    const pc = new Native(config, ...rest);
    const probe = { pc, config: JSON.parse(JSON.stringify(config || {})), candidates: [] };
    pc.addEventListener('icecandidate', (e) => { if (e.candidate) probe.candidates.push(e.candidate.candidate); });
    window.__turnProbe = probe;
    return pc;
  };
  window.RTCPeerConnection.prototype = Native.prototype;
  Object.setPrototypeOf(window.RTCPeerConnection, Native);
})();
"""

# The selected pair (through the transport's selectedCandidatePairId) and every candidate getStats knows.
PAIR_STATS = r"""
(async () => {
  const pc = window.__turnProbe && window.__turnProbe.pc;
  if (!pc) return { error: 'no RTCPeerConnection' };
  const report = await pc.getStats();
  const byId = {}; report.forEach((s) => { byId[s.id] = s; });
  const out = { iceConnectionState: pc.iceConnectionState, connectionState: pc.connectionState,
                local: [], remote: [], pair: null };
  report.forEach((s) => {
    if (s.type === 'local-candidate') out.local.push(s.candidateType);
    if (s.type === 'remote-candidate') out.remote.push(s.candidateType);
    if (s.type === 'transport' && s.selectedCandidatePairId && byId[s.selectedCandidatePairId]) {
      const p = byId[s.selectedCandidatePairId];
      const l = byId[p.localCandidateId] || {}, r = byId[p.remoteCandidateId] || {};
      out.pair = { state: p.state, local: l.candidateType, remote: r.candidateType,
                   localAddress: `${l.address}:${l.port}`, remoteAddress: `${r.address}:${r.port}`,
                   relayProtocol: l.relayProtocol || null, bytesSent: p.bytesSent, bytesReceived: p.bytesReceived };
    }
  });
  return out;
})()
"""


# Reads the timestamp band of every frame the remote <video> presents. Cells: 16x16 px, 40 per row at 640 px,
# 64 cells (48-bit value then CRC-16/CCITT-FALSE over its 6 bytes, big-endian); only each cell's central 8x8.
G2G_READER = r"""
(() => {
  if (window.__g2g) { window.__g2g.samples = []; window.__g2g.misreads = 0; return; }
  const g = window.__g2g = { samples: [], misreads: 0,
                             timeOriginDrift: Date.now() - (performance.timeOrigin + performance.now()) };
  const v = document.getElementById('remote-video');
  const canvas = document.createElement('canvas');
  canvas.width = 640; canvas.height = 32;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const crc16 = (value) => {
    let crc = 0xFFFF;
    for (let i = 5; i >= 0; i--) {
      crc ^= Number((value >> BigInt(i * 8)) & 0xFFn) << 8;
      for (let b = 0; b < 8; b++) crc = (crc & 0x8000) ? ((crc << 1) ^ 0x1021) & 0xFFFF : (crc << 1) & 0xFFFF;
    }
    return crc;
  };
  const onFrame = (now, meta) => {
    try {
      if (v.videoWidth === 640) {
        ctx.drawImage(v, 0, 0, 640, 32, 0, 0, 640, 32);
        const px = ctx.getImageData(0, 0, 640, 32).data;
        let value = 0n, checksum = 0;
        for (let cell = 0; cell < 64; cell++) {
          const top = Math.floor(cell / 40) * 16 + 4, left = (cell % 40) * 16 + 4;
          let sum = 0;
          for (let y = top; y < top + 8; y++) for (let x = left; x < left + 8; x++) {
            const i = (y * 640 + x) * 4; sum += px[i] + px[i + 1] + px[i + 2];
          }
          const bit = sum / (64 * 3) > 127 ? 1 : 0;
          if (cell < 48) value = (value << 1n) | BigInt(bit); else checksum = (checksum << 1) | bit;
        }
        if (crc16(value) === checksum) {
          // The band holds the sender's CLOCK_REALTIME. Date.now() reads the same clock here; the frame's
          // expected display time is on the page's monotonic timeline, so it is placed on the wall clock by
          // its distance from now. (performance.timeOrigin + expectedDisplayTime would use the wall clock of
          // the page's start, which drifts from the system's: that gave minima below zero.)
          const shownAt = Date.now() - (performance.now() - meta.expectedDisplayTime);
          g.samples.push(shownAt - Number(value));
        } else {
          g.misreads++;
        }
      }
    } catch (e) { g.misreads++; }
    v.requestVideoFrameCallback(onFrame);
  };
  v.requestVideoFrameCallback(onFrame);
})();
"""


def percentile(values, p):
    """Linear interpolation between closest ranks (like numpy's default); nan for no values."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def split_measurements(samples):
    """(latencies, measurement errors): a frame that reads as shown before its stamp was taken cannot be a
    latency; it is an error in the method (the two clocks disagree) and is reported as one."""
    return [s for s in samples if s >= 0], [s for s in samples if s < 0]


def latency_figures(samples):
    if not samples:
        return "no readable frames"
    return (f"p50 {percentile(samples, 50):.0f} ms, p95 {percentile(samples, 95):.0f} ms "
            f"(min {min(samples):.0f}, max {max(samples):.0f}, {len(samples)} frames)")


class LoggedProcess:
    """A child process with its stdout and stderr collected line by line, each also written to
    <workdir>/<label>.stdout and <label>.stderr. `mark()` + `find(pattern, since)` look at stderr lines
    logged after a point; `wait_line` polls for one."""

    def __init__(self, argv, workdir, label, env=None, cwd=None, stdin=None):
        self.label = label
        self.argv = argv
        self.out, self.err = [], []
        self.lock = threading.Lock()
        self.stopped = False
        self.process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        cwd=cwd or workdir, env=env, text=True, bufsize=1, errors="replace")
        self.pid = self.process.pid
        self.threads = [
            threading.Thread(target=self._pump, args=(self.process.stdout, self.out,
                                                      os.path.join(workdir, f"{label}.stdout")), daemon=True),
            threading.Thread(target=self._pump, args=(self.process.stderr, self.err,
                                                      os.path.join(workdir, f"{label}.stderr")), daemon=True),
        ]
        for t in self.threads:
            t.start()

    def _pump(self, stream, lines, path):
        with open(path, "w", encoding="utf-8") as f:
            for line in stream:
                with self.lock:
                    lines.append(line.rstrip("\n"))
                f.write(line)
                f.flush()

    def stderr(self, since=0):
        with self.lock:
            return self.err[since:]

    def mark(self):
        with self.lock:
            return len(self.err)

    def find(self, pattern, since=0, stdout=False):
        regex = re.compile(pattern)
        with self.lock:
            lines = list(self.out if stdout else self.err[since:])
        for line in lines:
            match = regex.search(line)
            if match:
                return match
        return None

    def find_all(self, pattern, since=0, stdout=False):
        regex = re.compile(pattern)
        with self.lock:
            lines = list(self.out if stdout else self.err[since:])
        return [m for m in (regex.search(line) for line in lines) if m]

    def wait_line(self, pattern, timeout, since=0, stdout=False, interval=0.05):
        return wait_for(lambda: self.find(pattern, since, stdout), timeout, interval)

    def tail(self, lines=40, stdout=False):
        with self.lock:
            return list((self.out if stdout else self.err)[-lines:])

    def stop(self, sig=signal.SIGINT, clean_within=5, kill_after=10):
        """Sends `sig`, SIGKILL after `kill_after` s. Returns (clean, detail), clean = exit status 0 within
        `clean_within` s; None if already stopped."""
        if self.stopped:
            return None
        self.stopped = True
        if self.process.poll() is not None:
            clean, detail = False, f"exited by itself with status {self.process.returncode}"
        else:
            started = time.monotonic()
            self.process.send_signal(sig)
            try:
                self.process.wait(kill_after)
                took = time.monotonic() - started
                code = self.process.returncode
                clean = took <= clean_within and code == 0
                detail = f"exit status {code} {took:.1f} s after {signal.Signals(sig).name}"
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                clean = False
                detail = f"still running {kill_after} s after {signal.Signals(sig).name}: killed with SIGKILL"
        for t in self.threads:
            t.join(3)
        return clean, detail


def call_button(user_id):
    """CSS of the call button of a device in the page's nearby list."""
    return f'#devices button.call[data-user-id="{user_id}"]'


def wait_callable(browser, user_id, timeout=15):
    """Dismisses the last call's banner if shown and waits until the device's call button is enabled."""
    if browser.visible("#dismiss"):
        browser.click("#dismiss")
    css = call_button(user_id)
    return wait_for(lambda: browser.js("const e = document.querySelector(arguments[0]); return !!e && !e.disabled;",
                                       css), timeout, 0.05)


def probe(browser):
    """CALL_PROBE's record of the last click (None before the probe is installed)."""
    return browser.js("return window.__callProbe ? {clickAt: window.__callProbe.clickAt, firstFrameAt: "
                      "window.__callProbe.firstFrameAt, timings: window.__callProbe.timings, "
                      "calls: window.__callProbe.calls} : null;")


def first_frame(browser, timeout):
    """Waits for the last clicked call's first decoded frame. Returns the probe record, whose clickAt,
    firstFrameAt and timings.* are page milliseconds; None if no frame was decoded within `timeout`."""
    return wait_for(lambda: (lambda p: p if p and p.get("firstFrameAt") else None)(probe(browser)), timeout, 0.05)


def start_intercom_server(server_bin, workdir, label="server", env=None, listen="127.0.0.1:0", prefix=()):
    """`intercom-server --listen 127.0.0.1:0` (or `listen`, e.g. `[fd00::1]:8080`) with its own database in
    `workdir`; `prefix` goes before the binary (e.g. `ip netns exec NAME`, Tests/support/topology.py). Returns
    (LoggedProcess, base URL or None, the `listening on` line or the log's tail): the caller turns the last
    into a check."""
    server = LoggedProcess([*prefix, server_bin, "--listen", listen, "--database",
                            os.path.join(workdir, f"{label}.sqlite"), "--log-level", "warning"],
                           workdir, label, env=env)
    listening = server.wait_line(r"listening on (\S+):(\d+)", 30, stdout=True)
    if not listening:
        return server, None, "no 'listening on' line within 30 s: " + " | ".join(server.tail(5))
    host = listening.group(1)
    host = f"[{host}]" if ":" in host else host
    return server, f"http://{host}:{listening.group(2)}", listening.group(0)


def write_agent_config(path, base, title, latitude, longitude, state, metrics_port, call="", logging="",
                       answer="auto", extra=""):
    """An `intercomd run` config for tests: auto answer (or `answer`), the test pattern, the test tone, a null
    speaker, metrics on `metrics_port`, state in `state` (created). `call` and `logging` add lines to those
    sections; `extra` adds whole sections at the end (e.g. `[visits]`)."""
    os.makedirs(state, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'[identity]\ntitle = "{title}"\nlatitude = {latitude}\nlongitude = {longitude}\n\n'
                f'[backend]\nserver_url = "{base}/parse"\n\n[call]\nanswer = "{answer}"\n{call}\n'
                f'[video]\nsource = "test-pattern"\n\n[audio]\ncapture = "tone"\nplayback = "null"\n\n'
                f'[metrics]\nlisten = "127.0.0.1:{metrics_port}"\n\n[logging]\n{logging}\n'
                f'[state]\ndirectory = "{state}"\n{extra}')
    return path


def agent_environment():
    """The test's environment without what would redirect intercomd (systemd's socket, a config path)."""
    return {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "INTERCOM_CONFIG")}


def binary_arguments(description):
    """Parses --server and --intercomd (defaults $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, then the debug build
    in this checkout); returns both as absolute paths."""
    repo = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--server", default=os.environ.get(
        "INTERCOM_SERVER_BIN", os.path.join(repo, ".build", "debug", "intercom-server")))
    parser.add_argument("--intercomd", default=os.environ.get(
        "INTERCOMD_BIN", os.path.join(repo, ".build", "debug", "intercomd")))
    args = parser.parse_args()
    return os.path.abspath(args.server), os.path.abspath(args.intercomd)


def demo_server_arguments():
    """`--server PATH` for `intercomd demo` when $INTERCOM_SERVER_BIN names the intercom-server to use."""
    server = os.environ.get("INTERCOM_SERVER_BIN")
    return ["--server", os.path.abspath(server)] if server else []


def keep_or_remove(workdir, keep_variable, failed):
    """Keeps a test's temporary directory (its process logs) when it failed or `keep_variable`=1, else removes it."""
    if os.environ.get(keep_variable) == "1" or failed:
        log(f"  logs kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)


def scrape_metrics(url):
    """Prometheus text → {"name{labels}": value}; (status, body) for anything that is not a 200."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            body = response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
    samples = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return 200, samples
