#!/usr/bin/env python3
"""SIP video: baresip (Debian's 1.0.0, with its vp8, fakevideo and snapshot modules) calls `intercomd run`
through kamailio with an audio + VP8 offer, and the device answers both (issue #18, RFC 7741).

The device's camera is its 640x480 test pattern, encoded once by the VP8 encoder every call shares; baresip
sends its own fake video (fakevideo) and displays what it decodes on the fakevideo display, from which the
snapshot module saves a PNG on `/snapshot` (snapshot-recv-….png).

Checks: (a) both register; (b) baresip's call with audio and video is established, the device answers VP8
(its log names the video stream); (c) baresip saves a snapshot of the device's video: a PNG of 640x480
(read from its IHDR) whose colour bars are the test pattern's; (d) after the hangup the device's video counters show frames sent (≥ 5 s at ≥ 10 fps)
and baresip's video received (≥ 20 packets), and the audio still flowed both ways; (e) a second device with
`[sip] video = false` answers the same call with audio only (no video stream, audio in); (f) a second baresip
that requires SRTP (`mediaenc=srtp-mand`) calls the gate: its video is RTP/SAVP both ways (baresip's snapshot
shows the test pattern, the device counts its video authenticated, none failing); (g) both devices still run.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: video_test.py [--server BIN] [--intercomd BIN]. Environment: SIP_KEEP=1 keeps the temporary directory.
"""

import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
from phone import BARESIP_VIDEO, PhoneRun, check_snapshot  # noqa: E402
from calls import (LoggedProcess, agent_environment, binary_arguments,  # noqa: E402
                   start_intercom_server, write_agent_config)
from kamailio import free_udp_port  # noqa: E402
from webdriver import free_port, log, wait_for  # noqa: E402

PASSWORD = "s3cret-video"
VIDEO_MODULES = ("vp8.so", "fakevideo.so", "snapshot.so")


