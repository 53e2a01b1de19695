"""Shared stdlib-only W3C WebDriver client for the Python browser tests (headless Chromium + chromedriver).

Used by Tests/browser/web_caller_test.py, Tests/webrtc-interop/interop_test.py and Tests/e2e/demo_call_test.py.
chromedriver is driven over its W3C WebDriver HTTP API with urllib; no Selenium, no third-party packages.

Import it from a test with:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    import webdriver

Contents:
  log, free_port, wait_for, Checks      small helpers every test uses (PASS/FAIL lines, polling)
  WebDriverError, Browser                one WebDriver session of headless Chromium
  WebCallerBrowser                       Browser plus helpers for the web caller page (stable ids, window.intercom)
  ChromeDriver                           a chromedriver process on a free loopback port
  missing_browser                        prerequisite messages for chromium/chromedriver

Environment: CHROMIUM_BIN (default /usr/bin/chromium), CHROMEDRIVER_BIN (default /usr/bin/chromedriver).
"""

import base64
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"

# Flags every test needs: headless, fake camera/microphone without a permission prompt, autoplay.
BASE_ARGS = (
    "--headless=new", "--no-sandbox", "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required",
)
# Real host candidates instead of mDNS names (libnice 0.1.21 cannot resolve `.local`): needed whenever
# Chromium talks WebRTC to intercomd's own PeerConnection.
PLAIN_IP_CANDIDATES = "--disable-features=WebRtcHideLocalIpsWithMdns"


