#!/usr/bin/env python3
"""Two intercomd instances call each other through intercom-server: our stack on both ends.

Starts `intercom-server` (its own database) and, in two rounds with the roles swapped:
  callee  `intercomd run`: answers by itself, sends the test pattern (640x480, 30 fps) and a tone;
  caller  `intercomd call --to <callee title> --seconds 10`: places the call as the call button would (the
          callee accepts, so it sends the offer and the caller answers), stays 10 s, hangs up, and prints
          what arrived.
Round 1: "Gate A" (440 Hz) is called by "Caller B" (880 Hz); round 2: "Caller B" is called by "Gate A".
Checks on the caller: exit 0; the callee's video decoded at >= 25 fps, 640x480, >= 200 frames; the callee's
audio at its tone's pitch and a healthy level. On the callee: the call logged as answered and ended by the
caller's bye; the caller's audio decoded at the caller's pitch and its video decoded at 640x480; the caller's
text message (`--message`) logged with the caller's name and acknowledged back.
Then a missed call: "Gate A" with `answer = "button"`, `ring_timeout = "5s"`, `reply_when_missed = true`; the
caller's call rings out (exit 1) and it logs the configured reply it received before the bye.
Prints one PASS/FAIL line per check and `N passed, M failed`; exits non-zero on failure.
Environment: TWO_DEVICES_KEEP=1 keeps the temporary directory (configs and logs).
"""

import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from webdriver import Checks, free_port, log  # noqa: E402
from calls import LoggedProcess, binary_arguments  # noqa: E402

SECONDS = 10
MESSAGE = "Hello from the gate's other side"
MISSED_REPLY = "Please leave the parcel at the door"
MIN_FPS = 25.0
DEVICES = {
    "A": {"title": "Gate A", "tone": 440, "lat": 52.5200, "lon": 13.4050},
    "B": {"title": "Caller B", "tone": 880, "lat": 52.5210, "lon": 13.4060},
}


