import ArgumentParser
import Foundation
import Glibc
import IntercomServer
import Logging

/// `intercom-dev bench-backend`: the backend figures of the backend issue, measured against an embedded
/// `intercom-server` on loopback — call row → agent delivery through LiveQuery, `$nearSphere` latency
/// at 10k and 100k `ActiveUsers` rows, and LiveQuery fan-out to many subscribed sockets.
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

    func validate() throws {
        guard calls >= 0, queries > 0, subscribers >= 0, events > 0 else {
            throw ValidationError("--calls and --subscribers must not be negative; --queries and --events positive")
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
        raiseOpenFileLimit()
        let bench = try await BackendBench.start()
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
