import Foundation
import Glibc

/// Talks to the service manager the way sd_notify(3) and sd_watchdog_enabled(3) do, without libsystemd:
/// one `AF_UNIX` `SOCK_DGRAM` datagram per notification to `$NOTIFY_SOCKET`. Without `$NOTIFY_SOCKET`
/// (not started by systemd, or not `Type=notify`) every call is a no-op.
///
/// Send failures are thrown for the caller to log; they never crash or block for long (1 s send timeout).
public struct SystemdNotifier: Sendable {
    /// Where notifications go; nil when `$NOTIFY_SOCKET` is unset or empty.
    public let socketName: String?
    /// `$WATCHDOG_USEC` when the watchdog is meant for this process (see `watchdogInterval(environment:processID:)`).
    public let watchdogInterval: Duration?

    /// How long a send may block when the manager's queue is full.
    static let sendTimeout = timeval(tv_sec: 1, tv_usec: 0)

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, processID: pid_t = getpid()) {
        let name = environment["NOTIFY_SOCKET"] ?? ""
        socketName = name.isEmpty ? nil : name
        watchdogInterval = Self.watchdogInterval(environment: environment, processID: processID)
    }

    public var isEnabled: Bool { socketName != nil }

    /// Ping twice per interval, as sd_watchdog_enabled(3) recommends.
    public var recommendedWatchdogPing: Duration? { watchdogInterval.map { $0 / 2 } }

    /// `READY=1`: start-up is complete (send only once the backend and required devices are up).
    public func ready(status: String? = nil) throws(SystemCallError) {
        try send(SystemdNotifyMessage.ready(status: status))
    }

    /// `STATUS=…`: one line shown by `systemctl status`.
    public func status(_ text: String) throws(SystemCallError) {
        try send(SystemdNotifyMessage.status(text))
    }

    /// `WATCHDOG=1`: the main loop is alive.
    public func watchdog() throws(SystemCallError) {
        try send(SystemdNotifyMessage.watchdog)
    }

    /// `STOPPING=1`: shutdown has begun.
    public func stopping(status: String? = nil) throws(SystemCallError) {
        try send(SystemdNotifyMessage.stopping(status: status))
    }

    /// Sends one raw notification datagram; a no-op without `$NOTIFY_SOCKET`.
    public func send(_ message: String) throws(SystemCallError) {
        guard let socketName else { return }
        let address = try UnixSocketAddress(socketName)
        let descriptor = try retryingOnInterrupt("socket", path: socketName) {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { _ = close(descriptor) }
        var timeout = Self.sendTimeout
        try retryingOnInterrupt("setsockopt", path: socketName) {
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let bytes = Array(message.utf8)
        let sent = try retryingOnInterrupt("sendto", path: socketName) {
            address.withSockaddr { socketAddress, length in
                bytes.withUnsafeBytes {
                    sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        guard sent == bytes.count else {
            throw SystemCallError(call: "sendto", errno: EMSGSIZE, path: socketName, detail: "sent \(sent) of \(bytes.count) bytes")
        }
    }

    /// `$WATCHDOG_USEC` as a duration, following sd_watchdog_enabled(3): only when it is a positive integer
    /// and `$WATCHDOG_PID` is absent or equals `processID` (a child that inherited the variables must not ping).
    public static func watchdogInterval(environment: [String: String], processID: pid_t) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else {
            return nil
        }
        if let pidText = environment["WATCHDOG_PID"] {
            guard let pid = pid_t(pidText), pid == processID else { return nil }
        }
        return .microseconds(microseconds)
    }
}
