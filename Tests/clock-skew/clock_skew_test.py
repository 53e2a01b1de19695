#!/usr/bin/env python3
"""Clock skew never silences the door: the device's clock 90 s ahead, the backend's 90 s behind.

Boards without a real-time clock boot with a wrong time, and small backends run without NTP. Call rows carry
the server's `expiresAt` (ring time 60 s): judged on a device clock 180 s ahead of the server's, every row
looked expired and the door never rang. The agent now measures the server's clock from its `Date` headers.

Runs one round of the two-devices test (Tests/two-devices) under libfaketime (Debian's `faketime`):
  intercom-server       at −90 s,
  callee `intercomd run` at +90 s (answers by itself),
  caller `intercomd call` on the real clock, which places the call and stays 10 s.
Checks, besides the two-devices round's own (the call connects both ways, the callee logs it answered):
the callee's /metrics `intercom_clock_skew_seconds` is ≈ −180, and /health stays `ok` with the warning
`clock_skew` and the skew in `clockSkewSeconds`.
Prints one PASS/FAIL line per check and `N passed, M failed`; exits non-zero on failure.
"""

import json
import os
import re
import shutil
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.path.insert(0, os.path.join(REPO, "Tests", "two-devices"))
sys.dont_write_bytecode = True
from webdriver import log  # noqa: E402
from calls import binary_arguments, scrape_metrics  # noqa: E402
import two_devices_test  # noqa: E402

DEVICE_OFFSET = "+90s"
SERVER_OFFSET = "-90s"
EXPECTED_SKEW = -180.0  # the server's clock minus the device's
FAKETIME = shutil.which("faketime")


class SkewedRun(two_devices_test.Run):
    """One two-devices round, "Caller B" calling "Gate A", with the server and the callee on shifted clocks."""

    rounds = (("A", "B"),)

    def start(self, argv, label):
        offset = {"server": SERVER_OFFSET, "agent-A": DEVICE_OFFSET}.get(label)
        if not offset:
            return super().start(argv, label)
        # Through the `faketime` wrapper (LD_PRELOAD without it leaves a Swift program without its
        # arguments); signals go to the program itself, not to the wrapper, which then exits with its status.
        process = super().start([FAKETIME, "-f", offset] + argv, label)
        wrapper = process.process
        deadline = time.monotonic() + 10
        children = []
        while not children and time.monotonic() < deadline:
            try:
                with open(f"/proc/{wrapper.pid}/task/{wrapper.pid}/children", encoding="ascii") as f:
                    children = [int(pid) for pid in f.read().split()]
            except OSError:
                break
            time.sleep(0.05)
        if children:
            wrapper.send_signal = lambda sig, child=children[0]: os.kill(child, sig)
        return process

    def after_call(self, callee_config):
        with open(callee_config, encoding="utf-8") as f:
            port = re.search(r'listen = "127\.0\.0\.1:(\d+)"', f.read()).group(1)
        base = f"http://127.0.0.1:{port}"
        status, samples = scrape_metrics(base + "/metrics")
        skew = samples.get("intercom_clock_skew_seconds") if status == 200 else None
        self.check(f"the callee measures the backend's clock {EXPECTED_SKEW:+.0f} s from its own "
                   "(intercom_clock_skew_seconds)", skew is not None and abs(skew - EXPECTED_SKEW) <= 3,
                   f"intercom_clock_skew_seconds {skew}" if skew is not None else f"/metrics: {status}")
        try:
            with urllib.request.urlopen(base + "/health", timeout=5) as response:
                code, health = response.status, json.loads(response.read())
        except Exception as e:  # noqa: BLE001 - reported as the check's detail
            code, health = None, {"error": str(e)}
        self.check("/health stays 200 ok and warns clock_skew with the figure",
                   code == 200 and health.get("status") == "ok" and "clock_skew" in health.get("warnings", [])
                   and abs((health.get("clockSkewSeconds") or 0) - EXPECTED_SKEW) <= 3, f"{code} {health}")


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"clock skew: device {DEVICE_OFFSET}, server {SERVER_OFFSET}; command: {' '.join(sys.argv)}")
    run = SkewedRun(server, intercomd)
    if FAKETIME:
        checks = run.run()
    else:
        checks = run.checks
        run.check("prerequisites", False, "faketime not found on PATH (Debian package faketime)")
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
