"""kamailio on the loopback for the SIP tests (sip_test.py, baresip_test.py): a minimal config written by the
test, started in the foreground, killed with its children, its location table read with kamcmd.

The registrar challenges REGISTER (digest, `pv_www_authenticate` against one fixed password) and saves the
binding in usrloc (memory only: a restarted kamailio has forgotten every binding); OPTIONS to the registrar
itself is answered 200 (the agents' UDP keepalive). With `route_calls`, it is also a proxy: an INVITE to a
registered AOR is record-routed and relayed to its contact (`lookup("location")` + `t_relay()`), CANCEL follows
its transaction, and in-dialog requests (ACK, BYE) follow the Route set (`has_totag` + `loose_route`).
"""

import os
import signal
import socket
import subprocess

from calls import LoggedProcess
from prerequisites import find_tool
from webdriver import free_port, wait_for

KAMAILIO_MODULES = "/usr/lib/x86_64-linux-gnu/kamailio/modules/"


def free_udp_port():
    """A port free for both UDP and TCP on 127.0.0.1 (kamailio listens on both)."""
    while True:
        port = free_port()
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue


CALL_ROUTES = """
    if (has_totag()) {
        if (loose_route()) {
            xlog("L_NOTICE", "in-dialog $rm from $fu relayed along the route set to $ru\\n");
            t_relay();
            exit;
        }
        if (is_method("ACK")) { if (t_check_trans()) { t_relay(); } exit; }
        sl_send_reply("404", "Not here");
        exit;
    }
    if (is_method("CANCEL")) { if (t_check_trans()) { t_relay(); } exit; }
    if (is_method("INVITE")) {
        if (!lookup("location")) {
            xlog("L_NOTICE", "INVITE $ru from $fu: not registered\\n");
            sl_send_reply("404", "Not Found");
            exit;
        }
        record_route();
        xlog("L_NOTICE", "INVITE from $fu relayed to $ru\\n");
        if (!t_relay()) { sl_reply_error(); }
        exit;
    }
"""


def kamailio_config(workdir, port, password, route_calls=False, address="127.0.0.1"):
    return f"""#!KAMAILIO
debug=2
log_stderror=yes
children=2
tcp_children=1
listen=udp:{address}:{port}
listen=tcp:{address}:{port}
mpath="{KAMAILIO_MODULES}"
loadmodule "kex.so"
loadmodule "corex.so"
loadmodule "tm.so"
loadmodule "sl.so"
{'loadmodule "rr.so"' if route_calls else ''}
loadmodule "pv.so"
loadmodule "maxfwd.so"
loadmodule "textops.so"
loadmodule "siputils.so"
loadmodule "xlog.so"
loadmodule "usrloc.so"
loadmodule "registrar.so"
loadmodule "auth.so"
loadmodule "ctl.so"
modparam("ctl", "binrpc", "unix:{workdir}/kamailio.ctl")
modparam("usrloc", "db_mode", 0)
request_route {{
    if (!mf_process_maxfwd_header("10")) {{ sl_send_reply("483", "Too Many Hops"); exit; }}
{CALL_ROUTES if route_calls else ''}
    if (is_method("OPTIONS") && uri==myself && $rU==$null) {{ sl_send_reply("200", "Keepalive"); exit; }}
    if (is_method("REGISTER")) {{
        if (!pv_www_authenticate("$td", "{password}", "0")) {{
            xlog("L_NOTICE", "REGISTER challenged for $fu from $si:$sp\\n");
            www_challenge("$td", "0");
            exit;
        }}
        if (!save("location")) {{ sl_reply_error(); }}
        xlog("L_NOTICE", "REGISTER saved $tu contact $ct expires $hdr(Expires) over $pr\\n");
        exit;
    }}
    sl_send_reply("404", "Not here");
}}
"""


class Kamailio:
    """`address`: where it listens (netchange_test.py: inside a network namespace, which `prefix`, e.g.
    `ip netns exec NAME`, runs it in; kamcmd still reaches it through its unix socket)."""

    def __init__(self, workdir, port, password, route_calls=False, address="127.0.0.1", prefix=()):
        self.workdir, self.port, self.prefix = workdir, port, tuple(prefix)
        self.config = os.path.join(workdir, "kamailio.cfg")
        with open(self.config, "w", encoding="utf-8") as f:
            f.write(kamailio_config(workdir, port, password, route_calls, address))
        self.process = None
        self.starts = 0

    def start(self):
        self.starts += 1
        # -DD: stay in the foreground (children still forked), -E: log to stderr.
        self.process = LoggedProcess([*self.prefix, find_tool("kamailio"), "-f", self.config, "-DD", "-E", "-w", self.workdir],
                                     self.workdir, f"kamailio-{self.starts}")
        return wait_for(lambda: os.path.exists(os.path.join(self.workdir, "kamailio.ctl")) and self.dump() is not None, 10)

    def kill(self):
        """SIGKILL the main process and its children (by pid list: they do not have a process group of their own)."""
        children = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout.split()
        for pid in [self.process.pid] + [int(c) for c in children]:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.process.wait(5)
        self.process.stopped = True
        try:
            os.unlink(os.path.join(self.workdir, "kamailio.ctl"))
        except FileNotFoundError:
            pass

    def stop(self):
        if self.process and not self.process.stopped:
            self.kill()

    def dump(self):
        """`kamcmd ul.dump` text, or None when kamailio does not answer."""
        result = subprocess.run([find_tool("kamcmd"), "-s", f"unix:{self.workdir}/kamailio.ctl", "ul.dump"],
                                capture_output=True, text=True, timeout=5)
        return result.stdout if result.returncode == 0 else None
