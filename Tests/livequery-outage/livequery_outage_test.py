#!/usr/bin/env python3
"""LiveQuery outage: a half-open LiveQuery socket is noticed, polling takes over, and LiveQuery comes back.

Starts `intercom-server` and `intercomd run` (auto answer, test pattern). The agent's LiveQuery URL points at a
small TCP relay in this test (127.0.0.1:<relay port> → the server), so the LiveQuery flow has a port of its own
and `ss` tells it apart from the pooled REST connections to the server port; the relay only forwards bytes and
is never the fault.

Once the agent logs `LiveQuery subscribed` and its first routine poll is past (SETTLE_SECONDS), `ss -tnp` gives the
4-tuple of intercomd's one connection to the relay, and an nftables table (`inet intercom_livequery_outage`) drops
every packet of that flow on lo in both directions (matched on its ports, so the agent's next connection, from
another source port, passes): a half-open socket, neither end ever sees a RST or a FIN. CALL_DELAY s into the
outage a caller (an anonymous user, over REST like the web caller) creates an `ActiveSessions` row for the device;
its LiveQuery event goes into the black hole.

Checks: (a) the agent logs `LiveQuery down; polling every ~8 s` within DETECT_SECONDS of the drop's start; (b) it
logs `LiveQuery subscribed` again afterwards, over a new connection to the relay (another source port) that `ss`
shows established; (c) it logs `incoming call` for that row within TAKE_SECONDS of the drop's start and not before
the down line (the poll that LiveQuery going down triggers takes it), and the row is gone (the device deletes the
row it takes); (d) the rule dropped packets in both directions (so the outage was real). The table is removed at
the end (and by run.sh's trap).

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Needs root (nftables), nft and ss. Usage: livequery_outage_test.py [--server BIN] [--intercomd BIN]
  Binaries default to $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, then <repo>/.build/debug/{intercom-server,intercomd}.
Environment: LIVEQUERY_OUTAGE_KEEP=1 keeps the temporary directory (config and logs).
"""

import json
import os
import re
import socket
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
from calls import LoggedProcess, agent_environment, binary_arguments, keep_or_remove, start_intercom_server  # noqa: E402
from nftables import delete_table, nft, replace_table  # noqa: E402
from prerequisites import missing_prerequisites  # noqa: E402
from webdriver import Checks, free_port, log, wait_for  # noqa: E402

TABLE = "intercom_livequery_outage"
TITLE = "Outage gate"
APP_ID = "intercom"
CALL_DELAY = 2.0       # s into the outage when the caller creates the row
DETECT_SECONDS = 30.0  # (a) LiveQuery down logged within this of the drop's start
TAKE_SECONDS = 35.0    # (c) the call taken within this of the drop's start
RESUBSCRIBE_SECONDS = 60.0
# The agent's poller starts with LiveQuery down, so its first poll comes 6-10 s after start (8 s ± 25 %), and the
# next one 45-75 s after that (the safety poll while LiveQuery is up). The drop starts after the first one, so no
# routine poll can take the call before the agent has noticed the outage (it would pass (c) without (a)).
SETTLE_SECONDS = 12.0


class TimedProcess(LoggedProcess):
    """A LoggedProcess that also notes when each stderr line arrived (time.monotonic())."""

    def __init__(self, *args, **kwargs):
        self.arrivals = []
        super().__init__(*args, **kwargs)

    def _pump(self, stream, lines, path):
        if lines is not self.err:
            return super()._pump(stream, lines, path)
        with open(path, "w", encoding="utf-8") as f:
            for line in stream:
                with self.lock:
                    lines.append(line.rstrip("\n"))
                    self.arrivals.append(time.monotonic())
                f.write(line)
                f.flush()

    def wait_timed(self, pattern, timeout, since=0):
        """(match, arrival time) of the first stderr line at or after index `since` matching `pattern`, waiting up
        to `timeout` s; (None, None) if none came."""
        regex = re.compile(pattern)

        def scan():
            with self.lock:
                lines, times = list(self.err[since:]), list(self.arrivals[since:])
            for index, (line, arrived) in enumerate(zip(lines, times)):
                match = regex.search(line)
                if match:
                    return match, arrived, since + index
            return None

        found = wait_for(scan, timeout, 0.05)
        return found if found else (None, None, None)


