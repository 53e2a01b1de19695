"""A small network of test hosts in Linux network namespaces (issue #20): device and caller each behind a NAT
router, backend and relay on a "public" segment. Standard library only; needs root, `ip` and `nft`.

    wan (bridge br0 203.0.113.1 fd00:99::1, the public segment; default gateway of the public hosts and
         routers, blackholing everything it is sent — the "internet" where private addresses go nowhere)
      ├── backend   203.0.113.10   fd00:99::10      (intercom-server)
      ├── relay     203.0.113.20   fd00:99::20      (coturn)
      ├── rdevice   203.0.113.2    fd00:99::2  ── lan0 192.168.1.1 fd00:1::1 ── device 192.168.1.2 fd00:1::2
      └── rcaller   203.0.113.3    fd00:99::3  ── lan0 192.168.2.1 fd00:2::1 ── caller 192.168.2.2 fd00:2::2

`Topology(prefix, family="ipv4"|"ipv6", nat={"device": "eim"|"symmetric", "caller": …}, shared_lan=False)`:
  - impaired: a host `imp` is spliced into the device's LAN cable (device eth0 — imp d0 … r0 — rdevice lan0);
    Tests/support/impairment.py forwards frames between its two ports with delay, jitter and burst loss.
  - shared_lan: the caller is on the device's LAN instead (192.168.1.3, fd00:1::3; rdevice's lan0 is a bridge
    with both on it), as a phone on the same Wi-Fi: multicast such as mDNS reaches from one to the other.
  - ipv4: the LANs are RFC 1918, the public segment TEST-NET-3; each router masquerades its LAN out of wan0
    (nftables `table ip nat`). "eim" is plain `masquerade` (Linux keeps the source port when it can: an
    endpoint-independent, port-preserving mapping; filtering is conntrack's, i.e. port-restricted — the
    "full-cone-like" NAT of a home router). "symmetric" is `masquerade fully-random`: every new 5-tuple gets a
    random source port, so the mapping a STUN server sees is useless for any other peer. Public hosts have
    no route into the LANs.
  - ipv6: no IPv4 address on any veth; ULA addresses (nodad), the routers forward v6 without NAT, the public
    hosts route the LANs through the routers. (lo keeps 127.0.0.1 in every namespace: the agent's metrics.)

Every interface is created inside the namespaces (`ip link add … netns A type veth peer … netns B`): nothing
appears in, or is routed through, the host's namespace. Namespaces are named `<prefix><pid>-<host>`; teardown
kills what still runs in them and deletes them (context manager, plus atexit); `Topology.clean_stale(prefix)`
removes the namespaces of earlier runs whose pid is gone (a crashed or SIGKILLed run).

Names: every namespace resolves `<host>.intercom.test` to the plan's address (/etc/netns/<ns>/hosts, removed
with the namespace) and nothing else (resolv.conf: 127.0.0.1, where no DNS server listens). Note: the agent cannot use an IPv6 literal URL (`http://[fd00:99::10]:8080/parse`): the
WebSocket client's URI parser (swift-websocket) splits the host at the first colon, so LiveQuery and signaling
fail; a name works.

Helpers: `exec_prefix(host)` (argv prefix to run a command in a host), `run(host, *argv)`, `address(host)`,
`socket_in(host, family, kind, proto)`: a socket created inside a host (e.g. AF_PACKET on `imp`'s ports),
`block(host, peer)` / `unblock(host)`: a partition — every packet between `host` and `peer` silently dropped
(nftables `drop`: no RST, no ICMP, established flows go half-open) at `host`'s router, or in `host` itself
for a public host; `blocked_packets(host)` counts what was dropped.
`forward(host, port)`: a TCP forwarder from 127.0.0.1:<free port> in the test's namespace to
127.0.0.1:<port> inside `host` (how the test reaches a chromedriver running in the caller's namespace), via
setns(2) on the forwarder's own threads.
"""

import atexit
import ctypes
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import threading
import time

CLONE_NEWNET = 0x40000000
HOSTS = ("wan", "backend", "relay", "rdevice", "rcaller", "device", "caller")
V4 = {"backend": "203.0.113.10", "relay": "203.0.113.20", "rdevice": "203.0.113.2", "rcaller": "203.0.113.3",
      "device": "192.168.1.2", "caller": "192.168.2.2"}
