#!/usr/bin/python3
# Stand-in for /usr/local/bin/intercom-server inside boot-smoke.sh: it runs under the real
# systemd/intercom-server.service sandbox, reports what that sandbox allows as
# "SMOKE ok|FAIL <what>" lines, then serves HTTP on an ephemeral loopback port (logged as
# "SMOKE port=N") so the test can reach it. It never binds the real default port 1337.
import errno, http.server, os, sqlite3, sys


def report(name, ok, detail=""):
    print(f"SMOKE {'ok' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


report("argv", sys.argv[1:] == ["--listen", "127.0.0.1:1337", "--database", "/var/lib/intercom-server/intercom-server.sqlite"], repr(sys.argv[1:]))
cwd = os.path.realpath(os.getcwd())
report("working directory is the state directory", cwd == os.path.realpath("/var/lib/intercom-server"), cwd)
try:
    database = sqlite3.connect("intercom.sqlite")
    database.execute("create table if not exists t(x)")
    database.execute("insert into t values (1)")
    database.commit()
    database.close()
    mode = os.stat("intercom.sqlite").st_mode & 0o777
    report("SQLite database in the working directory", True)
    report("database created 0600 (UMask=0077)", mode == 0o600, oct(mode))
except (OSError, sqlite3.Error) as error:
    report("SQLite database in the working directory", False, str(error))
report("no device nodes (PrivateDevices=yes)", not os.path.exists("/dev/intercom-test-video"))
report("/proc/1 invisible", not os.path.exists("/proc/1/cmdline"))
try:
    open("/etc/intercom/written-by-server", "wb")
    report("/etc/intercom read-only", False, "write succeeded")
except OSError as error:
    report("/etc/intercom read-only", error.errno in (errno.EROFS, errno.EACCES), str(error))


class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Health)
print(f"SMOKE port={server.server_address[1]}", flush=True)
server.serve_forever()
