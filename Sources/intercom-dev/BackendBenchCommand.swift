import ArgumentParser
import Foundation
import Glibc
import IntercomServer
import Logging

/// `intercom-dev bench-backend`: the backend figures, measured against embedded `intercom-server`s on
/// loopback — call row → agent delivery through LiveQuery, `$nearSphere` latency at 10k and 100k
/// `ActiveUsers` rows, LiveQuery fan-out to many subscribed sockets, and heartbeat saves per second. On
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
    var rows = "10000,100000"

    @Option(help: "$nearSphere queries per table size.")
    var queries = 200

    @Option(help: "LiveQuery sockets subscribed for the fan-out figure (0 skips).")
    var subscribers = 1000

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
        guard calls >= 0, queries > 0, subscribers >= 0, events > 0, heartbeatDevices >= 0, heartbeatSeconds > 0,
              heartbeatWorkers > 0, instances > 0 else {
            throw ValidationError(
                "--calls, --subscribers and --heartbeat-devices must not be negative; the other counts positive")
        }
        if databaseURL == nil, instances > 1 {
            throw ValidationError("--instances above 1 needs --database-url: instances share a PostgreSQL database")
        }
        if let databaseURL {
            do { _ = try PostgresSettings(url: databaseURL) } catch { throw ValidationError("\(error)") }
        }
        _ = try tableSizes()
    }

    func tableSizes() throws -> [Int] {
        try rows.split(separator: ",").map { part in
            guard let size = Int(part.trimmingCharacters(in: .whitespaces)), size > 0 else {
                throw ValidationError("--rows: \"\(part)\" is not a positive whole number")
            }
            return size
        }.sorted()
    }

    func run() async throws {
        print("command: \(CommandLine.arguments.joined(separator: " "))")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, loopback, debug=\(BuildKind.isDebug)")
        let engine = databaseURL.flatMap { try? PostgresSettings(url: $0).redactedURL } ?? "SQLite (a fresh file)"
        print("database: \(engine), \(instances) instance\(instances == 1 ? "" : "s")")
        raiseOpenFileLimit()
        let bench = try await BackendBench.start(databaseURL: databaseURL, instances: instances)
        defer { bench.stop() }
        if calls > 0 {
            let figures = try await bench.callDelivery(calls: calls)
            figures.print("call row created → delivered to the agent by LiveQuery (\(calls) calls)")
        }
        for size in try tableSizes() {
            let figures = try await bench.geoQueries(tableSize: size, queries: queries)
            figures.print("$nearSphere 10 km, limit 100, over \(size) ActiveUsers rows (\(queries) queries)")
        }
        if subscribers > 0 {
            let figures = try await bench.fanOut(subscribers: subscribers, events: events)
            figures.print("LiveQuery event → each of \(subscribers) subscribed sockets (\(events) events)")
        }
        if heartbeatDevices > 0 {
            let (perSecond, figures) = try await bench.heartbeats(
                devices: heartbeatDevices, seconds: heartbeatSeconds, concurrency: heartbeatWorkers)
            figures.print(String(format: "heartbeat saves of %d devices by %d workers for %d s: %.0f saves/s; each save",
                                 heartbeatDevices, heartbeatWorkers, heartbeatSeconds, perSecond))
        }
    }

    /// 1000 sockets on each side of loopback need more than the usual 1024 descriptors.
    private func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(max(4096, subscribers * 3 + 256))
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
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
