#!/usr/bin/env python3
"""SIP calls: SIPp (Debian's sip-tester) calls `intercomd run` directly on its SIP port (issue #18).

Two agents run against one intercom-server; calls reach a device on its own port whether or not it is
registered. The gate registers with a kamailio started here (so the flood below can be checked not to cost it its
registration); front points `[sip]` at a registrar port nobody listens on:
  gate   answers automatically, `call.allow_door_open = true`, a door code file holding 1234;
  front  answers by button only (no buttons wired: it rings until the ring timeout), `[sip] allow` admits
         sip:reception@127.0.0.1 only.

Checks: (a) a SIPp call with a PCMA + telephone-event offer is answered 200 with a G.711 answer, SIPp plays
7 s of PCMA (sip-tester's g711a.pcap) and the device counts it, then BYE; the device logs the call answered
and its SIP media with the packets both ways; a plain PCMU call plays a 440 Hz tone (a pcap written here)
whose packets and level the device measures; (b) the keys 1 2 3 4 # (RFC 4733 pcaps shipped with
sip-tester) open the door once; (c) a wrong code (9 9 9 9 #) does not; (d) a second INVITE during a call is
answered 486 Busy Here, and a WebRTC call (`intercomd call` through the backend) during it gets bye busy; an
INVITE during a WebRTC call gets 486 too, and so do 200 INVITEs in 10 s while the WebRTC call goes on; (e) a CANCEL before the answer gets 200 and the INVITE 487, and the device logs the
call missed; (f) a caller outside `[sip] allow` gets 403; (g) an offer without audio, or one that is not SDP, gets 488; (h) the agents
are still running and answer OPTIONS afterwards, and the gate, registered with kamailio, still is.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: calls_test.py [--server BIN] [--intercomd BIN]. Environment: SIP_KEEP=1 keeps the temporary directory.
"""

import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
from calls import (LoggedProcess, agent_environment, binary_arguments, keep_or_remove,  # noqa: E402
                   scrape_metrics, start_intercom_server, write_agent_config)
from kamailio import Kamailio, free_udp_port  # noqa: E402
from prerequisites import find_tool, missing_prerequisites  # noqa: E402
from webdriver import Checks, free_port, log, wait_for  # noqa: E402

PCAPS = "/usr/share/sip-tester"
REGISTRAR_PASSWORD = "s3cret-calls"
DOOR_CODE = "1234"
RING_TIMEOUT = 20
BUSY_SIP = 'intercom_calls_total{direction="incoming",outcome="busy",route="sip"}'
ANSWERED_WEBRTC = 'intercom_calls_total{direction="incoming",outcome="answered",route="webrtc"}'

HEADERS = """Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
From: "{name}" <sip:{user}@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
To: <sip:gate@[remote_ip]:[remote_port]>
Call-ID: [call_id]
Max-Forwards: 70"""

AUDIO_OFFER = """v=0
o=- 1 1 IN IP[local_ip_type] [local_ip]
s=-
c=IN IP[media_ip_type] [media_ip]
t=0 0
m=audio [media_port] RTP/AVP 8 101
a=rtpmap:8 PCMA/8000
a=rtpmap:101 telephone-event/8000
a=fmtp:101 0-15
a=sendrecv"""

VIDEO_ONLY_OFFER = """v=0
o=- 1 1 IN IP[local_ip_type] [local_ip]
s=-
c=IN IP[media_ip_type] [media_ip]
t=0 0
m=video [media_port] RTP/AVP 96
a=rtpmap:96 VP8/90000"""


def invite(name, user, offer):
    return f"""  <send retrans="500">
    <![CDATA[
      INVITE sip:gate@[remote_ip]:[remote_port] SIP/2.0
      {HEADERS.format(name=name, user=user)}
      CSeq: 1 INVITE
      Contact: <sip:{user}@[local_ip]:[local_port]>
      Content-Type: application/sdp
      Content-Length: [len]

{offer}
    ]]>
  </send>
"""


def ack_for_error(name, user, back):
    """The ACK for a non-2xx final response: the INVITE's branch (RFC 3261 §17.1.1.3), which SIPp names by
    how many scenario elements back the INVITE is."""
    return f"""  <send>
    <![CDATA[
      ACK sip:gate@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch-{back}];rport
      From: "{name}" <sip:{user}@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      [last_To:]
      Call-ID: [call_id]
      CSeq: 1 ACK
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
"""


