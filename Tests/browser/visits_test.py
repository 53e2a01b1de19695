#!/usr/bin/env python3
"""The web caller's Visits view (issue #19) in headless Chromium, against a real `intercomd run`.

Starts intercom-server (serving Sources/IntercomServer/WebCaller) and `intercomd run` (test pattern,
`answer = "auto-after"` 4 s, `[visits] owners` = the owner's page). A "Visitor" page calls the device six
times: three calls it cancels while ringing (missed), one it lets the device answer (answered), two more
missed. Then checks, on the owner's page: the missed badge counts 5 before the first look; the list is
newest first with outcome labels, times and thumbnails that load (naturalWidth > 0), 5 to a page, the sixth
on page 2; opening it clears the badge and a later missed call counts 1. A "Stranger" page sees no visits.
Last, SIGTERM to intercomd while a call rings: it ends the call, stores the visit, then exits cleanly.
Saves a screenshot of the owner's list to docs/images/visits.png.

Usage: visits_test.py [--server BIN] [--intercomd BIN]  (defaults: $INTERCOM_SERVER_BIN / $INTERCOMD_BIN, then
  <repo>/.build/debug/…). Environment: CHROMIUM_BIN, CHROMEDRIVER_BIN, VISITS_TEST_KEEP=1 keeps the logs.
"""

import json
import os
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from calls import (LoggedProcess, agent_environment, binary_arguments, call_button, keep_or_remove,  # noqa: E402
                   scrape_metrics, start_intercom_server, wait_callable, write_agent_config)
from webdriver import (PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser, free_port, log,  # noqa: E402
                       missing_browser, wait_for)

WEB_ROOT = os.path.join(REPO, "Sources", "IntercomServer", "WebCaller")
SCREENSHOT = os.path.join(REPO, "docs", "images", "visits.png")
DEVICE = {"title": "Front door", "lat": 52.5200, "lon": 13.4050}
OWNER = ("Owner", "52.5210", "13.4060")
VISITOR = ("Visitor", "52.5205", "13.4055")
STRANGER = ("Stranger", "52.5190", "13.4040")
PAGE_SIZE = 5  # visits.js PAGE_SIZE
ENDED = {"idle", "ended"}
MASTER_KEY = "visits-test-master-key-0123456789"

VISIT_ITEMS = """
return [...document.querySelectorAll('#visits-list li.visit')].map((li) => {
  const img = li.querySelector('img.thumb');
  return {outcome: li.dataset.outcome, label: li.querySelector('.outcome').textContent,
          time: li.querySelector('time').dateTime, title: li.querySelector('strong').textContent,
          spoke: li.querySelector('.spoke') ? li.querySelector('.spoke').textContent : null,
          img: img ? {complete: img.complete, width: img.naturalWidth} : null};
});
"""


def rest(base, method, path):
    """A master-key request to the server (loopback): (status, JSON body)."""
    request = urllib.request.Request(base + "/parse" + path, method=method, headers={
        "X-Parse-Application-Id": "intercom", "X-Parse-Master-Key": MASTER_KEY})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, {}


def badge(browser):
    return browser.js("const b = document.getElementById('visits-badge');"
                      "return b && !b.hidden ? Number(b.textContent) : 0;")


def open_visits(browser):
    browser.js("const d = document.getElementById('visits'); d.open = true; d.scrollIntoView();")


def items(browser, count, timeout=15):
    """The list once it has `count` items whose pictures have finished loading."""
    def ready():
        found = browser.js(VISIT_ITEMS)
        return found if len(found) == count and all(i["img"] is None or i["img"]["complete"] for i in found) else None
    return wait_for(ready, timeout) or browser.js(VISIT_ITEMS)


