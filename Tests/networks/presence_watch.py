#!/usr/bin/env python3
"""Watches whether a device is listed (its ActiveUsers row fresh) as a caller sees it, for partition_test.py.

Run in the caller's namespace: logs in anonymously like the web caller page, then every INTERVAL s queries
`ActiveUsers where userID == <device>` (the server hides rows older than 3 heartbeats) and prints one line
per answer: `<CLOCK_MONOTONIC seconds> visible|absent|error <detail>` (the monotonic clock is the machine's,
the same in every namespace, so the test compares it with its own time.monotonic()).
Usage: presence_watch.py BASE_URL DEVICE_USER_ID
"""

import json
import sys
import time
import urllib.parse
import urllib.request
import uuid

INTERVAL = 0.5
TIMEOUT = 2


def request(base, method, path, body=None, token=None):
    headers = {"X-Parse-Application-Id": "intercom", "Content-Type": "application/json"}
    if token:
        headers["X-Parse-Session-Token"] = token
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(base + "/parse" + path, data, headers, method=method),
                                timeout=TIMEOUT) as response:
        return json.loads(response.read())


def main():
    base, device = sys.argv[1], sys.argv[2]
    token = None
    where = urllib.parse.quote(json.dumps({"userID": device}))
    while True:
        try:
            if not token:
                token = request(base, "POST", "/users",
                                {"authData": {"anonymous": {"id": str(uuid.uuid4())}}})["sessionToken"]
            rows = request(base, "GET", f"/classes/ActiveUsers?where={where}", token=token).get("results", [])
            line = f"visible {rows[0].get('updatedAt')}" if rows else "absent"
        except Exception as e:  # noqa: BLE001 - reported, the watch goes on
            line = f"error {type(e).__name__}: {e}"
        print(f"{time.monotonic():.3f} {line}", flush=True)
        time.sleep(INTERVAL)


if __name__ == "__main__":
    main()
