#!/usr/bin/env python3
"""HTTPS served by intercom-server itself (issue #20 item 3), end to end.

Makes a throwaway CA and two server certificates for 127.0.0.1 with the openssl CLI (serials 5001, 5002),
checks that a missing key, a non-PEM certificate and a mismatched key each stop intercom-server with exit 1
and one line naming the file, starts it with INTERCOM_TLS_CERT_FILE/INTERCOM_TLS_KEY_FILE, then checks: GET /parse/health over
TLS trusting the CA (python ssl) shows serial 5001; plain HTTP to the port is not served; `intercomd run`
with server_url https://… and [backend] ca_file logs in and subscribes to LiveQuery over wss://; headless
Chromium (--ignore-certificate-errors: the throwaway CA is not in its NSS store) loads https://127.0.0.1:PORT/,
is a secure context, signs in and calls the device; the call connects (first video frame decoded) and the
device received the caller's fake microphone (callerAudioPackets > 0). Then the files are replaced with the
second certificate and the server gets SIGHUP: a new TLS connection sees serial 5002 and the server kept
running, while a connection opened before keeps 5001 and is still served; a broken certificate file and another SIGHUP log an error naming the file and 5002 is still served.

Usage: https_test.py [--server BIN] [--intercomd BIN]. Environment: CHROMIUM_BIN, CHROMEDRIVER_BIN,
HTTPS_TEST_KEEP=1 keeps the logs.
"""

import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from certificates import make_certificates  # noqa: E402
from prerequisites import missing_prerequisites  # noqa: E402
from calls import (LoggedProcess, agent_environment, binary_arguments, call_button,  # noqa: E402
                   keep_or_remove, wait_callable, write_agent_config)
from webdriver import (PLAIN_IP_CANDIDATES, Checks, ChromeDriver, WebCallerBrowser, free_port, log,  # noqa: E402
                       missing_browser, wait_for)

WEB_ROOT = os.path.join(REPO, "Sources", "IntercomServer", "WebCaller")
DEVICE = ("Gate", 52.5200, 13.4050)
CALLER = ("Caller", "52.5201", "13.4051")
ENDED = {"idle", "ended"}


def tls_get(port, ca, path="/parse/health"):
    """(HTTP status line, the served certificate's serial in lowercase hex) over a fresh TLS connection."""
    context = ssl.create_default_context(cafile=ca)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            serial = tls.getpeercert()["serialNumber"].lower().lstrip("0")
            tls.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            answer = b""
            while chunk := tls.recv(4096):
                answer += chunk
    return answer.split(b"\r\n", 1)[0].decode(errors="replace"), serial, answer


