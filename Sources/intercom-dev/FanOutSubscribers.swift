import ArgumentParser
import Foundation
import Glibc
import HummingbirdWSClient
import Logging
import Synchronization

/// The subscribed sockets of `bench-backend`'s fan-out figure, in a child process: 10,000 sockets with both
/// ends in one process need 20,000 descriptors, the hard limit of a container without CAP_SYS_RESOURCE.
///
/// Its conversation with the parent, a line each way:
/// - it prints `subscribing N` now and then, then `ready` once every socket is subscribed (or `failed …`);
/// - the parent writes `sent EVENT NANOS` right before it creates the row `fanout-EVENT`, NANOS on
///   `CLOCK_BOOTTIME` (one clock for both processes);
/// - it prints `event EVENT MICROS,MICROS,…` once every socket got that event, each socket's latency, or
///   `timeout EVENT GOT` when some did not within 30 s. Closing its standard input ends it.
struct FanOutSubscribersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout-subscribers",
        abstract: "bench-backend's subscribed sockets (run by bench-backend itself).",
        shouldDisplay: false
    )

    @Option(help: "Comma-separated LiveQuery URLs; the sockets are split over them.")
    var urls: String

    @Option(help: "Sockets to open and subscribe.")
    var count: Int

    func run() async throws {
        let urls = urls.split(separator: ",").map(String.init)
        guard !urls.isEmpty, count > 0 else { throw ValidationError("--urls and a positive --count are needed") }
        let arrivals = FanOutArrivals()
        var sockets: [Task<Void, Never>] = []
        for index in 0..<count {
            let url = urls[index % urls.count]
            sockets.append(Task {
                _ = try? await WebSocketClient.connect(url: url, logger: BackendBench.logger) { inbound, outbound, _ in
                    try await outbound.writeTextMessage(#"{"op":"connect","applicationId":"intercom"}"#)
                    try await outbound.writeTextMessage(
                        #"{"op":"subscribe","requestId":1,"query":{"className":"ActiveUsers","where":{"deviceKind":"fanout"},"keys":["userTitle"]}}"#)
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        let now = BootClock.nanoseconds()
                        if text.contains(#""op":"subscribed""#) { await arrivals.subscribed(index) }
                        if let range = text.range(of: #""userTitle":"fanout-"#),
                           let event = Int(text[range.upperBound...].prefix { $0.isNumber }) {
                            await arrivals.record(socket: index, event: event, at: now)
                        }
                    }
                }
            })
        }
        defer { for socket in sockets { socket.cancel() } }
        let limit = Duration.milliseconds(max(120_000, count * 20))
        let start = ContinuousClock.now
        var lastReport = start
        while await arrivals.subscribedCount < count {
            guard ContinuousClock.now - start < limit else {
                BenchOutput.line("failed only \(await arrivals.subscribedCount) of \(count) sockets subscribed in \(limit)")
                return
            }
            if ContinuousClock.now - lastReport > .seconds(10) {
                lastReport = .now
                BenchOutput.line("subscribing \(await arrivals.subscribedCount)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        BenchOutput.line("ready")
        for await command in StandardInputLines.stream() {
            let parts = command.split(separator: " ")
            guard parts.count == 3, parts[0] == "sent", let event = Int(parts[1]), let sent = UInt64(parts[2]) else {
                continue
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while await arrivals.count(event: event) < count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            let times = await arrivals.times(event: event)
            if times.count < count {
                BenchOutput.line("timeout \(event) \(times.count)")
            } else {
                let micros = times.map { String((Int64(bitPattern: $0 &- sent)) / 1_000) }
                BenchOutput.line("event \(event) " + micros.joined(separator: ","))
            }
        }
    }
}

/// When each socket subscribed and got each event.
actor FanOutArrivals {
    private var subscribedSockets: Set<Int> = []
    private var arrivals: [Int: [Int: UInt64]] = [:]

    var subscribedCount: Int { subscribedSockets.count }

    func subscribed(_ socket: Int) { subscribedSockets.insert(socket) }

    func record(socket: Int, event: Int, at nanos: UInt64) {
        if arrivals[event]?[socket] == nil { arrivals[event, default: [:]][socket] = nanos }
    }

    func count(event: Int) -> Int { arrivals[event]?.count ?? 0 }
    func times(event: Int) -> [UInt64] { Array(arrivals[event]?.values ?? [:].values) }
}

/// `CLOCK_BOOTTIME`: one clock for the bench and its child.
enum BootClock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Lines of standard input, read on a thread of their own, until it closes.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        AsyncStream { continuation in
            let reader = Thread {
                while let line = Swift.readLine() { continuation.yield(line) }
                continuation.finish()
            }
            reader.name = "bench-stdin"
            reader.start()
        }
    }
}

/// The parent's side: the child process, its lines, and the commands it is sent.
final class FanOutSubscriberProcess {
    private let process: Process
    private let input: FileHandle
    let lines: AsyncStream<String>

    init(urls: [String], count: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["fanout-subscribers", "--urls", urls.joined(separator: ","), "--count", String(count)]
        let toChild = Pipe()
        let fromChild = Pipe()
        process.standardInput = toChild
        process.standardOutput = fromChild
        try process.run()
        self.process = process
        input = toChild.fileHandleForWriting
        let output = fromChild.fileHandleForReading
        lines = AsyncStream { continuation in
            let reader = Thread {
                var pending = Data()
                while true {
                    let chunk = output.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                        pending.removeSubrange(pending.startIndex...newline)
                    }
                }
                continuation.finish()
            }
            reader.name = "bench-child-out"
            reader.start()
        }
    }

    func sent(event: Int, at nanos: UInt64) {
        input.write(Data("sent \(event) \(nanos)\n".utf8))
    }

    func stop() {
        try? input.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
