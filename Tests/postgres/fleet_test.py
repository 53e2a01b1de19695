#!/usr/bin/env python3
"""PostgreSQL fleet: two intercom-server instances on one PostgreSQL database, behind nginx.

Starts (or is given, --database-url) a PostgreSQL database, two `intercom-server` instances A and B at the same
time (each with its own config file and listen port; the same `database_url`, application id, master key and
`public_url`, nginx's address; `trusted_proxies` names nginx; one shared `files_directory`, like a shared volume;
no `token_keys_file`, so both use the token keys kept in the database) and Debian's nginx in the foreground as a
round-robin load balancer in front of both (WebSocket upgrade for LiveQuery and signaling, X-Forwarded-For, Host,
and an `X-Upstream` response header naming the instance that answered).

Checks:
  (e) /health of each instance answers 200 while it is up (its body is printed: the database and bus state);
  (a) through nginx, ROUNDS times: an anonymous sign-up, an `ActiveUsers` row with a geopoint and a `$nearSphere`
      query that finds every row made so far; both instances answered (X-Upstream), each found rows written
      through the other, and A and B asked directly return the same rows in the same order;
  (c) a session token issued by A works on B (`/users/me`), and a logout through B ends it on A (209);
  (b) LiveQuery subscriptions opened directly to A and to B (the receiver's session) on `ActiveSessions` get the
      create, update and delete of a row written through B exactly once each (the writer too: no echo of its own
      notification), and the row is gone on A afterwards; a call token minted by B is accepted by A's /signal;
  (d) A killed with SIGKILL: CONSECUTIVE requests in a row through nginx (queries and sign-ups) succeed within
      FAILOVER_SECONDS, and a new LiveQuery subscription through nginx gets the create and delete of a row
      written through nginx, once each; B still answers /health and stops cleanly on SIGINT.
A NOTE line says whether two signaling peers of one call that joined on different instances saw each other
(not counted: the brief of this stage does not ask for it, and a fleet behind a round-robin balancer needs it).

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: fleet_test.py [--server BIN] [--database-url postgres://…] [--intercomd BIN (ignored)]
  The server defaults to $INTERCOM_SERVER_BIN, then <repo>/.build/debug/intercom-server. Without --database-url
  (or $INTERCOM_FLEET_DATABASE_URL) a throwaway cluster is started with Tests/postgres/pg-cluster.sh.
Environment: POSTGRES_FLEET_KEEP=1 keeps the temporary directory (configs, nginx and server logs).
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
import urllib.parse
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from calls import LoggedProcess, keep_or_remove  # noqa: E402
from prerequisites import find_tool, missing_prerequisites  # noqa: E402
from webdriver import Checks, free_port, log, wait_for  # noqa: E402
from websocket import WebSocket  # noqa: E402

PG_CLUSTER = os.path.join(HERE, "pg-cluster.sh")
APP_ID = "intercom-fleet"
ROUNDS = 8                  # (a) sign-up + row + query through nginx, 3 requests a round: both instances answer queries
CENTRE = (52.52, 13.405)    # rows 111 m apart northwards from here, so $nearSphere orders them by round
EVENT_SECONDS = 5.0         # (b), (d) a LiveQuery event arrives within this
QUIET_SECONDS = 2.0         # no second copy of an event within this after the last one
FAILOVER_SECONDS = 10.0     # (d)
CONSECUTIVE = 10            # (d) successes in a row that count as "nginx fails over"
START_SECONDS = 90.0        # an instance creates or migrates the schema before it listens

NGINX_CONF = """# The fleet's load balancer (Tests/postgres/fleet_test.py): round robin over the two instances.
user root;
worker_processes 1;
daemon off;
master_process on;
pid {prefix}/nginx.pid;
error_log stderr notice;
events {{ worker_connections 1024; }}
http {{
    log_format fleet '$remote_addr "$request" $status upstream=$upstream_addr upstream_status=$upstream_status';
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
    upstream intercom {{
        server 127.0.0.1:{port_a} max_fails=1 fail_timeout=10s;
        server 127.0.0.1:{port_b} max_fails=1 fail_timeout=10s;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://intercom;
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
                    f'files_directory = "{os.path.join(workdir, "files")}"\n')
        # Nothing from the test's environment may redirect the instance (INTERCOM_SERVER_DB, INTERCOM_MASTER_KEY…).
        env = {k: v for k, v in os.environ.items() if not k.startswith("INTERCOM_")}
        self.process = LoggedProcess([binary, "--config", self.config, "--log-level", "info"], workdir,
                                     f"instance-{name}", env=env)

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


class LiveQuery:
    """A LiveQuery socket connected with a session token and one subscription; a thread collects its frames."""

    def __init__(self, endpoint, token, class_name, where):
        self.ws = endpoint.ws("/parse")
        self.ws.send_json({"op": "connect", "applicationId": APP_ID, "sessionToken": token})
        self.connected = self.ws.recv_until(lambda f: f.get("op") in ("connected", "error"), 5)
        self.ws.send_json({"op": "subscribe", "requestId": 1, "query": {"className": class_name, "where": where}})
        self.subscribed = self.ws.recv_until(lambda f: f.get("op") in ("subscribed", "error"), 5)
        self.frames = []
        self.lock = threading.Lock()
        self.stopping = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    @property
    def ready(self):
        return (self.connected or {}).get("op") == "connected" and (self.subscribed or {}).get("op") == "subscribed"

    def describe(self):
        def short(frame, expected):
            return expected if (frame or {}).get("op") == expected else str(frame)
        return f"connect → {short(self.connected, 'connected')}, subscribe → {short(self.subscribed, 'subscribed')}"

    def _read(self):
        while not self.stopping:
            try:
                frame = self.ws.recv_json(0.5)
            except TimeoutError:
                continue
            except (OSError, ValueError):
                break
            if frame is None:
                break
            with self.lock:
                self.frames.append((time.monotonic(), frame))

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

    def close(self):
        self.stopping = True
        self.ws.close()
        self.thread.join(2)


def near_query(limit=100):
    where = {"userLocation": {"$nearSphere": {"__type": "GeoPoint", "latitude": CENTRE[0], "longitude": CENTRE[1]},
                              "$maxDistanceInKilometers": 5}}
    return "/parse/classes/ActiveUsers?" + urllib.parse.urlencode({"where": json.dumps(where), "limit": limit})


class Run:
    def __init__(self, server_bin, database_url):
        self.server_bin = server_bin
        self.database_url = database_url
        self.checks = Checks()
        self.workdir = tempfile.mkdtemp(prefix="intercom-postgres-fleet-")
        self.cluster_dir = None
        self.instances = []
        self.nginx = None
        self.nginx_process = None
        self.sockets = []
        self.master_key = secrets.token_hex(24)

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
        for part in (self.queries_through_nginx, self.shared_sessions, self.live_query_across_instances, self.failover):
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

        self.signaling_across_instances(row_id, receiver_token, caller_token)

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

    def signaling_across_instances(self, row_id, receiver_token, caller_token):
        """A call token minted by B accepted by A's /signal (counted); peers on different instances (a NOTE)."""
        a, b = self.instances
        status, row, _ = a.request("GET", f"/parse/classes/ActiveSessions/{row_id}", token=receiver_token)
        tokens = (row.get("publisherToken"), row.get("subscriberToken")) if status == 200 and isinstance(row, dict) else (None, None)
        if not self.check("(b) the receiver reads the call row written through B on instance A, with its call tokens",
                          all(tokens), f"{status} {row if status != 200 else sorted(row)}"):
            return
        device_ws = a.ws("/signal")
        self.sockets.append(device_ws)
        device_ws.send_json({"op": "join", "token": tokens[0], "name": "Fleet gate"})
        joined = device_ws.recv_until(lambda f: f.get("op") in ("joined", "error"), 5)
        self.check("signaling: a call token minted by instance B is accepted by instance A's /signal (shared token keys)",
                   joined and joined.get("op") == "joined", str(joined))
        if not joined or joined.get("op") != "joined":
            return
        caller_ws = b.ws("/signal")
        self.sockets.append(caller_ws)
        caller_ws.send_json({"op": "join", "token": tokens[1], "name": "Fleet caller"})
        caller_joined = caller_ws.recv_until(lambda f: f.get("op") in ("joined", "error"), 5)
        seen = device_ws.recv_until(lambda f: f.get("op") == "peer-joined", 2)
        relayed = None
        if caller_joined and caller_joined.get("op") == "joined":
            caller_ws.send_json({"op": "signal", "to": joined.get("peerId"), "data": {"type": "bye"}})
            relayed = device_ws.recv_until(lambda f: f.get("op") == "signal", 2)
        self.note("signaling across instances (device on A, caller on B): caller join "
                  f"{(caller_joined or {}).get('op')}, device saw peer-joined: {seen is not None}, a signal relayed "
                  f"B → A: {relayed is not None}. Behind a round-robin balancer the two parties of a call land on "
                  "different instances about half the time; without this the call never connects.")

    def failover(self):
        a, b = self.instances
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
    parser.add_argument("--intercomd", help="accepted like every stage's, not used")
    parser.add_argument("--database-url", default=os.environ.get("INTERCOM_FLEET_DATABASE_URL"),
                        help="postgres://USER:PASSWORD@HOST:PORT/DBNAME (default: a throwaway cluster of its own)")
    args = parser.parse_args()
    # SIGTERM (a stage runner giving up) ends the run through the finally blocks: the processes and the cluster stop.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    log("postgres fleet: two intercom-server instances on PostgreSQL behind nginx; command: "
        + " ".join(masked(argument) for argument in sys.argv))
    checks = Run(os.path.abspath(args.server), args.database_url).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