def plain_get(port):
    """What a plain-HTTP request to the TLS port gets back (bytes; empty when the server just closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(f"GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        try:
            while chunk := raw.recv(4096):
                answer += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    return answer


def kept_request(tls, port):
    """One keep-alive GET /parse/health on an open TLS socket: the status line (the body ends with `}`)."""
    tls.sendall(f"GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    answer = b""
    while not answer.endswith(b"}") and (chunk := tls.recv(4096)):
        answer += chunk
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


def open_kept(port, ca):
    """A TLS connection that has answered one keep-alive request and stays open."""
    context = ssl.create_default_context(cafile=ca)
    tls = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="127.0.0.1")
    kept_request(tls, port)
    return tls


def served_serial(port, ca):
    try:
        return tls_get(port, ca)[1]
    except (OSError, ssl.SSLError):
        return None


def run(server_bin, intercomd_bin):
    checks = Checks()
    for problem in missing_prerequisites(binaries=(("intercom-server", server_bin), ("intercomd", intercomd_bin)),
                                         tools=(("openssl", "openssl"),)) + missing_browser():
        checks.check("prerequisites", False, problem)
    if checks.failed:
        return checks
    workdir = tempfile.mkdtemp(prefix="intercom-https-test-")
    server = agent = driver = browser = None
    try:
        ca, issued = make_certificates(workdir)
        cert, key = os.path.join(workdir, "server.pem"), os.path.join(workdir, "server.key")
        shutil.copy(issued["5001"][0], cert)
        shutil.copy(issued["5001"][1], key)
        # Files it cannot serve: exit 1 with one line naming the file, before listening.
        garbage = os.path.join(workdir, "garbage.pem")
        with open(garbage, "w", encoding="utf-8") as f:
            f.write("not PEM\n")
        missing = os.path.join(workdir, "missing.key")
        for label, bad_cert, bad_key, named in (
                ("a missing key file", cert, missing, missing), ("a certificate file that is not PEM", garbage, key, garbage),
                ("a key that does not match the certificate", cert, issued["5002"][1], issued["5002"][1])):
            refused = subprocess.run([server_bin, "--listen", "127.0.0.1:0", "--database", os.path.join(workdir, "refused.sqlite")],
                                     capture_output=True, text=True, timeout=30, env=dict(
                                         os.environ, INTERCOM_TLS_CERT_FILE=bad_cert, INTERCOM_TLS_KEY_FILE=bad_key))
            lines = refused.stderr.strip().splitlines()
            checks.check(f"intercom-server refuses {label}: exit 1, one line naming the file",
                         refused.returncode == 1 and len(lines) == 1 and named in lines[0] and "listening" not in refused.stdout,
                         f"exit {refused.returncode}: {refused.stderr.strip()[:200]}")

        # The agent and the page use the name `localhost` (in the certificate next to IP:127.0.0.1): the agent's
        # WebSocket client (WSClient) sends the URL's host as SNI, which NIOSSL refuses for an IP address.
        port = free_port()
        base = f"https://localhost:{port}"
        server = LoggedProcess([server_bin, "--listen", f"127.0.0.1:{port}", "--database", os.path.join(workdir, "server.sqlite"),
                                "--log-level", "warning"], workdir, "server", env=dict(
            os.environ, INTERCOM_WEB_ROOT=WEB_ROOT, INTERCOM_RATE_LIMIT="off", INTERCOM_PUBLIC_URL=base,
            INTERCOM_TLS_CERT_FILE=cert, INTERCOM_TLS_KEY_FILE=key))
        listening = server.wait_line(r"listening on ([\d.]+):(\d+)", 30, stdout=True)
        if not checks.check("intercom-server starts with INTERCOM_TLS_CERT_FILE/INTERCOM_TLS_KEY_FILE", listening,
                            listening.group(0) if listening else " | ".join(server.tail(5))):
            return checks

        status, serial, body = tls_get(port, ca)
        checks.check("GET /parse/health over TLS, trusting the test CA: 200 and certificate serial 5001",
                     status.startswith("HTTP/1.1 200") and b'"ok"' in body and serial == "5001",
                     f"{status}, serial {serial}")
        plain = plain_get(port)
        checks.check("plain HTTP to the TLS port is not served", not plain.startswith(b"HTTP/"),
                     f"{len(plain)} byte(s) back, first {plain[:8]!r}")
        with urllib.request.urlopen(base + "/", timeout=10, context=ssl.create_default_context(cafile=ca)) as page:
            html = page.read()
        checks.check(f"the web caller's page is served at {base}/", page.status == 200 and b"<html" in html.lower(),
                     f"{page.status}, {len(html)} bytes")

        metrics_port = free_port()
        config = write_agent_config(os.path.join(workdir, "intercom.toml"), base, *DEVICE, os.path.join(workdir, "state"),
                                    metrics_port)
        with open(config, encoding="utf-8") as f:
            text = f.read()
        with open(config, "w", encoding="utf-8") as f:
            f.write(text.replace(f'server_url = "{base}/parse"\n', f'server_url = "{base}/parse"\nca_file = "{ca}"\n', 1))
        checked = subprocess.run([intercomd_bin, "check", "--config", config], capture_output=True, text=True,
                                 env=agent_environment(), timeout=30)
        checks.check("intercomd check accepts [backend] ca_file and names it", checked.returncode == 0 and ca in checked.stdout,
                     next((line.strip() for line in checked.stdout.splitlines() if "backend" in line),
                          (checked.stdout + checked.stderr).strip()[-200:]))
        agent = LoggedProcess([intercomd_bin, "run", "--config", config], workdir, "agent", env=agent_environment())
        ready = agent.wait_line(r"ready: (.*)", 40)
        device = agent.find(r"logged in to the backend userID=(\w+)")
        if not checks.check("intercomd run logs in over https:// trusting ca_file", ready and device,
                            " | ".join(agent.tail(5))):
            return checks
        device_id = device.group(1)
        subscribed = agent.wait_line(r"LiveQuery subscribed", 15)
        checks.check("intercomd subscribes to LiveQuery over wss:// trusting ca_file", subscribed,
                     subscribed.group(0) if subscribed else " | ".join(agent.tail(5)))

        driver = ChromeDriver(workdir)
        if not checks.check("chromedriver starts", driver.ready, driver.url):
            return checks
        browser = WebCallerBrowser(driver.url, os.path.join(workdir, "profile"), label="caller",
                                   extra_args=[PLAIN_IP_CANDIDATES, "--ignore-certificate-errors"], browser_log=True)
        browser.open(base + "/")
        loaded = wait_for(browser.loaded, 15)
        secure = browser.js("return [location.protocol, window.isSecureContext];") if loaded else None
        checks.check(f"Chromium loads the web caller from {base}/ as a secure context", secure == ["https:", True],
                     f"{secure}")
        user = browser.sign_in(*CALLER) if loaded else None
        if not checks.check("the caller signs in over https:// and wss://", user, f"userID {user}"):
            return checks
        since = agent.mark()
        callable_ = wait_callable(browser, device_id, 20)
        if checks.check("the device is listed as callable", callable_, browser.state()):
            browser.click(call_button(device_id))
        state = browser.wait_state("in-call", 25)
        frames = wait_for(lambda: (browser.stats() or {}).get("framesDecoded", 0) > 0, 15) if state == "in-call" else None
        checks.check("the call connects through wss:// signaling and the page decodes the device's video",
                     state == "in-call" and frames, f"state {state}, framesDecoded {(browser.stats() or {}).get('framesDecoded')}")
        time.sleep(2)
        browser.click("#hangup")
        browser.wait_state(ENDED, 10)
        media = agent.wait_line(r"call media ended.*", 15, since)
        heard = re.search(r"callerAudioPackets=(\d+)", media.group(0)) if media else None
        checks.check("the device received the caller's fake microphone", heard and int(heard.group(1)) > 0,
                     media.group(0) if media else "no 'call media ended' line")

        # Reload: new files in place, SIGHUP, and new connections see the new certificate; one opened before
        # keeps its own and is still served.
        kept = open_kept(port, ca)
        shutil.copy(issued["5002"][0], cert)
        shutil.copy(issued["5002"][1], key)
        server.process.send_signal(signal.SIGHUP)
        swapped = wait_for(lambda: served_serial(port, ca) == "5002", 10, 0.2)
        checks.check("after SIGHUP a new TLS connection sees the new certificate (serial 5002), no restart",
                     swapped and server.process.poll() is None and server.pid == server.process.pid,
                     f"serial {served_serial(port, ca)}, server {'running' if server.process.poll() is None else 'exited'}")
        kept_serial = kept.getpeercert()["serialNumber"].lower().lstrip("0")
        kept_status = kept_request(kept, port)
        kept.close()
        checks.check("a connection opened before the reload keeps serial 5001 and is still served",
                     kept_serial == "5001" and kept_status.startswith("HTTP/1.1 200"), f"serial {kept_serial}, {kept_status}")
        since = server.mark()
        with open(cert, "w", encoding="utf-8") as f:
            f.write("not a certificate\n")
        server.process.send_signal(signal.SIGHUP)
        failed = server.wait_line(r"TLS certificate reload failed.*", 10, since)
        checks.check("a failed reload logs an error naming the file", failed and cert in failed.group(0),
                     failed.group(0) if failed else " | ".join(server.tail(3)))
        status, serial, _ = tls_get(port, ca)
        checks.check("after the failed reload the server still serves serial 5002",
                     status.startswith("HTTP/1.1 200") and serial == "5002" and server.process.poll() is None,
                     f"{status}, serial {serial}")
        return checks
    except Exception as error:  # noqa: BLE001 - any escape is a failed check with its reason
        checks.check("the stage runs to its end", False, f"{type(error).__name__}: {error}")
        return checks
    finally:
        if browser:
            browser.quit()
        if driver:
            driver.stop()
        for process in (agent, server):
            if process:
                process.stop()
        keep_or_remove(workdir, "HTTPS_TEST_KEEP", checks.failed)


def main():
    server_bin, intercomd_bin = binary_arguments(__doc__.splitlines()[0])
    started = time.monotonic()
    checks = run(server_bin, intercomd_bin)
    log(f"{checks.passed} passed, {checks.failed} failed ({time.monotonic() - started:.0f} s)")
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
