#!/usr/bin/env python3
"""Benchmark (not a timed test): what the largest query the limits allow costs over 100,000 ActiveUsers rows.

Starts intercom-server on a free loopback port with its own database, inserts the rows with /batch (master key),
then times, 5 times each, `POST /parse/classes/ActiveUsers {_method: GET, where, limit: 100}` for:
  - `userID $in` with 500 ids (the list limit; answered from the userID index),
  - `userTitle $in` with 500 titles (userTitle has no index: every row is read, decoded and matched in Swift),
  - `userTitle $nin` with 500 titles of ~120 bytes (a where near the 64 KiB limit; also a full scan),
first with the default 1 s query time budget (a query past it is answered 124), then with the budget raised to
60 s on the same database, to show what the budget cuts off.
Prints the exact command line, then one line per query and budget: status and p50/max milliseconds.
Usage: bench_query_cost.py [--server PATH] [--rows N] [--database FILE (reuse one filled by an earlier run)]
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


# Rows older than 3 heartbeats are unlisted and swept (SYSTEM.md §2): a day-long heartbeat keeps all of them.
FRESH_ROWS = "heartbeat_seconds = 86400\n"


def main():
    repo = os.path.abspath(os.path.join(HERE, "..", ".."))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=os.path.join(repo, ".build", "debug", "intercom-server"))
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--database", help="an SQLite file an earlier run filled (kept; no rows are inserted)")
    args = parser.parse_args()
    print("command: python3 " + " ".join([os.path.relpath(__file__, repo), "--server", args.server,
                                          "--rows", str(args.rows)]
                                         + (["--database", args.database] if args.database else [])), flush=True)
    workdir = tempfile.mkdtemp(prefix="intercom-query-bench-")
    database = args.database or os.path.join(workdir, "bench.sqlite")
    if not args.database:
        insert(args, workdir, database)
    print(f"database: {database}", flush=True)
    for label, config in (("default 1 s budget", ""), ("budget raised to 60 s", "query_time_budget_ms = 60000\n")):
        server = Server(os.path.abspath(args.server), workdir, "bench", 'rate_limit = "off"\n' + FRESH_ROWS + config,
                        database=database)
        try:
            measure(server, args.rows, label)
        finally:
            server.stop()
    return 0


def insert(args, workdir, database):
    server = Server(os.path.abspath(args.server), workdir, "fill", 'rate_limit = "off"\n' + FRESH_ROWS,
                    database=database)
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
    finally:
        server.stop()


def measure(server, rows, label):
    queries = {
        "userID $in 500 ids (index)": {"userID": {"$in": [f"user-{i * 97}" for i in range(500)]}},
        "userTitle $in 500 titles (full scan)": {"userTitle": {"$in": [f"title-{i * 97}" for i in range(500)]}},
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
        print(f"[{label}] {name} over {rows} rows: status {sorted(set(map(str, statuses)))}, "
              f"p50 {statistics.median(times):.0f} ms, max {max(times):.0f} ms", flush=True)


if __name__ == "__main__":
    sys.exit(main())