class Run(PhoneRun):
    MODULES = ("sndfile.so", "srtp.so") + VIDEO_MODULES

    def __init__(self, server_bin, intercomd_bin):
        super().__init__(server_bin, intercomd_bin, prefix="intercom-sip-video-")

    def scenario(self, processes):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        processes.append(server)
        if not self.check("intercom-server is up", base, detail):
            return
        kamailio = self.start_registrar(processes, PASSWORD)
        if not kamailio:
            return
        registrar_port = kamailio.port
        password_file = os.path.join(self.workdir, "gate.password")
        with open(password_file, "w", encoding="utf-8") as f:
            f.write(PASSWORD + "\n")
        def agent(user, title, sip=""):
            """`intercomd run` registered as sip:USER with kamailio; `sip` adds lines to its [sip] table."""
            config = write_agent_config(
                os.path.join(self.workdir, f"{user}.toml"), base, title, 52.52, 13.405,
                os.path.join(self.workdir, f"state-{user}"), free_port(),
                extra=f'\n[sip]\nregistrar = "127.0.0.1:{registrar_port}"\nuser = "{user}"\n'
                      f'password_file = "{password_file}"\nport = {free_udp_port()}\nkeepalive = "5s"\n{sip}')
            process = LoggedProcess([self.intercomd_bin, "run", "--config", config], self.workdir, f"agent-{user}",
                                    env=agent_environment())
            processes.append(process)
            return process

        gate = agent("gate", "SIP video gate")
        # The same device with `[sip] video = false` (for PBXs that refuse video): audio only, video refused.
        door = agent("door", "SIP audio-only door", "video = false\n")

        phone, _ = self.start_phone(processes, f"<sip:camera@127.0.0.1:{registrar_port}>;auth_pass={PASSWORD};regint=300",
                                    extra_config=BARESIP_VIDEO)

        def registered():
            dump = kamailio.dump() or ""
            contacts = [re.search(p, dump) for p in (r"sip:gate@127\.0\.0\.1:\d+", r"sip:door@127\.0\.0\.1:\d+",
                                                      r"sip:camera[^@>\s]*@127\.0\.0\.1:\d+")]
            return ", ".join(c.group(0) for c in contacts) if all(contacts) else None
        dump = wait_for(registered, 20, 0.2)
        if not self.check("(a) the devices (gate, door) and baresip (camera) register with kamailio", dump,
                          f"contacts {dump}" if dump else "gate: " + " | ".join(gate.tail(3))
                          + "; baresip: " + " | ".join(phone.tail(4, stdout=True))):
            return

        mark = phone.lines()
        phone.type(f"/dial sip:gate@127.0.0.1:{registrar_port}\n")
        established = wait_for(lambda: phone.said(r"[Cc]all established.*", mark), 15, 0.1)
        video = wait_for(lambda: gate.find(r"SIP video: VP8 .*"), 5, 0.1)
        if not self.check("(b) baresip's audio + VP8 call is established and the device answers the video",
                          established and video,
                          (video.group(0)[:140] if video else "no 'SIP video' line: " + " | ".join(gate.tail(5))) + "; "
                          + (established.group(0)[:80] if established else "baresip: " + " | ".join(phone.tail(5, stdout=True)))):
            return

        time.sleep(3)  # decoded frames on baresip's display
        check_snapshot(self, "(c) baresip saves a snapshot of the device's video: a 640x480 PNG showing the test "
                       "pattern's colour bars (grey first, blue last)", self.workdir, phone, video)

        time.sleep(2)
        phone.type("/hangup\n")
        ended = wait_for(lambda: gate.find(r"SIP video ended: .*"), 10, 0.1)
        audio = wait_for(lambda: gate.find(r"SIP media ended: .*"), 5, 0.1)
        text = ended.group(0) if ended else ""
        frames = re.search(r"framesSent: (\d+)", text)
        received = re.search(r"packetsReceived: (\d+)", text)
        audio_in = re.search(r"packetsReceived: (\d+)", audio.group(0)) if audio else None
        self.check("(d) the device sent its video (≥ 50 frames) and counted baresip's (≥ 20 packets); audio flowed both ways",
                   frames and received and int(frames.group(1)) >= 50 and int(received.group(1)) >= 20
                   and audio_in and int(audio_in.group(1)) >= 100,
                   (text[:300] if text else "no 'SIP video ended' line: " + " | ".join(gate.tail(5)))
                   + f"; audio packets received {audio_in.group(1) if audio_in else '?'}")

        # (e) the audio-only device: baresip's audio + VP8 call is answered with audio alone
        mark, door_mark = phone.lines(), door.mark()
        phone.type(f"/dial sip:door@127.0.0.1:{registrar_port}\n")
        established = wait_for(lambda: phone.said(r"[Cc]all established.*", mark), 15, 0.1)
        time.sleep(3)
        phone.type("/hangup\n")
        audio = wait_for(lambda: door.find(r"SIP media ended: .*", door_mark), 10, 0.1)
        audio_in = re.search(r"packetsReceived: (\d+)", audio.group(0)) if audio else None
        video_line = door.find(r"SIP video.*", door_mark)
        self.check("(e) with [sip] video = false the same audio + VP8 call is answered with audio only: no video stream "
                   "on the device, audio both ways (≥ 100 packets in)",
                   established and audio_in and int(audio_in.group(1)) >= 100 and video_line is None,
                   (established.group(0)[:60] if established else "not established: " + " | ".join(phone.tail(4, stdout=True)))
                   + f"; {video_line.group(0)[:100] if video_line else 'no SIP video line'}; "
                   + (audio.group(0)[:160] if audio else "no 'SIP media ended' line: " + " | ".join(door.tail(4))))

        # (f) a phone that requires SRTP (baresip mediaenc=srtp-mand: audio and video RTP/SAVP with SDES keys)
        # calls the gate ([sip] srtp at its default, optional): its video is SRTP too, both ways
        secure, _ = self.start_phone(processes, f"<sip:sphone@127.0.0.1:{registrar_port}>;auth_pass={PASSWORD};"
                                     "mediaenc=srtp-mand;regint=300", name="sphone", extra_config=BARESIP_VIDEO, srtp=True)
        wait_for(lambda: re.search(r"sip:sphone[^@>\s]*@127\.0\.0\.1", kamailio.dump() or ""), 20, 0.2)
        mark, gate_mark = secure.lines(), gate.mark()
        secure.type(f"/dial sip:gate@127.0.0.1:{registrar_port}\n")
        established = wait_for(lambda: secure.said(r"[Cc]all established.*", mark), 15, 0.1)
        video = wait_for(lambda: gate.find(r"SIP video: VP8 .*", gate_mark), 5, 0.1)
        time.sleep(3)
        check_snapshot(self, "(f) an SRTP-only phone (RTP/SAVP audio and video) gets the device's video over SRTP: "
                       "its snapshot is 640x480 with the test pattern's bars", self.workdir, secure, video)
        secure.type("/hangup\n")
        ended = wait_for(lambda: gate.find(r"SIP video ended: .*", gate_mark), 10, 0.1)
        text = ended.group(0) if ended else ""
        numbers = {key: int(value) for key, value in re.findall(r"(\w+): (\d+)", text)}
        suite = re.search(r'srtp: "(\w+)"', text)
        self.check("(f) the device's SRTP video: keys from the phone's a=crypto, ≥ 50 frames sent, the phone's video "
                   "(≥ 20 packets) authenticated, none failing",
                   established and suite and suite.group(1).startswith("AES_CM_128") and numbers.get("framesSent", 0) >= 50
                   and numbers.get("packetsReceived", 0) >= 20 and numbers.get("srtpFailed", 1) == 0,
                   (text[:400] if text else "no 'SIP video ended' line: " + " | ".join(gate.tail(5)))
                   + ("" if established else "; not established: " + " | ".join(secure.tail(4, stdout=True))))

        self.check("(g) the devices still run", gate.process.poll() is None and door.process.poll() is None,
                   " | ".join(gate.tail(2) + door.tail(2)))


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"sip video: baresip calls intercomd run with audio and VP8; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
