import Dispatch
import Foundation
import Glibc
import IntercomPlatform
import ParseClient
import ParseWire
import Synchronization

/// The backend of `intercomd demo`: the `intercom-server` executable as a child process. The device binary
/// does not link the server (no GRDB, JWTKit or server routes in `intercomd`), so the demo starts the one
/// installed or built next to it, reads the port it bound from its stdout, waits until `/parse/health`
/// answers, and stops it after the agent has said bye.
///
/// The child runs in a process group of its own, so a Ctrl-C in the terminal reaches only the demo, which
/// then ends the agent first and the server after it (SIGTERM, SIGKILL after a grace period).
final class DemoServerProcess: Sendable {
    let executable: String
    let pid: pid_t
    private let state: Mutex<State>

    private struct State {
        var port: Int?
        /// Set once the child has been reaped (its wait status).
        var exitStatus: Int32?
    }

    private init(executable: String, pid: pid_t) {
        self.executable = executable
        self.pid = pid
        state = Mutex(State())
    }

    // ── Finding the executable ───────────────────────────────────────────────────────────────────────

    enum LocateError: Error, CustomStringConvertible {
        case notExecutable(String)
        case notFound(besideIntercomd: String, path: String)

        var description: String {
            switch self {
            case .notExecutable(let path):
                return "--server \(path): not an executable file"
            case .notFound(let beside, let path):
                return """
                    intercomd demo runs the backend as a separate program, intercom-server, and found none: \
                    not next to intercomd (\(beside)) and not on PATH (\(path)). Build it with \
                    `swift build --product intercom-server` (it lands next to intercomd), install it, or pass \
                    --server PATH.
                    """
            }
        }
    }

