#!/usr/bin/env python3
"""PostgreSQL fleet: two intercom-server instances on one PostgreSQL database, behind nginx.

Starts (or is given, --database-url) a PostgreSQL database, two `intercom-server` instances A and B at the same
time (each with its own config file and listen port; the same `database_url`, application id, master key and
`public_url`, nginx's address; `trusted_proxies` names nginx; each its own `files_directory`, which PostgreSQL makes unused;
no `token_keys_file`, so both use the token keys kept in the database) and Debian's nginx in the foreground as a
round-robin load balancer in front of both (WebSocket upgrade for LiveQuery and signaling, X-Forwarded-For, Host,
and an `X-Upstream` response header naming the instance that answered). A call row's `signalURL` names nginx
(`public_url`), so both parties of a call reach /signal through it; nginx sends Chromium's /signal sockets to B
first and every other client's to A first (the other instance as the backup), so the two parties of the real
call in (h) are always on different instances, where plain round robin would put them together now and then.
An instance killed by a part is started again (same config, same port) before the next part.

Checks:
  (e) /health of each instance answers 200 while it is up (its body is printed: the database and bus state);
  (a) through nginx, ROUNDS times: an anonymous sign-up, an `ActiveUsers` row with a geopoint and a `$nearSphere`
      query that finds every row made so far; both instances answered (X-Upstream), each found rows written
      through the other, and A and B asked directly return the same rows in the same order;
  (c) a session token issued by A works on B (`/users/me`), and a logout through B ends it on A (209); a Parse File
      (a JPEG) uploaded through A is served byte for byte by B and is on neither instance's disk (each instance has
      its own `files_directory`, unused on PostgreSQL), and once its uploader deletes it through B, A answers 404;
  (b) LiveQuery subscriptions opened directly to A and to B (the receiver's session) on `ActiveSessions` get the
      create, update and delete of a row written through B exactly once each (the writer too: no echo of its own
      notification), and the row is gone on A afterwards; a call token minted by B is accepted by A's /signal;
  (f) signaling across instances: the device (publisher token) joins /signal directly on A, the caller on B; both
      get `joined` (the caller's lists the device), the device sees `peer-joined`; an offer-like signal of
      SDP_BYTES (past NOTIFY's 8000-byte payload limit once JSON-escaped) and CANDIDATES numbered candidates are
      relayed A → B and an answer and as many candidates B → A, each exactly once and in order; ping → pong on
      both; a viewer (viewerToken) joining on B is listed with both parties, the device on A sees it join, the
      device's offer reaches it and its answer comes back, its own offer to the device is refused `forbidden`
      and not relayed, and the device sees it leave;
  (g) the room's owner dies mid-call: the caller joins on B first (B owns the room), the device on A; B is
      SIGKILLed; the device's socket on A is closed by the server within OWNER_CLOSE_SECONDS; the caller reconnects
      through nginx and rejoins within REJOIN_SECONDS, and so does the device; then signals relay both ways again,
      exactly once (timings printed);
  (h) the real call across instances: `intercomd run` (auto answer, test pattern, tone) with `server_url`
      pointing straight at A, the web caller in headless Chromium served by B: the call connects (page
      in-call, video decoded at >= MIN_FPS), the two parties' signaling sockets were on different instances,
      the page hangs up and the device logs the call answered; (i) the device restarted with `server_url` on
      nginx, idle: the instance holding its LiveQuery socket is SIGKILLed, the device subscribes again through
      nginx on the other one within RECONNECT_SECONDS (log, its /health) and takes the next call there; (ii) the
      instance the page's signaling socket is on (B: the room's owner) SIGKILLed mid-call: the page's decoded
      frames keep growing every second for KILL_WATCH_SECONDS; the page rejoins the room (through nginx, on A)
      and finds the device again (its own rejoin, a new peer id) within PAGE_REJOIN_SECONDS of the kill (the
      page's stats: signalJoins, signalState, remoteKnown); then the page hangs up and the device logs the call
      answered and ended by the page's bye (remoteBye(hangup), not a media timeout) within BYE_SECONDS, and its
      /health says idle; (iii) every call reached the device once (one `incoming call` line per session, as
      many as were placed);
  (d) A killed with SIGKILL: CONSECUTIVE requests in a row through nginx (queries and sign-ups) succeed within
      FAILOVER_SECONDS, and a new LiveQuery subscription through nginx gets the create and delete of a row
      written through nginx, once each; B still answers /health and stops cleanly on SIGINT.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: fleet_test.py [--server BIN] [--intercomd BIN] [--database-url postgres://…]
  The binaries default to $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, then <repo>/.build/debug/{intercom-server,intercomd}.
  Without --database-url (or $INTERCOM_FLEET_DATABASE_URL) a throwaway cluster is started with
  Tests/postgres/pg-cluster.sh. (h) needs chromium and chromedriver (CHROMIUM_BIN, CHROMEDRIVER_BIN).
Environment: POSTGRES_FLEET_KEEP=1 keeps the temporary directory (configs, nginx, server and agent logs).
"""

import argparse
import http.client
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from calls import (OUTCOME, LoggedProcess, agent_environment, call_button, keep_or_remove, wait_callable,  # noqa: E402
                   write_agent_config)
from prerequisites import find_tool, missing_prerequisites  # noqa: E402
from webdriver import (PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser, free_port, log,  # noqa: E402
                       missing_browser, wait_for)
from websocket import WebSocket  # noqa: E402

PG_CLUSTER = os.path.join(HERE, "pg-cluster.sh")
APP_ID = "intercom"         # the web caller page (h) speaks to its server as application "intercom"
ROUNDS = 8                  # (a) sign-up + row + query through nginx, 3 requests a round: both instances answer queries
CENTRE = (52.52, 13.405)    # rows 111 m apart northwards from here, so $nearSphere orders them by round
EVENT_SECONDS = 5.0         # (b), (d) a LiveQuery event arrives within this
QUIET_SECONDS = 2.0         # no second copy of an event within this after the last one
FAILOVER_SECONDS = 10.0     # (d)
CONSECUTIVE = 10            # (d) successes in a row that count as "nginx fails over"
START_SECONDS = 90.0        # an instance creates or migrates the schema before it listens
SIGNAL_SECONDS = 5.0        # (f), (g) a relayed signal arrives within this
SDP_BYTES = 7000            # (f) the offer's and the answer's SDP: > 8000 bytes once JSON-escaped
CANDIDATES = 20             # (f) numbered candidates each way, checked in order
# (g) the server closes a socket whose room owner died within this (or it keeps working): the killed owner's bus
# listener leaves pg_stat_activity at once, and the next heartbeat (every 2 s) sees it; the 6 s heartbeat timeout is
# only for a host that vanished without closing its connections
OWNER_CLOSE_SECONDS = 4.5
REJOIN_SECONDS = 10.0       # (g) a party whose instance died rejoins within this
DEVICE = {"title": "Fleet gate", "lat": 52.5203, "lon": 13.4052}
CALLER = {"name": "Fleet visitor", "lat": 52.5212, "lon": 13.4049}
CONNECT_SECONDS = 25.0      # (h) the page is in-call with video decoded within this of the click
MEASURE_SECONDS = 5.0       # (h) frames counted over this
MIN_FPS = 20.0              # (h) of the device's 30 fps test pattern, decoded by Chromium on 2 cores
RECONNECT_SECONDS = 10.0    # (h)(i) the idle device subscribes again through nginx within this of the kill
KILL_WATCH_SECONDS = 5      # (h)(ii) the page's decoded frames grow in every second of this after the kill
# (h)(ii) the page is back in the room with the device found again within this of the kill: the fleet takes B for
# dead at its next heartbeat (2 s, OWNER_CLOSE_SECONDS), then the page's next attempt (its backoff is at most 2 s)
# and the device's rejoin; the rest is slack for 2 shared cores
PAGE_REJOIN_SECONDS = 12.0
BYE_SECONDS = 5.0           # (h)(ii) the device logs the page's hang-up (a remote bye) within this of the click

NGINX_CONF = """# The fleet's load balancer (Tests/postgres/fleet_test.py): round robin over the two instances; /signal
# pinned by client (Chromium's sockets to B first, every other client's to A first, the other as the backup).
user root;
worker_processes 1;
daemon off;
master_process on;
pid {prefix}/nginx.pid;
error_log stderr notice;
events {{ worker_connections 1024; }}
http {{
    log_format fleet '$remote_addr "$request" $status upstream=$upstream_addr upstream_status=$upstream_status '
                     'ua="$http_user_agent"';
    access_log {prefix}/access.log fleet;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    # "upgrade" when the client asks for a WebSocket, else a plain proxied request.
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        '' close;
    }}
    # A test device, not a deployment's: the two parties of a call on different instances every time.
    map $http_user_agent $signal_upstream {{
        "~Chrome" signal_b_first;
        default   signal_a_first;
    }}
    upstream intercom {{
        server 127.0.0.1:{port_a} max_fails=1 fail_timeout=10s;
        server 127.0.0.1:{port_b} max_fails=1 fail_timeout=10s;
    }}
    upstream signal_a_first {{
        server 127.0.0.1:{port_a} max_fails=1 fail_timeout=1s;
        server 127.0.0.1:{port_b} backup;
    }}
    upstream signal_b_first {{
        server 127.0.0.1:{port_b} max_fails=1 fail_timeout=1s;
        server 127.0.0.1:{port_a} backup;
    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 3600s;
        proxy_send_timeout 3600s;
        proxy_connect_timeout 2s;
        # A refused connection (the instance is gone) goes to the other one; a POST that reached an instance is
        # never sent twice (no non_idempotent).
        proxy_next_upstream error timeout http_502 http_503;
        add_header X-Upstream $upstream_addr always;
        location / {{
            proxy_pass http://intercom;
        }}
        location /signal {{
            proxy_pass http://$signal_upstream;
        }}
    }}
}}
"""


