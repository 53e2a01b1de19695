#!/usr/bin/env python3
"""SIP over TCP to the device: SIPp (`-t t1`, one TCP connection) connects to `intercomd run` with
`[sip] transport = "tcp"` on its SIP port (issue #18 item 2: the device listens on TCP too).

The agent's registrar is a port nobody listens on (calls reach the device on its own port registered or not).
Checks: (a) OPTIONS over TCP is answered 200 on the connection SIPp opened; (b) a full call: INVITE with a
G.711 offer (calls_test.py's PCMA offer: sip-tester ships only a PCMA pcap), 200, ACK, 7 s of PCMA from SIPp,
BYE, 200; the device logs the call answered and its SIP media ended with packets both ways; (c) the agent
logged its TCP listener and still answers OPTIONS over TCP afterwards.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: tcp_test.py [--server BIN] [--intercomd BIN]. Environment: SIP_KEEP=1 keeps the temporary directory.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import calls_test  # noqa: E402
from calls import binary_arguments, start_intercom_server  # noqa: E402
from calls_test import OPTIONS, answered_call, play  # noqa: E402
from webdriver import log, wait_for  # noqa: E402


class Run(calls_test.Run):
    # `-t t1`: one TCP connection for all of a run's calls (sipp(1)); no registrar here.
    SIPP_TRANSPORT = ("-t", "t1")
    TOOLS = (("sipp", "sip-tester"),)

    def scenario(self, processes):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        processes.append(server)
        if not self.check("intercom-server is up", base, detail):
            return
        gate, port = self.agent("gate", base, "", 'transport = "tcp"\n')
        processes.append(gate)
        up = wait_for(lambda: self.sipp(port, OPTIONS, timeout=2)[0] == 0 or gate.process.poll() is not None, 20, 0.2)
        self.check("(a) OPTIONS over TCP (SIPp -t t1) is answered 200 on SIPp's connection",
                   up and gate.process.poll() is None, " | ".join(gate.tail(5)))
        if not up:
            return

        code, said = self.sipp(port, answered_call("Visitor", "visitor", play("g711a.pcap", 7300)))
        answered = wait_for(lambda: gate.find(r"call incoming Visitor: answered.*"), 10)
        ended = wait_for(lambda: gate.find(r"SIP media ended: .*"), 10)
        self.check("(b) a call over TCP: INVITE, 200, ACK, BYE → 200 (SIPp's scenario ends without error)",
                   code == 0, f"sipp exit {code}: {said}")
        self.check("(b) the device logs the SIP call answered", answered,
                   answered.group(0)[:200] if answered else " | ".join(gate.tail(6)))
        received = re.search(r"packetsReceived[=: ]+(\d+)", ended.group(0)) if ended else None
        sent = re.search(r"packetsSent[=: ]+(\d+)", ended.group(0)) if ended else None
        self.check("(b) SIP media ended with packets both ways (≥ 200 of SIPp's 236 received, ≥ 300 sent)",
                   received and sent and int(received.group(1)) >= 200 and int(sent.group(1)) >= 300,
                   ended.group(0)[:300] if ended else "no 'SIP media ended' line: " + " | ".join(gate.tail(6)))

        listening = gate.find(r"SIP listening.*tcp.*")
        code, said = self.sipp(port, OPTIONS)
        self.check("(c) the agent logged its TCP listener and still answers OPTIONS over TCP",
                   listening and code == 0 and gate.process.poll() is None,
                   f"{listening.group(0)[:160] if listening else 'no TCP listening line'}; OPTIONS exit {code}")


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"sip tcp: SIPp over TCP calls intercomd run; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
