#!/usr/bin/env python3
"""SIP registration: `intercomd run` with `[sip]` against a real kamailio started here (issue #18).

kamailio listens on 127.0.0.1 (UDP and TCP, a free port) with a minimal config written by the test: REGISTER
is challenged (digest, `pv_www_authenticate` against one fixed password) and saved in usrloc (memory only, so
a restarted kamailio has forgotten every binding); OPTIONS to the registrar itself is answered 200 (the
agent's UDP keepalive). Two agents run against one intercom-server: "good" with the right password, "wrong"
with another.

Checks: (a) the good agent (and a third one with `transport = "tcp"`) reaches `registered` on /health (`sip`, no `sip_unregistered` warning, the STATUS
line says `SIP registered`, /metrics `intercom_sip_registered 1`) and kamailio's location table (`kamcmd
ul.dump`) holds its AOR; (b) after 300 malformed datagrams a SIPp OPTIONS to the agent's SIP port is answered 200; (c) the wrong password is
`auth failed` on /health with `sip_unregistered`, `intercom_sip_registered 0` and one clear error line, and
`intercomd status` shows it (exit 4; `registered for N s` and exit 0 for the good agent); (d)
kamailio killed (SIGKILL): the agent reports `unreachable` within its keepalive; kamailio restarted: the
agent is `registered` again within RECOVERY_SECONDS and the new kamailio's table has the AOR (the TCP agent, whose
connection the kill closed, too); (e) SIGINT
unregisters (Expires: 0: the AOR leaves the table) and the agent exits 0; (f) an agent whose registrar port
has no listener is `unreachable` within 10 s (ICMP port unreachable) and does not spin while it retries.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: sip_test.py [--server BIN] [--intercomd BIN]. Environment: SIP_KEEP=1 keeps the temporary directory.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from calls import (LoggedProcess, agent_environment, binary_arguments, keep_or_remove,  # noqa: E402
                   scrape_metrics, start_intercom_server, write_agent_config)
from prerequisites import find_tool, missing_prerequisites  # noqa: E402
from webdriver import Checks, free_port, log, wait_for  # noqa: E402

sys.path.insert(0, HERE)
from kamailio import KAMAILIO_MODULES, Kamailio, free_udp_port  # noqa: E402

PASSWORD = "s3cret-sip"
KEEPALIVE_SECONDS = 2
RECOVERY_SECONDS = 15


tool = find_tool


OPTIONS_SCENARIO = """<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="options ping">
  <send retrans="500">
    <![CDATA[
      OPTIONS sip:gate@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: sipp <sip:sipp@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:gate@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 OPTIONS
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
  <recv response="200" timeout="5000"/>
</scenario>
"""


def cpu_seconds(pid):
    """User + system CPU time of a process (and its threads), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def health(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as response:
        return json.loads(response.read())


class Run(Checks):
    def __init__(self, server_bin, intercomd_bin):
        super().__init__()
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.workdir = tempfile.mkdtemp(prefix="intercom-sip-")

    def agent(self, label, base, password, sip_port, registrar_port, transport="udp"):
        metrics_port = free_port()
        password_file = os.path.join(self.workdir, f"{label}.password")
        with open(password_file, "w", encoding="utf-8") as f:
            f.write(password + "\n")
        config = write_agent_config(
            os.path.join(self.workdir, f"{label}.toml"), base, f"SIP gate {label}", 52.52, 13.405,
            os.path.join(self.workdir, f"state-{label}"), metrics_port,
            extra=f'\n[sip]\nregistrar = "127.0.0.1:{registrar_port}"\nuser = "gate-{label}"\n'
                  f'password_file = "{password_file}"\nport = {sip_port}\nkeepalive = "{KEEPALIVE_SECONDS}s"\n'
                  f'register_expiry = "120s"\ndisplay_name = "Gate {label}"\ntransport = "{transport}"\n')
        process = LoggedProcess([self.intercomd_bin, "run", "--config", config], self.workdir, f"agent-{label}",
                                env=agent_environment())
        return process, metrics_port

    def status(self, label):
        """`intercomd status` with the agent's own configuration file (reads its /health)."""
        return subprocess.run([self.intercomd_bin, "status", "--config", os.path.join(self.workdir, f"{label}.toml")],
                              capture_output=True, text=True, timeout=15, env=agent_environment())

    def sip_state(self, metrics_port):
        try:
            return health(metrics_port)
        except Exception:  # noqa: BLE001 - not up yet
            return None

    def wait_sip(self, metrics_port, word, timeout):
        started = time.monotonic()
        report = wait_for(lambda: (lambda h: h if h and h.get("sip") == word else None)(self.sip_state(metrics_port)),
                          timeout, 0.1)
        return report, time.monotonic() - started

    def run(self):
        missing = missing_prerequisites(tools=(("kamailio", "kamailio"), ("kamcmd", "kamailio"), ("sipp", "sip-tester")))
        for problem in missing:
            self.check("prerequisites", False, problem)
        if missing:
            return self
        if not os.path.isdir(KAMAILIO_MODULES):
            self.check("kamailio's modules are installed", False, f"no {KAMAILIO_MODULES} (apt-get install kamailio)")
            return self
        processes = []
        try:
            self.scenario(processes)
        finally:
            for process in processes:
                if isinstance(process, Kamailio):
                    if process.process and not process.process.stopped:
                        process.kill()
                else:
                    process.stop()
            keep_or_remove(self.workdir, "SIP_KEEP", self.failed > 0)
        return self

    def scenario(self, processes):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        processes.append(server)
        if not self.check("intercom-server is up", base, detail):
            return
        registrar_port = free_udp_port()
        kamailio = Kamailio(self.workdir, registrar_port, PASSWORD)
        processes.append(kamailio)
        if not self.check("kamailio is up (kamcmd answers)", kamailio.start(),
                          f"127.0.0.1:{registrar_port}; " + " | ".join(kamailio.process.tail(5))):
            return
        good_sip_port, wrong_sip_port = free_udp_port(), free_udp_port()
        good, good_metrics = self.agent("good", base, PASSWORD, good_sip_port, registrar_port)
        wrong, wrong_metrics = self.agent("wrong", base, "not-the-password", wrong_sip_port, registrar_port)
        down, down_metrics = self.agent("down", base, PASSWORD, free_udp_port(), free_udp_port())
        processes += [good, wrong, down]

        # (a) registered
        report, took = self.wait_sip(good_metrics, "registered", 15)
        self.check("(a) /health shows sip registered, without the sip_unregistered warning, and the STATUS line says so",
                   report and "sip_unregistered" not in report.get("warnings", []) and "SIP registered" in report.get("line", ""),
                   f"{took:.1f} s: {json.dumps(report) if report else 'last: ' + json.dumps(self.sip_state(good_metrics))}"
                   + ("" if report else " | " + " | ".join(good.tail(5))))
        status, samples = scrape_metrics(f"http://127.0.0.1:{good_metrics}/metrics")
        self.check("(a) /metrics intercom_sip_registered is 1", status == 200 and samples.get("intercom_sip_registered") == 1,
                   f"{samples.get('intercom_sip_registered') if status == 200 else status}")
        status = self.status("good")
        self.check("(a) `intercomd status` says SIP registered (with its expiry) and exits 0",
                   status.returncode == 0 and "  SIP:      registered for " in status.stdout,
                   f"exit {status.returncode}: {(status.stdout + status.stderr).strip()[-400:]}")
        aor = f"sip:gate-good@127.0.0.1"
        dump = kamailio.dump() or ""
        self.check("(a) kamailio's location table (kamcmd ul.dump) holds the AOR with the agent's contact",
                   aor in dump and f":{good_sip_port}" in dump,
                   f"{aor} {'found' if aor in dump else 'missing'}; contact port {good_sip_port} "
                   f"{'found' if f':{good_sip_port}' in dump else 'missing'}")

        # The TCP agent is given the good agent's SIP port (bound by now): taken, so it must fall back to another one.
        tcp, tcp_metrics = self.agent("tcp", base, PASSWORD, good_sip_port, registrar_port, transport="tcp")
        processes.append(tcp)

        # (b) garbage first: dropped or refused, never a crash
        import socket
        garbage = [b"\x00" * 100, b"\r\n\r\n", os.urandom(1400), b"OPTIONS sip:x SIP/2.0\r\n\r\n",
                   b"OPTIONS sip:gate@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=nocookie\r\n"
                   b"From: <sip:a@b>;tag=1\r\nTo: <sip:gate@127.0.0.1>\r\nCall-ID: g\r\nCSeq: 1 OPTIONS\r\n"
                   b"Content-Length: 10\r\n\r\n",
                   b"INVITE sip:gate@127.0.0.1 SIP/2.0\r\nContent-Length: 99999999999999999999\r\n\r\n"]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            for _ in range(50):
                for datagram in garbage:
                    sender.sendto(datagram, ("127.0.0.1", good_sip_port))
        time.sleep(0.5)
        alive = good.process.poll() is None

        # (b) SIPp OPTIONS
        scenario = os.path.join(self.workdir, "options.xml")
        with open(scenario, "w", encoding="utf-8") as f:
            f.write(OPTIONS_SCENARIO)
        sipp = subprocess.run([tool("sipp"), f"127.0.0.1:{good_sip_port}", "-sf", scenario, "-m", "1", "-i", "127.0.0.1",
                               "-p", str(free_udp_port()), "-timeout", "10s", "-timeout_error", "-nostdin",
                               "-trace_err", "-error_file", os.path.join(self.workdir, "sipp-errors.log")],
                              capture_output=True, text=True, timeout=20, cwd=self.workdir)
        self.check("(b) after 300 malformed datagrams the agent still runs and a SIPp OPTIONS to its SIP port is answered 200",
                   alive and sipp.returncode == 0,
                   f"agent {'running' if alive else 'exited'}; sipp exit {sipp.returncode}" + ("" if sipp.returncode == 0 else ": " + (sipp.stderr or sipp.stdout)[-300:]))

        # (c) the wrong password
        report, took = self.wait_sip(wrong_metrics, "auth failed", 15)
        line = wrong.find(r"SIP registration failed: the registrar refused our credentials.*")
        self.check("(c) a wrong password is 'auth failed' on /health with the sip_unregistered warning and one clear error line",
                   report and "sip_unregistered" in report.get("warnings", []) and line
                   and len(wrong.find_all(r"SIP registration failed")) == 1,
                   f"{took:.1f} s: {json.dumps(report) if report else json.dumps(self.sip_state(wrong_metrics))}; "
                   f"{line.group(0)[:200] if line else 'no error line: ' + ' | '.join(wrong.tail(4))}")
        status = self.status("wrong")
        self.check("(c) `intercomd status` shows the wrong password as 'SIP: auth failed: …' and exits 4 (running, not registered)",
                   status.returncode == 4 and "  SIP:      auth failed: " in status.stdout,
                   f"exit {status.returncode}: {(status.stdout + status.stderr).strip()[-400:]}")
        status, samples = scrape_metrics(f"http://127.0.0.1:{wrong_metrics}/metrics")
        self.check("(c) /metrics intercom_sip_registered is 0 for the wrong password",
                   status == 200 and samples.get("intercom_sip_registered") == 0,
                   f"{samples.get('intercom_sip_registered') if status == 200 else status}")
        wrong.stop()

        # (a) over TCP
        report, took = self.wait_sip(tcp_metrics, "registered", 15)
        saved = kamailio.process.find(r"REGISTER saved sip:gate-tcp@\S+ .* over (\w+)")
        fallback = tcp.find(r"SIP: cannot bind the configured UDP port; using another one.*")
        self.check("(a) transport = \"tcp\" with a taken sip.port: registered on /health from another port (logged), "
                   "kamailio saved the binding from a TCP REGISTER",
                   report and saved and saved.group(1) == "tcp" and fallback and f":{good_sip_port}>" not in saved.group(0),
                   f"{took:.1f} s; {saved.group(0)[:160] if saved else 'no REGISTER saved line for gate-tcp'}; "
                   f"{fallback.group(0)[:200] if fallback else 'no fallback line'}"
                   + ("" if report else " | " + " | ".join(tcp.tail(4))))
        dump = kamailio.dump() or ""
        contact = re.search(r"sip:gate-tcp@[^\s>]*", dump)
        self.check("(a) the TCP agent's Contact in kamcmd ul.dump carries ;transport=tcp (the device listens on TCP)",
                   contact and "transport=tcp" in contact.group(0), contact.group(0) if contact else "no gate-tcp contact in ul.dump")

        # (f) no registrar listening at all
        report, took = self.wait_sip(down_metrics, "unreachable", 10)
        before = cpu_seconds(down.pid)
        time.sleep(3)
        spent = cpu_seconds(down.pid) - before
        self.check("(f) a registrar port nobody listens on is 'unreachable' within 10 s (ICMP), retried without spinning",
                   report and spent < 0.5 and down.process.poll() is None,
                   f"{took:.1f} s; {spent:.2f} s CPU in the next 3 s; "
                   + (json.dumps(report.get("sipDetail")) if report else json.dumps(self.sip_state(down_metrics))))
        down.stop()

        # (d) kamailio killed and restarted
        kamailio.kill()
        report, took = self.wait_sip(good_metrics, "unreachable", KEEPALIVE_SECONDS * 3 + 2)
        self.check(f"(d) kamailio killed: the agent reports unreachable within its keepalive ({KEEPALIVE_SECONDS} s)",
                   report and "sip_unregistered" in report.get("warnings", []),
                   f"{took:.1f} s: {json.dumps(report) if report else json.dumps(self.sip_state(good_metrics))}")
        restarted = kamailio.start()
        report, took = self.wait_sip(good_metrics, "registered", RECOVERY_SECONDS)
        dump = kamailio.dump() or ""
        self.check(f"(d) kamailio restarted: the agent registers again within {RECOVERY_SECONDS} s and the new table has the AOR",
                   restarted and report and aor in dump,
                   f"{took:.1f} s after the restart; AOR {'found' if aor in dump else 'missing'}"
                   + ("" if report else " | " + " | ".join(good.tail(5))))

        report, took = self.wait_sip(tcp_metrics, "registered", RECOVERY_SECONDS)
        dump = kamailio.dump() or ""
        self.check(f"(d) the TCP agent (its connection closed by the kill) registers again within {RECOVERY_SECONDS} s",
                   report and "sip:gate-tcp@127.0.0.1" in dump,
                   f"{took:.1f} s later; AOR {'found' if 'sip:gate-tcp@127.0.0.1' in dump else 'missing'}"
                   + ("" if report else " | " + " | ".join(tcp.tail(4))))
        tcp.stop()

        # (e) clean stop unregisters
        result = good.stop()
        dump = kamailio.dump() or ""
        self.check("(e) SIGINT unregisters (the AOR leaves kamailio's table) and the agent exits 0",
                   result and result[0] and aor not in dump,
                   f"{result[1] if result else ''}; AOR {'still there' if aor in dump else 'gone'}")


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"sip: intercomd run with [sip] against kamailio; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
