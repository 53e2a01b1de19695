#!/usr/bin/env python3
"""Switch camera (issue #22 item 4) in headless Chromium, against a real `intercomd run` with two cameras.

Starts intercom-server (serving Sources/IntercomServer/WebCaller) and `intercomd run` with
`[video] sources = [{name="face", source="testpattern"}, {name="parcel", source=<a grey .y4m clip>}]`
(auto answer). A "Visitor" page calls the device and checks: the device advertises both cameras and the page
shows "Switch camera", and "Flip my camera" (Chromium's fake capture with three cameras); the decoded picture
is the colour bars (its mean saturation, drawn from #remote-video into a canvas); after a click on
"Switch camera" the picture turns grey (the clip) within 2 s, the device logs `camera switched to parcel in
N ms` with N ≤ 500, and the call is the same call: no new offer, the same video SSRC, still in-call and still
decoding; a second click brings the bars back; an unknown name (`garage`) gets the device's camera-error on
the page and the call goes on; a malformed name is refused by the server (bad-signal) and the call goes on; "Flip my camera" sends the page's other camera
on the same RTP sender (replaceTrack), with no new negotiation, and the page keeps encoding.

Usage: camera_switch_test.py [--server BIN] [--intercomd BIN]  (defaults: $INTERCOM_SERVER_BIN / $INTERCOMD_BIN,
  then <repo>/.build/debug/…). Environment: CHROMIUM_BIN, CHROMEDRIVER_BIN, CAMERA_TEST_KEEP=1 keeps the logs.
"""

import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from calls import (LoggedProcess, agent_environment, binary_arguments, call_button, keep_or_remove,  # noqa: E402
                   start_intercom_server, wait_callable, write_agent_config)
from webdriver import (PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser, free_port, log,  # noqa: E402
                       missing_browser, wait_for)

WEB_ROOT = os.path.join(REPO, "Sources", "IntercomServer", "WebCaller")
WIDTH, HEIGHT, FPS = 640, 480, 30
VISITOR = ("Visitor", "52.5205", "13.4055")
MAX_SWITCH_MS = 500
# Chromium's fake capture with three cameras (the later switch wins over the default one's), for Flip my camera.
FAKE_CAMERAS = "--use-fake-device-for-media-stream=device-count=3"
# Mean (max(r,g,b) - min(r,g,b)) of the decoded picture: the colour bars are far above, the grey clip near 0.
COLOURFUL, GREY = 40, 12

PICTURE = """
const video = document.getElementById('remote-video');
if (!video || !video.videoWidth) return null;
const canvas = document.createElement('canvas');
canvas.width = 160; canvas.height = 120;
const ctx = canvas.getContext('2d', { willReadFrequently: true });
ctx.drawImage(video, 0, 0, 160, 120);
const px = ctx.getImageData(0, 0, 160, 120).data;
let saturation = 0, luma = 0;
for (let i = 0; i < px.length; i += 4) {
  const r = px[i], g = px[i + 1], b = px[i + 2];
  saturation += Math.max(r, g, b) - Math.min(r, g, b);
  luma += (r + g + b) / 3;
}
const n = px.length / 4;
return { saturation: saturation / n, luma: luma / n };
"""


