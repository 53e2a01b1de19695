import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import IntercomServer
import IntercomTestSupport
import Logging
import Testing

/// Reliability matrix row 30: the real `intercom-server` binary is SIGKILLed while clients create calls;
/// afterwards the database passes `PRAGMA integrity_check` and every call whose 201 reached a client is there.
@Suite struct CrashSafetyTests {
    /// 10 rounds by default; the matrix's ×100 with `INTERCOM_CRASH_ROUNDS=100` (about 1 s per round).
    static var rounds: Int {
        ProcessInfo.processInfo.environment["INTERCOM_CRASH_ROUNDS"].flatMap { Int($0) }.map { max(1, $0) } ?? 10
    }

    @Test(.timeLimit(.minutes(5)))
    func killedMidWriteLosesNothingAcknowledged() async throws {
        let binary = try ServerProcess.binaryPath()
        let directory = try TemporaryDirectory(prefix: "intercom-crash")
        let database = directory.path("server.sqlite")
        // With INTERCOM_TEST_DATABASE_URL the same kills are aimed at PostgreSQL: one schema for all rounds.
        let databaseURL = TestPostgres.freshURL()
        var acknowledged: [String] = []
        var random = SplitMix64(seed: 30)
        for round in 0..<Self.rounds {
            let server = try ServerProcess(binary: binary, database: database, databaseURL: databaseURL, log: directory.path("out-\(round).log"))
            let base = try await server.waitForPort()
            let token = try await HTTP.anonymousLogin(base: base, id: "crash-test-caller")
            // Writers stop at their first failed request, i.e. once the server is dead. (They are not cancelled:
            // cancelling a URLSession task races with its completion in swift-corelibs-foundation and deadlocks.)
            let writers = (0..<4).map { _ in
                Task { () -> [String] in
                    var sessions: [String] = []
                    while true {
                        guard let sessionID = try? await HTTP.createCall(base: base, token: token.token,
                                                                          caller: token.objectId)
                        else { break }
                        sessions.append(sessionID)
                    }
                    return sessions
                }
            }
            try await Task.sleep(for: .milliseconds(100 + Int(random.next() % 300)))
            server.kill()
            for writer in writers { acknowledged += await writer.value }
        }
        #expect(acknowledged.count > Self.rounds)

        let reopened = if let databaseURL {
            try await ServerDatabase(postgres: try PostgresSettings(url: databaseURL), logger: Logger(label: "crash-test"))
        } else {
            try ServerDatabase(path: database)
        }
        #expect(try await reopened.integrityCheck().hasPrefix("ok"))
        var missing: [String] = []
        for sessionID in acknowledged where try await reopened.callSession(sessionID, now: Date()) == nil {
            missing.append(sessionID)
        }
        #expect(missing.isEmpty, "\(missing.count) of \(acknowledged.count) acknowledged calls missing")
        print("crash safety (\(reopened.location)): \(Self.rounds) kills, \(acknowledged.count) acknowledged calls, integrity ok")
    }
}

/// One `intercom-server` child process on a free loopback port.
final class ServerProcess {
    let process: Process
    let log: String

    /// The binary SwiftPM built next to the test bundle.
    static func binaryPath() throws -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("intercom-server").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw TestFailure("intercom-server binary not found near \(executable.path); build the package first")
    }

    init(binary: String, database: String, databaseURL: String? = nil, log: String) throws {
        self.log = log
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw TestFailure("cannot create \(log)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--listen", "127.0.0.1:0", "--database", database, "--log-level", "error"]
        process.environment = ["INTERCOM_RATE_LIMIT": "off", "PATH": "/usr/bin:/bin"]
            .merging(databaseURL.map { ["INTERCOM_SERVER_DATABASE_URL": $0] } ?? [:]) { $1 }
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func waitForPort() async throws -> String {
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: log, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }),
               let port = line.split(separator: ":").last {
                return "http://127.0.0.1:\(port)"
            }
            guard process.isRunning else { throw TestFailure("intercom-server exited: \(process.terminationStatus)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("intercom-server did not report its port")
    }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Just enough HTTP for the crash test (URLSession).
enum HTTP {
    static func post(_ url: String, _ body: JSONValue, token: String? = nil) async throws -> (Int, JSONValue) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("intercom", forHTTPHeaderField: "X-Parse-Application-Id")
        if let token { request.setValue(token, forHTTPHeaderField: "X-Parse-Session-Token") }
        request.httpBody = try JSONEncoder().encode(body)
        request.timeoutInterval = 5
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONDecoder().decode(JSONValue.self, from: data))
    }

    static func anonymousLogin(base: String, id: String) async throws -> (objectId: String, token: String) {
        let (_, json) = try await post(base + "/parse/users", ["authData": ["anonymous": ["id": .string(id)]]])
        guard let objectId = json["objectId"]?.stringValue, let token = json["sessionToken"]?.stringValue else {
            throw TestFailure("login failed: \(json)")
        }
        return (objectId, token)
    }

    /// The sessionID of a created call, or nil unless the server answered 201.
    static func createCall(base: String, token: String, caller: String) async throws -> String? {
        let (status, json) = try await post(base + "/parse/classes/ActiveSessions",
                                            ["callerID": .string(caller), "receiverID": "rx"], token: token)
        return status == 201 ? json["sessionID"]?.stringValue : nil
    }
}
