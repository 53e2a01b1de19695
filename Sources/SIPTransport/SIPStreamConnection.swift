import Glibc
import IntercomPlatform
import SIPCore

/// A non-blocking TCP connection, framed by Content-Length (RFC 3261 §18.3, `SIPStreamFramer`): the one we open
/// to the registrar, or one a phone or proxy opened to our listener. Used from the SIP thread only; a slow
/// connect or a stalled peer costs that thread at most its timeout.
final class SIPStreamConnection {
    let descriptor: Int32
    let local: SIPSocketAddress
    let remote: SIPSocketAddress
    private var framer = SIPStreamFramer()
    /// When bytes last came in (the loop's clock), for closing idle accepted connections.
    var lastActivity: Duration = .zero

    /// A connection `SIPStreamListener` accepted; it owns `descriptor` from now on.
    init(accepted descriptor: Int32, remote: SIPSocketAddress, at now: Duration) throws(SIPTransportError) {
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        self.descriptor = descriptor
        self.remote = remote
        lastActivity = now
        do throws(SIPTransportError) {
            local = try SIPSocketAddress.boundAddress(of: descriptor)
        } catch {
            close(descriptor)
            throw error
        }
    }

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
        if status != 0, let failure = NonBlockingStream.waitConnected(fd, timeout: timeout) {
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

    /// Writes all of `bytes`, waiting for buffer space at most `timeout` in all.
    func send(_ bytes: [UInt8], timeout: Duration = .seconds(2)) throws(SIPTransportError) {
        if let code = NonBlockingStream.sendAll(descriptor, bytes, timeout: timeout) {
            throw .system(SystemCallError(call: "send", errno: code, path: "\(remote)"))
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
