#!/usr/bin/env python3
"""MQTT with Home Assistant discovery: `intercomd demo --mqtt` against a real mosquitto started here.

Starts mosquitto on a free loopback port (password authentication, no persistence, so a restarted broker has forgotten every
retained message) and `intercomd demo --mqtt mqtt://127.0.0.1:<port> --mqtt-username … --mqtt-password-file …`
(intercom-server as its child, simulated
GPIO with the door relay on line DOOR, `call.allow_door_open = true`). `mosquitto_sub -t '#'` records every message
with its retain flag. Then `intercomd call` ("Visitor Ada", a second device stack) calls the demo for CALL_SECONDS.

Checks: (a) the retained discovery configs carry Home Assistant's schema fields (unique_id, name, availability,
device.identifiers, state_topic or command_topic; event_types for the event, payload_press for the button,
device_class where the entity has one) and availability is `online`; (b) the ring event names the caller
(JSON with event_type "ring"), a text message sent into the call (`intercomd call --message`) is the
message event with its text and sender, in_call goes ON, the ring's snapshot arrives on the image topic as a JPEG; (c) PRESS on the button's command topic pulses the simulated relay
exactly once; (d) mosquitto killed (SIGKILL) for OUTAGE_SECONDS mid-call: the call goes on (intercomd call exits
0 after CALL_SECONDS with video decoded throughout, the demo logs it answered and ended by the caller's bye) and
after the broker returns the agent publishes availability `online` and the discovery configs again (the new broker
had none); (e) after the call in_call is OFF and last_outcome is `answered`.

Prints one PASS/FAIL line per check and `N passed, M failed`; a missing tool is a failure, never a skip.
Usage: mqtt_test.py [--server BIN] [--intercomd BIN]. Environment: MQTT_KEEP=1 keeps the temporary directory.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from calls import LoggedProcess, agent_environment, binary_arguments, keep_or_remove  # noqa: E402
from prerequisites import find_tool, missing_prerequisites  # noqa: E402
from webdriver import Checks, free_port, log, wait_for  # noqa: E402

DEVICE = {"title": "MQTT gate", "lat": 52.5200, "lon": 13.4050}
CALLER = {"title": "Visitor Ada", "lat": 52.5210, "lon": 13.4060}
CALL_SECONDS = 24
MESSAGE = "Parcel for you, \"Gate\""
OUTAGE_SECONDS = 10
PREFIX = "homeassistant"
USER, PASSWORD = "intercom", "s3cret-mqtt"
CREDENTIALS = ["-u", USER, "-P", PASSWORD]
COMMON_FIELDS = ("unique_id", "name", "availability_topic", "payload_available", "payload_not_available", "device")
# Per component: the fields Home Assistant's MQTT schema requires or this device promises.
COMPONENT_FIELDS = {
    "event": ("state_topic", "event_types"),
    "binary_sensor": ("state_topic", "payload_on", "payload_off", "device_class"),
    "sensor": ("state_topic",),
    "button": ("command_topic", "payload_press"),
    "image": ("image_topic", "content_type"),
}


tool = find_tool


class Broker:
    """mosquitto on 127.0.0.1:port with its own config and log."""

    def __init__(self, workdir, port):
        self.workdir, self.port = workdir, port
        self.config = os.path.join(workdir, "mosquitto.conf")
        # Password authentication, so the agent's CONNECT must carry USER and PASSWORD (§3.1.3.4–5). `user
        # root` keeps a broker started by root able to read the password file in the test's private directory.
        passwords = os.path.join(workdir, "mosquitto.passwd")
        subprocess.run([tool("mosquitto_passwd"), "-b", "-c", passwords, USER, PASSWORD], check=True, capture_output=True)
        with open(self.config, "w", encoding="utf-8") as f:
            f.write(f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {passwords}\n"
                    "persistence false\nuser root\n")
        self.process = None
        self.starts = 0

    def start(self):
        self.starts += 1
        self.process = LoggedProcess([tool("mosquitto"), "-c", self.config], self.workdir, f"mosquitto-{self.starts}")

        def listening():
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return True
            except OSError:
                return False
        return wait_for(listening, 10, 0.05)

    def kill(self):
        self.process.process.send_signal(signal.SIGKILL)
        self.process.process.wait(5)
        self.process.stopped = True


class Subscriber:
    """`mosquitto_sub -t '#'`: every message as (arrival time, retained, topic, payload bytes)."""

    def __init__(self, port, workdir, label):
        self.messages = []
        self.lock = threading.Lock()
        self.process = subprocess.Popen([tool("mosquitto_sub"), "-h", "127.0.0.1", "-p", str(port), *CREDENTIALS, "-t", "#", "-v",
                                         "-F", "%r %t %x"], stdout=subprocess.PIPE, stderr=open(
                                             os.path.join(workdir, f"{label}.stderr"), "w"), text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) < 2:
                continue
            payload = bytes.fromhex(parts[2]) if len(parts) == 3 else b""
            with self.lock:
                self.messages.append((time.monotonic(), parts[0] == "1", parts[1], payload))

    def find(self, predicate, since=0.0):
        with self.lock:
            return [m for m in self.messages if m[0] >= since and predicate(m)]

    def wait(self, predicate, timeout, since=0.0):
        return wait_for(lambda: (self.find(predicate, since) or [None])[0], timeout, 0.05)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def caller_config(workdir, base):
    state = os.path.join(workdir, "state-caller")
    os.makedirs(state, exist_ok=True)
    path = os.path.join(workdir, "caller.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'[identity]\ntitle = "{CALLER["title"]}"\nlatitude = {CALLER["lat"]}\nlongitude = {CALLER["lon"]}\n\n'
                f'[backend]\nserver_url = "{base}/parse"\n\n[video]\nsource = "testpattern"\n\n'
                f'[audio]\ncapture = "tone:880"\nplayback = "null"\n\n[metrics]\nlisten = "127.0.0.1:{free_port()}"\n\n'
                f'[state]\ndirectory = "{state}"\n')
    return path


def config_problems(topic, config):
    """What a discovery config lacks for Home Assistant, as a list of words (empty: fine)."""
    component = topic.split("/")[1]
    problems = [f"no {field}" for field in COMMON_FIELDS + COMPONENT_FIELDS.get(component, ()) if not config.get(field)]
    device = config.get("device") or {}
    if not device.get("identifiers"):
        problems.append("no device.identifiers")
    if topic.endswith("/ring/config") and ("ring" not in (config.get("event_types") or [])
                                           or config.get("device_class") != "doorbell"):
        problems.append("the ring event lacks event_types ring or device_class doorbell")
    if topic.endswith("/message/config") and "message" not in (config.get("event_types") or []):
        problems.append("event_types lacks message")
    return problems


class Run:
    def __init__(self, server_bin, intercomd_bin):
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.checks = Checks()
        self.workdir = tempfile.mkdtemp(prefix="intercom-mqtt-")
        self.processes, self.subscribers = [], []
        self.broker = None

    def check(self, name, ok, detail=""):
        return self.checks.check(name, ok, detail)

    def prerequisites(self):
        problems = missing_prerequisites(
            binaries=(("intercom-server", self.server_bin), ("intercomd", self.intercomd_bin)),
            tools=(("mosquitto", "mosquitto"), ("mosquitto_passwd", "mosquitto"), ("mosquitto_sub", "mosquitto-clients"),
                   ("mosquitto_pub", "mosquitto-clients")))
        for problem in problems:
            self.check("prerequisites", False, problem)
        return not problems

    def run(self):
        if not self.prerequisites():
            return self.checks
        try:
            self.scenario()
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure, never a skip
            self.check("mqtt harness", False, f"{type(e).__name__}: {e}")
        finally:
            for subscriber in self.subscribers:
                subscriber.stop()
            for process in reversed(self.processes):
                process.stop()
            if self.broker and self.broker.process:
                self.broker.process.stop()
            keep_or_remove(self.workdir, "MQTT_KEEP", self.checks.failed)
        return self.checks

    def subscribe(self, label):
        subscriber = Subscriber(self.broker.port, self.workdir, label)
        self.subscribers.append(subscriber)
        return subscriber

    def discovery_configs(self, subscriber, timeout, since=0.0):
        """{topic: decoded config} of the retained discovery configs, once the ring event's has come."""
        wait_for(lambda: subscriber.find(lambda m: m[2].startswith(f"{PREFIX}/event/"), since), timeout, 0.05)
        time.sleep(0.5)  # the rest follow within milliseconds
        configs = {}
        for _, retained, topic, payload in subscriber.find(lambda m: m[2].startswith(PREFIX + "/"), since):
            try:
                configs[topic] = (retained, json.loads(payload))
            except ValueError:
                configs[topic] = (retained, {"undecodable": payload[:80].decode(errors="replace")})
        return configs

    def scenario(self):
        self.broker = Broker(self.workdir, free_port())
        if not self.check("mosquitto starts on a free loopback port", self.broker.start(),
                          " | ".join(self.broker.process.tail(5))):
            return
        anonymous = subprocess.run([tool("mosquitto_pub"), "-h", "127.0.0.1", "-p", str(self.broker.port), "-t", "x",
                                    "-m", "x"], capture_output=True, text=True)
        self.check("the broker refuses anonymous clients (the agent must log in with its password file)",
                   anonymous.returncode != 0, (anonymous.stderr or anonymous.stdout).strip())
        password_file = os.path.join(self.workdir, "mqtt.password")
        with open(password_file, "w", encoding="utf-8") as f:
            f.write(PASSWORD + "\n")
        watch = self.subscribe("sub-1")
        demo = LoggedProcess([self.intercomd_bin, "demo", "--port", str(free_port()), "--server", self.server_bin,
                              "--video", "test-pattern", "--title", DEVICE["title"], "--latitude", str(DEVICE["lat"]),
                              "--longitude", str(DEVICE["lon"]), "--directory", os.path.join(self.workdir, "demo"),
                              "--metrics", f"127.0.0.1:{free_port()}", "--mqtt", f"mqtt://127.0.0.1:{self.broker.port}",
                              "--mqtt-username", USER, "--mqtt-password-file", password_file],
                             self.workdir, "demo", env=agent_environment(), stdin=subprocess.DEVNULL)
        self.processes.append(demo)
        url = demo.wait_line(r"web caller:\s+http://127\.0\.0\.1:(\d+)/", 30, stdout=True)
        ready = demo.wait_line(r"ready: ", 30)
        if not self.check("intercomd demo --mqtt starts and is ready", url and ready, " | ".join(demo.tail(6))):
            return
        base = f"http://127.0.0.1:{url.group(1)}"

        # (a) discovery
        configs = self.discovery_configs(watch, 15)
        components = sorted({topic.split("/")[1] for topic in configs})
        bad = {topic: config_problems(topic, config) for topic, (_, config) in configs.items()}
        bad = {topic: problems for topic, problems in bad.items() if problems}
        # §3.3.1.3: a broker sets RETAIN only on what it sends a new subscription, so a late subscriber tells
        # which configs the broker kept.
        late = self.subscribe("sub-late")
        kept = self.discovery_configs(late, 5)
        not_retained = [topic for topic in configs if not kept.get(topic, (False, None))[0]]
        identifiers = {json.dumps(config.get("device", {}).get("identifiers")) for _, config in configs.values()}
        message_config = next((c for t, (_, c) in configs.items() if t.endswith("/message/config")), {})
        wanted = {"event", "binary_sensor", "button", "image", "sensor"}
        self.check("(a) retained discovery configs for events (ring, message), binary_sensor, button, image and sensors, each with "
                   "Home Assistant's fields (unique_id, name, availability, device.identifiers, state/command topic, "
                   "event_types, payload_press, device_class), one device",
                   wanted <= set(components) and not bad and not not_retained and len(identifiers) == 1
                   and len(configs) >= 7 and bool(message_config),
                   f"{len(configs)} configs: {', '.join(sorted(configs))}; problems {bad}; not retained {not_retained}")
        ring_config = next((c for t, (_, c) in configs.items() if t.endswith("/ring/config")), {})
        button_config = next((c for t, (_, c) in configs.items() if t.split("/")[1] == "button"), {})
        availability_topic = ring_config.get("availability_topic", "")
        online = late.wait(lambda m: m[2] == availability_topic and m[3] == b"online" and m[1], 5)
        self.check("(a) availability is online (retained), the will is offline",
                   online and ring_config.get("payload_not_available") == "offline", availability_topic)
        temperature = next((c for t, (_, c) in configs.items() if t.endswith("/cpu_temperature/config")), None)
        has_zone = any(os.path.exists(f"/sys/class/thermal/{z}/temp") for z in
                       (os.listdir("/sys/class/thermal") if os.path.isdir("/sys/class/thermal") else []))
        self.check("(a) a CPU temperature sensor (device_class temperature, °C) exactly where a thermal zone exists",
                   (temperature is not None) == has_zone and (temperature is None or (
                       temperature.get("device_class") == "temperature" and temperature.get("unit_of_measurement") == "°C")),
                   f"thermal zone: {has_zone}; config: {temperature}")

        # (b) a call rings
        mark = time.monotonic()
        call = LoggedProcess([self.intercomd_bin, "call", "--config", caller_config(self.workdir, base),
                              "--to", DEVICE["title"], "--seconds", str(CALL_SECONDS), "--message", MESSAGE],
                             self.workdir, "call",
                             env=agent_environment())
        self.processes.append(call)
        ring_topic = ring_config.get("state_topic", "")
        ring = watch.wait(lambda m: m[2] == ring_topic, 30, since=mark)
        event = json.loads(ring[3]) if ring else {}
        self.check("(b) the ring event carries event_type ring and the caller's name",
                   event.get("event_type") == "ring" and event.get("caller") == CALLER["title"],
                   f"{ring_topic}: {ring[3].decode(errors='replace') if ring else 'nothing within 30 s'}")
        in_call_topic = next((c.get("state_topic") for t, (_, c) in configs.items()
                              if t.split("/")[1] == "binary_sensor"), "")
        in_call = watch.wait(lambda m: m[2] == in_call_topic and m[3] == b"ON", 30, since=mark)
        self.check("(b) in_call turns ON", in_call, in_call_topic)

        message_topic = message_config.get("state_topic", "")
        sent = watch.wait(lambda m: m[2] == message_topic, 30, since=mark)
        try:
            fields = json.loads(sent[3]) if sent else {}
        except ValueError:
            fields = {"undecodable": sent[3][:80]}
        self.check("(b) a text message sent into the call (intercomd call --message) arrives as the message event "
                   "with the text and the sender's name, not retained",
                   fields.get("event_type") == "message" and fields.get("text") == MESSAGE
                   and fields.get("sender") == CALLER["title"] and not sent[1],
                   f"{message_topic}: {fields or 'nothing within 30 s'}")

        image_topic = next((c.get("image_topic") for t, (_, c) in configs.items() if t.split("/")[1] == "image"), "")
        snapshot = watch.wait(lambda m: m[2] == image_topic and m[3][:2] == b"\xff\xd8", 15, since=mark)
        self.check("(b) the ring's snapshot reaches the image entity's topic as a JPEG",
                   snapshot and snapshot[3][-2:] == b"\xff\xd9",
                   f"{image_topic}: {len(snapshot[3])} bytes" if snapshot else f"{image_topic}: no JPEG within 15 s")

        # (c) the door button
        door_mark = demo.mark()
        published = subprocess.run([tool("mosquitto_pub"), "-h", "127.0.0.1", "-p", str(self.broker.port), *CREDENTIALS, "-q", "1",
                                    "-t", button_config.get("command_topic", "missing"),
                                    "-m", button_config.get("payload_press", "missing")], capture_output=True, text=True)
        demo.wait_line(r"door relay released", 5, since=door_mark)
        time.sleep(0.5)
        pulses = demo.find_all(r"door relay energised", since=door_mark)
        self.check("(c) PRESS on the button's command topic pulses the simulated relay exactly once",
                   published.returncode == 0 and len(pulses) == 1,
                   f"mosquitto_pub exit {published.returncode} {published.stderr.strip()}; {len(pulses)} pulse(s): "
                   + " | ".join(demo.stderr(door_mark)[-4:]))

        # (d) the broker goes away mid-call
        self.broker.kill()
        killed = time.monotonic()
        time.sleep(OUTAGE_SECONDS)
        restarted = self.broker.start()
        back = time.monotonic()
        watch_again = self.subscribe("sub-2")
        online_again = watch_again.wait(lambda m: m[2] == availability_topic and m[3] == b"online", 20)
        self.check(f"(d) after {OUTAGE_SECONDS} s without mosquitto the agent re-publishes availability online",
                   restarted and online_again,
                   f"broker down {back - killed:.1f} s; online again {online_again[0] - back:.1f} s after it returned"
                   if online_again else "no online within 20 s: " + " | ".join(demo.tail(4)))
        republished = self.discovery_configs(watch_again, 5)
        self.check("(d) the discovery configs are published again to the restarted broker",
                   set(republished) == set(configs), f"{len(republished)} of {len(configs)}")
        disconnected = demo.find(r"MQTT disconnected.*", since=0)
        self.check("(d) the agent logged the outage once as a warning", disconnected,
                   disconnected.group(0)[:200] if disconnected else "no 'MQTT disconnected' line")

        try:
            code = call.process.wait(CALL_SECONDS + 40)
        except subprocess.TimeoutExpired:
            code = None
        call.stop()
        out = "\n".join(call.out)
        video = re.search(r"received video: (\d+) frames, (\d+)x(\d+) at ([\d.]+) fps", out)
        self.check(f"(d) the call is unaffected: intercomd call stays {CALL_SECONDS} s, decodes video throughout and "
                   "exits 0", code == 0 and video and int(video.group(1)) >= CALL_SECONDS * 15,
                   f"exit {code}; {video.group(0) if video else 'no received video line'}")
        outcome = demo.wait_line(rf"call incoming {re.escape(CALLER['title'])}: (.+?)(?= \w+=|$)", 15)
        self.check("(d) the demo logs the call answered and ended by the caller's bye",
                   outcome and outcome.group(1).startswith("answered") and "remoteBye" in outcome.group(1),
                   outcome.group(0) if outcome else "no outcome line: " + " | ".join(demo.tail(4)))

        # (e) after the call
        last_outcome_topic = next((c.get("state_topic") for t, (_, c) in configs.items()
                                   if t.endswith("/last_outcome/config")), "")
        off = watch_again.wait(lambda m: m[2] == in_call_topic and m[3] == b"OFF", 10, since=back)
        last = watch_again.wait(lambda m: m[2] == last_outcome_topic and m[3] == b"answered", 10, since=back)
        self.check("(e) after the call in_call is OFF and last_outcome is answered", off and last,
                   f"in_call OFF: {bool(off)}, last_outcome: {last[3] if last else None}")
        result = demo.stop()
        self.check("the demo stops cleanly on SIGINT", result and result[0], result[1] if result else "")
        offline = watch_again.wait(lambda m: m[2] == availability_topic and m[3] == b"offline", 5)
        self.check("availability is offline after the agent stops", offline, availability_topic)


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"mqtt: intercomd demo --mqtt against mosquitto; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