def masked(url):
    """A database URL without its password, for logs."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:…@", url)


class Endpoint:
    """HTTP on 127.0.0.1:port: Parse REST requests, /health, WebSockets."""

    def __init__(self, name, port):
        self.name, self.port = name, port

    def request(self, method, path, body=None, token=None, master_key=None, timeout=10):
        """(status, decoded JSON or text, lower-cased headers); status 0 and the error when no answer came."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"X-Parse-Application-Id": APP_ID, "Content-Type": "application/json"}
        if token:
            headers["X-Parse-Session-Token"] = token
        if master_key:
            headers["X-Parse-Master-Key"] = master_key
        try:
            connection.request(method, path, body=None if body is None else json.dumps(body).encode(), headers=headers)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            answer_headers = {k.lower(): v for k, v in response.getheaders()}
        except OSError as e:
            return 0, f"{type(e).__name__}: {e}", {}
        finally:
            connection.close()
        try:
            return response.status, json.loads(text) if text else None, answer_headers
        except ValueError:
            flat = " ".join(re.sub(r"<[^>]+>", " ", text).split())  # nginx's HTML error pages, on one line
            return response.status, flat[:200], answer_headers

    def sign_up(self):
        """(objectId, sessionToken, the X-Upstream header) of a new anonymous user; raises when refused."""
        status, body, headers = self.request("POST", "/parse/users", {"authData": {"anonymous": {"id": str(uuid.uuid4())}}})
        if status not in (200, 201) or not isinstance(body, dict) or "sessionToken" not in body:
            raise RuntimeError(f"anonymous sign-up through {self.name} answered {status}: {body}")
        return body["objectId"], body["sessionToken"], headers.get("x-upstream", "")

    def ws(self, path):
        return WebSocket.connect(f"ws://127.0.0.1:{self.port}{path}")


class Instance(Endpoint):
    """One intercom-server of the fleet, with its own TOML config file."""

    def __init__(self, name, binary, workdir, database_url, master_key_file, public_url):
        super().__init__(f"instance {name}", free_port())
        self.label = name
        self.killed = False
        self.config = os.path.join(workdir, f"instance-{name}.toml")
        with open(self.config, "w", encoding="utf-8") as f:
            f.write(f'listen = "127.0.0.1:{self.port}"\n'
                    f'database_url = "{database_url}"\n'
                    f'application_id = "{APP_ID}"\n'
                    f'master_key_file = "{master_key_file}"\n'
                    f'public_url = "{public_url}"\n'
                    'trusted_proxies = ["127.0.0.1/32"]\n'
                    # Each its own: on PostgreSQL the files' bytes live in the database, never on an instance's disk.
                    f'files_directory = "{os.path.join(workdir, "files-" + name)}"\n')
        # Nothing from the test's environment may redirect the instance (INTERCOM_SERVER_DB, INTERCOM_MASTER_KEY…).
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("INTERCOM_")}
        self.argv = [binary, "--config", self.config, "--log-level", "info"]
        self.workdir = workdir
        self.generation = 1
        self.process = LoggedProcess(self.argv, workdir, f"instance-{name}", env=self.env)

    def restart(self):
        """A new process with the same config (port, database) after a kill; its logs go to instance-X-N.*."""
        self.generation += 1
        self.killed = False
        self.process = LoggedProcess(self.argv, self.workdir, f"instance-{self.label}-{self.generation}", env=self.env)

    def wait_listening(self, timeout):
        """(listening, detail): the `listening on` line, or why not (the instance's last lines)."""
        found = wait_for(lambda: self.process.find(r"listening on \S+:\d+", stdout=True)
                         or self.process.process.poll() is not None, timeout, 0.1)
        line = self.process.find(r"listening on \S+:\d+", stdout=True)
        if line:
            return True, f"{line.group(0)} (config {self.config})"
        state = (f"exited with status {self.process.process.returncode}" if found
                 else f"no 'listening on' line within {timeout:.0f} s")
        return False, state + ": " + self.why()

    def why(self):
        """The lines of its log that say why it stopped (a Swift runtime failure and the crashed frame), else its tail."""
        lines = self.process.stderr()
        why = [line.strip() for line in lines
               if re.search(r"Fatal error|runtime failure|was escaped|Precondition failed|error:|\bcrashed:", line)]
        crashed = next((i for i, line in enumerate(lines) if re.search(r"\bcrashed:$", line)), None)
        if crashed is not None:
            why += [" ".join(line.split()) for line in lines[crashed + 1:crashed + 5] if " at /" in line][:2]
        return " | ".join(dict.fromkeys(why)) or " | ".join(self.process.tail(6))

    def kill(self):
        self.killed = True
        self.process.process.send_signal(signal.SIGKILL)
        self.process.process.wait(10)

    def unexpected_exit(self):
        """None while running (or killed by the test), else its exit status and the lines that say why."""
        code = self.process.process.poll()
        if code is None or self.killed or (self.process.stopped and code == 0):
            return None
        return f"exit status {code}: {self.why()}"


class FrameReader:
    """A WebSocket whose frames a thread collects with their arrival times; `closed_at` notes when the server
    closed it. Subclasses open `self.ws`, do their handshake, then call `start_reading`."""

    def start_reading(self):
        self.frames = []
        self.lock = threading.Lock()
        self.closed_at = None
        self.stopping = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while not self.stopping:
            try:
                frame = self.ws.recv_json(0.5)
            except TimeoutError:
                continue
            except (OSError, ValueError):
                frame = None
            if frame is None:
                if not self.stopping:
                    self.closed_at = time.monotonic()
                break
            with self.lock:
                self.frames.append((time.monotonic(), frame))

    def close(self):
        self.stopping = True
        self.ws.close()
        self.thread.join(2)


class LiveQuery(FrameReader):
    """A LiveQuery socket connected with a session token and one subscription; a thread collects its frames."""

    def __init__(self, endpoint, token, class_name, where):
        self.ws = endpoint.ws("/parse")
        self.ws.send_json({"op": "connect", "applicationId": APP_ID, "sessionToken": token})
        self.connected = self.ws.recv_until(lambda f: f.get("op") in ("connected", "error"), 5)
        self.ws.send_json({"op": "subscribe", "requestId": 1, "query": {"className": class_name, "where": where}})
        self.subscribed = self.ws.recv_until(lambda f: f.get("op") in ("subscribed", "error"), 5)
        self.start_reading()

    @property
    def ready(self):
        return (self.connected or {}).get("op") == "connected" and (self.subscribed or {}).get("op") == "subscribed"

    def describe(self):
        def short(frame, expected):
            return expected if (frame or {}).get("op") == expected else str(frame)
        return f"connect → {short(self.connected, 'connected')}, subscribe → {short(self.subscribed, 'subscribed')}"

    def events(self, op, object_id):
        """Arrival times of the `op` events for the object `object_id`."""
        with self.lock:
            return [t for t, f in self.frames if f.get("op") == op and (f.get("object") or {}).get("objectId") == object_id]

    def wait(self, op, object_id, timeout=EVENT_SECONDS):
        """Arrival time of the first such event, None if none came within `timeout`."""
        times = wait_for(lambda: self.events(op, object_id), timeout, 0.02)
        return times[0] if times else None

    def ops(self):
        with self.lock:
            return [f.get("op") for _, f in self.frames]


class SignalPeer(FrameReader):
    """A /signal socket joined with a call token (SYSTEM.md §4); a thread collects the frames after `joined`
    with their arrival times, and notes when the server closed the socket."""

    def __init__(self, endpoint, token, name, timeout=5):
        self.name = name
        self.ws = endpoint.ws("/signal")
        self.ws.send_json({"op": "join", "token": token, "name": name})
        self.joined = self.ws.recv_until(lambda f: f.get("op") in ("joined", "error"), timeout)
        self.start_reading()

    @property
    def ok(self):
        return (self.joined or {}).get("op") == "joined"

    @property
    def peer_id(self):
        return (self.joined or {}).get("peerId")

    def listed(self):
        """The peer ids the `joined` frame named as already in the room."""
        return [p.get("peerId") for p in (self.joined or {}).get("peers") or []]

    def mark(self):
        with self.lock:
            return len(self.frames)

    def after(self, mark=0):
        with self.lock:
            return [f for _, f in self.frames[mark:]]

    def wait(self, predicate, timeout=SIGNAL_SECONDS, mark=0):
        """(arrival time, frame) of the first frame after `mark` that satisfies `predicate`, None if none came."""
        def first():
            with self.lock:
                return next(((t, f) for t, f in self.frames[mark:] if predicate(f)), None)
        return wait_for(first, timeout, 0.02)

    def signals(self, mark=0, sender=None):
        """The `data` of the signal frames after `mark` (from `sender` when given), in arrival order."""
        return [f.get("data") for f in self.after(mark)
                if f.get("op") == "signal" and (sender is None or f.get("from") == sender)]

    def errors(self, mark=0):
        return [f for f in self.after(mark) if f.get("op") == "error"]

    def send_signal(self, to, data):
        self.ws.send_json({"op": "signal", "to": to, "data": data})

    def ping(self, timeout=SIGNAL_SECONDS):
        """Seconds until the pong, None when none came."""
        mark, sent = self.mark(), time.monotonic()
        try:
            self.ws.send_json({"op": "ping"})
        except OSError:
            return None
        got = self.wait(lambda f: f.get("op") == "pong", timeout, mark)
        return got[0] - sent if got else None