def answered_call(name, user, media, offer=AUDIO_OFFER):
    """INVITE, 200, ACK, `media` (SIPp actions and pauses), BYE, 200."""
    return f"""<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="answered call">
{invite(name, user, offer)}
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
  <send>
    <![CDATA[
      ACK [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: "{name}" <sip:{user}@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      [last_To:]
      [routes]
      Call-ID: [call_id]
      CSeq: 1 ACK
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
{media}
  <send retrans="500">
    <![CDATA[
      BYE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: "{name}" <sip:{user}@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      [last_To:]
      [routes]
      Call-ID: [call_id]
      CSeq: 2 BYE
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
  <recv response="200"/>
</scenario>
"""


def refused_call(name, user, status, offer=AUDIO_OFFER, cancel=False):
    """INVITE answered `status` (after a CANCEL of ours when `cancel`), and its ACK. Elements are counted:
    SIPp's [branch-N] is the branch of the element N places back."""
    if cancel:
        steps = f"""  <recv response="100" optional="true"/>
  <recv response="180"/>
  <pause milliseconds="500"/>
  <send>
    <![CDATA[
      CANCEL sip:gate@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch-4];rport
      From: "{name}" <sip:{user}@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:gate@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 CANCEL
      Max-Forwards: 70
      Content-Length: 0

    ]]>
  </send>
  <recv response="200"/>
  <recv response="{status}"/>
{ack_for_error(name, user, 7)}"""
    else:
        steps = f"""  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="{status}"/>
{ack_for_error(name, user, 4)}"""
    return f"""<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="refused call">
{invite(name, user, offer)}
{steps}
</scenario>
"""


