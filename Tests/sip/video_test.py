#!/usr/bin/env python3
"""SIP video: baresip (Debian's 1.0.0, with its vp8, fakevideo and snapshot modules) calls `intercomd run`
through kamailio with an audio + VP8 offer, and the device answers both (issue #18, RFC 7741).

The device's camera is its 640x480 test pattern, encoded once by the VP8 encoder every call shares; baresip
sends its own fake video (fakevideo) and displays what it decodes on the fakevideo display, from which the
snapshot module saves a PNG on `/snapshot` (snapshot-recv-….png).

Checks: (a) both register; (b) baresip's call with audio and video is established, the device answers VP8
(its log names the video stream); (c) baresip saves a snapshot of the device's video: a PNG of 640x480
(read from its IHDR) whose colour bars are the test pattern's; (d) after the hangup the device's video counters show frames sent (≥ 5 s at ≥ 10 fps)
and baresip's video received (≥ 20 packets), and the audio still flowed both ways; (e) the device still runs.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: video_test.py [--server BIN] [--intercomd BIN]. Environment: SIP_KEEP=1 keeps the temporary directory.
"""

import glob
import os
import re
import struct
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
from baresip_test import (BARESIP_MODULES, PHONE_TONE, Baresip, baresip_config, free_port_pair,  # noqa: E402
                          write_tone_wav)
from calls import (LoggedProcess, agent_environment, binary_arguments, keep_or_remove,  # noqa: E402
                   start_intercom_server, write_agent_config)
from kamailio import KAMAILIO_MODULES, Kamailio, free_udp_port  # noqa: E402
from prerequisites import missing_prerequisites  # noqa: E402
from webdriver import Checks, free_port, log, wait_for  # noqa: E402

PASSWORD = "s3cret-video"
VIDEO_MODULES = ("vp8.so", "fakevideo.so", "snapshot.so")
BARESIP_VIDEO = """module vp8.so
module fakevideo.so
module snapshot.so
video_source fakevideo,nil
video_display fakevideo,nil
video_size 320x240
video_fps 15
video_bitrate 300000
"""


def png_size(path):
    """(width, height) from a PNG's IHDR chunk, or None when the file is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def png_rgb_rows(path):
    """The rows of an 8-bit RGB or RGBA PNG as lists of (r, g, b), its filters undone (PNG spec §9); None for
    another kind of PNG."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, header = 8, b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if not header or header[2] != 8 or header[3] not in (2, 6) or header[6] != 0:
        return None
    width, height, channels = header[0], header[1], 3 if header[3] == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return rows


# The test pattern's colour bars (Sources/Media: 7 bars under a timecode strip): the middle of the first and of
# the last bar in the middle row: light grey, then blue.
BARS = (((45, 240), "grey", lambda r, g, b: min(r, g, b) > 140 and max(r, g, b) - min(r, g, b) < 40),
        ((595, 240), "blue", lambda r, g, b: b > 120 and r < 80 and g < 80))


class Run(Checks):
    def __init__(self, server_bin, intercomd_bin):
        super().__init__()
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.workdir = tempfile.mkdtemp(prefix="intercom-sip-video-")

    def run(self):
        missing = missing_prerequisites(tools=(("kamailio", "kamailio"), ("kamcmd", "kamailio"), ("baresip", "baresip")))
        for problem in missing:
            self.check("prerequisites", False, problem)
        if missing:
            return self
        for path, package in [(KAMAILIO_MODULES, "kamailio")] + [(f"{BARESIP_MODULES}/{m}", "baresip") for m in VIDEO_MODULES]:
            if not os.path.exists(path):
                self.check(f"{path} is installed", False, f"missing (apt-get install {package})")
                return self
        processes = []
        try:
            self.scenario(processes)
        finally:
            for process in reversed(processes):
                process.stop()
            keep_or_remove(self.workdir, "SIP_KEEP", self.failed > 0)
        return self

    def scenario(self, processes):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        processes.append(server)
        if not self.check("intercom-server is up", base, detail):
            return
        registrar_port = free_udp_port()
        kamailio = Kamailio(self.workdir, registrar_port, PASSWORD, route_calls=True)
        processes.append(kamailio)
        if not self.check("kamailio is up (kamcmd answers)", kamailio.start(),
                          f"127.0.0.1:{registrar_port}; " + " | ".join(kamailio.process.tail(5))):
            return
        password_file = os.path.join(self.workdir, "gate.password")
        with open(password_file, "w", encoding="utf-8") as f:
            f.write(PASSWORD + "\n")
        config = write_agent_config(
            os.path.join(self.workdir, "gate.toml"), base, "SIP video gate", 52.52, 13.405,
            os.path.join(self.workdir, "state-gate"), free_port(),
            extra=f'\n[sip]\nregistrar = "127.0.0.1:{registrar_port}"\nuser = "gate"\n'
                  f'password_file = "{password_file}"\nport = {free_udp_port()}\nkeepalive = "5s"\n')
        gate = LoggedProcess([self.intercomd_bin, "run", "--config", config], self.workdir, "agent-gate",
                             env=agent_environment())
        processes.append(gate)

        confdir = os.path.join(self.workdir, "baresip")
        recordings = os.path.join(self.workdir, "baresip-recordings")
        os.makedirs(recordings, exist_ok=True)
        tone = os.path.join(self.workdir, "phone-tone.wav")
        write_tone_wav(tone, PHONE_TONE, 60)
        baresip_config(confdir, free_port_pair(), tone, recordings)
        with open(os.path.join(confdir, "config"), "a", encoding="utf-8") as f:
            f.write(BARESIP_VIDEO)
        with open(os.path.join(confdir, "accounts"), "w", encoding="utf-8") as f:
            f.write(f"<sip:camera@127.0.0.1:{registrar_port}>;auth_pass={PASSWORD};regint=300\n")
        phone = Baresip(confdir, self.workdir)
        processes.append(phone)

        def registered():
            dump = kamailio.dump() or ""
            contacts = [re.search(p, dump) for p in (r"sip:gate@127\.0\.0\.1:\d+", r"sip:camera[^@>\s]*@127\.0\.0\.1:\d+")]
            return ", ".join(c.group(0) for c in contacts) if all(contacts) else None
        dump = wait_for(registered, 20, 0.2)
        if not self.check("(a) the device (gate) and baresip (camera) register with kamailio", dump,
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
        # The snapshot module's `/snapshot` saves the next sent and the next decoded picture: snapshot-recv-….png.
        phone.type("/snapshot\n")
        shot = wait_for(lambda: glob.glob(os.path.join(self.workdir, "snapshot-recv*.png")) or None, 10, 0.2)
        size = png_size(sorted(shot)[0]) if shot else None
        rows = png_rgb_rows(sorted(shot)[0]) if size == (640, 480) else None
        colours = [(name, rows[y][x], test(*rows[y][x])) for (x, y), name, test in BARS] if rows else []
        self.check("(c) baresip saves a snapshot of the device's video: a 640x480 PNG showing the test pattern's "
                   "colour bars (grey first, blue last)", size == (640, 480) and colours and all(ok for _, _, ok in colours),
                   f"{os.path.basename(sorted(shot)[0])}: {size}, " + ", ".join(f"{n} {c}" for n, c, _ in colours) if shot
                   else "no PNG written: " + " | ".join(phone.tail(5, stdout=True)))

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
        self.check("(e) the device still runs", gate.process.poll() is None, " | ".join(gate.tail(3)))


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"sip video: baresip calls intercomd run with audio and VP8; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
