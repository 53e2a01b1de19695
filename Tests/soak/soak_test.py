#!/usr/bin/env python3
"""Soak and first-frame benchmark: 200 calls from the web caller in headless Chromium to one `intercomd run`.

Starts `intercom-server --listen 127.0.0.1:0` (its own database) and `intercomd run --config FILE` as a
process of its own (auto answer, test-pattern video, state in a temporary directory), so that the memory and
file descriptors measured are the agent's alone. One headless Chromium page (chromedriver, the shared
stdlib-only client in Tests/support/webdriver.py) opens the web caller served by intercom-server, signs in
near the device and, for each of SOAK_CALLS calls (default 200), back to back: clicks the device's call
button, waits for the first decoded video frame, hangs up, and waits for the device's outcome line
(`call incoming Soak caller: answered(…)`), which it logs once the call's media is stopped, just as it goes
back to idle; SOAK_SETTLE later it places the next call (a call refused as busy is a failure).

  benchmark  over the first SOAK_BENCH_CALLS calls (default 50): the time from the ActiveSessions row's
             creation in the page (stats().timings.rowCreated, Sources/IntercomServer/WebCaller/call.js) to
             the first decoded frame, and from the click to it; BENCH lines with p50/p95/min/max; target
             p50 < 500 ms; and from the device's SDP offer arriving in the page (timings.offerReceived) to
             the first decoded frame, target p50 < 300 ms.
  soak       the agent's malloc heap in use (its /metrics), VmRSS (/proc/PID/status) and open file descriptors
             (/proc/PID/fd) after a warm-up of SOAK_WARMUP calls (default 20) and after the last call, each
             after a short idle (RSS and fds the mean of a few samples); targets: heap growth <= 2048 kB,
             RSS growth <= 4096 kB and no fd growth. A few unsettled samples in
             between, the fds that appeared or disappeared (readlink, sockets resolved through
             /proc/PID/net) and the threads by name (/proc/PID/task/*/comm) are printed as evidence.

Checks: every call connected (first frame within 10 s, page in-call), was hung up, and the device logged it as
answered and ended by the page's bye; afterwards the agent's /metrics ([metrics] listen on a free port) shows
no media peer left (intercom_media_peers 0, no per-peer series) and one answered call per call; the agent logs
no error line, and its /health reports the call state `idle`; it exits with status 0 within 5 s of SIGINT.
Prints PASS/FAIL lines, BENCH/SOAK lines, a progress line every 10 calls and `N passed, M failed`.

Usage: soak_test.py [--server BIN] [--intercomd BIN]
  Binaries default to $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, then <repo>/.build/debug/{intercom-server,intercomd}.
Environment: CHROMIUM_BIN, CHROMEDRIVER_BIN (defaults /usr/bin/chromium, /usr/bin/chromedriver),
  SOAK_CALLS (200), SOAK_BENCH_CALLS (50), SOAK_WARMUP (20), SOAK_SETTLE (seconds between a call's outcome
  line and the next click, default 0.2), SOAK_KEEP=1 keeps the temporary directory (process logs, chromedriver log).
"""

import json
import os
import re
import shlex
import signal
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from calls import (CALL_PROBE, OUTCOME, LoggedProcess, agent_environment, binary_arguments, call_button,  # noqa: E402
                   first_frame, keep_or_remove, percentile, start_intercom_server, wait_callable, write_agent_config)
from webdriver import (PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser, free_port, log,  # noqa: E402
                       missing_browser, wait_for)