def config(workdir, key, server, call_settings='answer = "auto"'):
    device = DEVICES[key]
    state = os.path.join(workdir, f"state-{key}")
    os.makedirs(state, exist_ok=True)
    path = os.path.join(workdir, f"device-{key}.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"""[identity]
title = "{device['title']}"
latitude = {device['lat']}
longitude = {device['lon']}

[backend]
server_url = "{server}/parse"

[call]
{call_settings}

[video]
source = "testpattern"

[audio]
capture = "tone:{device['tone']}"
# ALSA's null PCM: the speaker thread decodes and plays the caller's voice (and feeds the level meter)
# as on a board with a speaker; without one, `intercomd run` would not decode it at all.
playback = "null"

[metrics]
listen = "127.0.0.1:{free_port()}"

[state]
directory = "{state}"
""")
    return path


def near(value, target, tolerance=20):
    return value is not None and abs(value - target) <= tolerance


class Run:
    def __init__(self, server_bin, intercomd_bin):
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.checks = Checks()
        self.workdir = tempfile.mkdtemp(prefix="intercom-two-devices-")
        self.processes = []

    # (callee, caller) per round: each device is called once.
    rounds = (("A", "B"), ("B", "A"))

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def after_call(self, callee_config):
        """Runs after each round's call while the callee still runs (variants add checks here)."""

    def start(self, argv, label):
        process = LoggedProcess(argv, self.workdir, label)
        self.processes.append(process)
        return process

    def round(self, callee_key, caller_key, server):
        callee, caller = DEVICES[callee_key], DEVICES[caller_key]
        label = f"{caller['title']} → {callee['title']}"
        callee_config = config(self.workdir, callee_key, server)
        agent = self.start([self.intercomd_bin, "run", "--config", callee_config], f"agent-{callee_key}")
        ready = agent.wait_line(r"ready: idle", 30)
        if not self.check(f"[{label}] the callee's intercomd run registers and is ready", ready,
                          ready.group(0) if ready else " | ".join(agent.tail(5))):
            return
        call = self.start([self.intercomd_bin, "call", "--config", config(self.workdir, caller_key, server),
                           "--to", callee["title"], "--seconds", str(SECONDS), "--message", MESSAGE], f"call-{caller_key}")
        try:
            code = call.process.wait(SECONDS + 60)
        except Exception:  # noqa: BLE001 - a hang is a failure with its reason
            code = None
        call.stop()
        out = "\n".join(call.out)
        self.check(f"[{label}] intercomd call connects, stays {SECONDS} s, hangs up and exits 0", code == 0,
                   f"exit status {code}; " + (" | ".join(call.out[-5:] + call.tail(3))))
        video = re.search(r"received video: (\d+) frames, (\d+)x(\d+) at ([\d.]+) fps", out)
        frames, width, height, fps = (int(video.group(1)), int(video.group(2)), int(video.group(3)),
                                      float(video.group(4))) if video else (0, 0, 0, 0.0)
        self.check(f"[{label}] the caller decodes the callee's VP8: 640x480 at >= {MIN_FPS:.0f} fps",
                   frames >= 200 and (width, height) == (640, 480) and fps >= MIN_FPS,
                   video.group(0) if video else "no 'received video' line")
        audio = re.search(r"received audio: (\d+) packets, (-?[\d.]+) dBFS, (\d+) Hz", out)
        self.check(f"[{label}] the caller decodes the callee's Opus: its {callee['tone']} Hz tone",
                   audio and int(audio.group(1)) >= 400 and float(audio.group(2)) > -30
                   and near(int(audio.group(3)), callee["tone"]),
                   audio.group(0) if audio else (re.search(r"received audio: .*", out) or [None])[0] or
                   "no 'received audio' line")
        outcome = agent.wait_line(rf"call incoming {re.escape(caller['title'])}: (.+?)(?= \w+=|$)", 15)
        self.check(f"[{label}] the callee logs the call answered and ended by the caller's bye",
                   outcome and outcome.group(1).startswith("answered") and "remoteBye" in outcome.group(1),
                   outcome.group(0) if outcome else "no outcome line: " + " | ".join(agent.tail(4)))
        media = agent.wait_line(r"call media ended.*", 10)
        text = media.group(0) if media else ""
        heard = re.search(r'callerAudioFrequency="?(\d+) Hz', text)
        packets = re.search(r"callerAudioPackets=(\d+)", text)
        seen = re.search(r'callerVideo="?(\d+)x(\d+) ([\d.]+) fps', text)
        seen_frames = re.search(r"callerVideoFrames=(\d+)", text)
        not_decoded = re.search(r"callerVideoDecoded=false", text)
        self.check(f"[{label}] the callee plays the caller's audio ({caller['tone']} Hz) on its speaker and counts its "
                   "video (640x480 from the VP8 headers, not decoded: nothing shows it)",
                   heard and near(int(heard.group(1)), caller["tone"]) and packets and int(packets.group(1)) >= 400
                   and seen and (seen.group(1), seen.group(2)) == ("640", "480") and seen_frames
                   and int(seen_frames.group(1)) >= 200 and not_decoded, text or "no 'call media ended' line")
        heard_text = agent.find(rf"message from {re.escape(caller['title'])}: {re.escape(MESSAGE)}")
        delivered = call.find(r"text message reply-1 delivered")
        self.check(f"[{label}] the caller's text message (intercomd call --message) is logged by the callee with the "
                   "caller's name and acknowledged back", heard_text and delivered,
                   f"callee: {heard_text.group(0) if heard_text else 'no message line'}; caller: "
                   f"{'delivered' if delivered else 'no delivered line'}")
        self.after_call(callee_config)
        result = agent.stop()
        self.check(f"[{label}] the callee stops cleanly on SIGINT", result and result[0], result[1] if result else "")

    def missed_call(self, server):
        """`reply_when_missed`: a call that rings out unanswered gets the first canned reply before the bye."""
        callee, caller = DEVICES["A"], DEVICES["B"]
        settings = f'answer = "button"\nring_timeout = "5s"\nreply_when_missed = true\nreplies = ["{MISSED_REPLY}"]'
        agent = self.start([self.intercomd_bin, "run", "--config", config(self.workdir, "A", server, settings)],
                           "agent-A-missed")
        if not self.check("[missed call] the callee (answer = button, ring_timeout 5 s) is ready",
                          agent.wait_line(r"ready: idle", 30), " | ".join(agent.tail(5))):
            return
        call = self.start([self.intercomd_bin, "call", "--config", config(self.workdir, "B", server),
                           "--to", callee["title"], "--seconds", "5"], "call-B-missed")
        try:
            code = call.process.wait(60)
        except Exception:  # noqa: BLE001 - a hang is a failure with its reason
            code = None
        call.stop()
        reply = call.find(rf"message from {re.escape(callee['title'])}: {re.escape(MISSED_REPLY)}")
        outcome = agent.wait_line(rf"call incoming {re.escape(caller['title'])}: (.+?)(?= \w+=|$)", 10)
        self.check("[missed call] the call rings out (the caller exits 1, the callee logs no answer) and the caller "
                   "receives the configured reply before the bye",
                   code == 1 and reply and outcome and "ringTimeout" in outcome.group(1),
                   f"exit {code}; reply: {reply.group(0) if reply else 'none'}; outcome: "
                   f"{outcome.group(0) if outcome else 'none'} | " + " | ".join(call.tail(3)))
        agent.stop()

    def run(self):
        missing = [f"{name} not found or not executable at {path}" for name, path in
                   (("intercom-server", self.server_bin), ("intercomd", self.intercomd_bin))
                   if not (os.path.isfile(path) and os.access(path, os.X_OK))]
        if missing:
            for problem in missing:
                self.check("prerequisites", False, problem + " (swift build)")
            return self.checks
        try:
            server = self.start([self.server_bin, "--listen", "127.0.0.1:0", "--database",
                                 os.path.join(self.workdir, "server.sqlite"), "--log-level", "warning"], "server")
            listening = server.wait_line(r"listening on ([\d.]+):(\d+)", 30, stdout=True)
            if not self.check("intercom-server starts", listening, " | ".join(server.tail(5))):
                return self.checks
            base = f"http://{listening.group(1)}:{listening.group(2)}"
            for callee, caller in self.rounds:
                self.round(callee, caller, base)
            self.missed_call(base)
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure, never a skip
            self.check("two-devices harness", False, f"{type(e).__name__}: {e}")
        finally:
            for process in self.processes:
                process.stop()
            if os.environ.get("TWO_DEVICES_KEEP") == "1" or self.checks.failed:
                log(f"  logs kept in {self.workdir}")
            else:
                shutil.rmtree(self.workdir, ignore_errors=True)
        return self.checks


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"two devices: intercomd call ↔ intercomd run through intercom-server; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
