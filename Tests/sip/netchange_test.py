#!/usr/bin/env python3
"""SIP registration that follows the network (issue #18 item 2): a real kernel, a real registrar.

Two network namespaces joined by a veth pair: `reg` (10.77.0.1, kamailio from Tests/sip/kamailio.py with
digest auth, listening on that address) and `dev` (10.77.0.2: intercom-server on its loopback and `intercomd
run` with `[sip]` registering with 10.77.0.1, one agent over UDP and one over TCP). Mid-run the device's address is replaced (10.77.0.3 added,
10.77.0.2 deleted), as a DHCP lease for another address or a move to another network would do.

Checks: (a) both agents register and kamailio's location table (`kamcmd ul.dump`) holds their contacts
10.77.0.2:<port>; (b) after the change the table holds 10.77.0.3:<port> within CHANGE_SECONDS and the old
contacts are gone (the new REGISTER removes them, expires=0), the TCP agent's over a new connection, and the
UDP agent logged the change once; (c) a SIPp OPTIONS
sent from the registrar's namespace to the new contact is answered 200 (the device is reachable where the
registrar now sends requests); (d) SIGINT stops the agent cleanly; (e) a second agent whose SIP port leaves
the device through a NAT (nftables `snat` of UDP from its port to 10.77.0.9:40000; kamailio stamps Via
`received`/`rport`, RFC 3581) registers the NAT's address: the table holds 10.77.0.9:40000 within
CHANGE_SECONDS and not the private contact, the agent logged `registrar sees us as 10.77.0.9:40000` once,
and kamailio saved at most 2 REGISTERs for it in the next 3 s (no rewrite loop).

Needs root (namespaces), `ip`, `nft`, kamailio (kamcmd) and sipp; a missing one is a FAIL naming it, never a skip.
Namespaces are `sipnc<pid>-reg`/`-dev`, deleted on exit (with whatever still runs in them) even on failure.
Usage: netchange_test.py [--server BIN] [--intercomd BIN]. Environment: SIP_KEEP=1 keeps the temporary directory.
"""

import atexit
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "support"))
sys.dont_write_bytecode = True
from calls import (LoggedProcess, agent_environment, binary_arguments, keep_or_remove,  # noqa: E402
                   start_intercom_server, write_agent_config)
from prerequisites import find_tool, missing_prerequisites  # noqa: E402
from webdriver import Checks, log, wait_for  # noqa: E402

sys.path.insert(0, HERE)
from kamailio import KAMAILIO_MODULES, Kamailio  # noqa: E402
from sip_test import OPTIONS_SCENARIO  # noqa: E402

PASSWORD = "s3cret-netchange"
REGISTRAR, OLD, NEW = "10.77.0.1", "10.77.0.2", "10.77.0.3"
REGISTRAR_PORT, SIP_PORT, TCP_AGENT_PORT, SIPP_PORT = 5060, 5070, 5071, 5080
# (e): the second agent's SIP port leaves the device through a source NAT to this public address and port.
NAT_PORT, PUBLIC, PUBLIC_PORT = 5072, "10.77.0.9", 40000
CHANGE_SECONDS = 5