CALLS = int(os.environ.get("SOAK_CALLS", "200"))
BENCH_CALLS = min(int(os.environ.get("SOAK_BENCH_CALLS", "50")), CALLS)
WARMUP = min(int(os.environ.get("SOAK_WARMUP", "20")), CALLS)
SETTLE = float(os.environ.get("SOAK_SETTLE", "0.2"))
# The benchmark's calls wait longer than the agent's idle stop delay (1 s) before the next click, so each
# one starts the camera and encoders cold, as a call to an idle device does.
COLD_SETTLE = float(os.environ.get("SOAK_COLD_SETTLE", "1.6"))
CONNECT_LIMIT = 10.0   # seconds from the click to the first decoded frame
TARGET_P50_MS = 500.0  # row created → first decoded frame
TARGET_OFFER_P50_MS = 300.0  # the device's SDP offer received in the page → first decoded frame (issue #5)
# Two leak checks. The malloc heap in use (the agent's intercom_heap_in_use_bytes, glibc's mallinfo2) is what
# was allocated and not freed: +0.6 MB over 180 calls on a loaded machine (3 kB a call, with two more pool
# threads and their caches at the end). RSS also moves with fragmentation and with which of glibc's
# per-thread arenas a call's threads used: loaded runs ended +1.8 MB and +3.4 MB (CI failed once at the old
# 2 MB bound). A leak of 12 kB a call fails the heap bound, 23 kB a call the RSS bound.
MAX_HEAP_GROWTH_KB = 2048
MAX_RSS_GROWTH_KB = 4096
MAX_FD_GROWTH = 0
POOL_IDLE_TIMEOUT = 60    # async-http-client's default connectionPool.idleTimeout, in seconds
IDLE_BEFORE_SAMPLE = 3.0  # seconds of idle before a settled sample (the last call's teardown, allocator)
SAMPLES = 5               # samples per settled measurement, SAMPLE_INTERVAL apart; their mean is compared
SAMPLE_INTERVAL = 0.4
INTERMEDIATE_EVERY = 50  # an unsettled sample printed every so many calls
TITLE = "Soak device"
DEVICE = {"lat": 52.52, "lon": 13.405}
CALLER = {"name": "Soak caller", "lat": 52.538, "lon": 13.405}  # 2 km north of the device
TERMINAL_OR_IDLE = {"idle", "ended"}


# ── the agent's process, from /proc ──

def socket_inodes(pid):
    """inode → 'tcp 127.0.0.1:port', 'udp …', 'unix …', 'netlink' for the sockets in the process's net namespace."""
    table = {}
    for proto in ("tcp", "tcp6", "udp", "udp6"):
        try:
            with open(f"/proc/{pid}/net/{proto}") as f:
                next(f)
                for line in f:
                    fields = line.split()
                    local, state, inode = fields[1], fields[3], fields[9]
                    addr, port = local.rsplit(":", 1)
                    if len(addr) == 8:
                        addr = ".".join(str(int(addr[i:i + 2], 16)) for i in (6, 4, 2, 0))
                    table[inode] = f"{proto} {addr}:{int(port, 16)}" + (" listen" if proto.startswith("tcp")
                                                                         and state == "0A" else "")
        except OSError:
            pass
    for proto in ("unix", "netlink"):
        try:
            with open(f"/proc/{pid}/net/{proto}") as f:
                next(f)
                for line in f:
                    fields = line.split()
                    inode = fields[6] if proto == "unix" else fields[9 if len(fields) > 9 else -1]
                    table.setdefault(inode, proto + (f" {fields[7]}" if proto == "unix" and len(fields) > 7 else ""))
        except (OSError, IndexError):
            pass
    return table


