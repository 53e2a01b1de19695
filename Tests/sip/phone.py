"""What the SIP tests with a real phone share (baresip_test.py, outgoing_test.py, video_test.py, and the efficiency
stage's SIP call): baresip 1.0.0 driven headless through its stdio module, its configuration, the tones each side
sends and how the test hears them (a dominant-frequency estimate without numpy, from WAV and raw PCM), the device's
speaker as an ALSA `file` PCM, and baresip's snapshots of the device's video read as PNG without libraries.
"""

import glob
import json
import math
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
sys.path.insert(0, HERE)
from calls import LoggedProcess, keep_or_remove  # noqa: E402
from kamailio import KAMAILIO_MODULES, Kamailio, free_udp_port  # noqa: E402
from prerequisites import find_tool, missing_prerequisites  # noqa: E402
from webdriver import Checks, wait_for  # noqa: E402

DEVICE_TONE = 440.0     # `capture = "tone"` (Sources/IntercomAgent/Media/AudioEndpoints.swift: .testTone())
PHONE_TONE = 1000.0     # what baresip sends
TOLERANCE = 0.02
BARESIP_MODULES = "/usr/lib/baresip/modules"


# ---- a dominant-frequency estimate without numpy -------------------------------------------------------------

def goertzel_power(samples, rate, hertz):
    coefficient = 2 * math.cos(2 * math.pi * hertz / rate)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + coefficient * s1 - s2, s1
    return s1 * s1 + s2 * s2 - coefficient * s1 * s2


def dominant_frequency(samples, rate, low=100.0, high=3500.0):
    """The strongest frequency of `samples` (one 8 kHz second at most): a coarse Goertzel scan over 50 ms in
    10 Hz steps, refined in 1 Hz steps over the whole window around the coarse peak."""
    if len(samples) < rate // 10:
        return None
    coarse_window = samples[len(samples) // 2: len(samples) // 2 + rate // 20]
    coarse = max((goertzel_power(coarse_window, rate, f), f) for f in range(int(low), int(high), 10))[1]
    return max((goertzel_power(samples, rate, f), f) for f in range(max(int(low), coarse - 30), coarse + 31))[1]


def rms_dbfs(samples):
    if not samples:
        return -120.0
    mean = sum(x * x for x in samples) / len(samples)
    return 10 * math.log10(mean / 32768.0 ** 2) if mean > 0 else -120.0


def loudest_second(samples, rate, step_seconds=0.25):
    """The one-second window of `samples` with the highest energy (the call's audio, not the silence around it)."""
    if len(samples) <= rate:
        return samples
    step = int(rate * step_seconds)
    best = max(range(0, len(samples) - rate, step), key=lambda start: sum(x * x for x in samples[start:start + rate:8]))
    return samples[best:best + rate]


def pcm16(data):
    count = len(data) // 2
    return list(struct.unpack(f"<{count}h", data[:count * 2]))


def wav_samples(path):
    """(samples, rate) of a 16-bit WAV, the first channel of a stereo one (baresip may decode Opus, opus/48000/2,
    in two channels); tolerant of a header whose sizes were never finalized."""
    with open(path, "rb") as f:
        data = f.read()
    channels = struct.unpack("<H", data[22:24])[0] if len(data) >= 28 else 1
    rate = struct.unpack("<I", data[24:28])[0] if len(data) >= 28 else 8000
    at = data.find(b"data")
    samples = pcm16(data[at + 8:]) if at >= 0 else []
    return samples[::max(1, channels)], rate


def frequency_figures(samples, rate):
    """(dominant Hz or None, dBFS) of the loudest second, resampled to 8 kHz by taking every n-th sample."""
    second = loudest_second(samples, rate)
    if rate != 8000:
        second = second[::rate // 8000]
    return dominant_frequency(second, 8000), rms_dbfs(second)


def within(hertz, expected):
    return hertz is not None and abs(hertz - expected) <= expected * TOLERANCE


# ---- baresip ---------------------------------------------------------------------------------------------------

def write_tone_wav(path, hertz, seconds, rate=8000, channels=1):
    frames = b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * hertz * i / rate))) * channels
                      for i in range(rate * seconds))
    header = (b"RIFF" + struct.pack("<I", 36 + len(frames)) + b"WAVEfmt " +
              struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * 2 * channels, 2 * channels, 16) + b"data"
              + struct.pack("<I", len(frames)))
    with open(path, "wb") as f:
        f.write(header + frames)


def free_port_pair():
    """A UDP/TCP port whose next port is free too (baresip listens for TLS on sip_listen's port + 1)."""
    import socket
    while True:
        port = free_udp_port()
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 1))
                return port
            except OSError:
                continue


