import Glibc
import IntercomPlatform

/// A non-blocking TCP listening socket on the wildcard address, so that a phone or proxy can open a connection
/// to the device (RFC 3261 §18.2.1: a server listening on UDP listens on TCP too when it offers TCP).
final class SIPStreamListener {
    let descriptor: Int32
    let local: SIPSocketAddress

    /// Binds `port` (0: the kernel chooses) of `family` (IPv6 sockets also take IPv4: `IPV6_V6ONLY` off).
    init(family: Int32, port: Int, backlog: Int32 = 16) throws(SIPTransportError) {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemCallError(call: "socket", errno: errno)) }
        var on: Int32 = 1
        // A restarted agent binds again at once instead of waiting out the old connections' TIME_WAIT.
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let (address, length) = SIPSocketAddress.wildcard(family: family, port: port)
        if family == AF_INET6 {
            var off: Int32 = 0
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        var storage = address
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system(SystemCallError(call: "bind", errno: code, path: "tcp port \(port)"))
        }
        guard listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw .system(SystemCallError(call: "listen", errno: code, path: "tcp port \(port)"))
        }
        descriptor = fd
        do throws(SIPTransportError) {
            local = try SIPSocketAddress.boundAddress(of: fd)
        } catch {
            close(fd)
            throw error
        }
    }

    /// One waiting connection (non-blocking, close-on-exec) with its peer, or nil when none is waiting.
    func accept() throws(SIPTransportError) -> (descriptor: Int32, remote: SIPSocketAddress)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.accept(descriptor, $0, &length)
            }
        }
        if fd >= 0 {
            // accept4(2) is not in Swift's Glibc module: the flags are set here, before anyone reads.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return (fd, SIPSocketAddress(storage: storage, length: length))
        }
        let code = errno
        // ECONNABORTED: the peer gave up before we took it; nothing to do (accept(2)).
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED { return nil }
        throw .system(SystemCallError(call: "accept", errno: code, path: "tcp port \(local.port)"))
    }

    deinit { close(descriptor) }
}
