#!/usr/bin/env python3
"""SIP calls the device places: its call button rings a real SIP phone through a registrar (issue #18).

kamailio (Tests/sip/kamailio.py, `route_calls`) is the registrar (digest auth) and the proxy. The agent `gate`
registers as sip:gate@127.0.0.1 with `[call] target = "sip:reception@…"`, its buttons simulated by
`intercomd run --keys` (c = call, h = hangup, a = accept, typed on its standard input), answering by button, the 440 Hz test tone as its
microphone and an ALSA `file` PCM as its speaker. baresip (Debian's 1.0.0) registers as sip:reception@127.0.0.1,
sends a 1000 Hz tone and dumps the audio it decodes (helpers shared with baresip_test.py).

Checks: (a) both register; (b) the call button sends an INVITE that kamailio relays to baresip, which answers
automatically: the device logs the call answered; (c) two-way audio: baresip decoded the device's 440 Hz and
the device's speaker played baresip's 1000 Hz; the INVITE offered VP8 too, baresip (a video phone here) took it
and its snapshot of the device's video shows the test pattern; `[sip] post_dial_digits = "47#"` reaches baresip
as RFC 4733 events 4 7 # in order, once each (its ctrl_tcp `CALL_DTMF_START` events); (d) 9999# typed on the phone is logged wrong and opens nothing, then 1234# opens the door once;
(e) the hangup button ends the call with a BYE along the route set, the device logs the outgoing call answered
and ended locally, its SIP media with packets both ways and video frames sent, and /metrics counts it with
route="sip";
(f) the phone in manual answer mode refuses the call: the device logs it unanswered, refused by the callee;
(g) the phone rings and nobody answers: after `ring_timeout` the device CANCELs (baresip's call ends) and logs
the call unanswered (ring timeout); (h) with `answer = "button"`, baresip's call to the device rings until the
simulated accept button is pressed; (i) the device is still registered afterwards.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: outgoing_test.py [--server BIN] [--intercomd BIN]. Environment: SIP_KEEP=1 keeps the temporary directory.
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
from phone import BARESIP_VIDEO, BaresipEvents, PhoneRun, check_snapshot, door_speaker, two_way_audio  # noqa: E402
from calls import (LoggedProcess, agent_environment, binary_arguments,  # noqa: E402
                   scrape_metrics, start_intercom_server, write_agent_config)
from kamailio import free_udp_port  # noqa: E402
from webdriver import free_port, log, wait_for  # noqa: E402

PASSWORD = "s3cret-out"
DOOR_CODE = "1234"
RING_TIMEOUT = 6
KEYS_WIRING = """
[gpio.buttons.accept]
line = "ACCEPT"
[gpio.buttons.call]
line = "CALL"
[gpio.buttons.hangup]
line = "HANGUP"
"""


# Sent by the device as RFC 4733 events once baresip answers ([sip] post_dial_digits).
POST_DIAL_DIGITS = "47#"


class Run(PhoneRun):
    MODULES = ("sndfile.so", "vp8.so", "fakevideo.so", "snapshot.so")

    def __init__(self, server_bin, intercomd_bin):
        super().__init__(server_bin, intercomd_bin, prefix="intercom-sip-outgoing-")

    def gate(self, base, registrar_port):
        password_file = os.path.join(self.workdir, "gate.password")
        with open(password_file, "w", encoding="utf-8") as f:
            f.write(PASSWORD + "\n")
        code_file = os.path.join(self.workdir, "door-code")
        with open(code_file, "w", encoding="utf-8") as f:
            f.write(DOOR_CODE + "\n")
        home, self.speaker = door_speaker(self.workdir)
        self.target = f"sip:reception@127.0.0.1:{registrar_port}"
        self.metrics_port = free_port()
        config = write_agent_config(
            os.path.join(self.workdir, "gate.toml"), base, "SIP gate", 52.52, 13.405,
            os.path.join(self.workdir, "state-gate"), self.metrics_port, answer="button",
            call=f'allow_door_open = true\ntarget = "{self.target}"\nring_timeout = "{RING_TIMEOUT}s"\n'
                 'call_button_cooldown = "0s"\n',
            extra=f'\n[sip]\nregistrar = "127.0.0.1:{registrar_port}"\nuser = "gate"\n'
                  f'password_file = "{password_file}"\nport = {free_udp_port()}\nkeepalive = "5s"\n'
                  f'door_code_file = "{code_file}"\npost_dial_digits = "{POST_DIAL_DIGITS}"\n{KEYS_WIRING}')
        with open(config, encoding="utf-8") as f:
            text = f.read()
        with open(config, "w", encoding="utf-8") as f:
            f.write(text.replace('playback = "null"', 'playback = "doorspeaker"'))
        return LoggedProcess([self.intercomd_bin, "run", "--keys", "--config", config], self.workdir, "agent-gate",
                             env={**agent_environment(), "HOME": home}, stdin=subprocess.PIPE)

    @staticmethod
    def press(agent, key):
        agent.process.stdin.write(f"{key}\n")
        agent.process.stdin.flush()

    def scenario(self, processes):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        processes.append(server)
        if not self.check("intercom-server is up", base, detail):
            return
        kamailio = self.start_registrar(processes, PASSWORD)
        if not kamailio:
            return
        registrar_port = kamailio.port
        gate = self.gate(base, registrar_port)
        processes.append(gate)

        # A video phone: it answers the device's VP8 offer.
        phone, recordings = self.start_phone(
            processes, f"<sip:reception@127.0.0.1:{registrar_port}>;auth_pass={PASSWORD};regint=300;answermode=auto",
            extra_config=BARESIP_VIDEO + BaresipEvents.config(events_port := free_port()))
        events = BaresipEvents(events_port)

        # (a) both registered
        def registered():
            dump = kamailio.dump() or ""
            contacts = [re.search(p, dump) for p in (r"sip:gate@127\.0\.0\.1:\d+", r"sip:reception[^@>\s]*@127\.0\.0\.1:\d+")]
            return ", ".join(c.group(0) for c in contacts) if all(contacts) else None
        dump = wait_for(registered, 20, 0.2)
        if not self.check("(a) the device (gate) and baresip (reception) register with kamailio; kamcmd ul.dump holds both",
                          dump, f"contacts {dump}" if dump else "gate: " + " | ".join(gate.tail(3))
                          + "; baresip: " + " | ".join(phone.tail(4, stdout=True))):
            return

        # (b) the call button calls reception; baresip answers automatically
        mark, phone_mark = gate.mark(), phone.lines()
        self.press(gate, "c")
        answered = wait_for(lambda: gate.find(r"SIP call to \S+ answered.*", mark), 15, 0.1)
        relayed = kamailio.process.find(r"INVITE from sip:gate@\S+ relayed to (\S+)")
        established = phone.said(r"[Cc]all established.*", phone_mark)
        if not self.check(f"(b) the call button sends an INVITE to {self.target}; kamailio relays it to baresip, "
                          "which answers; the device logs the call answered",
                          answered and relayed and established,
                          f"{relayed.group(0)[:110] if relayed else 'no relay line in kamailio'}; "
                          f"{established.group(0)[:80] if established else 'baresip: ' + ' | '.join(phone.tail(5, stdout=True))}; "
                          f"device: {answered.group(0)[:100] if answered else ' | '.join(gate.tail(5))}"):
            return

        # (c) two-way audio
        two_way_audio(self, "(c)", recordings, self.speaker, gate)

        # (c) the device's video offer, answered by the video phone: its snapshot shows the test pattern
        check_snapshot(self, "(c) the INVITE offers VP8 beside the audio; baresip answers it and its snapshot of the "
                       "device's video is 640x480 with the test pattern's bars",
                       self.workdir, phone, gate.find(r"SIP video: VP8 .*", mark))

        # (c) the post-dial digits, as RFC 4733 events, in order, once each
        expected = list(POST_DIAL_DIGITS)
        keys = wait_for(lambda: (lambda k: k if len(k) >= len(expected) else None)(
            [e.get("param") for e in events.of_type("CALL_DTMF_START")]), 10, 0.1)
        sending = gate.find(r"SIP audio: sending keys .*", mark)
        self.check(f"(c) [sip] post_dial_digits = \"{POST_DIAL_DIGITS}\": 1 s after the answer baresip receives "
                   f"{' '.join(expected)} as RFC 4733 events (ctrl_tcp CALL_DTMF_START), in order, once each",
                   keys == expected,
                   f"baresip: {keys or [e.get('param') for e in events.of_type('CALL_DTMF_START')]}; "
                   f"device: {sending.group(0)[:90] if sending else 'no sending line'}")
        events.close()

        # (d) a wrong code, then the right one, from the called phone
        phone.type("9999#")
        wrong = wait_for(lambda: gate.find(r"SIP door code wrong.*", mark), 10, 0.1)
        phone.type(DOOR_CODE + "#")
        opened = wait_for(lambda: gate.find(r"opening the door.*", mark), 10, 0.1)
        pulses = gate.find_all(r"opening the door", mark)
        self.check("(d) the called phone types 9999# (logged wrong, nothing opens), then 1234# (RFC 4733): the device "
                   "opens the door once",
                   wrong and opened and len(pulses) == 1,
                   (wrong.group(0)[:80] if wrong else "no 'door code wrong' line") + f"; {len(pulses)} door openings; "
                   + (opened.group(0)[:80] if opened else " | ".join(gate.tail(4))))

        # (e) the hangup button ends the call
        phone_mark = phone.lines()
        self.press(gate, "h")
        outcome = wait_for(lambda: gate.find(r"call outgoing sip:reception\S*: answered.*", mark), 10, 0.1)
        ended = wait_for(lambda: gate.find(r"SIP media ended: .*", mark), 5, 0.1)
        bye = kamailio.process.find(r"in-dialog BYE from sip:gate@\S+ relayed .*")
        closed = wait_for(lambda: phone.said(r"(?i)(call closed|terminated|connection reset|session closed).*", phone_mark), 5, 0.1)
        self.check("(e) the hangup button sends BYE along the route set (kamailio relays it, baresip's call closes) and the "
                   "device logs the outgoing call answered, ended locally",
                   bye and closed and outcome and "localHangup" in outcome.group(0),
                   (bye.group(0)[:100] if bye else "kamailio relayed no BYE") + "; "
                   + (closed.group(0)[:60] if closed else "baresip: " + " | ".join(phone.tail(3, stdout=True))) + "; "
                   + (outcome.group(0)[:150] if outcome else "no outcome line: " + " | ".join(gate.tail(5))))
        text = ended.group(0) if ended else ""
        received = re.search(r"packetsReceived[=: ]+(\d+)", text)
        sent = re.search(r"packetsSent[=: ]+(\d+)", text)
        self.check("(e) the device's SIP media ended with packets both ways (≥ 150 each, 3 s at 50 a second)",
                   received and sent and int(received.group(1)) >= 150 and int(sent.group(1)) >= 150,
                   text[:260] if text else "no 'SIP media ended' line")
        video_ended = gate.find(r"SIP video ended: .*", mark)
        frames = re.search(r"framesSent: (\d+)", video_ended.group(0)) if video_ended else None
        self.check("(e) the device's SIP video ended with ≥ 50 frames sent", frames and int(frames.group(1)) >= 50,
                   video_ended.group(0)[:200] if video_ended else "no 'SIP video ended' line")
        status, samples = scrape_metrics(f"http://127.0.0.1:{self.metrics_port}/metrics")
        counted = samples.get('intercom_calls_total{direction="outgoing",outcome="answered",route="sip"}') if status == 200 else None
        self.check('(e) /metrics counts it: intercom_calls_total{direction="outgoing",outcome="answered",route="sip"} 1',
                   counted == 1, f"HTTP {status}: {counted}")

        # (f) the phone refuses
        phone.type("/answermode manual\n")
        mark, phone_mark = gate.mark(), phone.lines()
        self.press(gate, "c")
        ringing = wait_for(lambda: phone.said(r"(?i)incoming call.*", phone_mark), 10, 0.1)
        if ringing:
            phone.type("/hangup\n")
        refused = wait_for(lambda: gate.find(r"call outgoing sip:reception\S*: unanswered.*", mark), 10, 0.1)
        said = gate.find(r"SIP call to \S+ refused: .*", mark)
        self.check("(f) the phone rings and refuses (baresip /hangup): the device logs the call refused and unanswered",
                   ringing and refused and said,
                   (said.group(0)[:80] if said else "no 'refused' line") + "; "
                   + (refused.group(0)[:150] if refused else "no outcome: " + " | ".join(gate.tail(4)))
                   + ("" if ringing else "; baresip never rang: " + " | ".join(phone.tail(4, stdout=True))))

        # (g) nobody answers: the ring timeout CANCELs
        mark, phone_mark = gate.mark(), phone.lines()
        self.press(gate, "c")
        ringing = wait_for(lambda: phone.said(r"(?i)incoming call.*", phone_mark), 10, 0.1)
        timed_out = wait_for(lambda: gate.find(r"call outgoing sip:reception\S*: unanswered.*", mark), RING_TIMEOUT + 10, 0.1)
        closed = wait_for(lambda: phone.said(r"(?i)session closed.*", phone_mark), 5, 0.1)
        cancelled = wait_for(lambda: gate.find(r"SIP call cancelled .*status=487.*", mark), 5, 0.1)
        self.check(f"(g) nobody answers: after ring_timeout ({RING_TIMEOUT} s) the device CANCELs (the INVITE ends 487, "
                   "baresip's ringing call closes) and logs the call unanswered (ring timeout)",
                   ringing and closed and cancelled and timed_out and "ringTimeout" in timed_out.group(0),
                   (closed.group(0)[:80] if closed else "baresip: " + " | ".join(phone.tail(4, stdout=True))) + "; "
                   + (cancelled.group(0)[:90] if cancelled else "no 487 after a CANCEL") + "; "
                   + (timed_out.group(0)[:150] if timed_out else "no outcome: " + " | ".join(gate.tail(4))))

        # (h) the other way round: baresip calls the device, which rings until its accept button is pressed
        phone.type("/answermode auto\n")
        mark, phone_mark = gate.mark(), phone.lines()
        phone.type(f"/dial sip:gate@127.0.0.1:{registrar_port}\n")
        rings = wait_for(lambda: gate.find(r"SIP call from \S+ <sip:reception.*", mark), 10, 0.1)
        early = wait_for(lambda: phone.said(r"[Cc]all established.*", phone_mark), 2, 0.1)  # must not happen yet
        self.press(gate, "a")
        established = wait_for(lambda: phone.said(r"[Cc]all established.*", phone_mark), 10, 0.1)
        phone.type("/hangup\n")
        outcome = wait_for(lambda: gate.find(r"call incoming \S+: answered.*", mark), 10, 0.1)
        ring_to_answer = re.search(r'ringToAnswer="([0-9.]+) seconds"', outcome.group(0)) if outcome else None
        self.check("(h) answer = \"button\": baresip's call rings on the device (not answered within 2 s) until the "
                   "accept button is pressed, then it is established and logged answered",
                   rings and not early and established and ring_to_answer and float(ring_to_answer.group(1)) >= 2,
                   (rings.group(0)[:80] if rings else "no 'SIP call from' line") + "; "
                   + ("answered before the button! " if early else "")
                   + (established.group(0)[:60] if established else "baresip: " + " | ".join(phone.tail(4, stdout=True))) + "; "
                   + (outcome.group(0)[:140] if outcome else "no outcome: " + " | ".join(gate.tail(4))))

        # (i) still registered and running
        dump = kamailio.dump() or ""
        self.check("(i) the device still runs and is registered", gate.process.poll() is None
                   and re.search(r"sip:gate@127\.0\.0\.1:\d+", dump), f"running {gate.process.poll() is None}")


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"sip outgoing: the device's call button calls baresip through kamailio; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
