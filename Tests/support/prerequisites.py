"""What a stage needs before it can run, found or named: our binaries (built by `swift build`), Debian tools
(with the package that installs them) and root. A stage reports each missing one as a FAIL line and stops:
a test that cannot run fails and says why, it is never skipped."""

import os
import shutil


def find_tool(name):
    """`name` on PATH, or in /usr/sbin and /usr/bin (daemons such as kamailio and mosquitto live in /usr/sbin,
    which a non-root PATH may lack); None when it is not installed."""
    return shutil.which(name) or next(
        (path for path in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.access(path, os.X_OK)), None)


def missing_prerequisites(binaries=(), tools=(), root_for=None):
    """Problems, one line each; empty when everything is there.
    binaries: (label, path[, how to get it]) of our executables; tools: (command, Debian package[, why]);
    root_for: what needs root (e.g. "nftables"), if the stage does."""
    problems = []
    for label, path, *how in binaries:
        if not (path and os.path.isfile(path) and os.access(path, os.X_OK)):
            problems.append(f"{label} not found or not executable at {path} ({how[0] if how else 'swift build'})")
    for command, package, *why in tools:
        if not find_tool(command):
            problems.append(f"{command} not found (apt-get install {package})" + (f": {why[0]}" if why else ""))
    if root_for and os.geteuid() != 0:
        problems.append(f"needs root ({root_for})")
    return problems