def join_until(endpoint, token, name, timeout):
    """Keeps trying to join until `joined` (a refused connection, a 502, an error frame or a closed socket: again
    after 0.1 s). Returns (SignalPeer or None, seconds it took, what the failed attempts got: "N× answer", …)."""
    started, failures = time.monotonic(), {}
    while True:
        try:
            peer = SignalPeer(endpoint, token, name, timeout=max(0.5, min(3.0, started + timeout - time.monotonic())))
            if peer.ok:
                return peer, time.monotonic() - started, failures
            answer = "no answer to the join" if peer.joined is None else json.dumps(peer.joined)[:160]
            peer.close()
        except (OSError, ConnectionError, TimeoutError, ValueError) as e:
            answer = f"{type(e).__name__}: {e}"[:160]
        failures[answer] = failures.get(answer, 0) + 1
        if time.monotonic() - started >= timeout:
            return None, time.monotonic() - started, failures
        time.sleep(0.1)


def attempts(failures):
    """join_until's failed attempts as text."""
    return "; ".join(f"{count}× {answer}" for answer, count in failures.items()) or "none failed"


def fake_sdp(label, size=SDP_BYTES):
    """An SDP-shaped text of about `size` bytes: short CRLF lines with quotes, a backslash and a non-ASCII
    letter, all of which grow when JSON-escaped."""
    lines = ["v=0", f"o=- {4611686018427387 + len(label)} 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1"]
    number = 0
    while sum(len(line) + 2 for line in lines) < size:
        lines.append(f'a=x-{label}:{number} "q" \\ é')
        number += 1
    return "\r\n".join(lines) + "\r\n"


def candidate(label, number):
    return {"type": "candidate", "candidate": f"candidate:{number} 1 udp 2122260223 192.0.2.{number + 1} "
                                               f"{50000 + number} typ host generation 0 ufrag {label}",
            "sdpMid": "0", "sdpMLineIndex": 0}


def near_query(limit=100):
    where = {"userLocation": {"$nearSphere": {"__type": "GeoPoint", "latitude": CENTRE[0], "longitude": CENTRE[1]},
                              "$maxDistanceInKilometers": 5}}
    return "/parse/classes/ActiveUsers?" + urllib.parse.urlencode({"where": json.dumps(where), "limit": limit})