class Namespaces:
    """`<prefix><pid>-reg` and `-dev` with a veth pair between them; `close` kills what runs there and deletes them."""

    def __init__(self, prefix="sipnc"):
        self.run_id = f"{prefix}{os.getpid()}"
        self.reg, self.dev = f"{self.run_id}-reg", f"{self.run_id}-dev"
        self.created = []
        atexit.register(self.close)

    @staticmethod
    def ip(*args, check=True):
        result = subprocess.run(["ip", *args], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"ip {' '.join(args)}: {result.stderr.strip()}")
        return result.stdout

    def build(self):
        for name in (self.reg, self.dev):
            self.ip("netns", "add", name)
            self.created.append(name)
            self.ip("-n", name, "link", "set", "lo", "up")
        self.ip("link", "add", "r0", "netns", self.reg, "type", "veth", "peer", "name", "d0", "netns", self.dev)
        self.ip("-n", self.reg, "addr", "add", f"{REGISTRAR}/24", "dev", "r0")
        self.ip("-n", self.dev, "addr", "add", f"{OLD}/24", "dev", "d0")
        self.ip("-n", self.reg, "link", "set", "r0", "up")
        self.ip("-n", self.dev, "link", "set", "d0", "up")
        # Deleting the primary address would take the new (secondary) one in the same subnet with it.
        subprocess.run([*self.prefix(self.dev), "sysctl", "-qw", "net.ipv4.conf.all.promote_secondaries=1",
                        "net.ipv4.conf.d0.promote_secondaries=1"], check=True, capture_output=True)

    def prefix(self, name):
        return ("ip", "netns", "exec", name)

    def close(self):
        for name in reversed(self.created):
            for pid in self.ip("netns", "pids", name, check=False).split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            self.ip("netns", "delete", name, check=False)
        self.created = []

    def leftovers(self):
        return [line.split()[0] for line in self.ip("netns", "list", check=False).splitlines()
                if line.startswith(self.run_id + "-")]


def contacts(dump, user):
    """The contact addresses (`host:port`) of `user`'s AOR in `kamcmd ul.dump` text."""
    return re.findall(rf"Address: sip:{re.escape(user)}@([\d.]+:\d+)", dump or "")


