#!/usr/bin/env python3
"""WHEP end to end: aiortc as the WHEP player of `intercomd run` (docs/whep.md, issue #19 item 5).

Starts `intercom-server --listen 127.0.0.1:0` and `intercomd run --config FILE` (test pattern and test tone,
`call.max_viewers = 2`, `[whep]` on a free loopback port with a bearer token file, metrics on another).
Checks, in one pass:
- 401 with `WWW-Authenticate: Bearer` for a wrong token, 415 for a JSON body, 400 for SDP nobody can answer;
- player 1 (aiortc, recvonly video + audio, no trickle): 201 + `Location: /whep/<id>` + an answer with the
  device's candidates; it decodes >= MIN_FPS fps of 640x480 VP8 over FPS_SECONDS and decodes Opus audio;
  the media, off while nobody watched, turned on for it (`media on (whep)`) and /metrics
  `intercom_whep_viewers` is 1;
- meanwhile `intercomd call` calls the device for CALL_SECONDS: it answers, the caller decodes its video, and
  player 1's frame rate holds through the call;
- a "ghost" player that POSTs an offer and never applies the answer holds a slot, so a third offer gets 503
  with `Retry-After` (max_viewers = 2); the agent drops the ghost when its ICE fails (or, at the latest,
  when it has not connected within 20 s);
- player 2 connects after that, decodes frames, and its DELETE gives 200 (again: 404);
- player 1's DELETE gives 200: the agent logs it leaving, the gauge is 0 and the media stops;
- player 3 (the token as `?access_token=`, no header, as go2rtc needs) closes its connection without a
  DELETE: the agent ends its session on its own;
- intercomd logs no error and exits cleanly on SIGINT.

Prints PASS/FAIL lines and `N passed, M failed`; exits non-zero on any failure.
Usage: whep_test.py [--server BIN] [--intercomd BIN]. WHEP_KEEP=1 keeps the logs.
"""

import asyncio
import fractions  # noqa: F401 - aiortc's frames carry fractions
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from calls import (LoggedProcess, agent_environment, binary_arguments, keep_or_remove,  # noqa: E402
                   scrape_metrics, start_intercom_server, write_agent_config)
from webdriver import Checks, free_port, log  # noqa: E402

try:
    from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription  # noqa: E402
    from aiortc.mediastreams import MediaStreamError  # noqa: E402
except ImportError as e:  # run.sh checks first; this is for a direct start
    print(f"FAIL prerequisites — aiortc is not importable ({e}; apt-get install python3-aiortc)")
    print("0 passed, 1 failed")
    sys.exit(1)

TOKEN = "whep-test-token-7d1f"
MAX_VIEWERS = 2
FPS_SECONDS = 10
MIN_FPS = 25
CONNECT_TIMEOUT = 20  # WHEPViewers' default
CALL_SECONDS = 4


def http(method, url, body=None, token=TOKEN, content_type="application/sdp"):
    """(status, headers, body text) of one request; HTTP errors are answers too."""
    request = urllib.request.Request(url, data=body.encode() if body is not None else None, method=method)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


class Player:
    """One aiortc WHEP player: recvonly video and audio, every frame decoded and counted."""

    def __init__(self, label):
        self.label = label
        self.pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        self.video_frames = []  # (monotonic time, width, height)
        self.audio_frames = 0
        self.location = None
        self.tasks = []
        self.pc.addTransceiver("video", direction="recvonly")
        self.pc.addTransceiver("audio", direction="recvonly")
        self.pc.on("track", self.on_track)

    def on_track(self, track):
        self.tasks.append(asyncio.ensure_future(self.consume(track)))

    async def consume(self, track):
        try:
            while True:
                frame = await track.recv()
                if track.kind == "video":
                    self.video_frames.append((time.monotonic(), frame.width, frame.height))
                else:
                    self.audio_frames += 1
        except MediaStreamError:
            pass

    async def offer(self):
        """The complete offer (aiortc gathers before setLocalDescription returns)."""
        await self.pc.setLocalDescription(await self.pc.createOffer())
        return self.pc.localDescription.sdp

    async def post(self, url, token=TOKEN):
        """POSTs the offer; applies a 201's answer. Returns (status, headers, body)."""
        status, headers, body = await asyncio.to_thread(http, "POST", url, await self.offer(), token)
        if status == 201:
            self.location = headers.get("Location")
            await self.pc.setRemoteDescription(RTCSessionDescription(sdp=body, type="answer"))
        return status, headers, body

    def frames_since(self, since):
        return [f for f in self.video_frames if f[0] >= since]

    async def close(self):
        await self.pc.close()
        for task in self.tasks:
            task.cancel()