class Relay:
    """127.0.0.1:<port> → 127.0.0.1:<target>, byte for byte, one pair of threads per connection."""

    def __init__(self, target):
        self.target = target
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.sockets = []
        self.accepted = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.accepted += 1
                self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self):
        self.listener.close()
        with self.lock:
            for s in self.sockets:
                try:
                    s.close()
                except OSError:
                    pass


def rest(base, method, path, body=None, token=None):
    """One Parse REST request; (status, decoded JSON body or text)."""
    headers = {"X-Parse-Application-Id": APP_ID, "Content-Type": "application/json"}
    if token:
        headers["X-Parse-Session-Token"] = token
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + "/parse" + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def agent_flows(pid, relay_port):
    """intercomd's established TCP connections to the relay as (local port, remote port) pairs, from `ss -tnp`."""
    result = subprocess.run(["ss", "-Htnp", "state", "established", f"( dport = :{relay_port} )"],
                            capture_output=True, text=True)
    flows = []
    for line in result.stdout.splitlines():
        if f"pid={pid}," not in line:
            continue
        addresses = re.findall(r"127\.0\.0\.1:(\d+)", line)
        if len(addresses) >= 2:
            flows.append((int(addresses[0]), int(addresses[1])))
    return flows


def drop_counters(table):
    """Packets dropped per rule of `inet table`, in rule order ([] when the table is gone)."""
    ok, text = nft("-j", "list", "table", "inet", table)
    if not ok:
        return []
    counts = []
    for item in json.loads(text).get("nftables", []):
        for expr in (item.get("rule") or {}).get("expr", []):
            if "counter" in expr:
                counts.append(expr["counter"].get("packets", 0))
    return counts


