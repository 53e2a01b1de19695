"""Efficiency benchmark: what `intercomd run` costs with no call, in a call, and after it, against what its codecs
alone cost (Tests/efficiency/codec_floor.c, libvpx and libopus configured as the agent configures them, on the
same frames, in the same run).

The device films a .y4m clip (so no test-pattern drawing is counted as camera cost), sends a tone and has no
speaker, as in issue #21's measurements. The caller is `intercomd call` from a second config (it sends video
and audio). CPU is read per thread from /proc/PID/task/*/stat (utime + stime), context switches from
/proc/PID/task/*/status, memory from /proc/PID/status (VmRSS).

Then a second agent with `[sip]` is called by baresip (audio and 640x480@30 VP8 from its fake source) straight on
its SIP port, and the same CPU window gives the SIP call's cost beside the WebRTC call's (issue #18).

Figures are printed as EFFICIENCY lines with the exact commands; the pass/fail bounds are generous regression
guards (the targets are in the issue and the README's Figures table). Stdlib only.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sip"))
sys.dont_write_bytecode = True
from prerequisites import missing_prerequisites  # noqa: E402
import calls  # noqa: E402
from webdriver import free_port, log, wait_for  # noqa: E402
from phone import PHONE_TONE, Baresip, baresip_config, free_port_pair, write_tone_wav  # noqa: E402
from kamailio import free_udp_port  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TICKS = os.sysconf("SC_CLK_TCK")
WIDTH, HEIGHT, FPS, KBPS = 640, 480, 30, 800
IDLE_SECONDS = float(os.environ.get("EFFICIENCY_IDLE_SECONDS", "30"))
CALL_WINDOW_SECONDS = float(os.environ.get("EFFICIENCY_CALL_SECONDS", "20"))

# Regression guards (generous; a debug build is several times slower than a release build in Swift code).
MAX_IDLE_PERCENT = 2.0
MAX_CALL_TO_FLOOR_RATIO = 8.0
MAX_IDLE_RSS_MB = 120
# A SIP call carries the same video and audio plus a G.711 transcode of the microphone; twice the WebRTC call's
# CPU would mean something runs that should not.
MAX_SIP_TO_WEBRTC_RATIO = 2.0


def write_clip(path, frames=30):
    """A 640x480 I420 .y4m whose picture moves every frame (a scrolling gradient with a moving bright box)."""
    row = bytes((x * 255 // (WIDTH - 1)) for x in range(WIDTH)) * 2
    chroma = bytes([128]) * (WIDTH // 2 * HEIGHT // 2)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for i in range(frames):
            shift = (i * 8) % WIDTH
            luma = bytearray(b"".join(row[(shift + y) % WIDTH:(shift + y) % WIDTH + WIDTH] for y in range(HEIGHT)))
            box_x, box_y = (i * 16) % (WIDTH - 64), (i * 9) % (HEIGHT - 64)
            for y in range(box_y, box_y + 64):
                luma[y * WIDTH + box_x:y * WIDTH + box_x + 64] = b"\xeb" * 64
            f.write(b"FRAME\n" + bytes(luma) + chroma + chroma)
    return path


class Process:
    """/proc readings of one process: per-thread CPU ticks and context switches, and its RSS."""

    def __init__(self, pid):
        self.pid = pid

    def threads(self):
        """{tid: (name, cpu ticks, context switches)} for the threads alive now."""
        found = {}
        base = f"/proc/{self.pid}/task"
        for tid in os.listdir(base):
            try:
                with open(f"{base}/{tid}/stat") as f:
                    stat = f.read()
                with open(f"{base}/{tid}/status") as f:
                    status = f.read()
            except OSError:
                continue  # the thread ended between listing and reading
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2:].split()
            switches = sum(int(m) for m in re.findall(r"ctxt_switches:\s+(\d+)", status))
            found[tid] = (name, int(fields[11]) + int(fields[12]), switches)
        return found

    def rss_mb(self):
        with open(f"/proc/{self.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1)) / 1024

    def rss_parts(self):
        """'anon A MB + file F MB': the heap and stacks, and the binary's and libraries' pages in memory (clean,
        so the kernel can drop them under pressure)."""
        with open(f"/proc/{self.pid}/status") as f:
            status = f.read()
        anon, file = (int(re.search(rf"{key}:\s+(\d+) kB", status).group(1)) / 1024 for key in ("RssAnon", "RssFile"))
        return f"anon {anon:.1f} MB + file {file:.1f} MB"

    def thread_count(self):
        return len(os.listdir(f"/proc/{self.pid}/task"))

    def window(self, seconds):
        """CPU over `seconds`: (% of one core in all, {thread name: %}, context switches per second). Threads
        that end inside the window count up to their last reading (only those alive at both ends are exact)."""
        before = self.threads()
        start = time.monotonic()
        time.sleep(seconds)
        after = self.threads()
        elapsed = time.monotonic() - start
        per_name, switches = {}, {}
        for tid, (name, ticks, ctx) in after.items():
            old_ticks, old_ctx = (before[tid][1], before[tid][2]) if tid in before else (0, 0)
            per_name[name] = per_name.get(name, 0) + (ticks - old_ticks) / TICKS / elapsed * 100
            switches[name] = switches.get(name, 0) + (ctx - old_ctx) / elapsed
        self.last_switches = switches
        return sum(per_name.values()), per_name, sum(switches.values())


class Run:
    def __init__(self, server_bin, intercomd_bin):
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.failures = []
        self.passed = 0
        self.workdir = tempfile.mkdtemp(prefix="intercom-efficiency-")

    def check(self, name, ok, detail=""):
        log(f"{'PASS' if ok else 'FAIL'} {name}" + (f" ({detail})" if detail else ""))
        if ok:
            self.passed += 1
        else:
            self.failures.append(name)
        return ok

    def figure(self, text):
        print(f"EFFICIENCY {text}", flush=True)

    def config(self, name, title, latitude, source, capture, metrics_port, base):
        state = os.path.join(self.workdir, f"state-{name}")
        os.makedirs(state, exist_ok=True)
        path = os.path.join(self.workdir, f"{name}.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f'[identity]\ntitle = "{title}"\nlatitude = {latitude}\nlongitude = 13.4\n\n'
                    f'[backend]\nserver_url = "{base}/parse"\n\n[call]\nanswer = "auto"\nring_timeout = "60s"\n\n'
                    f'[video]\nsource = "{source}"\nwidth = {WIDTH}\nheight = {HEIGHT}\nfps = {FPS}\n\n'
                    f'[audio]\ncapture = "{capture}"\nplayback = "none"\n\n'
                    f'[metrics]\nlisten = "127.0.0.1:{metrics_port}"\n\n[state]\ndirectory = "{state}"\n')
        return path

    def codec_floor(self, clip):
        """CPU % of one core that VP8 at 30 fps and Opus at 50 frames/s cost when called straight from C."""
        binary = os.path.join(self.workdir, "codec_floor")
        build = ["cc", "-O2", "-o", binary, os.path.join(HERE, "codec_floor.c")] + subprocess.run(
            ["pkg-config", "--cflags", "--libs", "vpx", "opus"], capture_output=True, text=True, check=True
        ).stdout.split() + ["-lm"]
        self.figure("command: " + " ".join(build))
        subprocess.run(build, check=True)
        command = [binary, clip, str(WIDTH), str(HEIGHT), "300", str(KBPS), "1000"]
        self.figure("command: " + " ".join(command))
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
        self.figure(out)
        vp8 = float(re.search(r"vp8_cpu_ms_per_frame=([\d.]+)", out).group(1))
        opus = float(re.search(r"opus_cpu_ms_per_frame=([\d.]+)", out).group(1))
        return (vp8 * FPS + opus * 50) / 10

    def run(self):
        env = calls.agent_environment()
        build = "release" if "/release/" in self.intercomd_bin else "debug" if "/debug/" in self.intercomd_bin else "?"
        self.figure(f"binaries: intercomd {self.intercomd_bin} ({build} build), intercom-server {self.server_bin}")
        stripped = os.path.join(self.workdir, "intercomd.stripped")
        subprocess.run(["strip", "-o", stripped, self.intercomd_bin], check=True)
        self.figure(f"intercomd binary: {os.path.getsize(self.intercomd_bin) / 1e6:.1f} MB, stripped "
                    f"{os.path.getsize(stripped) / 1e6:.1f} MB (issue #21 before: 33 MB stripped)")
        clip = write_clip(os.path.join(self.workdir, "clip.y4m"))
        floor = self.codec_floor(clip)
        self.figure(f"codec floor (VP8 {WIDTH}x{HEIGHT}@{FPS} {KBPS} kbit/s + Opus 20 ms): {floor:.2f} % of a core")

        server, base, line = calls.start_intercom_server(self.server_bin, self.workdir)
        self.check("intercom-server starts", base is not None, line)
        if not base:
            return
        device_config = self.config("device", "Efficiency Door", 52.52, clip, "tone", free_port(), base)
        caller_config = self.config("caller", "Efficiency Caller", 52.521, "test-pattern", "tone:660",
                                    free_port(), base)
        command = [self.intercomd_bin, "run", "--config", device_config]
        self.figure("command: " + " ".join(command))
        device = calls.LoggedProcess(command, self.workdir, "device", env=env)
        ready = device.wait_line(r"ready: ", 60)
        self.check("the device starts and registers", ready is not None, " | ".join(device.tail(3)))
        if not ready:
            return
        agent = Process(device.process.pid)
        time.sleep(5)  # the startup run (READY after the first encoded frame) ends a second after READY
        idle, idle_threads, idle_switches = agent.window(IDLE_SECONDS)
        idle_rss, idle_thread_count, idle_parts = agent.rss_mb(), agent.thread_count(), agent.rss_parts()
        self.figure(f"idle: {idle:.2f} % of a core over {IDLE_SECONDS:.0f} s, {idle_switches:.0f} context switches/s, "
                    f"RSS {idle_rss:.1f} MB ({idle_parts}), {idle_thread_count} threads")
        busy = {name: pct for name, pct in idle_threads.items() if pct >= 0.05}
        self.figure("idle threads over 0.05 %: " + (", ".join(f"{n} {p:.2f}" for n, p in sorted(busy.items())) or "none"))
        self.check(f"idle CPU ≤ {MAX_IDLE_PERCENT} % of a core (target 0.5 %)", idle <= MAX_IDLE_PERCENT, f"{idle:.2f} %")
        self.check(f"idle RSS ≤ {MAX_IDLE_RSS_MB} MB (target 25 MB)", idle_rss <= MAX_IDLE_RSS_MB, f"{idle_rss:.1f} MB")
        self.check("no camera or encoder thread runs with no call",
                   not any(n in idle_threads for n in ("intercom-vp8", "intercom-opus", "intercom-camera")),
                   ", ".join(sorted(idle_threads)))

        call_seconds = int(CALL_WINDOW_SECONDS + 15)
        command = [self.intercomd_bin, "call", "--config", caller_config, "--to", "Efficiency Door",
                   "--seconds", str(call_seconds)]
        self.figure("command: " + " ".join(command))
        caller = calls.LoggedProcess(command, self.workdir, "caller", env=env)
        answered = caller.wait_line(r"connected after \d+ ms", 30, stdout=True)
        time.sleep(6)  # past the start: the encoders' first keyframes, ICE and DTLS
        in_call, call_threads, call_switches = agent.window(CALL_WINDOW_SECONDS)
        call_rss, call_parts = agent.rss_mb(), agent.rss_parts()
        ratio = in_call / floor if floor > 0 else float("inf")
        self.figure(f"in a call: {in_call:.2f} % of a core over {CALL_WINDOW_SECONDS:.0f} s = {ratio:.2f}x the codec floor "
                    f"({floor:.2f} %), {call_switches:.0f} context switches/s, RSS {call_rss:.1f} MB ({call_parts})")
        self.figure("in-call threads (% of a core): " + ", ".join(
            f"{n} {p:.2f}" for n, p in sorted(call_threads.items(), key=lambda kv: -kv[1]) if p >= 0.05))
        self.figure("in-call context switches per second by thread: " + ", ".join(
            f"{n} {c:.0f}" for n, c in sorted(agent.last_switches.items(), key=lambda kv: -kv[1]) if c >= 1))
        self.check("the call connects and its encoders run",
                   answered is not None and call_threads.get("intercom-vp8", 0) > 0,
                   answered.group(0) if answered else " | ".join(caller.tail(3, stdout=True)))
        self.check("the caller's video is not decoded (nothing displays it)", "intercom-vp8dec" not in call_threads,
                   ", ".join(sorted(call_threads)))
        self.check(f"in-call CPU ≤ {MAX_CALL_TO_FLOOR_RATIO}x the codec floor (target 1.5x)",
                   ratio <= MAX_CALL_TO_FLOOR_RATIO, f"{ratio:.2f}x")

        outcome = device.wait_line(calls.OUTCOME, call_seconds + 30)
        caller_status = caller.process.wait(timeout=30)
        self.check("the call is answered and the caller ends it cleanly",
                   outcome is not None and "answered" in outcome.group(2) and caller_status == 0,
                   outcome.group(0)[:160] if outcome else "no outcome line")
        time.sleep(30)
        after_rss, after_parts = agent.rss_mb(), agent.rss_parts()
        after, after_threads, _ = agent.window(10)
        self.figure(f"30 s after the call: RSS {after_rss:.1f} MB ({after_parts}; idle {idle_rss:.1f}, in call {call_rss:.1f}), "
                    f"CPU {after:.2f} % of a core, {agent.thread_count()} threads")
        self.check("media stops after the call (no encoder thread, idle CPU again)",
                   "intercom-vp8" not in after_threads and after <= MAX_IDLE_PERCENT,
                   f"{after:.2f} %, threads {', '.join(sorted(after_threads))}")
        device.stop()
        sip_call = self.sip_call(base, clip, in_call, env)
        self.figure(f"summary: idle {idle:.2f} % | call {in_call:.2f} % ({ratio:.2f}x floor {floor:.2f} %) | "
                    f"RSS {idle_rss:.1f}/{call_rss:.1f}/{after_rss:.1f} MB | {call_switches:.0f} ctx/s in call"
                    + (f" | SIP call {sip_call:.2f} % ({sip_call / in_call:.2f}x the WebRTC call)" if sip_call and in_call else ""))
        server.stop()

    def sip_call(self, base, clip, webrtc_percent, env):
        """The same device called over SIP (issue #18): baresip calls its SIP port directly with audio and VP8
        (640x480 at 30 fps, its fake video source), and the device sends its clip as VP8 and its tone as G.711.
        Returns the device's CPU % in that call (None when it did not connect)."""
        missing = missing_prerequisites(tools=(("baresip", "baresip"),))
        for problem in missing:
            self.check("SIP call benchmark prerequisites", False, problem)
        if missing:
            return None
        sip_port = free_udp_port()
        config = self.config("sip-device", "Efficiency SIP Door", 52.53, clip, "tone", free_port(), base)
        with open(config, "a", encoding="utf-8") as f:
            # Nobody registers it: the registrar port is closed, calls come straight to its SIP port.
            f.write(f'\n[sip]\nregistrar = "127.0.0.1:{free_udp_port()}"\nuser = "gate"\nport = {sip_port}\n')
        command = [self.intercomd_bin, "run", "--config", config]
        self.figure("command: " + " ".join(command))
        device = calls.LoggedProcess(command, self.workdir, "sip-device", env=env)
        phone = None
        try:
            if not device.wait_line(r"ready: ", 60):
                self.check("the SIP device starts", False, " | ".join(device.tail(3)))
                return None
            confdir, recordings = os.path.join(self.workdir, "baresip"), os.path.join(self.workdir, "baresip-recordings")
            os.makedirs(recordings, exist_ok=True)
            tone = os.path.join(self.workdir, "phone-tone.wav")
            write_tone_wav(tone, PHONE_TONE, 90)
            baresip_config(confdir, free_port_pair(), tone, recordings)
            with open(os.path.join(confdir, "config"), "a", encoding="utf-8") as f:
                f.write(f"module vp8.so\nmodule fakevideo.so\nvideo_source fakevideo,nil\nvideo_display fakevideo,nil\n"
                        f"video_size {WIDTH}x{HEIGHT}\nvideo_fps {FPS}\nvideo_bitrate {KBPS * 1000}\n")
            with open(os.path.join(confdir, "accounts"), "w", encoding="utf-8") as f:
                f.write("<sip:bench@127.0.0.1>;regint=0\n")
            phone = Baresip(confdir, self.workdir)
            self.figure(f"command: baresip -f {confdir}, then /dial sip:gate@127.0.0.1:{sip_port}")
            time.sleep(2)
            phone.type(f"/dial sip:gate@127.0.0.1:{sip_port}\n")
            established = wait_for(lambda: phone.said(r"[Cc]all established.*"), 15, 0.1)
            video = wait_for(lambda: device.find(r"SIP video: VP8 .*"), 5, 0.1)
            if not self.check("the SIP call (baresip, audio + VP8) connects and the device sends video",
                              established is not None and video is not None,
                              (video.group(0)[:100] if video else "no 'SIP video' line: " + " | ".join(device.tail(3)))):
                return None
            time.sleep(6)
            agent = Process(device.process.pid)
            sip_percent, threads, switches = agent.window(CALL_WINDOW_SECONDS)
            ratio = sip_percent / webrtc_percent if webrtc_percent > 0 else float("inf")
            self.figure(f"SIP audio+video call: {sip_percent:.2f} % of a core over {CALL_WINDOW_SECONDS:.0f} s = {ratio:.2f}x the "
                        f"WebRTC call ({webrtc_percent:.2f} %), {switches:.0f} context switches/s, RSS {agent.rss_mb():.1f} MB")
            self.figure("SIP in-call threads (% of a core): " + ", ".join(
                f"{n} {p:.2f}" for n, p in sorted(threads.items(), key=lambda kv: -kv[1]) if p >= 0.05))
            self.check(f"SIP call CPU ≤ {MAX_SIP_TO_WEBRTC_RATIO}x the WebRTC call's", ratio <= MAX_SIP_TO_WEBRTC_RATIO,
                       f"{ratio:.2f}x")
            phone.type("/hangup\n")
            ended = device.wait_line(r"SIP video ended: .*", 10)
            self.check("the SIP call ends with video sent", ended is not None and re.search(r"framesSent: [1-9]", ended.group(0)),
                       ended.group(0)[:200] if ended else " | ".join(device.tail(3)))
            return sip_percent
        finally:
            if phone:
                phone.stop()
            device.stop()


def main():
    server_bin, intercomd_bin = calls.binary_arguments(__doc__.splitlines()[0])
    missing = missing_prerequisites(tools=(("cc", "build-essential"), ("pkg-config", "pkg-config"), ("strip", "binutils")))
    for problem in missing:
        log(f"FAIL efficiency: {problem}")
    if missing:
        return 1
    run = Run(server_bin, intercomd_bin)
    try:
        run.run()
    except Exception as error:  # a crash in the harness is a failure with its reason, not a traceback alone
        run.check("the benchmark ran to the end", False, repr(error))
    print(f"{run.passed} passed, {len(run.failures)} failed", flush=True)
    if run.failures:
        log("efficiency: failed: " + "; ".join(run.failures))
    calls.keep_or_remove(run.workdir, "EFFICIENCY_KEEP", bool(run.failures))
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