def sample(pid):
    """VmRSS (kB), thread count, thread names and the open fds (fd → readlink target) of a process."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "Threads"):
                values[key] = int(rest.split()[0])
    targets = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            targets[fd] = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            pass  # closed meanwhile
    names = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/comm") as f:
                name = f.read().strip()
            names[name] = names.get(name, 0) + 1
        except OSError:
            pass  # ended meanwhile
    return {"rss": values["VmRSS"], "threads": values["Threads"], "fds": len(targets), "targets": targets,
            "names": names}


def settled(pid):
    """Mean of SAMPLES samples after IDLE_BEFORE_SAMPLE s of idle; the fd targets of the last one."""
    time.sleep(IDLE_BEFORE_SAMPLE)
    taken = []
    for i in range(SAMPLES):
        if i:
            time.sleep(SAMPLE_INTERVAL)
        taken.append(sample(pid))
    return {"rss": sum(s["rss"] for s in taken) / len(taken), "fds": sum(s["fds"] for s in taken) / len(taken),
            "threads": sum(s["threads"] for s in taken) / len(taken), "targets": taken[-1]["targets"],
            "names": taken[-1]["names"],
            "raw": [(s["rss"], s["fds"]) for s in taken]}


def kind(target, sockets):
    match = re.fullmatch(r"socket:\[(\d+)\]", target)
    if match:
        return "socket " + sockets.get(match.group(1), "(not in /proc/PID/net)")
    return re.sub(r"\[\d+\]$", "", target)


def fd_difference(pid, before, after):
    """Human-readable fds that appeared and disappeared between two samples' targets."""
    sockets = socket_inodes(pid)
    added = {fd: t for fd, t in after.items() if before.get(fd) != t}
    removed = {fd: t for fd, t in before.items() if after.get(fd) != t}

    def summary(fds):
        counts = {}
        for fd, target in fds.items():
            counts.setdefault(kind(target, sockets), []).append(int(fd))
        return "; ".join(f"{k} ×{len(v)} (fd {', '.join(map(str, sorted(v)[:8]))}{'…' if len(v) > 8 else ''})"
                         for k, v in sorted(counts.items(), key=lambda kv: -len(kv[1])))
    return summary(added) or "none", summary(removed) or "none"