def run(server_bin, intercomd_bin):
    checks = Checks()
    for path, name in ((server_bin, "intercom-server"), (intercomd_bin, "intercomd")):
        if not os.access(path, os.X_OK):
            checks.check("prerequisites", False, f"{name} not found or not executable at {path}")
    for problem in missing_browser():
        checks.check("prerequisites", False, problem)
    if checks.failed:
        return checks
    workdir = tempfile.mkdtemp(prefix="intercom-visits-test-")
    server = agent = driver = None
    browsers = []
    try:
        server, base, detail = start_intercom_server(server_bin, workdir, env=dict(
            os.environ, INTERCOM_WEB_ROOT=WEB_ROOT, INTERCOM_RATE_LIMIT="off", INTERCOM_MASTER_KEY=MASTER_KEY))
        if not checks.check("intercom-server starts", base, detail):
            return checks
        driver = ChromeDriver(workdir)
        if not checks.check("chromedriver starts", driver.ready, driver.url):
            return checks

        def page(label, person):
            b = WebCallerBrowser(driver.url, os.path.join(workdir, f"profile-{label}"), label=label,
                                 extra_args=[PLAIN_IP_CANDIDATES], window_size="900,1300", browser_log=True)
            browsers.append(b)
            b.open(base + "/")
            user = b.sign_in(*person) if wait_for(b.loaded, 15) else None
            checks.check(f"{label} signs in", user, f"userID {user}")
            return b, user

        owner, owner_id = page("owner", OWNER)
        stranger, _ = page("stranger", STRANGER)
        visitor, _ = page("visitor", VISITOR)
        if not owner_id:
            return checks

        metrics_port = free_port()
        config = write_agent_config(
            os.path.join(workdir, "intercom.toml"), base, DEVICE["title"], DEVICE["lat"], DEVICE["lon"],
            os.path.join(workdir, "state"), metrics_port, answer="auto-after", call='auto_answer_delay = "4s"\n',
            extra=f'\n[visits]\nowners = ["{owner_id}"]\n')
        agent = LoggedProcess([intercomd_bin, "run", "--config", config], workdir, "agent", env=agent_environment())
        ready = agent.wait_line(r"ready: (.*)", 40)
        device = agent.find(r"logged in to the backend userID=(\w+)")
        if not checks.check("intercomd run starts and logs in", ready and device, " | ".join(agent.tail(5))):
            return checks
        device_id = device.group(1)

        def call(answered):
            """One call from the visitor's page: (the page's state, the device's outcome word or None)."""
            since = agent.mark()
            if not wait_callable(visitor, device_id, 20):
                return f"not callable ({visitor.state()})", None
            visitor.click(call_button(device_id))
            if answered:
                state = visitor.wait_state("in-call", 20)
                time.sleep(1)
            else:
                state = visitor.wait_state("ringing", 10)
                time.sleep(1.5)  # the device rings (and takes its snapshot); the visitor gives up
            visitor.click("#hangup")
            visitor.wait_state(ENDED, 10)
            outcome = agent.wait_line(r"call incoming .*?: (\w+)", 15, since)
            return state, outcome.group(1) if outcome else None

        def stored_rows():
            status, body = rest(base, "GET", "/classes/CallLog?count=1&limit=0")
            return body.get("count") if status == 200 else None

        plan = [False, False, False, True, False, False]
        for n, answered in enumerate(plan, 1):
            state, outcome = call(answered)
            # The row is written after the outcome line; the next call must not overtake it.
            stored = wait_for(lambda n=n: stored_rows() == n, 15)
            want = ("in-call", "answered") if answered else ("ringing", "unanswered")
            checks.check(f"call {n} ({'answered' if answered else 'missed'}) leaves its CallLog row",
                         (state, outcome) == want and stored, f"page {state}, device {outcome}, rows {stored_rows()}")

        # Ring → snapshot stored, as the agent measured it (docs/benchmarks.md): loopback, test pattern.
        status, samples = scrape_metrics(f"http://127.0.0.1:{metrics_port}/metrics")
        count = samples.get("intercom_snapshot_ring_to_upload_seconds_count", 0) if status == 200 else 0
        total = samples.get("intercom_snapshot_ring_to_upload_seconds_sum", 0) if status == 200 else 0
        checks.check("every ring's snapshot was uploaded (intercom_snapshot_ring_to_upload_seconds)",
                     count == len(plan), f"{count:.0f} snapshots, ring → stored mean {1000 * total / max(count, 1):.0f} ms"
                     f" (640x480 test pattern, loopback)")


        owner.open(base + "/")
        wait_for(lambda: owner.js("return document.body.dataset.signedIn === 'true';"), 20)
        counted = wait_for(lambda: badge(owner) == 5, 20)
        checks.check("the owner's badge counts 5 missed calls before the first look", counted, f"badge {badge(owner)}")

        open_visits(owner)
        first = items(owner, PAGE_SIZE)
        outcomes = [i["outcome"] for i in first]
        checks.check("page 1 lists the 5 newest visits, newest first",
                     outcomes == ["missed", "missed", "answered", "missed", "missed"], f"{outcomes}")
        times = [i["time"] for i in first]
        checks.check("with times, newest first", all(times) and times == sorted(times, reverse=True), f"{times}")
        labels = [i["label"] for i in first]
        checks.check("outcome labels are shown", labels == ["Missed", "Missed", "Answered", "Missed", "Missed"],
                     f"{labels}")
        checks.check("every visit shows the caller", all(i["title"] == "Visitor" for i in first))
        # The answered call's media measured the caller's speech (RFC 6464 levels); a missed call has none.
        spoke = [i["spoke"] for i in first]
        checks.check("the answered visit says whether the caller spoke, the missed ones say nothing",
                     spoke[2] is not None and (spoke[2] == "did not speak" or spoke[2].startswith("spoke "))
                     and all(s is None for n, s in enumerate(spoke) if n != 2), f"{spoke}")
        widths = [i["img"] and i["img"]["width"] for i in first]
        checks.check("every thumbnail loads (naturalWidth > 0)", all(w and w > 0 for w in widths), f"{widths}")
        checks.check("opening the list clears the badge", wait_for(lambda: badge(owner) == 0, 5), f"badge {badge(owner)}")
        checks.check("an older page exists", not owner.js("return document.getElementById('visits-older').disabled;"))
        owner.screenshot(SCREENSHOT)
        checks.check("screenshot saved", os.path.getsize(SCREENSHOT) > 10000, SCREENSHOT)

        owner.click("#visits-older")
        second = items(owner, 1)
        checks.check("page 2 holds the oldest visit, and no page after it",
                     [i["outcome"] for i in second] == ["missed"]
                     and owner.js("return document.getElementById('visits-older').disabled;")
                     and owner.text("#visits-page") == "Page 2", f"{second}")
        owner.click("#visits-newer")
        checks.check("back to page 1", len(items(owner, PAGE_SIZE)) == PAGE_SIZE)

        open_visits(stranger)
        time.sleep(2)
        checks.check("a non-owner sees no visits and no badge",
                     stranger.js(VISIT_ITEMS) == [] and badge(stranger) == 0
                     and "No visits" in stranger.text("#visits-empty"), stranger.text("#visits-empty"))

        # One more missed call after the look: the badge counts only that one (page reloaded, list closed).
        detail = call(False)
        wait_for(lambda: stored_rows() == len(plan) + 1, 15)
        owner.open(base + "/")
        wait_for(lambda: owner.js("return document.body.dataset.signedIn === 'true';"), 20)
        counted = wait_for(lambda: badge(owner) == 1, 20)
        checks.check("a missed call after the last look counts 1", counted, f"badge {badge(owner)}; {detail}")

        # SIGTERM while a call rings: the agent ends the call with an outcome and stores the visit (its
        # snapshot and row still under way) before it exits.
        if wait_callable(visitor, device_id, 20):
            visitor.click(call_button(device_id))
            ringing = visitor.wait_state("ringing", 10)
            time.sleep(0.3)
            clean, how = agent.stop(signal.SIGTERM)
            rows_now = stored_rows()
            status, newest = rest(base, "GET", "/classes/CallLog?order=-createdAt&limit=1")
            row = (newest.get("results") or [{}])[0] if status == 200 else {}
            ended = agent.find(r"call incoming .*?: unanswered\(.*shutdown.*")
            settled = agent.find(r"visitor log (settled before exit|abandoned at exit).*")
            checks.check("SIGTERM while ringing: intercomd ends the call, stores its visit, then exits cleanly",
                         ringing == "ringing" and clean and ended and rows_now == len(plan) + 2
                         and row.get("outcome") == "missed" and (row.get("snapshot") or {}).get("name"),
                         f"page {ringing}; {how}; {ended.group(0) if ended else 'no shutdown outcome line'}; "
                         f"{rows_now} rows, the newest {row.get('outcome')} with snapshot {bool(row.get('snapshot'))}; "
                         f"{settled.group(0) if settled else 'nothing was pending at SIGTERM'}")
        else:
            checks.check("SIGTERM while ringing", False, f"the device is not callable ({visitor.state()})")
        return checks
    except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure with its reason
        checks.check("test harness", False, f"{type(e).__name__}: {e}")
        return checks
    finally:
        if checks.failed:
            for b in browsers:
                log(f"---- {b.label}: page log ----")
                for line in b.page_log(20):
                    log(f"  {line}")
            if agent:
                log("---- intercomd ----")
                for line in agent.tail(30):
                    log(f"  {line}")
        for b in browsers:
            b.quit()
        if driver:
            driver.stop()
        if agent:
            agent.stop()
        if server:
            server.stop()
        keep_or_remove(workdir, "VISITS_TEST_KEEP", checks.failed)


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"visits browser test: server {server}, intercomd {intercomd}")
    checks = run(server, intercomd)
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