async def wait_until(predicate, timeout, interval=0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(interval)
    return predicate()


class Run:
    def __init__(self, server_bin, intercomd_bin, workdir):
        self.server_bin, self.intercomd_bin, self.workdir = server_bin, intercomd_bin, workdir
        self.checks = Checks()
        self.processes = []
        self.agent = None
        self.players = []

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def metric(self, name):
        status, samples = scrape_metrics(self.metrics_url)
        return samples.get(name) if status == 200 else None

    def gauge(self):
        value = self.metric("intercom_whep_viewers")
        return None if value is None else int(value)

    def start(self):
        server, base, detail = start_intercom_server(self.server_bin, self.workdir)
        self.processes.append(server)
        self.base = base
        if not self.check("intercom-server starts", base, detail):
            return False
        metrics_port, whep_port = free_port(), free_port()
        self.metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
        self.whep_url = f"http://127.0.0.1:{whep_port}/whep"
        token_file = os.path.join(self.workdir, "whep.token")
        with open(token_file, "w", encoding="utf-8") as f:
            f.write(TOKEN + "\n")
        os.chmod(token_file, 0o600)
        config = write_agent_config(
            os.path.join(self.workdir, "intercom.toml"), base, "WHEP device", 52.52, 13.405,
            os.path.join(self.workdir, "state"), metrics_port, call=f"max_viewers = {MAX_VIEWERS}\n",
            extra=f'\n[whep]\nlisten = "127.0.0.1:{whep_port}"\ntoken_file = "{token_file}"\n')
        self.agent = LoggedProcess([self.intercomd_bin, "run", "--config", config], self.workdir, "agent",
                                   env=agent_environment())
        self.processes.append(self.agent)
        ready = self.agent.wait_line(r"ready: ", 30)
        listening = self.agent.wait_line(r"WHEP at http://\S+/whep", 10)
        return self.check("intercomd run starts, registers and serves WHEP", ready and listening,
                          listening.group(0) if ready and listening else " | ".join(self.agent.tail(8)))

    async def refusals(self):
        status, headers, _ = await asyncio.to_thread(http, "POST", self.whep_url, "v=0\r\n", "wrong-token")
        self.check("a wrong bearer token gets 401 with WWW-Authenticate: Bearer",
                   status == 401 and headers.get("WWW-Authenticate") == "Bearer", f"{status} {headers.get('WWW-Authenticate')}")
        status, _, _ = await asyncio.to_thread(http, "POST", self.whep_url, "v=0\r\n", None)
        self.check("no token at all gets 401", status == 401, f"{status}")
        status, headers, _ = await asyncio.to_thread(http, "POST", self.whep_url, "{}", TOKEN, "application/json")
        self.check("a JSON body gets 415", status == 415, f"{status} Accept-Post {headers.get('Accept-Post')}")
        status, _, body = await asyncio.to_thread(http, "POST", self.whep_url, "v=0\r\nm=nonsense\r\n")
        self.check("SDP that cannot be answered gets 400 with the reason", status == 400 and "offer" in body,
                   f"{status} {body.strip()}")
        status, _, _ = await asyncio.to_thread(http, "DELETE", self.whep_url + "/0123456789abcdef0123456789abcdef")
        self.check("DELETE of an unknown resource gets 404", status == 404, f"{status}")
        self.check("the refused requests hold no slot (intercom_whep_viewers 0)", self.gauge() == 0,
                   f"intercom_whep_viewers {self.gauge()}")

    async def play(self, label, query_token=False):
        """A player; with `query_token` it sends no Authorization header, the token in ?access_token= instead
        (as go2rtc's WHEP source must)."""
        player = Player(label)
        self.players.append(player)
        if query_token:
            status, headers, body = await player.post(f"{self.whep_url}?access_token={TOKEN}", None)
        else:
            status, headers, body = await player.post(self.whep_url)
        location = headers.get("Location") or ""
        self.check(f"{label}: POST /whep gets 201 with Location /whep/<id> and an answer carrying candidates",
                   status == 201 and location.startswith("/whep/") and "a=candidate:" in body
                   and headers.get("Content-Type", "").startswith("application/sdp"),
                   f"{status} Location {location} candidates {body.count('a=candidate:')}" if status == 201
                   else f"{status} {body.strip()[:200]}")
        return player if status == 201 else None

    async def run(self):
        if not self.start():
            return
        await self.refusals()
        # The startup run (until the first encoded frame) ends by itself; then nothing needs media.
        idle = await wait_until(lambda: self.agent.find(r"media off: nobody needs it"), 10)
        self.check("with nobody watching the media is off", idle and self.gauge() == 0,
                   f"intercom_whep_viewers {self.gauge()}" if idle else "no 'media off' line within 10 s")
        since = self.agent.mark()
        first = await self.play("player 1")
        if not first:
            return
        got = await wait_until(lambda: len(first.video_frames) >= 1 and first.audio_frames >= 1, 15)
        self.check("player 1 decodes its first video and audio frames within 15 s", got,
                   f"video {len(first.video_frames)}, audio {first.audio_frames}")
        if not got:
            return
        self.check("the media turns on for the WHEP player (media on (whep)) and the gauge shows one viewer",
                   self.agent.find(r"media on \(whep\)", since) and self.gauge() == 1,
                   f"intercom_whep_viewers {self.gauge()}")
        # A ghost: its offer is answered, but it never applies the answer nor connects.
        ghost = Player("ghost")
        self.players.append(ghost)
        ghost_status, ghost_headers, _ = await asyncio.to_thread(http, "POST", self.whep_url, await ghost.offer())
        ghost_id = (ghost_headers.get("Location") or "/whep/?").rsplit("/", 1)[-1][:8]
        ghost_at = time.monotonic()
        refused = await asyncio.to_thread(http, "POST", self.whep_url, await Player("third").offer())
        self.check(f"with {MAX_VIEWERS} slots taken (player 1, an unconnected ghost) a third offer gets 503 with Retry-After",
                   ghost_status == 201 and refused[0] == 503 and refused[1].get("Retry-After"),
                   f"ghost {ghost_status}, third {refused[0]} Retry-After {refused[1].get('Retry-After')}: {refused[2].strip()}")
        window_start = time.monotonic()
        # Meanwhile a call: `intercomd call` rings the device, which answers by itself; the call's media and the
        # WHEP player share the encoder, neither disturbs the other.
        caller = self.place_call()
        await asyncio.sleep(FPS_SECONDS)
        frames = first.frames_since(window_start)
        fps = len(frames) / FPS_SECONDS
        sizes = sorted({(w, h) for _, w, h in frames})
        self.check(f"player 1 decodes >= {MIN_FPS} fps of 640x480 video over {FPS_SECONDS} s, and audio, through a call",
                   fps >= MIN_FPS and sizes == [(640, 480)] and first.audio_frames >= 100,
                   f"{fps:.1f} fps, sizes {sizes}, audio frames {first.audio_frames}")
        await self.check_call(caller)
        # Its ICE checks find nobody answering (ICE fails), or at the latest the connect timeout ends it.
        dropped = await wait_until(lambda: self.agent.find(
            rf"WHEP viewer {ghost_id} left: (not connected within|connection failed)", since),
            CONNECT_TIMEOUT + 10 - (time.monotonic() - ghost_at))
        self.check(f"the agent drops the ghost that never connected (ICE failure, at most {CONNECT_TIMEOUT} s)",
                   dropped and self.gauge() == 1, f"{dropped.group(0) if dropped else 'no log line'}, "
                   f"intercom_whep_viewers {self.gauge()}")
        second = await self.play("player 2")
        if second:
            got = await wait_until(lambda: len(second.video_frames) >= 10, 15)
            self.check("player 2 decodes video next to player 1 (gauge 2)", got and self.gauge() == 2,
                       f"{len(second.video_frames)} frames, intercom_whep_viewers {self.gauge()}")
            url = self.whep_url[: -len("/whep")] + second.location
            status = (await asyncio.to_thread(http, "DELETE", url))[0]
            wrong = (await asyncio.to_thread(http, "DELETE", self.whep_url[: -len("/whep")] + first.location, None, "nope"))[0]
            again = (await asyncio.to_thread(http, "DELETE", url))[0]
            self.check("player 2's DELETE gets 200, a second one 404; a DELETE without the token gets 401",
                       (status, again, wrong) == (200, 404, 401), f"{status}, {again}, {wrong}")
            await second.close()
        since = self.agent.mark()
        status = (await asyncio.to_thread(http, "DELETE", self.whep_url[: -len("/whep")] + first.location))[0]
        left = await wait_until(lambda: self.agent.find(r"WHEP viewer \w+ left: DELETE \(0 of", since), 5)
        off = await wait_until(lambda: self.agent.find(r"media off: nobody needs it", since), 10)
        self.check("player 1's DELETE gets 200; the agent logs it leaving, the gauge is 0 and the media stops",
                   status == 200 and left and off and self.gauge() == 0,
                   f"{status}, {left.group(0) if left else 'no leave line'}, {'media off' if off else 'media still on'}, "
                   f"intercom_whep_viewers {self.gauge()}")
        await first.close()
        # A player that goes away without a DELETE.
        since = self.agent.mark()
        third = await self.play("player 3 (token in ?access_token=, no header)", query_token=True)
        if third:
            got = await wait_until(lambda: len(third.video_frames) >= 5, 15)
            await third.close()
            ended = await wait_until(lambda: self.agent.find(r"WHEP viewer \w+ left: connection", since), 25)
            self.check("player 3 closing its connection without a DELETE ends its session on the agent",
                       got and ended and self.gauge() == 0,
                       f"{len(third.video_frames)} frames, {ended.group(0) if ended else 'no leave line'}, "
                       f"intercom_whep_viewers {self.gauge()}")
        errors = [line for line in self.agent.stderr() if " error " in line.lower() or "[error]" in line.lower()]
        self.check("the agent logs no error", not errors, " | ".join(errors[:3]))

    def place_call(self):
        """`intercomd call --to "WHEP device" --seconds CALL_SECONDS` with its own identity."""
        config = write_agent_config(
            os.path.join(self.workdir, "caller.toml"), self.base, "WHEP caller", 52.5201, 13.4051,
            os.path.join(self.workdir, "caller-state"), free_port())
        caller = LoggedProcess([self.intercomd_bin, "call", "--config", config, "--to", "WHEP device",
                                "--seconds", str(CALL_SECONDS)], self.workdir, "caller", env=agent_environment())
        self.processes.append(caller)
        return caller

    async def check_call(self, caller):
        try:
            code = await asyncio.to_thread(caller.process.wait, 30)
        except Exception:  # noqa: BLE001 - a hang is a failure with its reason
            code = None
        video = caller.find(r"received video: (\d+) frames, (\d+)x(\d+)", stdout=True)
        outcome = self.agent.wait_line(r"call incoming WHEP caller: (.+?)(?= \w+=|$)", 10)
        self.check("a call to the device during WHEP is answered and its caller decodes the device's video",
                   code == 0 and video and int(video.group(1)) >= 25 and outcome
                   and outcome.group(1).startswith("answered"),
                   f"exit {code}, {video.group(0) if video else 'no received video line'}, "
                   f"{outcome.group(0) if outcome else 'no outcome line'}")

    async def close_players(self):
        for player in self.players:
            try:
                await player.close()
            except Exception as e:  # noqa: BLE001 - teardown must go on
                log(f"note: closing {player.label}: {e}")

    def stop(self):
        for process in reversed(self.processes):
            result = process.stop()
            if process is self.agent and result:
                self.check("intercomd exits cleanly on SIGINT", result[0], result[1])


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    problems = [f"{name} not found at {path} (swift build)" for name, path in
                (("intercom-server", server), ("intercomd", intercomd)) if not os.access(path, os.X_OK)]
    if problems:
        for problem in problems:
            log(f"FAIL prerequisites — {problem}")
        log(f"0 passed, {len(problems)} failed")
        return 1
    workdir = tempfile.mkdtemp(prefix="whep-")
    run = Run(server, intercomd, workdir)
    started = time.monotonic()

    async def body():
        try:
            await run.run()
        finally:
            await run.close_players()

    try:
        asyncio.run(body())
    except Exception as e:  # noqa: BLE001 - an unexpected error is a failed check, with the logs kept
        run.check("the WHEP test runs to the end", False, f"{type(e).__name__}: {e}")
    finally:
        run.stop()
    if run.checks.failed and run.agent:
        log(f"agent log tail: {' | '.join(run.agent.tail(15))}")
    log(f"took {time.monotonic() - started:.0f} s")
    log(f"{run.checks.passed} passed, {run.checks.failed} failed")
    keep_or_remove(workdir, "WHEP_KEEP", run.checks.failed)
    return 1 if run.checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