def log(text):
    print(text, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(fn, timeout, interval=0.25):
    """Calls fn until it returns a truthy value or timeout passes; returns the last value."""
    deadline = time.monotonic() + timeout
    value = None
    while True:
        try:
            value = fn()
        except Exception:  # noqa: BLE001 - a failing probe just means "not yet"
            value = None
        if value:
            return value
        if time.monotonic() >= deadline:
            return value
        time.sleep(interval)


class Checks:
    """Counts checks and prints one `PASS name — detail` / `FAIL name — detail` line per check."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.on_failure = []  # callables run by the test (e.g. log dumps) when anything failed

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        log(f"{'PASS' if ok else 'FAIL'} {name}" + (f" — {detail}" if detail else ""))
        return bool(ok)


def missing_browser(chromium=None, chromedriver=None):
    """Messages for a missing chromium/chromedriver (empty if both are there)."""
    chromium = chromium or CHROMIUM
    chromedriver = chromedriver or CHROMEDRIVER
    missing = []
    if not (os.path.isfile(chromium) and os.access(chromium, os.X_OK)):
        missing.append(f"chromium not found at {chromium} (apt-get install chromium, or set CHROMIUM_BIN)")
    if not (os.path.isfile(chromedriver) and os.access(chromedriver, os.X_OK)):
        missing.append(f"chromedriver not found at {chromedriver} (apt-get install chromium-driver, or set CHROMEDRIVER_BIN)")
    return missing


class WebDriverError(Exception):
    pass


class Browser:
    """One W3C WebDriver session of headless Chromium.

    label prefixes error messages (useful with several browsers); extra_args are added after BASE_ARGS
    (e.g. PLAIN_IP_CANDIDATES); window_size is "W,H" or None; browser_log=True asks chromedriver to keep
    the console log (see console_log).
    """

    def __init__(self, driver_url, profile_dir, label=None, extra_args=(), window_size=None, browser_log=False,
                 chromium=None):
        self.driver_url = driver_url
        self.label = label
        args = list(BASE_ARGS) + list(extra_args) + ["--disable-gpu"]
        if window_size:
            args.append(f"--window-size={window_size}")
        args += [f"--user-data-dir={profile_dir}", "--no-first-run", "--no-default-browser-check",
                 "--disable-dev-shm-usage"]
        always = {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium or CHROMIUM, "args": args},
        }
        if browser_log:
            always["goog:loggingPrefs"] = {"browser": "ALL"}
        value = self._request("POST", "/session", {"capabilities": {"alwaysMatch": always}}, timeout=90)
        self.session = value["sessionId"]

    def _request(self, method, path, body=None, timeout=30):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.driver_url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                payload = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as e:
            try:
                payload = json.loads(e.read() or b"{}")
            except ValueError:
                payload = {}
            value = payload.get("value", {}) if isinstance(payload, dict) else {}
            message = value.get("message", str(e)) if isinstance(value, dict) else str(e)
            prefix = f"{self.label}: " if self.label else ""
            raise WebDriverError(f"{prefix}{method} {path}: {message.splitlines()[0] if message else e}") from None
        return payload.get("value")

    def cmd(self, method, path, body=None, timeout=30):
        return self._request(method, f"/session/{self.session}{path}", body, timeout)

    def open(self, url):
        self.cmd("POST", "/url", {"url": url}, timeout=60)

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args, timeout=30):
        return self.cmd("POST", "/execute/async", {"script": script, "args": list(args)}, timeout=timeout)

    def promise(self, expression, timeout=30):
        """The settled value of a JavaScript promise expression; a rejection becomes {"error": "…"}."""
        return self.js_async(
            "const done = arguments[arguments.length - 1];"
            f"({expression}).then(done, (e) => done({{error: String(e)}}));", timeout=timeout)

    def find(self, css):
        value = self.cmd("POST", "/element", {"using": "css selector", "value": css})
        return value[ELEMENT_KEY]

    def exists(self, css):
        return bool(self.js("return !!document.querySelector(arguments[0]);", css))

    def visible(self, css):
        return bool(self.js(
            "const e = document.querySelector(arguments[0]);"
            "return !!e && !e.closest('[hidden]') && e.getClientRects().length > 0;", css))

    def click(self, css):
        element = self.find(css)
        try:
            self.cmd("POST", f"/element/{element}/click", {})
        except WebDriverError:
            # e.g. covered by another element on a small window: a DOM click is still a user action here.
            self.js("document.querySelector(arguments[0]).click();", css)

    def type(self, css, text):
        element = self.find(css)
        self.cmd("POST", f"/element/{element}/clear", {})
        self.cmd("POST", f"/element/{element}/value", {"text": str(text)})

    def text(self, css):
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", css)

    def console_log(self, lines=40):
        """The browser console (needs browser_log=True); chromedriver hands out each entry once."""
        try:
            entries = self.cmd("POST", "/se/log", {"type": "browser"}) or []
            return [f"{e.get('level')} {e.get('message')}" for e in entries][-lines:]
        except Exception as e:  # noqa: BLE001
            return [f"(no console log: {e})"]

    def add_script_on_new_document(self, source):
        self.cmd("POST", "/goog/cdp/execute", {"cmd": "Page.addScriptToEvaluateOnNewDocument",
                                               "params": {"source": source}})

    def screenshot(self, path):
        data = self.cmd("GET", "/screenshot", timeout=30)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def quit(self):
        try:
            self._request("DELETE", f"/session/{self.session}", timeout=20)
        except Exception:  # noqa: BLE001 - best effort at teardown
            pass

    close = quit


class WebCallerBrowser(Browser):
    """A Browser on the web caller page (Sources/IntercomServer/WebCaller).

    Stable page contract: #name #lat #lon #signin #radius #refresh, #devices li[data-user-id][data-distance-km]
    with .device-title/.device-meta, button.call[data-user-id], #accept #decline #hangup #mute #door
    #invite #invite-link (a `#watch=…` viewing link) #remote-video #call-title #call-status, body[data-watching]
    (opened from a viewing link), body[data-call-state] (idle|calling|ringing|incoming|connecting|in-call|busy|
    declined|no-answer|ended|error), body[data-signed-in], body[data-user-id], and
    window.intercom.stats()/state()/userId()/log().
    """

    def state(self):
        return self.js("return document.body.dataset.callState;")

    def wait_state(self, states, timeout):
        states = {states} if isinstance(states, str) else set(states)
        wait_for(lambda: self.state() in states, timeout)
        return self.state()

    def stats(self):
        return self.promise("window.intercom.stats()")

    def page_log(self, lines=40):
        try:
            return self.js("return window.intercom ? window.intercom.log() : [];")[-lines:]
        except Exception as e:  # noqa: BLE001
            return [f"(no page log: {e})"]

    def loaded(self):
        return bool(self.js("return !!window.intercom && document.body.dataset.callState === 'idle';"))

    def sign_in(self, name, lat, lon, timeout=20):
        """Fills in and submits the sign-in form; returns the page's userID, or None."""
        self.type("#name", name)
        self.type("#lat", lat)
        self.type("#lon", lon)
        self.click("#signin")
        wait_for(lambda: self.js("return document.body.dataset.signedIn === 'true' && document.body.dataset.userId;"),
                 timeout)
        return self.js("return document.body.dataset.userId || null;")


def stop_logged_process(process, log_file, grace=10):
    """SIGTERM, then SIGKILL after `grace` seconds; closes the process's log file."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    log_file.close()


class ChromeDriver:
    """chromedriver on a free loopback port, logging to <workdir>/chromedriver.log.

    `url_for(port)`, when given, is the URL this process reaches chromedriver's port at (e.g. a forwarder into
    the network namespace chromedriver runs in: Tests/support/topology.py)."""

    def __init__(self, workdir, binary=None, url_for=None):
        self.port = free_port()
        self.log_path = os.path.join(workdir, "chromedriver.log")
        self.log_file = open(self.log_path, "wb")
        self.process = subprocess.Popen([binary or CHROMEDRIVER, f"--port={self.port}"], stdout=self.log_file,
                                        stderr=subprocess.STDOUT)
        self.url = url_for(self.port) if url_for else f"http://127.0.0.1:{self.port}"

        def ready():
            with urllib.request.urlopen(self.url + "/status", timeout=2) as response:
                return json.loads(response.read()).get("value", {}).get("ready")

        self.ready = bool(wait_for(ready, 20, 0.2))

    def stop(self):
        stop_logged_process(self.process, self.log_file)
