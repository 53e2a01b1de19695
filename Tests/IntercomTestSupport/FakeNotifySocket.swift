import Glibc
import IntercomPlatform

/// Plays the service manager's side of sd_notify(3) for tests: a bound `AF_UNIX` `SOCK_DGRAM` socket whose
/// name goes into `NOTIFY_SOCKET`, with a receive that never waits longer than its timeout.
public final class FakeNotifySocket: Sendable {
    public enum Kind: Sendable {
        /// `@intercom-notify-…` in Linux's abstract namespace (no file; gone when the socket closes).
        case abstract
        /// A socket file inside a private temporary directory.
        case path
    }

    public let address: UnixSocketAddress
    private let descriptor: Int32
    private let directory: TemporaryDirectory?

    public init(_ kind: Kind = .abstract) throws(SystemCallError) {
        let unique = "\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))"
        let directory = kind == .path ? try TemporaryDirectory(prefix: "notify") : nil
        let address = try UnixSocketAddress(directory?.path("notify.sock") ?? "@intercom-notify-\(unique)")
        let descriptor = try retryingOnInterrupt("socket", path: address.name) {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemCallError) {
            try retryingOnInterrupt("bind", path: address.name) {
                address.withSockaddr { bind(descriptor, $0, $1) }
            }
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.address = address
        self.directory = directory
    }

    deinit {
        close(descriptor)
    }

    /// The value for `NOTIFY_SOCKET`.
    public var name: String { address.name }

    /// An environment with just `NOTIFY_SOCKET` set, plus `extra`.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["NOTIFY_SOCKET": name]) { $1 }
    }

    /// The next datagram as text, or nil if none arrives within `timeout`.
    public func receive(timeout: Duration = .seconds(2)) throws(SystemCallError) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // poll(2) waits forever on a negative timeout; a test must never hang, so clamp at zero.
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: max(0, seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000))
        let ready = try retryingOnInterrupt("poll", path: name) { poll(&poller, 1, milliseconds) }
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = try retryingOnInterrupt("recv", path: name) {
            buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// `receive(timeout:)` for async tests: polls without blocking and sleeps with `Task.sleep` in between, so a
    /// wait of seconds holds none of the cooperative pool's threads (two on a 2-core machine).
    public func receiveAsync(timeout: Duration = .seconds(2)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let message = try receive(timeout: .zero) { return message }
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Every datagram already queued, without waiting.
    public func drain() throws(SystemCallError) -> [String] {
        var messages: [String] = []
        while let message = try receive(timeout: .zero) { messages.append(message) }
        return messages
    }
}