def write_config(workdir, base, relay_port):
    state = os.path.join(workdir, "state")
    os.makedirs(state, exist_ok=True)
    path = os.path.join(workdir, "device.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"""[identity]
title = "{TITLE}"
latitude = 52.52
longitude = 13.405

[backend]
server_url = "{base}/parse"
live_query_url = "ws://127.0.0.1:{relay_port}/parse"

[call]
answer = "auto"

[video]
source = "test-pattern"

[audio]
capture = "tone"
playback = "null"

[metrics]
listen = "127.0.0.1:{free_port()}"

[state]
directory = "{state}"
""")
    return path


class Run:
    def __init__(self, server_bin, intercomd_bin):
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.checks = Checks()
        self.workdir = tempfile.mkdtemp(prefix="intercom-livequery-outage-")
        self.processes = []
        self.relay = None

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def prerequisites(self):
        problems = missing_prerequisites(
            binaries=(("intercom-server", self.server_bin), ("intercomd", self.intercomd_bin)),
            tools=(("nft", "nftables"), ("ss", "iproute2")), root_for="nftables")
        for problem in problems:
            self.check("prerequisites", False, problem)
        return not problems

    def run(self):
        if not self.prerequisites():
            return self.checks
        try:
            self.outage()
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure, never a skip
            self.check("livequery-outage harness", False, f"{type(e).__name__}: {e}")
        finally:
            delete_table(TABLE)
            for process in reversed(self.processes):  # the agent before the server it deregisters from
                process.stop()
            if self.relay:
                self.relay.close()
            keep_or_remove(self.workdir, "LIVEQUERY_OUTAGE_KEEP", self.checks.failed)
        return self.checks

    def outage(self):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        self.processes.append(server)
        if not self.check("intercom-server starts", base, detail):
            return
        port = int(base.rsplit(":", 1)[1])
        self.relay = Relay(port)
        agent = TimedProcess([self.intercomd_bin, "run", "--config", write_config(self.workdir, base, self.relay.port)],
                             self.workdir, "agent", env=agent_environment())
        self.processes.append(agent)
        subscribed, _, _ = agent.wait_timed(r"LiveQuery subscribed", 30)
        ready = agent.wait_line(r"ready: idle", 30)
        if not self.check("intercomd run is ready and subscribed over LiveQuery (through the relay)",
                          subscribed and ready, " | ".join(agent.tail(5))):
            return

        time.sleep(SETTLE_SECONDS)
        flows = wait_for(lambda: agent_flows(agent.pid, self.relay.port), 5, 0.1) or []
        if not self.check("ss -tnp shows intercomd's one LiveQuery connection", len(flows) == 1,
                          f"127.0.0.1:{flows[0][0]} → 127.0.0.1:{flows[0][1]}" if len(flows) == 1 else
                          f"connections to the relay port {self.relay.port}: {flows}"):
            return
        sport, dport = flows[0]
        mark = agent.mark()
        match = f"iifname lo ip saddr 127.0.0.1 ip daddr 127.0.0.1"
        ok, detail = replace_table(TABLE, [
            ("add", "table", "inet", TABLE),
            ("add", "chain", "inet", TABLE, "input",
             "{ type filter hook input priority -150 ; policy accept ; }"),
            ("add", "rule", "inet", TABLE, "input", *match.split(), "tcp", "sport", str(sport), "tcp", "dport",
             str(dport), "counter", "drop"),
            ("add", "rule", "inet", TABLE, "input", *match.split(), "tcp", "sport", str(dport), "tcp", "dport",
             str(sport), "counter", "drop"),
        ])
        dropped_at = time.monotonic()
        if not self.check(f"nftables drops the flow {sport} ↔ {dport} on lo both ways", ok, detail):
            return

        time.sleep(CALL_DELAY)
        caller_status, caller = rest(base, "POST", "/users", {"authData": {"anonymous": {"id": str(uuid.uuid4())}}})
        token = caller.get("sessionToken") if isinstance(caller, dict) else None
        where = urllib.parse.quote(json.dumps({"userTitle": TITLE}))
        found_status, found = rest(base, "GET", f"/classes/ActiveUsers?where={where}", token=token)
        device = ((found.get("results") or [{}])[0].get("userID")) if isinstance(found, dict) else None
        row_status, row = rest(base, "POST", "/classes/ActiveSessions", {
            "callerID": caller.get("objectId") if isinstance(caller, dict) else None, "callerTitle": "Outage caller",
            "receiverID": device, "isVideo": True, "isAudio": True}, token=token)
        row_id = row.get("objectId") if isinstance(row, dict) else None
        created_at = time.monotonic()
        if not self.check(f"a caller creates a call row for the device {CALL_DELAY:.0f} s into the outage",
                          token and device and row_status == 201 and row_id,
                          f"login {caller_status}, ActiveUsers {found_status} (device {device}), "
                          f"ActiveSessions {row_status} {row_id or row}"):
            return

        down, down_at, down_index = agent.wait_timed(r"LiveQuery down", DETECT_SECONDS + 15, since=mark)
        self.check(f"(a) the agent logs LiveQuery down within {DETECT_SECONDS:.0f} s of the drop",
                   down and down_at - dropped_at <= DETECT_SECONDS,
                   f"after {down_at - dropped_at:.1f} s: {down.string}" if down else
                   f"no 'LiveQuery down' line within {DETECT_SECONDS + 15:.0f} s: " + " | ".join(agent.tail(5)))

        taken, taken_at, _ = agent.wait_timed(r"incoming call\b.*", TAKE_SECONDS + 15, since=mark)
        gone_status, _ = rest(base, "GET", f"/classes/ActiveSessions/{row_id}", token=token)
        self.check(f"(c) the call made during the outage is taken within {TAKE_SECONDS:.0f} s of the drop, after the "
                   f"agent noticed the outage, and its row deleted",
                   taken and taken_at - dropped_at <= TAKE_SECONDS and down and taken_at >= down_at
                   and gone_status == 404,
                   (f"after {taken_at - dropped_at:.1f} s ({taken_at - created_at:.1f} s after the row): "
                    f"{taken.group(0)}; row GET {gone_status}") if taken else
                   f"no 'incoming call' line within {TAKE_SECONDS + 15:.0f} s: " + " | ".join(agent.tail(5)))

        again, again_at, _ = agent.wait_timed(r"LiveQuery subscribed", RESUBSCRIBE_SECONDS,
                                              since=(down_index + 1) if down else mark)
        now_flows = agent_flows(agent.pid, self.relay.port)
        fresh = [flow for flow in now_flows if flow[0] != sport]
        self.check("(b) the agent subscribes again over a new connection (another source port, not dropped)",
                   down and again and fresh,
                   (f"after {again_at - dropped_at:.1f} s ({again_at - down_at:.1f} s after down); connections now "
                    f"{now_flows}, relay accepted {self.relay.accepted}") if again and down else
                   f"no 'LiveQuery subscribed' after the down line: " + " | ".join(agent.tail(5)))

        counters = drop_counters(TABLE)
        self.check("(d) the rule dropped packets both ways (agent → relay, relay → agent)",
                   len(counters) == 2 and all(count > 0 for count in counters), f"packets dropped: {counters}")


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"livequery-outage: a half-open LiveQuery socket under nftables; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