V6 = {"backend": "fd00:99::10", "relay": "fd00:99::20", "rdevice": "fd00:99::2", "rcaller": "fd00:99::3",
      "device": "fd00:1::2", "caller": "fd00:2::2"}
GATEWAY = {4: "203.0.113.1", 6: "fd00:99::1"}  # wan's bridge: the public hosts' default route, a blackhole
LANS = {"device": ("rdevice", "192.168.1", "fd00:1"), "caller": ("rcaller", "192.168.2", "fd00:2")}
SHARED_LAN_CALLER = ("192.168.1.3", "fd00:1::3")


class TopologyError(Exception):
    pass


def _ip(*args, check=True):
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise TopologyError(f"ip {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


def _namespaces():
    return [line.split()[0] for line in _ip("netns", "list", check=False).splitlines() if line.strip()]


def _kill_and_delete(name):
    """SIGKILLs what still runs in namespace `name` (processes a test started there), then deletes it."""
    for pid in _ip("netns", "pids", name, check=False).split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            pass
    _ip("netns", "delete", name, check=False)
    shutil.rmtree(f"/etc/netns/{name}", ignore_errors=True)


class Topology:
    def __init__(self, prefix, family="ipv4", nat=None, shared_lan=False, impaired=False):
        if not re.fullmatch(r"[a-z]{2,8}", prefix):
            raise ValueError("prefix: 2 to 8 lowercase letters")
        self.prefix, self.family, self.shared_lan = prefix, family, shared_lan
        # shared_lan: the caller sits on the device's LAN (one bridge in rdevice), as a phone on the same Wi-Fi.
        self.v4, self.v6 = dict(V4), dict(V6)
        if shared_lan:
            self.v4["caller"], self.v6["caller"] = SHARED_LAN_CALLER
        self.nat = {"device": "eim", "caller": "eim", **(nat or {})}
        self.run_id = f"{prefix}{os.getpid()}"
        # impaired: an `imp` host sits on the wire between the device and its router, two interfaces and no
        # address, where Tests/support/impairment.py delays and drops frames (the kernel here has no netem).
        self.impaired = impaired
        self.hosts = HOSTS + (("imp",) if impaired else ())
        self.names = {host: f"{self.run_id}-{host}" for host in self.hosts}
        self.created = []
        self._listeners = []
        atexit.register(self.close)

    # ---- lifecycle ----

    @staticmethod
    def clean_stale(prefix):
        """Deletes namespaces `<prefix><pid>-*` whose pid is no longer running; returns their names."""
        removed = []
        names = set(_namespaces()) | set(os.listdir("/etc/netns") if os.path.isdir("/etc/netns") else [])
        for name in sorted(names):
            match = re.fullmatch(rf"{re.escape(prefix)}(\d+)-\w+", name)
            if match and not os.path.exists(f"/proc/{match.group(1)}"):
                _kill_and_delete(name)
                removed.append(name)
        return removed

    def __enter__(self):
        try:
            self.build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        for listener in self._listeners:
            try:
                listener.close()
            except OSError:
                pass
        self._listeners = []
        for name in reversed(self.created):
            _kill_and_delete(name)
        self.created = []

    def leftovers(self):
        """Namespaces of this run still present (empty after close)."""
        return [n for n in _namespaces() if n.startswith(self.run_id + "-")] + [
            f"/etc/netns/{n}" for n in (os.listdir("/etc/netns") if os.path.isdir("/etc/netns") else [])
            if n.startswith(self.run_id + "-")]

    # ---- building ----

    def ns(self, host):
        return self.names[host]

    def exec_prefix(self, host):
        return ["ip", "netns", "exec", self.ns(host)]

    def run(self, host, *argv, check=True):
        result = subprocess.run([*self.exec_prefix(host), *argv], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise TopologyError(f"[{host}] {' '.join(argv)}: {(result.stderr or result.stdout).strip()}")
        return result.stdout

    def address(self, host):
        return (self.v6 if self.family == "ipv6" else self.v4)[host]

    def _veth(self, a, a_if, b, b_if):
        _ip("link", "add", a_if, "netns", self.ns(a), "type", "veth", "peer", "name", b_if, "netns", self.ns(b))

    def _addr(self, host, ifname, v4, v6):
        if self.family == "ipv6":
            self.run(host, "ip", "-6", "addr", "add", v6, "dev", ifname, "nodad")
        else:
            self.run(host, "ip", "addr", "add", v4, "dev", ifname)
        self.run(host, "ip", "link", "set", ifname, "up")

    def hostname(self, host):
        """`<host>.intercom.test`: every namespace resolves these names through /etc/netns/<ns>/hosts (which
        `ip netns exec` mounts over /etc/hosts) to this plan's addresses."""
        return f"{host}.intercom.test"

    def _hosts_files(self):
        plan = self.v6 if self.family == "ipv6" else self.v4
        lines = "127.0.0.1 localhost\n::1 localhost ip6-localhost\n" + "".join(
            f"{address} {self.hostname(host)}\n" for host, address in plan.items())
        for host in self.hosts:
            directory = f"/etc/netns/{self.ns(host)}"
            os.makedirs(directory, exist_ok=True)
            with open(os.path.join(directory, "hosts"), "w", encoding="utf-8") as f:
                f.write(lines)
            # No DNS server reachable: queries for other names fail at once (port unreachable on the
            # namespace's lo) instead of timing out into the blackhole (Chromium took ~25 s to open a page).
            with open(os.path.join(directory, "resolv.conf"), "w", encoding="utf-8") as f:
                f.write("nameserver 127.0.0.1\n")

    def build(self):
        for host in self.hosts:
            _ip("netns", "add", self.ns(host))
            self.created.append(self.ns(host))
            if host == self.hosts[-1]:
                self._hosts_files()
            self.run(host, "ip", "link", "set", "lo", "up")
            # No IPv6 autoconfiguration from router advertisements: the address plan is exactly the one above.
            # …and no duplicate address detection (link-local addresses usable at once).
            self.run(host, "sysctl", "-qw", "net.ipv6.conf.all.accept_ra=0", "net.ipv6.conf.default.accept_ra=0",
                     "net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0")
        self.run("wan", "ip", "link", "add", "br0", "type", "bridge")
        self.run("wan", "ip", "link", "set", "br0", "up")
        # The "internet" beyond the public segment: wan's bridge is every public host's default gateway and
        # silently discards what it is sent (blackhole, forwarding off), as datagrams to private addresses
        # vanish on the real internet. Without a default route, coturn's send to a peer's private host
        # candidate fails with ENETUNREACH on its socket and coturn closes the whole allocation.
        self._addr("wan", "br0", f"{GATEWAY[4]}/24", f"{GATEWAY[6]}/64")
        self.run("wan", "ip", "route", "add", "blackhole", "default")
        self.run("wan", "ip", "-6", "route", "add", "blackhole", "default")
        for host in ("backend", "relay", "rdevice", "rcaller"):
            port = f"p-{host}"
            wan_if = "eth0" if host in ("backend", "relay") else "wan0"
            self._veth("wan", port, host, wan_if)
            self.run("wan", "ip", "link", "set", port, "master", "br0")
            self.run("wan", "ip", "link", "set", port, "up")
            self._addr(host, wan_if, f"{V4[host]}/24", f"{V6[host]}/64")
            if self.family == "ipv6":
                self.run(host, "ip", "-6", "route", "add", "default", "via", GATEWAY[6])
            else:
                self.run(host, "ip", "route", "add", "default", "via", GATEWAY[4])
        lans = {"device": LANS["device"]} if self.shared_lan else LANS
        for lan_host, (router, v4net, v6net) in lans.items():
            members = ("device", "caller") if self.shared_lan else (lan_host,)
            if self.shared_lan:
                # One segment for both: a bridge in the router, each host on a port of it (multicast, e.g.
                # mDNS, reaches every host on the segment as on a home LAN).
                self.run(router, "ip", "link", "add", "lan0", "type", "bridge")
                for member in members:
                    self._veth(router, f"p-{member}", member, "eth0")
                    self.run(router, "ip", "link", "set", f"p-{member}", "master", "lan0")
                    self.run(router, "ip", "link", "set", f"p-{member}", "up")
            elif self.impaired and lan_host == "device":
                self._veth(router, "lan0", "imp", "r0")
                self._veth("imp", "d0", lan_host, "eth0")
                # A wire, not a host: no addresses, no IPv6 of its own, frames to any MAC taken in.
                self.run("imp", "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
                for ifname in ("r0", "d0"):
                    self.run("imp", "ip", "link", "set", ifname, "promisc", "on", "up")
                # Frames a packet socket copies from one port to the other must be finished: checksums computed
                # (veth leaves them to an offload that never happens) and no GRO/GSO super-frames above the MTU.
                for host, ifname in (("imp", "r0"), ("imp", "d0"), (router, "lan0"), (lan_host, "eth0")):
                    self.run(host, "ethtool", "-K", ifname, "tx", "off", "tso", "off", "gso", "off", "gro", "off")
            else:
                self._veth(router, "lan0", lan_host, "eth0")
            self._addr(router, "lan0", f"{v4net}.1/24", f"{v6net}::1/64")
            for member in members:
                self._addr(member, "eth0", f"{self.v4[member]}/24", f"{self.v6[member]}/64")
            self.run(router, "sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")
            if self.family == "ipv6":
                for member in members:
                    self.run(member, "ip", "-6", "route", "add", "default", "via", f"{v6net}::1")
                for public in ("backend", "relay", "rdevice" if router == "rcaller" else "rcaller"):
                    self.run(public, "ip", "-6", "route", "add", f"{v6net}::/64", "via", V6[router])
            else:
                for member in members:
                    self.run(member, "ip", "route", "add", "default", "via", f"{v4net}.1")
                how = "masquerade fully-random" if self.nat[lan_host] == "symmetric" else "masquerade"
                self.run(router, "nft", f"add table ip nat; add chain ip nat postrouting "
                                        f"{{ type nat hook postrouting priority srcnat; policy accept; }}; "
                                        f"add rule ip nat postrouting oifname \"wan0\" counter {how}")
                # Like a home router's firewall: unsolicited datagrams from the outside are dropped before their
                # conntrack entry is confirmed. Without this, a peer's early connectivity check to the router's
                # public port would leave a conntrack entry that makes masquerade pick another port for the
                # LAN host's own packets to that peer (the "eim" NAT would behave like a symmetric one).
                self.run(router, "nft", "add table inet fw; add chain inet fw input { type filter hook input "
                                        "priority filter; policy accept; }; add rule inet fw input iifname \"wan0\" "
                                        "ct state new counter drop; add chain inet fw forward { type filter hook "
                                        "forward priority filter; policy accept; }; add rule inet fw forward "
                                        "iifname \"wan0\" ct state new counter drop")
        return self

    def describe(self):
        if self.shared_lan and self.family != "ipv6":
            return (f"IPv4: device {self.v4['device']} and caller {self.v4['caller']} on one LAN behind "
                    f"{self.nat['device']} NAT {V4['rdevice']}, backend {V4['backend']}, relay {V4['relay']}; "
                    f"namespaces {self.run_id}-*")
        if self.family == "ipv6":
            return (f"IPv6 only: device {V6['device']} and caller {V6['caller']} routed (no NAT) to backend "
                    f"{V6['backend']}, relay {V6['relay']}; namespaces {self.run_id}-*")
        return (f"IPv4: device {V4['device']} behind {self.nat['device']} NAT {V4['rdevice']}, caller "
                f"{V4['caller']} behind {self.nat['caller']} NAT {V4['rcaller']}, backend {V4['backend']}, "
                f"relay {V4['relay']}; namespaces {self.run_id}-*")

    def nat_packets(self, router):
        """Packets the router's masquerade rule counted (new NAT mappings), or None."""
        try:
            text = self.run(router, "nft", "list", "table", "ip", "nat")
        except TopologyError:
            return None
        match = re.search(r"counter packets (\d+)", text)
        return int(match.group(1)) if match else None

    # ---- partitions ----

    def _filter_host(self, host):
        return LANS[host][0] if host in LANS else host

    def block(self, host, peer):
        """Silently drops every packet between `host` and `peer` (both directions) until `unblock(host)`: at
        `host`'s router (forward hook) for a LAN host, so only this pair is cut and the LAN host gets no error
        (no RST, no ICMP: its established connections go half-open); in `host` itself (input and output hooks)
        for a public one."""
        where = self._filter_host(host)
        family = "ip6" if ":" in self.address(peer) else "ip"
        hooks = ("forward",) if where != host else ("input", "output")
        script = "add table inet partition; " + "".join(
            f"add chain inet partition {hook} {{ type filter hook {hook} priority filter - 10; policy accept; }}; "
            f"add rule inet partition {hook} {family} saddr {self.address(peer)} counter drop; "
            f"add rule inet partition {hook} {family} daddr {self.address(peer)} counter drop; " for hook in hooks)
        self.run(where, "nft", script.rstrip("; "))

    def blocked_packets(self, host):
        """Packets the partition of `host` dropped so far (0 when there is none)."""
        text = self.run(self._filter_host(host), "nft", "list", "table", "inet", "partition", check=False)
        return sum(int(n) for n in re.findall(r"counter packets (\d+)", text))

    def unblock(self, host):
        """Heals `block(host, …)`: deletes the partition table (conntrack kept: flows resume where they were)."""
        self.run(self._filter_host(host), "nft", "delete table inet partition", check=False)

    # ---- reaching a port inside a namespace ----

    def socket_in(self, host, family=socket.AF_INET, kind=socket.SOCK_STREAM, proto=0):
        """A socket created in `host`'s network namespace (on a short-lived thread that joins it)."""
        box = {}

        def make():
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                with open(f"/run/netns/{self.ns(host)}") as f:
                    if libc.setns(f.fileno(), CLONE_NEWNET) != 0:
                        raise OSError(ctypes.get_errno(), "setns")
                box["socket"] = socket.socket(family, kind, proto)
            except Exception as e:  # noqa: BLE001 - handed to the caller
                box["error"] = e

        thread = threading.Thread(target=make)
        thread.start()
        thread.join()
        if "error" in box:
            raise box["error"]
        return box["socket"]

    def forward(self, host, port):
        """Forwards 127.0.0.1:<free port> here to 127.0.0.1:`port` in `host`; returns the local URL."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        self._listeners.append(listener)

        def pump(a, b):
            try:
                while True:
                    ready, _, _ = select.select([a, b], [], [], 60)
                    if not ready:
                        continue
                    for s in ready:
                        data = s.recv(65536)
                        if not data:
                            return
                        (b if s is a else a).sendall(data)
            except OSError:
                pass
            finally:
                a.close()
                b.close()

        def accept():
            while True:
                try:
                    client, _ = listener.accept()
                except OSError:
                    return
                try:
                    upstream = self.socket_in(host)
                    upstream.connect(("127.0.0.1", port))
                except OSError:
                    client.close()
                    continue
                threading.Thread(target=pump, args=(client, upstream), daemon=True).start()

        threading.Thread(target=accept, daemon=True).start()
        return f"http://127.0.0.1:{listener.getsockname()[1]}"


def missing_tools():
    """Prerequisite messages (empty when the topology can be built)."""
    missing = []
    if os.geteuid() != 0:
        missing.append("not root: network namespaces and nftables need CAP_NET_ADMIN / CAP_SYS_ADMIN")
    for tool, package in (("ip", "iproute2"), ("nft", "nftables"), ("ethtool", "ethtool")):
        if not any(os.access(os.path.join(d, tool), os.X_OK) for d in os.environ.get("PATH", "").split(":") + ["/usr/sbin", "/sbin"]):
            missing.append(f"{tool} not found (apt-get install {package})")
    return missing


def reachable(topology, host, address, port=9, timeout=2):
    """A TCP connect from `host` to address:port answered (refused counts: a host replied), as text."""
    code = ("import socket,sys;s=socket.socket(socket.AF_INET6 if ':' in sys.argv[1] else socket.AF_INET);"
            "s.settimeout(float(sys.argv[3]));print(s.connect_ex((sys.argv[1],int(sys.argv[2]))))")
    out = topology.run(host, "python3", "-c", code, address, str(port), str(timeout), check=False).strip()
    return out in ("0", "111")


if __name__ == "__main__":  # a smoke test: build both plans, connect across, tear down
    for family in ("ipv4", "ipv6"):
        with Topology("topo", family) as t:
            print(t.describe())
            print("  device→backend:", reachable(t, "device", t.address("backend")),
                  " backend→device (False under NAT):", reachable(t, "backend", t.address("device"), timeout=1),
                  " caller→relay:", reachable(t, "caller", t.address("relay")))
    print("leftovers:", [n for n in _namespaces() if n.startswith("topo")])