OPTIONS = """<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="options">
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


PCMU_OFFER = AUDIO_OFFER.replace("RTP/AVP 8 101", "RTP/AVP 0").replace(
    "a=rtpmap:8 PCMA/8000\na=rtpmap:101 telephone-event/8000\na=fmtp:101 0-15\n", "a=rtpmap:0 PCMU/8000\n")
PCMU_TONE = 440.0


def mulaw(sample):
    """One 16-bit sample as G.711 μ-law (ITU-T G.711: bias 132, sign, exponent, mantissa, bits inverted)."""
    sign = 0x80 if sample < 0 else 0
    magnitude = min(abs(sample), 32635) + 132
    exponent = max(0, magnitude.bit_length() - 8)
    mantissa = (magnitude >> (exponent + 3)) & 0x0F
    return ~(sign | (exponent << 4) | mantissa) & 0xFF


def write_pcmu_pcap(path, hertz, seconds):
    """A pcap (Ethernet, IPv4, UDP) of 20 ms RTP packets of a PCMU tone, for SIPp's play_pcap_audio (sip-tester
    ships only a PCMA one)."""
    def checksum(header):
        total = sum(struct.unpack("!10H", header))
        total = (total & 0xFFFF) + (total >> 16)
        return ~((total & 0xFFFF) + (total >> 16)) & 0xFFFF
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)]
    for n in range(seconds * 50):
        samples = [int(10000 * math.sin(2 * math.pi * hertz * (n * 160 + i) / 8000)) for i in range(160)]
        rtp = struct.pack("!BBHII", 0x80, 0, n & 0xFFFF, n * 160, 0x50C0) + bytes(mulaw(x) for x in samples)
        udp = struct.pack("!HHHH", 6000, 6002, 8 + len(rtp), 0) + rtp
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), n & 0xFFFF, 0, 64, 17, 0,
                         bytes([127, 0, 0, 1]), bytes([127, 0, 0, 1]))
        ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
        frame = b"\x00" * 12 + b"\x08\x00" + ip + udp
        out.append(struct.pack("<IIII", n // 50, (n % 50) * 20000, len(frame), len(frame)) + frame)
    with open(path, "wb") as f:
        f.write(b"".join(out))


def play(pcap, pause_ms):
    path = pcap if os.path.isabs(pcap) else f"{PCAPS}/{pcap}"
    return (f'  <nop><action><exec play_pcap_audio="{path}"/></action></nop>\n'
            f'  <pause milliseconds="{pause_ms}"/>\n')


def keys(code):
    names = {"#": "pound", "*": "star"}
    return "".join(play(f"dtmf_2833_{names.get(key, key)}.pcap", 400) for key in code)


class Run(Checks):
    def __init__(self, server_bin, intercomd_bin):
        super().__init__()
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.workdir = tempfile.mkdtemp(prefix="intercom-sip-calls-")
        self.scenarios = 0
        self.metrics = {}

    def agent(self, label, base, call, sip, registrar_port=None):
        """An agent on its own SIP port; registered with `registrar_port` (kamailio) when given, else pointed at a
        port nobody listens on (calls still reach it on its port)."""
        metrics_port, sip_port = free_port(), free_udp_port()
        config = write_agent_config(
            os.path.join(self.workdir, f"{label}.toml"), base, f"SIP {label}", 52.52, 13.405,
            os.path.join(self.workdir, f"state-{label}"), metrics_port,
            answer="auto" if label == "gate" else "button", call=call,
            extra=f'\n[sip]\nregistrar = "127.0.0.1:{registrar_port or free_udp_port()}"\nuser = "{label}"\n'
                  f'port = {sip_port}\n{sip}')
        process = LoggedProcess([self.intercomd_bin, "run", "--config", config], self.workdir, f"agent-{label}",
                                env=agent_environment())
        self.metrics[process.label] = metrics_port
        return process, sip_port

    # What SIPp is told about the transport (none: UDP), and the tools the run needs (tcp_test.py narrows both).
    SIPP_TRANSPORT = ()
    TOOLS = (("sipp", "sip-tester"), ("kamailio", "kamailio"), ("kamcmd", "kamailio"))

    def sipp(self, port, scenario, timeout=40, calls=1, rate=None):
        """Runs a SIPp scenario against 127.0.0.1:`port`, `calls` times (at `rate` calls a second, else one at a
        time); returns (exit code, the tail of what it said)."""
        self.scenarios += 1
        path = os.path.join(self.workdir, f"scenario-{self.scenarios}.xml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(scenario)
        errors = os.path.join(self.workdir, f"sipp-{self.scenarios}-errors.log")
        try:
            result = subprocess.run(
                [find_tool("sipp"), f"127.0.0.1:{port}", *self.SIPP_TRANSPORT, "-sf", path, "-m", str(calls), "-i", "127.0.0.1",
                 "-p", str(free_udp_port()), "-mp", str(free_udp_port() & ~1), "-timeout", f"{timeout}s",
                 "-timeout_error", "-nostdin", "-trace_err", "-error_file", errors]
                + (["-r", str(rate), "-rp", "1000"] if rate else []),
                capture_output=True, text=True, timeout=timeout + 10, cwd=self.workdir)
        except subprocess.TimeoutExpired:
            return -1, "sipp did not end"
        said = (result.stderr + result.stdout)[-300:]
        if result.returncode != 0 and os.path.exists(errors):
            with open(errors, encoding="utf-8", errors="replace") as f:
                said += " | " + f.read()[-400:]
        return result.returncode, said

    def run(self):
        missing = missing_prerequisites(tools=self.TOOLS)
        for problem in missing:
            self.check("prerequisites", False, problem)
        if not missing and not os.path.exists(f"{PCAPS}/g711a.pcap"):
            self.check("sip-tester's pcaps are installed", False, f"no {PCAPS}/g711a.pcap (apt-get install sip-tester)")
            return self
        if missing:
            return self
        processes = []
        try:
            self.scenario(processes)
        finally:
            for process in processes:
                process.stop()
            keep_or_remove(self.workdir, "SIP_KEEP", self.failed > 0)
        return self

    def scenario(self, processes):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        self.base = base
        processes.append(server)
        if not self.check("intercom-server is up", base, detail):
            return
        code_file = os.path.join(self.workdir, "door-code")
        with open(code_file, "w", encoding="utf-8") as f:
            f.write(DOOR_CODE + "\n")
        # The gate registers with a real kamailio, so the flood below can be checked not to cost it its registration.
        registrar_port = free_udp_port()
        kamailio = Kamailio(self.workdir, registrar_port, REGISTRAR_PASSWORD)
        processes.append(kamailio)
        if not self.check("kamailio is up (the gate's registrar)", kamailio.start(), " | ".join(kamailio.process.tail(3))):
            return
        self.kamailio = kamailio
        password_file = os.path.join(self.workdir, "gate.password")
        with open(password_file, "w", encoding="utf-8") as f:
            f.write(REGISTRAR_PASSWORD + "\n")
        gate, gate_port = self.agent("gate", base, "allow_door_open = true\n",
                                     f'door_code_file = "{code_file}"\npassword_file = "{password_file}"\n', registrar_port)
        front, front_port = self.agent("front", base, f'ring_timeout = "{RING_TIMEOUT}s"\n',
                                       'allow = ["sip:reception@127.0.0.1", "concierge"]\n')
        processes += [gate, front]
        for agent, port in ((gate, gate_port), (front, front_port)):
            up = wait_for(lambda: self.sipp(port, OPTIONS, timeout=2)[0] == 0 or agent.process.poll() is not None, 20, 0.2)
            if not self.check(f"{agent.label} starts with [sip] and answers OPTIONS on its SIP port",
                              up and agent.process.poll() is None, " | ".join(agent.tail(5))):
                return

        # (a) + (b): an answered call, 7 s of PCMA, then the right code
        media = play("g711a.pcap", 7300) + keys(DOOR_CODE + "#") + '  <pause milliseconds="500"/>\n'
        code, said = self.sipp(gate_port, answered_call("Visitor", "visitor", media))
        answered = wait_for(lambda: gate.find(r"call incoming Visitor: answered.*"), 10)
        ended = wait_for(lambda: gate.find(r"SIP media ended: .*"), 10)
        self.check("(a) SIPp's call with a PCMA offer is answered 200 with a G.711 answer and ends with BYE → 200",
                   code == 0, f"sipp exit {code}: {said}")
        self.check("(a) the device logs the SIP call answered", answered,
                   answered.group(0)[:200] if answered else " | ".join(gate.tail(6)))
        status, samples = scrape_metrics(f"http://127.0.0.1:{self.metrics[gate.label]}/metrics")
        counted = samples.get('intercom_calls_total{direction="incoming",outcome="answered",route="sip"}') if status == 200 else None
        self.check("(a) /metrics counts it with route=\"sip\"", counted == 1, f"HTTP {status}: {counted}")
        received = re.search(r"packetsReceived[=: ]+(\d+)", ended.group(0)) if ended else None
        sent = re.search(r"packetsSent[=: ]+(\d+)", ended.group(0)) if ended else None
        self.check("(a) the device received SIPp's 7 s of PCMA (≥ 200 of its 236 packets) and sent its microphone (≥ 300 packets)",
                   received and sent and int(received.group(1)) >= 200 and int(sent.group(1)) >= 300,
                   ended.group(0)[:300] if ended else "no 'SIP media ended' line: " + " | ".join(gate.tail(6)))
        opened = gate.find_all(r"opening the door")
        self.check("(b) the keys 1 2 3 4 # (RFC 4733) open the door once", len(opened) == 1,
                   f"{len(opened)} door pulses; " + " | ".join(m.string[-120:] for m in gate.find_all(r"door code")))

        # (c) a wrong code
        mark = len(gate.err)
        code, said = self.sipp(gate_port, answered_call("Visitor", "visitor", keys("9999#") + '  <pause milliseconds="500"/>\n'))
        wrong = wait_for(lambda: gate.find(r"SIP door code wrong.*", since=mark), 5)
        self.check("(c) a wrong code (9 9 9 9 #) is logged as wrong and opens nothing",
                   code == 0 and wrong and len(gate.find_all(r"opening the door")) == 1,
                   f"sipp exit {code}; {wrong.group(0)[:120] if wrong else 'no wrong-code line'}; "
                   f"{len(gate.find_all(r'opening the door'))} door pulses in all")

        # (a) a plain PCMU call (RFC 3551 payload type 0): 3 s of a 440 Hz tone, measured by the device
        pcmu = os.path.join(self.workdir, "pcmu-tone.pcap")
        write_pcmu_pcap(pcmu, PCMU_TONE, 3)
        mark = len(gate.err)
        code, said = self.sipp(gate_port, answered_call("Plain", "plain", play(pcmu, 3300), offer=PCMU_OFFER))
        ended = wait_for(lambda: gate.find(r"SIP media ended: .*", since=mark), 10)
        text = ended.group(0) if ended else ""
        received = re.search(r"packetsReceived: (\d+)", text)
        level = re.search(r"receivedLevel: (-?[\d.]+)", text)
        self.check("(a) a plain PCMU call from SIPp: answered with PCMU, and the device receives its 3 s tone "
                   "(≥ 120 of 150 packets, level above -30 dBFS)",
                   code == 0 and 'codec: "PCMU"' in text and received and int(received.group(1)) >= 120
                   and level and float(level.group(1)) > -30,
                   f"sipp exit {code} {said[-120:] if code else ''}; " + (text[:260] if text else "no 'SIP media ended' line"))

        # (d) busy: a second INVITE while the first call is up
        results = {}
        mark = len(gate.err)
        first = threading.Thread(target=lambda: results.update(first=self.sipp(
            gate_port, answered_call("Long", "long", '  <pause milliseconds="12000"/>\n'))))
        first.start()
        confirmed = wait_for(lambda: gate.find(r"SIP call confirmed", since=mark), 5)
        code, said = self.sipp(gate_port, refused_call("Second", "second", 486))
        self.check("(d) an INVITE during a SIP call is answered 486 Busy Here", confirmed and code == 0,
                   f"{'confirmed' if confirmed else 'the first call was not confirmed'}; sipp exit {code} {said[-150:]}")
        # A WebRTC call (intercomd call through the backend) during the SIP call: refused with bye busy.
        caller_config = write_agent_config(os.path.join(self.workdir, "caller.toml"), self.base, "WebRTC Caller",
                                           52.52, 13.405, os.path.join(self.workdir, "state-caller"), free_port())
        webrtc = LoggedProcess([self.intercomd_bin, "call", "--config", caller_config, "--to", "SIP gate",
                                "--seconds", "2"], self.workdir, "call-webrtc", env=agent_environment())
        try:
            exit_code = webrtc.process.wait(30)
        except subprocess.TimeoutExpired:
            exit_code = None
        webrtc.stop()
        busy = gate.find(r"call incoming WebRTC Caller: .*", since=mark)
        first.join(30)
        self.check("(d) a WebRTC call during the SIP call is refused busy (the caller exits 1, the device logs it busy) "
                   "and the SIP call goes on to its BYE",
                   exit_code == 1 and busy and "busy" in busy.group(0).lower() and results.get("first", (1,))[0] == 0,
                   f"intercomd call exit {exit_code}; device: {busy.group(0)[:160] if busy else 'no outcome line'}; "
                   f"first SIP call: {results.get('first', ('running',))[0]} | " + " | ".join(webrtc.tail(3)))

        # (d) the other way round: an INVITE during a WebRTC call gets 486, and so does a flood of 200 in 10 s,
        # while the WebRTC call goes on
        mark = len(gate.err)
        status, samples = scrape_metrics(f"http://127.0.0.1:{self.metrics[gate.label]}/metrics")
        busy_before = samples.get(BUSY_SIP, 0) if status == 200 else 0
        answered_before = samples.get(ANSWERED_WEBRTC, 0) if status == 200 else 0
        webrtc = LoggedProcess([self.intercomd_bin, "call", "--config", caller_config, "--to", "SIP gate",
                                "--seconds", "18"], self.workdir, "call-webrtc-2", env=agent_environment())
        connected = webrtc.wait_line(r"connected after \d+ ms", 30, stdout=True)
        code, said = self.sipp(gate_port, refused_call("During", "during", 486))
        self.check("(d) an INVITE during a WebRTC call is answered 486 Busy Here",
                   connected and code == 0, f"{'connected' if connected else 'the WebRTC call did not connect'}; "
                   f"sipp exit {code} {said[-150:]}")
        started = time.monotonic()
        code, said = self.sipp(gate_port, refused_call("Flood", "flood", 486), timeout=30, calls=200, rate=20)
        flood_seconds = time.monotonic() - started
        try:
            exit_code = webrtc.process.wait(40)
        except subprocess.TimeoutExpired:
            exit_code = None
        webrtc.stop()

        # The caller exits once it sent its bye; the device counts the call when it has handled that bye.
        def answered_count():
            status, samples = scrape_metrics(f"http://127.0.0.1:{self.metrics[gate.label]}/metrics")
            return (status, samples, samples.get(ANSWERED_WEBRTC) if status == 200 else None)
        wait_for(lambda: answered_count()[2] == answered_before + 1, 5, 0.1)
        status, samples, answered = answered_count()
        self.check("(d) 200 INVITEs in 10 s (SIPp at 20 a second) during the WebRTC call: every one answered 486, the "
                   "WebRTC call goes on to its end (the caller exits 0, /metrics counts it answered)",
                   code == 0 and flood_seconds < 20 and exit_code == 0 and answered == answered_before + 1,
                   f"sipp exit {code} after {flood_seconds:.1f} s {said[-120:] if code else ''}; intercomd call exit {exit_code}; "
                   f"answered WebRTC calls {answered} (before: {answered_before})")
        line = gate.find(r"call incoming [^:]*: answered\(.*", since=mark)
        suppressed = gate.find(r"suppressed \d+ messages from intercomd in the last minute", since=mark)
        self.check("(d) the flood's lines are rate-limited, the WebRTC call's outcome line is not (answered calls log "
                   "under their own label)",
                   line is not None, (line.group(0)[:150] if line else "no 'answered' outcome line for the WebRTC call")
                   + f"; {suppressed.group(0) if suppressed else 'no suppression summary yet'}")
        busy = samples.get(BUSY_SIP) if status == 200 else None
        self.check("(d) /metrics counts the 201 SIP calls refused busy during the WebRTC call (one, then the flood of 200; "
                   "the log is rate-limited, the counter is not)",
                   busy is not None and busy - busy_before == 201, f"HTTP {status}: {busy} (before: {busy_before})")

        # (e) CANCEL before the answer
        mark = len(front.err)
        code, said = self.sipp(front_port, refused_call("Reception", "reception", 487, cancel=True))
        outcome = wait_for(lambda: front.find(r"call incoming Reception: .*", since=mark), 10)
        self.check("(e) CANCEL while ringing: 200 to the CANCEL, 487 to the INVITE, the device logs the call not answered",
                   code == 0 and outcome and not re.search(r"Reception: answered", outcome.group(0)),
                   f"sipp exit {code} {said[-150:] if code else ''}; {outcome.group(0)[:160] if outcome else 'no outcome line'}")

        # (f) outside the allow-list
        code, said = self.sipp(front_port, refused_call("Stranger", "stranger", 403))
        self.check("(f) a caller outside [sip] allow is refused 403", code == 0, f"sipp exit {code}: {said[-200:]}")

        # (g) no audio in the offer
        code, said = self.sipp(gate_port, refused_call("Video", "video", 488, offer=VIDEO_ONLY_OFFER))
        self.check("(g) an offer without audio is refused 488 Not Acceptable Here", code == 0, f"sipp exit {code}: {said[-200:]}")
        code, said = self.sipp(gate_port, refused_call("Garbage", "garbage", 488, offer="v=9\nthis is not a session description"))
        self.check("(g) an offer that does not parse as SDP is refused 488", code == 0, f"sipp exit {code}: {said[-200:]}")

        # (h) still there
        alive = [agent.process.poll() is None for agent in (gate, front)]
        codes = [self.sipp(port, OPTIONS)[0] for port in (gate_port, front_port)]
        self.check("(h) both agents still run and answer OPTIONS 200", all(alive) and codes == [0, 0],
                   f"running {alive}; OPTIONS exits {codes}")
        dump = self.kamailio.dump() or ""
        status, samples = scrape_metrics(f"http://127.0.0.1:{self.metrics[gate.label]}/metrics")
        self.check("(h) the gate is still registered after the flood (kamailio's table, intercom_sip_registered 1)",
                   re.search(r"sip:gate@127\.0\.0\.1:\d+", dump) and samples.get("intercom_sip_registered") == 1,
                   f"ul.dump {'has' if 'sip:gate@' in dump else 'lacks'} the gate; HTTP {status}: "
                   f"intercom_sip_registered {samples.get('intercom_sip_registered')}")


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"sip calls: SIPp calls intercomd run directly; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