def baresip_config(confdir, sip_port, tone, recordings, srtp=False, opus=False):
    os.makedirs(confdir, exist_ok=True)
    with open(os.path.join(confdir, "config"), "w", encoding="utf-8") as f:
        f.write(f"""poll_method epoll
net_interface 127.0.0.1
sip_listen 127.0.0.1:{sip_port}
audio_source aufile,{tone}
audio_player alsa,null
audio_alert alsa,null
module_path {BARESIP_MODULES}
module stdio.so
module g711.so
module aufile.so
module alsa.so
module sndfile.so
snd_path {recordings}
{"module srtp.so" if srtp else ""}
{"module opus.so" if opus else ""}
module_app account.so
module_app menu.so
""")


class Baresip(LoggedProcess):
    """baresip with the stdio module reading commands from a pipe (`/dial URI`, digits as keys, `/hangup`)."""

    def __init__(self, confdir, workdir, label="baresip"):
        super().__init__([find_tool("baresip"), "-f", confdir], workdir, label, stdin=subprocess.PIPE)

    def type(self, text):
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def said(self, pattern, since=0):
        """The first match of `pattern` in baresip's stdout from line `since` on."""
        regex = re.compile(pattern)
        with self.lock:
            lines = self.out[since:]
        return next((m for m in (regex.search(line) for line in lines) if m), None)

    def lines(self):
        with self.lock:
            return len(self.out)

    def stop(self, sig=signal.SIGTERM, clean_within=5, kill_after=5):
        return super().stop(sig, clean_within, kill_after)