class Run:
    def __init__(self, server_bin, intercomd_bin, database_url):
        self.server_bin = server_bin
        self.intercomd_bin = intercomd_bin
        self.database_url = database_url
        self.checks = Checks()
        self.workdir = tempfile.mkdtemp(prefix="intercom-postgres-fleet-")
        self.cluster_dir = None
        self.instances = []
        self.nginx = None
        self.nginx_process = None
        self.sockets = []
        self.master_key = secrets.token_hex(24)
        self.agents = []          # (h) intercomd run processes
        self.driver = None        # (h) chromedriver
        self.browser = None       # (h) the web caller page
        self.page_on = None       # (h) the instance that serves the page
        self.device_id = None     # (h) the device's userID (the same in every run: one state directory)
        self.placed = {}          # (h) LoggedProcess of an agent → calls placed to it

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def note(self, text):
        log(f"NOTE {text}")

    def prerequisites(self):
        problems = missing_prerequisites(binaries=(("intercom-server", self.server_bin),),
                                         tools=(("nginx", "nginx", "the load balancer in front of both instances"),))
        if not self.database_url and not os.path.isfile(PG_CLUSTER):
            problems.append(f"{PG_CLUSTER} is missing")
        for problem in problems:
            self.check("prerequisites", False, problem)
        return not problems

    def run(self):
        if not self.prerequisites():
            return self.checks
        try:
            self.fleet()
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure, never a skip
            self.check("postgres fleet harness", False, f"{type(e).__name__}: {e}")
        finally:
            for socket_ in self.sockets:
                socket_.close()
            if self.browser:
                self.browser.quit()
            if self.driver:
                self.driver.stop()
            for agent in self.agents:
                agent.stop()
            if self.nginx_process:
                self.nginx_process.stop(signal.SIGTERM)  # fast: WebSockets would hold a graceful stop
            for instance in self.instances:
                instance.process.stop()
            if self.cluster_dir:
                subprocess.run(["sh", PG_CLUSTER, "stop", self.cluster_dir], timeout=60)
            keep_or_remove(self.workdir, "POSTGRES_FLEET_KEEP", self.checks.failed)
        return self.checks

    # ── set-up ──

    def start_cluster(self):
        result = subprocess.run(["sh", PG_CLUSTER, "start", "intercom_fleet"], capture_output=True, text=True,
                                timeout=180)
        lines = result.stdout.split()
        if result.returncode == 0 and len(lines) >= 2:
            self.cluster_dir, self.database_url = lines[0], lines[1]
        return self.check("postgres: a throwaway PostgreSQL cluster and database (Tests/postgres/pg-cluster.sh)",
                          self.database_url, masked(self.database_url) if self.database_url else
                          f"exit {result.returncode}: {(result.stderr or result.stdout).strip()[-600:]}")

    def start_nginx(self, port, port_a, port_b):
        prefix = os.path.join(self.workdir, "nginx")
        os.makedirs(prefix)
        conf = os.path.join(prefix, "nginx.conf")
        with open(conf, "w", encoding="utf-8") as f:
            f.write(NGINX_CONF.format(prefix=prefix, port=port, port_a=port_a, port_b=port_b))
        nginx = find_tool("nginx")
        test = subprocess.run([nginx, "-t", "-q", "-e", "stderr", "-c", conf, "-p", prefix], capture_output=True, text=True)
        if not self.check("nginx -t accepts the load balancer's configuration", test.returncode == 0,
                          conf if test.returncode == 0 else test.stderr.strip()[-600:]):
            return False
        self.nginx_process = LoggedProcess([nginx, "-e", "stderr", "-c", conf, "-p", prefix], prefix, "nginx")
        self.nginx = Endpoint("nginx", port)
        answered = wait_for(lambda: self.nginx.request("GET", "/health", timeout=2)[0] == 200
                            or self.nginx_process.process.poll() is not None, 10, 0.1)
        status, body, headers = self.nginx.request("GET", "/health")
        return self.check("nginx runs in the foreground and proxies /health to the fleet", answered and status == 200,
                          f"127.0.0.1:{port} → {headers.get('x-upstream')}: {status} {body}" if status else
                          f"{body}; nginx: " + " | ".join(self.nginx_process.tail(5)))

    def upstream_name(self, header):
        """The instance that answered (the last address nginx tried), with the ones it tried before."""
        names = {f"127.0.0.1:{i.port}": i.label for i in self.instances}
        tried = [names.get(a.strip(), a.strip() or "?") for a in header.split(",")] if header else ["?"]
        return tried[-1], tried[:-1]

    def fleet(self):
        if not self.database_url and not self.start_cluster():
            return
        log(f"database: {masked(self.database_url)}")
        master_key_file = os.path.join(self.workdir, "master-key")
        with open(master_key_file, "w", encoding="utf-8") as f:
            f.write(self.master_key + "\n")
        os.makedirs(os.path.join(self.workdir, "files"))
        nginx_port = free_port()  # public_url names nginx, which starts once the instances listen
        public_url = f"http://127.0.0.1:{nginx_port}"
        # Both at once, as two hosts of a fleet would start: the schema and the token keys must survive the race.
        self.instances = [Instance(name, self.server_bin, self.workdir, self.database_url, master_key_file, public_url)
                          for name in ("A", "B")]
        started = [instance.wait_listening(START_SECONDS) for instance in self.instances]
        for instance, (ok, detail) in zip(self.instances, started):
            self.check(f"{instance.name} starts at the same time as the other on PostgreSQL (database_url) and listens",
                       ok, detail)
        if not all(ok for ok, _ in started):
            return
        a, b = self.instances
        if not self.start_nginx(nginx_port, a.port, b.port):
            return

        for instance in self.instances:
            self.health(instance, "while both are up")
        # Each part on its own: one that breaks (an exception is a FAIL line) leaves the next ones their say.
        for part in (self.queries_through_nginx, self.shared_sessions, self.shared_files, self.live_query_across_instances,
                     self.signaling_across_instances, self.owner_death, self.real_call, self.failover):
            try:
                part()
            except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure, never a skip
                self.check(f"{part.__name__.replace('_', ' ')}: the part ran to its end", False,
                           f"{type(e).__name__}: {e}")
        for instance in self.instances:
            exited = instance.unexpected_exit()
            self.check(f"{instance.name} ran until the test stopped it (no crash)", exited is None, exited or "")

    # ── the checks ──

    def health(self, instance, when):
        status, body, _ = instance.request("GET", "/health")
        text = json.dumps(body) if isinstance(body, (dict, list)) else str(body)
        return self.check(f"(e) /health of {instance.name} answers 200 {when}", status == 200, f"{status} {text}")

    def queries_through_nginx(self):
        rows = {}             # objectId → (round, instance that stored it)
        answered = {}         # instance → requests it answered
        queries = []          # (instance that answered, rows it found, rows it should have found)
        problems = []
        for round_ in range(ROUNDS):
            try:
                user_id, token, upstream = self.nginx.sign_up()
            except RuntimeError as e:
                problems.append(f"round {round_}: {e}")
                continue
            who, _ = self.upstream_name(upstream)
            answered[who] = answered.get(who, 0) + 1
            status, row, headers = self.nginx.request("POST", "/parse/classes/ActiveUsers", {
                "userID": user_id, "userTitle": f"fleet {round_}", "deviceKind": "intercom",
                "userLocation": {"__type": "GeoPoint", "latitude": CENTRE[0] + 0.001 * round_, "longitude": CENTRE[1]}},
                token=token)
            who, _ = self.upstream_name(headers.get("x-upstream", ""))
            answered[who] = answered.get(who, 0) + 1
            if status != 201 or not isinstance(row, dict):
                problems.append(f"round {round_}: ActiveUsers create through {who} answered {status} {row}")
                continue
            rows[row["objectId"]] = (round_, who)
            status, found, headers = self.nginx.request("GET", near_query(), token=token)
            who, _ = self.upstream_name(headers.get("x-upstream", ""))
            answered[who] = answered.get(who, 0) + 1
            ids = [r.get("objectId") for r in found.get("results", [])] if status == 200 and isinstance(found, dict) else []
            missing = sorted(set(rows) - set(ids))
            queries.append((who, set(ids), set(rows)))
            if status != 200 or missing:
                problems.append(f"round {round_}: $nearSphere through {who} answered {status}, "
                                f"missing {len(missing)} of {len(rows)} rows")
        self.check(f"(a) {ROUNDS} rounds through nginx: anonymous sign-up, an ActiveUsers row with a geopoint, a "
                   "$nearSphere query that finds every row so far", not problems and len(rows) == ROUNDS,
                   "; ".join(problems[:4]) or f"{len(rows)} rows, requests answered: {answered}")

        # Which instance stored each row, and which answered each query: a query must have found rows the other wrote.
        cross = {}
        for who, found_ids, _ in queries:
            cross[who] = max(cross.get(who, 0), sum(1 for rid, (_, writer) in rows.items()
                                                    if writer != who and rid in found_ids))
        self.check("(a) nginx spread the requests over both instances, and each answered a $nearSphere query "
                   "with rows written through the other",
                   set(answered) == {"A", "B"} and all(cross.get(name, 0) > 0 for name in ("A", "B")),
                   f"answered {answered}; rows found that the other instance wrote: {cross}")

        # The same query asked of each instance directly: the same rows in the same (distance) order.
        orders = {}
        for instance in self.instances:
            status, found, _ = instance.request("GET", near_query())
            orders[instance.label] = ([r.get("objectId") for r in found.get("results", [])]
                                      if status == 200 and isinstance(found, dict) else [f"status {status}: {found}"])
        ours = [rid for rid, _ in sorted(rows.items(), key=lambda item: item[1][0])]
        in_order = [rid for rid in orders.get("A", []) if rid in rows]
        self.check("(a) A and B asked directly return the same $nearSphere results, nearest first",
                   orders.get("A") == orders.get("B") and in_order == ours and len(ours) == ROUNDS,
                   f"A {len(orders.get('A', []))} rows, B {len(orders.get('B', []))} rows, "
                   f"same list: {orders.get('A') == orders.get('B')}, ours nearest first: {in_order == ours}")

    def shared_sessions(self):
        a, b = self.instances
        try:
            user_id, token, _ = a.sign_up()
        except RuntimeError as e:
            self.check("(c) a session token issued by instance A works on instance B", False, str(e))
            return
        status, me, _ = b.request("GET", "/parse/users/me", token=token)
        self.check("(c) a session token issued by instance A works on instance B (GET /parse/users/me)",
                   status == 200 and isinstance(me, dict) and me.get("objectId") == user_id,
                   f"{status} {me if status != 200 else me.get('objectId')}")
        out_status, out, _ = b.request("POST", "/parse/logout", {}, token=token)
        after_status, after, _ = a.request("GET", "/parse/users/me", token=token)
        self.check("(c) a logout through instance B ends the session on instance A (code 209)",
                   out_status == 200 and isinstance(after, dict) and after.get("code") == 209,
                   f"logout on B {out_status} {out}; /users/me on A {after_status} {after}")

    def shared_files(self):
        """(c) Parse Files: uploaded through A, served by B; deleted through B, gone on A; no instance's disk holds it."""
        a, b = self.instances
        try:
            _, token, _ = a.sign_up()
        except RuntimeError as e:
            self.check("(c) a file uploaded through A is served by B", False, str(e))
            return
        picture = bytes([0xFF, 0xD8, 0xFF, 0xE0]) + os.urandom(20000) + bytes([0xFF, 0xD9])
        connection = http.client.HTTPConnection("127.0.0.1", a.port, timeout=10)
        try:
            connection.request("POST", "/parse/files/door.jpg", body=picture, headers={
                "X-Parse-Application-Id": APP_ID, "X-Parse-Session-Token": token, "Content-Type": "image/jpeg"})
            response = connection.getresponse()
            uploaded = json.loads(response.read().decode() or "null")
            upload_status = response.status
        except (OSError, ValueError) as e:
            upload_status, uploaded = 0, f"{type(e).__name__}: {e}"
        finally:
            connection.close()
        name = uploaded.get("name") if isinstance(uploaded, dict) else None
        served = None
        if name:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{b.port}/parse/files/{APP_ID}/{urllib.parse.quote(name)}",
                                            timeout=10) as answer:
                    served = answer.read()
            except (OSError, urllib.error.URLError) as e:
                served = f"{type(e).__name__}: {e}"
        on_disk = []
        for instance in (a, b):
            directory = os.path.join(instance.workdir, "files-" + instance.label)
            on_disk += os.listdir(directory) if os.path.isdir(directory) else []
        self.check("(c) a file uploaded through A is served byte for byte by B (its bytes in PostgreSQL, on neither "
                   "instance's disk)", upload_status == 201 and served == picture and not on_disk,
                   f"upload {upload_status} {uploaded if upload_status != 201 else name}; B served "
                   f"{len(served) if isinstance(served, bytes) else served} bytes"
                   f"{' (the same)' if served == picture else ''}; files on the instances' disks: {on_disk}")
        if not name:
            return
        status, body, _ = b.request("DELETE", f"/parse/files/{urllib.parse.quote(name)}", token=token)
        gone = 0
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{a.port}/parse/files/{APP_ID}/{urllib.parse.quote(name)}", timeout=10)
        except urllib.error.HTTPError as e:
            gone = e.code
        except OSError as e:
            gone = f"{type(e).__name__}: {e}"
        self.check("(c) the uploader deletes it through B; A answers 404 for it", status == 200 and gone == 404,
                   f"DELETE on B {status} {body}; GET on A {gone}")

    def live_query_across_instances(self):
        a, b = self.instances
        receiver_id, receiver_token, _ = a.sign_up()
        caller_id, caller_token, _ = b.sign_up()
        where = {"receiverID": receiver_id}
        on_a = LiveQuery(a, receiver_token, "ActiveSessions", where)
        on_b = LiveQuery(b, receiver_token, "ActiveSessions", where)
        self.sockets += [on_a, on_b]
        if not self.check("(b) LiveQuery subscriptions on ActiveSessions opened directly to A and to B (the receiver's session)",
                          on_a.ready and on_b.ready, f"A: {on_a.describe()}; B: {on_b.describe()}"):
            return
        written = time.monotonic()
        status, row, _ = b.request("POST", "/parse/classes/ActiveSessions", {
            "callerID": caller_id, "callerTitle": "Fleet caller", "receiverID": receiver_id,
            "isVideo": True, "isAudio": True}, token=caller_token)
        row_id = row.get("objectId") if status == 201 and isinstance(row, dict) else None
        if not self.check("(b) the caller creates an ActiveSessions row through instance B", row_id,
                          f"{status} {row_id}" if row_id else f"{status} {row}"):
            return
        created_a, created_b = on_a.wait("create", row_id), on_b.wait("create", row_id)
        self.note(f"create event {1000 * (created_a - written):.0f} ms after the write on A, "
                  f"{1000 * (created_b - written):.0f} ms on B" if created_a and created_b else
                  f"create event on A: {created_a is not None}, on B: {created_b is not None}")

        self.call_token_across_instances(row_id, receiver_token)

        status, updated, _ = b.request("PUT", f"/parse/classes/ActiveSessions/{row_id}", {"isVideo": False},
                                       token=caller_token)
        on_a.wait("update", row_id)
        on_b.wait("update", row_id)
        del_status, deleted, _ = b.request("DELETE", f"/parse/classes/ActiveSessions/{row_id}", token=caller_token)
        on_a.wait("delete", row_id)
        on_b.wait("delete", row_id)
        time.sleep(QUIET_SECONDS)
        counts = {name: {op: len(socket_.events(op, row_id)) for op in ("create", "update", "delete")}
                  for name, socket_ in (("A", on_a), ("B", on_b))}
        self.check("(b) the subscription on instance A gets the create of the row written through B, exactly once",
                   counts["A"]["create"] == 1, f"events on A: {counts['A']}")
        self.check("(b) the subscription on instance A gets the update and the delete made through B, exactly once each",
                   status == 200 and del_status == 200 and counts["A"]["update"] == 1 and counts["A"]["delete"] == 1,
                   f"update {status}{'' if status == 200 else f' {updated}'}, delete {del_status}"
                   f"{'' if del_status == 200 else f' {deleted}'}; events on A: {counts['A']}; all ops on A: {on_a.ops()}")
        self.check("(b) the writer's own subscription (on B) gets create, update and delete exactly once each "
                   "(no echo of its own notification)",
                   counts["B"] == {"create": 1, "update": 1, "delete": 1}, f"events on B: {counts['B']}")
        gone, body, _ = a.request("GET", f"/parse/classes/ActiveSessions/{row_id}", master_key=self.master_key)
        self.check("(b) the row deleted through B is gone on A (master key GET: 404)", gone == 404, f"{gone} {body}")

    def call_token_across_instances(self, row_id, receiver_token):
        """A call token minted by B is accepted by A's /signal (both use the token keys kept in the database)."""
        a, _ = self.instances
        status, row, _ = a.request("GET", f"/parse/classes/ActiveSessions/{row_id}", token=receiver_token)
        tokens = (row.get("publisherToken"), row.get("subscriberToken")) if status == 200 and isinstance(row, dict) else (None, None)
        if not self.check("(b) the receiver reads the call row written through B on instance A, with its call tokens",
                          all(tokens), f"{status} {row if status != 200 else sorted(row)}"):
            return
        device = SignalPeer(a, tokens[0], "Fleet gate")
        device.close()
        self.check("(b) a call token minted by instance B is accepted by instance A's /signal (shared token keys)",
                   device.ok, str(device.joined))

    # ── (f), (g): signaling across instances ──

    def call_row(self, via, caller, receiver_id):
        """A call from `caller` (userID, session token) to `receiver_id` created through `via`; the row with its
        call tokens, read back by the caller. Raises when refused."""
        status, body, _ = via.request("POST", "/parse/classes/ActiveSessions", {
            "callerID": caller[0], "callerTitle": "Fleet caller", "receiverID": receiver_id,
            "isVideo": True, "isAudio": True}, token=caller[1])
        if status != 201 or not isinstance(body, dict):
            raise RuntimeError(f"a call row through {via.name} answered {status}: {body}")
        status, row, _ = via.request("GET", f"/parse/classes/ActiveSessions/{body['objectId']}", token=caller[1])
        if status != 200 or not isinstance(row, dict) or not row.get("publisherToken") or not row.get("subscriberToken"):
            raise RuntimeError(f"reading the call row back through {via.name} answered {status}: {row}")
        return row

    def relay(self, sender, receiver, sent, quiet=1.0):
        """Sends the signal payloads `sent` from `sender` to `receiver`. Returns (the payloads that arrived from
        the sender, in order; seconds from the first send to the first arrival or None; detail text)."""
        mark, sender_mark = receiver.mark(), sender.mark()
        started = time.monotonic()
        try:
            for data in sent:
                sender.send_signal(receiver.peer_id, data)
        except OSError as e:
            return [], None, f"sending failed: {type(e).__name__}: {e}"
        first = receiver.wait(lambda f: f.get("op") == "signal" and f.get("from") == sender.peer_id, SIGNAL_SECONDS, mark)
        wait_for(lambda: len(receiver.signals(mark, sender.peer_id)) >= len(sent), SIGNAL_SECONDS, 0.02)
        time.sleep(quiet)  # a second copy of anything would come within this
        got = receiver.signals(mark, sender.peer_id)
        took = first[0] - started if first else None
        copies = len(got) - len({json.dumps(d, sort_keys=True) for d in got})
        position = next((i for i, (x, y) in enumerate(zip(got, sent)) if x != y), None)
        detail = (f"{len(got)} of {len(sent)} arrived" + (f", the first {1000 * took:.0f} ms after the send" if took else "")
                  + f"; {copies} duplicates" + (f"; first difference at #{position}" if position is not None else "")
                  + (f"; the sender got {sender.errors(sender_mark)[:2]}" if sender.errors(sender_mark) else "")
                  + (f"; the receiver's socket closed" if receiver.closed_at else ""))
        return got, took, detail

    def bus_figures(self, instance):
        status, body, _ = instance.request("GET", "/health", timeout=5)
        return (body or {}).get("busFigures") if isinstance(body, dict) else f"/health {status}"

    def revive(self, instance, part):
        """Starts a killed instance again (same config and port) and waits for its /health 200."""
        if not instance.killed:
            return True
        instance.restart()
        ok, detail = instance.wait_listening(START_SECONDS)
        healthy = ok and wait_for(lambda: instance.request("GET", "/health", timeout=2)[0] == 200, 10, 0.1)
        return self.check(f"({part}) {instance.name} starts again after the kill (same config and port): listens, "
                          "/health 200", healthy, detail if ok and healthy else
                          f"{detail}; /health {instance.request('GET', '/health', timeout=2)[:2]}")

    def signaling_across_instances(self):
        a, b = self.instances
        device_user, caller_user = a.sign_up()[:2], b.sign_up()[:2]
        row = self.call_row(b, caller_user, device_user[0])
        figures = {i.label: self.bus_figures(i) for i in self.instances}
        peers = []
        try:
            device = SignalPeer(a, row["publisherToken"], "Fleet gate")
            peers.append(device)
            if not self.check("(f) the device joins /signal directly on instance A (the first: A owns the room)",
                              device.ok, str(device.joined)):
                return
            caller = SignalPeer(b, row["subscriberToken"], "Fleet caller")
            peers.append(caller)
            self.check("(f) the caller joins /signal directly on instance B; its joined frame lists the device on A",
                       caller.ok and device.peer_id in caller.listed() and caller.peer_id != device.peer_id,
                       f"{caller.joined}; the device is {device.peer_id}")
            seen = device.wait(lambda f: f.get("op") == "peer-joined" and f.get("peerId") == caller.peer_id)
            self.check("(f) the device on A sees peer-joined for the caller on B", caller.ok and seen,
                       str(seen[1]) if seen else f"frames on A: {device.after()[:3]}")
            if not caller.ok:
                return

            offer = {"type": "offer", "sdp": fake_sdp("offer")}
            frame_bytes = len(json.dumps({"op": "signal", "from": device.peer_id, "data": offer}).encode())
            sent = [offer] + [candidate("a2b", n) for n in range(CANDIDATES)]
            got, _, detail = self.relay(device, caller, sent)
            self.check(f"(f) A → B: an offer with {len(offer['sdp'].encode())} bytes of SDP ({frame_bytes} bytes as a "
                       f"relayed frame: past NOTIFY's 8000) and {CANDIDATES} numbered candidates arrive exactly once, "
                       "in order, unchanged", got == sent, detail)
            answer = {"type": "answer", "sdp": fake_sdp("answer")}
            sent = [answer] + [candidate("b2a", n) for n in range(CANDIDATES)]
            got, _, detail = self.relay(caller, device, sent)
            self.check(f"(f) B → A: an answer of the same size and {CANDIDATES} numbered candidates arrive exactly once, "
                       "in order, unchanged", got == sent, detail)
            pongs = {"device on A": device.ping(), "caller on B": caller.ping()}
            self.check("(f) ping → pong on both sockets", all(t is not None for t in pongs.values()),
                       ", ".join(f"{name}: {'no pong' if t is None else f'{1000 * t:.0f} ms'}" for name, t in pongs.items()))

            status, minted, _ = b.request("POST", "/parse/functions/viewerToken", {"sessionID": row["sessionID"]},
                                          token=caller_user[1])
            token = ((minted or {}).get("result") or {}).get("token") if isinstance(minted, dict) else None
            if not self.check("(f) the caller gets a viewer token through B (viewerToken)", status == 200 and token,
                              f"{status} {minted}"):
                return
            device_mark = device.mark()
            viewer = SignalPeer(b, token, "Fleet viewer")
            peers.append(viewer)
            self.check("(f) a viewer joins on B as a subscriber; its joined frame lists the device (on A) and the caller",
                       viewer.ok and viewer.joined.get("role") == "subscriber"
                       and {device.peer_id, caller.peer_id} <= set(viewer.listed()), str(viewer.joined))
            seen = device.wait(lambda f: f.get("op") == "peer-joined" and f.get("peerId") == viewer.peer_id,
                               mark=device_mark)
            self.check("(f) the device on A sees the viewer on B join", viewer.ok and seen,
                       str(seen[1]) if seen else f"frames on A since: {device.after(device_mark)[:3]}")
            if not viewer.ok:
                return
            to_viewer = [{"type": "offer", "sdp": "v=0\r\na=sendonly\r\n"}]
            got_offer, _, offer_detail = self.relay(device, viewer, to_viewer, quiet=0.5)
            to_device = [{"type": "answer", "sdp": "v=0\r\na=recvonly\r\n"}]
            got_answer, _, answer_detail = self.relay(viewer, device, to_device, quiet=0.5)
            self.check("(f) the device's offer on A reaches the viewer on B, and the viewer's answer comes back, once each",
                       got_offer == to_viewer and got_answer == to_device,
                       f"offer: {offer_detail}; answer: {answer_detail}")
            device_mark, viewer_mark = device.mark(), viewer.mark()
            viewer.send_signal(device.peer_id, {"type": "offer", "sdp": "v=0\r\na=sendrecv\r\n"})
            refusal = viewer.wait(lambda f: f.get("op") == "error", SIGNAL_SECONDS, viewer_mark)
            time.sleep(0.5)
            leaked = device.signals(device_mark, viewer.peer_id)
            self.check("(f) the viewer's own offer to the device on A is refused 'forbidden' and not relayed",
                       refusal and refusal[1].get("code") == "forbidden" and not leaked,
                       f"the viewer got {refusal[1] if refusal else 'no error'}; the device got {leaked}")
            device_mark = device.mark()
            viewer.close()
            peers.remove(viewer)
            left = device.wait(lambda f: f.get("op") == "peer-left" and f.get("peerId") == viewer.peer_id,
                               mark=device_mark)
            self.check("(f) the device on A sees the viewer on B leave (peer-left)", left,
                       str(left[1]) if left else f"frames on A since: {device.after(device_mark)[:3]}")
        finally:
            for peer in peers:
                peer.close()
            after = {i.label: self.bus_figures(i) for i in self.instances}
            self.note(f"bus figures before and after (f): A {figures['A']} → {after['A']}; B {figures['B']} → {after['B']}")

    def owner_death(self):
        a, b = self.instances
        device_user, caller_user = a.sign_up()[:2], a.sign_up()[:2]
        row = self.call_row(a, caller_user, device_user[0])
        peers = []
        try:
            caller = SignalPeer(b, row["subscriberToken"], "Fleet caller")
            peers.append(caller)
            device = SignalPeer(a, row["publisherToken"], "Fleet gate") if caller.ok else None
            if device:
                peers.append(device)
            seen = caller.wait(lambda f: f.get("op") == "peer-joined" and f.get("peerId") == device.peer_id) \
                if device and device.ok else None
            if not self.check("(g) the caller joins on B first (B owns the room), the device on A, and the caller sees "
                              "it join", caller.ok and device and device.ok and seen,
                              f"caller {caller.joined}; device {device.joined if device else '-'}; peer-joined "
                              f"{seen[1] if seen else 'not seen'}"):
                return
            got_b2a, _, detail_b2a = self.relay(caller, device, [candidate("before-b2a", 0)], quiet=0.3)
            got_a2b, _, detail_a2b = self.relay(device, caller, [candidate("before-a2b", 0)], quiet=0.3)
            self.check("(g) before the kill a signal relays both ways, once", len(got_b2a) == 1 and len(got_a2b) == 1,
                       f"B → A: {detail_b2a}; A → B: {detail_a2b}")

            b.kill()
            killed = time.monotonic()
            # The caller's client reconnects at once (through nginx, as its signalURL says) while the device's
            # socket on A is watched: both at the same time, as they would happen.
            rejoined = {}

            def caller_rejoins():
                rejoined["result"] = join_until(self.nginx, row["subscriberToken"], "Fleet caller", REJOIN_SECONDS)
                rejoined["at"] = time.monotonic() - killed
            rejoiner = threading.Thread(target=caller_rejoins, daemon=True)
            rejoiner.start()
            closed = wait_for(lambda: device.closed_at, OWNER_CLOSE_SECONDS + 0.5, 0.05)
            # A ping would be answered by A itself: only the close says A saw the room's owner die.
            self.check(f"(g) B (the room's owner) SIGKILLed mid-call: within {OWNER_CLOSE_SECONDS:.1f} s the server closes "
                       "the device's socket on A, so that it rejoins and the room moves",
                       closed and closed - killed <= OWNER_CLOSE_SECONDS,
                       f"closed by A {closed - killed:.2f} s after the kill" if closed else
                       f"still open {time.monotonic() - killed:.1f} s after the kill")
            rejoiner.join(REJOIN_SECONDS + 5)
            caller_again, _, failures = rejoined.get("result", (None, 0, {}))
            caller_at = rejoined.get("at")
            if caller_again:
                peers.append(caller_again)
            timeline = [f"caller joined again through nginx at {caller_at:.2f} s" if caller_again else
                        "caller did not join again"]
            # A socket joined before A noticed the owner's death may be closed by the takeover: a client then
            # rejoins again, and so does this one (within the same REJOIN_SECONDS of the kill).
            time.sleep(0.3)
            if caller_again and caller_again.closed_at:
                timeline.append(f"closed by the server at {caller_again.closed_at - killed:.2f} s")
                caller_again, _, more = join_until(self.nginx, row["subscriberToken"], "Fleet caller",
                                                   max(0.5, killed + REJOIN_SECONDS - time.monotonic()))
                for answer, count in more.items():
                    failures[answer] = failures.get(answer, 0) + count
                caller_at = time.monotonic() - killed
                if caller_again:
                    peers.append(caller_again)
                    timeline.append(f"joined again at {caller_at:.2f} s")
            self.check(f"(g) the caller (its instance gone) reconnects through nginx and is in the room again within "
                       f"{REJOIN_SECONDS:.0f} s of the kill", caller_again and caller_at <= REJOIN_SECONDS,
                       ", ".join(timeline) + f"; failed attempts: {attempts(failures)}")
            device_again, device_at = device, None
            if closed:
                device_again, _, device_failures = join_until(a, row["publisherToken"], "Fleet gate",
                                                              max(0.5, killed + REJOIN_SECONDS - time.monotonic()))
                if device_again:
                    peers.append(device_again)
                device_at = time.monotonic() - killed
                self.check(f"(g) the device (its socket closed by A) rejoins on A within {REJOIN_SECONDS:.0f} s of the kill",
                           device_again and device_at <= REJOIN_SECONDS,
                           f"{'joined' if device_again else 'not joined'} {device_at:.2f} s after the kill; failed "
                           f"attempts: {attempts(device_failures)}")
            if not (caller_again and device_again):
                return
            got_b2a, _, detail_b2a = self.relay(caller_again, device_again, [candidate("after-b2a", 0)], quiet=0.3)
            got_a2b, _, detail_a2b = self.relay(device_again, caller_again, [candidate("after-a2b", 0)], quiet=0.3)
            relayed_at = time.monotonic() - killed
            self.check("(g) after the kill signals relay both ways again, once each",
                       got_b2a == [candidate("after-b2a", 0)] and got_a2b == [candidate("after-a2b", 0)],
                       f"caller → device: {detail_b2a}; device → caller: {detail_a2b}")
            self.note("owner death timings after the SIGKILL of B: device's socket "
                      + (f"closed by A at {closed - killed:.2f} s" if closed else "left open") + "; "
                      + ", ".join(timeline)
                      + (f"; device rejoined at {device_at:.2f} s" if device_at is not None else "")
                      + f"; both relays checked by {relayed_at:.2f} s")
        finally:
            for peer in peers:
                peer.close()
            self.revive(b, "g")

    # ── (h): the real call ──

    def nginx_upstreams(self):
        """Established connections from nginx's processes to each instance: {label: count}."""
        master = self.nginx_process.pid
        pids = [master]
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                        if int(f.read().rsplit(")", 1)[1].split()[1]) == master:
                            pids.append(int(entry))
                except (OSError, ValueError, IndexError):
                    continue
        inodes = set()
        for pid in pids:
            try:
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    try:
                        link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    except OSError:
                        continue
                    if link.startswith("socket:["):
                        inodes.add(link[8:-1])
            except OSError:
                continue
        ports = {i.port: i.label for i in self.instances}
        counts = {label: 0 for label in ports.values()}
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(table, encoding="ascii") as f:
                    rows = f.read().splitlines()[1:]
            except OSError:
                continue
            for row in rows:
                fields = row.split()
                if len(fields) > 9 and fields[3] == "01" and fields[9] in inodes:
                    port = int(fields[2].rsplit(":", 1)[1], 16)
                    if port in ports:
                        counts[ports[port]] += 1
        return counts

    def websocket_holder(self, timeout):
        """The instance that holds nginx's one long-lived upstream connection (the idle device's LiveQuery socket):
        the same one instance in three samples 0.3 s apart; None if none within `timeout`."""
        def sample():
            seen = []
            for _ in range(3):
                counts = self.nginx_upstreams()
                seen.append(frozenset(label for label, n in counts.items() if n))
                time.sleep(0.3)
            return next(iter(seen[0])) if len(set(seen)) == 1 and len(seen[0]) == 1 else None
        label = wait_for(sample, timeout, 0.1)
        return next((i for i in self.instances if i.label == label), None)

    def access_log(self):
        try:
            with open(os.path.join(self.workdir, "nginx", "access.log"), encoding="utf-8", errors="replace") as f:
                return f.read().splitlines()
        except OSError:
            return []

    def agent_health(self, agent):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{agent.metrics_port}/health", timeout=3) as response:
                return json.loads(response.read())
        except (OSError, ValueError) as e:
            return {"error": str(e)}

    def start_agent(self, label, endpoint, where):
        """`intercomd run` (auto answer, test pattern, tone) with server_url on `endpoint`; the same state
        directory every time, so the same anonymous userID."""
        metrics_port = free_port()
        config = write_agent_config(os.path.join(self.workdir, f"{label}.toml"), f"http://127.0.0.1:{endpoint.port}",
                                    DEVICE["title"], DEVICE["lat"], DEVICE["lon"],
                                    os.path.join(self.workdir, "device-state"), metrics_port)
        agent = LoggedProcess([self.intercomd_bin, "run", "--config", config], self.workdir, label,
                              env=agent_environment())
        agent.metrics_port = metrics_port
        self.agents.append(agent)
        ready = agent.wait_line(r"ready: (.*)", 30)
        subscribed = ready and agent.wait_line(r"LiveQuery subscribed", 15)
        user = agent.find(r"logged in to the backend userID=(\w+)")
        ok = ready and subscribed and user and (not self.device_id or user.group(1) == self.device_id)
        self.check(f"(h) intercomd run with server_url {where} logs in, is ready and subscribes to LiveQuery", ok,
                   f"{ready.group(0)}; userID {user.group(1)}" if ok else
                   f"ready {bool(ready)}, subscribed {bool(subscribed)}, userID {user.group(1) if user else None} "
                   f"(before: {self.device_id}): " + " | ".join(agent.tail(5)))
        if ok:
            self.device_id = user.group(1)
        return agent if ok else None

    def open_page(self, instance):
        """The web caller served by `instance`: signed in, the device's call button enabled."""
        b = self.browser
        b.open(f"http://127.0.0.1:{instance.port}/")
        loaded = wait_for(b.loaded, 15)
        user = b.sign_in(CALLER["name"], CALLER["lat"], CALLER["lon"]) if loaded else None
        ok = loaded and user and wait_callable(b, self.device_id, 20)
        self.page_on = instance if ok else None
        return self.check(f"(h) the web caller served by {instance.name} signs in and lists the device", ok,
                          f"page userID {user}" if ok else f"loaded {bool(loaded)}, page userID {user}, status "
                          f"{b.text('#status')!r}")

    def page_stats(self):
        return self.browser.promise("window.intercom.stats().then((s) => Object.assign({}, s, {at: performance.now()}))") or {}

    def connect_call(self, label, agent):
        """Clicks the device's call button; True when the page is in-call with video decoded."""
        b = self.browser
        if not self.check(f"{label}: the device's call button is enabled", wait_callable(b, self.device_id, 20),
                          f"page {b.state()}, {b.text('#status')!r}"):
            return None
        since = agent.mark()
        self.placed[agent] = self.placed.get(agent, 0) + 1
        clicked = time.monotonic()
        b.click(call_button(self.device_id))
        connected = b.wait_state("in-call", CONNECT_SECONDS) == "in-call" and wait_for(
            lambda: (b.stats() or {}).get("framesDecoded", 0) > 30, CONNECT_SECONDS, 0.1)
        took = time.monotonic() - clicked
        if not self.check(f"{label}: the call connects (page in-call, the device's video decoded)", connected,
                          f"in {took:.1f} s" if connected else f"page {b.state()}, {b.text('#call-status')!r}; device: "
                          + " | ".join(agent.stderr(since)[-4:])):
            self.hang_up(agent, since, outcome_seconds=5)
            return None
        return since

    def measure(self, label):
        first = self.page_stats()
        time.sleep(MEASURE_SECONDS)
        last = self.page_stats()
        seconds = (last.get("at", 0) - first.get("at", 0)) / 1000
        frames = last.get("framesDecoded", 0) - first.get("framesDecoded", 0)
        audio = last.get("audioPacketsReceived", 0) - first.get("audioPacketsReceived", 0)
        fps = frames / seconds if seconds > 0 else 0
        return self.check(f"{label}: Chromium decodes the device's video at >= {MIN_FPS:.0f} fps and receives its audio",
                          fps >= MIN_FPS and audio > 0, f"{frames} frames of {last.get('frameWidth')}x"
                          f"{last.get('frameHeight')} in {seconds:.1f} s = {fps:.1f} fps, {audio} audio packets")

    def hang_up(self, agent, since, outcome_seconds=20):
        b = self.browser
        try:
            if b.visible("#hangup"):
                b.click("#hangup")
        except Exception:  # noqa: BLE001 - the outcome below says what happened
            pass
        ended = b.wait_state({"ended", "idle"}, 10)
        return ended, agent.wait_line(OUTCOME, outcome_seconds, since)

    def end_call(self, label, agent, since):
        ended, outcome = self.hang_up(agent, since)
        return self.check(f"{label}: the page hangs up; the device logs the call answered",
                          ended in ("ended", "idle") and outcome and outcome.group(2).startswith("answered"),
                          f"page {ended}; " + (outcome.group(0) if outcome else " | ".join(agent.tail(4))))

    def real_call(self):
        problems = missing_prerequisites(binaries=(("intercomd", self.intercomd_bin),)) + missing_browser()
        for problem in problems:
            self.check("(h) prerequisites", False, problem)
        if problems:
            return
        failed_before = self.checks.failed
        try:
            self.driver = ChromeDriver(self.workdir)
            if not self.check("(h) chromedriver starts", self.driver.ready, self.driver.url):
                return
            self.browser = WebCallerBrowser(self.driver.url, os.path.join(self.workdir, "profile"), label="caller",
                                            extra_args=[PLAIN_IP_CANDIDATES], window_size="900,1000", browser_log=True)
            self.calls_across_instances()
        finally:
            if self.browser and self.checks.failed > failed_before:
                log("---- page log ----")
                for line in self.browser.page_log(25):
                    log(f"  {line}")
            if self.browser:
                self.browser.quit()
                self.browser = None
            if self.driver:
                self.driver.stop()
                self.driver = None
            for agent in self.agents:
                agent.stop()
            for instance in self.instances:
                self.revive(instance, "h")

    def calls_across_instances(self):
        a, b = self.instances
        agent = self.start_agent("agent-on-A", a, "straight at instance A")
        if not agent or not self.open_page(b):
            return
        label = "(h) device on A, web caller on B"
        since = self.connect_call(label, agent)
        if since is not None:
            upstreams = self.nginx_upstreams()
            self.check(f"{label}: the two parties' signaling sockets are on different instances (nginx's upstream "
                       "connections during the call)", all(upstreams.get(i.label) for i in self.instances),
                       f"{upstreams}")
            self.measure(label)
            self.end_call(label, agent, since)

        # (i) the device on nginx, idle: the instance holding its LiveQuery socket dies.
        agent.stop()
        agent = self.start_agent("agent-on-nginx", self.nginx, "on nginx")
        if not agent:
            return
        victim = self.websocket_holder(10)
        if not self.check("(h)(i) the idle device's LiveQuery socket goes through nginx to one instance", victim,
                          f"{victim.name if victim else 'none'}; nginx's upstream connections {self.nginx_upstreams()}"):
            return
        survivor = b if victim is a else a
        mark = agent.mark()
        victim.kill()
        killed = time.monotonic()
        down_at = up_at = None
        while time.monotonic() - killed < RECONNECT_SECONDS + 5 and up_at is None:
            if down_at is None and agent.find(r"LiveQuery down", mark):
                down_at = time.monotonic() - killed
            if down_at is not None and agent.find(r"LiveQuery subscribed", mark):
                up_at = time.monotonic() - killed
            time.sleep(0.05)
        holder = self.websocket_holder(3) if up_at is not None else None
        health = self.agent_health(agent)
        self.check(f"(h)(i) {victim.name} SIGKILLed while the device is idle: the device subscribes again through nginx, "
                   f"on {survivor.name}, within {RECONNECT_SECONDS:.0f} s (its log and /health)",
                   up_at is not None and up_at <= RECONNECT_SECONDS and holder is survivor
                   and health.get("liveQuery") is True,
                   (f"LiveQuery down logged {down_at:.2f} s and subscribed again {up_at:.2f} s after the kill"
                    if up_at is not None else f"LiveQuery down logged: {down_at is not None}; not subscribed again")
                   + f"; its socket now on {holder.name if holder else None}; /health liveQuery="
                   f"{health.get('liveQuery')} callsReceived={health.get('callsReceived')}")
        if self.page_on is not survivor and not self.open_page(survivor):
            return
        label = f"(h)(i) with {victim.name} dead, the next call (page on {survivor.name})"
        since = self.connect_call(label, agent)
        if since is not None:
            self.end_call(label, agent, since)
        if not self.revive(victim, "h"):
            return

        # (ii) mid-call: the instance of the page's signaling socket (B, pinned; the page joins first) dies.
        if self.page_on is not a and not self.open_page(a):
            return
        label = "(h)(ii) device on nginx, page on A"
        time.sleep(1.2)  # nginx's 1 s fail_timeout for B in the /signal pin is past
        since = self.connect_call(label, agent)
        if since is not None:
            first = self.page_stats()
            log_mark = len(self.access_log())
            b.kill()
            killed = time.monotonic()
            samples = []
            for second in range(1, KILL_WATCH_SECONDS + 1):
                time.sleep(max(0.0, killed + second - time.monotonic()))
                samples.append(self.page_stats().get("framesDecoded", 0))
            counts = [first.get("framesDecoded", 0)] + samples
            grew = all(later > earlier for earlier, later in zip(counts, counts[1:]))
            # The page's /signal socket ended with B: nginx logs it (Chromium's user agent, B the last upstream).
            page_socket = [line for line in self.access_log()[log_mark:]
                           if '"GET /signal ' in line and "Chrome" in line]
            # (Its rejoin attempts, through nginx to A, log lines of their own: the one on B is shown.)
            on_b_lines = [line for line in page_socket if re.search(rf"upstream=(?:\S+, )*127\.0\.0\.1:{b.port} ", line)]
            on_b = bool(on_b_lines)
            self.check(f"(h)(ii) B (the page's signaling socket, the room's owner) SIGKILLed mid-call: the page's decoded "
                       f"frames grow in every second of the next {KILL_WATCH_SECONDS} s", grew and on_b,
                       f"framesDecoded each second from the kill: {counts} "
                       f"({(counts[-1] - counts[0]) / KILL_WATCH_SECONDS:.1f} fps); page {self.browser.state()}; the "
                       f"page's /signal socket was on B: {on_b} ({(on_b_lines or page_socket or ['no nginx log line'])[0]})")
            # The page's signaling socket went with B: the page rejoins (call.js/signal.js), the room moves to A
            # once the fleet takes B for dead, and the device, rejoining too, is found again by its user and role.
            def rejoined():
                stats = self.page_stats()
                back = stats.get("signalJoins", 0) >= 2 and stats.get("signalState") == "joined" \
                    and stats.get("remoteKnown") is True
                return (stats, time.monotonic() - killed) if back else None
            back = wait_for(rejoined, max(0.0, killed + PAGE_REJOIN_SECONDS - time.monotonic()), 0.1)
            stats = back[0] if back else self.page_stats()
            timings = stats.get("timings") or {}
            lost, again = timings.get("signalLost"), timings.get("signalRejoined")
            self.check(f"(h)(ii) the page rejoins signaling after the kill (a new socket through nginx, on A) and finds "
                       f"the device again, within {PAGE_REJOIN_SECONDS:.0f} s of the kill",
                       back is not None and self.browser.state() == "in-call",
                       (f"device found again {back[1]:.1f} s after the kill; " if back else "")
                       + f"page stats: signalState {stats.get('signalState')!r}, signalJoins {stats.get('signalJoins')}, "
                       f"remoteKnown {stats.get('remoteKnown')}"
                       + (f", socket lost → rejoined {(again - lost) / 1000:.1f} s" if lost and again and again > lost
                          else "") + f"; page {self.browser.state()}")
            hung_up = time.monotonic()
            ended, outcome = self.hang_up(agent, since)
            took = time.monotonic() - hung_up
            idle = wait_for(lambda: self.agent_health(agent).get("call") == "idle", 15, 0.2)
            self.check(f"{label}: the page's hang-up reaches the device as a remote bye: it logs the call answered and "
                       f"ended by remoteBye(hangup) within {BYE_SECONDS:.0f} s, and its /health says idle",
                       ended in ("ended", "idle") and outcome and outcome.group(2).startswith("answered")
                       and re.search(r"remoteBye\(.*hangup\)", outcome.group(2)) and took <= BYE_SECONDS and idle,
                       f"page {ended}; " + (f"logged {took:.1f} s after the click: {outcome.group(0)}" if outcome
                                            else "no outcome line: " + " | ".join(agent.tail(4)))
                       + f"; /health call {self.agent_health(agent).get('call')!r}")
            self.revive(b, "h")

        # (iii) every call once.
        sessions, placed = [], sum(self.placed.values())
        for process in self.placed:
            sessions += [m.group(1) for m in process.find_all(r'incoming call .*session="?([^\s"]+)')]
        self.check("(h)(iii) every call reached the device once: one 'incoming call' line per session, as many as "
                   "calls were placed", len(sessions) == placed and len(set(sessions)) == len(sessions) and placed > 0,
                   f"{placed} calls placed, {len(sessions)} incoming call lines, {len(set(sessions))} sessions")

    def failover(self):
        a, b = self.instances
        # An instance the earlier parts killed and started again stays out of nginx's rotation until its
        # fail_timeout (10 s) has passed: both must answer through nginx before A is killed.
        started, seen = time.monotonic(), set()
        while time.monotonic() - started < 15 and seen != {"A", "B"}:
            seen.add(self.upstream_name(self.nginx.request("GET", "/health", timeout=2)[2].get("x-upstream", ""))[0])
            time.sleep(0.2)
        self.check("(d) before the kill nginx sends requests to both instances (those started again are back in its "
                   "rotation)", seen >= {"A", "B"}, f"{sorted(seen)} answered within {time.monotonic() - started:.1f} s")
        self.health(a, "before the kill")
        a.kill()
        killed = time.monotonic()
        streak, attempts, failures, answered, retried = 0, 0, [], {}, 0
        done_at = None
        while time.monotonic() - killed < FAILOVER_SECONDS + 5:
            attempts += 1
            if attempts % 2:
                status, body, headers = self.nginx.request("GET", near_query(10), timeout=5)
                ok = status == 200
            else:
                status, body, headers = self.nginx.request(
                    "POST", "/parse/users", {"authData": {"anonymous": {"id": str(uuid.uuid4())}}}, timeout=5)
                ok = status in (200, 201)
            who, tried = self.upstream_name(headers.get("x-upstream", ""))
            retried += bool(tried)
            answered[who] = answered.get(who, 0) + 1
            if ok:
                streak += 1
                if streak == CONSECUTIVE:
                    done_at = time.monotonic()
                    break
            else:
                streak = 0
                failures.append(f"{status} {str(body)[:80]}")
                time.sleep(0.1)
        self.check(f"(d) A SIGKILLed: {CONSECUTIVE} requests in a row through nginx succeed within {FAILOVER_SECONDS:.0f} s",
                   done_at is not None and done_at - killed <= FAILOVER_SECONDS,
                   (f"after {done_at - killed:.2f} s, " if done_at else "never, ")
                   + f"{attempts} requests, {len(failures)} failed {failures[:3]}, answered by {answered}, "
                   f"{retried} retried on B after A refused")

        try:
            receiver_id, receiver_token, _ = self.nginx.sign_up()
            caller_id, caller_token, _ = self.nginx.sign_up()
        except RuntimeError as e:
            self.check("(d) LiveQuery through nginx after the kill", False, str(e))
            return
        socket_ = LiveQuery(self.nginx, receiver_token, "ActiveSessions", {"receiverID": receiver_id})
        self.sockets.append(socket_)
        status, row, _ = self.nginx.request("POST", "/parse/classes/ActiveSessions", {
            "callerID": caller_id, "callerTitle": "Fleet caller", "receiverID": receiver_id,
            "isVideo": True, "isAudio": True}, token=caller_token)
        row_id = row.get("objectId") if status == 201 and isinstance(row, dict) else None
        socket_.wait("create", row_id)
        del_status = self.nginx.request("DELETE", f"/parse/classes/ActiveSessions/{row_id}", token=caller_token)[0] \
            if row_id else None
        socket_.wait("delete", row_id)
        time.sleep(QUIET_SECONDS)
        counts = {op: len(socket_.events(op, row_id)) for op in ("create", "delete")}
        self.check("(d) after the kill a new LiveQuery subscription through nginx gets the create and the delete of a row "
                   "written through nginx, once each",
                   socket_.ready and row_id and del_status == 200 and counts == {"create": 1, "delete": 1},
                   f"{socket_.describe()}; create {status}, delete {del_status}; events {counts}")

        self.health(b, "after A was killed")
        socket_.close()
        self.sockets.remove(socket_)
        result = b.process.stop()
        self.check("instance B stops cleanly on SIGINT (its LISTEN connection does not hold it up)",
                   result and result[0], result[1] if result else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default=os.environ.get(
        "INTERCOM_SERVER_BIN", os.path.join(REPO, ".build", "debug", "intercom-server")))
    parser.add_argument("--intercomd", default=os.environ.get(
        "INTERCOMD_BIN", os.path.join(REPO, ".build", "debug", "intercomd")), help="the device agent of (h)")
    parser.add_argument("--database-url", default=os.environ.get("INTERCOM_FLEET_DATABASE_URL"),
                        help="postgres://USER:PASSWORD@HOST:PORT/DBNAME (default: a throwaway cluster of its own)")
    args = parser.parse_args()
    # SIGTERM (a stage runner giving up) ends the run through the finally blocks: the processes and the cluster stop.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    log("postgres fleet: two intercom-server instances on PostgreSQL behind nginx; command: "
        + " ".join(masked(argument) for argument in sys.argv))
    checks = Run(os.path.abspath(args.server), os.path.abspath(args.intercomd), args.database_url).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