class Run(Checks):
    def __init__(self, server_bin, intercomd_bin):
        super().__init__()
        self.server_bin, self.intercomd_bin = server_bin, intercomd_bin
        self.workdir = tempfile.mkdtemp(prefix="intercom-sip-netchange-")

    def run(self):
        missing = missing_prerequisites(
            binaries=(("intercomd", self.intercomd_bin), ("intercom-server", self.server_bin)),
            tools=(("ip", "iproute2"), ("nft", "nftables"), ("kamailio", "kamailio"), ("kamcmd", "kamailio"), ("sipp", "sip-tester")),
            root_for="network namespaces")
        for problem in missing:
            self.check("prerequisites", False, problem)
        if missing:
            return self
        if not os.path.isdir(KAMAILIO_MODULES):
            self.check("kamailio's modules are installed", False, f"no {KAMAILIO_MODULES} (apt-get install kamailio)")
            return self
        namespaces = Namespaces()
        processes = []
        try:
            namespaces.build()
            self.scenario(namespaces, processes)
        except RuntimeError as error:
            self.check("the namespaces and the veth pair are set up", False, str(error))
        finally:
            for process in reversed(processes):
                process.stop()
            namespaces.close()
            left = namespaces.leftovers()
            self.check("teardown: no namespace of this run is left", not left, ", ".join(left) or "none left")
            keep_or_remove(self.workdir, "SIP_KEEP", self.failed > 0)
        return self

    def scenario(self, namespaces, processes):
        reg, dev = namespaces.prefix(namespaces.reg), namespaces.prefix(namespaces.dev)
        kamailio = Kamailio(self.workdir, REGISTRAR_PORT, PASSWORD, address=REGISTRAR, prefix=reg)
        processes.append(kamailio)
        up = kamailio.start()
        if not self.check("kamailio is up in the registrar's namespace (kamcmd answers)", up,
                          f"{REGISTRAR}:{REGISTRAR_PORT}" + ("" if up else "; " + " | ".join(kamailio.process.tail(5)))):
            return
        server, base, detail = start_intercom_server(self.server_bin, self.workdir, prefix=dev)
        processes.append(server)
        if not self.check("intercom-server is up in the device's namespace", base, detail):
            return
        password_file = os.path.join(self.workdir, "gate.password")
        with open(password_file, "w", encoding="utf-8") as f:
            f.write(PASSWORD + "\n")
        self.base, self.dev_prefix, self.password_file = base, dev, password_file
        agent = self.agent("gate-nc", SIP_PORT, 9464)
        tcp = self.agent("gate-tcp", TCP_AGENT_PORT, 9466, 'transport = "tcp"\n')
        processes += [agent, tcp]

        # (a) registered from the first address
        old_contact, new_contact = f"{OLD}:{SIP_PORT}", f"{NEW}:{SIP_PORT}"
        old_tcp, new_tcp = f"{OLD}:{TCP_AGENT_PORT}", f"{NEW}:{TCP_AGENT_PORT}"
        started = time.monotonic()
        dump = wait_for(lambda: (lambda d: d if old_contact in contacts(d, "gate-nc") and old_tcp in contacts(d, "gate-tcp")
                                 else None)(kamailio.dump()), 20, 0.2)
        self.check(f"(a) both agents (UDP, TCP) register from {OLD}: kamailio's table holds {old_contact} and {old_tcp}",
                   dump, f"{time.monotonic() - started:.1f} s; contacts {contacts(dump or kamailio.dump(), 'gate-nc')} "
                   f"{contacts(dump or kamailio.dump(), 'gate-tcp')}" + ("" if dump else " | " + " | ".join(agent.tail(5))))
        if not dump:
            return

        # (b) the address replaced: new added, old deleted (what a new DHCP lease does)
        mark = agent.mark()
        namespaces.ip("-n", namespaces.dev, "addr", "add", f"{NEW}/24", "dev", "d0")
        namespaces.ip("-n", namespaces.dev, "addr", "del", f"{OLD}/24", "dev", "d0")
        changed = time.monotonic()
        dump = wait_for(lambda: (lambda d: d if new_contact in contacts(d, "gate-nc") else None)(kamailio.dump()),
                        CHANGE_SECONDS, 0.1)
        took = time.monotonic() - changed
        found = contacts(dump or kamailio.dump(), "gate-nc")
        self.check(f"(b) {OLD} replaced by {NEW}: kamailio's table holds the new contact {new_contact} within "
                   f"{CHANGE_SECONDS} s, the old one removed",
                   dump and old_contact not in found, f"{took:.2f} s; contacts {found}"
                   + ("" if dump else " | " + " | ".join(agent.tail(6))))
        dump = wait_for(lambda: (lambda d: d if new_tcp in contacts(d, "gate-tcp") else None)(kamailio.dump()),
                        max(0.1, CHANGE_SECONDS - (time.monotonic() - changed)), 0.1)
        took = time.monotonic() - changed
        found = contacts(dump or kamailio.dump(), "gate-tcp")
        self.check(f"(b) over TCP (a new connection from {NEW}): the table holds {new_tcp} within {CHANGE_SECONDS} s, "
                   f"not the old one", dump and old_tcp not in found, f"{took:.2f} s; contacts {found}"
                   + ("" if dump else " | " + " | ".join(tcp.tail(6))))
        lines = agent.find_all(r"SIP: the address toward the registrar changed.*", since=mark)
        self.check("(b) the agent logged the change once (notice), from the old address to the new one",
                   len(lines) == 1 and OLD in lines[0].group(0) and NEW in lines[0].group(0),
                   f"{len(lines)} line(s): {lines[0].group(0)[:200] if lines else ' | '.join(agent.tail(4))}")

        # (c) reachable at the new contact from the registrar's side
        scenario = os.path.join(self.workdir, "options.xml")
        with open(scenario, "w", encoding="utf-8") as f:
            f.write(OPTIONS_SCENARIO)
        sipp = subprocess.run([*reg, find_tool("sipp"), new_contact, "-sf", scenario, "-m", "1", "-i", REGISTRAR,
                               "-p", str(SIPP_PORT), "-timeout", "10s", "-timeout_error", "-nostdin",
                               "-trace_err", "-error_file", os.path.join(self.workdir, "sipp-errors.log")],
                              capture_output=True, text=True, timeout=20, cwd=self.workdir)
        self.check(f"(c) a SIPp OPTIONS from the registrar's namespace to the new contact {new_contact} is answered 200",
                   sipp.returncode == 0,
                   f"sipp exit {sipp.returncode}" + ("" if sipp.returncode == 0 else ": " + (sipp.stderr or sipp.stdout)[-300:]))

        # (d) a clean stop
        result = agent.stop()
        self.check("(d) SIGINT stops the agent (exit 0)", result and result[0], result[1] if result else "")

        tcp.stop()
        self.behind_nat(kamailio, dev, processes)

    def agent(self, user, port, metrics_port, extra=""):
        """`intercomd run` in the device's namespace registering `user` from SIP port `port`."""
        config = write_agent_config(
            os.path.join(self.workdir, f"{user}.toml"), self.base, f"SIP {user}", 52.52, 13.405,
            os.path.join(self.workdir, f"state-{user}"), metrics_port,
            extra=f'\n[sip]\nregistrar = "{REGISTRAR}:{REGISTRAR_PORT}"\nuser = "{user}"\n'
                  f'password_file = "{self.password_file}"\nport = {port}\nregister_expiry = "300s"\n{extra}')
        return LoggedProcess([*self.dev_prefix, self.intercomd_bin, "run", "--config", config], self.workdir,
                             f"agent-{user}", env=agent_environment())

    def behind_nat(self, kamailio, dev, processes):
        """(e) A NAT between the device and the registrar: the agent registers the address the registrar saw."""
        steps = [["ip", "addr", "add", f"{PUBLIC}/24", "dev", "d0"],
                 ["nft", "add", "table", "ip", "nat"],
                 ["nft", "add", "chain", "ip", "nat", "post", "{ type nat hook postrouting priority 100 ; }"],
                 ["nft", "add", "rule", "ip", "nat", "post", "udp", "sport", str(NAT_PORT), "ip", "daddr", REGISTRAR,
                  "snat", "to", f"{PUBLIC}:{PUBLIC_PORT}"]]
        for step in steps:
            result = subprocess.run([*dev, *step], capture_output=True, text=True)
            if result.returncode != 0:
                self.check("(e) the NAT is set up in the device's namespace", False, f"{' '.join(step)}: {result.stderr.strip()}")
                return
        mark = kamailio.process.mark()
        agent = self.agent("gate-nat", NAT_PORT, 9465)
        processes.append(agent)
        public, private = f"{PUBLIC}:{PUBLIC_PORT}", f"{NEW}:{NAT_PORT}"
        started = time.monotonic()
        dump = wait_for(lambda: (lambda d: d if public in contacts(d, "gate-nat") else None)(kamailio.dump()),
                        CHANGE_SECONDS + 10, 0.1)
        took = time.monotonic() - started
        found = contacts(dump or kamailio.dump(), "gate-nat")
        self.check(f"(e) behind the NAT: kamailio's table holds the NAT's address {public} (from Via received/rport), "
                   f"not the private {private}",
                   dump and private not in found, f"{took:.2f} s after the start; contacts {found}"
                   + ("" if dump else " | " + " | ".join(agent.tail(6))))
        time.sleep(3)
        lines = agent.find_all(r"SIP registrar sees us as (\S+);.*")
        saved = kamailio.process.find_all(r"REGISTER saved sip:gate-nat@", since=mark)
        self.check("(e) the agent logged 'registrar sees us as' once, and kamailio saved at most 2 REGISTERs (no loop)",
                   len(lines) == 1 and lines[0].group(1) == public and 1 <= len(saved) <= 2,
                   f"{len(lines)} line(s) {[m.group(1) for m in lines]}; {len(saved)} REGISTER(s) saved")
        result = agent.stop()
        self.check("(e) SIGINT stops the agent behind the NAT (exit 0)", result and result[0], result[1] if result else "")


def main():
    server, intercomd = binary_arguments(__doc__.split("\n")[0])
    log(f"sip netchange: intercomd run re-registers when its address changes; command: {' '.join(sys.argv)}")
    checks = Run(server, intercomd).run()
    log(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