class BaresipEvents:
    """baresip's event stream from its ctrl_tcp module (netstrings of JSON, `{"event":true,"type":…,"param":…}`),
    read on a thread: how the tests see what baresip prints nowhere, e.g. the RFC 4733 keys it received
    (`CALL_DTMF_START`). The phone's config needs `BaresipEvents.config(port)`."""

    @staticmethod
    def config(port):
        return f"module_app ctrl_tcp.so\nctrl_tcp_listen 127.0.0.1:{port}\n"

    def __init__(self, port, timeout=10):
        import socket
        import threading
        self.events, self.lock = [], threading.Lock()
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.socket = socket.create_connection(("127.0.0.1", port), timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.socket.settimeout(None)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = self.socket.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b":" in buffer:
                length, rest = buffer.split(b":", 1)
                if not length.isdigit() or len(rest) < int(length) + 1:
                    break
                body, buffer = rest[:int(length)], rest[int(length) + 1:]
                try:
                    event = json.loads(body)
                except ValueError:
                    continue
                with self.lock:
                    self.events.append(event)

    def of_type(self, kind):
        with self.lock:
            return [event for event in self.events if event.get("type") == kind]

    def close(self):
        self.socket.close()


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


def door_speaker(workdir, name="gate"):
    """The device's speaker as an ALSA `file` PCM (48 kHz mono S16_LE as the agent opens it), named `doorspeaker`
    in a $HOME/.asoundrc for the agent: (that home, the file the speaker writes)."""
    home = os.path.join(workdir, f"{name}-home")
    os.makedirs(home, exist_ok=True)
    speaker = os.path.join(workdir, "speaker.raw" if name == "gate" else f"{name}-speaker.raw")
    with open(os.path.join(home, ".asoundrc"), "w", encoding="utf-8") as f:
        f.write(f'pcm.doorspeaker {{\n    type file\n    slave {{ pcm {{ type null }} }}\n'
                f'    file "{speaker}"\n    format raw\n}}\n')
    return home, speaker


def two_way_audio(checks, label, recordings, speaker, gate, speaker_from=0):
    """Waits until both ends recorded 3 s of the call (baresip's decoded dump in `recordings`, the device's
    `speaker` file past byte `speaker_from`), then checks each heard the other's tone."""
    def speaker_bytes():
        size = os.path.getsize(speaker) if os.path.exists(speaker) else 0
        return size - speaker_from if size >= speaker_from else size

    def recorded():
        dumps = glob.glob(os.path.join(recordings, "dump-*-dec.wav"))
        phone_bytes = os.path.getsize(dumps[0]) if dumps else 0
        return dumps[0] if speaker_bytes() >= 48_000 * 2 * 3 and phone_bytes >= 8000 * 2 * 3 else None
    got = wait_for(recorded, 15, 0.2)
    dumps = glob.glob(os.path.join(recordings, "dump-*-dec.wav"))
    if dumps:
        samples, rate = wav_samples(dumps[0])
        heard_at_phone, level = frequency_figures(samples, rate)
        detail = f"{heard_at_phone} Hz at {level:.1f} dBFS over {len(samples) / rate:.1f} s of {rate} Hz"
    else:
        heard_at_phone, level, detail = None, -120.0, f"no dump-*-dec.wav in {recordings}"
    checks.check(f"{label} baresip decoded the device's {DEVICE_TONE:.0f} Hz tone (dominant frequency within ±2 %)",
                 got and within(heard_at_phone, DEVICE_TONE) and level > -30, detail)
    if os.path.exists(speaker):
        with open(speaker, "rb") as f:
            data = f.read()
        # The ALSA file plugin may start a new file per call or append; only this call's part counts.
        played = pcm16(data[speaker_from:] if len(data) >= speaker_from else data)
        heard_at_device, level = frequency_figures(played, 48_000)
        detail = f"{heard_at_device} Hz at {level:.1f} dBFS over {len(played) / 48_000:.1f} s of 48 kHz"
    else:
        heard_at_device, level, detail = None, -120.0, "the device's speaker wrote nothing: " + " | ".join(gate.tail(4))
    checks.check(f"{label} the device's speaker played baresip's {PHONE_TONE:.0f} Hz (dominant frequency within ±2 %)",
                 got and within(heard_at_device, PHONE_TONE) and level > -30, detail)


def check_snapshot(checks, label, workdir, phone, video_line):
    """baresip's `/snapshot` (the snapshot module) saves the next decoded picture as snapshot-recv-….png in its
    working directory: checks that new one is 640x480 and shows the test pattern's bars; `video_line` is the
    device's `SIP video: VP8 …` line (a match, or None)."""
    pattern = os.path.join(workdir, "snapshot-recv*.png")
    earlier = set(glob.glob(pattern))
    phone.type("/snapshot\n")
    shot = wait_for(lambda: sorted(set(glob.glob(pattern)) - earlier) or None, 10, 0.2)
    size = png_size(sorted(shot)[0]) if shot else None
    rows = png_rgb_rows(sorted(shot)[0]) if size == (640, 480) else None
    colours = [(name, rows[y][x], test(*rows[y][x])) for (x, y), name, test in BARS] if rows else []
    checks.check(label, video_line and size == (640, 480) and colours and all(ok for _, _, ok in colours),
                 (video_line.group(0)[:90] if video_line else "no 'SIP video' line") + "; "
                 + (f"{os.path.basename(sorted(shot)[0])}: {size}, " + ", ".join(f"{n} {c}" for n, c, _ in colours)
                    if shot else "no PNG written: " + " | ".join(phone.tail(5, stdout=True))))


class PhoneRun(Checks):
    """A real-phone SIP test: kamailio, kamcmd, baresip and the baresip `MODULES` it loads must be installed (a
    missing one is a failed check naming its package, never a skip); `scenario(processes)` runs in a temporary
    directory, every process it appends is stopped at the end, and the directory is kept when a check failed
    (or with SIP_KEEP=1)."""
    MODULES = ("sndfile.so",)

    def __init__(self, server_bin, intercomd_bin, prefix):
        super().__init__()
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.workdir = tempfile.mkdtemp(prefix=prefix)

    def run(self):
        missing = missing_prerequisites(tools=(("kamailio", "kamailio"), ("kamcmd", "kamailio"), ("baresip", "baresip")))
        for problem in missing:
            self.check("prerequisites", False, problem)
        if missing:
            return self
        for path, package in [(KAMAILIO_MODULES, "kamailio")] + [(f"{BARESIP_MODULES}/{m}", "baresip") for m in self.MODULES]:
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
        raise NotImplementedError("a PhoneRun says what it tests in scenario()")

    def start_registrar(self, processes, password):
        """kamailio as registrar and proxy (`route_calls`) on a free port, as `self.kamailio`; None after a failed
        check."""
        port = free_udp_port()
        self.kamailio = Kamailio(self.workdir, port, password, route_calls=True)
        processes.append(self.kamailio)
        if not self.check("kamailio is up (kamcmd answers)", self.kamailio.start(),
                          f"127.0.0.1:{port}; " + " | ".join(self.kamailio.process.tail(5))):
            return None
        return self.kamailio

    def start_phone(self, processes, account, name="baresip", tone=None, extra_config="", **options):
        """baresip with the accounts line `account`, sending `tone` (default: PHONE_TONE as an 8 kHz WAV) and
        dumping what it decodes into `<name>-recordings`; `options` go to `baresip_config`, `extra_config` is
        appended to its config. Returns (phone, recordings)."""
        confdir = os.path.join(self.workdir, name)
        recordings = os.path.join(self.workdir, f"{name}-recordings")
        os.makedirs(recordings, exist_ok=True)
        if tone is None:
            tone = os.path.join(self.workdir, "phone-tone.wav")
            if not os.path.exists(tone):
                write_tone_wav(tone, PHONE_TONE, 60)
        baresip_config(confdir, free_port_pair(), tone, recordings, **options)
        with open(os.path.join(confdir, "config"), "a", encoding="utf-8") as f:
            f.write(extra_config)
        with open(os.path.join(confdir, "accounts"), "w", encoding="utf-8") as f:
            f.write(account + "\n")
        phone = Baresip(confdir, self.workdir, label=name)
        processes.append(phone)
        return phone, recordings