class Run:
    def __init__(self, server, intercomd):
        self.server_bin = server
        self.intercomd_bin = intercomd
        self.checks = Checks()
        self.workdir = None
        self.server = None
        self.agent = None
        self.driver = None
        self.browser = None
        self.agent_http = None  # the agent's metrics port: /health and /metrics

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def start_server(self):
        self.server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        self.check("intercom-server starts", base, detail)
        return base

    def agent_get(self, path):
        with urllib.request.urlopen(self.agent_http + path, timeout=5) as response:
            return response.read().decode()

    def heap_in_use_kb(self):
        """The agent's malloc heap in use (/metrics intercom_heap_in_use_bytes), in kB; None if unreadable."""
        try:
            found = re.search(r"^intercom_heap_in_use_bytes (\S+)$", self.agent_get("/metrics"), re.M)
        except OSError:
            return None
        return float(found.group(1)) / 1024 if found else None

    def device_call_state(self):
        """The agent's call state from /health (`idle`, `ending call with …`…), None if it does not answer."""
        try:
            return json.loads(self.agent_get("/health")).get("call")
        except (OSError, ValueError):
            return None

    def start_agent(self, base):
        metrics_port = free_port()
        self.agent_http = f"http://127.0.0.1:{metrics_port}"
        config = write_agent_config(os.path.join(self.workdir, "intercom.toml"), base, TITLE, DEVICE["lat"],
                                    DEVICE["lon"], os.path.join(self.workdir, "state"), metrics_port,
                                    logging="rate_limit_per_minute = 100000\n")
        env = agent_environment()
        self.agent = LoggedProcess([self.intercomd_bin, "run", "--config", config], self.workdir, "agent", env=env)
        ready = self.agent.wait_line(r"ready: (.*)", 30)
        user = self.agent.find(r"logged in to the backend userID=(\w+)")
        health = wait_for(self.device_call_state, 10, 0.1) if ready and user else None
        self.check("intercomd run starts, logs in, registers, reports ready and answers /health", ready and user and health,
                   (ready.group(0) if ready else "no 'ready:' line within 30 s") + (f"; userID {user.group(1)}; pid "
                   f"{self.agent.pid}" if user else f"; no userID line: {' | '.join(self.agent.tail(8))}")
                   + f"; {self.agent_http}/health call state {health!r}")
        return user.group(1) if ready and user and health else None

    def open_page(self, base, device_id):
        self.driver = ChromeDriver(self.workdir)
        if not self.check("chromedriver starts", self.driver.ready, self.driver.url):
            return False
        b = self.browser = WebCallerBrowser(self.driver.url, os.path.join(self.workdir, "profile"), label="caller",
                                            extra_args=[PLAIN_IP_CANDIDATES], window_size="900,1000",
                                            browser_log=True)
        b.add_script_on_new_document(CALL_PROBE)
        b.open(base + "/")
        loaded = wait_for(b.loaded, 15)
        user = b.sign_in(CALLER["name"], CALLER["lat"], CALLER["lon"]) if loaded else None
        callable_ = wait_callable(b, device_id, 20) if user else False
        return self.check("the web caller loads, signs in and lists the device as callable", loaded and user and callable_,
                          f"page userID {user}" if callable_ else f"loaded {loaded}, userID {user}, status "
                          f"{b.text('#status')!r}, error {b.text('#signin-error')!r}")

    def one_call(self, n, device_id):
        """Returns (probe record or None, problem or None)."""
        b = self.browser
        if not wait_callable(b, device_id):
            return None, f"call {n}: the call button is not enabled (page {b.state()})"
        since = self.agent.mark()
        b.click(call_button(device_id))
        p = first_frame(b, CONNECT_LIMIT)
        state = b.wait_state("in-call", 5) if p else b.state()
        problem = None
        if not p or state != "in-call":
            outcome = self.agent.find(OUTCOME, since)
            problem = (f"call {n}: no first frame within {CONNECT_LIMIT:.0f} s" if not p else f"call {n}: frame but "
                       f"page {state}") + f" (page {state}, {b.text('#call-status')!r}; device: " \
                + (outcome.group(0) if outcome else "no outcome yet") + ")"
            p = None
        if b.visible("#hangup"):
            b.click("#hangup")
        ended = b.wait_state(TERMINAL_OR_IDLE, 10)
        outcome = self.agent.wait_line(OUTCOME, 10, since)
        if ended not in TERMINAL_OR_IDLE:
            problem = problem or f"call {n}: after hanging up the page is {ended}"
        if not outcome:
            problem = problem or f"call {n}: the device logged no outcome within 10 s"
        elif not (outcome.group(2).startswith("answered") and "bye" in outcome.group(2).lower()):
            problem = problem or f"call {n}: device outcome {outcome.group(0)}"
        self.hung_up += ended in TERMINAL_OR_IDLE
        self.answered += bool(outcome and outcome.group(2).startswith("answered"))
        return p, problem

    def soak(self, device_id):
        pid = self.agent.pid
        self.hung_up = self.answered = 0
        rows, clicks, offers, problems = [], [], [], []
        connected = 0
        warm = end = None
        intermediate = []
        started = time.monotonic()
        for n in range(1, CALLS + 1):
            p, problem = self.one_call(n, device_id)
            if p:
                connected += 1
                if n <= BENCH_CALLS:
                    clicks.append(p["firstFrameAt"] - p["clickAt"])
                    created = (p.get("timings") or {}).get("rowCreated")
                    if created is not None:
                        rows.append(p["firstFrameAt"] - created)
                    offered = (p.get("timings") or {}).get("offerReceived")
                    if offered is not None:
                        offers.append(p["firstFrameAt"] - offered)
            if problem:
                problems.append(problem)
                log(f"  {problem}")
            if self.agent.process.poll() is not None:
                problems.append(f"call {n}: intercomd exited with status {self.agent.process.returncode}")
                break
            if n == WARMUP:
                warm = settled(pid)
                warm["heap"] = self.heap_in_use_kb()
                log(f"SOAK after warm-up ({n} calls, settled): VmRSS {warm['rss']:.0f} kB, fds {warm['fds']:.1f}, "
                    f"threads {warm['threads']:.0f} (samples rss/fds {warm['raw']})")
                log(f"SOAK fds open after the warm-up: {fd_difference(pid, {}, warm['targets'])[0]}")
            elif n % INTERMEDIATE_EVERY == 0 and n < CALLS:
                s = sample(pid)
                intermediate.append((n, s))
                heap = self.heap_in_use_kb()
                log(f"SOAK after {n} calls (unsettled): VmRSS {s['rss']} kB, fds {s['fds']}, threads {s['threads']}, "
                    f"malloc heap in use {'?' if heap is None else f'{heap:.0f}'} kB")
            if n % 10 == 0:
                elapsed = time.monotonic() - started
                log(f"progress: {n}/{CALLS} calls, {connected} connected, {len(problems)} problem(s), "
                    f"{elapsed:.0f} s ({elapsed / n:.2f} s/call)")
            time.sleep(COLD_SETTLE if n <= BENCH_CALLS else SETTLE)
        elapsed = time.monotonic() - started
        if self.agent.process.poll() is None:
            end = settled(pid)
            # A second idle keep-alive connection in the agent's HTTP client pool (two REST requests at once:
            # a heartbeat and a row delete) is not a leak: async-http-client closes idle pooled connections
            # after 60 s, and the pool (on one event loop) lends the connection returned last, so the surplus
            # one does idle out (HTTPConnectionReuseTests). Before calling it growth, give it that long; a
            # leaked descriptor stays.
            waited = 0
            while warm and end["fds"] > warm["fds"] and waited < POOL_IDLE_TIMEOUT + 10:
                time.sleep(5)
                waited += 5
                end = settled(pid) if sample(pid)["fds"] <= warm["fds"] else end
            if waited:
                log(f"NOTE waited {waited} s for idle pooled HTTP connections to close (fds now {end['fds']:.1f})")
            end["heap"] = self.heap_in_use_kb()
            log(f"SOAK after {CALLS} calls (settled): VmRSS {end['rss']:.0f} kB, fds {end['fds']:.1f}, "
                f"threads {end['threads']:.0f} (samples rss/fds {end['raw']})")
        log(f"  {CALLS} calls in {elapsed:.0f} s ({elapsed / CALLS:.2f} s per call)")

        self.check(f"all {CALLS} calls connect (first decoded frame within {CONNECT_LIMIT:.0f} s, page in-call)",
                   connected == CALLS and not problems,
                   f"{connected}/{CALLS} connected" + (f"; {len(problems)} problem(s): " + " | ".join(problems[:5])
                                                      if problems else ""))
        self.check(f"all {CALLS} calls are hung up by the page and logged by the device as answered",
                   self.hung_up == CALLS and self.answered == CALLS,
                   f"{self.hung_up} hung up, {self.answered} answered outcomes logged")
        outcomes = self.agent.find_all(OUTCOME)
        self.check("the device logged exactly one outcome per call", len(outcomes) == CALLS,
                   f"{len(outcomes)} outcome lines")

        command = (f"INTERCOM_SERVER_BIN={shlex.quote(self.server_bin)} INTERCOMD_BIN={shlex.quote(self.intercomd_bin)}"
                   f" bash Tests/soak/run.sh")
        if rows:
            p50 = percentile(rows, 50)
            log(f"BENCH row created→first decoded frame over {len(rows)} cold-start calls: p50 {p50:.0f} ms, p95 "
                f"{percentile(rows, 95):.0f} ms (min {min(rows):.0f}, max {max(rows):.0f}); target p50 < "
                f"{TARGET_P50_MS:.0f} ms")
            log(f"BENCH click→first decoded frame over {len(clicks)} calls: p50 {percentile(clicks, 50):.0f} ms, p95 "
                f"{percentile(clicks, 95):.0f} ms (min {min(clicks):.0f}, max {max(clicks):.0f})")
            if offers:
                log(f"BENCH device's offer received→first decoded frame over {len(offers)} calls: p50 "
                    f"{percentile(offers, 50):.0f} ms, p95 {percentile(offers, 95):.0f} ms (min {min(offers):.0f}, "
                    f"max {max(offers):.0f}); target p50 < {TARGET_OFFER_P50_MS:.0f} ms")
            self.check(f"the device's offer→first decoded frame p50 < {TARGET_OFFER_P50_MS:.0f} ms over the first "
                       f"{BENCH_CALLS} calls", len(offers) == BENCH_CALLS and percentile(offers, 50) < TARGET_OFFER_P50_MS,
                       f"p50 {percentile(offers, 50):.0f} ms over {len(offers)} calls" if offers else
                       "the page recorded no timings.offerReceived")
            setups = [float(m.group(1)) for m in self.agent.find_all(r'setup="?([\d.]+) ?s')][:len(rows)]
            if setups:
                log(f"BENCH device setup (answer→media up, its log) over {len(setups)} calls: p50 "
                    f"{percentile(setups, 50) * 1000:.0f} ms, p95 {percentile(setups, 95) * 1000:.0f} ms")
            log(f"BENCH reproduce: {command}")
            cold = len(self.agent.find_all(r"media on \(calls\)"))
            self.check(f"the benchmark's calls start media cold (the agent turned media on for each of the first "
                       f"{BENCH_CALLS} calls)", cold >= BENCH_CALLS, f"'media on (calls)' logged {cold} times")
            self.check(f"row created→first decoded frame p50 < {TARGET_P50_MS:.0f} ms over the first {BENCH_CALLS} calls",
                       len(rows) == BENCH_CALLS and p50 < TARGET_P50_MS,
                       f"p50 {p50:.0f} ms over {len(rows)} calls"
                       + ("" if len(rows) == BENCH_CALLS else f" (the page's timings.rowCreated was missing or calls "
                                                              f"failed: {len(rows)} of {BENCH_CALLS})"))
        else:
            self.check("the first-frame benchmark has measurements", False,
                       "no call reached its first frame with the page's timings.rowCreated")

        if warm and end:
            growth = end["rss"] - warm["rss"]
            fds = end["fds"] - warm["fds"]
            log(f"SOAK VmRSS {warm['rss']:.0f} kB → {end['rss']:.0f} kB ({growth:+.0f} kB), fds {warm['fds']:.1f} → "
                f"{end['fds']:.1f} ({fds:+.1f}), threads {warm['threads']:.0f} → {end['threads']:.0f} over calls "
                f"{WARMUP + 1}…{CALLS}; reproduce: {command}")
            added, removed = fd_difference(pid, warm["targets"], end["targets"])
            log(f"SOAK fds opened since the warm-up and still open: {added}")
            log(f"SOAK fds open at the warm-up and closed since: {removed}")
            grown = {k: end["names"].get(k, 0) - warm["names"].get(k, 0) for k in set(warm["names"]) | set(end["names"])}
            grown = {k: v for k, v in grown.items() if v}
            log("SOAK threads by name at the end: " + ", ".join(f"{k} ×{v}" for k, v in sorted(end["names"].items()))
                + "; change since the warm-up: " + (", ".join(f"{k} {v:+d}" for k, v in sorted(grown.items())) or "none"))
            if warm.get("heap") is not None and end.get("heap") is not None:
                heap = end["heap"] - warm["heap"]
                log(f"SOAK malloc heap in use {warm['heap']:.0f} kB → {end['heap']:.0f} kB ({heap:+.0f} kB, "
                    f"{heap / (CALLS - WARMUP):+.2f} kB a call) over calls {WARMUP + 1}…{CALLS}")
                self.check(f"agent malloc heap growth after the warm-up <= {MAX_HEAP_GROWTH_KB} kB over {CALLS - WARMUP} "
                           f"calls", heap <= MAX_HEAP_GROWTH_KB, f"{heap:+.0f} kB ({warm['heap']:.0f} → {end['heap']:.0f} kB)")
            else:
                self.check("the agent's /metrics reports intercom_heap_in_use_bytes after the warm-up and at the end",
                           False, f"warm-up {warm.get('heap')}, end {end.get('heap')}")
            self.check(f"agent RSS growth after the warm-up <= {MAX_RSS_GROWTH_KB} kB over {CALLS - WARMUP} calls",
                       growth <= MAX_RSS_GROWTH_KB, f"{growth:+.0f} kB ({warm['rss']:.0f} → {end['rss']:.0f} kB; "
                       + ", ".join(f"{n}: {s['rss']}" for n, s in intermediate) + ")")
            self.check(f"agent open fds after the warm-up grow by {MAX_FD_GROWTH}",
                       fds <= MAX_FD_GROWTH, f"{fds:+.1f} ({warm['fds']:.1f} → {end['fds']:.1f}; "
                       + ", ".join(f"{n}: {s['fds']}" for n, s in intermediate) + f"; opened and still open: {added}"
                       f"; closed: {removed})")
        else:
            self.check("soak samples taken after the warm-up and at the end", False,
                       f"warm-up sample {'taken' if warm else 'missing'}, end sample {'taken' if end else 'missing'}")
        self.metrics_after()

    def metrics_after(self):
        """The fan-out and per-peer state the agent reports itself: nothing left after the last call."""
        try:
            text = self.agent_get("/metrics")
        except OSError as e:
            self.check("the agent's /metrics answers after the soak", False, f"{self.agent_http}/metrics: {e}")
            return
        peers = re.search(r"^intercom_media_peers (\S+)$", text, re.M)
        series = sorted(set(re.findall(r'^(\w+)\{peer="([^"]*)"', text, re.M)))
        answered = re.search(r'^intercom_calls_total\{direction="incoming",outcome="answered",route="webrtc"\} (\S+)$', text, re.M)
        detail = (f"intercom_media_peers {peers.group(1) if peers else 'missing'}, per-peer series "
                  f"{len(series)}{' ' + str(series[:4]) if series else ''}, answered calls "
                  f"{answered.group(1) if answered else 'missing'}")
        log(f"SOAK agent metrics after {CALLS} calls: {detail}")
        self.check("after the soak the agent reports no media peer left and one answered call per call (/metrics)",
                   peers and float(peers.group(1)) == 0 and not series and answered
                   and float(answered.group(1)) == CALLS, detail)
        state = self.device_call_state()
        # A reentrant media-down while CallCoordinator awaited stopMedia once left this at "ending call with …"
        # after every call (fixed in 28e604d): the device took calls, but /health and STATUS= said otherwise.
        self.check("after the soak the agent's /health reports the call state idle", state == "idle",
                   f"call state {state!r}")

    def dump(self):
        b = self.browser
        if b:
            log("---- page log (window.intercom.log, last lines) ----")
            for line in b.page_log(30):
                log(f"  {line}")
            log("---- page console ----")
            for line in b.console_log(20):
                log(f"  {line}")
        if self.agent:
            log("---- agent log (last lines of stderr) ----")
            for line in self.agent.tail(40):
                log(f"  {line}")

    def stop_agent(self):
        if not self.agent:
            return
        result = self.agent.stop(signal.SIGINT)
        if result is not None:
            clean, detail = result
            self.check("intercomd run exits with status 0 within 5 s of SIGINT", clean, detail)
        errors = [line for line in self.agent.stderr() if re.search(r"\b(error|critical)\b", line.split(" intercomd")[0])]
        self.check("the agent logged no error lines", not errors, " | ".join(errors[-3:]) or
                   f"{len(self.agent.stderr())} log lines")

    def run(self):
        missing = []
        for label, path, how in (("intercom-server", self.server_bin, "INTERCOM_SERVER_BIN"),
                                 ("intercomd", self.intercomd_bin, "INTERCOMD_BIN")):
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                missing.append(f"{label} not found or not executable at {path} (build it with `swift build`, or "
                               f"set {how})")
        missing += missing_browser()
        if missing:
            for problem in missing:
                self.check("prerequisites", False, problem)
            return self.checks
        self.workdir = tempfile.mkdtemp(prefix="intercom-soak-")
        started = time.monotonic()
        try:
            base = self.start_server()
            device_id = self.start_agent(base) if base else None
            if device_id and self.open_page(base, device_id):
                self.soak(device_id)
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure with its reason, never a skip
            self.check("soak harness", False, f"{type(e).__name__}: {e}")
        finally:
            if self.checks.failed:
                try:
                    self.dump()
                except Exception as e:  # noqa: BLE001
                    log(f"(could not collect diagnostics: {e})")
            if self.browser:
                self.browser.quit()
            if self.driver:
                self.driver.stop()
            self.stop_agent()
            if self.server:
                self.server.stop(signal.SIGTERM)
            log(f"  stage took {time.monotonic() - started:.0f} s")
            keep_or_remove(self.workdir, "SOAK_KEEP", self.checks.failed)
        return self.checks


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"soak: {CALLS} calls from the web caller in headless Chromium to intercomd run; intercom-server {server}, "
        f"intercomd {intercomd}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
