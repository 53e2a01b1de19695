import ArgumentParser
import Foundation
import Glibc
import IntercomServer
import Logging

/// `intercom-dev bench-backend`: the backend figures, measured against embedded `intercom-server`s on
/// loopback — call row → agent delivery through LiveQuery, `$nearSphere` latency at 10k, 100k and 1M
/// `ActiveUsers` rows, LiveQuery fan-out to 1,000 and 10,000 subscribed sockets, and heartbeat saves per second. On
/// SQLite by default; with `--database-url` on PostgreSQL, with `--instances` servers sharing it (a fleet:
/// the device and the caller on different instances, the sockets split over them).
struct BackendBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-backend",
        abstract: "Benchmark call delivery (LiveQuery), geo queries and LiveQuery fan-out against an embedded server."
    )

    @Option(help: "Calls placed one after another for the delivery latency (0 skips).")
    var calls = 200

    @Option(help: "Comma-separated ActiveUsers table sizes for the geo query figures (empty skips).")
    var rows = "10000,100000,1000000"

    @Option(help: "$nearSphere queries per table size.")
    var queries = 200

    @Option(help: "Comma-separated counts of LiveQuery sockets subscribed for the fan-out figures (empty skips).")
    var subscribers = "1000,10000"

    @Option(help: "Events published to all subscribers for the fan-out figure.")
    var events = 20

    @Option(help: "Devices whose ActiveUsers rows are re-saved for the heartbeat figure (0 skips).")
    var heartbeatDevices = 0

    @Option(help: "Seconds of heartbeat saves, and workers sending them at once.")
    var heartbeatSeconds = 10

    @Option(help: "Workers sending heartbeat saves at once.")
    var heartbeatWorkers = 32

    @Option(help: "postgres://… : run the servers on PostgreSQL instead of a fresh SQLite file.")
    var databaseURL: String?

    @Option(help: "Servers sharing --database-url (1 on SQLite).")
    var instances = 1

    func validate() throws {
        guard calls >= 0, queries > 0, events > 0, heartbeatDevices >= 0, heartbeatSeconds > 0,
              heartbeatWorkers > 0, instances > 0 else {
            throw ValidationError("--calls and --heartbeat-devices must not be negative; the other counts positive")
        }
        if databaseURL == nil, instances > 1 {
            throw ValidationError("--instances above 1 needs --database-url: instances share a PostgreSQL database")
        }
        if let databaseURL {
            do { _ = try PostgresSettings(url: databaseURL) } catch { throw ValidationError("\(error)") }
        }
        _ = try Self.counts(rows, option: "--rows")
        _ = try Self.counts(subscribers, option: "--subscribers")
    }

    /// A comma-separated list of positive whole numbers, smallest first.
    static func counts(_ list: String, option: String) throws -> [Int] {
        try list.split(separator: ",").map { part in
            guard let size = Int(part.trimmingCharacters(in: .whitespaces)), size > 0 else {
                throw ValidationError("\(option): \"\(part)\" is not a positive whole number")
            }
            return size
        }.sorted()
    }

    func run() async throws {
        BenchOutput.line("command: \(CommandLine.arguments.joined(separator: " "))")
        BenchOutput.line("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, loopback, debug=\(BuildKind.isDebug)")
        let engine = databaseURL.flatMap { try? PostgresSettings(url: $0).redactedURL } ?? "SQLite (a fresh file)"
        BenchOutput.line("database: \(engine), \(instances) instance\(instances == 1 ? "" : "s")")
        try raiseOpenFileLimit()
        let bench = try await BackendBench.start(databaseURL: databaseURL, instances: instances)
        defer { bench.stop() }
        if calls > 0 {
            let figures = try await bench.callDelivery(calls: calls)
            figures.print("call row created → delivered to the agent by LiveQuery (\(calls) calls)")
        }
        for size in try Self.counts(rows, option: "--rows") {
            let figures = try await bench.geoQueries(tableSize: size, queries: queries)
            figures.print("$nearSphere 10 km, limit 100, over \(size) ActiveUsers rows (\(queries) queries)")
        }
        for count in try Self.counts(subscribers, option: "--subscribers") {
            let figures = try await bench.fanOut(subscribers: count, events: events)
            figures.print("LiveQuery event → each of \(count) subscribed sockets (\(events) events)")
        }
        if heartbeatDevices > 0 {
            let (perSecond, figures) = try await bench.heartbeats(
                devices: heartbeatDevices, seconds: heartbeatSeconds, concurrency: heartbeatWorkers)
            figures.print(String(format: "heartbeat saves of %d devices by %d workers for %d s: %.0f saves/s; each save",
                                 heartbeatDevices, heartbeatWorkers, heartbeatSeconds, perSecond))
        }
    }

    /// Thousands of sockets need more than the usual 1024 descriptors: the servers' ends in this process, the
    /// clients' in the child that inherits the limit. Refused up front when they cannot be had (running out
    /// mid-run crashes libdispatch, which then cannot open the /proc files of its thread monitor).
    private func raiseOpenFileLimit() throws {
        let most = (try? Self.counts(subscribers, option: "--subscribers").last) ?? nil
        let wanted = rlim_t(max(4096, (most ?? 0) + 1024))
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < wanted else { return }
        var raised = limit
        raised.rlim_cur = wanted
        raised.rlim_max = max(limit.rlim_max, wanted)
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0 {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            throw BenchFailure("\(most ?? 0) sockets need about \(wanted) open files in each process; the hard limit "
                + "is \(limit.rlim_max) (raise it with ulimit -Hn as root, or pass fewer --subscribers)")
        }
    }
}

enum BuildKind {
    #if DEBUG
    static let isDebug = true
    #else
    static let isDebug = false
    #endif
}
