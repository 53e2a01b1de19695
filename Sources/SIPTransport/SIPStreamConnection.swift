import Glibc
import IntercomPlatform
import SIPCore

/// A non-blocking TCP connection to the registrar, framed by Content-Length (RFC 3261 §18.3, `SIPStreamFramer`).
/// Used from the SIP thread only; a slow connect or a stalled peer costs that thread at most its timeout.
final class SIPStreamConnection {
    let descriptor: Int32
    let local: SIPSocketAddress
    let remote: SIPSocketAddress
    private var framer = SIPStreamFramer()

    init(to remote: SIPSocketAddress, timeout: Duration) throws(SIPTransportError) {
        let fd = socket(remote.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemCallError(call: "socket", errno: errno)) }
        var target = remote.storage
        let status = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, remote.length) }
        }
        let code = status == 0 ? 0 : errno
        if status != 0, code != EINPROGRESS {
            close(fd)
            throw .system(SystemCallError(call: "connect", errno: code, path: "\(remote)"))
        }
        if status != 0, let failure = Self.waitConnected(fd, timeout: timeout) {
            close(fd)
            throw .system(SystemCallError(call: "connect", errno: failure, path: "\(remote)"))
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        descriptor = fd
        self.remote = remote
        do throws(SIPTransportError) {
            local = try SIPSocketAddress.boundAddress(of: fd)
        } catch {
            close(fd)
            throw error
        }
    }

    /// nil once connected, else the errno (ETIMEDOUT when `timeout` passed).
    private static func waitConnected(_ fd: Int32, timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            if left <= .zero { return ETIMEDOUT }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: max(1, left.wholeMilliseconds)))
            if ready > 0 { break }
            if ready < 0, errno != EINTR { return errno }
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code == 0 ? nil : code
    }

    /// Writes all of `bytes`, waiting for buffer space at most `timeout` in all.
    func send(_ bytes: [UInt8], timeout: Duration = .seconds(2)) throws(SIPTransportError) {
        var offset = 0
        let deadline = ContinuousClock.now + timeout
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
                continue
            }
            let code = written == 0 ? EPIPE : errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw .system(SystemCallError(call: "send", errno: code, path: "\(remote)"))
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .system(SystemCallError(call: "send", errno: ETIMEDOUT, path: "\(remote)")) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, Int32(clamping: max(1, left.wholeMilliseconds)))
        }
    }

    /// The messages that the readable bytes complete (none yet is fine); throws when the peer closed or the
    /// stream cannot be framed.
    func receive() throws(SIPTransportError) -> [SIPMessage] {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw .closedByPeer }
        if count < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return [] }
            throw .system(SystemCallError(call: "recv", errno: code, path: "\(remote)"))
        }
        do throws(SIPError) {
            return try framer.append(buffer[..<count])
        } catch {
            throw .framing(error)
        }
    }

    deinit { close(descriptor) }
}

extension Duration {
    /// Whole milliseconds, for poll(2) timeouts.
    var wholeMilliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
