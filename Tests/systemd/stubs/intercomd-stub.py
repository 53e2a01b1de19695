#!/usr/bin/python3
# Stand-in for /usr/local/bin/intercomd inside boot-smoke.sh: it runs under the real
# systemd/intercomd.service sandbox, reports what that sandbox allows as "SMOKE ok|FAIL <what>"
# lines (journald), then speaks the sd_notify protocol the agent will speak (design §9):
# READY=1, WATCHDOG=1 from the main loop, STOPPING=1 on SIGTERM.
# Control files (written by the test): /run/intercom-test/crash = exit 1 before READY,
# /run/intercom-test/hang = stop sending WATCHDOG=1.
import errno, mmap, os, signal, socket, sys, time

CONTROL = "/run/intercom-test"


def report(name, ok, detail=""):
    print(f"SMOKE {'ok' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


def fails_with(call, *errnos):
    try:
        call()
    except OSError as error:
        return error.errno in errnos, errno.errorcode.get(error.errno, str(error.errno))
    return False, "succeeded"


def notify(message):
    address = os.environ["NOTIFY_SOCKET"]
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.sendto(message.encode(), address)


def status_field(name):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(name + ":"):
                return line.split(":", 1)[1].strip()
    return None


if os.path.exists(f"{CONTROL}/crash"):
    print("SMOKE crash requested: exiting 1 before READY=1", flush=True)
    sys.exit(1)

report("argv", sys.argv[1:] == ["run", "--config", "/etc/intercom/intercom.toml"], repr(sys.argv[1:]))
report("NOTIFY_SOCKET set", "NOTIFY_SOCKET" in os.environ)
report("WATCHDOG_USEC set", "WATCHDOG_USEC" in os.environ, os.environ.get("WATCHDOG_USEC", ""))

credentials = os.environ.get("CREDENTIALS_DIRECTORY", "")
try:
    with open(os.path.join(credentials, "backend.password"), "rb") as secret:
        print(f"SMOKE password={secret.read()!r}", flush=True)
except OSError as error:
    report("credential backend.password readable", False, str(error))

state = os.environ.get("STATE_DIRECTORY", "")
report("STATE_DIRECTORY", state == "/var/lib/intercom", state)
try:
    path = os.path.join(state, "identity.tmp")
    with open(path, "wb") as handle:
        handle.write(b"x")
        os.fsync(handle.fileno())
    os.rename(path, os.path.join(state, "identity"))
    mode = os.stat(os.path.join(state, "identity")).st_mode & 0o777
    report("state file written with UMask=0077", mode == 0o600, oct(mode))
    report("state directory mode 0700", os.stat(state).st_mode & 0o777 == 0o700, oct(os.stat(state).st_mode & 0o777))
except OSError as error:
    report("state directory writable", False, str(error))

report("CONFIGURATION_DIRECTORY", os.environ.get("CONFIGURATION_DIRECTORY") == "/etc/intercom")
report("config readable", os.access("/etc/intercom/intercom.toml", os.R_OK))
ok, why = fails_with(lambda: open("/etc/intercom/written-by-service", "wb"), errno.EROFS, errno.EACCES)
report("/etc/intercom read-only", ok, why)
ok, why = fails_with(lambda: os.listdir("/etc/intercom/secrets"), errno.EACCES)
report("/etc/intercom/secrets unreadable", ok, why)
ok, why = fails_with(lambda: open("/usr/local/written-by-service", "wb"), errno.EROFS, errno.EACCES)
report("/usr read-only (ProtectSystem=strict)", ok, why)
# boot-smoke.sh leaves a world-readable /home/intercom-test/visible: ProtectHome=yes hides it.
report("/home hidden (ProtectHome=yes)", not os.path.exists("/home/intercom-test/visible"))
report("/proc/1 invisible (ProtectProc=invisible)", not os.path.exists("/proc/1/cmdline"))
report("/proc/cpuinfo readable (no ProcSubset=pid)", os.access("/proc/cpuinfo", os.R_OK))

for group in ("video", "audio", "gpio"):
    node = f"/dev/intercom-test-{group}"
    try:
        with open(node, "wb") as device:
            device.write(b"x")
        report(f"root:{group} 0660 device node writable (SupplementaryGroups)", True)
    except OSError as error:
        report(f"root:{group} 0660 device node writable (SupplementaryGroups)", False, str(error))

report("no effective capabilities", int(status_field("CapEff"), 16) == 0, status_field("CapEff"))
report("empty bounding set", int(status_field("CapBnd"), 16) == 0, status_field("CapBnd"))
report("NoNewPrivileges", status_field("NoNewPrivs") == "1")
report("seccomp filter active", status_field("Seccomp") == "2")

for family, name in ((socket.AF_INET, "AF_INET"), (socket.AF_INET6, "AF_INET6"), (socket.AF_NETLINK, "AF_NETLINK")):
    try:
        socket.socket(family, socket.SOCK_DGRAM).close()
        report(f"{name} socket allowed", True)
    except OSError as error:
        report(f"{name} socket allowed", False, str(error))
ok, why = fails_with(lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW), errno.EAFNOSUPPORT, errno.EPERM)
report("AF_PACKET refused", ok, why)
ok, why = fails_with(lambda: mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC), errno.EPERM, errno.EACCES)
report("W+X mapping refused (MemoryDenyWriteExecute)", ok, why)
ok, why = fails_with(lambda: os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10)), errno.EPERM)
report("SCHED_FIFO refused (RestrictRealtime)", ok, why)

stopping = False


def on_term(signum, frame):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, on_term)
notify("READY=1\nSTATUS=smoke stub ready")
print("SMOKE ready", flush=True)
while not stopping:
    if not os.path.exists(f"{CONTROL}/hang"):
        notify("WATCHDOG=1")
    time.sleep(0.5)
notify("STOPPING=1")
print("SMOKE stopping", flush=True)