    /// `explicit` if given; else `intercom-server` in the directory of the running `intercomd` (the build's
    /// bin directory, or /usr/bin when installed); else the first one on `PATH`.
    static func locate(explicit: String?, environment: [String: String]) throws(LocateError) -> String {
        if let explicit {
            guard isExecutableFile(explicit) else { throw .notExecutable(explicit) }
            return explicit.hasPrefix("/") ? explicit : FileManager.default.currentDirectoryPath + "/" + explicit
        }
        let ownPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        let beside = URL(fileURLWithPath: ownPath).deletingLastPathComponent().appendingPathComponent("intercom-server").path
        if isExecutableFile(beside) { return beside }
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/intercom-server"
            if isExecutableFile(candidate) { return candidate.hasPrefix("/") ? candidate : FileManager.default.currentDirectoryPath + "/" + candidate }
        }
        throw .notFound(besideIntercomd: beside, path: searchPath)
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && access(path, X_OK) == 0
    }

    // ── Starting ─────────────────────────────────────────────────────────────────────────────────────

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// Spawns `executable --listen 127.0.0.1:PORT --database DATABASE`. Its stdin is /dev/null (the demo's
    /// keyboard stays the demo's), its stderr is the demo's (its log lines appear with the agent's), and its
    /// stdout is read here for the `intercom-server listening on HOST:PORT` line.
    /// The environment is the demo's without `INTERCOM_*` (the demo's server is configured only by these
    /// flags, as the embedded one was) and without `NOTIFY_SOCKET`.
    static func start(executable: String, port: Int, database: String, environment: [String: String]) throws(StartError)
        -> DemoServerProcess
    {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            throw StartError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Neither end leaks into other children (the dup2 onto the child's stdout below is not close-on-exec).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group; default dispositions for the signals the demo ignores or handles itself
        // (ignored signals would otherwise stay ignored across exec); no blocked signals.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)

        let arguments = [executable, "--listen", "127.0.0.1:\(port)", "--database", database]
        let childEnvironment = environment
            .filter { !$0.key.hasPrefix("INTERCOM_") && $0.key != "NOTIFY_SOCKET" }
            .map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = childEnvironment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
        close(writeEnd)
        guard status == 0 else {
            close(readEnd)
            throw StartError(description: "could not start \(executable): \(String(cString: strerror(status)))")
        }
        let process = DemoServerProcess(executable: executable, pid: pid)
        process.readStandardOutput(readEnd)
        return process
    }

    /// Reads the child's stdout on a thread of its own until end of file: the listening line sets the port;
    /// anything else is passed on to the demo's stderr.
    private func readStandardOutput(_ descriptor: Int32) {
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if let port = Self.listeningPort(line) {
                        state.withLock { if $0.port == nil { $0.port = port } }
                    } else {
                        Terminal.error(line)
                    }
                }
            }
            close(descriptor)
        }
        thread.name = "demo-server-stdout"
        thread.start()
    }

    /// The port of `intercom-server listening on HOST:PORT`.
    static func listeningPort(_ line: String) -> Int? {
        guard let range = line.range(of: "listening on ") else { return nil }
        let address = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
        guard let colon = address.lastIndex(of: ":") else { return nil }
        return Int(address[address.index(after: colon)...])
    }

    /// Waits for the listening line, then for `GET /parse/health` to answer 200. Returns the bound port.
    func waitUntilReady(timeout: Duration) async throws(StartError) -> Int {
        let deadline = ContinuousClock.now + timeout
        var port: Int?
        while port == nil {
            port = state.withLock { $0.port }
            if port != nil { break }
            if let status = reap() {
                throw StartError(description: "\(executable) exited before listening (\(Self.describe(status)))")
            }
            guard ContinuousClock.now < deadline else {
                throw StartError(description: "\(executable) printed no 'listening on' line within \(timeout)")
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        guard let port else { throw StartError(description: "unreachable") }
        let transport = AsyncHTTPParseTransport()
        var lastProblem = "no answer"
        while ContinuousClock.now < deadline {
            if let status = reap() {
                throw StartError(description: "\(executable) exited (\(Self.describe(status))) before /parse/health answered")
            }
            do {
                let response = try await transport.execute(
                    ParseRequest(method: .get, path: "/parse/health", headers: [.init("X-Parse-Application-Id", "intercom")]),
                    baseURL: "http://127.0.0.1:\(port)", timeout: .seconds(2))
                if response.status == 200 { return port }
                lastProblem = "status \(response.status)"
            } catch {
                lastProblem = "\(error)"
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        throw StartError(description: "\(executable) on port \(port): /parse/health did not answer 200 within \(timeout) (\(lastProblem))")
    }

    // ── Stopping ─────────────────────────────────────────────────────────────────────────────────────

    enum StopOutcome: CustomStringConvertible {
        case alreadyEnded
        case ended(after: Duration)
        case killed(grace: Duration)

        var description: String {
            switch self {
            case .alreadyEnded: return "intercom-server had already ended"
            case .ended(let after): return "intercom-server stopped \(after.wholeMilliseconds) ms after SIGTERM"
            case .killed(let grace): return "intercom-server was still running \(grace) after SIGTERM: killed"
            }
        }
    }

    /// SIGTERM (intercom-server shuts down gracefully on it, within `ServerLifecycle.shutdownGrace`), SIGKILL
    /// if it is still running after `grace`. Safe to call more than once and from a signal handler's queue.
    @discardableResult
    func stop(grace: Duration = .seconds(5)) -> StopOutcome {
        guard reap() == nil else { return .alreadyEnded }
        kill(pid, SIGTERM)
        let started = ContinuousClock.now
        while ContinuousClock.now < started + grace {
            if reap() != nil { return .ended(after: ContinuousClock.now - started) }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        while reap(blocking: true) == nil {}
        return .killed(grace: grace)
    }

    /// The child's wait status once it has ended (reaping it exactly once), nil while it runs.
    @discardableResult
    private func reap(blocking: Bool = false) -> Int32? {
        state.withLock { state in
            if let status = state.exitStatus { return status }
            var status: Int32 = 0
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid {
                state.exitStatus = status
                return status
            }
            if result < 0, errno != EINTR {
                state.exitStatus = -1  // not our child any more (already reaped elsewhere)
                return -1
            }
            return nil
        }
    }

    private static func describe(_ status: Int32) -> String {
        if status == -1 { return "unknown status" }
        let signal = status & 0x7f
        return signal == 0 ? "exit status \((status >> 8) & 0xff)" : "killed by signal \(signal)"
    }

    // ── Signals before the agent runs ────────────────────────────────────────────────────────────────

    private let stopsOnSignals = Mutex(true)

    /// Until `handOverSignals()`, SIGINT and SIGTERM stop the server and end the demo (status 130 or 143), so
    /// a Ctrl-C while the demo starts leaves no server behind. Keep the sources until the demo ends.
    func stopOnSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [self] in
                guard stopsOnSignals.withLock({ $0 }) else { return }
                stop()
                exit(128 + signalNumber)
            }
            source.resume()
            return source
        }
    }

    /// From now on the agent's service group handles SIGINT and SIGTERM (it says bye, then the demo stops
    /// the server).
    func handOverSignals() {
        stopsOnSignals.withLock { $0 = false }
    }
}
