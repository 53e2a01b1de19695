import Glibc
import IntercomPlatform

/// The broker connection's TCP socket: non-blocking, so a dead broker costs the MQTT thread at most a
/// timeout and never anyone else anything.
final class MQTTSocket {
    let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Resolves `host`, connects to the first address that answers within `timeout`.
    /// `cancelled` is asked every 200 ms while a connect is pending: a stop need not wait out the timeout.
    static func connect(host: String, port: Int, timeout: Duration,
                        cancelled: () -> Bool = { false }) throws(MQTTTransportError) -> MQTTSocket {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .resolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = SystemCallError(call: "connect", errno: EHOSTUNREACH, path: "\(host):\(port)")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = SystemCallError(call: "socket", errno: errno)
                continue
            }
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                switch NonBlockingStream.waitConnected(fd, timeout: timeout, cancelled: cancelled) {
                case nil:
                    var one: Int32 = 1
                    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return MQTTSocket(descriptor: fd)
                case let code?:
                    lastError = SystemCallError(call: "connect", errno: code, path: "\(host):\(port)")
                }
            } else {
                lastError = SystemCallError(call: "connect", errno: errno, path: "\(host):\(port)")
            }
            close(fd)
        }
        throw .system(lastError)
    }

    /// Writes all of `bytes`, waiting for buffer space at most `timeout` in all (a stalled broker is a lost one).
    func send(_ bytes: [UInt8], timeout: Duration) throws(MQTTTransportError) {
        if let code = NonBlockingStream.sendAll(descriptor, bytes, timeout: timeout) {
            throw .system(SystemCallError(call: "send", errno: code, detail: code == ETIMEDOUT ? "the broker stopped reading" : nil))
        }
    }

    /// What is readable now: bytes, or nil when the broker closed the connection.
    func receive() throws(MQTTTransportError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return Array(buffer[..<count]) }
        if count == 0 { return nil }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return [] }
        throw .system(SystemCallError(call: "recv", errno: code))
    }

    deinit { close(descriptor) }
}

/// Why the broker connection could not be opened or used.
enum MQTTTransportError: Error, CustomStringConvertible {
    case resolve(host: String, reason: String)
    case system(SystemCallError)

    var description: String {
        switch self {
        case .resolve(let host, let reason): "getaddrinfo(\"\(host)\"): \(reason)"
        case .system(let error): "\(error)"
        }
    }
}
