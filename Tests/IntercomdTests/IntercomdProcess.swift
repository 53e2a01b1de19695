import Foundation
import Testing

/// Runs the built `intercomd` executable (found next to the test bundle, as `swift build` lays them out).
struct IntercomdProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func executable() throws -> String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var candidates = [directory.appendingPathComponent("intercomd").path]
        // Swift Testing on Linux may run from inside the .xctest bundle directory.
        candidates.append(directory.deletingLastPathComponent().appendingPathComponent("intercomd").path)
        candidates.append(repositoryRoot + "/.build/debug/intercomd")
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw MissingExecutable(searched: candidates)
        }
        return found
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var searched: [String]
        var description: String { "intercomd not built: looked in \(searched.joined(separator: ", ")); run `swift build` first" }
    }

    /// Runs to completion (bounded by `timeout`) and captures both streams (see `Running.waitAsync`).
    static func runAsync(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(30)) async throws -> Output {
        let process = try start(arguments, environment: environment)
        return try await process.waitAsync(timeout: timeout)
    }

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "INTERCOM_CONFIG", "INTERCOM_STATE_DIR",
                    "CREDENTIALS_DIRECTORY", "STATE_DIRECTORY", "JOURNAL_STREAM", "INVOCATION_ID"] {
            env[key] = nil
        }
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, out: out, err: err)
    }

    final class Running: @unchecked Sendable {
        let process: Process
        let out: Pipe
        let err: Pipe
        private var stdoutData = Data()
        private var stderrData = Data()
        private let lock = NSLock()

        init(process: Process, out: Pipe, err: Pipe) {
            self.process = process
            self.out = out
            self.err = err
            out.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                self?.lock.withLock { self?.stdoutData.append(data) }
            }
            err.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                self?.lock.withLock { self?.stderrData.append(data) }
            }
        }

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Waits for the process to end: polls with `Task.sleep`, so a process that runs for seconds does not
        /// hold one of the cooperative pool's threads (two on a 2-core machine) that other tests' timers need.
        func waitAsync(timeout: Duration) async throws -> Output {
            let deadline = ContinuousClock.now + timeout
            while process.isRunning {
                if ContinuousClock.now > deadline { try killTimedOut(timeout) }
                try await Task.sleep(for: .milliseconds(20))
            }
            return collect()
        }

        private func killTimedOut(_ timeout: Duration) throws -> Never {
            process.terminate()
            Thread.sleep(forTimeInterval: 0.2)
            kill(process.processIdentifier, SIGKILL)
            throw TimedOut(timeout: timeout)
        }

        private func collect() -> Output {
            out.fileHandleForReading.readabilityHandler = nil
            err.fileHandleForReading.readabilityHandler = nil
            let restOut = (try? out.fileHandleForReading.readToEnd()) ?? nil
            let restErr = (try? err.fileHandleForReading.readToEnd()) ?? nil
            return lock.withLock {
                Output(status: process.terminationStatus,
                       stdout: String(decoding: stdoutData + (restOut ?? Data()), as: UTF8.self),
                       stderr: String(decoding: stderrData + (restErr ?? Data()), as: UTF8.self))
            }
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        var timeout: Duration
        var description: String { "intercomd did not exit within \(timeout)" }
    }
}
