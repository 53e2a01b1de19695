#!/usr/bin/env python3
"""Benchmark (not a timed test): what the largest query the limits allow costs over 100,000 ActiveUsers rows.

Starts intercom-server on a free loopback port with its own database, inserts the rows with /batch (master key),
then times, 5 times each, `POST /parse/classes/ActiveUsers {_method: GET, where, limit: 100}` for:
  - `userTitle $in` with 500 titles (the list limit; answered from the userTitle index),
  - `userTitle $nin` with 500 titles of ~120 bytes (a where near the 64 KiB limit; a full scan, every row matched
    in Swift, so it runs into the 1 s query time budget when the machine is slow — answered 124 then).
Prints the exact command line, then one line per query: status and p50/max milliseconds.
Usage: bench_query_cost.py [--server PATH] [--rows N]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from security_test import MASTER_KEY, Server  # noqa: E402


def main():
    repo = os.path.abspath(os.path.join(HERE, "..", ".."))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=os.path.join(repo, ".build", "debug", "intercom-server"))
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    print("command: python3 " + " ".join([os.path.relpath(__file__, repo), "--server", args.server,
                                          "--rows", str(args.rows)]), flush=True)
    workdir = tempfile.mkdtemp(prefix="intercom-query-bench-")
    server = Server(os.path.abspath(args.server), workdir, "bench", 'rate_limit = "off"\n')
    try:
        master = {"X-Parse-Master-Key": MASTER_KEY}
        started = time.monotonic()
        for first in range(0, args.rows, 1000):
            requests = [{"method": "POST", "path": "/parse/classes/ActiveUsers", "body": {
                "userID": f"user-{i}", "userTitle": f"title-{i}", "deviceKind": "intercom",
                "userLocation": {"__type": "GeoPoint", "latitude": 50 + (i % 600) / 100, "longitude": 10 + (i // 600) / 100},
            }} for i in range(first, min(first + 1000, args.rows))]
            status, body = server.request("POST", "/parse/batch", {"requests": requests}, headers=master, timeout=600)
            if status != 200:
                raise RuntimeError(f"batch insert answered {status}: {str(body)[:200]}")
        print(f"inserted {args.rows} ActiveUsers rows in {time.monotonic() - started:.0f} s", flush=True)
        queries = {
            "userTitle $in 500 titles (index)": {"userTitle": {"$in": [f"title-{i * 97}" for i in range(500)]}},
            "userTitle $nin 500 x 120-byte titles (full scan, ~62 KB where)": {
                "userTitle": {"$nin": [f"absent-{i:04d}-" + "x" * 108 for i in range(500)]}},
        }
        for name, where in queries.items():
            times, statuses = [], []
            for _ in range(5):
                began = time.monotonic()
                status, body = server.request("POST", "/parse/classes/ActiveUsers",
                                              {"_method": "GET", "where": where, "limit": 100}, timeout=120)
                times.append((time.monotonic() - began) * 1000)
                statuses.append(status if status == 200 else f"{status}/{body.get('code') if isinstance(body, dict) else body}")
            print(f"{name} over {args.rows} rows: status {sorted(set(map(str, statuses)))}, "
                  f"p50 {statistics.median(times):.0f} ms, max {max(times):.0f} ms", flush=True)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