def write_clip(path, frames=30):
    """A 640x480 grey .y4m (chroma 128) whose gradient scrolls every frame, so the encoder sees motion."""
    row = bytes(16 + (x * 200 // (WIDTH - 1)) for x in range(WIDTH)) * 2
    chroma = bytes([128]) * (WIDTH // 2 * HEIGHT // 2)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for i in range(frames):
            shift = (i * 8) % WIDTH
            luma = b"".join(row[(shift + y) % WIDTH:(shift + y) % WIDTH + WIDTH] for y in range(HEIGHT))
            f.write(b"FRAME\n" + luma + chroma + chroma)
    return path


def run(server_bin, intercomd_bin):
    checks = Checks()
    for path, name in ((server_bin, "intercom-server"), (intercomd_bin, "intercomd")):
        if not os.access(path, os.X_OK):
            checks.check("prerequisites", False, f"{name} not found or not executable at {path}")
    for problem in missing_browser():
        checks.check("prerequisites", False, problem)
    if checks.failed:
        return checks
    workdir = tempfile.mkdtemp(prefix="intercom-camera-test-")
    server = agent = driver = browser = None
    try:
        server, base, detail = start_intercom_server(server_bin, workdir, env=dict(
            os.environ, INTERCOM_WEB_ROOT=WEB_ROOT, INTERCOM_RATE_LIMIT="off"))
        if not checks.check("intercom-server starts", base, detail):
            return checks
        driver = ChromeDriver(workdir)
        if not checks.check("chromedriver starts", driver.ready, driver.url):
            return checks
        browser = WebCallerBrowser(driver.url, os.path.join(workdir, "profile"), label="visitor",
                                   extra_args=[PLAIN_IP_CANDIDATES, FAKE_CAMERAS], window_size="900,1300",
                                   browser_log=True)
        browser.open(base + "/")
        user = browser.sign_in(*VISITOR) if wait_for(browser.loaded, 15) else None
        if not checks.check("the visitor signs in", user, f"userID {user}"):
            return checks

        clip = write_clip(os.path.join(workdir, "parcel.y4m"))
        config = write_agent_config(os.path.join(workdir, "intercom.toml"), base, "Front door", 52.52, 13.405,
                                    os.path.join(workdir, "state"), free_port())
        with open(config, encoding="utf-8") as f:
            text = f.read()
        sources = f'sources = [{{name = "face", source = "testpattern"}}, {{name = "parcel", source = "{clip}"}}]'
        with open(config, "w", encoding="utf-8") as f:
            f.write(text.replace('source = "test-pattern"', sources))
        agent = LoggedProcess([intercomd_bin, "run", "--config", config], workdir, "agent", env=agent_environment())
        ready = agent.wait_line(r"ready: (.*)", 40)
        device = agent.find(r"logged in to the backend userID=(\w+)")
        if not checks.check("intercomd run with two cameras starts and logs in", ready and device, " | ".join(agent.tail(5))):
            return checks
        device_id = device.group(1)

        if not checks.check("the device is callable", wait_callable(browser, device_id, 20), browser.state()):
            return checks
        browser.click(call_button(device_id))
        state = browser.wait_state("in-call", 20)
        decoding = wait_for(lambda: (browser.stats() or {}).get("framesDecoded", 0) > 10, 15)
        if not checks.check("the call connects and decodes video", state == "in-call" and decoding, f"state {state}"):
            return checks

        def remote_camera():
            return browser.js("return document.body.dataset.remoteCamera || null;")

        def picture():
            return browser.js(PICTURE)

        advertised = wait_for(lambda: remote_camera() == "face", 10)
        checks.check("the device advertises its cameras, filming face", advertised, f"remote camera {remote_camera()}")
        checks.check("the page offers Switch camera (two cameras on the device)", browser.visible("#switch-camera"))
        checks.check("the page offers Flip my camera (the browser has three fake cameras)",
                     wait_for(lambda: browser.visible("#flip-camera"), 5))
        bars = wait_for(lambda: (lambda p: p if p and p["saturation"] > COLOURFUL else None)(picture()), 10)
        checks.check("the picture is the colour bars (face = test pattern)", bars, f"{picture()}")
        before = browser.stats()

        since = agent.mark()
        clicked = time.monotonic()
        browser.click("#switch-camera")
        grey = wait_for(lambda: (lambda p: p if p and p["saturation"] < GREY else None)(picture()), 5, 0.02)
        page_ms = (time.monotonic() - clicked) * 1000
        checks.check("Switch camera: the decoded picture turns to the grey clip (parcel)", grey,
                     f"{picture()}; seen after {page_ms:.0f} ms (page polling, includes WebDriver round trips)")
        checks.check("the page shows the device filming parcel", wait_for(lambda: remote_camera() == "parcel", 5),
                     f"remote camera {remote_camera()}")
        switched = agent.wait_line(r"camera switched to parcel in (\d+) ms", 5, since)
        took = int(switched.group(1)) if switched else None
        checks.check(f"the device's switch takes ≤ {MAX_SWITCH_MS} ms to the new camera's first frame",
                     took is not None and took <= MAX_SWITCH_MS, f"{switched.group(0) if switched else 'no switch line'}")
        time.sleep(1)
        after = browser.stats()
        checks.check("the same call: no new offer, same video SSRC, still in-call and decoding",
                     after.get("offersReceived") == 1 == before.get("offersReceived")
                     and after.get("videoSSRC") == before.get("videoSSRC") is not None
                     and browser.state() == "in-call" and after.get("connectionState") == "connected"
                     and after.get("framesDecoded", 0) > before.get("framesDecoded", 0) + 15,
                     f"offers {before.get('offersReceived')}→{after.get('offersReceived')}, "
                     f"SSRC {before.get('videoSSRC')}→{after.get('videoSSRC')}, frames decoded "
                     f"{before.get('framesDecoded')}→{after.get('framesDecoded')}, {browser.state()}")

        since = agent.mark()
        browser.click("#switch-camera")
        back = wait_for(lambda: (lambda p: p if p and p["saturation"] > COLOURFUL else None)(picture()), 5, 0.02)
        back_line = agent.wait_line(r"camera switched to face in (\d+) ms", 5, since)
        checks.check("a second click brings the colour bars (face) back",
                     back and remote_camera() == "face" and back_line, f"{picture()}, {remote_camera()}, "
                     f"{back_line.group(0) if back_line else 'no switch line'}")

        browser.js("window.intercom.requestCamera('garage');")
        refused = wait_for(lambda: browser.js("return document.body.dataset.cameraError || null;"), 5)
        checks.check("an unknown camera name gets the device's camera-error", refused and 'no camera "garage"' in refused
                     and "face, parcel" in refused, f"{refused}")
        time.sleep(1)
        still = browser.stats()
        checks.check("after the refusal the call goes on with the same camera",
                     browser.state() == "in-call" and remote_camera() == "face" and still.get("offersReceived") == 1
                     and still.get("framesDecoded", 0) > after.get("framesDecoded", 0)
                     and (picture() or {}).get("saturation", 0) > COLOURFUL, f"{browser.state()}, {picture()}")

        browser.js("delete document.body.dataset.cameraError; window.intercom.requestCamera('Not A Name');")
        bad = wait_for(lambda: browser.js("return document.body.dataset.cameraError || null;"), 5)
        checks.check("a malformed name is refused by the server (bad-signal), the call goes on",
                     bad and "camera refused" in bad and browser.state() == "in-call", f"{bad}; {browser.state()}")

        # The page's own camera, flipped twice: Chromium's second fake camera gives Y16 (depth) frames its
        # encoder does not send, its third MJPEG ones it does, so the sending is checked on the third. Each
        # flip: another camera on the same sender, no new offer, stable signaling, the call goes on.
        def flip(since_stats):
            browser.click("#flip-camera")
            return wait_for(lambda: (lambda st: st if st.get("localCamera") not in (None, since_stats.get("localCamera"))
                                     and st.get("sendsLocalCamera") else None)(browser.stats()), 10)
        mine = browser.stats()
        second = flip(mine)
        third = flip(second or mine)
        time.sleep(1.5)
        later = browser.stats()
        cameras = [str((st or {}).get("localCamera"))[:8] for st in (mine, second, third)]
        checks.check("Flip my camera: the page sends its other camera on the same sender, without renegotiation",
                     second and third and len(set(cameras)) == 3 and later.get("sendsLocalCamera")
                     and later.get("signalingState") == "stable" and later.get("offersReceived") == 1
                     and browser.state() == "in-call"
                     and later.get("framesEncoded", 0) > third.get("framesEncoded", 0) + 10,
                     f"cameras {' → '.join(cameras)}, sender carries it {later.get('sendsLocalCamera')}, "
                     f"{later.get('signalingState')}, offers {later.get('offersReceived')}, frames encoded "
                     f"{(third or {}).get('framesEncoded')}→{later.get('framesEncoded')}, {browser.state()}")

        browser.click("#hangup")
        checks.check("the call ends normally", browser.wait_state({"ended", "idle"}, 10) in {"ended", "idle"})
        return checks
    except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure with its reason
        checks.check("test harness", False, f"{type(e).__name__}: {e}")
        return checks
    finally:
        if checks.failed:
            if browser:
                log("---- visitor: page log ----")
                for line in browser.page_log(30):
                    log(f"  {line}")
            if agent:
                log("---- intercomd ----")
                for line in agent.tail(30):
                    log(f"  {line}")
        if browser:
            browser.quit()
        if driver:
            driver.stop()
        if agent:
            agent.stop()
        if server:
            server.stop()
        keep_or_remove(workdir, "CAMERA_TEST_KEEP", checks.failed)


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"camera switch browser test: server {server}, intercomd {intercomd}")
    checks = run(server, intercomd)
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
